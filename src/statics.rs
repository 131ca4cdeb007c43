//! The static shape enum: one level object as the scene and the simulation take it, with each shape's own
//! queries dispatched by kind. It sits beneath both (it holds a [`TriMesh`], so above `mesh`; nothing here
//! knows of scenes, balls or levels), which is what lets the scene and the simulation import it from below.
//! The character asks each object its local geometry here too (the faces through a point, its extent along a
//! direction, its closest point to a segment, the directions that may separate it from a body), so no code above
//! matches on the kind.

use glam::{DVec3, Vec2, Vec3};

use crate::mesh::{Near, TriMesh};
use crate::query::closest::{point_segment_d, point_triangle_d};
use crate::query::closest_segment::{
    Pair, segment_aabb, segment_convex, segment_plane, segment_triangle,
};
use crate::query::sweep::WallD;
use crate::query::{RayHit, Toi, d3, f3, overlap, ray, sweep};
use crate::shape::{Aabb, Capsule, Cylinder, Obb, Plane, Ray, Sphere, Triangle, Wall};

/// Static geometry.
#[derive(Clone, Debug)]
pub enum Static {
    /// An infinite plane (both sides).
    Plane(Plane),
    /// A capped cylinder.
    Cylinder(Cylinder),
    /// A triangle (both faces).
    Triangle(Triangle),
    /// An axis-aligned box.
    Aabb(Aabb),
    /// An oriented box.
    Obb(Obb),
    /// A top-down wall extruded from the floor (`y = 0`) to `height`.
    Wall {
        /// The wall.
        wall: Wall,
        /// Its height.
        height: f32,
    },
    /// A triangle mesh.
    Mesh(TriMesh),
}

impl Static {
    /// A cooked sector as a scene object: its triangles as one mesh (`None` when it cooked to nothing).
    #[must_use]
    pub fn from_sector(cooked: &crate::sector::CookedSector) -> Option<Static> {
        TriMesh::new(cooked.vertices.clone(), cooked.indices.clone())
            .ok()
            .map(Static::Mesh)
    }

