//! The character bench's riding scene: a lift (5 m/s, up and down), a fast platform (10 m/s, back and
//! forth) and a door sliding into standing characters, ridden by collidoscope's `Body::step` and by rapier3d's
//! `KinematicCharacterController` on kinematic bodies moved to the same places at the same times. rapier3d's
//! controller does not follow platforms by itself: its characters are given the displacement of the
//! platform they started on while grounded, as a game using it does.
//!
//! Counted for both engines, per move: dips (feet below the ridden top by more than 1 mm), fall-throughs
//! (feet more than 5 cm below it, or below its bottom), and inside ends (the body overlaps something at the
//! end of the move, `Scene::overlap_capsule` against the scene at that time).

use std::time::Instant;

use collidoscope::character::{Body, BodyInput, CharacterController};
use collidoscope::glam::Vec3;
use collidoscope::level::{Level, ObjectId};
use collidoscope::scene::Scene;
use rapier3d::control::KinematicCharacterController;
use rapier3d::math::Pose;
use rapier3d::parry::shape::Capsule as RCapsule;
use rapier3d::prelude::{
    ColliderBuilder, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle, SharedShape,
};

use super::parry_glam::{FromParry, ToParry};

const DT: f32 = 1.0 / 60.0;
const G: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// The riding level: a floor, the lift (id 1), the platform (id 2), the door (id 3).
const LEVEL: &str = r#"(version: 3,
    planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
    aabbs: [
        (id: 1, min: (-1.5, 0.2, -1.5), max: (1.5, 0.5, 1.5)),
        (id: 2, min: (8.5, 2.2, -1.5), max: (11.5, 2.5, 1.5)),
        (id: 3, min: (-12.0, 0.0, -4.0), max: (-8.0, 2.5, -3.0)),
    ],
    movers: [
        (id: 11, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: 5.0, repeat: PingPong),
        (id: 12, object: 2, path: [(0.0, 0.0, 0.0), (8.0, 0.0, 0.0)], speed: 10.0, repeat: PingPong),
        (id: 13, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 0.0, 4.0)], speed: 2.0, repeat: Once),
    ])"#;

/// The ridden objects and their unmoved boxes (min, max).
const OBJECTS: [(u32, Vec3, Vec3); 3] = [
    (1, Vec3::new(-1.5, 0.2, -1.5), Vec3::new(1.5, 0.5, 1.5)),
    (2, Vec3::new(8.5, 2.2, -1.5), Vec3::new(11.5, 2.5, 1.5)),
    (3, Vec3::new(-12.0, 0.0, -4.0), Vec3::new(-8.0, 2.5, -3.0)),
];

/// One engine's findings on the riding scene.
#[derive(Default)]
pub struct Findings {
    pub moves: usize,
    pub dips: usize,
    pub fell: usize,
    pub inside: usize,
    pub seconds: f64,
    /// Dips, fall-throughs and inside ends by ridden object (lift, platform, door).
    pub by_object: [[usize; 3]; 3],
}

/// Characters: `(start feet, ridden object)`; the door's stand in front of it on the floor.
fn starts() -> Vec<(Vec3, u32)> {
    let c = CharacterController::default();
    let mut out = Vec::new();
    for k in 0..4 {
        let o = (k as f32 - 1.5) * 0.6;
        out.push((Vec3::new(o, 0.5 + c.skin, 0.4), 1));
        out.push((Vec3::new(10.0 + o, 2.5 + c.skin, -0.4), 2));
        out.push((Vec3::new(-11.5 + k as f32, c.skin, -2.0), 3));
    }
    out
}

/// The top of ridden object `id` at `t`, and whether `(x, z)` is over it.
fn top_under(scene: &Scene, id: u32, feet: Vec3) -> Option<(f32, f32)> {
    let (_, lo, hi) = OBJECTS.iter().find(|o| o.0 == id)?;
    let off = scene.mover_offset_at(ObjectId(id), scene.time());
    let (lo, hi) = (*lo + off, *hi + off);
    let inside = feet.x > lo.x + 0.05
        && feet.x < hi.x - 0.05
        && feet.z > lo.z + 0.05
        && feet.z < hi.z - 0.05;
    (id != 3 && inside).then_some((hi.y, lo.y))
}

fn check(scene: &Scene, c: &CharacterController, id: u32, feet: Vec3, f: &mut Findings) {
    f.moves += 1;
    let k = (id as usize).saturating_sub(1).min(2);
    if let Some((top, bottom)) = top_under(scene, id, feet) {
        let dip = feet.y < top - 1e-3;
        let fell = feet.y < top - 0.05 || feet.y < bottom;
        f.dips += usize::from(dip);
        f.fell += usize::from(fell);
        f.by_object[k][0] += usize::from(dip);
        f.by_object[k][1] += usize::from(fell);
    }
    let inside = !scene.overlap_capsule(&c.capsule(feet)).is_empty();
    f.inside += usize::from(inside);
    f.by_object[k][2] += usize::from(inside);
}

