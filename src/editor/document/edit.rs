//! Edits and undo: every change to the level is an [`Edit`] that the document turns into an undoable
//! [`Change`] (the touched objects before and after, with their positions); live gestures are previews.

use std::collections::BTreeSet;

use glam::Vec2;

use super::*;
use crate::level::{Level, ObjectId};

/// An object and where it sits in its kind's list.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Placed {
    pub(crate) index: usize,
    pub(crate) object: Object,
}

/// One undoable step: the touched objects as they were and as they are, with their list positions, and the
/// header before and after when it changed. Applying it forwards removes `before` and inserts `after`;
/// backwards the other way round. Objects not touched keep their order, so positions stay exact.
#[derive(Clone, Debug)]
pub struct Change {
    /// What the History panel shows: "Draw 3 walls", "Move 2 objects", …
    pub label: String,
    pub(crate) before: Vec<Placed>,
    pub(crate) after: Vec<Placed>,
    pub(crate) header: Option<Box<(Header, Header)>>,
    /// Changes with the same key made one after another merge into one step (dragging a number).
    pub(crate) merge_key: Option<String>,
    pub(crate) serial: u64,
}

impl Change {
    pub(crate) fn apply(&self, level: &mut Level, forwards: bool) {
        let (remove, insert) = if forwards {
            (&self.before, &self.after)
        } else {
            (&self.after, &self.before)
        };
        let mut removals: Vec<(Kind, usize)> =
            remove.iter().map(|p| (p.object.kind(), p.index)).collect();
        removals.sort_unstable_by(|a, b| b.cmp(a));
        for (kind, index) in removals {
            Object::remove_from(level, kind, index);
        }
        let mut inserts: Vec<&Placed> = insert.iter().collect();
        inserts.sort_by_key(|p| (p.object.kind(), p.index));
        for p in inserts {
            p.object.clone().insert_into(level, p.index);
        }
        if let Some(h) = &self.header {
            if forwards { &h.1 } else { &h.0 }.write_to(level);
        }
    }

    pub(crate) fn touched_ids(&self) -> BTreeSet<ObjectId> {
        self.before
            .iter()
            .chain(&self.after)
            .map(|p| p.object.id())
            .collect()
    }

    /// Objects this step touches, and whether it changed the header.
    #[must_use]
    pub fn size(&self) -> (usize, bool) {
        (self.touched_ids().len(), self.header.is_some())
    }
}

/// What an edit does: objects to remove (by id), objects to replace (same id, same place), objects to add
/// (at the end of their lists), and an optional new header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Edit {
    /// Ids to remove.
    pub remove: Vec<ObjectId>,
    /// New versions of existing objects (matched by id; their kind must not change).
    pub replace: Vec<Object>,
    /// New objects; ids already in use are renumbered.
    pub add: Vec<Object>,
    /// The new header.
    pub header: Option<Header>,
}

/// An edit with its undo step's label and merge key: what a panel hands to the editor, which applies it as
/// a command (`Command::Apply`).
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledEdit {
    /// The undo step's name.
    pub label: String,
    /// What changes.
    pub edit: Edit,
    /// Steps with the same key made one after another merge (see [`Document::apply_merging`]).
    pub merge_key: Option<String>,
}

impl LabelledEdit {
    /// An edit named `label`, merging with the previous step of the same `merge_key`.
    #[must_use]
    pub fn new(label: impl Into<String>, edit: Edit, merge_key: Option<String>) -> Self {
        Self {
            label: label.into(),
            edit,
            merge_key,
        }
    }
}

/// The state a live edit started from (see [`Document::begin_preview`]).
#[derive(Clone, Debug)]
pub struct Preview {
    /// The selected objects when the preview began.
    pub originals: Vec<Object>,
    /// The header when the preview began.
    pub header: Header,
}

impl Document {
    /// Apply an edit as one undoable step named `label`. Returns `false` (and records nothing) when the edit
    /// changes nothing.
    pub fn apply(&mut self, label: impl Into<String>, edit: Edit) -> bool {
        self.apply_merging(label, edit, None)
    }

