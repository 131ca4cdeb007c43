//! The static shape enum: one level object as the scene and the simulation take it, with each shape's own
//! queries dispatched by kind. It sits beneath both (it holds a [`TriMesh`], so above `mesh`; nothing here
//! knows of scenes, balls or levels), which is what lets the scene and the simulation import it from below.

use glam::{Vec2, Vec3};

use crate::mesh::TriMesh;
use crate::query::{RayHit, Toi, overlap, ray, sweep};
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
