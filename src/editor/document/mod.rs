//! The edited level, its selection and its undo history. No egui here: every edit is a [`Change`] that the
//! views emit and the document applies, so the whole editing model is testable without a window.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

pub mod character;
mod clipboard;
mod edit;
pub mod game;
mod object;
pub mod sector;
mod selection;

pub use edit::{Change, Edit, LabelledEdit, Preview};
pub use object::{Header, Kind, Object};

use crate::level::{Level, ObjectId};

/// Where an object is: its kind and index.
pub type Slot = (Kind, usize);

/// Identifies one opened document for the editor's lifetime: every open, new level, recovery or embedded
/// level gets a fresh one, so derived state of one document is never taken for another's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DocId(u64);

impl DocId {
    fn fresh() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Self(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

/// What derived state (the drawn scene, problems, the 3D scene, the recording, probe results) is computed
/// from: which document, and which revision of it. A cache keyed by this rebuilds when either changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DocKey {
    /// The document.
    pub id: DocId,
    /// Its revision (see [`Document::revision`]).
    pub revision: u64,
}

/// The level being edited, with its file, selection and history.
pub struct Document {
    level: Level,
    /// The file it was opened from or last saved to; `None` for a new or the embedded level.
    pub path: Option<PathBuf>,
    /// Selected objects (only ids in the level; see `selection.rs`).
    selection: BTreeSet<ObjectId>,
    /// Whether the walker's start is selected (it is part of the header, not an object).
    walker_selected: bool,
    index: HashMap<ObjectId, Slot>,
    history: Vec<Change>,
    /// Changes `history[..cursor]` are applied; the rest can be redone.
    cursor: usize,
    next_serial: u64,
    saved_serial: Option<u64>,
    id: DocId,
    revision: u64,
    /// Why the last refused edit was refused (see [`Document::take_refused`]).
    refused: Option<String>,
}

impl Document {
    /// A document for `level` (from `path` when it came from a file), clean and with an empty history.
    #[must_use]
    pub fn new(level: Level, path: Option<PathBuf>) -> Self {
        let mut doc = Self {
            level,
            path,
            selection: BTreeSet::new(),
            walker_selected: false,
            index: HashMap::new(),
            history: Vec::new(),
            cursor: 0,
            next_serial: 1,
            saved_serial: Some(0),
            id: DocId::fresh(),
            revision: 0,
            refused: None,
        };
        doc.reindex();
        doc
    }

    /// Why an edit was refused since the last call (a pasted, duplicated or moved sector overlapping a
    /// room of its storey), taken: the editor says it in the status bar.
    pub fn take_refused(&mut self) -> Option<String> {
        self.refused.take()
    }

    /// The level as it is now.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Counts every change to the level, previews included. Restarts with each document: key derived
    /// data by [`Document::key`], not by this alone.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// This document's unique id.
    #[must_use]
    pub fn id(&self) -> DocId {
        self.id
    }

    /// The cache key of derived data: this document at this revision.
    #[must_use]
    pub fn key(&self) -> DocKey {
        DocKey {
            id: self.id,
            revision: self.revision,
        }
    }

    fn reindex(&mut self) {
        self.index.clear();
        for &kind in Kind::ALL {
            for i in 0..kind.count(&self.level) {
                if let Some(id) = Object::id_at(&self.level, kind, i) {
                    self.index.entry(id).or_insert((kind, i));
                }
            }
        }
        self.selection.retain(|id| self.index.contains_key(id));
        self.walker_selected &= self.level.walker.is_some();
        self.revision += 1;
    }

    /// Where the object with `id` is.
    #[must_use]
    pub fn slot(&self, id: ObjectId) -> Option<Slot> {
        self.index.get(&id).copied()
    }

    /// A copy of the object with `id`.
    #[must_use]
    pub fn object(&self, id: ObjectId) -> Option<Object> {
        let (kind, i) = self.slot(id)?;
        Object::get(&self.level, kind, i)
    }

