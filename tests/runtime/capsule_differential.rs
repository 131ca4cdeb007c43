//! Differential tests of the capsule queries: collidoscope against parry3d 0.31, with an f64 referee
//! (`capsule_referee`, independent of the code under test) deciding wherever the two disagree.
//!
//! Every query runs on seeded random cases (SplitMix64, fixed seeds) drawn from several distributions at once:
//! generic capsules aimed at the obstacle; capsules lying parallel to a face, along an edge or a cylinder's
//! axis, or with an end sphere at a corner, placed at exactly their radius (touching to within rounding), a
//! hair closer or farther, or farther; motions toward, away, sliding exactly along the surface or grazing it
//! at a millionth of a slope; capsules shifted so the closest approach along the motion is their radius to
//! within rounding (found by the referee); `a == b`; zero motion; whole cases scaled to a thousandth or a
//! thousand times, or moved a few kilometres from the origin.
//!
//! How a case is judged:
//! - collidoscope and parry agree when both miss, or both hit with `|Δt|·|motion|` (`|Δt|·|dir|` for rays)
//!   within `TOL = 1e-4` times the case's scale (`max(1, |largest coordinate or size|)`); for overlaps, when
//!   the booleans match.
//! - Where they disagree, and on every `REF_EVERY`-th case regardless, the referee computes the first contact
//!   (golden-section search and bisection on the distance from the moving segment, itself found by
//!   golden-section search). collidoscope must then meet the contract of API.md ("Precisely"): `t` within
//!   `1e-5·(1 + |motion|)` of the referee's as a distance along the motion, never a contact where the referee
//!   finds none, never a miss where it finds one, except inside the rounding band (the closest approach
//!   within `BAND = 1e-9` times the scale of the radius, where either answer is right). parry is judged too,
//!   at its own tolerance `TOL`, and its errors are counted and printed, not asserted.
//! - Every hit of collidoscope is checked on the spot whatever parry says: finite, `t` in `[0, 1]`, unit
//!   normal; at `t > 0` the point lies on the obstacle's boundary and on the capsule's surface at `t`
//!   (within `1e-3·(1 + |motion|)`) and the normal is the direction from the obstacle's closest point to the
//!   capsule's segment (the referee's, at collidoscope's `t`).
//! - Starting in overlap (the referee's distance at `t = 0` at most the radius): collidoscope must answer
//!   `t = 0` or `None`; `None` only when the motion separates them (the referee's distance grows along it)
//!   and `t = 0` only when it does not; where the segment itself meets a solid the way out is a convention
//!   (counted); a segment lying across a triangle never separates.
//!
//! Differences of convention with parry: parry's `cast_shapes` answers `t = 0` for every overlapping start
//! (collidoscope: `None` when the motion separates them); parry's planes are half-spaces (here the one behind
//! the plane as seen from the capsule, and an overlap with the surface is an overlap with both half-spaces);
//! walls are parry compounds of a cuboid core and two cylinder posts. parry's capsule casts run GJK in f32,
//! whose errors reach 1e-3 of the scale and more; they are what most disagreements are, and the referee
//! settles them.
#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;
use std::time::Instant;

use super::capsule_referee::{self as referee, D, Seg, Solid, d};
use crate::parry_glam::{FromParry, ToParry};
use collidoscope::glam::{Mat3, Quat, Vec2, Vec3, Vec4};
use collidoscope::mesh::TriMesh;
use collidoscope::query::{Toi, closest, overlap, ray, sweep};
use collidoscope::shape::{Aabb, Capsule, Cylinder, Obb, Plane, Ray, Sphere, Triangle, Wall};
use parry3d::math::Pose;
use parry3d::query::{
    self as pq, PointQuery, Ray as PRay, RayCast, ShapeCastHit, ShapeCastOptions, ShapeCastStatus,
};
use parry3d::shape::{
    Ball, Capsule as PCapsule, Compound, Cuboid, Cylinder as PCylinder, HalfSpace,
    Segment as PSegment, Shape, SharedShape, TriMesh as PTriMesh, Triangle as PTriangle,
};

/// Random cases per overlap, ray and closest-point query.
const CASES: usize = 20_000;
/// Random cases per sweep.
const SWEEP_CASES: usize = 12_000;
/// Tolerance against parry (times the scale of the case).
const TOL: f64 = 1e-4;
/// The rounding band of the referee (times the scale): closer to touching than this, either answer is right.
const BAND: f64 = 1e-9;
/// The referee also checks every this many cases where parry agrees.
const REF_EVERY: usize = 4;
/// Unit normals: the largest allowed `|n - n_ref|` (loosened for radii small against the scale).
const NORMAL_TOL: f64 = 1e-3;

// ---------------------------------------------------------------------------------------------------------
// Random numbers

pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn sym(&mut self, h: f32) -> Vec3 {
        Vec3::new(self.range(-h, h), self.range(-h, h), self.range(-h, h))
    }
    fn dir(&mut self) -> Vec3 {
        loop {
            let v = self.sym(1.0);
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
    fn quat(&mut self) -> Quat {
        loop {
            let v = Vec4::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return Quat::from_vec4(v / l);
            }
        }
    }
    fn size(&mut self) -> f32 {
        self.range(0.05, 5.0)
    }
}

