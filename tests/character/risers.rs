//! A riser is climbed whatever object holds it: riser and tread in separate objects (a greybox cooks each face
//! of a sector into its own object), of every kind pairing: level triangles and a box, two meshes, a thin box
//! and a mesh. Walked straight and at an angle; a riser up to `max_step` is climbed in one move with
//! `stepped_up` equal to it and the feet on the tread, a higher one blocks.

use collidoscope::character::{CharacterController, Limit};
use collidoscope::glam::{Mat3, Vec3};
use collidoscope::level::ObjectId;
use collidoscope::mesh::TriMesh;
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::{Aabb, Plane, Triangle};

/// How the riser (the face `x = 1`, from the floor to `h`) and the tread (`y = h`, `x` from 1 to 3) are held.
#[derive(Clone, Copy, Debug)]
enum Pairing {
    /// Two level triangles for the riser, a box for the tread (its top; it does not reach the floor).
    TrianglesAndBox,
    /// A mesh for the riser, another mesh for the tread.
    TwoMeshes,
    /// A thin box for the riser, a mesh for the tread.
    BoxAndMesh,
}

fn quad(p: [Vec3; 4]) -> TriMesh {
    TriMesh::new(p.to_vec(), vec![[0, 1, 2], [0, 2, 3]]).unwrap()
}

/// The floor, the riser and the tread (ids 1, 2, 3, and 4 for a second riser triangle).
fn stair(pairing: Pairing, h: f32) -> Scene {
    let (z0, z1) = (-3.0, 3.0);
    let riser = [
        Vec3::new(1.0, 0.0, z0),
        Vec3::new(1.0, 0.0, z1),
        Vec3::new(1.0, h, z1),
        Vec3::new(1.0, h, z0),
    ];
    let tread = [
        Vec3::new(1.0, h, z0),
        Vec3::new(1.0, h, z1),
        Vec3::new(3.0, h, z1),
        Vec3::new(3.0, h, z0),
    ];
    let mut objects = vec![(ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0)))];
    match pairing {
        Pairing::TrianglesAndBox => {
            objects.push((
                ObjectId(2),
                Static::Triangle(Triangle::new(riser[0], riser[1], riser[2])),
            ));
            objects.push((
                ObjectId(4),
                Static::Triangle(Triangle::new(riser[0], riser[2], riser[3])),
            ));
            let slab = Aabb::new(Vec3::new(1.0, h * 0.5, z0), Vec3::new(3.0, h, z1));
            objects.push((ObjectId(3), Static::Aabb(slab)));
        }
        Pairing::TwoMeshes => {
            objects.push((ObjectId(2), Static::Mesh(quad(riser))));
            objects.push((ObjectId(3), Static::Mesh(quad(tread))));
        }
        Pairing::BoxAndMesh => {
            let wall = Aabb::new(Vec3::new(0.98, 0.0, z0), Vec3::new(1.0, h, z1));
            objects.push((ObjectId(2), Static::Aabb(wall)));
            objects.push((ObjectId(3), Static::Mesh(quad(tread))));
        }
    }
    Scene::from_objects(objects)
}

const PAIRINGS: [Pairing; 3] = [
    Pairing::TrianglesAndBox,
    Pairing::TwoMeshes,
    Pairing::BoxAndMesh,
];

