//! How a steered body comes to a jump's take-off, as the bake checks a link from there: the walks steering
//! makes up to the take-off from behind, from either side and between (`approached`, or `on_line` where a
//! proven line settles the walk without stepping), from where a slide left it (`slid_back`), and on from a
//! landing to the node the link joins (`walks_onto`).

use glam::{Vec2, Vec3};

use super::STEER_SPEED;
use super::consts::{HZ, at_take_off, drop_speed, flat};
use super::footprint::Footprint;
use super::line;
use crate::character::{Body, BodyInput, CharacterController, MoveGraph};
use crate::scene::Scene;

/// Whether a body set down at `at` (where a flight landed) walks on to `node` as steering walks to a segment's
/// end (reaching it exactly at 60 Hz): within 5 cm across and a step up or down, in ten frames more than the
/// walk at [`STEER_SPEED`] takes.
pub(super) fn walks_onto(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    at: Vec3,
    node: Vec3,
) -> bool {
    let there = |b: &Body| {
        flat(b.feet, node) <= 0.05 && (b.feet.y - node.y).abs() <= ctl.max_step + 2.0 * ctl.skin
    };
    let mut body = Body::new(at);
    body.grounded = true;
    let frames = (flat(at, node) * HZ / STEER_SPEED) as usize + 10;
    for _ in 0..frames {
        if there(&body) {
            return true;
        }
        walk_toward(scene, ctl, gravity, &mut body, node, STEER_SPEED);
        if !body.feet.is_finite() {
            return false;
        }
    }
    there(&body)
}

/// How far back from a take-off the approaches the bake simulates begin, metres.
pub(super) const APPROACH: f32 = 0.3;

/// The frames a walk back to a take-off has beyond its length at its speed to come within [`AT`](super::consts::AT) of it (on a
/// slope or against a wall a frame's wish may carry the body only part of the way).
const SETTLE: usize = 12;

/// The body a steered walk along `way` to the take-off `feet` brings to where steering jumps: the walk begins
/// where a body walking `far` ([`APPROACH`]) back from the take-off stands, and heads for the take-off
/// reaching it exactly at 60 Hz, as steering walks to a segment's end; it jumps on the first frame it is on the
/// ground within [`AT`](super::consts::AT) of it. `Some(None)` when there is no such walk to try (the way back leaves the ground
/// or is blocked), `None` when the walk never is on the ground that near (steering would not jump). `flown`
/// grows to hold the feet over every frame walked.
pub(super) fn approached(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    (feet, far): (Vec3, f32),
    way: Vec2,
    flown: &mut Footprint,
) -> Option<Option<Body>> {
    let back = feet - Vec3::new(way.x, 0.0, way.y) * far;
    let mut body = Body::new(feet);
    body.grounded = true;
    let frames = (2.0 * far * HZ / STEER_SPEED) as usize + 2;
    for _ in 0..frames {
        walk_toward(scene, ctl, gravity, &mut body, back, STEER_SPEED);
        if body.feet.is_finite() {
            flown.grow(body.feet);
        }
    }
    if !(body.grounded && body.feet.is_finite() && flat(body.feet, back) < 0.25 * APPROACH) {
        return Some(None);
    }
    come_back(scene, ctl, gravity, (body, feet, far), flown)
}

/// The body [`approached`] brings to the take-off `feet`, found without stepping where a proven line
/// (`line::proven`: a level floor the agent's body crosses touching nothing) joins the take-off and the place
/// `far` back along `way`. There [`Body::step`] moves a walking body exactly by its wish: the walk back ends
/// at that place, and the walk to the take-off reaches it (to the rounding of the last frame's wish) and
/// jumps there: the body is the take-off's own, set down. `None` where no such line is proven (the walks are
/// stepped).
pub(super) fn on_line(
    scene: &Scene,
    graph: &MoveGraph,
    (feet, far): (Vec3, f32),
    way: Vec2,
) -> Option<Body> {
    let way = Vec3::new(way.x, 0.0, way.y);
    if !line::proven(
        scene,
        graph,
        graph.controller(),
        0.0,
        feet,
        feet - way * far,
    ) {
        return None;
    }
    let mut body = Body::new(feet);
    body.grounded = true;
    Some(body)
}