/// A unit vector perpendicular to `n` (random about it).
fn perpendicular(rng: &mut Rng, n: Vec3) -> Vec3 {
    loop {
        let v = rng.dir();
        let p = v - n * v.dot(n);
        if p.length() > 0.1 {
            return p.normalize();
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Obstacles, with their parry twins and the referee's view

#[derive(Clone, Debug)]
pub(crate) enum Obs {
    Sphere(Sphere),
    Aabb(Aabb),
    Obb(Obb, Quat),
    Plane(Plane),
    Triangle(Triangle),
    Capsule(Capsule),
    Cylinder(Cylinder),
    Wall(Wall, f32),
}

/// A point of an obstacle's surface, the outward normal there, and a direction along the surface (a face's
/// or an edge's direction, a cylinder's axis): where the nasty cases put a capsule.
pub(crate) struct Feature {
    pub(crate) point: Vec3,
    pub(crate) normal: Vec3,
    pub(crate) along: Vec3,
}

impl Obs {
    pub(crate) fn random(kind: usize, rng: &mut Rng) -> Self {
        let c = rng.sym(10.0);
        match kind {
            0 => Obs::Sphere(Sphere::new(c, rng.size())),
            1 => {
                let h = Vec3::new(rng.size(), rng.size(), rng.size());
                Obs::Aabb(Aabb::new(c - h, c + h))
            }
            2 => {
                let q = if rng.chance(0.1) {
                    // Turned a quarter about an axis: edges parallel to world axes, rounding in the matrix.
                    Quat::from_rotation_y(std::f32::consts::FRAC_PI_2)
                } else {
                    rng.quat()
                };
                let h = Vec3::new(rng.size(), rng.size(), rng.size());
                Obs::Obb(Obb::new(c, h, Mat3::from_quat(q)), q)
            }
            3 => {
                let n = rng.dir();
                let n = if rng.chance(0.2) { Vec3::Y } else { n };
                let k = if rng.chance(0.3) {
                    rng.range(0.3, 3.0)
                } else {
                    1.0
                };
                Obs::Plane(Plane::new(n * k, n.dot(c) * k))
            }
            4 => loop {
                let s = rng.range(0.3, 6.0);
                let (a, b, e) = (c + rng.sym(s), c + rng.sym(s), c + rng.sym(s));
                let n = (b - a).cross(e - a).length();
                let l = (b - a)
                    .length_squared()
                    .max((e - a).length_squared())
                    .max((e - b).length_squared());
                if n > 0.05 * l {
                    break Obs::Triangle(Triangle::new(a, b, e));
                }
            },
            5 => {
                let a = c + rng.sym(3.0);
                let b = if rng.chance(0.1) { a } else { c + rng.sym(3.0) };
                Obs::Capsule(Capsule::new(a, b, rng.size()))
            }
            6 => {
                let q = rng.quat();
                let axis = q * Vec3::Y * rng.size();
                let axis = if rng.chance(0.15) {
                    Vec3::Y * axis.length()
                } else {
                    axis
                };
                Obs::Cylinder(Cylinder::new(c - axis, c + axis, rng.size()))
            }
            _ => {
                let a = Vec2::new(c.x, c.z);
                let b = match rng.below(6) {
                    0 => a,
                    1 => a + Vec2::new(rng.range(-6.0, 6.0), 0.0),
                    _ => a + Vec2::new(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0)),
                };
                let radius = match rng.below(5) {
                    0 => 0.0,
                    _ => rng.range(0.05, 1.5),
                };
                let height = if rng.chance(0.05) {
                    0.0
                } else {
                    rng.range(0.2, 5.0)
                };
                Obs::Wall(Wall::new(a, b, radius), height)
            }
        }
    }

    pub(crate) fn name(kind: usize) -> &'static str {
        [
            "sphere", "aabb", "obb", "plane", "triangle", "capsule", "cylinder", "wall",
        ][kind]
    }

    /// Whether the obstacle is valid (scaling or moving it can round it into a degenerate one).
    pub(crate) fn is_valid(&self) -> bool {
        match self {
            Obs::Sphere(s) => s.is_valid(),
            Obs::Aabb(b) => b.is_valid(),
            Obs::Obb(o, _) => o.is_valid(),
            Obs::Plane(p) => p.is_valid(),
            Obs::Triangle(t) => t.is_valid(),
            Obs::Capsule(c) => c.is_valid(),
            Obs::Cylinder(c) => c.is_valid(),
            Obs::Wall(w, h) => w.is_valid() && h.is_finite() && *h >= 0.0,
        }
    }

    pub(crate) fn solid(&self) -> Solid {
        match self {
            Obs::Sphere(s) => Solid::sphere(s),
            Obs::Aabb(b) => Solid::aabb(b),
            Obs::Obb(o, _) => Solid::obb(o),
            Obs::Plane(p) => Solid::plane(p),
            Obs::Triangle(t) => Solid::triangle(t),
            Obs::Capsule(c) => Solid::capsule(c),
            Obs::Cylinder(c) => Solid::cylinder(c),
            Obs::Wall(w, h) => Solid::wall(w, *h),
        }
    }

    /// How far apart two readings of the obstacle may lie: an oriented box's f32 rotation is orthonormal only to
    /// rounding, and collidoscope measures in the box's frame (through the transpose) while the referee measures
    /// in the world; the two solids differ by the defect times the distances involved.
    pub(crate) fn fuzz(&self, scale: f64) -> f64 {
        match self {
            Obs::Obb(o, _) => {
                let r = o.rotation.as_dmat3();
                let defect = (r.transpose() * r - collidoscope::glam::DMat3::IDENTITY)
                    .to_cols_array()
                    .iter()
                    .fold(0.0f64, |a, x| a.max(x.abs()));
                4.0 * defect * scale
            }
            _ => 0.0,
        }
    }

    pub(crate) fn sweep(&self, c: &Capsule, m: Vec3) -> Option<Toi> {
        match self {
            Obs::Sphere(s) => sweep::capsule_sphere(c, m, s),
            Obs::Aabb(b) => sweep::capsule_aabb(c, m, b),
            Obs::Obb(o, _) => sweep::capsule_obb(c, m, o),
            Obs::Plane(p) => sweep::capsule_plane(c, m, p),
            Obs::Triangle(t) => sweep::capsule_triangle(c, m, t),
            Obs::Capsule(o) => sweep::capsule_capsule(c, m, o),
            Obs::Cylinder(cy) => sweep::capsule_cylinder(c, m, cy),
            Obs::Wall(w, h) => sweep::capsule_wall(c, m, w, *h),
        }
    }

    pub(crate) fn overlap(&self, c: &Capsule) -> bool {
        match self {
            Obs::Sphere(s) => overlap::capsule_sphere(c, s),
            Obs::Aabb(b) => overlap::capsule_aabb(c, b),
            Obs::Obb(o, _) => overlap::capsule_obb(c, o),
            Obs::Plane(p) => overlap::capsule_plane(c, p),
            Obs::Triangle(t) => overlap::capsule_triangle(c, t),
            Obs::Capsule(o) => overlap::capsule_capsule(c, o),
            Obs::Cylinder(cy) => overlap::capsule_cylinder(c, cy),
            Obs::Wall(w, h) => overlap::capsule_wall(c, w, *h),
        }
    }

    /// parry's twin. A plane is the half-space behind it as seen from `side` (a point off the plane).
    fn parry(&self, side: Vec3) -> (Box<dyn Shape>, Pose) {
        match self {
            Obs::Sphere(s) => (
                Box::new(Ball::new(s.radius)),
                Pose::from_translation(s.center.p()),
            ),
            Obs::Aabb(b) => (
                Box::new(Cuboid::new(((b.max - b.min) * 0.5).p())),
                Pose::from_translation(((b.min + b.max) * 0.5).p()),
            ),
            Obs::Obb(o, q) => (
                Box::new(Cuboid::new(o.half_extents.p())),
                Pose::from_parts(o.center.p(), q.p()),
            ),
            Obs::Plane(p) => {
                let l = p.normal.length();
                let (n, dd) = (p.normal / l, p.d / l);
                let n = if n.dot(side) - dd >= 0.0 { n } else { -n };
                (
                    Box::new(HalfSpace::new(n.p())),
                    Pose::from_translation((p.normal / l * dd).p()),
                )
            }
            Obs::Triangle(t) => (
                Box::new(PTriangle::new(t.a.p(), t.b.p(), t.c.p())),
                Pose::IDENTITY,
            ),
            Obs::Capsule(c) => (
                Box::new(PCapsule::new(c.a.p(), c.b.p(), c.radius)),
                Pose::IDENTITY,
            ),
            Obs::Cylinder(c) => {
                let axis = c.b - c.a;
                let q = Quat::from_rotation_arc(Vec3::Y, axis.normalize());
                (
                    Box::new(PCylinder::new(axis.length() * 0.5, c.radius)),
                    Pose::from_parts(((c.a + c.b) * 0.5).p(), q.p()),
                )
            }
            Obs::Wall(w, h) => (Box::new(wall_compound(w, *h)), Pose::IDENTITY),
        }
    }

    /// Points and sizes for the scale of a case.
    pub(crate) fn extent_points(&self) -> (Vec<Vec3>, Vec<f32>) {
        match self {
            Obs::Sphere(s) => (vec![s.center], vec![s.radius]),
            Obs::Aabb(b) => (vec![b.min, b.max], vec![]),
            Obs::Obb(o, _) => (vec![o.center], vec![o.half_extents.length()]),
            Obs::Plane(p) => {
                let l = p.normal.length();
                (vec![p.normal / l * (p.d / l)], vec![])
            }
            Obs::Triangle(t) => (vec![t.a, t.b, t.c], vec![]),
            Obs::Capsule(c) => (vec![c.a, c.b], vec![c.radius]),
            Obs::Cylinder(c) => (vec![c.a, c.b], vec![c.radius]),
            Obs::Wall(w, h) => (
                vec![Vec3::new(w.a.x, 0.0, w.a.y), Vec3::new(w.b.x, *h, w.b.y)],
                vec![w.radius, *h],
            ),
        }
    }

    /// Where to aim and how far the obstacle reaches from there.
    fn target(&self) -> (Vec3, f32) {
        match self {
            Obs::Sphere(s) => (s.center, s.radius),
            Obs::Aabb(b) => ((b.min + b.max) * 0.5, (b.max - b.min).length() * 0.5),
            Obs::Obb(o, _) => (o.center, o.half_extents.length()),
            Obs::Plane(p) => {
                let l = p.normal.length();
                (p.normal / l * (p.d / l), 3.0)
            }
            Obs::Triangle(t) => {
                let c = (t.a + t.b + t.c) / 3.0;
                (
                    c,
                    (t.a - c)
                        .length()
                        .max((t.b - c).length())
                        .max((t.c - c).length()),
                )
            }
            Obs::Capsule(c) => ((c.a + c.b) * 0.5, (c.b - c.a).length() * 0.5 + c.radius),
            Obs::Cylinder(c) => ((c.a + c.b) * 0.5, (c.b - c.a).length() * 0.5 + c.radius),
            Obs::Wall(w, h) => {
                let m = (w.a + w.b) * 0.5;
                (
                    Vec3::new(m.x, h * 0.5, m.y),
                    (w.b - w.a).length() * 0.5 + w.radius + h * 0.5,
                )
            }
        }
    }

    /// The obstacle scaled by `k` about the origin, then moved by `off` (walls: along the floor only).
    pub(crate) fn transformed(&self, k: f32, off: Vec3) -> Obs {
        let t = |v: Vec3| v * k + off;
        match self {
            Obs::Sphere(s) => Obs::Sphere(Sphere::new(t(s.center), s.radius * k)),
            Obs::Aabb(b) => Obs::Aabb(Aabb::new(t(b.min), t(b.max))),
            Obs::Obb(o, q) => Obs::Obb(Obb::new(t(o.center), o.half_extents * k, o.rotation), *q),
            Obs::Plane(p) => {
                let l = p.normal.length();
                let n = p.normal / l;
                let dd = p.d / l * k + n.dot(off);
                Obs::Plane(Plane::new(p.normal, dd * l))
            }
            Obs::Triangle(tr) => Obs::Triangle(Triangle::new(t(tr.a), t(tr.b), t(tr.c))),
            Obs::Capsule(c) => Obs::Capsule(Capsule::new(t(c.a), t(c.b), c.radius * k)),
            Obs::Cylinder(c) => Obs::Cylinder(Cylinder::new(t(c.a), t(c.b), c.radius * k)),
            Obs::Wall(w, h) => {
                let o2 = Vec2::new(off.x, off.z);
                Obs::Wall(Wall::new(w.a * k + o2, w.b * k + o2, w.radius * k), h * k)
            }
        }
    }

    /// A random feature of the surface: a face, an edge or a corner, a side, a cap or a rim.
    pub(crate) fn feature(&self, rng: &mut Rng) -> Feature {
        match self {
            Obs::Sphere(s) => {
                let n = rng.dir();
                Feature {
                    point: s.center + n * s.radius,
                    normal: n,
                    along: perpendicular(rng, n),
                }
            }
            Obs::Aabb(b) => {
                let (c, h) = ((b.min + b.max) * 0.5, (b.max - b.min) * 0.5);
                box_feature(rng, c, h, Mat3::IDENTITY)
            }
            Obs::Obb(o, _) => box_feature(rng, o.center, o.half_extents, o.rotation),
            Obs::Plane(p) => {
                let l = p.normal.length();
                let n = p.normal / l;
                let n = if rng.chance(0.5) { n } else { -n };
                let along = perpendicular(rng, n);
                let point = p.normal / l * (p.d / l) + perpendicular(rng, n) * rng.range(0.0, 5.0);
                Feature {
                    point,
                    normal: n,
                    along,
                }
            }
            Obs::Triangle(t) => {
                let n = (t.b - t.a).cross(t.c - t.a).normalize();
                let n = if rng.chance(0.5) { n } else { -n };
                let v = [t.a, t.b, t.c];
                match rng.below(3) {
                    0 => {
                        // Face interior.
                        let (mut u, mut w) = (rng.unit(), rng.unit());
                        if u + w > 1.0 {
                            (u, w) = (1.0 - u, 1.0 - w);
                        }
                        let e = rng.below(3);
                        Feature {
                            point: t.a + (t.b - t.a) * u + (t.c - t.a) * w,
                            normal: n,
                            along: if rng.chance(0.5) {
                                (v[(e + 1) % 3] - v[e]).normalize()
                            } else {
                                perpendicular(rng, n)
                            },
                        }
                    }
                    1 => {
                        // An edge: outward in the plane, tilted toward a face.
                        let e = rng.below(3);
                        let (a, b, o) = (v[e], v[(e + 1) % 3], v[(e + 2) % 3]);
                        let dir = (b - a).normalize();
                        let mut out = n.cross(dir);
                        if out.dot(o - a) > 0.0 {
                            out = -out;
                        }
                        let tilt = rng.range(0.0, 1.5);
                        Feature {
                            point: a + (b - a) * rng.unit(),
                            normal: (out * tilt.cos() + n * tilt.sin()).normalize(),
                            along: dir,
                        }
                    }
                    _ => {
                        let e = rng.below(3);
                        let c = (t.a + t.b + t.c) / 3.0;
                        let out = (v[e] - c).normalize();
                        let tilt = rng.range(0.0, 1.5);
                        let normal = (out * tilt.cos() + n * tilt.sin()).normalize();
                        Feature {
                            point: v[e],
                            normal,
                            along: perpendicular(rng, normal),
                        }
                    }
                }
            }
            Obs::Capsule(c) => {
                let s = rng.unit();
                let axis = c.b - c.a;
                let (n, along) = match axis.try_normalize() {
                    Some(u) if rng.chance(0.7) => (perpendicular(rng, u), u),
                    _ => {
                        let n = rng.dir();
                        (n, perpendicular(rng, n))
                    }
                };
                let base = if rng.chance(0.7) {
                    c.a + axis * s
                } else if n.dot(axis) >= 0.0 {
                    c.b
                } else {
                    c.a
                };
                Feature {
                    point: base + n * c.radius,
                    normal: n,
                    along,
                }
            }
            Obs::Cylinder(c) => {
                let axis = c.b - c.a;
                let u = axis.normalize();
                let radial = perpendicular(rng, u);
                match rng.below(3) {
                    0 => Feature {
                        point: c.a + axis * rng.unit() + radial * c.radius,
                        normal: radial,
                        along: u,
                    },
                    1 => {
                        let (end, n) = if rng.chance(0.5) { (c.b, u) } else { (c.a, -u) };
                        Feature {
                            point: end + radial * (c.radius * rng.unit()),
                            normal: n,
                            along: perpendicular(rng, n),
                        }
                    }
                    _ => {
                        let (end, n) = if rng.chance(0.5) { (c.b, u) } else { (c.a, -u) };
                        let tilt = rng.range(0.0, 1.5);
                        Feature {
                            point: end + radial * c.radius,
                            normal: (radial * tilt.cos() + n * tilt.sin()).normalize(),
                            along: if rng.chance(0.5) {
                                radial.cross(u).normalize()
                            } else {
                                u
                            },
                        }
                    }
                }
            }
            Obs::Wall(w, h) => {
                let lift = |v: Vec2, y: f32| Vec3::new(v.x, y, v.y);
                let dir = lift(w.b - w.a, 0.0).try_normalize().unwrap_or(Vec3::X);
                let side = Vec3::new(-dir.z, 0.0, dir.x);
                let s = rng.unit();
                let base = lift(w.a + (w.b - w.a) * s, 0.0);
                match rng.below(4) {
                    0 => {
                        let n = if rng.chance(0.5) { side } else { -side };
                        Feature {
                            point: base + n * w.radius + Vec3::Y * (h * rng.unit()),
                            normal: n,
                            along: if rng.chance(0.5) { dir } else { Vec3::Y },
                        }
                    }
                    1 => Feature {
                        point: base + side * (w.radius * rng.range(-1.0, 1.0)) + Vec3::Y * *h,
                        normal: Vec3::Y,
                        along: if rng.chance(0.5) { dir } else { side },
                    },
                    2 => {
                        // The top edge.
                        let n = if rng.chance(0.5) { side } else { -side };
                        let tilt = rng.range(0.0, 1.5);
                        Feature {
                            point: base + n * w.radius + Vec3::Y * *h,
                            normal: (n * tilt.cos() + Vec3::Y * tilt.sin()).normalize(),
                            along: dir,
                        }
                    }
                    _ => {
                        // A post at an end.
                        let (end, away) = if rng.chance(0.5) {
                            (w.a, -dir)
                        } else {
                            (w.b, dir)
                        };
                        let ang = rng.range(-1.5, 1.5);
                        let n = (away * ang.cos() + side * ang.sin()).normalize();
                        Feature {
                            point: lift(end, h * rng.unit()) + n * w.radius,
                            normal: n,
                            along: Vec3::Y,
                        }
                    }
                }
            }
        }
    }
}

fn box_feature(rng: &mut Rng, c: Vec3, h: Vec3, rot: Mat3) -> Feature {
    let sign = |rng: &mut Rng| if rng.chance(0.5) { 1.0 } else { -1.0 };
    let axes = [rot.x_axis, rot.y_axis, rot.z_axis];
    let i = rng.below(3);
    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
    match rng.below(3) {
        0 => {
            // Face i.
            let si = sign(rng);
            let mut local = Vec3::ZERO;
            local[i] = si * h[i];
            local[j] = rng.range(-1.0, 1.0) * h[j];
            local[k] = rng.range(-1.0, 1.0) * h[k];
            Feature {
                point: c + rot * local,
                normal: axes[i] * si,
                along: if rng.chance(0.5) {
                    axes[j]
                } else {
                    (axes[j] * rng.range(-1.0, 1.0) + axes[k] * rng.range(-1.0, 1.0))
                        .try_normalize()
                        .unwrap_or(axes[k])
                },
            }
        }
        1 => {
            // The edge along axis k between faces i and j.
            let (si, sj) = (sign(rng), sign(rng));
            let mut local = Vec3::ZERO;
            local[i] = si * h[i];
            local[j] = sj * h[j];
            local[k] = rng.range(-1.0, 1.0) * h[k];
            let tilt = rng.range(0.0, std::f32::consts::FRAC_PI_2);
            Feature {
                point: c + rot * local,
                normal: (axes[i] * si * tilt.cos() + axes[j] * sj * tilt.sin()).normalize(),
                along: axes[k],
            }
        }
        _ => {
            let s = Vec3::new(sign(rng), sign(rng), sign(rng));
            let n =
                (rot * (s * Vec3::new(rng.unit(), rng.unit(), rng.unit()) + s * 0.05)).normalize();
            Feature {
                point: c + rot * (s * h),
                normal: n,
                along: perpendicular(rng, n),
            }
        }
    }
}

/// A wall as parry sees it: the cuboid core along the segment and cylinder posts at its ends (a segment for a
/// post of no radius and no length).
fn wall_compound(w: &Wall, h: f32) -> Compound {
    let lift = |v: Vec2, y: f32| Vec3::new(v.x, y, v.y);
    let mut parts: Vec<(Pose, SharedShape)> = Vec::new();
    let along = w.b - w.a;
    let len = along.length();
    if len > 0.0 {
        let e = along / len;
        let angle = (-e.y).atan2(e.x);
        let center = lift((w.a + w.b) * 0.5, h * 0.5);
        parts.push((
            Pose::from_parts(center.p(), Quat::from_rotation_y(angle).p()),
            SharedShape::cuboid(len * 0.5, h * 0.5, w.radius),
        ));
    }
    if w.radius > 0.0 {
        for end in [w.a, w.b] {
            parts.push((
                Pose::from_translation(lift(end, h * 0.5).p()),
                SharedShape::cylinder(h * 0.5, w.radius),
            ));
        }
    }
    if parts.is_empty() {
        parts.push((
            Pose::IDENTITY,
            SharedShape::new(PSegment::new(lift(w.a, 0.0).p(), lift(w.a, h).p())),
        ));
    }
    Compound::new(parts)
}

// ---------------------------------------------------------------------------------------------------------
// Cases

/// `max(1, every |coordinate| and size)`.
fn scale_of(points: &[Vec3], sizes: &[f32]) -> f64 {
    let mut s = 1.0f32;
    for p in points {
        s = s.max(p.abs().max_element());
    }
    for x in sizes {
        s = s.max(x.abs());
    }
    f64::from(s)
}

#[derive(Clone, Debug)]
struct SweepCase {
    cap: Capsule,
    m: Vec3,
    obs: Obs,
    /// Which distribution made it (for the report).
    mode: &'static str,
}

impl SweepCase {
    /// The case as the referee judges it: the capsule, the motion and the obstacle in the world, except for an
    /// oriented box, judged in its own frame through the transpose of its rotation as collidoscope reads it (an
    /// f32 rotation is orthonormal only to rounding, and the two readings of the box differ by that defect
    /// times the distances: the world reading is checked on the contact point and normal instead).
    fn frame(&self) -> (Seg, D, Solid) {
        let seg = Seg::of(&self.cap);
        match &self.obs {
            Obs::Obb(o, _) => {
                let rt = o.rotation.as_dmat3().transpose();
                let c = d(o.center);
                (
                    Seg {
                        p: rt * (seg.p - c),
                        q: rt * (seg.q - c),
                        r: seg.r,
                    },
                    rt * d(self.m),
                    Solid::Box {
                        c: D::ZERO,
                        h: d(o.half_extents),
                        rot: collidoscope::glam::DMat3::IDENTITY,
                    },
                )
            }
            obs => (seg, d(self.m), obs.solid()),
        }
    }

    fn scale(&self) -> f64 {
        let (mut pts, mut sizes) = self.obs.extent_points();
        pts.extend([self.cap.a, self.cap.b, self.cap.a + self.m, self.m]);
        sizes.push(self.cap.radius);
        scale_of(&pts, &sizes)
    }
}

fn random_capsule_near(rng: &mut Rng, target: Vec3, reach: f32) -> Capsule {
    let c = if rng.chance(0.5) {
        rng.sym(12.0)
    } else {
        target + rng.sym(reach + 3.0)
    };
    let r = if rng.chance(0.1) {
        rng.range(0.005, 0.05)
    } else {
        rng.size() * 0.6
    };
    let half = if rng.chance(0.1) {
        Vec3::ZERO
    } else {
        rng.dir() * rng.range(0.0, 3.0)
    };
    Capsule::new(c - half, c + half, r)
}

/// One sweep case of the obstacle kind `kind`, from one of the distributions described in the module doc.
fn sweep_case(rng: &mut Rng, kind: usize) -> SweepCase {
    let obs = Obs::random(kind, rng);
    let (target, reach) = obs.target();
    let pick = rng.unit();
    let (cap, m, mode) = if pick < 0.40 {
        // Generic: aimed near the obstacle, 0.2 to 2.5 times the way there; some random.
        let cap = random_capsule_near(rng, target, reach);
        let mid = (cap.a + cap.b) * 0.5;
        let m = if rng.chance(0.85) {
            (target + rng.sym(reach + cap.radius) - mid) * rng.range(0.2, 2.5)
        } else {
            rng.sym(10.0)
        };
        (cap, m, "generic")
    } else if pick < 0.45 {
        let cap = random_capsule_near(rng, target, reach * 0.5);
        (cap, Vec3::ZERO, "zero motion")
    } else if pick < 0.80 {
        // A capsule placed on a feature: along the surface or end-on, at its radius or near it.
        let f = obs.feature(rng);
        let r = if rng.chance(0.1) {
            rng.range(0.005, 0.05)
        } else {
            rng.size() * 0.6
        };
        let gap = match rng.below(6) {
            0 | 1 => 0.0,
            2 => rng.range(-1.0, 1.0) * 1e-6,
            3 => rng.range(-1.0, 1.0) * 1e-3,
            4 => rng.range(-0.5, 0.0) * r,
            _ => rng.range(0.0, 3.0),
        };
        let len = if rng.chance(0.15) {
            0.0
        } else {
            rng.range(0.1, 4.0)
        };
        let (a, b, mode) = match rng.below(3) {
            0 => {
                // Parallel to the feature's direction, touching it with its side.
                let axis = if rng.chance(0.3) {
                    (f.along + f.normal * rng.range(-1.0, 1.0) * 1e-5).normalize()
                } else {
                    f.along
                };
                let c = f.point + f.normal * (r + gap);
                let s = rng.range(0.0, 1.0);
                (
                    c - axis * (len * s),
                    c + axis * (len * (1.0 - s)),
                    "parallel",
                )
            }
            1 => {
                // End-on: an end sphere at the feature, the segment pointing away.
                let away = (f.normal + rng.sym(0.9)).normalize_or(f.normal);
                let away = if away.dot(f.normal) < 0.0 {
                    f.normal
                } else {
                    away
                };
                let a = f.point + f.normal * (r + gap);
                (a, a + away * len, "end-on")
            }
            _ => {
                // Lying across, its middle at the feature.
                let dir = perpendicular(rng, f.normal);
                let c = f.point + f.normal * (r + gap);
                (c - dir * len * 0.5, c + dir * len * 0.5, "across")
            }
        };
        let cap = Capsule::new(a, b, r);
        let speed = rng.range(0.01, 6.0);
        let tangent = perpendicular(rng, f.normal);
        let m = match rng.below(7) {
            0 => -f.normal * speed,
            1 => (-f.normal + tangent * rng.range(-2.0, 2.0)) * speed,
            2 => f.along * speed,
            3 => tangent * speed,
            4 => (tangent + f.normal * rng.range(-1.0, 1.0) * 1e-6) * speed,
            5 => f.normal * speed,
            _ => rng.sym(4.0),
        };
        (cap, m, mode)
    } else if pick < 0.88 {
        // Grazing: a generic motion, the capsule shifted so its closest approach along it is its radius.
        let cap = random_capsule_near(rng, target, reach);
        let mid = (cap.a + cap.b) * 0.5;
        let m = (target + rng.sym(reach + cap.radius) - mid) * rng.range(0.5, 2.5);
        let solid = obs.solid();
        let md = d(m);
        let (tmin, fmin) =
            referee::convex_min(&|t| referee::gap_at(&cap, md, &solid, t), f64::NEG_INFINITY);
        let ap = referee::approach_at(&cap, md, &solid, tmin);
        let n = (ap.on_segment - ap.on_shape).normalize_or_zero();
        let extra = match rng.below(3) {
            0 => 0.0,
            1 => f64::from(rng.range(-1.0, 1.0)) * 1e-6,
            _ => f64::from(rng.range(-1.0, 1.0)) * 1e-3,
        };
        let shift = (-n * (fmin + extra)).as_vec3();
        let cap = if n == D::ZERO || fmin <= -f64::from(cap.radius) {
            cap
        } else {
            cap.translated(shift)
        };
        (cap, m, "grazing")
    } else {
        // a == b: a sphere, generic otherwise.
        let mut cap = random_capsule_near(rng, target, reach);
        cap.b = cap.a;
        let m = (target + rng.sym(reach + cap.radius) - cap.a) * rng.range(0.2, 2.5);
        (cap, m, "a == b")
    };
    // Scale the whole case, or move it far away, now and then.
    let (k, off, mode) = match rng.below(20) {
        0 | 1 => (1e-3, Vec3::ZERO, "tiny"),
        2 | 3 => (1e3, Vec3::ZERO, "huge"),
        4 | 5 => {
            let off = rng.dir() * rng.range(1e3, 5e3);
            let off = if matches!(obs, Obs::Wall(..)) {
                Vec3::new(off.x, 0.0, off.z)
            } else {
                off
            };
            (1.0, off, "far")
        }
        _ => (1.0, Vec3::ZERO, mode),
    };
    if k == 1.0 && off == Vec3::ZERO {
        return SweepCase { cap, m, obs, mode };
    }
    let t = |v: Vec3| v * k + off;
    SweepCase {
        cap: Capsule::new(t(cap.a), t(cap.b), cap.radius * k),
        m: m * k,
        obs: obs.transformed(k, off),
        mode,
    }
}

// ---------------------------------------------------------------------------------------------------------
// Bookkeeping

#[derive(Default)]
struct Stats {
    name: String,
    cases: usize,
    hits: usize,
    misses: usize,
    start_overlap: usize,
    /// Cases where collidoscope and parry disagree beyond `TOL`.
    disagreements: usize,
    /// Cases the referee checked (disagreements and the regular share).
    refereed: usize,
    /// Disagreements the referee settled for collidoscope.
    ours_right: usize,
    /// Cases where parry was wrong by more than `TOL` (by the referee), or malformed.
    parry_wrong: usize,
    parry_worst: f64,
    /// Worst `|t - t_ref|·|m|` of collidoscope, divided by its allowance `1e-5·(1 + |m|)`.
    ours_worst: f64,
    /// Inside the rounding band, where either answer is right.
    band: usize,
    /// Starting overlaps where the segment meets a solid: `t = 0` or `None` by the way-out convention.
    convention: usize,
    /// Starting touches with a motion along the surface (neither approaching nor separating, to rounding).
    sliding: usize,
    /// Meshes: the capsule starts on a triangle it leaves (parry's `t = 0`; collidoscope goes on, per triangle).
    leaving: usize,
    /// Contacts so grazing that the referee's own rounding, divided by the closing speed, exceeds the allowance.
    grazing: usize,
    failures: usize,
    messages: Vec<String>,
    notes: Vec<String>,
    modes: Vec<(&'static str, usize)>,
}

impl Stats {
    fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }
    fn fail(&mut self, msg: String) {
        self.failures += 1;
        if self.messages.len() < 10 {
            self.messages.push(msg);
        }
    }
    fn mode(&mut self, m: &'static str) {
        match self.modes.iter_mut().find(|(n, _)| *n == m) {
            Some((_, k)) => *k += 1,
            None => self.modes.push((m, 1)),
        }
    }
    fn finish(self, started: Instant) {
        let mut modes = String::new();
        for (m, k) in &self.modes {
            let _ = write!(modes, "{m} {k}, ");
        }
        eprintln!(
            "{}: {} cases ({:.2} s; {}), {} hit/overlap, {} miss, {} starting in overlap; \
             {} disagreements with parry beyond {TOL:e}·scale, all refereed ({} refereed in all): \
             collidoscope right in {}, parry wrong in {} (worst parry error {:.2e}·scale); \
             collidoscope's worst error {:.3} of its allowance; {} in the rounding band, {} by the way-out \
             convention, {} sliding, {} grazing beyond the referee's conditioning; {} failures",
            self.name,
            self.cases,
            started.elapsed().as_secs_f64(),
            modes.trim_end_matches(", "),
            self.hits,
            self.misses,
            self.start_overlap,
            self.disagreements,
            self.refereed,
            self.ours_right,
            self.parry_wrong,
            self.parry_worst,
            self.ours_worst,
            self.band,
            self.convention,
            self.sliding,
            self.grazing,
            self.failures
        );
        if self.leaving > 0 {
            eprintln!(
                "  {} cases start on a triangle the motion leaves (parry: t = 0; collidoscope: each triangle \
                 on its own, as documented)",
                self.leaving
            );
        }
        for n in self.notes.iter().take(6) {
            eprintln!("  note: {n}");
        }
        for m in &self.messages {
            eprintln!("  FAIL: {m}");
        }
        assert_eq!(
            self.failures, 0,
            "{}: {} failures (first ones printed above)",
            self.name, self.failures
        );
        let share = self.cases / 20;
        assert!(
            self.hits >= share && self.misses >= share,
            "{}: unbalanced cases ({} hits, {} misses)",
            self.name,
            self.hits,
            self.misses
        );
    }
}

// ---------------------------------------------------------------------------------------------------------
// Sweeps

/// parry's first contact of the capsule moving by `m` against the obstacle.
fn parry_sweep(c: &SweepCase) -> Option<ShapeCastHit> {
    let side = (c.cap.a + c.cap.b) * 0.5;
    let (shape, pose) = c.obs.parry(side);
    let pc = PCapsule::new(c.cap.a.p(), c.cap.b.p(), c.cap.radius);
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    pq::cast_shapes(
        &Pose::IDENTITY,
        c.m.p(),
        &pc,
        &pose,
        glam_parry::Vec3::ZERO,
        &*shape,
        opts,
    )
    .unwrap()
}

/// The allowance on `t` as a distance along the motion (API.md "Precisely").
fn t_allowance(m: Vec3) -> f64 {
    1e-5 * (1.0 + f64::from(m.length()))
}

/// The allowance on the contact point: `1e-3·(1 + |m|)`, plus the f32 rounding of coordinates of the size of
/// `scale`.
fn point_allowance(m: Vec3, scale: f64) -> f64 {
    1e-3 * (1.0 + f64::from(m.length())) + 4.0 * scale * f64::from(f32::EPSILON)
}

/// Checks made on every hit whatever parry says: shape of the answer, the point on both shapes, the normal.
#[allow(clippy::too_many_arguments)]
fn check_hit_on_the_spot(
    st: &mut Stats,
    ctx: &dyn Fn() -> String,
    cap: &Capsule,
    m: Vec3,
    solid: &Solid,
    scale: f64,
    fuzz: f64,
    h: &Toi,
) -> bool {
    let ok = h.t.is_finite()
        && (0.0..=1.0).contains(&h.t)
        && h.point.is_finite()
        && h.normal.is_finite()
        && (h.normal.length() - 1.0).abs() <= 1e-4;
    if !ok {
        st.fail(format!("{}: malformed {h:?}", ctx()));
        return false;
    }
    let md = d(m);
    let t = f64::from(h.t);
    let ap = referee::approach_at(cap, md, solid, t);
    let r = f64::from(cap.radius);
    let ptol = point_allowance(m, scale) + fuzz;
    let p = d(h.point);
    let seg = (d(cap.a) + md * t, d(cap.b) + md * t);
    let to_axis = p.distance(referee::cp_segment(p, seg.0, seg.1));
    // On the obstacle's boundary (a surface: on it).
    let off_obstacle = solid.boundary_distance(p);
    if off_obstacle > ptol {
        st.fail(format!(
            "{}: point {:?} is {off_obstacle:e} off the obstacle's boundary (allowance {ptol:e})",
            ctx(),
            h.point
        ));
        return false;
    }
    // On the capsule: on its surface past the start; at the start within it, wherever the obstacle's boundary
    // reaches into it (not when the capsule lies wholly inside a solid, nor for the exact crossings of a ball's
    // centre or a capsule's axis, where the point is taken along the normal by convention).
    let in_reach = if ap.dist > 0.0 || solid.is_surface() {
        true
    } else if matches!(solid, Solid::Ball { .. } | Solid::Capsule { .. }) {
        false
    } else {
        let depth = |x: D| {
            if solid.distance(x) > 0.0 {
                0.0
            } else {
                solid.boundary_distance(x)
            }
        };
        depth(seg.0).min(depth(seg.1)) <= r - ptol
    };
    let on_capsule = if t > 0.0 {
        (to_axis - r).abs() <= ptol
    } else {
        !in_reach || to_axis <= r + ptol
    };
    if !on_capsule {
        st.fail(format!(
            "{}: point {:?} is {to_axis} from the capsule's axis (radius {r}, allowance {ptol:e})",
            ctx(),
            h.point
        ));
        return false;
    }
    // The normal: from the obstacle's closest point toward the segment, where that is defined (apart).
    if ap.dist > 1e-6 * scale {
        let want = (ap.on_segment - ap.on_shape) / ap.dist;
        let ntol =
            NORMAL_TOL.max(20.0 * (t_allowance(m) + fuzz) / r.max(1e-30) * (1.0 + scale * 1e-4));
        if (d(h.normal) - want).length() > ntol {
            st.fail(format!(
                "{}: normal {:?}, the referee's {want:?} at t = {t} (|Δ| {:e}, allowance {ntol:e})",
                ctx(),
                h.normal,
                (d(h.normal) - want).length()
            ));
            return false;
        }
    }
    true
}

/// The referee's verdict on collidoscope's answer (strict, API.md's allowances), and on parry's (`TOL`).
fn referee_sweep(
    st: &mut Stats,
    ctx: &dyn Fn() -> String,
    c: &SweepCase,
    scale: f64,
    mine: Option<Toi>,
    theirs: Option<&ShapeCastHit>,
) -> bool {
    st.refereed += 1;
    let (seg, md, solid) = c.frame();
    let solid = &solid;
    let rf = referee::seg_sweep(&seg, md, solid);
    let ml = f64::from(c.m.length());
    let band = BAND * scale;
    let allowance = t_allowance(c.m);
    let ptol = TOL * scale;
    // parry, at its own tolerance.
    let parry_ok = match (theirs, rf.t) {
        (None, None) => true,
        (None, Some(_)) => rf.fmin >= -ptol,
        (Some(h), None) => rf.fmin <= ptol || h.status == ShapeCastStatus::Failed,
        (Some(h), Some(t)) => {
            let err = (f64::from(h.time_of_impact) - t).abs() * ml;
            st.parry_worst = st.parry_worst.max(err / scale);
            err <= ptol || rf.fmin.abs() <= ptol || rf.f0.abs() <= ptol
        }
    };
    if !parry_ok {
        st.parry_wrong += 1;
        if st.notes.len() < 6 {
            st.notes.push(format!(
                "parry {:?} vs referee {:?} for {}",
                theirs.map(|h| (h.time_of_impact, h.status)),
                rf,
                ctx()
            ));
        }
    }
    if rf.f0 <= 0.0 {
        // Overlapping or touching at the start.
        st.start_overlap += 1;
        return judge_start(st, ctx, c, scale, mine, rf.f0);
    }
    if rf.f0 <= band && mine.is_some_and(|h| h.t == 0.0) {
        // Apart by less than rounding: touching, for collidoscope.
        st.band += 1;
        return true;
    }
    match (mine, rf.t) {
        (None, None) => true,
        (Some(h), None) => {
            if rf.fmin <= band {
                st.band += 1;
                true
            } else {
                st.fail(format!(
                    "{}: collidoscope {h:?}, the referee finds no contact (closest approach {:e} beyond \
                     the radius)",
                    ctx(),
                    rf.fmin
                ));
                false
            }
        }
        (None, Some(t)) => {
            if rf.fmin >= -band {
                st.band += 1;
                true
            } else {
                st.fail(format!(
                    "{}: collidoscope misses, the referee finds contact at t = {t} (depth {:e} at t = {})",
                    ctx(),
                    -rf.fmin,
                    rf.tmin
                ));
                false
            }
        }
        (Some(h), Some(t)) => {
            let err = (f64::from(h.t) - t).abs() * ml;
            st.ours_worst = st.ours_worst.max(err / allowance);
            if err > allowance {
                // The referee's time is uncertain by its rounding over the closing speed (the cosine between
                // the motion and the normal at contact).
                let ap = referee::seg_approach_at(&seg, md, solid, t);
                let cos = if ap.dist > 0.0 && ml > 0.0 {
                    ((ap.on_segment - ap.on_shape) / ap.dist)
                        .dot(md / md.length())
                        .abs()
                } else {
                    1.0
                };
                if err <= allowance + 1e-13 * scale / cos.max(1e-300) {
                    st.grazing += 1;
                    return true;
                }
                st.fail(format!(
                    "{}: collidoscope t = {} ({h:?}), the referee's {t} (|Δt|·|m| = {err:e}, allowance \
                     {allowance:e})",
                    ctx(),
                    h.t
                ));
                return false;
            }
            true
        }
    }
}

/// A start in overlap: `t = 0` unless the motion separates them, then `None`.
fn judge_start(
    st: &mut Stats,
    ctx: &dyn Fn() -> String,
    c: &SweepCase,
    scale: f64,
    mine: Option<Toi>,
    f0: f64,
) -> bool {
    let (seg, md, solid) = c.frame();
    let solid = &solid;
    if let Some(h) = mine
        && h.t > 0.0
    {
        let err = f64::from(h.t) * f64::from(c.m.length());
        let band = BAND * scale;
        if f0 >= -band && err <= t_allowance(c.m) {
            st.band += 1;
            return true;
        }
        if f0 >= -band {
            // Touching within the obstacle's own rounding: collidoscope may read them apart, if they then stay
            // within that band of touching until its t and touch at it.
            let t = f64::from(h.t);
            let (_, low) = referee::convex_min(
                &|s| referee::seg_gap_at(&seg, md, solid, s * t),
                f64::NEG_INFINITY,
            );
            if low >= -band && referee::seg_gap_at(&seg, md, solid, t).abs() <= band {
                st.band += 1;
                return true;
            }
        }
        st.fail(format!(
            "{}: overlapping at the start (gap {f0:e}), collidoscope {h:?}",
            ctx()
        ));
        return false;
    }
    let ap0 = referee::seg_approach_at(&seg, D::ZERO, solid, 0.0);
    if ap0.dist <= 1e-9 * scale {
        // The segment meets the obstacle: a surface never separates; a solid by its way-out convention.
        if solid.is_surface() && !matches!(c.obs, Obs::Plane(_)) && mine.is_none() {
            st.fail(format!(
                "{}: the segment lies across the surface, collidoscope None instead of t = 0",
                ctx()
            ));
            return false;
        }
        st.convention += 1;
        return true;
    }
    // Apart from the segment: the motion separates them when the distance grows along it, at the rate
    // n·m/|m| (n the unit direction from the obstacle's closest point to the segment's).
    let ml = f64::from(c.m.length());
    if ml == 0.0 {
        return if mine.is_some() {
            true
        } else {
            st.fail(format!(
                "{}: touching, zero motion, collidoscope None",
                ctx()
            ));
            false
        };
    }
    let n = (ap0.on_segment - ap0.on_shape) / ap0.dist;
    let change = n.dot(md) / md.length();
    // Rounding of the direction: the referee's and collidoscope's points, over their distance.
    let slack = 1e-3f64.max(1e-12 * scale / ap0.dist);
    if change.abs() <= slack {
        st.sliding += 1;
        return true;
    }
    match (mine, change > 0.0) {
        (Some(_), false) | (None, true) => true,
        (Some(h), true) => {
            st.fail(format!(
                "{}: touching and separating (the distance grows {change:.3e} per unit of motion), \
                 collidoscope {h:?} instead of None",
                ctx()
            ));
            false
        }
        (None, false) => {
            st.fail(format!(
                "{}: touching and approaching (the distance shrinks {change:.3e} per unit of motion), \
                 collidoscope None instead of t = 0",
                ctx()
            ));
            false
        }
    }
}

fn sweep_differential(kind: usize, seed: u64) {
    let started = Instant::now();
    let name = format!("sweep::capsule_{}", Obs::name(kind));
    let mut rng = Rng::new(seed);
    let mut st = Stats::new(name.clone());
    for i in 0..SWEEP_CASES {
        let c = sweep_case(&mut rng, kind);
        st.cases += 1;
        st.mode(c.mode);
        let scale = c.scale();
        let solid = c.obs.solid();
        let mine = c.obs.sweep(&c.cap, c.m);
        let theirs = parry_sweep(&c);
        let ctx = || format!("{name}({:?}, {:?}, {:?}) [{}]", c.cap, c.m, c.obs, c.mode);
        match mine {
            Some(_) => st.hits += 1,
            None => st.misses += 1,
        }
        if let Some(h) = mine
            && !check_hit_on_the_spot(
                &mut st,
                &ctx,
                &c.cap,
                c.m,
                &solid,
                scale,
                c.obs.fuzz(scale),
                &h,
            )
        {
            continue;
        }
        let ml = f64::from(c.m.length());
        let agree = match (&mine, &theirs) {
            (None, None) => true,
            (Some(h), Some(p)) => {
                (f64::from(h.t) - f64::from(p.time_of_impact)).abs() * ml <= TOL * scale
            }
            _ => false,
        };
        if !agree {
            st.disagreements += 1;
        }
        if !agree || i % REF_EVERY == 0 {
            let right = referee_sweep(&mut st, &ctx, &c, scale, mine, theirs.as_ref());
            if right && !agree {
                st.ours_right += 1;
            }
        }
    }
    st.finish(started);
}

#[test]
fn capsule_sphere_sweep_matches_parry_and_the_referee() {
    sweep_differential(0, 0xC5_0001);
}

#[test]
fn capsule_aabb_sweep_matches_parry_and_the_referee() {
    sweep_differential(1, 0xC5_0002);
}

#[test]
fn capsule_obb_sweep_matches_parry_and_the_referee() {
    sweep_differential(2, 0xC5_0003);
}

#[test]
fn capsule_plane_sweep_matches_parry_and_the_referee() {
    sweep_differential(3, 0xC5_0004);
}

#[test]
fn capsule_triangle_sweep_matches_parry_and_the_referee() {
    sweep_differential(4, 0xC5_0005);
}

#[test]
fn capsule_capsule_sweep_matches_parry_and_the_referee() {
    sweep_differential(5, 0xC5_0006);
}

#[test]
fn capsule_cylinder_sweep_matches_parry_and_the_referee() {
    sweep_differential(6, 0xC5_0007);
}

#[test]
fn capsule_wall_sweep_matches_parry_and_the_referee() {
    sweep_differential(7, 0xC5_0008);
}

// ---------------------------------------------------------------------------------------------------------
// Overlaps

/// parry's overlap of the capsule and the obstacle (a plane's surface: both half-spaces).
fn parry_overlap(cap: &Capsule, obs: &Obs) -> bool {
    let pc = PCapsule::new(cap.a.p(), cap.b.p(), cap.radius);
    let test = |shape: &dyn Shape, pose: &Pose| {
        pq::intersection_test(&Pose::IDENTITY, &pc, pose, shape)
            .unwrap()
            .intersecting
    };
    if let Obs::Plane(p) = obs {
        let l = p.normal.length();
        let on = p.normal / l * (p.d / l);
        let (s1, p1) = obs.parry(on + p.normal);
        let (s2, p2) = obs.parry(on - p.normal);
        return test(&*s1, &p1) && test(&*s2, &p2);
    }
    let (s, pose) = obs.parry(Vec3::ZERO);
    test(&*s, &pose)
}

fn overlap_differential(kind: usize, seed: u64) {
    let started = Instant::now();
    let name = format!("overlap::capsule_{}", Obs::name(kind));
    let mut rng = Rng::new(seed);
    let mut st = Stats::new(name.clone());
    for _ in 0..CASES {
        // The sweep cases' start positions: generic, on features at their radius, tiny, huge, far.
        let c = sweep_case(&mut rng, kind);
        st.cases += 1;
        st.mode(c.mode);
        let scale = c.scale();
        let solid = c.obs.solid();
        let mine = c.obs.overlap(&c.cap);
        let theirs = parry_overlap(&c.cap, &c.obs);
        let (seg, _, frame_solid) = c.frame();
        let ap = referee::segment_approach(seg.p, seg.q, &frame_solid);
        let gap = ap.dist - seg.r;
        let _ = &solid;
        let ctx = || format!("{name}({:?}, {:?}) [{}]", c.cap, c.obs, c.mode);
        if mine {
            st.hits += 1;
        } else {
            st.misses += 1;
        }
        st.refereed += 1;
        if mine != theirs {
            st.disagreements += 1;
        }
        if theirs != (gap <= 0.0) && gap.abs() > TOL * scale {
            st.parry_wrong += 1;
            if st.notes.len() < 6 {
                st.notes
                    .push(format!("parry {theirs}, referee gap {gap:e} for {}", ctx()));
            }
        }
        if mine != (gap <= 0.0) {
            if gap.abs() <= BAND * scale {
                st.band += 1;
            } else {
                st.fail(format!(
                    "{}: collidoscope {mine}, the referee's gap is {gap:e} (parry {theirs})",
                    ctx()
                ));
                continue;
            }
        }
        if mine != theirs {
            st.ours_right += 1;
        }
    }
    st.finish(started);
}

#[test]
fn capsule_sphere_overlap_matches_parry_and_the_referee() {
    overlap_differential(0, 0xC0_0001);
}

#[test]
fn capsule_aabb_overlap_matches_parry_and_the_referee() {
    overlap_differential(1, 0xC0_0002);
}

#[test]
fn capsule_obb_overlap_matches_parry_and_the_referee() {
    overlap_differential(2, 0xC0_0003);
}

#[test]
fn capsule_plane_overlap_matches_parry_and_the_referee() {
    overlap_differential(3, 0xC0_0004);
}

#[test]
fn capsule_triangle_overlap_matches_parry_and_the_referee() {
    overlap_differential(4, 0xC0_0005);
}

#[test]
fn capsule_capsule_overlap_matches_parry_and_the_referee() {
    overlap_differential(5, 0xC0_0006);
}

#[test]
fn capsule_cylinder_overlap_matches_parry_and_the_referee() {
    overlap_differential(6, 0xC0_0007);
}

#[test]
fn capsule_wall_overlap_matches_parry_and_the_referee() {
    overlap_differential(7, 0xC0_0008);
}

// ---------------------------------------------------------------------------------------------------------
// Rays and closest points

#[test]
fn ray_capsule_matches_parry_and_the_referee() {
    let started = Instant::now();
    let mut rng = Rng::new(0xCA_7001);
    let mut st = Stats::new("ray::ray_capsule");
    for i in 0..CASES {
        // The capsule is the obstacle of a capsule sweep case; the ray starts where the moving one did.
        let c = sweep_case(&mut rng, 5);
        let Obs::Capsule(cap) = c.obs else {
            unreachable!()
        };
        let origin = if rng.chance(0.5) { c.cap.a } else { c.cap.b };
        let dir = if c.m.length() > 0.0 && rng.chance(0.8) {
            c.m
        } else {
            rng.dir() * rng.range(0.1, 3.0)
        };
        let max_t = match rng.below(4) {
            0 => rng.range(0.0, 1.5),
            1 => f32::INFINITY,
            _ => 1.0,
        };
        st.cases += 1;
        st.mode(c.mode);
        let r = Ray::new(origin, dir);
        let scale = scale_of(&[cap.a, cap.b, origin, origin + dir], &[cap.radius]);
        let mine = ray::ray_capsule(&r, &cap, max_t);
        let pc = PCapsule::new(cap.a.p(), cap.b.p(), cap.radius);
        let theirs = pc.cast_ray_and_get_normal(
            &Pose::IDENTITY,
            &PRay::new(origin.p(), dir.p()),
            max_t,
            true,
        );
        let ctx = || format!("ray_capsule({r:?}, {cap:?}, {max_t}) [{}]", c.mode);
        let dl = f64::from(dir.length());
        if let Some(h) = mine {
            st.hits += 1;
            let ok = h.t.is_finite()
                && h.t >= 0.0
                && h.t <= max_t
                && h.point.is_finite()
                && (h.normal.length() - 1.0).abs() <= 1e-4
                && h.normal.dot(dir) <= 1e-6 * dir.length();
            if !ok {
                st.fail(format!("{}: malformed {h:?}", ctx()));
                continue;
            }
        } else {
            st.misses += 1;
        }
        let agree = match (mine, theirs) {
            (None, None) => true,
            (Some(h), Some(p)) => f64::from((h.t - p.time_of_impact).abs()) * dl <= TOL * scale,
            _ => false,
        };
        if !agree {
            st.disagreements += 1;
        }
        if agree && i % 2 != 0 {
            continue;
        }
        // The referee: the first root of the distance along the ray, up to max_t (or far past the capsule).
        st.refereed += 1;
        let (o, dd) = (d(origin), d(dir));
        let reach = (d(origin).distance(d(cap.a))
            + d(cap.a).distance(d(cap.b))
            + 2.0 * f64::from(cap.radius))
            / dl
            * 2.0;
        let t_end = f64::from(max_t).min(reach);
        let rf = referee::ray_capsule(o, dd, d(cap.a), d(cap.b), f64::from(cap.radius), t_end);
        let rt = rf.t.map(|s| s * t_end);
        let band = BAND * scale;
        let allowance = 1e-5 * scale;
        let parry_ok = match (theirs, rt) {
            (None, None) => true,
            (None, Some(_)) => rf.fmin >= -TOL * scale,
            (Some(_), None) => rf.fmin <= TOL * scale,
            (Some(p), Some(t)) => (f64::from(p.time_of_impact) - t).abs() * dl <= TOL * scale,
        };
        if !parry_ok {
            st.parry_wrong += 1;
        }
        let right = match (mine, rt) {
            (None, None) => true,
            (Some(_), None) => rf.fmin <= band || (f64::from(max_t) - t_end).abs() * dl <= band,
            (None, Some(t)) => rf.fmin >= -band || (t - f64::from(max_t)).abs() * dl <= band,
            (Some(h), Some(t)) => {
                let err = (f64::from(h.t) - t).abs() * dl;
                st.ours_worst = st.ours_worst.max(err / allowance);
                let inside = rf.f0 <= 0.0;
                if inside {
                    st.start_overlap += 1;
                }
                let normal_ok = if inside && h.t == 0.0 {
                    (d(h.normal) + dd / dl).length() <= 1e-6
                } else {
                    let p = d(h.point);
                    let want = (p - referee::cp_segment(p, d(cap.a), d(cap.b))).normalize();
                    (d(h.normal) - want).length() <= NORMAL_TOL
                };
                err <= allowance
                    && normal_ok
                    && (d(h.point) - (o + dd * f64::from(h.t))).length() <= 4.0 * allowance
                    && (!inside || h.t == 0.0 || rf.f0 >= -band)
            }
        };
        if right {
            if !agree {
                st.ours_right += 1;
            }
        } else {
            st.fail(format!(
                "{}: collidoscope {mine:?}, referee t = {rt:?} ({rf:?}), parry {:?}",
                ctx(),
                theirs.map(|p| (p.time_of_impact, p.normal))
            ));
        }
        if (mine.is_some() != rt.is_some()) && (rf.fmin.abs() <= band) {
            st.band += 1;
        }
    }
    st.finish(started);
}

#[test]
fn point_capsule_matches_parry_and_the_referee() {
    let started = Instant::now();
    let mut rng = Rng::new(0xCA_7002);
    let mut st = Stats::new("closest::point_capsule");
    for _ in 0..CASES {
        let c = sweep_case(&mut rng, 5);
        let Obs::Capsule(cap) = c.obs else {
            unreachable!()
        };
        // Query points: the moving capsule's ends and middle (on features, at their radius, far...).
        let p = match rng.below(4) {
            0 => c.cap.a,
            1 => c.cap.b,
            2 => (c.cap.a + c.cap.b) * 0.5,
            _ => {
                // Inside or on: a point of the axis moved up to the radius (exactly the radius now and then).
                let on = cap.a.lerp(cap.b, rng.unit());
                let k = if rng.chance(0.3) { 1.0 } else { rng.unit() };
                on + rng.dir() * (cap.radius * k)
            }
        };
        st.cases += 1;
        st.mode(c.mode);
        let scale = scale_of(&[cap.a, cap.b, p], &[cap.radius]);
        let mine = closest::point_capsule(p, &cap);
        let theirs = PCapsule::new(cap.a.p(), cap.b.p(), cap.radius)
            .project_point(&Pose::IDENTITY, p.p(), true)
            .point
            .ours();
        let want = Solid::capsule(&cap).closest(d(p));
        let inside = want == d(p);
        if inside {
            st.hits += 1;
        } else {
            st.misses += 1;
        }
        let ctx = || format!("point_capsule({p:?}, {cap:?}) [{}]", c.mode);
        st.refereed += 1;
        if f64::from((mine - theirs).length()) > TOL * scale {
            st.disagreements += 1;
        }
        if (d(theirs) - want).length() > TOL * scale {
            st.parry_wrong += 1;
        }
        let err = (d(mine) - want).length();
        // Rounding of the answer to f32, a few ulps of the scale.
        let allowance = 4.0 * f64::from(f32::EPSILON) * scale;
        st.ours_worst = st.ours_worst.max(err / allowance);
        if !mine.is_finite() || err > allowance || (inside && mine != p) {
            st.fail(format!(
                "{}: collidoscope {mine:?}, referee {want:?} (parry {theirs:?})",
                ctx()
            ));
        } else if f64::from((mine - theirs).length()) > TOL * scale {
            st.ours_right += 1;
        }
    }
    st.finish(started);
}

// ---------------------------------------------------------------------------------------------------------
// Meshes

/// A mesh for the capsule tests: a bumpy terrain, a closed box-like solid, or a soup of triangles.
fn random_mesh(rng: &mut Rng) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    match rng.below(3) {
        0 => {
            let (v, i) = collidoscope::generate::terrain(
                2 * rng.range(20.0, 120.0) as usize,
                rng.range(6.0, 30.0),
                rng.next_u64(),
            );
            (v, i)
        }
        1 => {
            // A flat floor of many triangles at y = 0 with a step on it: the character's common case.
            let n = 8u32;
            let s = rng.range(0.3, 1.5);
            let mut v = Vec::new();
            for j in 0..=n {
                for i in 0..=n {
                    v.push(Vec3::new(i as f32 * s, 0.0, j as f32 * s));
                }
            }
            let mut idx = Vec::new();
            for j in 0..n {
                for i in 0..n {
                    let a = j * (n + 1) + i;
                    idx.push([a, a + n + 1, a + 1]);
                    idx.push([a + 1, a + n + 1, a + n + 2]);
                }
            }
            let base = v.len() as u32;
            let (lo, hi) = (
                Vec3::new(2.0 * s, 0.0, 2.0 * s),
                Vec3::new(4.0 * s, rng.range(0.1, 0.4), 6.0 * s),
            );
            for k in 0..8u32 {
                v.push(Vec3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                ));
            }
            for f in [
                [0, 2, 1],
                [1, 2, 3],
                [4, 5, 6],
                [5, 7, 6],
                [0, 1, 4],
                [1, 5, 4],
                [2, 6, 3],
                [3, 6, 7],
                [0, 4, 2],
                [2, 4, 6],
                [1, 3, 5],
                [3, 7, 5],
            ] {
                idx.push(f.map(|k: u32| base + k));
            }
            (v, idx)
        }
        _ => {
            let mut v = Vec::new();
            let mut idx = Vec::new();
            for k in 0..rng.range(5.0, 60.0) as u32 {
                let c = rng.sym(8.0);
                let s = rng.range(0.2, 3.0);
                v.extend([c + rng.sym(s), c + rng.sym(s), c + rng.sym(s)]);
                idx.push([3 * k, 3 * k + 1, 3 * k + 2]);
            }
            (v, idx)
        }
    }
}

