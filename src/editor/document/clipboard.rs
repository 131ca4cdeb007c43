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
    /// fresh ids (id 0 always gets one). Returns how many.
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
        self.apply(
            format!("{verb} {}", count_noun(n, "object")),
            Edit {
                add: objects,
                ..Edit::default()
            },
        );
        n
    }
}
