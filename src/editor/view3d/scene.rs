//! The 3D preview's geometry and cameras, without the GPU (so every part is unit-tested).
//!
//! The level's static scene ([`build_static`]) is drawn from the plain data of `solids.rs` ([`Solids`]: lit
//! triangles, [`Spheres`]: one instance per ball) and [`Lines`] (coloured line segments: floor grid,
//! overlays; the drawing layer's `draw::lines`), all re-exported here; what the movers move is left out and
//! kept in `movers.rs`'s [`MovedScene`](super::movers::MovedScene), which builds on the same solids.
//! The cameras ([`Camera3`]) live in `camera.rs` and are re-exported here.

use glam::{Vec2, Vec3};

pub use super::camera::{Camera3, CameraMode, CharacterView, eye_height, walk_motion};
pub use super::solids::{
    CYLINDER_SEGMENTS, Paint, SOLID_FLOATS, SPHERE_FLOATS, Solids, Spheres, face_color, unit_sphere,
};
pub use crate::editor::draw::lines::{LINE_FLOATS, Lines, pack};
use crate::level::Level;
use crate::shape::Aabb;
use crate::walker::{WalkMode, Walker};

/// The level's static geometry: walls, triangles, planes, cylinders, boxes, meshes and the walker, plus the
/// floor grid. Balls and the debugger's overlays are dynamic and built per frame.
#[derive(Clone, Debug, Default)]
pub struct StaticScene {
    /// Lit geometry, both sides drawn.
    pub solids: Solids,
    /// Planes: drawn from their front only, so a room of planes seen from outside shows its inside.
    pub planes: Solids,
    /// Floor grid, plane normals, wall collision radii (when asked).
    pub lines: Lines,
    /// Bounds of everything, with the floor included.
    pub bounds: Option<Aabb>,
    /// What the movers move, left out of the above and placed each frame at the shown time.
    pub moved: super::movers::MovedScene,
}

/// Visual thickness of a wall panel (walls are segments; their collision radius is drawn as lines).
pub const WALL_THICKNESS: f32 = 0.08;

/// How the static scene gets `level`'s sectors cooked as the runtime cooks them: it hands them to the
/// callback. The app passes the greybox room's kept cook (an edit re-cooks only the sectors it touched);
/// [`fresh_cook`] cooks them all.
pub type CookSectors<'a> = &'a dyn Fn(&Level, &mut dyn FnMut(&crate::sector::SectorCook));

/// `level`'s sectors cooked afresh ([`Level::cook_sectors`]), handed to `f`.
pub fn fresh_cook(level: &Level, f: &mut dyn FnMut(&crate::sector::SectorCook)) {
    f(&level.cook_sectors());
}

/// Build the static scene of `level`, its sectors cooked afresh. `show_walker` draws the walker's body
/// (off while walking in it); `wall_radii` outlines each wall's collision radius on the floor.
#[must_use]
pub fn build_static(
    level: &Level,
    paint: Paint<'_>,
    show_walker: bool,
    wall_radii: bool,
) -> StaticScene {
    build_static_with(level, paint, &fresh_cook, show_walker, wall_radii)
}

