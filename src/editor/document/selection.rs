//! The selection: object ids and the walker's start, changed only through these methods (each keeps the
//! selection to objects that exist).

use std::collections::BTreeSet;

use super::*;
use crate::level::ObjectId;

impl Document {
    /// The selected objects' ids.
    #[must_use]
    pub fn selection(&self) -> &BTreeSet<ObjectId> {
        &self.selection
    }

    /// Whether the walker's start is selected.
    #[must_use]
    pub fn walker_selected(&self) -> bool {
        self.walker_selected
    }

    /// Whether nothing at all is selected.
    #[must_use]
    pub fn nothing_selected(&self) -> bool {
        self.selection.is_empty() && !self.walker_selected
    }

    /// Select exactly these objects (not the walker).
    pub fn select_only(&mut self, ids: impl IntoIterator<Item = ObjectId>) {
        self.selection.clear();
        self.walker_selected = false;
        self.add_to_selection(ids, false);
    }

    /// Select the walker's start alone.
    pub fn select_walker_only(&mut self) {
        self.selection.clear();
        self.walker_selected = self.level.walker.is_some();
    }

    /// Add these objects (and the walker when `walker`) to the selection.
    pub fn add_to_selection(&mut self, ids: impl IntoIterator<Item = ObjectId>, walker: bool) {
        let index = &self.index;
        self.selection
            .extend(ids.into_iter().filter(|id| index.contains_key(id)));
        self.walker_selected |= walker && self.level.walker.is_some();
    }

    /// Take these objects (and the walker when `walker`) out of the selection.
    pub fn remove_from_selection(&mut self, ids: impl IntoIterator<Item = ObjectId>, walker: bool) {
        for id in ids {
            self.selection.remove(&id);
        }
        self.walker_selected &= !walker;
    }

    /// Select the object if it is not selected, else deselect it (Shift+click).
    pub fn toggle_selected(&mut self, id: ObjectId) {
        if !self.selection.remove(&id) && self.index.contains_key(&id) {
            self.selection.insert(id);
        }
    }

    /// Select or deselect the walker's start, leaving the objects as they are.
    pub fn set_walker_selected(&mut self, on: bool) {
        self.walker_selected = on && self.level.walker.is_some();
    }

    /// Select nothing.
    pub fn clear_selection(&mut self) {
        self.selection.clear();
        self.walker_selected = false;
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

    /// Select every object.
    pub fn select_all(&mut self) {
        self.selection = self.index.keys().copied().collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selection_holds_only_objects_of_the_level() {
        let level = Level::from_ron_str(include_str!("../../../levels/house.ron")).unwrap();
        let mut doc = Document::new(level, None);
        doc.select_only([ObjectId(1), ObjectId(999)]);
        assert_eq!(
            doc.selection().iter().copied().collect::<Vec<_>>(),
            [ObjectId(1)]
        );
        doc.toggle_selected(ObjectId(2));
        doc.toggle_selected(ObjectId(1));
        doc.toggle_selected(ObjectId(998));
        assert_eq!(
            doc.selection().iter().copied().collect::<Vec<_>>(),
            [ObjectId(2)]
        );
        doc.add_to_selection([ObjectId(3)], true);
        assert!(doc.walker_selected() && doc.selection().len() == 2);
        doc.remove_from_selection([ObjectId(2)], true);
        assert!(!doc.walker_selected() && doc.selection().len() == 1);
        doc.select_walker_only();
        assert!(doc.walker_selected() && doc.selection().is_empty());
        doc.clear_selection();
        assert!(doc.nothing_selected());
    }
}