#[test]
fn a_riser_held_by_another_object_than_its_tread_is_climbed() {
    let c = CharacterController::default();
    for pairing in PAIRINGS {
        for h in [0.05f32, 0.15, 0.25, 0.35] {
            // Straight at it, and at 30 and 55 degrees off.
            for angle in [0.0f32, 30.0, 55.0] {
                let s = stair(pairing, h);
                let dir = Mat3::from_rotation_y(angle.to_radians()) * Vec3::X;
                let mut feet = Vec3::new(0.0, c.skin, 0.0);
                let mut steps = Vec::new();
                for k in 0..30 {
                    let m = c.move_character(&s, feet, dir * 0.1 + Vec3::new(0.0, -0.01, 0.0));
                    let what = format!("{pairing:?} riser {h} at {angle}°, move {k}");
                    assert!(m.grounded, "{what}: {m:?}");
                    assert!(
                        s.overlap_capsule(&c.capsule(m.feet)).is_empty(),
                        "{what}: inside at {:?}",
                        m.feet
                    );
                    if m.stepped_up > 0.0 {
                        steps.push(m.stepped_up);
                        let gap = m.feet.y - h;
                        assert!(
                            gap >= c.skin * 0.5 - 1e-5 && gap <= 2.0 * c.skin,
                            "{what}: gap {gap}"
                        );
                        // On the tread (the thin riser box's top is part of it).
                        assert!(m.feet.x >= 0.98, "{what}: feet {:?}", m.feet);
                    }
                    feet = m.feet;
                    if feet.x > 2.2 {
                        break;
                    }
                }
                let what = format!("{pairing:?} riser {h} at {angle}°");
                assert_eq!(steps.len(), 1, "{what}: {steps:?}, ended at {feet:?}");
                assert!((steps[0] - h).abs() < 1e-3, "{what}: stepped {}", steps[0]);
                assert!((feet.y - h - c.skin).abs() <= c.skin, "{what}: {feet:?}");
            }
        }
    }
}

#[test]
fn a_riser_above_max_step_blocks_whatever_holds_it() {
    let c = CharacterController::default();
    for pairing in PAIRINGS {
        for h in [c.max_step + 0.05, 0.6] {
            let s = stair(pairing, h);
            let mut feet = Vec3::new(0.0, c.skin, 0.0);
            let mut last = None;
            for _ in 0..20 {
                let m = c.move_character(&s, feet, Vec3::new(0.1, -0.01, 0.0));
                assert_eq!(m.stepped_up, 0.0, "{pairing:?} riser {h}");
                feet = m.feet;
                last = Some(m);
            }
            let last = last.unwrap();
            assert!(
                feet.y < 0.05 && feet.x < 1.0,
                "{pairing:?} riser {h}: {feet:?}"
            );
            match last.limit {
                Some(Limit::StepTooHigh {
                    height: Some(got), ..
                }) => assert!((got - h).abs() < 1e-3, "{pairing:?} riser {h}: {got}"),
                other => panic!("{pairing:?} riser {h}: {other:?}"),
            }
        }
    }
}

/// A riser whose tread falls away from its top (a ridge: a sector sloped down from the shared edge, 0.25 m
/// above the floor before it) is climbed by a slim body in a frame's moves. The step's settling measured the
/// riser's top a skin past the riser, where the tread is already lower than the ridge it then touched, took the
/// ridge for the next riser's nosing and backed off: the body stood at the riser for good (found by the
/// navigation soak on random sector levels).
#[test]
fn a_riser_whose_tread_falls_away_from_its_top_is_climbed_in_small_moves() {
    let text = "#![enable(implicit_some)]\n(version: 3, sectors: [\
        (id: 1, outline: [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)], floor: (height: 0.0), ceiling: (height: 3.0)), \
        (id: 2, outline: [(2.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0)], \
         floor: (height: 0.25, slope: (edge: 3, degrees: -33.7)), ceiling: (height: 4.0))])";
    let scene = crate::common::scene(text);
    let ctl = CharacterController {
        radius: 0.1,
        height: 1.67,
        max_step: 0.5,
        max_slope_deg: 42.6,
        ..CharacterController::default()
    };
    for z in [0.5f32, 0.875, 1.3] {
        let mut feet = Vec3::new(1.7, 0.01, z);
        for _ in 0..12 {
            feet = ctl
                .move_character(&scene, feet, Vec3::new(4.0 / 60.0, 0.0, 0.0))
                .feet;
        }
        // Past the riser, on the tread (its plane falls 0.667 m a metre from 0.25 m at x = 2).
        let tread = 0.25 - 0.6669 * (feet.x - 2.0);
        assert!(
            feet.x > 2.05 && (feet.y - tread).abs() < 0.05,
            "stood at {feet} short of the ridge"
        );
    }
}

