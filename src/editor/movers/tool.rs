//! The Mover tool (L): a click picks the object to move (a sector's floor; Alt+click its ceiling), then
//! each click adds a point of its path in the top-down view (offsets from the first click, snapped to the
//! grid; heights in the inspector). Enter adds the mover as one undo step, Backspace removes the last point,
//! Esc cancels.

use crate::editor::tools::{Pointer, ToolCtx, Tools};

use super::{add_edit, new_mover, path_of, pick};

impl Tools {
    /// The Mover tool's click: pick the object first, then add a path point.
    pub(crate) fn mover_pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &egui::Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Some(p) = pt.press else {
            return;
        };
        if !resp.clicked() {
            return;
        }
        let w = pt.world(p);
        let Some(picked) = self.mover else {
            let Some(Some(id)) = cx.pick(w, pt.cam.scale) else {
                *cx.status = "Mover: click an object to move".into();
                return;
            };
            let ceiling = ui.input(|i| i.modifiers.alt);
            match pick(cx.doc, id, self.snapped(w, pt.shift), ceiling) {
                Ok(m) => {
                    self.mover = Some(m);
                    self.chain.clear();
                    *cx.status = format!("Mover: {:?} of {id}; click its path", m.part);
                }
                Err(why) => *cx.status = format!("Mover: {why}"),
            }
            return;
        };
        let v = self.snapped(w, pt.shift);
        if self.chain.last() != Some(&v) && v != picked.at {
            self.chain.push(v);
            *cx.status = format!(
                "Mover: {} point(s); Enter adds the mover",
                self.chain.len() + 1
            );
        }
    }

    /// Enter with the Mover tool: the picked object's mover along the clicked points, one undo step.
    pub(crate) fn finish_mover(&mut self, cx: &mut ToolCtx<'_>) {
        let Some(picked) = self.mover else {
            *cx.status = "Mover: click an object first".into();
            return;
        };
        let Some(path) = path_of(&picked, &self.chain) else {
            *cx.status = "Mover: click at least one point of its path first".into();
            return;
        };
        let mover = new_mover(cx.doc.level(), &picked, path);
        let id = mover.id;
        cx.apply_edit(add_edit(cx.doc.level(), mover));
        self.mover = None;
        self.chain.clear();
        *cx.status = format!("added mover {id}");
    }
}
