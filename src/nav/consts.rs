//! What the bake, the rides and the steering share: the simulation's rate and the horizontal distance. It
//! sits below them all (it uses none of them), so no two of them import each other for it.

use glam::{Vec2, Vec3};

use super::STEER_SPEED;
use crate::character::{Body, CharacterController};

/// Simulated frames per second (the property the contract states is at 60 Hz).
pub(super) const HZ: f32 = 60.0;

/// A frame's walk at [`STEER_SPEED`] and 2 cm (metres): how far across a body near a take-off may still be
/// on its surface (the steepest slope's rise over it bounds the height there), and how far past a take-off
/// a body coming down onto it may be.
pub(super) const TAKE_OFF: f32 = STEER_SPEED / HZ + 0.02;

/// How near its take-off (horizontally, metres) a steered body on the ground jumps: a millimetre. Steering
/// walks to the take-off reaching it exactly at 60 Hz (as to a segment's end) and jumps there, so every
/// steered flight starts where the bake's flights start, whichever way the body came. (It used to jump on the
/// first frame within [`TAKE_OFF`]: bodies then took off up to 8.7 cm short of or aside from the take-off,
/// the bake flew nine approaches to cover that, and knife-edge jumps (a rim cleared by millimetres) still
/// failed from take-offs between the ones flown: the soak's seeds 19 and 24.)
pub(super) const AT: f32 = 1e-3;

/// The gravity steering's estimates assume, metres per second squared (the default level's): how long a drop
/// falls, how high a flight rises.
pub(super) const GRAVITY: f32 = 9.81;

/// The distance a drop may carry the body past its rim: a quarter metre (the default cell), or its
/// radius when larger (the reach map's walks of drops count on the same).
pub(super) fn path_cell(ctl: &CharacterController) -> f32 {
    crate::character::drop_carry(ctl)
}

/// How fast a steered body walks off a ledge `fall` metres high (and the bake's approaches down to a take-off
/// with it): so the fall carries it about [`path_cell`] past the rim (at least 0.5 m/s, at most
/// [`STEER_SPEED`]); the reach map's walks of drops use the same speed.
pub(super) fn drop_speed(ctl: &CharacterController, fall: f32) -> f32 {
    crate::character::drop_speed(ctl, fall)
}

/// Whether a steered body jumps for the take-off `feet` where it is: on the ground within [`AT`] of it
/// across, and on the take-off's surface (within `max_step`, two skins and what the steepest walkable slope
/// rises over [`TAKE_OFF`] of it up or down), held there by ground no higher than a body on that surface
/// touches (the slope's rise, what the rounded bottom's contact on the steepest slope lies above the feet, and
/// two skins). A body still on a rim above the take-off (walking off toward it along a drop) does not jump
/// from there: hanging on the rim by its rounded bottom, its feet may have sunk below the rim to within the
/// first rule (a 0.4 m body with a 0.18 m step and slopes to 58°, its feet 0.25 m above the take-off, held by
/// the rim 0.38 m above it: the soak's seed 24), but not its contact. A body set down by the bake (grounded,
/// no contact known) is on the take-off's surface.
pub(super) fn at_take_off(body: &Body, feet: Vec3, ctl: &CharacterController) -> bool {
    let slope = ctl.max_slope_deg.clamp(0.0, 80.0).to_radians();
    let rise = TAKE_OFF * slope.tan();
    let held = rise + ctl.radius * (1.0 - slope.cos()) + 2.0 * ctl.skin;
    body.grounded
        && flat(body.feet, feet) <= AT
        && (body.feet.y - feet.y).abs() <= ctl.max_step + 2.0 * ctl.skin + rise
        && body.ground.is_none_or(|g| g.point.y - feet.y <= held)
}

/// How far the height a body's free flight rises to (its feet and what its upward or downward speed is worth)
/// is from the top of a jump taken off at `take_off` (its height plus `jump_height`): steering reads a flight
/// as a jump's by it (`steer.rs`), and the bake gives up a flight a ceiling cuts short by more than a step.
pub(super) fn rise_off(body: &Body, take_off: Vec3, ctl: &CharacterController) -> f32 {
    let apex = body.feet.y + body.velocity.y * body.velocity.y / (2.0 * GRAVITY);
    (apex - take_off.y - ctl.jump_height).abs()
}

/// Whether `body`, in the air, is coming down onto the take-off `feet` of a jump along `dir` (unit) rather
/// than flying that jump: falling, more than a step and two skins above the take-off, and not past it along
/// `dir` by more than a cell (a radius when larger) and [`TAKE_OFF`] (off a drop that ends at the take-off,
/// say). Steering does not follow the jump with such a body (it comes down onto the take-off first), and the
/// bake gives up a flight that would read so.
pub(super) fn coming_down(body: &Body, feet: Vec3, dir: Vec2, ctl: &CharacterController) -> bool {
    let along = Vec2::new(body.feet.x - feet.x, body.feet.z - feet.z).dot(dir);
    !body.grounded
        && body.velocity.y <= 0.0
        && body.feet.y - feet.y > ctl.max_step + 2.0 * ctl.skin
        && along <= path_cell(ctl) + TAKE_OFF
}

/// The wish toward `to` from `feet` at walking speed, reaching it exactly at 60 Hz (the rest of the way in one
/// frame when that is less than a frame's walk).
pub(super) fn toward(feet: Vec3, to: Vec3) -> Vec2 {
    let d = Vec2::new(to.x - feet.x, to.z - feet.z);
    d.normalize_or_zero() * (d.length() * HZ).min(STEER_SPEED)
}

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