    /// [`Document::apply`], merged into the previous step when that one has the same `merge_key` and touched
    /// the same objects (one undo step for a whole drag of a number field).
    pub fn apply_merging(
        &mut self,
        label: impl Into<String>,
        edit: Edit,
        merge_key: Option<String>,
    ) -> bool {
        // A paste, a duplicate or a moved selection must not drop a sector onto a room of its storey.
        if let Some(why) = super::sector::edit_refusal(&self.level, &edit) {
            self.refused = Some(why);
            return false;
        }
        let Edit {
            remove,
            replace,
            add,
            header,
        } = edit;
        let remove: BTreeSet<ObjectId> = remove.into_iter().collect();
        let (before, replaced) = self.touched_before(&remove, replace);
        let header = header
            .map(|h| (Header::of(&self.level), h))
            .filter(|(old, new)| old != new);
        if before.is_empty() && add.is_empty() && header.is_none() {
            return false;
        }

        let added_ids = self.write_edit(&replaced, &remove, add, header.as_ref().map(|h| &h.1));
        let after: Vec<Placed> = replaced
            .into_iter()
            .map(|(_, o)| o.id())
            .chain(added_ids.iter().copied())
            .filter_map(|id| {
                let (kind, index) = self.slot(id)?;
                Some(Placed {
                    index,
                    object: Object::get(&self.level, kind, index)?,
                })
            })
            .collect();
        let change = Change {
            label: label.into(),
            before,
            after,
            header: header.map(Box::new),
            merge_key,
            serial: self.next_serial,
        };
        self.next_serial += 1;
        self.record(change);
        // Added objects become the selection, so a new thing can be edited at once.
        if !added_ids.is_empty() {
            self.selection = added_ids.into_iter().collect();
        }
        true
    }

    /// The objects an edit touches as they are now (with their positions), and the replacements that
    /// change something.
    fn touched_before(
        &self,
        remove: &BTreeSet<ObjectId>,
        replace: Vec<Object>,
    ) -> (Vec<Placed>, Vec<(usize, Object)>) {
        let mut before = Vec::new();
        let mut replaced = Vec::new();
        for o in replace {
            let Some((kind, index)) = self.slot(o.id()) else {
                continue;
            };
            if kind != o.kind() || remove.contains(&o.id()) {
                continue;
            }
            let old = Object::get(&self.level, kind, index);
            if old.as_ref() == Some(&o) {
                continue;
            }
            if let Some(old) = old {
                before.push(Placed { index, object: old });
            }
            replaced.push((index, o));
        }
        for &id in remove {
            if let Some((kind, index)) = self.slot(id)
                && let Some(object) = Object::get(&self.level, kind, index)
            {
                before.push(Placed { index, object });
            }
        }
        (before, replaced)
    }

    /// Write an edit into the level: replacements in place, removals, additions (renumbered when their id is
    /// taken) and the header. Returns the added objects' ids.
    fn write_edit(
        &mut self,
        replaced: &[(usize, Object)],
        remove: &BTreeSet<ObjectId>,
        add: Vec<Object>,
        header: Option<&Header>,
    ) -> Vec<ObjectId> {
        // Apply directly: replacements in place, removals from the back, additions at the end.
        for (index, o) in replaced.iter().cloned() {
            o.replace_in(&mut self.level, index);
        }
        let mut removals: Vec<Slot> = remove.iter().filter_map(|&id| self.slot(id)).collect();
        removals.sort_unstable_by(|a, b| b.cmp(a));
        for (kind, index) in removals {
            Object::remove_from(&mut self.level, kind, index);
        }
        let mut next = self.level.next_id().0;
        let mut added_ids = Vec::new();
        for mut o in add {
            let taken = self.index.contains_key(&o.id()) && !remove.contains(&o.id());
            if taken || added_ids.contains(&o.id()) || o.id().0 == 0 {
                o.set_id(ObjectId(next));
                next = next.saturating_add(1);
            }
            next = next.max(o.id().0.saturating_add(1));
            added_ids.push(o.id());
            o.push_into(&mut self.level);
        }
        if let Some(new) = header {
            new.write_to(&mut self.level);
        }
        self.reindex();

        added_ids
    }

