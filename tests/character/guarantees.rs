//! The controller's guarantees as properties over random levels and long motions: never inside, never stuck
//! against walls and in corners, steps, slopes, seams, determinism.

use collidoscope::character::{CharacterController, CharacterMove};
use collidoscope::glam::{Mat3, Vec2, Vec3};
use collidoscope::level::ObjectId;
use collidoscope::mesh::TriMesh;
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::{Aabb, Capsule, Cylinder, Obb, Plane, Triangle, Wall};
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError};

/// Config with a fixed number of cases, a fixed seed and no persistence files.
pub(crate) fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        default.rng_seed
    } else {
        RngSeed::Fixed(0x0C4A_12AC_7E20_0000 ^ u64::from(cases))
    };
    ProptestConfig {
        cases,
        max_global_rejects: 100_000,
        max_local_rejects: 100_000,
        failure_persistence: None,
        rng_seed,
        ..default
    }
}

fn grown(c: &CharacterController, feet: Vec3) -> Capsule {
    let mut body = c.capsule(feet);
    body.radius += c.skin * 0.5;
    body
}

/// One random static object near the origin (within about 8 m), of any kind.
pub(crate) fn object() -> impl Strategy<Value = Static> {
    let v = |r: f32| (-r..r, 0.0f32..3.0, -r..r).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    prop_oneof![
        (v(8.0), (0.1f32..3.0, 0.05f32..2.0, 0.1f32..3.0)).prop_map(|(c, (x, y, z))| Static::Aabb(
            Aabb::from_center_half_extents(c, Vec3::new(x, y, z))
        )),
        (
            v(8.0),
            (0.1f32..2.0, 0.05f32..1.5, 0.1f32..2.0),
            -3.2f32..3.2,
            -0.6f32..0.6
        )
            .prop_map(|(c, (x, y, z), yaw, tilt)| Static::Obb(Obb::new(
                c,
                Vec3::new(x, y, z),
                Mat3::from_rotation_y(yaw) * Mat3::from_rotation_x(tilt)
            ))),
        (v(8.0), v(8.0), v(8.0)).prop_map(|(a, b, c)| Static::Triangle(Triangle::new(a, b, c))),
        (
            (-8.0f32..8.0, -8.0f32..8.0),
            (-8.0f32..8.0, -8.0f32..8.0),
            0.0f32..0.4,
            0.3f32..3.0
        )
            .prop_map(|((ax, az), (bx, bz), r, h)| Static::Wall {
                wall: Wall::new(Vec2::new(ax, az), Vec2::new(bx, bz), r),
                height: h,
            }),
        (v(8.0), v(2.0), 0.1f32..1.0).prop_map(|(a, d, r)| Static::Cylinder(Cylinder::new(
            a,
            a + d,
            r
        ))),
    ]
}

/// A random level: the floor plane (or a big floor box) and up to `n` objects.
fn level(n: usize) -> impl Strategy<Value = Scene> {
    (prop::collection::vec(object(), 0..n), any::<bool>()).prop_map(|(objects, plane)| {
        let floor = if plane {
            Static::Plane(Plane::new(Vec3::Y, 0.0))
        } else {
            Static::Aabb(Aabb::new(
                Vec3::new(-20.0, -1.0, -20.0),
                Vec3::new(20.0, 0.0, 20.0),
            ))
        };
        Scene::from_objects(
            std::iter::once((ObjectId(1), floor)).chain(
                objects
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| (ObjectId(i as u32 + 2), s)),
            ),
        )
    })
}

/// A rolling terrain mesh (0.5 m cells over 8 m, heights within ±`bump`) with up to three crates sunk into
/// it, tall or low, at any yaw, up to 40 m from the origin (where a coordinate's rounding is a few microns):
/// the creases at a crate's foot are where a failed step-up once walked the body back (the crate corner
/// bounce). Answers the scene and its offset from the origin.
/// The cells across the crates proptest's terrain: a grid of `(N + 1)²` heights 0.5 m apart, 8 m across.
const N: usize = 16;

/// The terrain mesh over `heights` (`(N + 1)²`, row `i` along x), 8 m across from `offset + (-4, 0, -4)`.
fn terrain_grid(heights: &[f32], offset: Vec3) -> Static {
    let mut vertices = Vec::new();
    for i in 0..=N {
        for j in 0..=N {
            let h = heights[i * (N + 1) + j];
            vertices.push(offset + Vec3::new(i as f32 * 0.5 - 4.0, h, j as f32 * 0.5 - 4.0));
        }
    }
    let mut indices = Vec::new();
    for i in 0..N {
        for j in 0..N {
            let k = |a: usize, b: usize| (a * (N + 1) + b) as u32;
            indices.push([k(i, j), k(i, j + 1), k(i + 1, j + 1)]);
            indices.push([k(i, j), k(i + 1, j + 1), k(i + 1, j)]);
        }
    }
    Static::Mesh(TriMesh::new(vertices, indices).unwrap())
}