    /// Bounds, or `None` for an unbounded plane or invalid geometry.
    #[must_use]
    pub fn bounds(&self) -> Option<Aabb> {
        let b = match self {
            Static::Plane(_) => return None,
            Static::Cylinder(c) => {
                let r = Vec3::splat(c.radius);
                Aabb::new(c.a.min(c.b) - r, c.a.max(c.b) + r)
            }
            Static::Triangle(t) => Aabb::new(t.a.min(t.b).min(t.c), t.a.max(t.b).max(t.c)),
            Static::Aabb(a) => *a,
            Static::Obb(o) => {
                let c = o.corners();
                let (lo, hi) = c[1..]
                    .iter()
                    .fold((c[0], c[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
                Aabb::new(lo, hi)
            }
            Static::Wall { wall, height } => {
                let r = Vec2::splat(wall.radius);
                let (lo, hi) = (wall.a.min(wall.b) - r, wall.a.max(wall.b) + r);
                Aabb::new(Vec3::new(lo.x, 0.0, lo.y), Vec3::new(hi.x, *height, hi.y))
            }
            Static::Mesh(m) => m.bounds(),
        };
        b.is_valid().then_some(b)
    }

    /// First contact of a sphere moving by `motion` with this shape.
    #[must_use]
    pub fn sweep_sphere(&self, sphere: &Sphere, motion: Vec3) -> Option<Toi> {
        match self {
            Static::Plane(p) => sweep::sphere_plane(sphere, motion, p),
            Static::Cylinder(c) => sweep::sphere_cylinder(sphere, motion, c),
            Static::Triangle(t) => sweep::sphere_triangle(sphere, motion, t),
            Static::Aabb(a) => sweep::sphere_aabb(sphere, motion, a),
            Static::Obb(o) => sweep::sphere_obb(sphere, motion, o),
            Static::Wall { wall, height } => sweep::sphere_wall(sphere, motion, wall, *height),
            Static::Mesh(m) => m.sweep_sphere(sphere, motion).map(|(toi, _)| toi),
        }
    }

    /// This object's own ray cast: the per-shape query of [`crate::query::ray`] or [`TriMesh::cast_ray`]
    /// (a mesh hit's point is `origin + t * dir`).
    #[must_use]
    pub fn cast_ray(&self, r: &Ray, max_t: f32) -> Option<RayHit> {
        match self {
            Static::Plane(p) => ray::ray_plane(r, p, max_t),
            Static::Cylinder(c) => ray::ray_cylinder(r, c, max_t),
            Static::Triangle(t) => ray::ray_triangle(r, t, max_t),
            Static::Aabb(a) => ray::ray_aabb(r, a, max_t),
            Static::Obb(o) => ray::ray_obb(r, o, max_t),
            Static::Wall { wall, height } => ray::ray_wall(r, wall, *height, max_t),
            Static::Mesh(m) => m.cast_ray(r, max_t).map(|h| RayHit {
                t: h.t,
                point: r.at(h.t),
                normal: h.normal,
            }),
        }
    }

    /// Whether a sphere touches this object: the per-shape query of [`crate::query::overlap`] or
    /// [`TriMesh::overlaps_sphere`].
    #[must_use]
    pub fn overlaps_sphere(&self, s: &Sphere) -> bool {
        match self {
            Static::Plane(p) => overlap::sphere_plane(s, p),
            Static::Cylinder(c) => overlap::sphere_cylinder(s, c),
            Static::Triangle(t) => overlap::sphere_triangle(s, t),
            Static::Aabb(a) => overlap::sphere_aabb(s, a),
            Static::Obb(o) => overlap::sphere_obb(s, o),
            Static::Wall { wall, height } => overlap::sphere_wall(s, wall, *height),
            Static::Mesh(m) => m.overlaps_sphere(s),
        }
    }

    /// First contact of a capsule moving by `motion` with this shape: the per-shape sweep of
    /// [`crate::query::sweep`] (`capsule_*`) or [`TriMesh::sweep_capsule`].
    #[must_use]
    pub fn sweep_capsule(&self, capsule: &Capsule, motion: Vec3) -> Option<Toi> {
        match self {
            Static::Plane(p) => sweep::capsule_plane(capsule, motion, p),
            Static::Cylinder(c) => sweep::capsule_cylinder(capsule, motion, c),
            Static::Triangle(t) => sweep::capsule_triangle(capsule, motion, t),
            Static::Aabb(a) => sweep::capsule_aabb(capsule, motion, a),
            Static::Obb(o) => sweep::capsule_obb(capsule, motion, o),
            Static::Wall { wall, height } => sweep::capsule_wall(capsule, motion, wall, *height),
            Static::Mesh(m) => m.sweep_capsule(capsule, motion).map(|(toi, _)| toi),
        }
    }

    /// Whether a capsule touches this object: the per-shape query of [`crate::query::overlap`]
    /// (`capsule_*`) or [`TriMesh::overlaps_capsule`].
    #[must_use]
    pub fn overlaps_capsule(&self, c: &Capsule) -> bool {
        match self {
            Static::Plane(p) => overlap::capsule_plane(c, p),
            Static::Cylinder(cy) => overlap::capsule_cylinder(c, cy),
            Static::Triangle(t) => overlap::capsule_triangle(c, t),
            Static::Aabb(a) => overlap::capsule_aabb(c, a),
            Static::Obb(o) => overlap::capsule_obb(c, o),
            Static::Wall { wall, height } => overlap::capsule_wall(c, wall, *height),
            Static::Mesh(m) => m.overlaps_capsule(c),
        }
    }
}

/// The local geometry the character controller asks of one object (its contacts' faces and its push-out), one
/// match on the kind each.
impl Static {
    /// Calls `push` with the normal (not necessarily unit) of each face of this object through `point` (within
    /// `tol`), pointing out of a solid, or for a surface (plane, triangle, mesh triangle) toward `body` (the
    /// body's point nearest the contact). A box corner has three; a mesh vertex one per triangle around it.
    /// A mesh's are found through its triangles `gathered` near a move when they hold the point's box (the
    /// same faces in the same order: the tree's triangles, in the tree's order).
    pub(crate) fn faces_through(
        &self,
        gathered: Option<&Near<'_>>,
        point: Vec3,
        body: Vec3,
        tol: f32,
        mut push: impl FnMut(Vec3),
    ) {
        let toward = |n: Vec3| if n.dot(body - point) >= 0.0 { n } else { -n };
        let near = |a: f32, b: f32| (a - b).abs() <= tol;
        match self {
            Static::Plane(p) => push(toward(p.normal)),
            Static::Triangle(t) => push(toward(t.normal_unnormalized())),
            Static::Aabb(b) => {
                for i in 0..3 {
                    let mut n = Vec3::ZERO;
                    if near(point[i], b.min[i]) {
                        n[i] = -1.0;
                        push(n);
                    }
                    if near(point[i], b.max[i]) {
                        n[i] = 1.0;
                        push(n);
                    }
                }
            }
            Static::Obb(o) => {
                let local = o.local_from_world(point);
                let axes = [o.rotation.x_axis, o.rotation.y_axis, o.rotation.z_axis];
                for i in 0..3 {
                    let h = o.half_extents[i];
                    if near(local[i], -h) {
                        push(-axes[i]);
                    }
                    if near(local[i], h) {
                        push(axes[i]);
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
                    push(radial);
                }
                if near(s, 0.0) {
                    push(-u);
                }
                if near(s, h) {
                    push(u);
                }
            }
            Static::Wall { wall, height } => {
                let flat = d3(Vec3::new(point.x, 0.0, point.z));
                let lift = |v: Vec2| DVec3::new(f64::from(v.x), 0.0, f64::from(v.y));
                let off = flat - point_segment_d(flat, lift(wall.a), lift(wall.b));
                if near(off.length() as f32, wall.radius) {
                    if off.length() > 0.0 {
                        push(f3(off));
                    } else {
                        // A wall of no thickness: its side facing the body.
                        let e = wall.b - wall.a;
                        push(toward(Vec3::new(-e.y, 0.0, e.x)));
                    }
                }
                if near(point.y, *height) {
                    push(Vec3::Y);
                }
                if near(point.y, 0.0) {
                    push(-Vec3::Y);
                }
            }
            Static::Mesh(m) => {
                let (lo, hi) = (point - Vec3::splat(tol), point + Vec3::splat(tol));
                let p = d3(point);
                let mut face = |t: Triangle| {
                    let [a, b, c] = t.vertices().map(d3);
                    if p.distance(point_triangle_d(p, a, b, c)) <= f64::from(tol) {
                        push(toward(t.normal_unnormalized()));
                    }
                };
                match gathered.filter(|n| n.holds(lo, hi)) {
                    Some(n) => {
                        for (_, _, t) in n.touching(lo, hi) {
                            // A triangle whose plane lies beyond the reach has no point within it.
                            if t.may_be_within(p, f64::from(tol)) {
                                // The corners are the f32 ones, widened: narrowing gives them back exactly.
                                let [a, b, c] = t.v.map(DVec3::as_vec3);
                                face(Triangle::new(a, b, c));
                            }
                        }
                    }
                    None => m.triangles_in_box(lo, hi, |_, t| face(t)),
                }
            }
        }
    }

    /// The extent of this object along the unit direction `d`: (min, max) of `x·d` over its points; `None` when
    /// unbounded that way (a plane along any direction but its normal) and for a mesh (asked triangle by
    /// triangle).
    pub(crate) fn extent_along(&self, d: DVec3) -> Option<(f64, f64)> {
        Some(match self {
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
            Static::Triangle(t) => {
                let v = t.vertices().map(|x| d3(x).dot(d));
                (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]))
            }
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

    /// The closest pair of the segment `p..q` and this object (the point on the segment, then the point on the
    /// object; equal where they meet); `None` for a mesh (asked triangle by triangle).
    pub(crate) fn closest_to_segment(&self, p: DVec3, q: DVec3) -> Option<Pair> {
        Some(match self {
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

    /// Calls `add` with the directions (not necessarily unit, each once, either sign) that may separate this
    /// object from a body whose axis is the segment `p..q`: its face normals and its edges, each also crossed
    /// with the body's axis (the separating axes of the pair). Nothing for a mesh (asked triangle by triangle).
    pub(crate) fn separating_directions(&self, p: DVec3, q: DVec3, add: &mut dyn FnMut(DVec3)) {
        let axis = (q - p).try_normalize();
        let with_edges = |edges: &[DVec3], add: &mut dyn FnMut(DVec3)| {
            for &e in edges {
                add(e);
                if let Some(a) = axis {
                    add(e.cross(a));
                }
            }
        };
        match self {
            Static::Plane(pl) => add(d3(pl.normal)),
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
            Static::Aabb(_) => with_edges(&[DVec3::X, DVec3::Y, DVec3::Z], add),
            Static::Obb(o) => {
                let r = o.rotation.as_dmat3();
                with_edges(&[r.x_axis, r.y_axis, r.z_axis], add);
            }
            Static::Cylinder(c) => {
                let u = d3(c.b - c.a);
                add(u);
                let mid = (p + q) * 0.5 - d3(c.a);
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
                let mid = (p + q) * 0.5;
                let flat = DVec3::new(mid.x, 0.0, mid.z);
                add(flat - point_segment_d(flat, w.a, w.b));
            }
            Static::Mesh(_) => {}
        }
    }

    /// The point of this object nearest `p`, within `reach` of it for a mesh (its nearest triangle within reach);
    /// a solid answers its surface, or `p` itself inside.
    pub(crate) fn closest_point(&self, p: Vec3, reach: f32) -> Option<Vec3> {
        if let Static::Mesh(m) = self {
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
        let pd = d3(p);
        self.closest_to_segment(pd, pd).map(|(_, q)| f3(q))
    }
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
