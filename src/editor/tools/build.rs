//! The Build tool: drag a run (stairs, a ramp), a room's rectangle, or across the wall two rooms share (a
//! doorway); the release builds it with the greybox feature's builder and parameters (`Command::BuildAt`),
//! one undo step. A click selects the sector under the pointer (Shift adds one), and Enter builds on the
//! selection (`Command::BuildSelected`). The preview while dragging is the app's to draw from the gesture.

use egui::Ui;

use super::{Gesture, Pointer, ToolCtx, Tools};
use crate::editor::command::Command;

impl Tools {
    /// Build tool: a drag from a welded or snapped point to another asks for the build; a click selects.
    pub(crate) fn build_pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let scale = pt.cam.scale;
        if resp.drag_started_by(egui::PointerButton::Primary)
            && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(pt.press)
        {
            // A parameter just typed in the palette keeps the keyboard through a drag (egui gives focus
            // up on clicks only), which swallowed the next builder's key: the drag ends the typing.
            ui.memory_mut(|m| m.stop_text_input());
            let (start, _) = self.snap_vertex(cx.doc, scale, pt.world(p), pt.shift);
            self.gesture = Some(Gesture::Place { start });
        }
        if resp.drag_stopped()
            && let Some(Gesture::Place { start }) = self.gesture.take()
        {
            let Some(p) = resp
                .interact_pointer_pos()
                .or(ui.input(|i| i.pointer.latest_pos()))
            else {
                return;
            };
            let (end, _) = self.snap_vertex(cx.doc, scale, pt.world(p), pt.shift);
            cx.out.commands.push(Command::BuildAt(start, end));
        } else if resp.clicked()
            && let Some(p) = pt.press
        {
            match cx.pick(pt.world(p), scale) {
                Some(Some(id)) if cx.doc.level().sectors.iter().any(|s| s.id == id) => {
                    if pt.shift {
                        cx.doc.add_to_selection([id], false);
                    } else {
                        cx.doc.select_only([id]);
                    }
                    let n = cx.doc.selection().len();
                    *cx.status = format!(
                        "{n} selected: Enter builds stairs or a ramp in one sector, a doorway between two"
                    );
                }
                _ => cx.doc.clear_selection(),
            }
        }
    }

    /// The Build tool's drag end point for the preview: `cursor` welded or snapped as the release would be.
    pub(crate) fn build_end(
        &self,
        doc: &crate::editor::document::Document,
        scale: f32,
        cursor: glam::Vec2,
        shift: bool,
    ) -> glam::Vec2 {
        self.snap_vertex(doc, scale, cursor, shift).0
    }
}