fn terrain_with_crates() -> impl Strategy<Value = (Scene, Vec3)> {
    (
        prop::collection::vec(-1.0f32..1.0, (N + 1) * (N + 1)),
        0.02f32..0.3,
        prop::collection::vec(
            (
                (-2.5f32..2.5, -2.5f32..2.5),
                (0.2f32..1.2, 0.2f32..1.2),
                0.1f32..1.8,
                -3.2f32..3.2,
            ),
            1..4,
        ),
        (-40.0f32..40.0, -40.0f32..40.0),
    )
        .prop_map(|(heights, bump, crates, (ox, oz))| {
            let offset = Vec3::new(ox, 0.0, oz);
            let heights: Vec<f32> = heights.iter().map(|h| h * bump).collect();
            let terrain = terrain_grid(&heights, offset);
            let boxes = crates.into_iter().map(|((x, z), (hx, hz), top, yaw)| {
                let half = Vec3::new(hx, (top + 1.0) * 0.5, hz);
                let center = offset + Vec3::new(x, top - half.y, z);
                Static::Obb(Obb::new(center, half, Mat3::from_rotation_y(yaw)))
            });
            let scene = Scene::from_objects(
                std::iter::once(terrain)
                    .chain(boxes)
                    .enumerate()
                    .map(|(i, s)| (ObjectId(i as u32 + 1), s)),
            );
            (scene, offset)
        })
}

fn check_clear(
    c: &CharacterController,
    scene: &Scene,
    m: &CharacterMove,
) -> Result<(), TestCaseError> {
    let inside = scene.overlap_capsule(&grown(c, m.feet));
    prop_assert!(
        inside.is_empty(),
        "ended inside {:?} at {:?}: {:?}",
        inside,
        m.feet,
        m.trace.sweeps
    );
    Ok(())
}

/// A grounded move rests on its ground: where the ground is a floor found under the body (its point more than
/// two skins under the feet: a face the body stands on is touched at or above them, an edge it rests on above
/// them), the feet are within the skin band over resting on it, not hung on an edge beside it. (Not asked of
/// the walk into crates on the rolling terrain: a body wedged between a crate's edge and a wall there is held
/// 1.5 cm over the terrain, as a V of two faces holds it; the slide off the edge is stopped by the wall.)
fn check_rests(c: &CharacterController, m: &CharacterMove) -> Result<(), TestCaseError> {
    let Some(g) = m.ground.filter(|_| m.grounded) else {
        return Ok(());
    };
    if wedged(c, m) {
        return Ok(());
    }
    if g.point.y >= m.feet.y - 2.0 * c.skin - 1e-3 || g.normal.y <= 1e-3 {
        return Ok(());
    }
    let centre = m.feet + Vec3::Y * c.radius;
    let over = (g.normal.dot(centre - g.point) - c.radius - c.skin) / g.normal.y;
    prop_assert!(over <= c.skin + 2e-3, "hung {over} over its ground: {m:?}");
    Ok(())
}

/// Whether the move met a face too steep to stand on, facing up, and a contact facing against it across (their
/// horizontal normals more than 90° apart): a V of the two holds the body up where neither alone would (proptest
/// seed 23: an 80° triangle and a wall held the body 5.5 cm over a floor it was pressed toward; it is grounded,
/// held, and that floor is its ground).
fn wedged(c: &CharacterController, m: &CharacterMove) -> bool {
    let walkable = c.max_slope_deg.to_radians().cos();
    let across = |n: Vec3| Vec3::new(n.x, 0.0, n.z);
    m.hits.iter().any(|a| {
        a.normal.y > 0.0
            && a.normal.y < walkable
            && m.hits
                .iter()
                .any(|b| across(a.normal).dot(across(b.normal)) < 0.0)
    })
}

