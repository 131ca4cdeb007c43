//! The edited level, its selection and its undo history. No egui here: every edit is a [`Change`] that the
//! views emit and the document applies, so the whole editing model is testable without a window.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use glam::{Vec2, Vec3};

use crate::level::{
    AabbObject, BallObject, CylinderObject, Level, LevelError, MeshObject, ObbObject, ObjectId,
    PlaneObject, Probe, SimulationConfig, TriangleObject, WalkerStart, WallObject,
};

/// Calls `$m!(Variant, field, Type)` once per kind of level object; keeps the per-kind code in one place.
macro_rules! for_each_kind {
    ($m:ident) => {
        $m! {
            Wall, walls, WallObject;
            Triangle, triangles, TriangleObject;
            Ball, balls, BallObject;
            Plane, planes, PlaneObject;
            Cylinder, cylinders, CylinderObject;
            Aabb, aabbs, AabbObject;
            Obb, obbs, ObbObject;
            Mesh, meshes, MeshObject;
            Probe, probes, Probe
        }
    };
}

macro_rules! define_kinds {
    ($($variant:ident, $field:ident, $ty:ty);*) => {
        /// The kinds of level objects (one list in [`Level`] each).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $(
                #[doc = concat!("`Level::", stringify!($field), "`.")]
                $variant,
            )*
        }

        impl Kind {
            /// Every kind, in file order.
            pub const ALL: &[Kind] = &[$(Kind::$variant),*];

            /// The field of [`Level`] that holds this kind.
            #[must_use]
            pub fn field(self) -> &'static str {
                match self { $(Kind::$variant => stringify!($field)),* }
            }

            /// How many objects of this kind `level` has.
            #[must_use]
            pub fn count(self, level: &Level) -> usize {
                match self { $(Kind::$variant => level.$field.len()),* }
            }
        }

        /// One level object of any kind, owned.
        #[derive(Clone, Debug, PartialEq)]
        #[allow(missing_docs)]
        pub enum Object {
            $($variant($ty)),*
        }

        impl Object {
            /// Its kind.
            #[must_use]
            pub fn kind(&self) -> Kind {
                match self { $(Object::$variant(_) => Kind::$variant),* }
            }

            /// Its id.
            #[must_use]
            pub fn id(&self) -> ObjectId {
                match self { $(Object::$variant(o) => o.id),* }
            }

            /// Give it another id.
            pub fn set_id(&mut self, id: ObjectId) {
                match self { $(Object::$variant(o) => o.id = id),* }
            }

            /// Its optional name.
            #[must_use]
            pub fn name(&self) -> Option<&str> {
                match self { $(Object::$variant(o) => o.name.as_deref()),* }
            }

            /// Set or clear its name.
            pub fn set_name(&mut self, name: Option<String>) {
                match self { $(Object::$variant(o) => o.name = name),* }
            }

            /// A copy of the object at `index` of `kind` in `level`.
            #[must_use]
            pub fn get(level: &Level, kind: Kind, index: usize) -> Option<Object> {
                match kind { $(Kind::$variant => level.$field.get(index).cloned().map(Object::$variant)),* }
            }

            /// Id of the object at `index` of `kind`.
            fn id_at(level: &Level, kind: Kind, index: usize) -> Option<ObjectId> {
                match kind { $(Kind::$variant => level.$field.get(index).map(|o| o.id)),* }
            }

            fn insert_into(self, level: &mut Level, index: usize) {
                match self {
                    $(Object::$variant(o) => {
                        let i = index.min(level.$field.len());
                        level.$field.insert(i, o);
                    })*
                }
            }

            fn replace_in(self, level: &mut Level, index: usize) {
                match self {
                    $(Object::$variant(o) => {
                        if let Some(slot) = level.$field.get_mut(index) { *slot = o; }
                    })*
                }
            }

            fn remove_from(level: &mut Level, kind: Kind, index: usize) {
                match kind {
                    $(Kind::$variant => {
                        if index < level.$field.len() { level.$field.remove(index); }
                    })*
                }
            }

            /// Every object of `level` in file order.
            pub fn all(level: &Level) -> impl Iterator<Item = Object> + '_ {
                std::iter::empty()
                    $(.chain(level.$field.iter().cloned().map(Object::$variant)))*
            }

            /// Add the object at the end of its kind's list.
            pub fn push_into(self, level: &mut Level) {
                match self { $(Object::$variant(o) => level.$field.push(o)),* }
            }
        }
    };
}