/// collidoscope: `Body::step` with no input at the scene's times.
pub fn ours(frames: usize) -> Findings {
    let c = CharacterController::default();
    let Ok(level) = Level::from_ron_str(LEVEL) else {
        return Findings::default();
    };
    let Ok(mut scene) = Scene::from_level(&level) else {
        return Findings::default();
    };
    let mut bodies: Vec<(Body, u32)> = starts()
        .into_iter()
        .map(|(f, id)| (Body::new(f), id))
        .collect();
    let mut f = Findings::default();
    for frame in 0..frames {
        scene.set_time(frame as f32 * DT);
        let t0 = Instant::now();
        for (b, _) in &mut bodies {
            b.step(&c, &scene, &BodyInput::default(), G, DT);
        }
        f.seconds += t0.elapsed().as_secs_f64();
        if frame > 0 {
            for (b, id) in &bodies {
                check(&scene, &c, *id, b.feet, &mut f);
            }
        }
    }
    f
}

/// rapier3d: the same objects as kinematic bodies moved to the scene's places each frame; each character
/// keeps its vertical speed and is given its platform's displacement while grounded.
pub fn theirs(frames: usize) -> Findings {
    let c = CharacterController::default();
    let Ok(level) = Level::from_ron_str(LEVEL) else {
        return Findings::default();
    };
    let Ok(mut scene) = Scene::from_level(&level) else {
        return Findings::default();
    };
    let mut world = PhysicsWorld::new();
    world.integration_parameters.dt = DT;
    world.insert_collider(
        ColliderBuilder::new(SharedShape::halfspace(Vec3::Y.p())),
        None,
    );
    let handles: Vec<(u32, RigidBodyHandle, Vec3)> = OBJECTS
        .iter()
        .map(|(id, lo, hi)| {
            let (half, center) = ((*hi - *lo) * 0.5, (*lo + *hi) * 0.5);
            let body = RigidBodyBuilder::kinematic_position_based().translation(center.p());
            let (h, _) = world.insert(body, ColliderBuilder::cuboid(half.x, half.y, half.z));
            (*id, h, center)
        })
        .collect();
    world.step();
    let kcc = KinematicCharacterController {
        offset: rapier3d::control::CharacterLength::Absolute(c.skin),
        snap_to_ground: Some(rapier3d::control::CharacterLength::Absolute(
            c.snap_distance,
        )),
        ..KinematicCharacterController::default()
    };
    let shape = RCapsule::new_y(c.height * 0.5 - c.radius, c.radius);
    let pose = |feet: Vec3| Pose::from_translation((feet + Vec3::Y * (c.height * 0.5)).p());
    let mut chars: Vec<(Vec3, f32, bool, u32)> = starts()
        .into_iter()
        .map(|(p, id)| (p, 0.0, true, id))
        .collect();
    let mut f = Findings::default();
    let mut last = 0.0f32;
    for frame in 0..frames {
        let t = frame as f32 * DT;
        scene.set_time(t);
        for (id, h, center) in &handles {
            let off = scene.mover_offset_at(ObjectId(*id), t);
            world.bodies[*h].set_next_kinematic_translation((*center + off).p());
        }
        world.step();
        let query = world.query_pipeline();
        let t0 = Instant::now();
        for (feet, vy, grounded, id) in &mut chars {
            let carry = if *grounded && *id != 3 {
                scene.mover_offset_at(ObjectId(*id), t) - scene.mover_offset_at(ObjectId(*id), last)
            } else {
                Vec3::ZERO
            };
            *vy += G.y * DT;
            let desired = carry + Vec3::new(0.0, *vy * DT, 0.0);
            let mv = kcc.move_shape(DT, &query, &shape, &pose(*feet), desired.p(), |_| {});
            *feet += mv.translation.ours();
            *grounded = mv.grounded;
            if mv.grounded && *vy < 0.0 {
                *vy = 0.0;
            }
        }
        f.seconds += t0.elapsed().as_secs_f64();
        last = t;
        if frame > 0 {
            for (feet, _, _, id) in &chars {
                check(&scene, &c, *id, *feet, &mut f);
            }
        }
    }
    f
}

/// The riding scene's report section.
pub fn report(frames: usize) -> String {
    let (o, r) = (ours(frames), theirs(frames));
    let per = |f: &Findings| f.seconds * 1e6 / f.moves.max(1) as f64;
    let mut out = String::from(
        "\n## Riding: a lift at 5 m/s, a platform at 10 m/s, a door (12 characters)\n\n\
         | engine | moves | dips below the top | fell through | inside ends | µs per move |\n|---|---|---|---|---|---|\n",
    );
    for (name, f) in [("collidoscope", &o), ("rapier3d", &r)] {
        out.push_str(&format!(
            "| {name} | {} | {} | {} | {} | {:.2} |\n",
            f.moves,
            f.dips,
            f.fell,
            f.inside,
            per(f)
        ));
    }
    out.push_str(&format!(
        "\nratio (rapier3d / collidoscope time per move): {:.2}\n\n\
         By object (dips / fell through / inside ends):\n\n| object | collidoscope | rapier3d |\n|---|---|---|\n",
        per(&r) / per(&o).max(1e-12)
    ));
    for (k, name) in [
        "lift (5 m/s up and down)",
        "platform (10 m/s)",
        "door (2 m/s into the body)",
    ]
    .iter()
    .enumerate()
    {
        let cell = |f: &Findings| {
            let [a, b, c] = f.by_object[k];
            format!("{a} / {b} / {c}")
        };
        out.push_str(&format!("| {name} | {} | {} |\n", cell(&o), cell(&r)));
    }
    out
}