/// The move ended no farther back along its motion's horizontal direction than two skins, unless its start was
/// pushed out.
fn check_back(c: &CharacterController, m: &CharacterMove) -> Result<(), TestCaseError> {
    let flat = Vec3::new(m.motion.x, 0.0, m.motion.z);
    if m.trace.push_out.is_some() || flat.length() < 1e-6 {
        return Ok(());
    }
    let back = -(m.feet - m.start).dot(flat.normalize());
    // Falling down a surface too steep to stand on moves away from it: at most the drop times cot(slope), and
    // the slope is steeper than max_slope_deg.
    let drop = (m.start.y - m.feet.y).max(0.0);
    let slid = drop / c.max_slope_deg.to_radians().tan();
    prop_assert!(
        back <= 2.0 * c.skin + slid,
        "{back} back from {:?} by {:?}: {:?}",
        m.start,
        m.motion,
        m.trace
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(300))]

    /// Never inside: from a clear start, every move of a random walk (gravity, jumps, long dashes) ends clear.
    #[test]
    fn never_inside_on_random_levels(
        scene in level(14),
        start in (-6.0f32..6.0, 0.0f32..3.0, -6.0f32..6.0),
        moves in prop::collection::vec((-1.0f32..1.0, -1.0f32..0.6, -1.0f32..1.0, 0u8..10), 1..25),
    ) {
        let c = CharacterController::default();
        let mut feet = Vec3::new(start.0, start.1, start.2);
        prop_assume!(scene.overlap_capsule(&grown(&c, feet)).is_empty());
        for (x, y, z, kind) in moves {
            let scale = match kind { 0 => 200.0, 1 => 20.0, 2..=4 => 1.0, _ => 0.15 };
            let m = c.move_character(&scene, feet, Vec3::new(x, y, z) * scale);
            check_clear(&c, &scene, &m)?;
            prop_assert!(m.trace.sweeps.iter().filter(|r| r.phase == collidoscope::character::SweepPhase::Slide).count() <= c.max_iterations as usize);
            feet = m.feet;
        }
    }

    /// Never back: a move never ends farther back along its motion's horizontal direction than two skins,
    /// unless its start overlapped and was pushed out (walks of random motions, gravity and jumps included, over
    /// random levels; found as a step-up attempt against a crate carrying the body 15 cm back); and a grounded
    /// move rests on its ground (`check_rests`).
    #[test]
    fn never_back_against_the_motion_on_random_levels(
        scene in level(14),
        start in (-6.0f32..6.0, 0.0f32..3.0, -6.0f32..6.0),
        moves in prop::collection::vec((-1.0f32..1.0, -1.0f32..0.6, -1.0f32..1.0, 0u8..10), 1..25),
    ) {
        let c = CharacterController::default();
        let mut feet = Vec3::new(start.0, start.1, start.2);
        prop_assume!(scene.overlap_capsule(&grown(&c, feet)).is_empty());
        for (x, y, z, kind) in moves {
            let scale = match kind { 0 => 20.0, 1..=4 => 1.0, _ => 0.15 };
            let motion = Vec3::new(x, y, z) * scale;
            let m = c.move_character(&scene, feet, motion);
            check_back(&c, &m)?;
            check_rests(&c, &m)?;
            feet = m.feet;
        }
    }

    /// Deterministic: the same move twice gives the same bits.
    #[test]
    fn deterministic_on_random_levels(
        scene in level(10),
        start in (-6.0f32..6.0, 0.0f32..3.0, -6.0f32..6.0),
        motion in (-2.0f32..2.0, -2.0f32..1.0, -2.0f32..2.0),
    ) {
        let c = CharacterController::default();
        let feet = Vec3::new(start.0, start.1, start.2);
        let m = Vec3::new(motion.0, motion.1, motion.2);
        prop_assert_eq!(c.move_character(&scene, feet, m), c.move_character(&scene, feet, m));
    }

    /// Never stuck against a wall: with a little gravity, the motion keeps its component along a wall of any
    /// orientation (an oriented box, a level wall or a vertical triangle pair) to within two skins.
    #[test]
    fn never_stuck_against_a_wall(
        yaw in 0.0f32..std::f32::consts::TAU,
        into in 0.01f32..1.0,
        along in -1.0f32..1.0,
        speed in 0.02f32..0.5,
        kind in 0u8..3,
    ) {
        let c = CharacterController::default();
        // The wall's face passes through the origin with outward normal n (horizontal).
        let n = Vec3::new(yaw.cos(), 0.0, yaw.sin());
        let t = Vec3::new(-n.z, 0.0, n.x);
        let wall = match kind {
            0 => Static::Obb(Obb::new(-n * 0.5 + Vec3::Y * 2.0, Vec3::new(0.5, 2.0, 50.0), Mat3::from_cols(n, Vec3::Y, t))),
            1 => Static::Wall {
                wall: Wall::new(Vec2::new(-t.x * 50.0 - n.x * 0.2, -t.z * 50.0 - n.z * 0.2), Vec2::new(t.x * 50.0 - n.x * 0.2, t.z * 50.0 - n.z * 0.2), 0.2),
                height: 3.0,
            },
            _ => Static::Mesh(TriMesh::new(
                vec![-t * 50.0, t * 50.0, t * 50.0 + Vec3::Y * 4.0, -t * 50.0 + Vec3::Y * 4.0],
                vec![[0, 1, 2], [0, 2, 3]],
            ).unwrap()),
        };
        let scene = Scene::from_objects([(ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0))), (ObjectId(2), wall)]);
        let mut feet = n * (c.radius + c.skin) + Vec3::Y * c.skin;
        let horizontal = (-n * into + t * along).normalize() * speed;
        let motion = horizontal + Vec3::new(0.0, -0.02, 0.0);
        for _ in 0..10 {
            let m = c.move_character(&scene, feet, motion);
            let d = m.feet - feet;
            let want = horizontal.dot(t);
            prop_assert!((d.dot(t) - want).abs() <= 2.0 * c.skin, "along {} want {want}: {:?}", d.dot(t), m.trace.sweeps);
            prop_assert!(m.feet.dot(n) >= c.radius, "{:?}", m.feet);
            prop_assert!(m.grounded);
            feet = m.feet;
        }
    }

    /// Never stuck on a rim: a body standing over the edge of a wall's top (a level wall with rounded ends, a
    /// box or a mesh prism, 0.4 m wide), from half a skin to a skin over it, and walking along it, turned a
    /// little onto or off it, moves every move it stays grounded by at least half its motion along the rim. (Walking along a maze's wall top, a body
    /// 4 mm past the rim, met 0.5° off the top's normal, was clipped by the top's plane, met the rim again where
    /// it stood and never moved: a navigation path that started on a wall top.)
    #[test]
    fn never_stuck_walking_along_a_rim(
        off in prop_oneof![-0.1f32..0.29, -1e-5f32..1e-5],
        sink in prop_oneof![Just(0.0f32), 0.0f32..1.0],
        turn in -0.06f32..0.06,
        speed in 0.02f32..0.1,
        kind in 0u8..3,
    ) {
        let c = CharacterController::default();
        let (lo, hi) = (Vec3::new(-0.2, 0.0, -50.0), Vec3::new(0.2, 2.5, 50.0));
        let top = match kind {
            0 => Static::Wall {
                wall: Wall::new(Vec2::new(0.0, -50.0), Vec2::new(0.0, 50.0), 0.2),
                height: 2.5,
            },
            1 => Static::Aabb(Aabb::new(lo, hi)),
            _ => Static::Mesh(TriMesh::new(
                vec![
                    Vec3::new(lo.x, lo.y, lo.z), Vec3::new(hi.x, lo.y, lo.z), Vec3::new(hi.x, hi.y, lo.z), Vec3::new(lo.x, hi.y, lo.z),
                    Vec3::new(lo.x, lo.y, hi.z), Vec3::new(hi.x, lo.y, hi.z), Vec3::new(hi.x, hi.y, hi.z), Vec3::new(lo.x, hi.y, hi.z),
                ],
                vec![
                    [0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                    [3, 7, 6], [3, 6, 2], [0, 4, 7], [0, 7, 3], [1, 2, 6], [1, 6, 5],
                ],
            ).unwrap()),
        };
        let scene = Scene::from_objects([(ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0))), (ObjectId(2), top)]);
        // Set down from half a skin to a skin over the top (a body held by the rim's edge rests anywhere in
        // that band: the house's 1 m wall top held a body 0.1 µm past its rim, half a skin up), then settled.
        let start = Vec3::new(0.2 + off, 2.5 + c.skin * (0.5 + 0.5 * sink), 0.0);
        prop_assume!(scene.overlap_capsule(&c.capsule(start)).is_empty());
        let settle = c.move_character(&scene, start, Vec3::new(0.0, -0.02, 0.0));
        prop_assume!(settle.grounded && settle.feet.y > 2.4);
        let dir = Vec3::new(turn.sin(), 0.0, -turn.cos());
        let mut feet = if sink < 0.5 { start } else { settle.feet };
        for _ in 0..40 {
            let m = c.move_character(&scene, feet, dir * speed + Vec3::new(0.0, -0.005, 0.0));
            if !m.grounded || m.feet.y < 2.4 {
                break;
            }
            let along = feet.z - m.feet.z;
            prop_assert!(along >= 0.5 * speed * turn.cos(), "along {along} from {feet:?}: {:?}", m.trace.sweeps);
            feet = m.feet;
        }
    }

    /// In a corner (two walls at any angle from 30 to 150 degrees), walking into it ends in it: within
    /// `radius + 2 skin + 1 mm` of both faces.
    #[test]
    fn a_corner_ends_in_the_corner(
        opening in 30.0f32..150.0,
        yaw in 0.0f32..std::f32::consts::TAU,
        jitter in -0.4f32..0.4,
    ) {
        let c = CharacterController::default();
        // Faces: through the origin, with inward normals n1 and n2 (the corner's inside is where both dot > 0).
        let half = (opening * 0.5).to_radians();
        let bis = Vec3::new(yaw.cos(), 0.0, yaw.sin());
        let side = Vec3::new(-bis.z, 0.0, bis.x);
        let d1 = bis * half.cos() + side * half.sin();
        let d2 = bis * half.cos() - side * half.sin();
        let n1 = Vec3::Y.cross(d1).normalize() * if Vec3::Y.cross(d1).dot(d2) > 0.0 { 1.0 } else { -1.0 };
        let n2 = Vec3::Y.cross(d2).normalize() * if Vec3::Y.cross(d2).dot(d1) > 0.0 { 1.0 } else { -1.0 };
        let slab = |d: Vec3, n: Vec3| Static::Obb(Obb::new(d * 10.0 - n * 0.5 + Vec3::Y * 2.0, Vec3::new(10.0, 2.0, 0.5), Mat3::from_cols(d, Vec3::Y, -n)));
        let scene = Scene::from_objects([
            (ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0))),
            (ObjectId(2), slab(d1, n1)),
            (ObjectId(3), slab(d2, n2)),
        ]);
        let mut feet = bis * 4.0 + Vec3::Y * c.skin;
        prop_assume!(scene.overlap_capsule(&grown(&c, feet)).iter().all(|o| o.0 == 1));
        let dir = (-bis + side * jitter).normalize();
        // Into the corner: along each face, the motion heads for the apex.
        prop_assume!(dir.dot(d1) < -0.2 && dir.dot(d2) < -0.2);
        for _ in 0..150 {
            feet = c.move_character(&scene, feet, dir * 0.2 + Vec3::new(0.0, -0.02, 0.0)).feet;
        }
        let reach = c.radius + 2.0 * c.skin + 1e-3;
        let (g1, g2) = (feet.dot(n1), feet.dot(n2));
        prop_assert!(g1 <= reach && g2 <= reach, "{g1} {g2} {feet:?}");
        prop_assert!(g1 >= c.radius && g2 >= c.radius, "{g1} {g2}");
    }

    /// Steps: a riser up to `max_step` with a tread at least `radius` deep is climbed in one move with
    /// `stepped_up` equal to it; one `0.05` above `max_step` or more blocks.
    #[test]
    fn steps_are_climbed_up_to_max_step(
        riser in 0.02f32..0.35,
        tread in 0.3f32..1.5,
        yaw in 0.0f32..std::f32::consts::TAU,
        speed in 0.03f32..0.3,
        high in 0.40f32..1.0,
    ) {
        let c = CharacterController::default();
        let fwd = Vec3::new(yaw.cos(), 0.0, yaw.sin());
        let rot = Mat3::from_cols(fwd, Vec3::Y, fwd.cross(Vec3::Y));
        let stair = |h: f32| Static::Obb(Obb::new(fwd * (1.0 + tread * 0.5) + Vec3::Y * (h * 0.5), Vec3::new(tread * 0.5, h * 0.5, 3.0), rot));
        for (h, climbs) in [(riser, true), (high, false)] {
            let scene = Scene::from_objects([(ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0))), (ObjectId(2), stair(h))]);
            let mut feet = Vec3::Y * c.skin;
            let mut climbed = Vec::new();
            for _ in 0..((1.0 + tread * 0.5) / speed) as usize + 2 {
                let m = c.move_character(&scene, feet, fwd * speed + Vec3::new(0.0, -0.01, 0.0));
                check_clear(&c, &scene, &m)?;
                if m.stepped_up > 0.0 {
                    climbed.push(m.stepped_up);
                    // The feet end on the tread, a skin above it.
                    let gap = m.feet.y - h;
                    prop_assert!(gap >= c.skin * 0.5 - 1e-5 && gap <= 2.0 * c.skin, "gap {}", gap);
                    // The axis over the tread, or over its nosing itself to a millimetre: a move whose motion runs
                    // out with the body lifted just short of the nosing comes down on it (the edge 0.02 to 0.14 mm
                    // ahead of the axis, its contact normal the tread's), standing on the tread's edge (other seeds
                    // than CI's found 2 cm risers climbed so at 25 cm moves).
                    let along = m.feet.dot(fwd);
                    prop_assert!(along >= 1.0 - 1e-3 && along <= 1.0 + tread, "{:?}", m.feet);
                }
                feet = m.feet;
            }
            if climbs {
                prop_assert_eq!(climbed.len(), 1, "riser {} tread {}: {:?}", h, tread, feet);
                prop_assert!((climbed[0] - h).abs() < 1e-3, "riser {} stepped {}", h, climbed[0]);
            } else {
                prop_assert!(climbed.is_empty() && feet.y < 0.1, "riser {}: {:?}", h, feet);
            }
        }
    }

    /// Slopes: one up to `max_slope_deg` is walked up (1 m of rise in 100 moves of 0.1 m) and supports; a
    /// steeper one is never the ground and the feet rise on it at most `max_step`.
    #[test]
    fn slopes_up_to_the_limit_are_walked(deg in 10.0f32..44.0, steep in 46.5f32..85.0, yaw in 0.0f32..std::f32::consts::TAU) {
        let c = CharacterController::default();
        let fwd = Vec3::new(yaw.cos(), 0.0, yaw.sin());
        let side = fwd.cross(Vec3::Y);
        for (angle, walkable) in [(deg, true), (steep, false)] {
            let t = angle.to_radians();
            let (a, b) = (fwd * 0.4 - side * 3.0, fwd * 0.4 + side * 3.0);
            let up = fwd * (30.0 * t.cos()) + Vec3::Y * (30.0 * t.sin());
            let ramp = TriMesh::new(vec![a, b, b + up, a + up], vec![[0, 1, 2], [0, 2, 3]]).unwrap();
            let scene = Scene::from_objects([(ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0))), (ObjectId(2), Static::Mesh(ramp))]);
            let mut feet = Vec3::Y * c.skin;
            let mut top = 0.0f32;
            let mut last = None;
            for _ in 0..100 {
                let m = c.move_character(&scene, feet, fwd * 0.1 + Vec3::new(0.0, -0.02, 0.0));
                check_clear(&c, &scene, &m)?;
                if !walkable && let Some(g) = m.ground {
                    prop_assert_eq!(g.object, ObjectId(1), "a {} degree slope supported", angle);
                }
                top = top.max(m.feet.y);
                feet = m.feet;
                last = Some(m);
            }
            let last = last.unwrap();
            if walkable {
                prop_assert!(top >= 1.0, "{} degrees: rose {}", angle, top);
                prop_assert!(last.grounded && last.ground.unwrap().object == ObjectId(2));
            } else {
                prop_assert!(top <= c.max_step + c.skin, "{} degrees: rose {}", angle, top);
            }
        }
    }

    /// Seams: a flat floor of boxes, of level triangles or of one mesh, cut into pieces of random sizes, is
    /// walked without a bump: the feet keep their height and the horizontal motion its length, every hit's
    /// normal is the floor's and every move is grounded.
    #[test]
    fn seams_never_bump(
        cuts_x in prop::collection::vec(0.2f32..1.5, 4..12),
        cuts_z in prop::collection::vec(0.2f32..1.5, 4..12),
        yaw in 0.0f32..std::f32::consts::TAU,
        speed in 0.01f32..0.4,
        gravity in 0.0f32..0.05,
        kind in 0u8..3,
        top in -2.0f32..2.0,
    ) {
        let c = CharacterController::default();
        // Cut -8..8 into pieces in the proportions given.
        let edges = |cuts: &[f32]| {
            let total: f32 = cuts.iter().sum();
            let mut e = vec![-8.0f32];
            let mut at = 0.0;
            for w in cuts {
                at += w;
                e.push(-8.0 + 16.0 * at / total);
            }
            e
        };
        let (xs, zs) = (edges(&cuts_x), edges(&cuts_z));
        let mut objects: Vec<Static> = Vec::new();
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        for i in 0..xs.len() - 1 {
            for j in 0..zs.len() - 1 {
                let (x0, x1, z0, z1) = (xs[i], xs[i + 1], zs[j], zs[j + 1]);
                let p = [Vec3::new(x0, top, z0), Vec3::new(x1, top, z0), Vec3::new(x1, top, z1), Vec3::new(x0, top, z1)];
                match kind {
                    0 => objects.push(Static::Aabb(Aabb::new(Vec3::new(x0, top - 0.5, z0), Vec3::new(x1, top, z1)))),
                    1 => {
                        objects.push(Static::Triangle(Triangle::new(p[0], p[2], p[1])));
                        objects.push(Static::Triangle(Triangle::new(p[0], p[3], p[2])));
                    }
                    _ => {
                        let k = vertices.len() as u32;
                        vertices.extend(p);
                        indices.push([k, k + 2, k + 1]);
                        indices.push([k, k + 3, k + 2]);
                    }
                }
            }
        }
        if kind == 2 {
            objects.push(Static::Mesh(TriMesh::new(vertices, indices).unwrap()));
        }
        let scene = Scene::from_objects(objects.into_iter().enumerate().map(|(i, s)| (ObjectId(i as u32 + 1), s)));
        let dir = Vec3::new(yaw.cos(), 0.0, yaw.sin());
        let mut feet = Vec3::new(-dir.x * 6.0, top + c.skin, -dir.z * 6.0);
        let motion = dir * speed - Vec3::Y * gravity;
        for _ in 0..(12.0 / speed).min(200.0) as usize {
            let m = c.move_character(&scene, feet, motion);
            let d = m.feet - feet;
            prop_assert!((m.feet.y - (top + c.skin)).abs() <= 1e-4, "height {} at {:?}", m.feet.y - top, feet);
            prop_assert!((Vec3::new(d.x, 0.0, d.z) - dir * speed).length() <= 1e-4, "moved {:?}", d);
            prop_assert!(m.hits.iter().all(|h| h.normal.y >= 0.999), "{:?}", m.hits);
            prop_assert!(m.grounded, "{:?}", feet);
            feet = m.feet;
        }
    }
}

