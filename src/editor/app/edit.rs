//! The editing actions commands run: undo and redo, clipboard, delete, nudge, tool changes.

use glam::Vec2;

use crate::editor::app::*;
use crate::editor::document::{Edit, Header, LabelledEdit, Object, count_noun};
use crate::editor::tools::*;
use crate::level::ObjectId;

impl EditorApp {
    /// Undo one step.
    pub fn undo(&mut self) {
        self.cancel_gesture();
        self.status = match self.doc.undo() {
            Some(l) => format!("undid {l}"),
            None => "nothing to undo".into(),
        };
    }

    /// Redo one step.
    pub fn redo(&mut self) {
        self.cancel_gesture();
        self.status = match self.doc.redo() {
            Some(l) => format!("redid {l}"),
            None => "nothing to redo".into(),
        };
    }

    pub(crate) fn cancel_gesture(&mut self) {
        self.tools.cancel_gesture(&mut self.doc);
    }

    pub(crate) fn copy(&mut self, ctx: &egui::Context, cut: bool) {
        match self.doc.copy_selection() {
            Some(text) => {
                ctx.copy_text(text.clone());
                self.session.clipboard = Some(text);
                let n = self.doc.selection().len();
                if cut {
                    self.doc.delete_selection();
                    self.status = format!("cut {}", count_noun(n, "object"));
                } else {
                    self.status = format!("copied {} as RON", count_noun(n, "object"));
                }
            }
            None => self.status = "nothing selected to copy".into(),
        }
    }

    /// Paste level RON text at the cursor (or offset by 1 m).
    pub fn paste(&mut self, text: &str) {
        let at = self
            .view2d
            .cursor_world
            .map(|p| self.tools.snapped(p, false));
        match self.doc.paste(text, at) {
            Ok(n) => self.status = format!("pasted {}", count_noun(n, "object")),
            Err(e) => self.status = format!("the clipboard does not hold level objects: {e}"),
        }
    }

    pub(crate) fn delete(&mut self) {
        let mut n = self.doc.delete_selection();
        if self.doc.walker_selected() {
            let mut h = Header::of(self.doc.level());
            h.walker = None;
            self.apply_edit(LabelledEdit::new(
                "Delete walker",
                Edit {
                    header: Some(h),
                    ..Edit::default()
                },
                None,
            ));
            n += 1;
        }
        self.status = format!("deleted {}", count_noun(n, "object"));
    }

    pub(crate) fn nudge(&mut self, d: Vec2) {
        let mut objects = self.doc.selected_objects();
        objects.iter_mut().for_each(|o| o.translate(d));
        let header = self.doc.walker_selected().then(|| {
            let mut h = Header::of(self.doc.level());
            if let Some(w) = &mut h.walker {
                w.position += d;
            }
            h
        });
        let ids: Vec<String> = self
            .doc
            .selection()
            .iter()
            .map(|i| i.0.to_string())
            .collect();
        self.apply_edit(LabelledEdit::new(
            "Nudge",
            Edit {
                replace: objects,
                header,
                ..Edit::default()
            },
            Some(format!("nudge:{}", ids.join(","))),
        ));
    }

    pub(crate) fn set_tool(&mut self, tool: Tool) {
        self.tools.set_tool(&mut self.doc, tool);
    }

    /// Esc: cancel a drawing or a drag; with neither, clear the selection.
    pub(crate) fn cancel(&mut self) {
        if self.inspector.pick.take().is_some() {
            self.status = "picking cancelled".into();
        } else if !self.tools.chain.is_empty() || self.tools.gesture.is_some() {
            self.tools.chain.clear();
            self.cancel_gesture();
        } else {
            self.doc.clear_selection();
        }
    }

    /// Add the probe ray to the level as a probe object.
    pub(crate) fn keep_probe(&mut self) {
        if let Some((ray, max_t)) = self.probe.ray {
            self.add_object(
                "Add probe",
                Object::Probe(crate::level::Probe {
                    id: ObjectId(0),
                    name: None,
                    origin: ray.origin,
                    dir: ray.dir,
                    max_t,
                    properties: Default::default(),
                }),
            );
        }
    }

    pub(crate) fn add_object(&mut self, label: &str, o: Object) {
        self.apply_edit(LabelledEdit::new(
            label,
            Edit {
                add: vec![o],
                ..Edit::default()
            },
            None,
        ));
        self.status = label.to_lowercase();
    }

    /// Apply an edit as one undo step: the one way the tools and panels change the level (previews of a live
    /// drag aside). Returns whether it changed anything.
    pub(crate) fn apply_edit(&mut self, e: LabelledEdit) -> bool {
        self.doc.apply_merging(e.label, e.edit, e.merge_key)
    }
}
