//! What a contact point is on: the faces of an object through it (a nosing is on a tread's top face and on a
//! riser's front face), and how to push a body out of an object by the shortest way. Both read the level's
//! shapes as [`Static`]s, for any kind.

use glam::{DVec3, Vec3};

use crate::query::closest::{point_segment_d, point_triangle_d};
use crate::query::closest_segment::{
    segment_aabb, segment_convex, segment_plane, segment_triangle,
};
use crate::query::sweep::{CapD, WallD};
use crate::query::{d3, f3};
use crate::scene::Static;
use crate::shape::{Capsule, Triangle};

/// At most this many faces are reported through one point (a box corner has three; a mesh vertex, one per
/// triangle around it: the first ones are kept).
pub(crate) const MAX_FACES: usize = 12;

/// Unit normals of faces through a point, pointing out of the object (for surfaces: toward the body).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Faces {
    normals: [Vec3; MAX_FACES],
    len: usize,
}

impl Faces {
    fn push(&mut self, n: Vec3) {
        if self.len < MAX_FACES && n.is_finite() && n != Vec3::ZERO {
            self.normals[self.len] = n.normalize();
            self.len += 1;
        }
    }

    /// The normals.
    pub(crate) fn as_slice(&self) -> &[Vec3] {
        &self.normals[..self.len]
    }

    /// The most level face (largest `y`), if any.
    pub(crate) fn most_level(&self) -> Option<Vec3> {
        self.as_slice()
            .iter()
            .copied()
            .max_by(|a, b| a.y.total_cmp(&b.y))
    }

    /// Whether a face's normal is `normal` (to a tenth of a degree, far above the rounding of a contact normal
    /// and below the tilt of any edge contact that matters): the contact is on that face's interior rather
    /// than on an edge or corner.
    pub(crate) fn has(&self, normal: Vec3) -> bool {
        self.as_slice().iter().any(|n| n.dot(normal) >= 1.0 - 1e-6)
    }
}

/// The faces of `shape` through `point` (within `tol`), their normals pointing out of a solid, or for a surface
/// (plane, triangle, mesh triangle) toward `body` (the body's point nearest the contact).
pub(crate) fn faces_at(shape: &Static, point: Vec3, body: Vec3, tol: f32) -> Faces {
    let mut out = Faces::default();
    let toward = |n: Vec3| if n.dot(body - point) >= 0.0 { n } else { -n };
    let near = |a: f32, b: f32| (a - b).abs() <= tol;
    match shape {
        Static::Plane(p) => out.push(toward(p.normal)),
        Static::Triangle(t) => out.push(toward(t.normal_unnormalized())),
        Static::Aabb(b) => {
            for i in 0..3 {
                let mut n = Vec3::ZERO;
                if near(point[i], b.min[i]) {
                    n[i] = -1.0;
                    out.push(n);
                }
                if near(point[i], b.max[i]) {
                    n[i] = 1.0;
                    out.push(n);
                }
            }
        }
        Static::Obb(o) => {
            let local = o.local_from_world(point);
            let axes = [o.rotation.x_axis, o.rotation.y_axis, o.rotation.z_axis];
            for i in 0..3 {
                let h = o.half_extents[i];
                if near(local[i], -h) {
                    out.push(-axes[i]);
                }
                if near(local[i], h) {
                    out.push(axes[i]);
                }
            }
        }
        Static::Cylinder(c) => {
            let axis = c.b - c.a;
            let h = axis.length();
            let u = axis / h;
            let s = (point - c.a).dot(u);
            let radial = point - c.a - u * s;
            if near(radial.length(), c.radius) {
                out.push(radial);
            }
            if near(s, 0.0) {
                out.push(-u);
            }
            if near(s, h) {
                out.push(u);
            }
        }
        Static::Wall { wall, height } => {
            let flat = d3(Vec3::new(point.x, 0.0, point.z));
            let lift = |v: glam::Vec2| DVec3::new(f64::from(v.x), 0.0, f64::from(v.y));
            let q = point_segment_d(flat, lift(wall.a), lift(wall.b));
            let off = flat - q;
            if near(off.length() as f32, wall.radius) {
                if off.length() > 0.0 {
                    out.push(f3(off));
                } else {
                    // A wall of no thickness: its side facing the body.
                    let e = wall.b - wall.a;
                    out.push(toward(Vec3::new(-e.y, 0.0, e.x)));
                }
            }
            if near(point.y, *height) {
                out.push(Vec3::Y);
            }
            if near(point.y, 0.0) {
                out.push(-Vec3::Y);
            }
        }
        Static::Mesh(m) => {
            let r = Vec3::splat(tol);
            let p = d3(point);
            m.triangles_in_box(point - r, point + r, |_, t| {
                let [a, b, c] = t.vertices().map(d3);
                if p.distance(point_triangle_d(p, a, b, c)) <= f64::from(tol) {
                    out.push(toward(t.normal_unnormalized()));
                }
            });
        }
    }
    out
}

