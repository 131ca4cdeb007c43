//! Movers in the editor: the model of a new mover (no egui: which objects can move, the path from the
//! clicked points, the one undo step that adds it) and the Mover tool's pointer ([`tool`]). Movers live in
//! the level's header ([`Header::movers`]), so adding or editing one is one header edit, one undo step;
//! the level's validation reports a bad path or speed like any other problem.

pub mod edit;
pub mod marks;
pub mod marks3d;
pub mod paint;
pub mod points3d;
pub mod shown;
pub mod tool;

use glam::{Vec2, Vec3};

use crate::editor::document::{Document, Edit, Header, Kind, LabelledEdit};
pub use crate::editor::tools::MoverPick;
use crate::level::{Level, MoverObject, MoverPart, MoverStart, ObjectId, Repeat};

/// A new mover's speed, metres per second.
pub const DEFAULT_SPEED: f32 = 2.0;
/// A new mover's wait at each end, seconds.
pub const DEFAULT_WAIT: f32 = 1.0;
/// How far a new floor or ceiling mover rises, metres (its path is vertical: heights in the inspector).
pub const DEFAULT_RISE: f32 = 2.0;

/// Whether `kind` can be moved (boxes, triangles, cylinders, meshes, sectors).
#[must_use]
pub fn movable(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Aabb | Kind::Obb | Kind::Triangle | Kind::Cylinder | Kind::Mesh | Kind::Sector
    )
}

/// The pick of object `id` clicked at `at`: a sector's floor (its ceiling with `ceiling`), the whole of
/// anything else that can move. Why not, for an object that cannot move or is already moved.
pub fn pick(doc: &Document, id: ObjectId, at: Vec2, ceiling: bool) -> Result<MoverPick, String> {
    let Some(o) = doc.object(id) else {
        return Err(format!("no object {id}"));
    };
    if !movable(o.kind()) {
        return Err(format!(
            "a {} cannot move (boxes, triangles, cylinders, meshes and sectors can)",
            o.kind().noun()
        ));
    }
    if let Some(m) = doc.level().movers.iter().find(|m| m.object == id) {
        return Err(format!("{} is already moved by mover {}", o.label(), m.id));
    }
    let part = match (o.kind(), ceiling) {
        (Kind::Sector, false) => MoverPart::Floor,
        (Kind::Sector, true) => MoverPart::Ceiling,
        _ => MoverPart::Whole,
    };
    Ok(MoverPick {
        object: id,
        part,
        at,
    })
}

/// The path of a mover picked as `pick` through the clicked points `points` (`(x, z)`): offsets from the
/// pick, the first zero, heights 0 (set in the inspector). A floor or ceiling moves vertically only: its
/// path rises [`DEFAULT_RISE`] whatever was clicked. `None` when a whole object has no point to go to.
#[must_use]
pub fn path_of(pick: &MoverPick, points: &[Vec2]) -> Option<Vec<Vec3>> {
    if pick.part != MoverPart::Whole {
        return Some(vec![Vec3::ZERO, Vec3::Y * DEFAULT_RISE]);
    }
    let mut path = vec![Vec3::ZERO];
    path.extend(
        points
            .iter()
            .map(|p| *p - pick.at)
            .map(|d| Vec3::new(d.x, 0.0, d.y))
            .filter(|d| d.is_finite()),
    );
    path.dedup();
    (path.len() >= 2).then_some(path)
}

/// The new mover: the level's next id, the default speed and wait, back and forth, always running.
#[must_use]
pub fn new_mover(level: &Level, pick: &MoverPick, path: Vec<Vec3>) -> MoverObject {
    MoverObject {
        id: level.next_id(),
        name: None,
        object: pick.object,
        part: pick.part,
        path,
        speed: DEFAULT_SPEED,
        wait: DEFAULT_WAIT,
        repeat: Repeat::PingPong,
        start: MoverStart::Always,
    }
}

/// The one undo step that adds `mover` to `level`.
#[must_use]
pub fn add_edit(level: &Level, mover: MoverObject) -> LabelledEdit {
    let mut header = Header::of(level);
    header.movers.push(mover);
    header_edit(header, "Add mover")
}

/// The undo step that replaces mover `mover.id` by `mover` (merging the steps of one field's drag).
#[must_use]
pub fn replace_edit(level: &Level, mover: MoverObject, merge: &str) -> LabelledEdit {
    let mut header = Header::of(level);
    if let Some(m) = header.movers.iter_mut().find(|m| m.id == mover.id) {
        *m = mover;
    }
    LabelledEdit::new(
        "Edit mover",
        Edit {
            header: Some(header),
            ..Edit::default()
        },
        Some(merge.to_owned()),
    )
}

/// The undo step that removes mover `id`.
#[must_use]
pub fn remove_edit(level: &Level, id: ObjectId) -> LabelledEdit {
    let mut header = Header::of(level);
    header.movers.retain(|m| m.id != id);
    header_edit(header, "Remove mover")
}

fn header_edit(header: Header, label: &str) -> LabelledEdit {
    LabelledEdit::new(
        label,
        Edit {
            header: Some(header),
            ..Edit::default()
        },
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Document {
        let level = Level::from_ron_str(
            r#"(version: 3,
            aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0))],
            planes: [(id: 2, normal: (0.0, 1.0, 0.0), d: 0.0)])"#,
        )
        .unwrap();
        Document::new(level, None)
    }

    #[test]
    fn a_box_picked_and_two_clicks_make_a_valid_mover_in_one_undo_step() {
        let mut doc = doc();
        let p = pick(&doc, ObjectId(1), Vec2::new(1.0, 1.0), false).unwrap();
        assert_eq!(p.part, MoverPart::Whole);
        let path = path_of(&p, &[Vec2::new(5.0, 1.0), Vec2::new(5.0, 4.0)]).unwrap();
        assert_eq!(
            path,
            vec![
                Vec3::ZERO,
                Vec3::new(4.0, 0.0, 0.0),
                Vec3::new(4.0, 0.0, 3.0)
            ]
        );
        let m = new_mover(doc.level(), &p, path);
        let e = add_edit(doc.level(), m);
        doc.apply_merging(e.label, e.edit, e.merge_key);
        assert_eq!(doc.level().movers.len(), 1);
        assert!(doc.level().is_valid(), "{:?}", doc.level().validate());
        assert!(
            pick(&doc, ObjectId(1), Vec2::ZERO, false).is_err(),
            "already moved"
        );
        doc.undo();
        assert!(doc.level().movers.is_empty());
    }

    #[test]
    fn a_plane_cannot_move_and_a_whole_object_needs_a_point() {
        let doc = doc();
        assert!(pick(&doc, ObjectId(2), Vec2::ZERO, false).is_err());
        let p = pick(&doc, ObjectId(1), Vec2::ZERO, false).unwrap();
        assert_eq!(path_of(&p, &[]), None);
        assert_eq!(path_of(&p, &[Vec2::ZERO]), None);
    }
}