/// [`build_static`] with the sectors cooked by `cook` (when no mover moves a sector; with sector movers
/// the runtime's cook with movers is made here).
#[must_use]
pub fn build_static_with(
    level: &Level,
    paint: Paint<'_>,
    cook: CookSectors<'_>,
    show_walker: bool,
    wall_radii: bool,
) -> StaticScene {
    use crate::editor::document::Kind;
    let mut s = StaticScene::default();
    let bounds = scene_bounds(level);
    s.bounds = Some(bounds);
    let extent = (bounds.max - bounds.min).length().max(10.0);
    let center = bounds.center();
    // Moved objects are drawn each frame where the shown time has them, not here.
    let moving = super::movers::Moving::of(level);
    let kept = |id: &crate::level::ObjectId| !moving.whole.contains(id);
    walls(&mut s, level, paint, wall_radii);
    for t in level.triangles.iter().filter(|o| kept(&o.id)) {
        s.solids
            .tri_as_wound(t.a, t.b, t.c, paint(t.id, Kind::Triangle));
    }
    planes(&mut s, level, paint, center, extent);
    for c in level.cylinders.iter().filter(|o| kept(&o.id)) {
        s.solids.cylinder(
            c.a,
            c.b,
            c.radius,
            CYLINDER_SEGMENTS,
            paint(c.id, Kind::Cylinder),
        );
    }
    for b in level.aabbs.iter().filter(|o| kept(&o.id)) {
        s.solids.cuboid(
            (b.min + b.max) * 0.5,
            [Vec3::X, Vec3::Y, Vec3::Z],
            (b.max - b.min) * 0.5,
            paint(b.id, Kind::Aabb),
        );
    }
    for b in level.obbs.iter().filter(|o| kept(&o.id)) {
        let r = b.rotation();
        s.solids.cuboid(
            b.center,
            [r.x_axis, r.y_axis, r.z_axis],
            b.half_extents,
            paint(b.id, Kind::Obb),
        );
    }
    meshes_and_probes(&mut s, level, paint, extent, &moving.whole);
    sectors(&mut s, level, paint, cook, &moving);
    s.moved = moving.scene(level, paint);
    entities_and_triggers(&mut s, level, paint);
    if show_walker && let Some(w) = &level.walker {
        walker_body(&mut s, w);
        character_capsule(&mut s.lines, level, w);
    }
    floor_grid(&mut s.lines, &bounds);
    s
}

/// Walls as thin panels to their height; their collision radii as outlines on the floor when asked.
fn walls(s: &mut StaticScene, level: &Level, paint: Paint<'_>, wall_radii: bool) {
    use crate::editor::document::Kind;
    for w in &level.walls {
        let h = w.height.unwrap_or(level.default_wall_height);
        let d = w.b - w.a;
        let len = d.length();
        let col = paint(w.id, Kind::Wall);
        if !(len > 1e-6) || !len.is_finite() || !(h > 0.0) || !h.is_finite() {
            continue;
        }
        let dir = d / len;
        let mid = (w.a + w.b) * 0.5;
        let along = Vec3::new(dir.x, 0.0, dir.y);
        s.solids.cuboid(
            Vec3::new(mid.x, h * 0.5, mid.y),
            [along, Vec3::Y, along.cross(Vec3::Y)],
            Vec3::new(len * 0.5, h * 0.5, WALL_THICKNESS * 0.5),
            col,
        );
        if wall_radii && w.radius > 0.0 {
            capsule_outline(&mut s.lines, w.a, w.b, w.radius, [90, 140, 220, 255]);
        }
    }
}

/// Planes as quads about the level's centre (seen from the front), with their normal.
fn planes(s: &mut StaticScene, level: &Level, paint: Paint<'_>, center: Vec3, extent: f32) {
    use crate::editor::document::Kind;
    for p in &level.planes {
        let n = p.normal.normalize_or_zero();
        let len = p.normal.length();
        if n == Vec3::ZERO || !p.d.is_finite() {
            continue;
        }
        // The plane holds points with normal · p = d; centre the quad on the level's centre.
        let origin = center - n * (p.normal.dot(center) - p.d) / len;
        let (u, v) = n.any_orthonormal_pair();
        let (u, v) = (u * extent * 0.6, v * extent * 0.6);
        let col = paint(p.id, Kind::Plane);
        s.planes.quad(
            origin - u - v,
            origin + u - v,
            origin + u + v,
            origin - u + v,
            n,
            col,
        );
        s.lines.arrow(origin, origin + n * 1.0, col);
    }
}

