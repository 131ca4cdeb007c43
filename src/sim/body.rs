//! What is simulated: balls ([`Ball`], named by [`BallId`]) and the static geometry they meet ([`Static`]).

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::mesh::TriMesh;
use crate::query::{Toi, sweep};
use crate::shape::{Aabb, Cylinder, Obb, Plane, Sphere, Triangle, Wall};

/// A simulated ball.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ball {
    /// Centre, metres.
    pub center: Vec3,
    /// Velocity, metres per second.
    pub velocity: Vec3,
    /// Radius, metres.
    pub radius: f32,
    /// Mass, kilograms.
    pub mass: f32,
    /// Coefficient of restitution in `[0, 1]`.
    pub restitution: f32,
}

impl Ball {
    /// A ball from its fields, in order.
    #[must_use]
    pub const fn new(
        center: Vec3,
        velocity: Vec3,
        radius: f32,
        mass: f32,
        restitution: f32,
    ) -> Self {
        Self {
            center,
            velocity,
            radius,
            mass,
            restitution,
        }
    }

    /// The ball's sphere.
    #[must_use]
    pub fn sphere(&self) -> Sphere {
        Sphere::new(self.center, self.radius)
    }

    /// Kinetic energy, joules.
    #[must_use]
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * f64::from(self.mass) * f64::from(self.velocity.length_squared())
    }

    /// Whether the ball can be simulated: finite numbers, positive radius and mass, restitution in `[0, 1]`.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.center.is_finite()
            && self.velocity.is_finite()
            && self.radius.is_finite()
            && self.radius > 0.0
            && self.mass.is_finite()
            && self.mass > 0.0
            && (0.0..=1.0).contains(&self.restitution)
    }
}

/// A ball's index in [`World::balls`](super::World::balls).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BallId(pub usize);

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
}
