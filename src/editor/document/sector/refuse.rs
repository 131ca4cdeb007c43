//! Edits that do not go through the sector functions (paste, duplicate, moving or nudging the selection)
//! checked the same way when they add or change sectors: a sector dropped onto a room of its storey is
//! refused with the runtime's reason instead of being accepted as an overlap.

use super::check;
use crate::editor::document::{Edit, Object};
use crate::level::{Level, SectorObject};

/// Why `edit` may not be applied to `level`: a sector it adds or changes is invalid there (it overlaps
/// another in plan where their heights overlap, most often), as [`check`] says, when the sector it changes
/// was not already so (a level read with an overlap can still be edited). `None`: no sector refuses it.
#[must_use]
pub fn edit_refusal(level: &Level, edit: &Edit) -> Option<String> {
    let sectors = |objects: &[Object]| -> Vec<SectorObject> {
        objects
            .iter()
            .filter_map(|o| match o {
                Object::Sector(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    };
    let added = sectors(&edit.add);
    let mut changed = sectors(&edit.replace);
    changed.retain(|s| !edit.remove.contains(&s.id));
    if added.is_empty() && changed.is_empty() {
        return None;
    }
    let why = check(level, &changed, &added, &edit.remove).err()?;
    // The changed sectors as they are: refused only when the edit makes them worse.
    let before: Vec<SectorObject> = changed
        .iter()
        .filter_map(|s| level.sectors.iter().find(|o| o.id == s.id).cloned())
        .collect();
    if !before.is_empty() && check(level, &before, &[], &edit.remove).is_err() {
        return None;
    }
    Some(format!("refused: {why}"))
}