#[test]
fn trimesh_capsule_queries_match_brute_force_parry_and_the_referee() {
    let started = Instant::now();
    let mut rng = Rng::new(0xCA_7003);
    let mut sweeps = Stats::new("TriMesh::sweep_capsule");
    let mut overlaps = Stats::new("TriMesh::overlaps_capsule");
    let meshes = 40;
    let per_mesh = 250;
    for _ in 0..meshes {
        let (v, idx) = random_mesh(&mut rng);
        let mesh = TriMesh::new(v.clone(), idx.clone()).unwrap();
        let pmesh = PTriMesh::new(v.iter().map(|x| x.p()).collect(), idx.clone()).unwrap();
        let tris: Vec<Triangle> = idx
            .iter()
            .map(|t| Triangle::new(v[t[0] as usize], v[t[1] as usize], v[t[2] as usize]))
            .filter(Triangle::is_valid)
            .collect();
        let bounds = mesh.bounds();
        let (center, reach) = (
            (bounds.min + bounds.max) * 0.5,
            (bounds.max - bounds.min).length() * 0.5,
        );
        for _ in 0..per_mesh {
            // Generic capsules, or capsules on one triangle's features (parallel, end-on, across).
            let (cap, m, mode) = if rng.chance(0.5) {
                let cap = random_capsule_near(&mut rng, center, reach * 0.5);
                let mid = (cap.a + cap.b) * 0.5;
                let m = match rng.below(4) {
                    0 => Vec3::ZERO,
                    1 => rng.sym(0.1),
                    _ => (center + rng.sym(reach) - mid) * rng.range(0.2, 2.0),
                };
                (cap, m, "generic")
            } else {
                let t = tris[rng.below(tris.len())];
                let c = sweep_case_on(&mut rng, Obs::Triangle(t));
                (c.cap, c.m, c.mode)
            };
            let scale = scale_of(
                &[bounds.min, bounds.max, cap.a, cap.b, cap.a + m],
                &[cap.radius],
            );
            let pc = PCapsule::new(cap.a.p(), cap.b.p(), cap.radius);
            let ctx = || format!("mesh ({} triangles): {cap:?} by {m:?} [{mode}]", tris.len());

            // Overlap: brute force over the triangles, parry, the referee.
            overlaps.cases += 1;
            overlaps.mode(mode);
            let mine = mesh.overlaps_capsule(&cap);
            // Brute force and the referee skip only triangles whose boxes lie clear of the capsule's box grown
            // by a margin (they can be neither touched nor closest within it).
            let margin = 1e-3 * scale as f32 + 1.0;
            let clear = |t: &Triangle, lo: Vec3, hi: Vec3| {
                t.a.min(t.b).min(t.c).cmpgt(hi + Vec3::splat(margin)).any()
                    || t.a.max(t.b).max(t.c).cmplt(lo - Vec3::splat(margin)).any()
            };
            let cb = cap.bounds();
            let near: Vec<&Triangle> = tris.iter().filter(|t| !clear(t, cb.min, cb.max)).collect();
            let brute = near.iter().any(|t| overlap::capsule_triangle(&cap, t));
            if mine != brute {
                overlaps.fail(format!(
                    "{}: overlaps_capsule {mine}, brute force {brute}",
                    ctx()
                ));
            }
            let theirs = pq::intersection_test(&Pose::IDENTITY, &pc, &Pose::IDENTITY, &pmesh)
                .unwrap()
                .intersecting;
            let gap = near
                .iter()
                .map(|t| referee::segment_approach(d(cap.a), d(cap.b), &Solid::triangle(t)).dist)
                .fold(f64::INFINITY, f64::min)
                - f64::from(cap.radius);
            overlaps.refereed += 1;
            if mine {
                overlaps.hits += 1;
            } else {
                overlaps.misses += 1;
            }
            if mine != theirs {
                overlaps.disagreements += 1;
            }
            if theirs != (gap <= 0.0) && gap.abs() > TOL * scale {
                overlaps.parry_wrong += 1;
            }
            if mine != (gap <= 0.0) {
                if gap.abs() <= BAND * scale {
                    overlaps.band += 1;
                } else {
                    overlaps.fail(format!(
                        "{}: collidoscope {mine}, referee gap {gap:e}",
                        ctx()
                    ));
                }
            } else if mine != theirs {
                overlaps.ours_right += 1;
            }

            // Sweep: equal to the smallest per-triangle sweep (same bits), parry, the referee.
            sweeps.cases += 1;
            sweeps.mode(mode);
            let mine = mesh.sweep_capsule(&cap, m);
            let swept = cap.translated(m).bounds();
            let (slo, shi) = (cb.min.min(swept.min), cb.max.max(swept.max));
            let brute = idx
                .iter()
                .enumerate()
                .filter_map(|(k, t)| {
                    let tri = Triangle::new(v[t[0] as usize], v[t[1] as usize], v[t[2] as usize]);
                    if clear(&tri, slo, shi) {
                        return None;
                    }
                    sweep::capsule_triangle(&cap, m, &tri).map(|h| (h, k as u32))
                })
                .min_by(|a, b| a.0.t.total_cmp(&b.0.t));
            match (mine, brute) {
                (None, None) => {}
                (Some((h, k)), Some((b, _))) => {
                    let own = mesh
                        .triangle(k)
                        .map(|t| sweep::capsule_triangle(&cap, m, &t));
                    if h.t != b.t || own != Some(Some(h)) {
                        sweeps.fail(format!(
                            "{}: sweep_capsule {h:?} on triangle {k}, brute force {b:?}",
                            ctx()
                        ));
                        continue;
                    }
                }
                _ => {
                    sweeps.fail(format!(
                        "{}: sweep_capsule {mine:?}, brute force {brute:?}",
                        ctx()
                    ));
                    continue;
                }
            }
            if mine.is_some() {
                sweeps.hits += 1;
            } else {
                sweeps.misses += 1;
            }
            let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
            let theirs = pq::cast_shapes(
                &Pose::IDENTITY,
                m.p(),
                &pc,
                &Pose::IDENTITY,
                glam_parry::Vec3::ZERO,
                &pmesh,
                opts,
            )
            .unwrap();
            let ml = f64::from(m.length());
            let agree = match (mine, theirs) {
                (None, None) => true,
                (Some((h, _)), Some(p)) => {
                    (f64::from(h.t) - f64::from(p.time_of_impact)).abs() * ml <= TOL * scale
                }
                _ => false,
            };
            if agree {
                continue;
            }
            // The referee: the earliest of every triangle's own first contact (each triangle is convex), each
            // judged on its own as `capsule_triangle` is: a triangle the capsule starts on and leaves does not
            // stop it (the mesh's convention, as for spheres: a mesh is not convex).
            sweeps.disagreements += 1;
            sweeps.refereed += 1;
            let verdict = mesh_referee(&cap, m, &tris, scale);
            let allowance = t_allowance(m);
            let near = |t: f32, want: f64| (f64::from(t) - want).abs() * ml <= allowance;
            let right = match mine {
                None => verdict.firm.is_none(),
                Some((h, _)) => {
                    let firm_ok = verdict
                        .firm
                        .is_none_or(|f| f64::from(h.t) <= f + allowance / ml.max(1e-300));
                    let hits_one = verdict.firm.is_some_and(|f| near(h.t, f))
                        || verdict.optional.iter().any(|&o| near(h.t, o));
                    let nearest = verdict
                        .firm
                        .iter()
                        .chain(&verdict.optional)
                        .map(|&f| (f64::from(h.t) - f).abs() * ml / allowance)
                        .fold(f64::INFINITY, f64::min);
                    if nearest.is_finite() {
                        sweeps.ours_worst = sweeps.ours_worst.max(nearest);
                    }
                    firm_ok && hits_one
                }
            };
            let p_first = verdict
                .firm
                .into_iter()
                .chain(verdict.optional.iter().copied())
                .fold(None, |a: Option<f64>, t| Some(a.map_or(t, |a| a.min(t))));
            let parry_ok = match (theirs, p_first) {
                (None, None) => true,
                (Some(p), Some(t)) => {
                    (f64::from(p.time_of_impact) - t).abs() * ml <= TOL * scale
                        || p.time_of_impact == 0.0 && verdict.leaving
                }
                (Some(p), None) => p.time_of_impact == 0.0 && verdict.leaving,
                (None, Some(_)) => verdict.firm.is_none(),
            };
            if !parry_ok {
                sweeps.parry_wrong += 1;
                if sweeps.notes.len() < 6 {
                    sweeps.notes.push(format!(
                        "parry {:?} vs referee {:?} for {}",
                        theirs.map(|p| p.time_of_impact),
                        verdict.firm,
                        ctx()
                    ));
                }
            }
            if right {
                sweeps.ours_right += 1;
                if verdict.leaving && theirs.is_some_and(|p| p.time_of_impact == 0.0) {
                    sweeps.leaving += 1;
                }
            } else {
                sweeps.fail(format!(
                    "{}: collidoscope {mine:?}, referee firm {:?} optional {:?}, parry {:?}",
                    ctx(),
                    verdict.firm,
                    verdict.optional,
                    theirs.map(|p| p.time_of_impact)
                ));
            }
        }
    }
    overlaps.finish(started);
    sweeps.finish(started);
}

