//! The way in: a path begins where its search began, on the place nearest `from` (the place the reach map
//! would start on). A body standing at `from` a little way off that place (a landing of its own, a place set
//! down a skin off a wall) was steered straight at the first segment's end, along a line beside the one the
//! bake checked, and could stand for good against a corner the segment passes by (the navigation soak's
//! shapes seed 23: a 0.99 m body 3.8 cm from its path's start, pressed between a wall and a steep face). Where a
//! body at `from` steered to the path's first point gets there on the ground, the path begins at `from` with
//! a walk to that point, so steering takes the body to where the checked walks begin.

use glam::Vec3;

use super::consts::{AT, HZ, flat, toward};
use super::{NavLink, NavPath, STEER_SPEED};
use crate::character::{Body, BodyInput, CharacterController};
use crate::scene::Scene;

/// Frames a body may take beyond the straight walk's to get to the first point.
const SPARE_FRAMES: usize = 12;

/// Begin `path` at `from` when a body there, steered to its first point as [`NavPath::steer`] steers it
/// (reaching the point exactly at 60 Hz), is on the ground within [`AT`] of it and the skin band of its height
/// without leaving the ground on the way. Left as it is otherwise, or when `from` is within `AT` of the point.
pub(super) fn lead_in(
    path: &mut NavPath,
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    from: Vec3,
) {
    let Some(&first) = path.points.first() else {
        return;
    };
    let far = flat(from, first);
    if !from.is_finite() || far <= AT {
        return;
    }
    let frames = (far * HZ / STEER_SPEED).ceil() as usize + SPARE_FRAMES;
    let mut body = Body::new(from);
    body.grounded = true;
    for _ in 0..frames {
        let input = BodyInput {
            wish: toward(body.feet, first),
            ..BodyInput::default()
        };
        body.step(ctl, scene, &input, gravity, 1.0 / HZ);
        if !body.grounded || !body.feet.is_finite() {
            return;
        }
        if flat(body.feet, first) <= AT && (body.feet.y - first.y).abs() <= 2.0 * ctl.skin {
            path.points.insert(0, from);
            path.links.insert(0, NavLink::Walk);
            return;
        }
    }
}