/// A lip below a walkable slope (a flat floor meeting a 33.7° sector floor that rises from 4.5 cm at the shared
/// edge) is climbed by a tiny body in a frame's moves, from wherever the walk meets it. A step there lands with
/// the body's rounded bottom on the slope ahead of its axis, the axis still over the floor it came from: the
/// riser measured straight under the feet before and after read as no climb, and the body stood at the lip for
/// good (found by the navigation soak, sector seed 125).
#[test]
fn a_lip_below_a_walkable_slope_is_climbed_in_small_moves() {
    let text = "#![enable(implicit_some)]\n(version: 3, sectors: [\
        (id: 1, outline: [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)], floor: (height: 0.0), ceiling: (height: 3.0)), \
        (id: 2, outline: [(2.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0)], \
         floor: (height: 0.045, slope: (edge: 3, degrees: 33.7)), ceiling: (height: 5.0))])";
    let scene = crate::common::scene(text);
    let ctl = CharacterController {
        radius: 0.1,
        height: 0.3,
        max_step: 0.27,
        max_slope_deg: 42.7,
        ..CharacterController::default()
    };
    let mv = 4.0 / 60.0;
    for k in 0..12 {
        // Twelve phases of the frame's move against the lip.
        let mut feet = Vec3::new(1.5 + k as f32 * mv / 12.0, 0.01, 1.0);
        for _ in 0..20 {
            feet = ctl
                .move_character(&scene, feet, Vec3::new(mv, 0.0, 0.0))
                .feet;
        }
        // Up the slope: its plane rises 0.667 m a metre from 0.045 m at x = 2.
        let slope = 0.045 + 0.6669 * (feet.x - 2.0);
        assert!(
            feet.x > 2.3 && feet.y > slope - 0.01 && feet.y < slope + 0.1,
            "phase {k}: stood at {feet}, short of the slope"
        );
    }
}

/// A low riser (0.1 m, a 0.36 m step) at the foot of a ceiling that comes down toward it (a sector's ceiling
/// sloped 10° down to 1.25 m at the riser) is climbed in a frame's moves. Lifted the whole step, the body's head
/// met the ceiling before its middle was over the tread, and the body stood at the riser for good; lifted just
/// over the riser's top it passes (found by the navigation soak, sector seed 128).
#[test]
fn a_low_riser_under_a_ceiling_coming_down_ahead_is_climbed() {
    let text = "#![enable(implicit_some)]\n(version: 3, sectors: [\
        (id: 1, outline: [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)], floor: (height: 0.0), \
         ceiling: (height: 1.25, slope: (edge: 1, degrees: 10.0))), \
        (id: 2, outline: [(2.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0)], floor: (height: 0.1), \
         ceiling: (height: 3.0))])";
    let scene = crate::common::scene(text);
    let ctl = CharacterController {
        radius: 0.24,
        height: 0.9,
        max_step: 0.36,
        ..CharacterController::default()
    };
    let mv = 4.0 / 60.0;
    for k in 0..6 {
        let mut feet = Vec3::new(1.0 + k as f32 * mv / 6.0, 0.01, 1.0);
        for _ in 0..30 {
            let m = ctl.move_character(&scene, feet, Vec3::new(mv, 0.0, 0.0));
            assert!(
                scene.overlap_capsule(&ctl.capsule(m.feet)).is_empty(),
                "{m:?}"
            );
            feet = m.feet;
        }
        assert!(
            feet.x > 2.5 && (feet.y - 0.11).abs() < 0.01,
            "phase {k}: stood at {feet}, short of the riser"
        );
    }
}