/// The extent of `shape` along the unit direction `d`: (min, max) of `x·d` over its points; `None` when
/// unbounded that way (a plane along any direction but its normal).
fn extent(shape: &Static, d: DVec3) -> Option<(f64, f64)> {
    let tri = |t: &Triangle| {
        let v = t.vertices().map(|x| d3(x).dot(d));
        (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]))
    };
    Some(match shape {
        Static::Plane(p) => {
            let n = d3(p.normal);
            let len = n.length();
            let (n, off) = (n / len, f64::from(p.d) / len);
            if n.cross(d).length_squared() > 1e-18 {
                return None;
            }
            let x = off * n.dot(d);
            (x, x)
        }
        Static::Triangle(t) => tri(t),
        Static::Aabb(b) => {
            let (c, h) = (d3(b.center()), d3(b.half_extents()));
            let (mid, reach) = (c.dot(d), h.dot(d.abs()));
            (mid - reach, mid + reach)
        }
        Static::Obb(o) => {
            let rot = o.rotation.as_dmat3();
            let h = d3(o.half_extents);
            let reach = h.x * rot.x_axis.dot(d).abs()
                + h.y * rot.y_axis.dot(d).abs()
                + h.z * rot.z_axis.dot(d).abs();
            let mid = d3(o.center).dot(d);
            (mid - reach, mid + reach)
        }
        Static::Cylinder(c) => {
            let (a, b) = (d3(c.a), d3(c.b));
            let u = (b - a).normalize();
            let ud = u.dot(d);
            let rim = f64::from(c.radius) * (1.0 - ud * ud).max(0.0).sqrt();
            let (pa, pb) = (a.dot(d), b.dot(d));
            (pa.min(pb) - rim, pa.max(pb) + rim)
        }
        Static::Wall { wall, height } => {
            let w = WallD::of(wall, *height);
            let flat = DVec3::new(d.x, 0.0, d.z);
            let side = w.r * flat.length();
            let (pa, pb) = (w.a.dot(d), w.b.dot(d));
            let (lo, hi) = (pa.min(pb) - side, pa.max(pb) + side);
            let up = w.h * d.y;
            (lo + up.min(0.0), hi + up.max(0.0))
        }
        Static::Mesh(_) => return None,
    })
}

/// The closest pair of the body's segment and a (non-mesh) shape.
fn closest_pair(shape: &Static, cap: &CapD) -> Option<(DVec3, DVec3)> {
    let (p, q) = (cap.p, cap.q);
    Some(match shape {
        Static::Plane(pl) => {
            let n = d3(pl.normal);
            let len = n.length();
            segment_plane(p, q, n / len, f64::from(pl.d) / len)
        }
        Static::Triangle(t) => segment_triangle(p, q, d3(t.a), d3(t.b), d3(t.c)),
        Static::Aabb(b) => segment_aabb(p, q, d3(b.min), d3(b.max)),
        Static::Obb(o) => {
            let rot = o.rotation.as_dmat3();
            let (c, h) = (d3(o.center), d3(o.half_extents));
            let back = rot.transpose();
            let (s, x) = segment_aabb(back * (p - c), back * (q - c), -h, h);
            (c + rot * s, c + rot * x)
        }
        Static::Cylinder(cy) => {
            let (a, b, rc) = (d3(cy.a), d3(cy.b), f64::from(cy.radius));
            segment_convex(p, q, |x| cylinder_closest(x, a, b, rc))
        }
        Static::Wall { wall, height } => {
            let w = WallD::of(wall, *height);
            segment_convex(p, q, |x| w.closest(x))
        }
        Static::Mesh(_) => return None,
    })
}

/// The point of the solid cylinder `a..b` (radius `rc`) closest to `x`.
fn cylinder_closest(x: DVec3, a: DVec3, b: DVec3, rc: f64) -> DVec3 {
    let axis = b - a;
    let h2 = axis.length_squared();
    let s = ((x - a).dot(axis) / h2).clamp(0.0, 1.0);
    let radial = x - a - axis * ((x - a).dot(axis) / h2);
    let rl = radial.length();
    let on_axis = a + axis * s;
    if rl <= rc {
        on_axis + radial
    } else {
        on_axis + radial * (rc / rl)
    }
}