for_each_kind!(define_kinds);

impl Kind {
    /// A singular noun for messages: "wall", "ball", …
    #[must_use]
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Wall => "wall",
            Kind::Triangle => "triangle",
            Kind::Ball => "ball",
            Kind::Plane => "plane",
            Kind::Cylinder => "cylinder",
            Kind::Aabb => "box (AABB)",
            Kind::Obb => "box (OBB)",
            Kind::Mesh => "mesh",
            Kind::Probe => "probe",
        }
    }
}

/// Move a top-down point `(x, z)` by `d`.
fn shift3(p: &mut Vec3, d: Vec2) {
    p.x += d.x;
    p.z += d.y;
}

impl Object {
    /// A short description for lists: `wall #3 "south"`.
    #[must_use]
    pub fn label(&self) -> String {
        match self.name() {
            Some(n) => format!("{} {} \"{n}\"", self.kind().noun(), self.id()),
            None => format!("{} {}", self.kind().noun(), self.id()),
        }
    }

    /// Whether moving it in the top-down view changes it. A mesh loaded from an OBJ file cannot move (its
    /// geometry is the file's), and a horizontal plane has no top-down position.
    #[must_use]
    pub fn is_movable(&self) -> bool {
        match self {
            Object::Mesh(m) => m.obj.is_none(),
            Object::Plane(p) => p.normal.x != 0.0 || p.normal.z != 0.0,
            _ => true,
        }
    }

    /// Move it by `d` metres on the floor (`d = (dx, dz)`). Objects that cannot move are left as they are.
    pub fn translate(&mut self, d: Vec2) {
        if !self.is_movable() {
            return;
        }
        match self {
            Object::Wall(w) => {
                w.a += d;
                w.b += d;
            }
            Object::Triangle(t) => {
                for p in [&mut t.a, &mut t.b, &mut t.c] {
                    shift3(p, d);
                }
            }
            Object::Ball(b) => shift3(&mut b.center, d),
            // Points p on the plane satisfy n·p = d; moved points p + m satisfy n·p' = d + n·m.
            Object::Plane(p) => p.d += p.normal.x * d.x + p.normal.z * d.y,
            Object::Cylinder(c) => {
                shift3(&mut c.a, d);
                shift3(&mut c.b, d);
            }
            Object::Aabb(b) => {
                shift3(&mut b.min, d);
                shift3(&mut b.max, d);
            }
            Object::Obb(b) => shift3(&mut b.center, d),
            Object::Mesh(m) => m.vertices.iter_mut().for_each(|v| shift3(v, d)),
            Object::Probe(p) => shift3(&mut p.origin, d),
        }
    }
}

/// The level's settings that are not objects: what the Level panel edits, and what the walker tool moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Level name.
    pub name: String,
    /// Free text.
    pub description: String,
    /// Height of walls without their own.
    pub default_wall_height: f32,
    /// The walker's start.
    pub walker: Option<WalkerStart>,
    /// Gravity and time step.
    pub simulation: SimulationConfig,
}

impl Header {
    /// The header of `level`.
    #[must_use]
    pub fn of(level: &Level) -> Self {
        Self {
            name: level.name.clone(),
            description: level.description.clone(),
            default_wall_height: level.default_wall_height,
            walker: level.walker.clone(),
            simulation: level.simulation.clone(),
        }
    }

