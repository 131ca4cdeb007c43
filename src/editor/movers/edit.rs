//! The inspector's edits of a mover and of one-way surfaces, as checked changes (no egui): each is one undo
//! step, and a value the runtime would refuse (a speed of 0 or below, NaN, a trigger that does not exist,
//! a path left with one point) is refused here with the reason, never clamped.

use crate::editor::document::{Edit, Header, LabelledEdit, Object};
use crate::level::{Level, MoverObject, MoverStart, ObjectId, Repeat};

/// One change to a mover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoverChange {
    /// Its speed, metres per second (greater than 0).
    Speed(f32),
    /// Its wait at each end, seconds (0 or more).
    Wait(f32),
    /// What it does at the path's end.
    Repeat(Repeat),
    /// When it starts.
    Start(MoverStart),
    /// The height (`y` offset) of path point `i` (not the first, which is the object's place).
    PointHeight(usize, f32),
    /// Remove path point `i` (not the first; the path keeps at least two points).
    RemovePoint(usize),
}

impl MoverChange {
    /// What the undo list calls it.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            MoverChange::Speed(_) => "Set mover speed",
            MoverChange::Wait(_) => "Set mover wait",
            MoverChange::Repeat(_) => "Set mover repeat",
            MoverChange::Start(_) => "Set mover start",
            MoverChange::PointHeight(..) => "Set mover point height",
            MoverChange::RemovePoint(_) => "Remove mover point",
        }
    }
}

/// The mover `m` changed by `change` in `level`, or why the change is refused.
pub fn changed(level: &Level, m: &MoverObject, change: MoverChange) -> Result<MoverObject, String> {
    let mut m = m.clone();
    match change {
        MoverChange::Speed(v) if v.is_finite() && v > 0.0 => m.speed = v,
        MoverChange::Speed(v) => {
            return Err(format!(
                "a mover's speed must be a number greater than 0 m/s, not {v}"
            ));
        }
        MoverChange::Wait(v) if v.is_finite() && v >= 0.0 => m.wait = v,
        MoverChange::Wait(v) => {
            return Err(format!(
                "a mover's wait must be a number of seconds, 0 or more, not {v}"
            ));
        }
        MoverChange::Repeat(r) => m.repeat = r,
        MoverChange::Start(MoverStart::OnTrigger(t))
            if !level.triggers.iter().any(|tr| tr.id == t) =>
        {
            return Err(format!("there is no trigger {t} in the level"));
        }
        MoverChange::Start(s) => m.start = s,
        MoverChange::PointHeight(0, _) => {
            return Err("the first point is the object's own place (offset 0)".into());
        }
        MoverChange::PointHeight(_, y) if !y.is_finite() => {
            return Err(format!("a point's height must be a finite number, not {y}"));
        }
        MoverChange::PointHeight(i, y) => match m.path.get_mut(i) {
            Some(p) => p.y = y,
            None => return Err(format!("the path has no point {i}")),
        },
        MoverChange::RemovePoint(0) => {
            return Err("the first point is the object's own place: it stays".into());
        }
        MoverChange::RemovePoint(_) if m.path.len() <= 2 => {
            return Err("a path needs two points at least (remove the mover instead)".into());
        }
        MoverChange::RemovePoint(i) if i >= m.path.len() => {
            return Err(format!("the path has no point {i}"));
        }
        MoverChange::RemovePoint(i) => {
            m.path.remove(i);
        }
    }
    Ok(m)
}

/// The undo step that makes `change` to mover `mover` of `level` (typing into one field merges under
/// `merge`), or why not.
pub fn change_edit(
    level: &Level,
    mover: ObjectId,
    change: MoverChange,
    merge: Option<String>,
) -> Result<LabelledEdit, String> {
    let Some(m) = level.movers.iter().find(|m| m.id == mover) else {
        return Err(format!("there is no mover {mover}"));
    };
    let new = changed(level, m, change)?;
    let mut header = Header::of(level);
    if let Some(slot) = header.movers.iter_mut().find(|m| m.id == mover) {
        *slot = new;
    }
    Ok(LabelledEdit::new(
        change.label(),
        Edit {
            header: Some(header),
            ..Edit::default()
        },
        merge,
    ))
}

/// Whether `o` is one-way (`None`: its kind has no such flag: walls, balls, planes, cylinders, …).
#[must_use]
pub fn one_way_of(o: &Object) -> Option<bool> {
    match o {
        Object::Aabb(b) => Some(b.one_way),
        Object::Obb(b) => Some(b.one_way),
        Object::Triangle(t) => Some(t.one_way),
        Object::Mesh(m) => Some(m.one_way),
        Object::Sector(s) => Some(s.one_way),
        _ => None,
    }
}