    /// Push a step onto the history (dropping what was undone), merged into the last one when they share a
    /// merge key and objects and no save lies between.
    fn record(&mut self, mut change: Change) {
        self.history.truncate(self.cursor);
        if let Some(last) = self.history.last_mut()
            && change.merge_key.is_some()
            && last.merge_key == change.merge_key
            && last.touched_ids() == change.touched_ids()
            && self.saved_serial != Some(last.serial)
        {
            // Keep the first step's "before" and this step's "after".
            change.before = std::mem::take(&mut last.before);
            change.header = match (last.header.take(), change.header) {
                (Some(first), Some(now)) => Some(Box::new((first.0, now.1))),
                (first, now) => first.or(now),
            };
            *last = change;
        } else {
            self.history.push(change);
            self.cursor += 1;
        }
    }

    /// Start editing live (dragging): changes made through [`Document::preview`] show at once and become one
    /// step at [`Document::commit_preview`].
    pub fn begin_preview(&mut self) -> Preview {
        Preview {
            originals: self.selected_objects(),
            header: Header::of(&self.level),
        }
    }

    /// Replace objects in place without recording a step (part of a preview).
    pub fn preview(&mut self, objects: Vec<Object>, header: Option<Header>) {
        for o in objects {
            if let Some((kind, index)) = self.slot(o.id())
                && kind == o.kind()
            {
                o.replace_in(&mut self.level, index);
            }
        }
        if let Some(h) = header {
            h.write_to(&mut self.level);
        }
        self.revision += 1;
    }

    /// Turn a preview into one undoable step named `label` (nothing when it changed nothing).
    pub fn commit_preview(&mut self, preview: Preview, label: impl Into<String>) -> bool {
        let now: Vec<Object> = preview
            .originals
            .iter()
            .filter_map(|o| self.object(o.id()))
            .collect();
        let header_now = Header::of(&self.level);
        // Put the originals back, then apply the final state as a normal edit.
        self.preview(preview.originals, Some(preview.header));
        self.apply(
            label,
            Edit {
                replace: now,
                header: Some(header_now),
                ..Edit::default()
            },
        )
    }

    /// Abandon a preview: everything back as it was.
    pub fn cancel_preview(&mut self, preview: Preview) {
        self.preview(preview.originals, Some(preview.header));
    }

    /// Undo the last step; returns its label.
    pub fn undo(&mut self) -> Option<String> {
        let i = self.cursor.checked_sub(1)?;
        let change = &self.history[i];
        change.apply(&mut self.level, false);
        let label = change.label.clone();
        self.select_touched(i);
        self.cursor = i;
        self.reindex();
        Some(label)
    }

    /// Redo the next step; returns its label.
    pub fn redo(&mut self) -> Option<String> {
        let change = self.history.get(self.cursor)?;
        change.apply(&mut self.level, true);
        let label = change.label.clone();
        self.select_touched(self.cursor);
        self.cursor += 1;
        self.reindex();
        Some(label)
    }

    pub(crate) fn select_touched(&mut self, i: usize) {
        self.selection = self.history[i].touched_ids();
    }

    /// Undo or redo until `cursor` steps are applied (the History panel's click).
    pub fn go_to(&mut self, cursor: usize) {
        while self.cursor > cursor && self.undo().is_some() {}
        while self.cursor < cursor.min(self.history.len()) && self.redo().is_some() {}
    }

    /// Every recorded step's label, and how many are applied.
    #[must_use]
    pub fn history(&self) -> (Vec<&str>, usize) {
        (
            self.history.iter().map(|c| c.label.as_str()).collect(),
            self.cursor,
        )
    }

    /// Whether there is a step to undo / to redo.
    #[must_use]
    pub fn can_undo_redo(&self) -> (bool, bool) {
        (self.cursor > 0, self.cursor < self.history.len())
    }

    /// Delete the selection as one step.
    pub fn delete_selection(&mut self) -> usize {
        let ids: Vec<ObjectId> = self.selection.iter().copied().collect();
        let n = ids.len();
        self.apply(
            format!("Delete {}", count_noun(n, "object")),
            Edit {
                remove: ids,
                ..Edit::default()
            },
        );
        n
    }

    /// Move the selection by `d` metres as one step.
    pub fn move_selection(&mut self, d: Vec2, label: &str) -> bool {
        let objects = self
            .selected_objects()
            .into_iter()
            .map(|mut o| {
                o.translate(d);
                o
            })
            .collect();
        self.apply(
            label,
            Edit {
                replace: objects,
                ..Edit::default()
            },
        )
    }
}
