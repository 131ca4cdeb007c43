//! What the bake, the rides and the steering share: the simulation's rate and the horizontal distance. It
//! sits below them all (it uses none of them), so no two of them import each other for it.

use glam::{Vec2, Vec3};

use super::STEER_SPEED;

/// Simulated frames per second (the property the contract states is at 60 Hz).
pub(super) const HZ: f32 = 60.0;

/// How near its take-off (horizontally, metres) a steered body on the ground jumps: a frame's walk at
/// [`STEER_SPEED`] and 2 cm. The bake checks each jump link from the take-offs bodies walking to it this way
/// reach.
pub(super) const TAKE_OFF: f32 = STEER_SPEED / HZ + 0.02;

/// The horizontal distance between two points.
pub(super) fn flat(a: Vec3, b: Vec3) -> f32 {
    Vec2::new(a.x - b.x, a.z - b.z).length()
}

/// What the path search counts for a move (walk or drop) from feet `a` to feet `b`: the horizontal distance
/// and a quarter of the height changed.
pub(super) fn move_cost(a: Vec3, b: Vec3) -> f32 {
    flat(a, b) + 0.25 * (a.y - b.y).abs()
}

/// What the path search counts for a jump link from feet `a` landing at `landing`: the distance along x and
/// along z, and a metre. The moves join a column to its four neighbours, so walking is counted that way too (a
/// diagonal walk costs its two legs until the path is straightened); counted as the crow flies, a jump across
/// a level floor looked cheaper than walking there, and paths hopped across open floors.
pub(super) fn jump_cost(a: Vec3, landing: Vec3) -> f32 {
    (a.x - landing.x).abs() + (a.z - landing.z).abs() + 1.0
}