/// The referee's answer for a capsule swept against a triangle soup, triangle by triangle.
struct MeshVerdict {
    /// The earliest contact every correct answer must report (or come before, within the allowance).
    firm: Option<f64>,
    /// Contacts a correct answer may report or not: inside the rounding band, or a start touching with a
    /// motion along the surface.
    optional: Vec<f64>,
    /// The capsule starts on a triangle and the motion leaves it (parry's `t = 0`, collidoscope's `None` there).
    leaving: bool,
}

fn mesh_referee(cap: &Capsule, m: Vec3, tris: &[Triangle], scale: f64) -> MeshVerdict {
    let lo = cap.bounds().min.min(cap.translated(m).bounds().min) - Vec3::splat(1e-3);
    let hi = cap.bounds().max.max(cap.translated(m).bounds().max) + Vec3::splat(1e-3);
    let band = BAND * scale;
    let ml = f64::from(m.length());
    let mut v = MeshVerdict {
        firm: None,
        optional: Vec::new(),
        leaving: false,
    };
    let firm = |t: f64, v: &mut MeshVerdict| v.firm = Some(v.firm.map_or(t, |f| f.min(t)));
    for t in tris {
        if t.a.min(t.b).min(t.c).cmpgt(hi).any() || t.a.max(t.b).max(t.c).cmplt(lo).any() {
            continue;
        }
        let solid = Solid::triangle(t);
        let rf = referee::sweep(cap, m, &solid);
        if rf.f0 <= 0.0 {
            let ap = referee::approach_at(cap, D::ZERO, &solid, 0.0);
            if ap.dist <= 1e-9 * scale || ml == 0.0 {
                firm(0.0, &mut v);
                continue;
            }
            let rate = ((ap.on_segment - ap.on_shape) / ap.dist).dot(d(m) / ml);
            let slack = 1e-3f64.max(1e-12 * scale / ap.dist);
            if rate < -slack {
                firm(0.0, &mut v);
            } else if rate <= slack {
                v.optional.push(0.0);
            } else {
                v.leaving = true;
            }
            continue;
        }
        match rf.t {
            Some(tt) if rf.fmin < -band => {
                if rf.f0 <= band {
                    v.optional.push(0.0);
                }
                firm(tt, &mut v);
            }
            Some(tt) => v.optional.push(tt),
            None if rf.fmin <= band => v.optional.push(rf.tmin),
            None => {}
        }
    }
    v
}