/// Mesh triangles, and probes as arrows.
fn meshes_and_probes(
    s: &mut StaticScene,
    level: &Level,
    paint: Paint<'_>,
    extent: f32,
    moved: &std::collections::HashSet<crate::level::ObjectId>,
) {
    use crate::editor::document::Kind;
    for m in level.meshes.iter().filter(|o| !moved.contains(&o.id)) {
        let col = paint(m.id, Kind::Mesh);
        for [i, j, k] in &m.indices {
            if let (Some(a), Some(b), Some(c)) = (
                m.vertices.get(*i as usize),
                m.vertices.get(*j as usize),
                m.vertices.get(*k as usize),
            ) {
                s.solids.tri_as_wound(*a, *b, *c, col);
            }
        }
    }
    for p in &level.probes {
        let len = if p.max_t.is_finite() {
            p.max_t.min(extent * 2.0)
        } else {
            extent
        };
        let dir = p.dir.normalize_or_zero();
        if dir != Vec3::ZERO && p.origin.is_finite() && len > 0.0 {
            s.lines
                .arrow(p.origin, p.origin + dir * len, paint(p.id, Kind::Probe));
        }
    }
}

/// Greybox sectors as the runtime cooks them (the triangles the scene and the character meet), each face
/// drawn from its front only, the side of the air it bounds: from above the rooms show their floors, not
/// their ceilings, and from outside a room its inner walls, as the level's planes are drawn. Floors take the
/// sector's colour, ceilings a darker one, risers, lintels and walls lighter ones. With sector movers, the
/// runtime's cook with movers (`moving.cook`) and no sector moved whole (those are drawn per frame).
fn sectors(
    s: &mut StaticScene,
    level: &Level,
    paint: Paint<'_>,
    kept: CookSectors<'_>,
    moving: &super::movers::Moving,
) {
    if level.sectors.is_empty() {
        return;
    }
    match &moving.cook {
        Some(cook) => sector_faces(s, level, paint, cook, &moving.whole),
        // The caller's cook (the app keeps it from the last revision: an edit re-cooks only the sectors
        // it touched).
        None => kept(level, &mut |cook| {
            sector_faces(s, level, paint, cook, &moving.whole);
        }),
    }
}

/// The faces of `cook`'s sectors but those in `skip`.
fn sector_faces(
    s: &mut StaticScene,
    level: &Level,
    paint: Paint<'_>,
    cook: &crate::sector::SectorCook,
    skip: &std::collections::HashSet<crate::level::ObjectId>,
) {
    use crate::editor::document::Kind;
    for sector in level.sectors.iter().filter(|o| !skip.contains(&o.id)) {
        let Some(cooked) = cook.sector(sector.id) else {
            continue;
        };
        let base = paint(sector.id, Kind::Sector);
        for (tri, face) in cooked.indices.iter().zip(&cooked.faces) {
            let col = face_color(base, *face);
            let [a, b, c] = tri.map(|i| cooked.vertices.get(i as usize).copied());
            if let (Some(a), Some(b), Some(c)) = (a, b, c) {
                s.planes.tri_as_wound(a, b, c, col);
            }
        }
    }
}