    fn write_to(&self, level: &mut Level) {
        level.name.clone_from(&self.name);
        level.description.clone_from(&self.description);
        level.default_wall_height = self.default_wall_height;
        level.walker.clone_from(&self.walker);
        level.simulation = self.simulation.clone();
    }
}

/// An object and where it sits in its kind's list.
#[derive(Clone, Debug, PartialEq)]
struct Placed {
    index: usize,
    object: Object,
}

/// One undoable step: the touched objects as they were and as they are, with their list positions, and the
/// header before and after when it changed. Applying it forwards removes `before` and inserts `after`;
/// backwards the other way round. Objects not touched keep their order, so positions stay exact.
#[derive(Clone, Debug)]
pub struct Change {
    /// What the History panel shows: "Draw 3 walls", "Move 2 objects", …
    pub label: String,
    before: Vec<Placed>,
    after: Vec<Placed>,
    header: Option<Box<(Header, Header)>>,
    /// Changes with the same key made one after another merge into one step (dragging a number).
    merge_key: Option<String>,
    serial: u64,
}

impl Change {
    fn apply(&self, level: &mut Level, forwards: bool) {
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

    fn touched_ids(&self) -> BTreeSet<ObjectId> {
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
#[derive(Clone, Debug, Default)]
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
    /// Selected objects.
    pub selection: BTreeSet<ObjectId>,
    /// Whether the walker's start is selected (it is part of the header, not an object).
    pub walker_selected: bool,
    index: HashMap<ObjectId, Slot>,
    history: Vec<Change>,
    /// Changes `history[..cursor]` are applied; the rest can be redone.
    cursor: usize,
    next_serial: u64,
    saved_serial: Option<u64>,
    id: DocId,
    revision: u64,
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
        };
        doc.reindex();
        doc
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

    /// Copies of the selected objects, in file order.
    #[must_use]
    pub fn selected_objects(&self) -> Vec<Object> {
        let mut slots: Vec<Slot> = self
            .selection
            .iter()
            .filter_map(|&id| self.slot(id))
            .collect();
        slots.sort_unstable();
        slots
            .into_iter()
            .filter_map(|(k, i)| Object::get(&self.level, k, i))
            .collect()
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
        let Edit {
            remove,
            replace,
            add,
            header,
        } = edit;
        let mut before = Vec::new();
        let remove: BTreeSet<ObjectId> = remove.into_iter().collect();
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
        for &id in &remove {
            if let Some((kind, index)) = self.slot(id)
                && let Some(object) = Object::get(&self.level, kind, index)
            {
                before.push(Placed { index, object });
            }
        }
        let header = header
            .map(|h| (Header::of(&self.level), h))
            .filter(|(old, new)| old != new);
        if before.is_empty() && add.is_empty() && header.is_none() {
            return false;
        }

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
        if let Some((_, new)) = &header {
            new.write_to(&mut self.level);
        }
        self.reindex();

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
        let mut change = Change {
            label: label.into(),
            before,
            after,
            header: header.map(Box::new),
            merge_key,
            serial: self.next_serial,
        };
        self.next_serial += 1;
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
        // Added objects become the selection, so a new thing can be edited at once.
        if !added_ids.is_empty() {
            self.selection = added_ids.into_iter().collect();
        }
        true
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

    fn select_touched(&mut self, i: usize) {
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
    fn add_moved(&mut self, verb: &str, mut objects: Vec<Object>, offset: Vec2) -> usize {
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

    /// Select every object.
    pub fn select_all(&mut self) {
        self.selection = self.index.keys().copied().collect();
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

/// "1 wall", "3 walls".
#[must_use]
pub fn count_noun(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(id: u32, x: f32) -> Object {
        Object::Wall(WallObject {
            id: ObjectId(id),
            name: None,
            a: Vec2::new(x, 0.0),
            b: Vec2::new(x, 4.0),
            radius: 0.5,
            height: None,
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
