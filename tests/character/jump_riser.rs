//! A jump up against a riser: the rising body that grazes the riser's top edge is not standing there. The most
//! level face at that contact is the tread, but the body is beside the tread, not on it; taken for standing it
//! would land mid-jump (its rise cut short) and, with the jump still held, jump again from the air.

use collidoscope::character::{Body, BodyInput, CharacterController};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::scene::Scene;
use proptest::prelude::*;

use crate::common::scene;
use crate::guarantees::config;

const G: Vec3 = Vec3::new(0.0, -9.81, 0.0);
const DT: f32 = 1.0 / 60.0;

/// A floor at `y = 0` and a riser `height` high whose face is the plane `x = 1` (the tread runs to x 12).
fn riser(height: f32) -> Scene {
    scene(&format!(
        "(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)], \
         aabbs: [(id: 2, min: (1.0, 0.0, -3.0), max: (12.0, {height}, 3.0))])"
    ))
}

/// The lowest feet a body standing on the tread `height` high can have: its rounded bottom held by the edge
/// on the steepest walkable slope, less two skins.
fn lowest_on_tread(c: &CharacterController, height: f32) -> f32 {
    let slope = c.max_slope_deg.to_radians();
    height - c.radius * (1.0 - slope.cos()) - 2.0 * c.skin
}

/// Jump from `gap` in front of the riser toward it with the jump held every frame for three seconds: a step
/// rising from the air never ends grounded (not on the edge beside the tread, nor on the tread), the energy
/// never grows in the air more than air control adds (no second jump), and a riser the jump clears is
/// climbed with that one jump.
fn jump_at(height: f32, gap: f32) -> Result<(), String> {
    let c = CharacterController::default();
    let scene = riser(height);
    let mut body = Body::new(Vec3::new(1.0 - c.radius - c.skin - gap, c.skin, 0.0));
    body.step(&c, &scene, &BodyInput::default(), G, DT);
    if !body.grounded {
        return Err(format!("not settled: {body:?}"));
    }
    let held = BodyInput {
        wish: Vec2::new(4.0, 0.0),
        jump: true,
        crouch: false,
    };
    let mut jumps = 0;
    for frame in 0..180 {
        let was = body;
        body.step(&c, &scene, &held, G, DT);
        if was.grounded {
            jumps += 1;
        }
        // A step that rises from the air never ends on the ground: it lands on the way down.
        let rising = was.velocity.y * DT + 0.5 * G.y * DT * DT > 0.0;
        if rising && !was.grounded && body.grounded {
            return Err(format!(
                "frame {frame}: grounded on the way up at {}",
                body.feet
            ));
        }
        // In the air the energy (speed and height) grows by air control at most: surfaces met take speed
        // (an edge slid over turns it upward), a jump from the air would add the jump's.
        let energy = |b: &Body| 0.5 * b.velocity.length_squared() + G.length() * b.feet.y;
        let control = c.air_accel * DT;
        // A landing sets the feet in the skin band over the tread (up to two skins over it), which may lift them a
        // millimetre or two from where the flight put them, just over the tread at its top: that is where the
        // band puts feet, not energy gained (other seeds than CI's found 1.5 mm lifts at the top of 1.18 m
        // risers, 0.015 J/kg over the bound).
        let band = if body.grounded {
            G.length() * 2.0 * c.skin
        } else {
            0.0
        };
        let most =
            energy(&was) + was.velocity.length() * control + 0.5 * control * control + 1e-3 + band;
        if !was.grounded && energy(&body) > most {
            return Err(format!(
                "frame {frame}: energy gained in the air: {was:?} -> {body:?}"
            ));
        }
        if body.grounded && body.feet.y > height {
            break;
        }
    }
    // A riser the jump clears is climbed with one jump (held, the jump repeats only from the ground).
    if height + 0.05 < c.jump_height && (body.feet.y < lowest_on_tread(&c, height) || jumps != 1) {
        return Err(format!(
            "{height} m riser not climbed in one jump ({jumps}): {body:?}"
        ));
    }
    Ok(())
}

#[test]
fn a_body_grazing_the_edge_of_a_riser_it_jumps_up_does_not_stand_there() {
    // The default body (1 m jump) a few centimetres in front of a 0.9 m riser: it rises along the face and its
    // bottom passes the edge on the way up.
    for gap in [0.0, 0.02, 0.05] {
        jump_at(0.9, gap).unwrap();
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn jump_up_a_riser(height in 0.4f32..1.4, gap in 0.0f32..0.6) {
        jump_at(height, gap).map_err(TestCaseError::fail)?;
    }
}
