//! The Select tool: picking, box selection, moving and rotating.

use glam::Vec2;

use crate::editor::app::*;
use crate::editor::document::count_noun;
use crate::level::ObjectId;

impl EditorApp {
    pub(crate) fn box_select(&mut self, a: Vec2, b: Vec2, add: bool, remove: bool) {
        let (lo, hi) = (a.min(b), a.max(b));
        let inside: Vec<ObjectId> = self
            .scene
            .entries
            .iter()
            .filter(|e| {
                e.bounds
                    .is_some_and(|(l, h)| l.cmpge(lo).all() && h.cmple(hi).all())
            })
            .map(|e| e.id)
            .collect();
        let walker_inside = self
            .doc
            .level()
            .walker
            .as_ref()
            .is_some_and(|w| w.position.cmpge(lo).all() && w.position.cmple(hi).all());
        if remove {
            for id in &inside {
                self.doc.selection.remove(id);
            }
            self.doc.walker_selected &= !walker_inside;
        } else {
            if !add {
                self.doc.selection.clear();
                self.doc.walker_selected = false;
            }
            self.doc.selection.extend(inside);
            self.doc.walker_selected |= walker_inside;
        }
        self.status = format!(
            "{} selected",
            count_noun(self.doc.selection.len(), "object")
        );
    }
}
