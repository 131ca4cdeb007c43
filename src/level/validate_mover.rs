//! Validation of movers: each problem names `movers[i]…` (located at `file:line:col` by the caller) and is an
//! error, so a level with a bad mover does not become a scene. A path with NaN or infinite points, fewer than
//! two points or a first point other than `(0, 0, 0)`; a speed that is not above 0; a negative wait; an object
//! that does not exist, or one that cannot move (walls, planes, balls and other kinds: "not supported"); a
//! mover of a mover (an object moved twice, or `object` naming a mover); a floor or ceiling mover of
//! something other than a sector, or with a path that moves sideways; a start trigger that does not exist.

use std::collections::HashMap;

use super::{Level, MoverObject, MoverPart, MoverStart, ObjectId, Problem, Severity};

/// What kind of object an id names, for the mover checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A box, triangle, cylinder or mesh: movable whole.
    Movable,
    /// A sector: movable whole, or by its floor or ceiling.
    Sector,
    /// A mover.
    Mover,
    /// Anything else (walls, planes, balls, entities, triggers, probes), named for the message.
    Other(&'static str),
}

/// Every mover problem of `level`.
pub(super) fn problems(level: &Level) -> Vec<Problem> {
    let mut out = Vec::new();
    if level.movers.is_empty() {
        return out;
    }
    let kinds = kinds(level);
    let triggers: std::collections::HashSet<ObjectId> =
        level.triggers.iter().map(|t| t.id).collect();
    let mut moved: HashMap<ObjectId, ObjectId> = HashMap::new();
    for (i, m) in level.movers.iter().enumerate() {
        let mut err = |field: String, message: String| {
            out.push(Problem {
                severity: Severity::Error,
                object: Some(m.id),
                field: format!("movers[{i}]{field}"),
                message,
                line: None,
                col: None,
            });
        };
        path(m, &mut err);
        if !(m.speed.is_finite() && m.speed > 0.0) {
            err(
                ".speed".into(),
                format!(
                    "must be a finite number greater than 0 m/s (is {})",
                    m.speed
                ),
            );
        }
        if !(m.wait.is_finite() && m.wait >= 0.0) {
            err(
                ".wait".into(),
                format!(
                    "must be a finite number of seconds, 0 or more (is {})",
                    m.wait
                ),
            );
        }
        let kind = kinds.get(&m.object).copied();
        match kind {
            None => err(
                ".object".into(),
                format!("object {} not found in the level", m.object),
            ),
            Some(Kind::Mover) => err(
                ".object".into(),
                format!(
                    "{} is a mover: a mover of a mover is not supported",
                    m.object
                ),
            ),
            Some(Kind::Other(what)) => err(
                ".object".into(),
                format!(
                    "{} is a {what}: moving it is not supported (movers move boxes, triangles, cylinders, meshes and sectors)",
                    m.object
                ),
            ),
            Some(Kind::Movable | Kind::Sector) => {
                if let Some(first) = moved.insert(m.object, m.id) {
                    moved.insert(m.object, first);
                    err(
                        ".object".into(),
                        format!(
                            "{} is already moved by mover {first}: a mover of a mover is not supported",
                            m.object
                        ),
                    );
                }
            }
        }
        if m.part != MoverPart::Whole && kind.is_some_and(|k| k != Kind::Sector) {
            err(
                ".part".into(),
                format!(
                    "{:?} moves a sector's floor or ceiling; {} is not a sector",
                    m.part, m.object
                ),
            );
        }
        if let MoverStart::OnTrigger(t) = m.start
            && !triggers.contains(&t)
        {
            err(
                ".start".into(),
                format!("trigger {t} not found in the level"),
            );
        }
    }
    out
}

/// The path's own problems.
fn path(m: &MoverObject, err: &mut impl FnMut(String, String)) {
    if let Some(j) = m.path.iter().position(|p| !p.is_finite()) {
        err(
            format!(".path[{j}]"),
            "must be finite numbers (not NaN or infinite)".into(),
        );
        return;
    }
    if m.path.len() < 2 {
        err(
            ".path".into(),
            format!("a path needs at least 2 points (has {})", m.path.len()),
        );
        return;
    }
    if m.path[0] != glam::Vec3::ZERO {
        err(
            ".path[0]".into(),
            format!(
                "the first point must be (0, 0, 0): points are offsets from the object's place (is {})",
                m.path[0]
            ),
        );
    }
    if m.part != MoverPart::Whole
        && let Some(j) = m.path.iter().position(|p| p.x != 0.0 || p.z != 0.0)
    {
        err(
            format!(".path[{j}]"),
            format!(
                "a {:?} mover's path must be vertical (x and z 0): a sector's floor or ceiling moves only up and down (is {})",
                m.part, m.path[j]
            ),
        );
    }
}

/// The kind of every id of the level (the first object of a repeated id wins; duplicates are reported
/// elsewhere).
fn kinds(level: &Level) -> HashMap<ObjectId, Kind> {
    let mut k = HashMap::new();
    let mut add = |id: ObjectId, kind: Kind| {
        k.entry(id).or_insert(kind);
    };
    level
        .walls
        .iter()
        .for_each(|o| add(o.id, Kind::Other("wall")));
    level
        .triangles
        .iter()
        .for_each(|o| add(o.id, Kind::Movable));
    level
        .balls
        .iter()
        .for_each(|o| add(o.id, Kind::Other("ball")));
    level
        .planes
        .iter()
        .for_each(|o| add(o.id, Kind::Other("plane")));
    level
        .cylinders
        .iter()
        .for_each(|o| add(o.id, Kind::Movable));
    level.aabbs.iter().for_each(|o| add(o.id, Kind::Movable));
    level.obbs.iter().for_each(|o| add(o.id, Kind::Movable));
    level.meshes.iter().for_each(|o| add(o.id, Kind::Movable));
    level.sectors.iter().for_each(|o| add(o.id, Kind::Sector));
    level
        .probes
        .iter()
        .for_each(|o| add(o.id, Kind::Other("probe")));
    level
        .entities
        .iter()
        .for_each(|o| add(o.id, Kind::Other("entity")));
    level
        .triggers
        .iter()
        .for_each(|o| add(o.id, Kind::Other("trigger")));
    level.movers.iter().for_each(|o| add(o.id, Kind::Mover));
    k
}