proptest! {
    #![proptest_config(config(1500))]

    /// Never back, walking over rolling terrain into and along crates sunk into it (too high to step or low
    /// enough), with gravity: no move ends more than two skins back along its motion.
    #[test]
    fn never_back_walking_along_crates_on_rolling_terrain(
        (scene, offset) in terrain_with_crates(),
        start in (-3.5f32..3.5, -3.5f32..3.5),
        heading in -1.3f32..1.3,
        speed in 0.02f32..0.2,
    ) {
        let c = CharacterController::default();
        // Dropped onto the terrain, then walked at the first crate, turned off it by `heading`.
        let drop = c.move_character(&scene, offset + Vec3::new(start.0, 3.0, start.1), Vec3::new(0.0, -4.0, 0.0));
        prop_assume!(drop.grounded && drop.trace.push_out.is_none());
        let target = scene.objects().nth(1).and_then(|(_, s)| s.bounds()).unwrap().center();
        let to = Vec3::new(target.x - drop.feet.x, 0.0, target.z - drop.feet.z);
        prop_assume!(to.length() > 0.1);
        let dir = Mat3::from_rotation_y(heading) * to.normalize();
        let mut feet = drop.feet;
        for _ in 0..40 {
            let m = c.move_character(&scene, feet, dir * speed + Vec3::new(0.0, -0.06, 0.0));
            check_back(&c, &m)?;
            check_clear(&c, &scene, &m)?;
            feet = m.feet;
        }
    }
}