/// The undo step that makes every object of `objects` that has the flag one-way (`on`) or solid.
/// `None` when none of them has the flag or all already have it so.
#[must_use]
pub fn one_way_edit(objects: &[&Object], on: bool) -> Option<LabelledEdit> {
    let replace: Vec<Object> = objects
        .iter()
        .filter(|o| one_way_of(o).is_some_and(|v| v != on))
        .map(|o| {
            let mut o = (*o).clone();
            match &mut o {
                Object::Aabb(b) => b.one_way = on,
                Object::Obb(b) => b.one_way = on,
                Object::Triangle(t) => t.one_way = on,
                Object::Mesh(m) => m.one_way = on,
                Object::Sector(s) => s.one_way = on,
                _ => {}
            }
            o
        })
        .collect();
    if replace.is_empty() {
        return None;
    }
    let label = if on { "Make one-way" } else { "Make solid" };
    Some(LabelledEdit::new(
        label,
        Edit {
            replace,
            ..Edit::default()
        },
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::Document;
    use glam::Vec3;

    fn doc() -> Document {
        let level = Level::from_ron_str(
            r#"(version: 3,
            aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0))],
            triggers: [(id: 3, shape: Sphere((center: (0.0, 1.0, 0.0), radius: 1.0)))],
            movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (4.0, 0.0, 3.0)],
                speed: 1.0)])"#,
        )
        .unwrap();
        Document::new(level, None)
    }

    fn apply(doc: &mut Document, change: MoverChange) -> Result<(), String> {
        let e = change_edit(doc.level(), ObjectId(2), change, None)?;
        doc.apply_merging(e.label, e.edit, e.merge_key);
        Ok(())
    }

    #[test]
    fn each_change_is_one_undo_step_and_keeps_the_level_valid() {
        let mut doc = doc();
        apply(&mut doc, MoverChange::Speed(3.5)).unwrap();
        apply(&mut doc, MoverChange::Wait(0.0)).unwrap();
        apply(&mut doc, MoverChange::Repeat(Repeat::Loop)).unwrap();
        apply(
            &mut doc,
            MoverChange::Start(MoverStart::OnTrigger(ObjectId(3))),
        )
        .unwrap();
        apply(&mut doc, MoverChange::PointHeight(2, 1.5)).unwrap();
        apply(&mut doc, MoverChange::RemovePoint(1)).unwrap();
        let m = &doc.level().movers[0];
        assert_eq!((m.speed, m.wait, m.repeat), (3.5, 0.0, Repeat::Loop));
        assert_eq!(m.start, MoverStart::OnTrigger(ObjectId(3)));
        assert_eq!(m.path, vec![Vec3::ZERO, Vec3::new(4.0, 1.5, 3.0)]);
        assert!(doc.level().is_valid(), "{:?}", doc.level().validate());
        doc.undo();
        assert_eq!(doc.level().movers[0].path.len(), 3);
        for _ in 0..5 {
            doc.undo();
        }
        assert_eq!(doc.level().movers[0].speed, 1.0);
    }

    #[test]
    fn bad_values_are_refused_with_a_reason() {
        let mut doc = doc();
        for bad in [
            MoverChange::Speed(0.0),
            MoverChange::Speed(-1.0),
            MoverChange::Speed(f32::NAN),
            MoverChange::Wait(-0.5),
            MoverChange::Wait(f32::INFINITY),
            MoverChange::Start(MoverStart::OnTrigger(ObjectId(99))),
            MoverChange::PointHeight(0, 1.0),
            MoverChange::PointHeight(1, f32::NAN),
            MoverChange::PointHeight(7, 1.0),
            MoverChange::RemovePoint(0),
            MoverChange::RemovePoint(9),
        ] {
            let why = apply(&mut doc, bad).unwrap_err();
            assert!(!why.is_empty());
        }
        apply(&mut doc, MoverChange::RemovePoint(2)).unwrap();
        let why = apply(&mut doc, MoverChange::RemovePoint(1)).unwrap_err();
        assert!(why.contains("two points"), "{why}");
        assert!(
            change_edit(doc.level(), ObjectId(1), MoverChange::Wait(1.0), None).is_err(),
            "1 is the box, not a mover"
        );
    }

    #[test]
    fn one_way_toggles_objects_that_have_the_flag() {
        let doc = doc();
        let (a, t) = (
            doc.object(ObjectId(1)).unwrap(),
            doc.object(ObjectId(3)).unwrap(),
        );
        let objects = [&a, &t];
        let e = one_way_edit(&objects, true).unwrap();
        assert_eq!(e.edit.replace.len(), 1, "the trigger has no such flag");
        assert_eq!(one_way_of(&e.edit.replace[0]), Some(true));
        assert!(one_way_edit(&objects, false).is_none(), "already solid");
    }
}