/// A sweep case on the features of a given obstacle (the distributions of [`sweep_case`]).
fn sweep_case_on(rng: &mut Rng, obs: Obs) -> SweepCase {
    // Draw a case for the obstacle's kind and put the given obstacle in: the capsule and motion were built on
    // the random one, so rebuild on this one by moving them with the obstacle's features.
    let f = obs.feature(rng);
    let r = rng.range(0.05, 0.6);
    let gap = match rng.below(4) {
        0 => 0.0,
        1 => rng.range(-1.0, 1.0) * 1e-6,
        2 => rng.range(-0.5, 0.5) * r,
        _ => rng.range(0.0, 2.0),
    };
    let len = if rng.chance(0.2) {
        0.0
    } else {
        rng.range(0.1, 2.0)
    };
    let (a, b, mode) = if rng.chance(0.5) {
        let c = f.point + f.normal * (r + gap);
        (c - f.along * len * 0.5, c + f.along * len * 0.5, "parallel")
    } else {
        let a = f.point + f.normal * (r + gap);
        (a, a + f.normal * len, "end-on")
    };
    let tangent = perpendicular(rng, f.normal);
    let speed = rng.range(0.01, 3.0);
    let m = match rng.below(5) {
        0 => -f.normal * speed,
        1 => tangent * speed,
        2 => (tangent - f.normal * 0.05) * speed,
        3 => f.normal * speed,
        _ => rng.sym(2.0),
    };
    SweepCase {
        cap: Capsule::new(a, b, r),
        m,
        obs,
        mode,
    }
}
