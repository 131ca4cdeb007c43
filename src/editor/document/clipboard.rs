//! Copy, paste and duplicate: the clipboard holds a small level in RON, the same format as files.

use glam::Vec2;

use super::*;
use crate::level::{Level, LevelError, ObjectId};

impl Document {
    /// The selected objects as a level in RON: what Copy puts on the clipboard.
    #[must_use]
    pub fn copy_selection(&self) -> Option<String> {
        let objects = self.selected_objects();
        if objects.is_empty() {
            return None;
        }
        let mut clip = Level {
            name: "clipboard".into(),
            ..Level::default()
        };
        for o in objects {
            o.push_into(&mut clip);
        }
        Some(clip.to_ron_string())
    }

    /// Parse clipboard text (a level in RON, such as [`Document::copy_selection`] gives) and add its objects,
    /// moved so that their bounds' centre lands on `at` (or by `(1, 1)` m when `at` is `None`). The pasted
    /// objects get fresh ids and become the selection; returns how many were pasted.
    ///
    /// # Errors
    /// The parse error when the text is not a level.
    pub fn paste(&mut self, text: &str, at: Option<Vec2>) -> Result<usize, LevelError> {
        let clip = Level::from_ron_str(text)?;
        let objects: Vec<Object> = Object::all(&clip).collect();
        let offset = match (at, clip.bounds()) {
            (Some(at), Some(b)) => {
                let c = (b.min + b.max) * 0.5;
                at - Vec2::new(c.x, c.z)
            }
            _ => Vec2::ONE,
        };
        let offset = if offset.is_finite() {
            offset
        } else {
            Vec2::ONE
        };
        let n = self.add_moved("Paste", objects, offset);
        Ok(n)
    }

    /// Copies of the selection moved by `offset`, added as one step ("Duplicate").
    pub fn duplicate_selection(&mut self, offset: Vec2) -> usize {
        let objects = self.selected_objects();
        self.add_moved("Duplicate", objects, offset)
    }

    /// Add `objects` moved by `offset` as one step named "`verb` N objects"; [`Document::apply`] gives them
    /// fresh ids (id 0 always gets one). Returns how many (none when refused: see
    /// [`Document::take_refused`]).
    pub(crate) fn add_moved(
        &mut self,
        verb: &str,
        mut objects: Vec<Object>,
        offset: Vec2,
    ) -> usize {
        for o in &mut objects {
            o.translate(offset);
            o.set_id(ObjectId(0));
        }
        let n = objects.len();
        let applied = self.apply(
            format!("{verb} {}", count_noun(n, "object")),
            Edit {
                add: objects,
                ..Edit::default()
            },
        );
        if applied { n } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::sector::new_sector;

    /// Two rooms sharing the edge x = 2, the second a step up.
    fn rooms() -> Document {
        let square = |x: f32| {
            vec![
                Vec2::new(x, 0.0),
                Vec2::new(x + 2.0, 0.0),
                Vec2::new(x + 2.0, 2.0),
                Vec2::new(x, 2.0),
            ]
        };
        let mut a = new_sector(square(0.0), 0.0, 3.0);
        a.id = ObjectId(1);
        let mut b = new_sector(square(2.0), 0.3, 3.0);
        b.id = ObjectId(2);
        Document::new(
            Level {
                sectors: vec![a, b],
                ..Level::default()
            },
            None,
        )
    }

    #[test]
    fn sectors_delete_copy_and_paste_each_as_one_step() {
        let mut doc = rooms();
        let before = doc.level().clone();
        doc.select_only([ObjectId(2)]);
        let clip = doc.copy_selection().unwrap();
        assert!(clip.contains("sectors"), "{clip}");
        // Delete: one step, undone whole.
        assert_eq!(doc.delete_selection(), 1);
        assert_eq!(doc.level().sectors.len(), 1);
        assert_eq!(doc.history().0.len(), 1);
        doc.undo();
        assert_eq!(doc.level(), &before);
        // Paste beside the rooms: a fresh id, the outline moved whole (its centre on the cursor), heights
        // kept, one step, the pasted sector selected.
        assert_eq!(doc.paste(&clip, Some(Vec2::new(10.0, 1.0))).unwrap(), 1);
        let pasted = doc.level().sectors[2].clone();
        assert!(pasted.id != ObjectId(1) && pasted.id != ObjectId(2));
        assert_eq!(pasted.outline[0], Vec2::new(9.0, 0.0));
        assert_eq!(pasted.outline[2], Vec2::new(11.0, 2.0));
        assert_eq!((pasted.floor.height, pasted.ceiling.height), (0.3, 3.0));
        assert!(doc.selection().len() == 1 && doc.selection().contains(&pasted.id));
        assert!(doc.level().is_valid());
        assert_eq!(
            doc.history().0.len(),
            1,
            "the delete's redo is dropped, the paste is the step"
        );
        doc.undo();
        assert_eq!(doc.level(), &before);
        doc.redo();
        assert_eq!(doc.level().sectors[2], pasted);
    }
}