/// Candidate directions for pushing the body out of `shape`: the closest pair's direction, the shape's face
/// normals, and its edges crossed with the body's axis (the separating axes of the pair).
fn candidates(shape: &Static, cap: &CapD, pair: Option<(DVec3, DVec3)>, out: &mut Vec<DVec3>) {
    out.clear();
    let axis = (cap.q - cap.p).try_normalize();
    let mut add = |d: DVec3| {
        if let Some(d) = d.try_normalize() {
            out.push(d);
            out.push(-d);
        }
    };
    if let Some((s, o)) = pair {
        add(s - o);
    }
    let with_edges = |edges: &[DVec3], add: &mut dyn FnMut(DVec3)| {
        for &e in edges {
            add(e);
            if let Some(a) = axis {
                add(e.cross(a));
            }
        }
    };
    match shape {
        Static::Plane(p) => add(d3(p.normal)),
        Static::Triangle(t) => {
            let [a, b, c] = t.vertices().map(d3);
            let n = (b - a).cross(c - a);
            add(n);
            for e in [b - a, c - b, a - c] {
                add(n.cross(e));
                if let Some(ax) = axis {
                    add(e.cross(ax));
                }
            }
        }
        Static::Aabb(_) => with_edges(&[DVec3::X, DVec3::Y, DVec3::Z], &mut add),
        Static::Obb(o) => {
            let r = o.rotation.as_dmat3();
            with_edges(&[r.x_axis, r.y_axis, r.z_axis], &mut add);
        }
        Static::Cylinder(c) => {
            let u = d3(c.b - c.a);
            add(u);
            let mid = (cap.p + cap.q) * 0.5 - d3(c.a);
            add(mid - u * (mid.dot(u) / u.length_squared()));
            if let Some(a) = axis {
                add(u.cross(a));
            }
        }
        Static::Wall { wall, height } => {
            let w = WallD::of(wall, *height);
            add(DVec3::Y);
            let e = w.b - w.a;
            add(DVec3::new(-e.z, 0.0, e.x));
            add(e);
            let mid = (cap.p + cap.q) * 0.5;
            let flat = DVec3::new(mid.x, 0.0, mid.z);
            add(flat - point_segment_d(flat, w.a, w.b));
        }
        Static::Mesh(_) => {}
    }
}

/// The shortest push found that takes the body (its radius grown to `target_r`) clear of `shape`: along each
/// candidate direction, the least move that leaves the two extents apart by `target_r` (which separates them
/// by at least that); the smallest wins. `None` for meshes (pushed triangle by triangle) and when no candidate
/// works.
pub(crate) fn shortest_push(shape: &Static, body: &Capsule, target_r: f32) -> Option<Vec3> {
    let cap = CapD::of(body);
    let pair = closest_pair(shape, &cap);
    let mut dirs = Vec::with_capacity(24);
    candidates(shape, &cap, pair, &mut dirs);
    let target = f64::from(target_r);
    let mut best: Option<(f64, DVec3)> = None;
    for d in dirs {
        let Some((_, obj_max)) = extent(shape, d) else {
            continue;
        };
        let seg_min = cap.p.dot(d).min(cap.q.dot(d));
        let need = obj_max - seg_min + target;
        if need.is_finite() && best.is_none_or(|(b, _)| need < b) {
            best = Some((need.max(0.0), d));
        }
    }
    best.map(|(len, d)| f3(d * len))
}

/// The triangle `t` as a shape, for pushing a body out of a mesh one triangle at a time.
pub(crate) fn triangle_shape(t: Triangle) -> Static {
    Static::Triangle(t)
}

/// The point of `shape` nearest `p` within `reach` of it (solids: their surface or `p` itself inside; a mesh:
/// its nearest triangle within reach).
pub(crate) fn closest_point(shape: &Static, p: Vec3, reach: f32) -> Option<Vec3> {
    if let Static::Mesh(m) = shape {
        let r = Vec3::splat(reach);
        let pd = d3(p);
        let mut best: Option<(f64, DVec3)> = None;
        m.triangles_in_box(p - r, p + r, |_, t| {
            let [a, b, c] = t.vertices().map(d3);
            let q = point_triangle_d(pd, a, b, c);
            let d = q.distance_squared(pd);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, q));
            }
        });
        return best.map(|(_, q)| f3(q));
    }
    let point = CapD {
        p: d3(p),
        q: d3(p),
        r: 0.0,
    };
    closest_pair(shape, &point).map(|(_, q)| f3(q))
}
