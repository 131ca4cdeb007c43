//! Level validation: a list of errors and warnings, each naming the object and the field path.

use super::{HashMap, Level, ObjectId, Problem, Severity};
use crate::shape::{Sphere, Triangle};
use crate::walls::WallGrid;
use glam::{Vec2, Vec3};

/// Relative tolerance on a plane normal's length.
const UNIT_TOLERANCE: f32 = 1e-3;

/// An object's path (`walls[3]`), formatted only when a problem is reported.
#[derive(Clone, Copy)]
struct At(&'static str, usize);

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

struct Report {
    problems: Vec<Problem>,
}

impl Report {
    fn push(
        &mut self,
        severity: Severity,
        object: Option<ObjectId>,
        field: String,
        message: String,
    ) {
        self.problems.push(Problem {
            severity,
            object,
            field,
            message,
            line: None,
            col: None,
        });
    }
    fn error(
        &mut self,
        object: impl Into<Option<ObjectId>>,
        field: String,
        message: impl Into<String>,
    ) {
        self.push(Severity::Error, object.into(), field, message.into());
    }
    fn warning(
        &mut self,
        object: impl Into<Option<ObjectId>>,
        field: String,
        message: impl Into<String>,
    ) {
        self.push(Severity::Warning, object.into(), field, message.into());
    }
    /// Error unless every number is finite (the field path is only formatted for an error).
    fn finite(
        &mut self,
        object: impl Into<Option<ObjectId>>,
        field: impl FnOnce() -> String,
        values: &[f32],
    ) -> bool {
        if values.iter().all(|v| v.is_finite()) {
            true
        } else {
            self.error(
                object,
                field(),
                "must be a finite number (not NaN or infinite)",
            );
            false
        }
    }
    fn positive(
        &mut self,
        object: impl Into<Option<ObjectId>>,
        field: impl Fn() -> String,
        v: f32,
    ) {
        let object = object.into();
        if self.finite(object, &field, &[v]) && v <= 0.0 {
            self.error(object, field(), format!("must be greater than 0 (is {v})"));
        }
    }
}

fn v2(v: Vec2) -> [f32; 2] {
    v.to_array()
}
fn v3(v: Vec3) -> [f32; 3] {
    v.to_array()
}

pub(super) fn validate(level: &Level) -> Vec<Problem> {
    let mut r = Report {
        problems: Vec::new(),
    };
    level_fields(level, &mut r);
    duplicate_ids(level, &mut r);
    walls(level, &mut r);
    triangles(level, &mut r);
    balls(level, &mut r);
    planes(level, &mut r);
    cylinders(level, &mut r);
    boxes(level, &mut r);
    meshes(level, &mut r);
    probes(level, &mut r);
    walker(level, &mut r);
    character(level, &mut r);
    overlaps(level, &mut r);
    r.problems.extend(super::validate_game::problems(level));
    r.problems.extend(super::validate_sector::problems(level));
    r.problems.extend(super::validate_mover::problems(level));
    r.problems
}

/// The level-wide fields: the default wall height, gravity and the time step.
fn level_fields(level: &Level, r: &mut Report) {
    // Level-wide fields belong to no object.
    let no_id: Option<ObjectId> = None;
    if !(level.default_wall_height.is_finite() && level.default_wall_height > 0.0) {
        r.push(
            Severity::Error,
            None,
            "default_wall_height".into(),
            format!(
                "must be a finite number greater than 0 (is {})",
                level.default_wall_height
            ),
        );
    }
    let sim = &level.simulation;
    r.finite(no_id, || "simulation.gravity".into(), &v3(sim.gravity));
    if !(sim.dt.is_finite() && sim.dt > 0.0 && sim.dt <= 1.0) {
        r.push(
            Severity::Error,
            None,
            "simulation.dt".into(),
            format!("must be in (0, 1] seconds (is {})", sim.dt),
        );
    }
}

/// Ids used twice (a set first; the paths are formatted only when one repeats).
fn duplicate_ids(level: &Level, r: &mut Report) {
    // Duplicate ids: a set of ids first; the paths are formatted only when one repeats.
    let mut ids =
        std::collections::HashSet::with_capacity(level.walls.len() + level.balls.len() + 64);
    if !level.object_ids().all(|id| ids.insert(id)) {
        let mut seen: HashMap<ObjectId, String> = HashMap::new();
        for (path, id) in level.ids() {
            if let Some(first) = seen.get(&id) {
                r.error(
                    id,
                    format!("{path}.id"),
                    format!("duplicate id {id}, also used by {first}"),
                );
            } else {
                seen.insert(id, path);
            }
        }
    }
}

/// Walls: finite ends apart, a radius of 0 or more, a height above 0.
fn walls(level: &Level, r: &mut Report) {
    for (i, w) in level.walls.iter().enumerate() {
        let p = At("walls", i);
        let ok = r.finite(w.id, || format!("{p}.a"), &v2(w.a))
            & r.finite(w.id, || format!("{p}.b"), &v2(w.b));
        if ok && w.a == w.b {
            r.error(
                w.id,
                p.to_string(),
                "zero-length wall: a and b are the same point",
            );
        }
        if r.finite(w.id, || format!("{p}.radius"), &[w.radius]) && w.radius < 0.0 {
            r.error(
                w.id,
                format!("{p}.radius"),
                format!("must not be negative (is {})", w.radius),
            );
        }
        if let Some(h) = w.height {
            r.positive(w.id, || format!("{p}.height"), h);
        }
    }
}

/// Triangles: finite and not degenerate.
fn triangles(level: &Level, r: &mut Report) {
    for (i, t) in level.triangles.iter().enumerate() {
        let p = At("triangles", i);
        let ok = r.finite(t.id, || format!("{p}.a"), &v3(t.a))
            & r.finite(t.id, || format!("{p}.b"), &v3(t.b))
            & r.finite(t.id, || format!("{p}.c"), &v3(t.c));
        if ok && !Triangle::new(t.a, t.b, t.c).is_valid() {
            r.error(
                t.id,
                p.to_string(),
                "degenerate triangle: its vertices are (nearly) on one line",
            );
        }
    }
}

/// Balls: finite, radius and mass above 0, restitution in [0, 1].
fn balls(level: &Level, r: &mut Report) {
    for (i, b) in level.balls.iter().enumerate() {
        let p = At("balls", i);
        r.finite(b.id, || format!("{p}.center"), &v3(b.center));
        r.finite(b.id, || format!("{p}.velocity"), &v3(b.velocity));
        r.positive(b.id, || format!("{p}.radius"), b.radius);
        r.positive(b.id, || format!("{p}.mass"), b.mass);
        if r.finite(b.id, || format!("{p}.restitution"), &[b.restitution])
            && !(0.0..=1.0).contains(&b.restitution)
        {
            r.error(
                b.id,
                format!("{p}.restitution"),
                format!("must be in [0, 1] (is {})", b.restitution),
            );
        }
    }
}

/// Planes: a finite unit normal and a finite offset.
fn planes(level: &Level, r: &mut Report) {
    for (i, pl) in level.planes.iter().enumerate() {
        let p = At("planes", i);
        if r.finite(pl.id, || format!("{p}.normal"), &v3(pl.normal)) {
            let len = pl.normal.length();
            if (len - 1.0).abs() > UNIT_TOLERANCE {
                r.error(
                    pl.id,
                    format!("{p}.normal"),
                    format!("must be unit length (its length is {len})"),
                );
            }
        }
        r.finite(pl.id, || format!("{p}.d"), &[pl.d]);
    }
}

/// Cylinders: finite ends apart and a radius above 0.
fn cylinders(level: &Level, r: &mut Report) {
    for (i, c) in level.cylinders.iter().enumerate() {
        let p = At("cylinders", i);
        let ok = r.finite(c.id, || format!("{p}.a"), &v3(c.a))
            & r.finite(c.id, || format!("{p}.b"), &v3(c.b));
        if ok && c.a == c.b {
            r.error(
                c.id,
                p.to_string(),
                "zero-length cylinder: a and b are the same point",
            );
        }
        r.positive(c.id, || format!("{p}.radius"), c.radius);
    }
}

/// Axis-aligned boxes (min not above max) and oriented boxes (half extents not negative).
fn boxes(level: &Level, r: &mut Report) {
    for (i, a) in level.aabbs.iter().enumerate() {
        let p = At("aabbs", i);
        let ok = r.finite(a.id, || format!("{p}.min"), &v3(a.min))
            & r.finite(a.id, || format!("{p}.max"), &v3(a.max));
        if ok && !a.min.cmple(a.max).all() {
            r.error(a.id, p.to_string(), "min must not exceed max on any axis");
        }
    }
    for (i, o) in level.obbs.iter().enumerate() {
        let p = At("obbs", i);
        r.finite(o.id, || format!("{p}.center"), &v3(o.center));
        if r.finite(o.id, || format!("{p}.half_extents"), &v3(o.half_extents))
            && !o.half_extents.cmpge(Vec3::ZERO).all()
        {
            r.error(o.id, format!("{p}.half_extents"), "must not be negative");
        }
        r.finite(o.id, || format!("{p}.rotation_deg"), &v3(o.rotation_deg));
    }
}

/// Meshes: finite vertices, indices in range, a readable OBJ path or some triangles.
fn meshes(level: &Level, r: &mut Report) {
    for (i, m) in level.meshes.iter().enumerate() {
        let p = At("meshes", i);
        if m.vertices.iter().any(|v| !v.is_finite()) {
            r.error(m.id, format!("{p}.vertices"), "every vertex must be finite");
        }
        let n = m.vertices.len();
        if let Some((k, tri)) = m
            .indices
            .iter()
            .enumerate()
            .find(|(_, t)| t.iter().any(|&i| i as usize >= n))
        {
            r.error(
                m.id,
                format!("{p}.indices[{k}]"),
                format!("index out of range: {tri:?} with {n} vertices"),
            );
        }
        if let Some(path) = &m.obj {
            if let Some(why) = super::obj_path_problem(path) {
                r.error(m.id, format!("{p}.obj"), why);
            }
        } else if m.indices.is_empty() {
            r.warning(m.id, format!("{p}.indices"), "mesh has no triangles");
        }
    }
}

/// Probes: finite, a non-zero direction, max_t of 0 or more.
fn probes(level: &Level, r: &mut Report) {
    for (i, pr) in level.probes.iter().enumerate() {
        let p = At("probes", i);
        let ok = r.finite(pr.id, || format!("{p}.origin"), &v3(pr.origin))
            & r.finite(pr.id, || format!("{p}.dir"), &v3(pr.dir));
        if ok && pr.dir == Vec3::ZERO {
            r.error(pr.id, format!("{p}.dir"), "must not be zero");
        }
        if !(pr.max_t >= 0.0) {
            r.error(
                pr.id,
                format!("{p}.max_t"),
                format!("must be 0 or more (is {})", pr.max_t),
            );
        }
    }
}

/// The walker: finite, eye height and radius above 0.
fn walker(level: &Level, r: &mut Report) {
    // Level-wide fields belong to no object.
    let no_id: Option<ObjectId> = None;
    if let Some(w) = &level.walker {
        r.finite(no_id, || "walker.position".into(), &v2(w.position));
        r.finite(no_id, || "walker.facing_deg".into(), &[w.facing_deg]);
        if let Some(h) = w.height {
            r.finite(no_id, || "walker.height".into(), &[h]);
        }
        for (name, v) in [
            ("walker.eye_height", w.eye_height),
            ("walker.radius", w.radius),
        ] {
            if !(v.is_finite() && v > 0.0) {
                r.push(
                    Severity::Error,
                    None,
                    name.into(),
                    format!("must be greater than 0 (is {v})"),
                );
            }
        }
    }
}

/// The level's character: its own limits ([`crate::character::CharacterController::problems`]).
fn character(level: &Level, r: &mut Report) {
    if let Some(c) = &level.character {
        for (field, message) in c.problems() {
            r.push(Severity::Error, None, format!("character.{field}"), message);
        }
    }
}

/// Warnings for balls that start inside walls or each other, and a walker inside a wall.
fn overlaps(level: &Level, r: &mut Report) {
    let walls: Vec<_> = level.walls.iter().filter(|w| w.wall().is_valid()).collect();
    let grid = WallGrid::new(walls.iter().map(|w| w.wall()));
    for (i, b) in level.balls.iter().enumerate() {
        let s = Sphere::new(b.center, b.radius);
        if !s.is_valid() {
            continue;
        }
        let c2 = Vec2::new(b.center.x, b.center.z);
        for k in grid.query_circle(c2, b.radius) {
            let w = walls[k];
            let h = w.height.unwrap_or(level.default_wall_height);
            let d = crate::walls::distance_point_wall(c2, &w.wall());
            if d < w.radius + b.radius && b.center.y - b.radius < h && b.center.y + b.radius > 0.0 {
                r.warning(
                    b.id,
                    format!("balls[{i}].center"),
                    format!("starts inside wall {} (it will be pushed out)", w.id),
                );
                break;
            }
        }
    }
    // Ball pairs: sort by x and sweep.
    let mut order: Vec<usize> = (0..level.balls.len())
        .filter(|&i| Sphere::new(level.balls[i].center, level.balls[i].radius).is_valid())
        .collect();
    order.sort_by(|&a, &b| {
        let (ba, bb) = (&level.balls[a], &level.balls[b]);
        (ba.center.x - ba.radius).total_cmp(&(bb.center.x - bb.radius))
    });
    let mut reported = vec![false; level.balls.len()];
    for (k, &i) in order.iter().enumerate() {
        let bi = &level.balls[i];
        for &j in &order[k + 1..] {
            let bj = &level.balls[j];
            if bj.center.x - bj.radius > bi.center.x + bi.radius {
                break;
            }
            let sum = bi.radius + bj.radius;
            if bi.center.distance_squared(bj.center) < sum * sum && !reported[j] {
                reported[j] = true;
                r.warning(
                    bj.id,
                    format!("balls[{j}].center"),
                    format!("starts overlapping ball {}", bi.id),
                );
            }
        }
    }
    if let Some(w) = &level.walker
        && w.position.is_finite()
        && w.radius.is_finite()
    {
        {
            for k in grid.query_circle(w.position, w.radius) {
                let wall = walls[k];
                if crate::walls::distance_point_wall(w.position, &wall.wall())
                    <= wall.radius + w.radius
                {
                    r.push(
                        Severity::Warning,
                        None,
                        "walker.position".into(),
                        format!("the walker starts inside wall {}", wall.id),
                    );
                    break;
                }
            }
        }
    }
}
