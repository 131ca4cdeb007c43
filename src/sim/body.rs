//! What is simulated: balls ([`Ball`], named by [`BallId`]). The static geometry they meet is
//! [`Static`](crate::scene::Static), the scene's.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::shape::Sphere;

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