    /// Whether there are unsaved changes.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.saved_serial != Some(self.current_serial())
    }

    fn current_serial(&self) -> u64 {
        self.cursor
            .checked_sub(1)
            .map_or(0, |i| self.history[i].serial)
    }

    /// Record that the level as it is now is what the file holds.
    pub fn mark_saved(&mut self, path: PathBuf) {
        self.path = Some(path);
        self.saved_serial = Some(self.current_serial());
    }

    /// Make the level count as changed (for a level recovered from autosave, which no file holds).
    pub fn mark_unsaved(&mut self) {
        self.saved_serial = None;
    }
}

/// "1 wall", "3 walls".
#[must_use]
pub fn count_noun(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        format!("{n} {stem}ies")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::WallObject;
    use glam::Vec2;

    fn wall(id: u32, x: f32) -> Object {
        Object::Wall(WallObject {
            id: ObjectId(id),
            name: None,
            a: Vec2::new(x, 0.0),
            b: Vec2::new(x, 4.0),
            radius: 0.5,
            height: None,
            properties: Default::default(),
        })
    }

    fn house() -> Document {
        let level = Level::from_ron_str(include_str!("../../../levels/house.ron")).unwrap();
        Document::new(level, None)
    }

    #[test]
    fn undo_redo_restore_every_state_exactly() {
        let mut doc = house();
        let mut states = vec![doc.level().clone()];
        doc.apply(
            "Draw 2 walls",
            Edit {
                add: vec![wall(0, 1.0), wall(0, 2.0)],
                ..Edit::default()
            },
        );
        states.push(doc.level().clone());
        doc.selection = [ObjectId(3), ObjectId(7)].into();
        doc.move_selection(Vec2::new(0.5, -1.0), "Move");
        states.push(doc.level().clone());
        doc.selection = [ObjectId(2), ObjectId(5), ObjectId(11)].into();
        doc.delete_selection();
        states.push(doc.level().clone());
        doc.selection = [ObjectId(1), ObjectId(9)].into();
        doc.duplicate_selection(Vec2::ONE);
        states.push(doc.level().clone());
        let mut h = Header::of(doc.level());
        h.name = "renamed".into();
        doc.apply(
            "Rename",
            Edit {
                header: Some(h),
                remove: vec![ObjectId(4)],
                ..Edit::default()
            },
        );
        states.push(doc.level().clone());
        for i in (0..states.len() - 1).rev() {
            doc.undo().unwrap();
            assert_eq!(doc.level(), &states[i], "undo to state {i}");
        }
        assert!(!doc.is_dirty());
        for (i, s) in states.iter().enumerate().skip(1) {
            doc.redo().unwrap();
            assert_eq!(doc.level(), s, "redo to state {i}");
        }
        assert!(doc.is_dirty());
        assert_eq!(doc.history().0.len(), 5);
    }

    #[test]
    fn an_edit_that_changes_nothing_is_not_a_step() {
        let mut doc = house();
        let same = doc.object(ObjectId(1)).unwrap();
        assert!(!doc.apply(
            "Nothing",
            Edit {
                replace: vec![same],
                ..Edit::default()
            }
        ));
        assert!(!doc.move_selection(Vec2::ONE, "Move nothing"));
        assert_eq!(doc.history().0.len(), 0);
        assert!(!doc.is_dirty());
    }

    #[test]
    fn merged_steps_undo_together_and_saving_breaks_the_merge() {
        let mut doc = house();
        let original = doc.level().clone();
        for r in [0.6, 0.7, 0.8] {
            let Some(Object::Wall(mut w)) = doc.object(ObjectId(1)) else {
                panic!()
            };
            w.radius = r;
            doc.apply_merging(
                "Set radius",
                Edit {
                    replace: vec![Object::Wall(w)],
                    ..Edit::default()
                },
                Some("radius".into()),
            );
        }
        assert_eq!(doc.history().0.len(), 1);
        doc.undo();
        assert_eq!(doc.level(), &original);
        doc.redo();
        doc.mark_saved("x.ron".into());
        let Some(Object::Wall(mut w)) = doc.object(ObjectId(1)) else {
            panic!()
        };
        w.radius = 0.9;
        doc.apply_merging(
            "Set radius",
            Edit {
                replace: vec![Object::Wall(w)],
                ..Edit::default()
            },
            Some("radius".into()),
        );
        assert_eq!(doc.history().0.len(), 2);
        doc.undo();
        assert!(!doc.is_dirty());
    }

    #[test]
    fn a_preview_is_one_step_from_the_original() {
        let mut doc = house();
        let original = doc.level().clone();
        doc.selection = [ObjectId(1), ObjectId(2)].into();
        let p = doc.begin_preview();
        for step in 1..=10 {
            let moved = p
                .originals
                .iter()
                .cloned()
                .map(|mut o| {
                    o.translate(Vec2::splat(step as f32 * 0.1));
                    o
                })
                .collect();
            doc.preview(moved, None);
        }
        assert!(doc.commit_preview(p, "Move 2 objects"));
        assert_eq!(doc.history().0, vec!["Move 2 objects"]);
        let Some(Object::Wall(w)) = doc.object(ObjectId(1)) else {
            panic!()
        };
        assert!((w.a - Vec2::new(-23.4, -13.1)).length() < 1e-4);
        doc.undo();
        assert_eq!(doc.level(), &original);
    }

    #[test]
    fn copy_paste_round_trips_into_another_level_with_fresh_ids() {
        let mut doc = house();
        doc.selection = [ObjectId(1), ObjectId(10)].into();
        let text = doc.copy_selection().unwrap();
        let mut other = Document::new(Level::default(), None);
        other
            .apply(
                "Draw",
                Edit {
                    add: vec![wall(1, 0.0)],
                    ..Edit::default()
                },
            )
            .then_some(())
            .unwrap();
        assert_eq!(other.paste(&text, None).unwrap(), 2);
        let level = other.level();
        assert_eq!(level.walls.len(), 2);
        assert_eq!(level.probes.len(), 1);
        assert_eq!(level.walls[1].a, Vec2::new(-23.4, -13.1));
        assert_ne!(level.walls[1].id, level.walls[0].id);
        assert!(level.is_valid());
        assert_eq!(other.selection.len(), 2);
        assert!(other.paste("not a level", None).is_err());
        assert_eq!(other.level().walls.len(), 2);
    }

    #[test]
    fn replay_matches_direct_application_on_random_edits() {
        // A small deterministic generator: many mixed edits, then undo all and redo all.
        let mut doc = house();
        let original = doc.level().clone();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rnd = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n.max(1)
        };
        let mut states = vec![original.clone()];
        for step in 0..200 {
            let ids: Vec<ObjectId> = doc.index.keys().copied().collect();
            let pick = |r: u64| ids.get(r as usize).copied();
            match rnd(4) {
                0 => {
                    doc.apply(
                        "add",
                        Edit {
                            add: vec![wall(0, step as f32)],
                            ..Edit::default()
                        },
                    );
                }
                1 => {
                    if let Some(id) = pick(rnd(ids.len() as u64)) {
                        doc.selection = [id].into();
                        doc.delete_selection();
                    }
                }
                2 => {
                    doc.selection = ids.iter().copied().filter(|_| rnd(3) == 0).collect();
                    doc.move_selection(Vec2::new(0.25, 0.5), "move");
                }
                _ => {
                    doc.selection = ids.iter().copied().filter(|_| rnd(5) == 0).collect();
                    doc.duplicate_selection(Vec2::X);
                }
            }
            if states.last() != Some(doc.level()) {
                states.push(doc.level().clone());
            }
        }
        let n = doc.history().1;
        assert_eq!(n + 1, states.len());
        for i in (0..n).rev() {
            doc.undo();
            assert_eq!(doc.level(), &states[i]);
        }
        doc.go_to(n);
        assert_eq!(doc.level(), states.last().unwrap());
    }
}