/// `body` walked back to the take-off `feet` from up to `far` off, as steering walks to a segment's end: the
/// body on the first frame it is on the ground within [`AT`](super::consts::AT) of it on its surface (`at_take_off`, as steering
/// jumps), `None` when it never is (within the frames the walk takes and [`SETTLE`] more). `flown` grows to
/// hold the feet over every frame walked.
fn come_back(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    (mut body, feet, far): (Body, Vec3, f32),
    flown: &mut Footprint,
) -> Option<Option<Body>> {
    // Down to the take-off more than the snap catches, steering walks slowly (as off a ledge).
    let fall = body.feet.y - feet.y;
    let speed = if fall > ctl.snap_distance {
        drop_speed(ctl, fall)
    } else {
        STEER_SPEED
    };
    for _ in 0..(2.0 * far * HZ / speed) as usize + SETTLE {
        if at_take_off(&body, feet, ctl) {
            return Some(Some(body));
        }
        walk_toward(scene, ctl, gravity, &mut body, feet, speed);
        if !body.feet.is_finite() {
            return None;
        }
        flown.grow(body.feet);
    }
    None
}

/// The body steering brings back to the take-off `feet` of a place where a body set down does not stay (it
/// slides off, `MoveGraph::rests`): set down there, let slide with no wish until it stops (half a second at
/// most), then walked back as [`come_back`] walks. `None` when it does not get back (steering would not jump).
/// `flown` grows to hold the feet over every frame.
pub(super) fn slid_back(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    feet: Vec3,
    flown: &mut Footprint,
) -> Option<Body> {
    let mut body = Body::new(feet);
    body.grounded = true;
    for _ in 0..(0.5 * HZ) as usize {
        let was = body.feet;
        body.step(ctl, scene, &BodyInput::default(), gravity, 1.0 / HZ);
        if !body.feet.is_finite() {
            return None;
        }
        flown.grow(body.feet);
        if body.grounded && body.feet.distance(was) <= 1e-4 {
            break;
        }
    }
    come_back(scene, ctl, gravity, (body, feet, APPROACH), flown).flatten()
}

/// One 60 Hz step of `body` walking toward `to` at `speed`, reaching it exactly (as steering walks).
fn walk_toward(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    body: &mut Body,
    to: Vec3,
    speed: f32,
) {
    let d = Vec2::new(to.x - body.feet.x, to.z - body.feet.z);
    let input = BodyInput {
        wish: d.normalize_or_zero() * (d.length() * HZ).min(speed),
        jump: false,
        crouch: false,
    };
    body.step(ctl, scene, &input, gravity, 1.0 / HZ);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::line::fixture;

    #[test]
    fn a_walk_a_proven_line_settles_jumps_where_the_stepped_walk_jumps() {
        // A 0.6 m platform at x 1 to 2 (a take-off before it), a wall across x = -1.5 from z = -3 to 0.
        let (scene, g) = fixture::floor(
            "(id: 2, min: (1.0, 0.0, -1.0), max: (2.0, 0.6, 1.0)), \
             (id: 3, min: (-1.6, 0.0, -3.0), max: (-1.4, 2.5, 0.0))",
        );
        let ctl = *g.controller();
        let gravity = Vec3::new(0.0, -9.81, 0.0);
        let feet = fixture::feet(&g, 0.375, 0.125);
        let ways = [Vec2::X, Vec2::Y, Vec2::NEG_Y, Vec2::new(0.6, 0.8)];
        let mut settled = 0;
        for way in ways {
            for far in [APPROACH, 0.5 * APPROACH] {
                let mut flown = Footprint::new(feet, way);
                let stepped = approached(&scene, &ctl, gravity, (feet, far), way, &mut flown)
                    .flatten()
                    .expect("the open floor is walked");
                let Some(set) = on_line(&scene, &g, (feet, far), way) else {
                    continue;
                };
                settled += 1;
                assert!(set.grounded && stepped.grounded);
                assert!(
                    set.feet.distance(stepped.feet) < 1e-4,
                    "{way} {far}: set down at {}, stepped to {}",
                    set.feet,
                    stepped.feet
                );
                assert!(at_take_off(&set, feet, &ctl));
            }
        }
        // Every way back across open floor is settled (from behind, the platform's face is more than a body
        // off).
        assert_eq!(settled, 8);
        // Near the wall the line is not proven: the walk is stepped.
        let by_wall = fixture::feet(&g, -0.875, -1.0);
        assert!(on_line(&scene, &g, (by_wall, APPROACH), Vec2::X).is_none());
    }
}