/// The random levels' floor box (id 1): 40 m across, its top at `y = 0`.
fn floor_box() -> (ObjectId, Static) {
    (
        ObjectId(1),
        Static::Aabb(Aabb::new(
            Vec3::new(-20.0, -1.0, -20.0),
            Vec3::new(20.0, 0.0, 20.0),
        )),
    )
}

/// The moves `moves` from `feet` in turn, each checked never back and resting on its ground.
fn replay_checked(c: &CharacterController, scene: &Scene, mut feet: Vec3, moves: &[Vec3]) {
    for &motion in moves {
        let m = c.move_character(scene, feet, motion);
        check_back(c, &m).unwrap();
        check_rests(c, &m).unwrap();
        feet = m.feet;
    }
}

/// Found by `never_back_against_the_motion_on_random_levels` with another proptest seed (5): a body risen 7 cm
/// over the floor by an upward move, then moved up and on against a squat tilted cylinder's rim (68° steep),
/// was reported grounded on the floor 9.5 cm under its feet.
#[test]
fn regression_rising_against_a_steep_rim_is_not_grounded_on_the_floor_below() {
    let c = CharacterController::default();
    let scene = Scene::from_objects([
        floor_box(),
        (
            ObjectId(2),
            Static::Cylinder(Cylinder::new(
                Vec3::new(7.88731, 0.0, -4.047_853_5),
                Vec3::new(7.88731, 0.425_230_15, -4.236_946),
                0.827_180_45,
            )),
        ),
    ]);
    let feet = Vec3::new(5.914_868_4, 1.312_241, -3.530_168);
    let moves = [
        Vec3::new(0.0, 0.0, 0.579_364_06) * 0.15,
        Vec3::new(0.0, 0.0, -0.821_911_04),
        Vec3::new(0.0, 0.0, 0.592_729_33) * 0.15,
        Vec3::new(0.148_173_21, -0.311_497_66, -0.021_552_453) * 20.0,
        Vec3::new(0.0, 0.402_228_06, 0.0) * 0.15,
        Vec3::new(0.969_435_6, 0.138_666_03, 0.0) * 0.15,
    ];
    replay_checked(&c, &scene, feet, &moves);
}

