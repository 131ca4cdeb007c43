//! A walk as a game makes it: a body stepped at 60 Hz ([`Body::step`]) with its wish held toward a point. The
//! reach map's moves of more than a cell are checked by it (one move of several cells sweeps straight over a
//! pit the body is narrower than, where a body walking it falls in; a drop of several cells, over a gap
//! narrower than the body, by [`drops`]), and navigation straightens its paths with it (`crate::nav`).

use glam::{Vec2, Vec3};

use super::super::{Body, BodyInput, CharacterController};
use crate::scene::Scene;

/// The frames per second of the walk.
pub(crate) const WALK_HZ: f32 = 60.0;

/// The speed of the walk, metres per second (the speed navigation steers at).
pub(crate) const WALK_SPEED: f32 = 4.0;

/// Standard gravity, for the reach map's walks (it has no level to ask).
pub(crate) const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// Where a body stepped at 60 Hz from `a` (on the ground) with its wish toward `b` at [`WALK_SPEED`] is when it
/// gets within a frame's walk of `b` horizontally: `None` when it strays from the line `a`–`b` by more than half
/// its radius, falls more than a step below both ends, is off the ground for more than half a second, or
/// takes more than half as long again as the straight walk. With `grounded`, also `None` when it leaves the
/// ground at all (a shortcut that walks off a step, which a body arriving a little aside may fall off).
pub(crate) fn walks(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    a: Vec3,
    b: Vec3,
    grounded: bool,
) -> Option<Vec3> {
    let dt = 1.0 / WALK_HZ;
    let frame = WALK_SPEED * dt;
    let length = Vec2::new(b.x - a.x, b.z - a.z).length();
    let axis = Vec2::new(b.x - a.x, b.z - a.z).normalize_or_zero();
    let floor = a.y.min(b.y) - ctl.max_step - 2.0 * ctl.skin;
    let mut body = Body::new(a);
    body.grounded = true;
    let mut airborne = 0;
    let frames = (length / frame * 1.5) as usize + 10;
    for _ in 0..frames {
        let left = Vec2::new(b.x - body.feet.x, b.z - body.feet.z);
        if left.length() <= frame {
            return Some(body.feet);
        }
        let input = BodyInput {
            wish: left.normalize_or_zero() * WALK_SPEED,
            jump: false,
            crouch: false,
        };
        body.step(ctl, scene, &input, gravity, dt);
        if !(body.feet.y >= floor) {
            return None;
        }
        airborne = if body.grounded { 0 } else { airborne + 1 };
        if airborne as f32 > 0.5 * WALK_HZ || (grounded && airborne > 0) {
            return None;
        }
        if aside(a, axis, body.feet) > 0.5 * ctl.radius {
            return None;
        }
    }
    None
}

/// How far `feet` is across from the line through `a` along `axis` (unit, horizontal).
fn aside(a: Vec3, axis: Vec2, feet: Vec3) -> f32 {
    let off = Vec2::new(feet.x - a.x, feet.z - a.z);
    (off - axis * off.dot(axis)).length()
}

/// How far past its rim a drop's fall carries a body steered off it: a quarter metre (the default cell), or its
/// radius when larger.
pub(crate) fn drop_carry(ctl: &CharacterController) -> f32 {
    ctl.radius.max(0.25)
}

/// How fast a body walks off a ledge `fall` metres high, as navigation steers it (and walks its drops): so
/// the fall carries it about [`drop_carry`] past the rim, at least 0.5 m/s and at most [`WALK_SPEED`].
pub(crate) fn drop_speed(ctl: &CharacterController, fall: f32) -> f32 {
    let seconds = (2.0 * fall / -GRAVITY.y).sqrt();
    (drop_carry(ctl) / seconds).clamp(0.5, WALK_SPEED)
}

/// Where a body stepped at 60 Hz from `a` (on the ground) toward `b`, more than a step below it, as
/// navigation steers a drop (on the ground toward `b` reaching it exactly, slowly at [`drop_speed`] where the
/// fall is more than the snap catches; in the air on toward it), is once on the ground within a frame's walk
/// of `b`: `None` when it strays from the line by more than half its radius, falls more than a step below
/// `b`, stays in the air half a second longer than the fall takes, or never gets there (held between a rim
/// and a ledge it fell between).
pub(crate) fn drops(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    a: Vec3,
    b: Vec3,
) -> Option<Vec3> {
    let dt = 1.0 / WALK_HZ;
    let fall = (a.y - b.y).max(0.0);
    let speed = if fall > ctl.snap_distance {
        drop_speed(ctl, fall)
    } else {
        WALK_SPEED
    };
    let length = Vec2::new(b.x - a.x, b.z - a.z).length();
    let axis = Vec2::new(b.x - a.x, b.z - a.z).normalize_or_zero();
    let floor = b.y - ctl.max_step - 2.0 * ctl.skin;
    let air = ((2.0 * fall / -GRAVITY.y).sqrt() + 0.5) * WALK_HZ;
    let mut body = Body::new(a);
    body.grounded = true;
    let mut airborne = 0;
    let frames = (length / (speed * dt) * 1.5 + air) as usize + 10;
    for _ in 0..frames {
        let left = Vec2::new(b.x - body.feet.x, b.z - body.feet.z);
        if body.grounded && left.length() <= WALK_SPEED * dt {
            return Some(body.feet);
        }
        let limit = if body.grounded { speed } else { WALK_SPEED };
        let input = BodyInput {
            wish: left.normalize_or_zero() * (left.length() * WALK_HZ).min(limit),
            jump: false,
            crouch: false,
        };
        body.step(ctl, scene, &input, gravity, dt);
        if !(body.feet.y >= floor) {
            return None;
        }
        airborne = if body.grounded { 0 } else { airborne + 1 };
        if airborne as f32 > air {
            return None;
        }
        if aside(a, axis, body.feet) > 0.5 * ctl.radius {
            return None;
        }
    }
    None
}