/// Entities as posts in their type's colour with a facing arrow at the top; trigger volumes as wire
/// frames (they are not solid: balls and movers pass through them).
fn entities_and_triggers(s: &mut StaticScene, level: &Level, paint: Paint<'_>) {
    use crate::editor::document::Kind;
    use crate::editor::theme;
    use crate::level::TriggerShape;
    let plain = theme::base_color(Kind::Entity).to_srgba_unmultiplied();
    for e in &level.entities {
        if !e.position.is_finite() {
            continue;
        }
        let mut col = paint(e.id, Kind::Entity);
        if col == plain {
            col = theme::entity_color(level, &e.entity_type).to_srgba_unmultiplied();
        }
        let top = e.position + Vec3::Y * 1.0;
        s.solids.cylinder(e.position, top, 0.2, 12, col);
        let f = e.yaw_deg.to_radians();
        let dir = Vec3::new(-f.sin(), 0.0, -f.cos());
        s.lines.arrow(top, top + dir * 0.8, col);
    }
    for t in &level.triggers {
        let col = paint(t.id, Kind::Trigger);
        match &t.shape {
            TriggerShape::Aabb(b) if b.is_valid() => s.lines.aabb(b, col),
            TriggerShape::Sphere(sp) if sp.is_valid() => {
                for n in [Vec3::X, Vec3::Y, Vec3::Z] {
                    s.lines.circle(sp.center, n, sp.radius, col);
                }
            }
            TriggerShape::Prism {
                points,
                bottom,
                top,
            } if points.len() >= 3 && bottom.is_finite() && top.is_finite() => {
                let at = |p: Vec2, y: f32| Vec3::new(p.x, y, p.y);
                for (i, &p) in points.iter().enumerate() {
                    let q = points[(i + 1) % points.len()];
                    s.lines.line(at(p, *bottom), at(q, *bottom), col);
                    s.lines.line(at(p, *top), at(q, *top), col);
                    s.lines.line(at(p, *bottom), at(p, *top), col);
                }
            }
            _ => {}
        }
    }
}

/// The walker's body and facing.
fn walker_body(s: &mut StaticScene, w: &crate::level::WalkerStart) {
    let p = Vec3::new(w.position.x, 0.0, w.position.y);
    let col = [100, 230, 120, 255];
    s.solids.cylinder(
        p,
        p + Vec3::Y * w.eye_height.max(0.1),
        w.radius.max(0.05),
        16,
        col,
    );
    let wk = Walker::from_start(w, WalkMode::Ghost);
    let f = wk.forward();
    let eye = wk.eye();
    s.lines
        .arrow(eye, eye + Vec3::new(f.x, 0.0, f.y) * 1.0, col);
}

/// Colour of the character's capsule (as in the top-down view).
pub const CHARACTER_RGBA: [u8; 4] = [255, 110, 230, 255];

/// The level's character (or the default) standing at the walker's start, to scale: the upright capsule
/// from the feet on the floor to the top of its head, so a door or a tunnel too small for it shows at once.
fn character_capsule(lines: &mut Lines, level: &Level, w: &crate::level::WalkerStart) {
    let c = crate::editor::document::character::effective(level);
    if c.radius > 0.0 && c.height >= 2.0 * c.radius {
        let body = c.capsule(Vec3::new(w.position.x, 0.0, w.position.y));
        lines.capsule(body.a, body.b, body.radius, CHARACTER_RGBA);
    }
}

/// Every object's bounds joined with a floor patch about the origin (so an empty level has a size).
#[must_use]
pub fn scene_bounds(level: &Level) -> Aabb {
    let mut min = Vec3::new(-5.0, 0.0, -5.0);
    let mut max = Vec3::new(5.0, 2.0, 5.0);
    if let Some(b) = level.bounds()
        && b.min.is_finite()
        && b.max.is_finite()
    {
        min = min.min(b.min);
        max = max.max(b.max);
    }
    Aabb::new(min, max)
}

/// The floor grid: lines every step (1-2-5 metres, about 40 across the level), axes brighter.
fn floor_grid(lines: &mut Lines, b: &Aabb) {
    let size = (b.max.x - b.min.x).max(b.max.z - b.min.z).max(1.0);
    let step = grid_step(size / 40.0);
    let pad = step * 2.0;
    let (x0, x1) = (
        ((b.min.x - pad) / step).floor() * step,
        ((b.max.x + pad) / step).ceil() * step,
    );
    let (z0, z1) = (
        ((b.min.z - pad) / step).floor() * step,
        ((b.max.z + pad) / step).ceil() * step,
    );
    let minor = [70, 74, 84, 255];
    let major = [100, 104, 118, 255];
    let count = ((x1 - x0) / step) as usize;
    for i in 0..=count.min(400) {
        let x = x0 + i as f32 * step;
        let col = if (x / (step * 5.0)).round() * step * 5.0 == x {
            major
        } else {
            minor
        };
        let col = if x == 0.0 { [190, 80, 80, 255] } else { col };
        lines.line(Vec3::new(x, 0.0, z0), Vec3::new(x, 0.0, z1), col);
    }
    let count = ((z1 - z0) / step) as usize;
    for i in 0..=count.min(400) {
        let z = z0 + i as f32 * step;
        let col = if (z / (step * 5.0)).round() * step * 5.0 == z {
            major
        } else {
            minor
        };
        let col = if z == 0.0 { [80, 110, 200, 255] } else { col };
        lines.line(Vec3::new(x0, 0.0, z), Vec3::new(x1, 0.0, z), col);
    }
}