/// Found by `never_back_against_the_motion_on_random_levels` with another proptest seed (23): a fall ends
/// wedged between a wall and an 80° triangle, 5.5 cm over the walkable triangle under it. The V holds the body;
/// it is reported grounded on that triangle, which `check_rests` allows for a wedged move (`wedged`).
#[test]
fn regression_seed_23_wedged_between_a_wall_and_a_steep_face() {
    let c = CharacterController::default();
    let rot = Mat3::from_cols(
        Vec3::new(-0.999_763_9, 0.0, -0.021_729_34),
        Vec3::new(-0.006_647_223_6, 0.952_060_4, 0.305_837_84),
        Vec3::new(0.020_687_645, 0.305_910_05, -0.951_835_63),
    );
    let scene = Scene::from_objects([
        floor_box(),
        (
            ObjectId(2),
            Static::Wall {
                wall: Wall::new(
                    Vec2::new(0.0, 0.0),
                    Vec2::new(-2.984_113, 3.250_981),
                    0.341_951_6,
                ),
                height: 2.859_893_3,
            },
        ),
        (
            ObjectId(3),
            Static::Obb(Obb::new(
                Vec3::new(-3.421_684_5, 2.466_388_7, 4.043_412_7),
                Vec3::new(0.482_508_57, 0.414_175_78, 0.494_337_98),
                rot,
            )),
        ),
        (
            ObjectId(4),
            Static::Triangle(Triangle::new(
                Vec3::new(-1.981_656_3, 2.374_552_5, 7.134_578),
                Vec3::new(5.302_482_6, 2.440_620_7, -2.937_727),
                Vec3::new(0.0, 0.0, 5.548_565_4),
            )),
        ),
        (
            ObjectId(5),
            Static::Triangle(Triangle::new(
                Vec3::new(-3.817_851_3, 0.371_456_2, -5.002_864),
                Vec3::new(5.777_421, 1.762_487_9, 2.118_649_2),
                Vec3::new(0.0, 0.930_912_9, 0.0),
            )),
        ),
        (
            ObjectId(6),
            Static::Triangle(Triangle::new(
                Vec3::new(7.179_826_3, 2.356_02, -3.5329),
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(-6.531_967, 0.152_044_62, 6.909_649),
            )),
        ),
        (
            ObjectId(7),
            Static::Wall {
                wall: Wall::new(
                    Vec2::new(-3.512_919_7, 4.020_813),
                    Vec2::new(0.0, 3.048_512),
                    0.368_628_47,
                ),
                height: 2.001_378_5,
            },
        ),
    ]);
    let moves = [
        Vec3::new(-0.070_487_045, -0.194_382_58, -0.811_157_76) * 0.15,
        Vec3::new(-0.007_907_711, -0.898_363_4, -0.589_891_6) * 20.0,
        Vec3::new(0.988_779, -0.140_450_8, 0.870_180_37),
        Vec3::new(0.0, 0.127_547_65, -0.553_335_2) * 0.15,
        Vec3::new(0.627_528_37, 0.477_806_54, 0.710_590_4) * 0.15,
        Vec3::new(0.273_983_45, -0.593_838_7, 0.120_634_35),
    ];
    replay_checked(
        &c,
        &scene,
        Vec3::new(-2.634_531_3, 2.703_909_9, 4.119_017),
        &moves,
    );
}

/// Found by `never_back_walking_along_crates_on_rolling_terrain` with another proptest seed (5): walking into a
/// 46° bank at the foot of a crate, the move's fall (gravity, after the walk was stopped) was turned aside by
/// the bank and clipped on along the floor it then landed on, 2.9 cm back against the motion. Open: ending the
/// fall where it first met walkable ground fixed it, but left two of the rolling terrain's shelves atop 42°
/// slopes reaching 3 places (`nav::terrain::the_terrain_is_reached_from_two_shelves_atop_steep_slopes`).
#[test]
#[ignore = "known: a fall turned aside by a steep bank slides on across the floor (see the comment)"]
fn regression_seed_5_terrain_never_back() {
    let mut heights = vec![0.0f32; (N + 1) * (N + 1)];
    for (k, h) in [
        (178, 0.132_572_59),
        (179, -0.241_920_64),
        (194, -0.244_947_28),
        (195, -0.121_077_895),
        (196, 0.150_914_04),
        (211, 0.211_393_46),
        (212, -0.044_094_91),
    ] {
        heights[k] = h;
    }
    let rot = Mat3::from_cols(
        Vec3::new(-0.838_624_7, 0.0, 0.544_709_6),
        Vec3::Y,
        Vec3::new(-0.544_709_6, 0.0, -0.838_624_7),
    );
    let scene = Scene::from_objects([
        (ObjectId(1), terrain_grid(&heights, Vec3::ZERO)),
        (
            ObjectId(2),
            Static::Obb(Obb::new(
                Vec3::new(2.241_713_5, -0.271_124_48, -1.418_929_1),
                Vec3::new(1.011_890_3, 0.728_875_5, 0.523_098_3),
                rot,
            )),
        ),
    ]);
    let c = CharacterController::default();
    let (start, heading, speed) = (
        (0.617_797_9f32, 0.465_159_6f32),
        -0.198_599_06f32,
        0.104_374_42f32,
    );
    let drop = c.move_character(
        &scene,
        Vec3::new(start.0, 3.0, start.1),
        Vec3::new(0.0, -4.0, 0.0),
    );
    let target = scene
        .objects()
        .nth(1)
        .and_then(|(_, s)| s.bounds())
        .unwrap()
        .center();
    let to = Vec3::new(target.x - drop.feet.x, 0.0, target.z - drop.feet.z);
    let dir = Mat3::from_rotation_y(heading) * to.normalize();
    let mut feet = drop.feet;
    for _ in 0..40 {
        let m = c.move_character(&scene, feet, dir * speed + Vec3::new(0.0, -0.06, 0.0));
        check_back(&c, &m).unwrap();
        check_clear(&c, &scene, &m).unwrap();
        feet = m.feet;
    }
}