/// The smallest 1-2-5 × 10ⁿ step at least `at_least` (≥ 0.01).
#[must_use]
pub fn grid_step(at_least: f32) -> f32 {
    let at_least = if at_least.is_finite() {
        at_least.max(0.01)
    } else {
        1.0
    };
    let mut p = 10f32.powf(at_least.log10().floor());
    loop {
        for m in [1.0, 2.0, 5.0] {
            if m * p >= at_least * 0.999 {
                return m * p;
            }
        }
        p *= 10.0;
    }
}

/// A wall's collision radius as a stadium outline on the floor.
pub fn capsule_outline(lines: &mut Lines, a: Vec2, b: Vec2, r: f32, rgba: [u8; 4]) {
    let d = (b - a).normalize_or(Vec2::X);
    let n = Vec2::new(-d.y, d.x);
    let lift = |p: Vec2| Vec3::new(p.x, 0.02, p.y);
    lines.line(lift(a + n * r), lift(b + n * r), rgba);
    lines.line(lift(a - n * r), lift(b - n * r), rgba);
    for (c, base) in [(b, d), (a, -d)] {
        let pts: Vec<Vec3> = (0..=12)
            .map(|i| {
                let t = (i as f32 / 12.0 - 0.5) * std::f32::consts::PI;
                let dir = base * t.cos() + Vec2::new(-base.y, base.x) * t.sin();
                lift(c + dir * r)
            })
            .collect();
        lines.strip(&pts, rgba);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{ObjectId, TriangleObject, WallObject};

    #[test]
    fn a_strip_is_its_segments_drawn_one_by_one() {
        let (n, i) = (f32::NAN, f32::INFINITY);
        for pts in [
            vec![],
            vec![Vec3::ONE],
            vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 2.0, 3.0), Vec3::Z],
            vec![Vec3::ZERO, Vec3::new(n, 0.0, 0.0), Vec3::X, Vec3::Y],
            vec![
                Vec3::new(0.0, i, 0.0),
                Vec3::X,
                Vec3::Y,
                Vec3::new(0.0, 0.0, -i),
            ],
        ] {
            let (mut strip, mut lines) = (Lines::default(), Lines::default());
            strip.strip(&pts, [1, 2, 3, 4]);
            for w in pts.windows(2) {
                lines.line(w[0], w[1], [1, 2, 3, 4]);
            }
            assert_eq!(
                strip.data.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
                lines.data.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
                "{pts:?}"
            );
        }
    }

    fn plain(_: ObjectId, _: crate::editor::document::Kind) -> [u8; 4] {
        [200, 200, 200, 255]
    }

    #[test]
    fn sectors_are_drawn_as_cooked_from_the_side_of_their_air() {
        let level = Level::from_ron_str(
            r#"(version: 3, sectors: [
                (id: 1, outline: [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)],
                 floor: (height: 0.0), ceiling: (height: 3.0)),
                (id: 2, outline: [(2.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0)],
                 floor: (height: 0.3), ceiling: (height: 3.0)),
            ])"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let s = build_static(&level, &plain, false, false);
        let cook = level.cook_sectors();
        let cooked: usize = [1, 2]
            .iter()
            .filter_map(|&id| cook.sector(ObjectId(id)))
            .map(|c| c.indices.len())
            .sum();
        let drawn = tris(&s.planes);
        assert_eq!(drawn.len(), cooked);
        // The floors face up and the ceilings down; the riser between them faces the lower room (-x).
        assert!(drawn.iter().any(|t| t[0].y == 0.0 && t[3].y > 0.99));
        assert!(drawn.iter().any(|t| t[0].y == 0.3 && t[3].y > 0.99));
        assert!(drawn.iter().any(|t| t[3].y < -0.99));
        assert!(drawn.iter().any(|t| t[3].x < -0.99 && t[0].x == 2.0));
    }

    fn tris(s: &Solids) -> Vec<[Vec3; 4]> {
        s.data
            .chunks(SOLID_FLOATS * 3)
            .map(|t| {
                let v = |k: usize| Vec3::new(t[k * 7], t[k * 7 + 1], t[k * 7 + 2]);
                [v(0), v(1), v(2), Vec3::new(t[3], t[4], t[5])]
            })
            .collect()
    }

    #[test]
    fn winding_always_matches_the_normal() {
        let mut s = Solids::default();
        s.cuboid(
            Vec3::new(1.0, 2.0, 3.0),
            [Vec3::X, Vec3::Y, Vec3::Z],
            Vec3::new(1.0, 2.0, 0.5),
            [1; 4],
        );
        s.cylinder(Vec3::ZERO, Vec3::new(0.0, 2.0, 1.0), 0.5, 12, [1; 4]);
        assert_eq!(s.vertices(), 36 + 12 * 12);
        for [a, b, c, n] in tris(&s) {
            assert!((b - a).cross(c - a).dot(n) > 0.0);
        }
        // Every box face's normal points away from the centre.
        let mut b = Solids::default();
        b.cuboid(Vec3::ONE, [Vec3::X, Vec3::Y, Vec3::Z], Vec3::ONE, [1; 4]);
        for [a, bb, c, n] in tris(&b) {
            assert!(((a + bb + c) / 3.0 - Vec3::ONE).dot(n) > 0.0);
        }
    }

    #[test]
    fn level_triangles_keep_their_front_and_degenerates_are_skipped() {
        let mut level = Level::default();
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Z);
        level.triangles.push(TriangleObject {
            id: ObjectId(1),
            name: None,
            a,
            b,
            c,
            properties: Default::default(),
            one_way: false,
        });
        level.triangles.push(TriangleObject {
            id: ObjectId(2),
            name: None,
            a,
            b: a,
            c,
            properties: Default::default(),
            one_way: false,
        });
        level.walls.push(WallObject {
            id: ObjectId(3),
            name: None,
            a: Vec2::ZERO,
            b: Vec2::ZERO,
            radius: 0.1,
            height: None,
            properties: Default::default(),
        });
        level.walls.push(WallObject {
            id: ObjectId(4),
            name: None,
            a: Vec2::ZERO,
            b: Vec2::new(f32::NAN, 1.0),
            radius: 0.1,
            height: None,
            properties: Default::default(),
        });
        let s = build_static(&level, &plain, false, true);
        let t = tris(&s.solids);
        assert_eq!(t.len(), 1);
        // (b - a) × (c - a) = X × Z = -Y: the front faces down, and the vertices stay in their order.
        assert_eq!(t[0], [a, b, c, Vec3::NEG_Y]);
        assert!(
            s.solids
                .data
                .iter()
                .all(|f| !f.is_nan() || f.to_bits() != f32::NAN.to_bits())
        );
    }

    #[test]
    fn the_character_stands_at_the_walker_start_as_a_capsule_to_scale() {
        let mut level = Level::default();
        level.walker = Some(crate::level::WalkerStart {
            position: Vec2::new(2.0, -3.0),
            ..crate::level::WalkerStart::default()
        });
        let points = |level: &Level| {
            let s = build_static(level, &plain, true, false);
            let color = pack(CHARACTER_RGBA);
            s.lines
                .data
                .chunks(LINE_FLOATS)
                .filter(|v| v[3].to_bits() == color.to_bits())
                .map(|v| Vec3::new(v[0], v[1], v[2]))
                .collect::<Vec<_>>()
        };
        // The default character: 0.3 m radius, 1.8 m tall, its feet on the floor at the start.
        let pts = points(&level);
        assert!(!pts.is_empty());
        let (lo, hi) = pts
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), p| (l.min(p.y), h.max(p.y)));
        assert!(lo.abs() < 1e-5 && (hi - 1.8).abs() < 1e-5, "{lo} {hi}");
        for p in &pts {
            let axis = Vec3::new(2.0, p.y.clamp(0.3, 1.5), -3.0);
            assert!(
                (p.distance(axis) - 0.3).abs() < 1e-5,
                "{p} is on the capsule"
            );
        }
        let widest = pts.iter().map(|p| (p.x - 2.0).abs()).fold(0.0, f32::max);
        assert!((widest - 0.3).abs() < 1e-5);
        // The level's own character: a wider, shorter one.
        level.character = Some(crate::character::CharacterController {
            radius: 0.5,
            height: 1.2,
            ..Default::default()
        });
        let pts = points(&level);
        let hi = pts.iter().map(|p| p.y).fold(f32::MIN, f32::max);
        let widest = pts.iter().map(|p| (p.z + 3.0).abs()).fold(0.0, f32::max);
        assert!((hi - 1.2).abs() < 1e-5 && (widest - 0.5).abs() < 1e-5);
        // Not drawn while walking (the walker's body is hidden then too).
        let s = build_static(&level, &plain, false, false);
        let color = pack(CHARACTER_RGBA).to_bits();
        assert!(
            !s.lines
                .data
                .chunks(LINE_FLOATS)
                .any(|v| v[3].to_bits() == color)
        );
    }

    #[test]
    fn walls_extrude_to_their_height() {
        let mut level = Level {
            default_wall_height: 3.0,
            ..Level::default()
        };
        level.walls.push(WallObject {
            id: ObjectId(1),
            name: None,
            a: Vec2::new(0.0, 0.0),
            b: Vec2::new(4.0, 0.0),
            radius: 0.25,
            height: None,
            properties: Default::default(),
        });
        let s = build_static(&level, &plain, false, false);
        assert_eq!(s.solids.vertices(), 36);
        let ys: Vec<f32> = tris(&s.solids)
            .iter()
            .flat_map(|t| [t[0].y, t[1].y, t[2].y])
            .collect();
        assert_eq!(ys.iter().copied().fold(f32::INFINITY, f32::min), 0.0);
        assert_eq!(ys.iter().copied().fold(f32::NEG_INFINITY, f32::max), 3.0);
    }

    #[test]
    fn unit_sphere_is_closed_and_on_the_sphere() {
        let (v, i) = unit_sphere(2);
        assert_eq!(i.len(), 20 * 16 * 3);
        assert_eq!(v.len(), 162);
        assert!(v.iter().all(|p| (p.length() - 1.0).abs() < 1e-5));
        // Outward winding.
        for t in i.chunks(3) {
            let (a, b, c) = (v[t[0] as usize], v[t[1] as usize], v[t[2] as usize]);
            assert!((b - a).cross(c - a).dot(a + b + c) > 0.0);
        }
    }

    #[test]
    fn camera_ray_through_the_centre_is_the_view_direction() {
        let mut cam = Camera3::default();
        cam.frame(&Aabb::new(Vec3::splat(-3.0), Vec3::splat(3.0)), 1.6);
        let r = cam.ray(Vec2::splat(0.5), 1.6, None).expect("ray");
        let (eye, f) = cam.eye_forward(None);
        assert!(r.dir.dot(f) > 0.99999);
        // The ray starts on the near plane in front of the eye.
        assert!((r.origin - eye).dot(f) > 0.0 && (r.origin - eye).length() < 0.2);
        // The target projects to the viewport's centre.
        let clip = cam.projection(1.6) * cam.view(None) * cam.target.extend(1.0);
        assert!((clip.x / clip.w).abs() < 1e-5 && (clip.y / clip.w).abs() < 1e-5);
        // A point up-right of the centre is up-right on screen.
        let r2 = cam.ray(Vec2::new(0.9, 0.1), 1.6, None).expect("ray");
        let right = f.cross(Vec3::Y);
        assert!(r2.dir.dot(right) > 0.0 && r2.dir.y > r.dir.y);
        // Degenerate aspect gives a ray anyway.
        assert!(cam.ray(Vec2::splat(0.5), f32::NAN, None).is_some());
    }

    #[test]
    fn walk_and_follow_cameras() {
        let mut cam = Camera3 {
            mode: CameraMode::Walker,
            ..Camera3::default()
        };
        cam.walker.position = Vec2::new(2.0, 3.0);
        cam.walker.facing_deg = 90.0;
        let (eye, f) = cam.eye_forward(None);
        assert_eq!(eye, Vec3::new(2.0, 1.7, 3.0));
        assert!((f - Vec3::NEG_X).length() < 1e-6);
        cam.look_by(Vec2::new(0.0, 50.0));
        assert!(cam.eye_forward(None).1.y < 0.0);
        let m = walk_motion(&cam.walker, 1.0, 1.0, 2.0, 0.05);
        assert!((m.length() - 0.1).abs() < 1e-6);
        // A long frame (a stall) moves at most 0.1 s worth.
        assert!((walk_motion(&cam.walker, 1.0, 0.0, 2.0, 5.0).length() - 0.2).abs() < 1e-6);
        assert_eq!(walk_motion(&cam.walker, 0.0, 0.0, 2.0, 0.5), Vec2::ZERO);
        // The character's camera: at its eyes, or behind it and above, looking the same way.
        cam.mode = CameraMode::Walk;
        cam.look_pitch = 0.0;
        cam.character.feet = Vec3::new(1.0, 0.5, 1.0);
        let (eye, f) = cam.eye_forward(None);
        assert_eq!(eye, Vec3::new(1.0, 0.5 + 1.7, 1.0));
        assert!((f - Vec3::NEG_X).length() < 1e-6);
        cam.character.third_person = true;
        let (behind, f3) = cam.eye_forward(None);
        assert_eq!(f3, f);
        assert!(behind.x > 3.0 && behind.y > eye.y, "{behind}");

        cam.mode = CameraMode::Follow;
        cam.follow_dir = Vec3::X;
        let ball = (Vec3::new(5.0, 1.0, 0.0), Vec3::X, 0.5);
        let (eye, f) = cam.eye_forward(Some(ball));
        assert!(eye.x < 5.0 && eye.y > 1.0 && f.x > 0.0);
        for _ in 0..100 {
            cam.track(Vec3::Z);
        }
        assert!(cam.follow_dir.z > 0.99);
        cam.track(Vec3::ZERO);
        assert!(cam.follow_dir.z > 0.99);
    }

    #[test]
    fn grid_steps_and_bounds() {
        assert_eq!(grid_step(0.3), 0.5);
        assert_eq!(grid_step(1.0), 1.0);
        assert_eq!(grid_step(1.5), 2.0);
        assert_eq!(grid_step(30.0), 50.0);
        assert_eq!(grid_step(f32::NAN), 1.0);
        let b = scene_bounds(&Level::default());
        assert_eq!(b.min, Vec3::new(-5.0, 0.0, -5.0));
    }
}

#[cfg(test)]
#[path = "movers_tests.rs"]
mod movers_tests;
