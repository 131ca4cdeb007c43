//! Character controller benchmark (issue 23, item 6): `CharacterController::move_character` side by side with
//! rapier3d 0.36's `KinematicCharacterController::move_shape` on the same scenes, the same bodies and the same
//! desired motions, timed in one run; then, on exactly the moves timed, how many end inside something, how many
//! are stuck, and how many fall through the ground, for both engines with the same measures.
//!
//! # Scenes (built once as a collidoscope [`Scene`]; the rapier3d world is built from that scene's objects)
//! - `terrain` (`benches/common/terrain.rs`, shared with `benches/bodies.rs`): `generate::terrain(100_000,
//!   200.0, 7)` (100,352 triangles, 0.89 m cells, heights scaled by [`terrain::TERRAIN_RELIEF`] for a few
//!   metres of relief: the report prints its steepest triangle) as one mesh, with [`terrain::CRATES`]
//!   axis-aligned crates and [`terrain::TURNED_CRATES`] crates turned about `y` (oriented boxes), each 0.2 to
//!   0.6 m above the highest ground under it (some climbed, some not) and sunk 0.3 m below the lowest, and
//!   [`terrain::BLOCKS`] blocks 1.5 to 4 m high, all within 70 m of the centre.
//! - `playground`: `levels/playground.ron`, every static object: box floor tiles, stairs, tunnels, door walls
//!   (boxes), the mesh floor and the two ramps (meshes), the V corner (two walls).
//!
//! # The same solids in rapier3d (fixed colliders, no bodies)
//! - Boxes: cuboids (oriented boxes turned by the box's own rotation matrix); meshes: `trimesh` of the same
//!   vertices and triangles, default flags (a surface, as collidoscope's meshes are); triangles: triangles;
//!   cylinders: cylinders turned onto their axis; planes: half-spaces.
//! - Walls (collidoscope: every point within `radius` of the segment `a..b`, from `y = 0` to the wall's height,
//!   a stadium prism): a cuboid of `length x height x 2 radius` along the segment and a cylinder of `radius`
//!   and the wall's height at each end, three colliders whose union is exactly the stadium prism (rapier3d has
//!   no extruded stadium; the parts' shared faces lie inside the union, so no surface differs, but rapier3d
//!   sees three convex pieces where collidoscope sees one).
//!
//! # The characters
//! One body for both: the upright capsule of radius 0.3 from the feet to 1.8 m above them (rapier3d:
//! `capsule_y(0.6, 0.3)` centred 0.9 m above the feet). collidoscope: `CharacterController::default()`.
//! rapier3d: `offset` 0.01 (the skin), `slide`, autostep `max_height` 0.35 and `min_width` 0.3 (the radius),
//! `max_slope_climb_angle` and `min_slope_slide_angle` 45°, `snap_to_ground` 0.4, every length absolute (its
//! defaults are relative to the shape's size), `normal_nudge_factor` its default 1e-4 (`CHARACTER_RAPIER_NUDGE`
//! sets another, for exploring rapier3d's sensitivity to it; the report prints the value used).
//!
//! [`CHARACTERS`] characters per scene start from seeded random places (dropped 2 cm above the ground a ray
//! finds under them, clear of everything by a skin) and walk seeded random paths at 60 Hz for [`FRAMES`]
//! frames: a new heading and speed (1.5 to 6 m/s) every 0.5 to 1.5 s, a jump (5 m/s up) on about one frame
//! in 150. The headings are chosen in advance for a free walker kept inside the level's floor (reflected at
//! its edge), so both engines get exactly the same inputs whatever they do with them. The bench integrates
//! gravity the same way for both: each frame `vy -= 9.81 dt` (after `vy = 5` when jumping on the ground), the
//! desired motion is `(vx dt, vy dt, vz dt)`, and `vy = 0` after a move that ends grounded with `vy <= 0`
//! (each engine's own `grounded`). Characters never meet each other (neither engine sees them).
//!
//! # Timing
//! Criterion 0.8, one group per scene with `collidoscope` and `rapier3d` side by side; one iteration is the
//! whole run (every character, every frame: 61,440 moves), so every sample times exactly the same moves, and
//! the time per move is the iteration's time over the moves. After the groups a timing pass of its own runs
//! each engine [`PASS_REPEATS`] times, alternating (so a change in the machine's load falls on both), and
//! takes the thread's CPU time (`/proc/thread-self/schedstat`, which leaves out the time spent waiting for a
//! core on a loaded machine) and the wall time. Single characters (report only): 120 to 150 moves on a flat
//! floor, along a wall walked into at 45°, and up a flight of ten 0.2 m steps.
//!
//! # Correctness, on the same moves (the report)
//! Every move of both engines is recorded and measured with the same tests, none of them either engine's own:
//! - **Inside**: the body at the move's end penetrates some object by more than [`INSIDE_DEPTH`] (1 mm):
//!   parry3d's `contact` between the capsule and each collider of the rapier3d world near it (the same solids
//!   as collidoscope's). Also counted, as collidoscope's own guarantee states it: the body with its radius grown
//!   by half the skin overlaps something (`Scene::overlap_capsule`), i.e. it is nearer than 5 mm.
//! - **Stuck**: the move wanted a horizontal motion `h`, moved the feet less than 10% of `|h|` horizontally,
//!   and yet a way on was free: for some direction `d` within 60° of `h` (0, ±15, ±30, ±45, ±60°), the body
//!   lifted by up to `max_step - 2 skin` (less where a ceiling is nearer) sweeps `|h|` along `d` and keeps half
//!   a skin from everything (both engines keep about a skin from what they touch), and from there a sweep down (by the lift plus what a 45° slope climbs over `|h|`,
//!   plus 5 cm) finds walkable ground (normal within 45° of up, the contact no more than `max_step - 2 skin`
//!   above the feet, so the body's round bottom resting on the nosing of a riser too high is not a way on) or
//!   nothing (a ledge to walk off). Sweeps are
//!   parry3d's, on the rapier3d world. Sliding along a wall walked into at `θ` from its normal moves
//!   `|h| sin θ`; a free direction within 60° of `h` means an ideal slide gets at least half of `|h|`, so
//!   "less than a tenth" is a character that fails to take a way that is there. Moves that start inside are
//!   left out (they are counted as inside at the move before). The lift makes steps up to about 0.32 m a way
//!   on (both controllers climb 0.35 m); an edge under the end of a probe can give a tilted normal that reads as
//!   not walkable, which can only hide stuck moves, for both engines alike.
//! - **Fell through**: a move from above the floor to more than 5 cm below it (the floor under the feet: the
//!   terrain's own triangles, interpolated; the playground's floor top at `y = 0`), both ends within the floor's
//!   footprint. Characters whose feet go off the footprint (walked off the playground's edge) have left the
//!   level, counted apart (one that walks back under the floor from there has not fallen through it).
//!
//! The report runs after the benches when no name filter is given (`cargo bench --bench character`), alone with
//! `CHARACTER_REPORT=only`, never with `CHARACTER_REPORT=0` or outside `cargo bench` (`cargo test --benches`
//! runs every bench once on a few characters and frames and skips it).

use std::collections::{BTreeSet, HashMap};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use collidoscope::character::CharacterController;
use collidoscope::generate::SplitMix64;
use collidoscope::glam::{Quat, Vec2, Vec3};
use collidoscope::level::{Level, ObjectId};
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::Aabb;
use criterion::{Criterion, SamplingMode};
use parry_glam::{FromParry, ToParry};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::math::Pose;
use rapier3d::parry::bounding_volume::BoundingVolume;
use rapier3d::parry::query::{ShapeCastOptions, contact};
use rapier3d::parry::shape::{Capsule as RCapsule, Shape};
use rapier3d::prelude::{
    ColliderBuilder, ColliderHandle, PhysicsWorld, QueryPipeline, SharedShape,
};

// The runtime's glam is Bevy's, rapier3d's another: vectors are copied across where they meet rapier.
#[path = "../tests/runtime/parry_glam.rs"]
mod parry_glam;
#[path = "common/riding.rs"]
mod riding;
#[path = "common/terrain.rs"]
mod terrain;

/// The frame time, seconds (60 Hz).
const DT: f32 = 1.0 / 60.0;
/// Gravity, m/s².
const GRAVITY: f32 = 9.81;
/// A jump's upward speed, m/s.
const JUMP_SPEED: f32 = 5.0;
/// Characters per scene.
const CHARACTERS: usize = 256;
/// Frames each character walks (4 s at 60 Hz).
const FRAMES: usize = 240;
/// A move ends inside when the body penetrates something by more than this, metres.
const INSIDE_DEPTH: f32 = 1e-3;
/// A move is short when the feet moved less than this fraction of the desired horizontal motion.
const STUCK_FRACTION: f32 = 0.1;
/// Feet more than this below the floor have fallen through it, metres.
const FELL_DEPTH: f32 = 0.05;
/// Runs of each engine in the timing pass (alternating).
const PASS_REPEATS: usize = 3;

// ---------------------------------------------------------------------------------------------------------
// Scenes.
// ---------------------------------------------------------------------------------------------------------

/// The floor of a scene: where the feet would be below it.
enum Floor {
    Terrain(terrain::Heightfield),
    /// A level floor with its top at `top` over the rectangle `min..max` (x, z).
    Flat {
        min: Vec2,
        max: Vec2,
        top: f32,
    },
}

impl Floor {
    /// The floor's height under `(x, z)`, or `None` off the floor.
    fn height(&self, x: f32, z: f32) -> Option<f32> {
        match self {
            Floor::Terrain(h) => h.height(x, z),
            Floor::Flat { min, max, top } => {
                (x >= min.x && x <= max.x && z >= min.y && z <= max.y).then_some(*top)
            }
        }
    }
}

/// The same static objects in rapier3d: fixed colliders (no bodies), and which object each collider is.
struct Rapier {
    world: PhysicsWorld,
    objects: HashMap<ColliderHandle, ObjectId>,
}

impl Rapier {
    /// Every object of `scene` as rapier3d colliders (see the module's list).
    fn from_scene(scene: &Scene) -> Self {
        let mut world = PhysicsWorld::new();
        let mut objects = HashMap::new();
        for (id, shape) in scene.objects() {
            let mut parts = Vec::new();
            match shape {
                Static::Plane(p) => parts.push(
                    ColliderBuilder::new(SharedShape::halfspace(p.normal.p()))
                        .translation((p.normal * p.d).p()),
                ),
                Static::Cylinder(c) => {
                    let axis = c.b - c.a;
                    let rot = Quat::from_rotation_arc(Vec3::Y, axis.normalize());
                    parts.push(
                        ColliderBuilder::cylinder(axis.length() * 0.5, c.radius)
                            .position(Pose::from_parts(((c.a + c.b) * 0.5).p(), rot.p())),
                    );
                }
                Static::Triangle(t) => {
                    parts.push(ColliderBuilder::triangle(t.a.p(), t.b.p(), t.c.p()))
                }
                Static::Aabb(a) => {
                    let half = (a.max - a.min) * 0.5;
                    parts.push(
                        ColliderBuilder::cuboid(half.x, half.y, half.z)
                            .translation(((a.min + a.max) * 0.5).p()),
                    );
                }
                Static::Obb(o) => {
                    let h = o.half_extents;
                    let rot = Quat::from_mat3(&o.rotation);
                    parts.push(
                        ColliderBuilder::cuboid(h.x, h.y, h.z)
                            .position(Pose::from_parts(o.center.p(), rot.p())),
                    );
                }
                Static::Wall { wall, height } => {
                    let (h, r) = (*height, wall.radius);
                    let d = wall.b - wall.a;
                    let len = d.length();
                    if len > 0.0 {
                        let dir = Vec3::new(d.x, 0.0, d.y) / len;
                        let rot = Quat::from_rotation_arc(Vec3::X, dir);
                        let mid = (wall.a + wall.b) * 0.5;
                        parts.push(ColliderBuilder::cuboid(len * 0.5, h * 0.5, r).position(
                            Pose::from_parts(Vec3::new(mid.x, h * 0.5, mid.y).p(), rot.p()),
                        ));
                    }
                    for end in [wall.a, wall.b] {
                        let at = Vec3::new(end.x, h * 0.5, end.y);
                        parts.push(ColliderBuilder::cylinder(h * 0.5, r).translation(at.p()));
                    }
                }
                Static::Mesh(m) => parts.push(
                    ColliderBuilder::trimesh(
                        m.vertices().iter().map(|v| v.p()).collect(),
                        m.indices().to_vec(),
                    )
                    .expect("rapier3d takes the mesh"),
                ),
            }
            for part in parts {
                let handle = world.insert_collider(part, None);
                objects.insert(handle, id);
            }
        }
        // Build the broad phase's tree of the colliders, which the scene queries walk.
        world.detect_collisions(&(), &());
        Self { world, objects }
    }

    fn query(&self) -> QueryPipeline<'_> {
        self.world.query_pipeline()
    }
}

/// One desired input of one character on one frame.
#[derive(Clone, Copy, Debug, Default)]
struct Input {
    /// Horizontal velocity `(x, z)`, m/s.
    velocity: Vec2,
    /// Jump when on the ground.
    jump: bool,
}

/// Every character's start and inputs.
#[derive(Clone)]
struct Motions {
    starts: Vec<Vec3>,
    /// Frame-major: the input of character `i` on frame `f` is `inputs[f * starts.len() + i]`.
    inputs: Vec<Input>,
    frames: usize,
}

impl Motions {
    fn moves(&self) -> usize {
        self.starts.len() * self.frames
    }
}

/// A scene with both engines' worlds, its floor and the characters' motions on it.
struct Bench {
    name: &'static str,
    scene: Scene,
    rapier: Rapier,
    floor: Floor,
    motions: Motions,
    /// Facts about the scene for the report.
    notes: Vec<String>,
}

/// Both engines' characters, of the same body and limits.
struct Characters {
    ours: CharacterController,
    theirs: KinematicCharacterController,
    shape: RCapsule,
}

impl Characters {
    fn new() -> Self {
        let ours = CharacterController::default();
        let slope = ours.max_slope_deg.to_radians();
        let theirs = KinematicCharacterController {
            up: Vec3::Y.p(),
            offset: CharacterLength::Absolute(ours.skin),
            slide: true,
            autostep: Some(CharacterAutostep {
                max_height: CharacterLength::Absolute(ours.max_step),
                min_width: CharacterLength::Absolute(ours.radius),
                // There are no dynamic bodies.
                include_dynamic_bodies: true,
            }),
            max_slope_climb_angle: slope,
            min_slope_slide_angle: slope,
            snap_to_ground: Some(CharacterLength::Absolute(ours.snap_distance)),
            normal_nudge_factor: std::env::var("CHARACTER_RAPIER_NUDGE")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(KinematicCharacterController::default().normal_nudge_factor),
        };
        let shape = RCapsule::new_y(ours.height * 0.5 - ours.radius, ours.radius);
        Self {
            ours,
            theirs,
            shape,
        }
    }

    /// The rapier3d pose of the body with its feet at `feet`.
    fn pose(&self, feet: Vec3) -> Pose {
        Pose::from_translation((feet + Vec3::Y * (self.ours.height * 0.5)).p())
    }
}

/// The terrain scene (see the module's scenes).
fn terrain_scene(characters: usize, frames: usize, ch: &Characters) -> Bench {
    let (objects, field, note) = terrain::terrain_objects();
    let scene = Scene::from_objects(objects);
    let rapier = Rapier::from_scene(&scene);
    let (lo, hi) = (Vec2::splat(-90.0), Vec2::splat(90.0));
    let starts = terrain::starts(
        &scene,
        &ch.ours,
        Vec2::splat(-60.0),
        Vec2::splat(60.0),
        characters,
        101,
    );
    let motions = motions(starts, frames, lo, hi, 102);
    Bench {
        name: "terrain",
        notes: vec![format!(
            "{note}; rapier3d colliders: {}",
            rapier.world.colliders.len()
        )],
        scene,
        rapier,
        floor: Floor::Terrain(field),
        motions,
    }
}

/// `levels/playground.ron` (see the module's scenes).
fn playground_scene(characters: usize, frames: usize, ch: &Characters) -> Bench {
    let level = Level::from_ron_str(include_str!("../levels/playground.ron"))
        .expect("levels/playground.ron parses");
    assert_eq!(
        level.character,
        Some(ch.ours),
        "the playground's character is the default one"
    );
    let scene = Scene::from_level(&level).expect("the playground builds a Scene");
    let rapier = Rapier::from_scene(&scene);
    // The floor: box tiles over x -20..0 and the mesh over 0..20, z -10..14, top at y = 0.
    let (min, max) = (Vec2::new(-20.0, -10.0), Vec2::new(20.0, 14.0));
    let margin = Vec2::splat(0.5);
    let starts = terrain::starts(
        &scene,
        &ch.ours,
        min + margin,
        max - margin,
        characters,
        201,
    );
    let motions = motions(starts, frames, min + margin, max - margin, 202);
    Bench {
        name: "playground",
        notes: vec![format!(
            "playground: {} objects ({} boxes, {} meshes, {} walls); rapier3d colliders: {} (each wall a cuboid and \
             two cylinders)",
            scene.len(),
            level.aabbs.len(),
            level.meshes.len(),
            level.walls.len(),
            rapier.world.colliders.len()
        )],
        scene,
        rapier,
        floor: Floor::Flat { min, max, top: 0.0 },
        motions,
    }
}

/// Seeded random walks from `starts` (see the module's characters), reflected at the edges of `lo..hi`.
fn motions(starts: Vec<Vec3>, frames: usize, lo: Vec2, hi: Vec2, seed: u64) -> Motions {
    let n = starts.len();
    let mut inputs = vec![Input::default(); n * frames];
    for (i, s) in starts.iter().enumerate() {
        let mut rng = SplitMix64::new(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let mut p = Vec2::new(s.x, s.z);
        let mut v = Vec2::ZERO;
        let mut left = 0usize;
        for f in 0..frames {
            if left == 0 {
                let heading = rng.range(0.0, std::f32::consts::TAU);
                v = Vec2::from_angle(heading) * rng.range(1.5, 6.0);
                left = 30 + rng.below(61);
            }
            left -= 1;
            let next = p + v * DT;
            if next.x < lo.x || next.x > hi.x {
                v.x = -v.x;
            }
            if next.y < lo.y || next.y > hi.y {
                v.y = -v.y;
            }
            p += v * DT;
            inputs[f * n + i] = Input {
                velocity: v,
                jump: rng.below(150) == 0,
            };
        }
    }
    Motions {
        starts,
        inputs,
        frames,
    }
}

// ---------------------------------------------------------------------------------------------------------
// Walking.
// ---------------------------------------------------------------------------------------------------------

/// One move as an engine made it.
#[derive(Clone, Copy, Debug)]
struct Record {
    start: Vec3,
    desired: Vec3,
    end: Vec3,
}

/// Walk every character through its inputs, frame by frame, with `step(feet, desired) -> (feet, grounded)`;
/// `record(frame, character, move)` sees every move. Returns the sum of the final feet (kept by the caller).
fn simulate(
    m: &Motions,
    mut step: impl FnMut(Vec3, Vec3) -> (Vec3, bool),
    mut record: impl FnMut(usize, usize, &Record),
) -> Vec3 {
    let n = m.starts.len();
    let mut feet = m.starts.clone();
    let mut vy = vec![0.0f32; n];
    let mut grounded = vec![false; n];
    for (f, inputs) in m.inputs.chunks_exact(n).enumerate() {
        for (i, input) in inputs.iter().enumerate() {
            if input.jump && grounded[i] {
                vy[i] = JUMP_SPEED;
            }
            vy[i] -= GRAVITY * DT;
            let desired = Vec3::new(input.velocity.x, vy[i], input.velocity.y) * DT;
            let (end, on_ground) = step(feet[i], desired);
            if on_ground && vy[i] <= 0.0 {
                vy[i] = 0.0;
            }
            grounded[i] = on_ground;
            record(
                f,
                i,
                &Record {
                    start: feet[i],
                    desired,
                    end,
                },
            );
            feet[i] = end;
        }
    }
    feet.iter().copied().sum()
}

fn run_collidoscope(
    scene: &Scene,
    ch: &Characters,
    m: &Motions,
    record: impl FnMut(usize, usize, &Record),
) -> Vec3 {
    simulate(
        m,
        |feet, desired| {
            let mv = ch.ours.move_character(scene, feet, desired);
            (mv.feet, mv.grounded)
        },
        record,
    )
}

fn run_rapier(
    rapier: &Rapier,
    ch: &Characters,
    m: &Motions,
    record: impl FnMut(usize, usize, &Record),
) -> Vec3 {
    let query = rapier.query();
    simulate(
        m,
        |feet, desired| {
            let mv =
                ch.theirs
                    .move_shape(DT, &query, &ch.shape, &ch.pose(feet), desired.p(), |_| {});
            (feet + mv.translation.ours(), mv.grounded)
        },
        record,
    )
}

// ---------------------------------------------------------------------------------------------------------
// Criterion.
// ---------------------------------------------------------------------------------------------------------

/// Both engines in one criterion group; an iteration is one call of `ours` or `theirs` (a whole run).
fn bench_pair(
    c: &mut Criterion,
    group: &str,
    measurement: Duration,
    mut ours: impl FnMut() -> Vec3,
    mut theirs: impl FnMut() -> Vec3,
) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(measurement);
    g.bench_function("collidoscope", |b| b.iter(|| black_box(ours())));
    g.bench_function("rapier3d", |b| b.iter(|| black_box(theirs())));
    g.finish();
}

/// A single character's case (report only): a scene, a start and a constant horizontal velocity.
struct Single {
    name: &'static str,
    scene: Scene,
    rapier: Rapier,
    motions: Motions,
}

fn single(
    name: &'static str,
    objects: Vec<Static>,
    start: Vec3,
    velocity: Vec2,
    frames: usize,
) -> Single {
    let scene = Scene::from_objects(
        objects
            .into_iter()
            .enumerate()
            .map(|(i, s)| (ObjectId(i as u32 + 1), s)),
    );
    let rapier = Rapier::from_scene(&scene);
    Single {
        name,
        scene,
        rapier,
        motions: Motions {
            starts: vec![start],
            inputs: vec![
                Input {
                    velocity,
                    jump: false
                };
                frames
            ],
            frames,
        },
    }
}

/// Flat floor, a wall walked into at 45°, a flight of ten 0.2 m steps.
fn singles(ch: &Characters, quick: bool) -> Vec<Single> {
    let skin = ch.ours.skin;
    let floor = Static::Aabb(Aabb::new(
        Vec3::new(-50.0, -1.0, -50.0),
        Vec3::new(50.0, 0.0, 50.0),
    ));
    let frames = |n: usize| if quick { 10 } else { n };
    let mut stairs = vec![floor.clone()];
    for k in 0..10 {
        stairs.push(Static::Aabb(Aabb::new(
            Vec3::new(0.4 * k as f32, 0.0, -2.0),
            Vec3::new(0.4 * (k + 1) as f32, 0.2 * (k + 1) as f32, 2.0),
        )));
    }
    stairs.push(Static::Aabb(Aabb::new(
        Vec3::new(4.0, 0.0, -2.0),
        Vec3::new(8.0, 2.0, 2.0),
    )));
    vec![
        single(
            "flat",
            vec![floor.clone()],
            Vec3::new(-20.0, skin, 0.0),
            Vec2::new(4.0, 0.0),
            frames(120),
        ),
        single(
            "wall",
            vec![
                floor,
                Static::Aabb(Aabb::new(
                    Vec3::new(-50.0, 0.0, 1.0),
                    Vec3::new(50.0, 3.0, 2.0),
                )),
            ],
            Vec3::new(-10.0, skin, 0.0),
            Vec2::new(1.0, 1.0).normalize() * 4.0,
            frames(120),
        ),
        single(
            "stairs",
            stairs,
            Vec3::new(-1.0, skin, 0.0),
            Vec2::new(2.0, 0.0),
            frames(150),
        ),
    ]
}

fn benches(c: &mut Criterion, benches: &[Bench], singles: &[Single], ch: &Characters) {
    for b in benches {
        bench_pair(
            c,
            &format!("character_{}", b.name),
            Duration::from_secs(10),
            || run_collidoscope(&b.scene, ch, &b.motions, |_, _, _| {}),
            || run_rapier(&b.rapier, ch, &b.motions, |_, _, _| {}),
        );
    }
    for s in singles {
        bench_pair(
            c,
            &format!("character_single_{}", s.name),
            Duration::from_secs(2),
            || run_collidoscope(&s.scene, ch, &s.motions, |_, _, _| {}),
            || run_rapier(&s.rapier, ch, &s.motions, |_, _, _| {}),
        );
    }
}

/// Where criterion writes its estimates: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`, else the
/// package's `target/criterion` (criterion's own order).
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
            PathBuf::from,
        )
        .join("criterion")
}

/// The number after `"key":` at or after `from` in `text`, and where it ends.
fn json_number(text: &str, from: usize, key: &str) -> Option<(f64, usize)> {
    let pattern = format!("\"{key}\":");
    let at = from + text.get(from..)?.find(&pattern)? + pattern.len();
    let rest = &text[at..];
    let end = rest
        .find(|ch: char| !(ch.is_ascii_digit() || "+-.eE".contains(ch)))
        .unwrap_or(rest.len());
    Some((rest[..end].parse().ok()?, at + end))
}

/// Criterion's mean estimate of this run for `group/function`: (lower bound, point, upper bound), ns per
/// iteration. `None` when missing or older than `since` (the group did not run in this process).
fn criterion_mean(group: &str, function: &str, since: SystemTime) -> Option<[f64; 3]> {
    let path = criterion_dir()
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let mean = text.find("\"mean\":")?;
    let (lower, at) = json_number(&text, mean, "lower_bound")?;
    let (upper, at) = json_number(&text, at, "upper_bound")?;
    let (point, _) = json_number(&text, at, "point_estimate")?;
    Some([lower, point, upper])
}

// ---------------------------------------------------------------------------------------------------------
// Timing pass.
// ---------------------------------------------------------------------------------------------------------

/// This thread's CPU time so far, seconds (`/proc/thread-self/schedstat`, Linux), or `None`.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// Per-move times of one engine over the timing pass's runs: (CPU seconds, wall seconds) of each run.
#[derive(Default)]
struct PassTimes {
    runs: Vec<(Option<f64>, f64)>,
}

impl PassTimes {
    fn time(&mut self, moves: usize, run: impl FnOnce() -> Vec3) {
        let cpu0 = thread_cpu_seconds();
        let t = Instant::now();
        black_box(run());
        let wall = t.elapsed().as_secs_f64();
        let cpu = cpu0
            .zip(thread_cpu_seconds())
            .map(|(a, b)| (b - a) / moves as f64);
        self.runs.push((cpu, wall / moves as f64));
    }

    /// The lowest CPU time per move of the runs (else the lowest wall time).
    fn best_cpu(&self) -> f64 {
        self.runs
            .iter()
            .map(|(c, w)| c.unwrap_or(*w))
            .fold(f64::INFINITY, f64::min)
    }

    fn best_wall(&self) -> f64 {
        self.runs
            .iter()
            .map(|(_, w)| *w)
            .fold(f64::INFINITY, f64::min)
    }

    fn spread(&self, cpu: bool) -> String {
        let v: Vec<String> = self
            .runs
            .iter()
            .map(|(c, w)| format!("{:.2}", if cpu { c.unwrap_or(*w) } else { *w } * 1e6))
            .collect();
        v.join(" / ")
    }
}

// ---------------------------------------------------------------------------------------------------------
// Correctness.
// ---------------------------------------------------------------------------------------------------------

/// The tests every recorded move goes through (see the module's correctness), on one scene.
struct Checker<'a> {
    bench: &'a Bench,
    ch: &'a Characters,
    query: QueryPipeline<'a>,
}

/// A move that failed a test, for the report.
#[derive(Clone, Copy, Debug)]
struct Case {
    frame: usize,
    character: usize,
    record: Record,
    /// Penetration depth (inside) or horizontal distance moved (stuck), metres.
    amount: f32,
    object: Option<ObjectId>,
}

/// What the tests found for one engine on one scene.
#[derive(Default)]
struct Findings {
    moves: usize,
    inside: usize,
    inside_characters: BTreeSet<usize>,
    worst_depth: f32,
    inside_cases: Vec<Case>,
    /// Moves ending with the body (radius grown by skin / 2) overlapping something: collidoscope's measure.
    near: usize,
    stuck: usize,
    stuck_characters: BTreeSet<usize>,
    stuck_cases: Vec<Case>,
    /// Short moves (less than a tenth of the motion) with no way on free: against walls, in corners.
    blocked: usize,
    /// Short moves that started inside (not tested for stuck).
    started_inside: usize,
    /// Moves from above the floor to more than [`FELL_DEPTH`] below it, both within its footprint.
    fell: usize,
    fell_characters: BTreeSet<usize>,
    /// Characters whose feet went off the floor's footprint at some move.
    left_characters: BTreeSet<usize>,
    desired: f64,
    moved: f64,
}

/// Cases kept per kind for the report.
const CASES_KEPT: usize = 8;

impl<'a> Checker<'a> {
    fn new(bench: &'a Bench, ch: &'a Characters) -> Self {
        Self {
            bench,
            ch,
            query: bench.rapier.query(),
        }
    }

    /// The deepest penetration of the body at `feet` into any collider (0 when clear) and its object.
    fn penetration(&self, feet: Vec3) -> (f32, Option<ObjectId>) {
        let pose = self.ch.pose(feet);
        let aabb = self.ch.shape.compute_aabb(&pose).loosened(0.01);
        let mut worst = (0.0f32, None);
        for (handle, collider) in self.query.intersect_aabb_conservative(aabb) {
            if let Ok(Some(c)) = contact(
                &pose,
                &self.ch.shape,
                collider.position(),
                collider.shape(),
                0.0,
            ) && -c.dist > worst.0
            {
                worst = (-c.dist, self.bench.rapier.objects.get(&handle).copied());
            }
        }
        worst
    }

    /// Whether the body at `feet`, radius grown by half the skin, overlaps anything (collidoscope's guarantee).
    fn near(&self, feet: Vec3) -> bool {
        let mut body = self.ch.ours.capsule(feet);
        body.radius += self.ch.ours.skin * 0.5;
        !self.bench.scene.overlap_capsule(&body).is_empty()
    }

    /// The body centred at `center` swept along `dir` by `distance`, keeping `keep` from everything: the first
    /// contact's normal (on the object, toward the body) and point, if any.
    fn cast(&self, center: Vec3, dir: Vec3, distance: f32, keep: f32) -> Option<(Vec3, Vec3)> {
        self.query
            .cast_shape(
                &Pose::from_translation(center.p()),
                dir.p(),
                &self.ch.shape,
                ShapeCastOptions {
                    max_time_of_impact: distance,
                    target_distance: keep,
                    stop_at_penetration: false,
                    compute_impact_geometry_on_penetration: true,
                },
            )
            .map(|(_, hit)| (hit.normal1.ours(), hit.witness1.ours()))
    }

    /// Whether a way on is free from `feet` for the horizontal motion `h` (see the module's stuck).
    fn free_way(&self, feet: Vec3, h: Vec3) -> bool {
        let c = &self.ch.ours;
        let len = h.length();
        let center = feet + Vec3::Y * (c.height * 0.5);
        let most = c.max_step - 2.0 * c.skin;
        let lift = match self.query.cast_shape(
            &Pose::from_translation(center.p()),
            Vec3::Y.p(),
            &self.ch.shape,
            ShapeCastOptions {
                max_time_of_impact: most,
                target_distance: c.skin,
                stop_at_penetration: false,
                compute_impact_geometry_on_penetration: true,
            },
        ) {
            Some((_, hit)) => hit.time_of_impact,
            None => most,
        };
        if lift < 2.0 * c.skin {
            return false;
        }
        let top = center + Vec3::Y * lift;
        let slope = c.max_slope_deg.to_radians();
        let walkable = slope.cos() - 1e-3;
        let dir = h / len;
        for deg in [0.0f32, 15.0, -15.0, 30.0, -30.0, 45.0, -45.0, 60.0, -60.0] {
            let d = Quat::from_rotation_y(deg.to_radians()) * dir;
            if self.cast(top, d, len, c.skin * 0.5).is_some() {
                continue;
            }
            let drop = lift + len * slope.tan() + 0.05;
            match self.cast(top + d * len, -Vec3::Y, drop, 0.0) {
                None => return true,
                Some((n, p)) if n.y >= walkable && p.y - feet.y <= most => return true,
                Some(_) => {}
            }
        }
        false
    }

    /// Run the tests on one move.
    fn check(&self, frame: usize, character: usize, r: &Record, found: &mut Findings) {
        found.moves += 1;
        let (depth, object) = self.penetration(r.end);
        found.worst_depth = found.worst_depth.max(depth);
        if depth > INSIDE_DEPTH {
            found.inside += 1;
            found.inside_characters.insert(character);
            if found.inside_cases.len() < CASES_KEPT {
                found.inside_cases.push(Case {
                    frame,
                    character,
                    record: *r,
                    amount: depth,
                    object,
                });
            }
        }
        found.near += usize::from(self.near(r.end));
        let floor = &self.bench.floor;
        let above = floor
            .height(r.start.x, r.start.z)
            .is_some_and(|h| r.start.y >= h - FELL_DEPTH);
        match floor.height(r.end.x, r.end.z) {
            Some(h) if above && r.end.y < h - FELL_DEPTH => {
                found.fell += 1;
                found.fell_characters.insert(character);
            }
            Some(_) => {}
            None => {
                found.left_characters.insert(character);
            }
        }
        let h = Vec3::new(r.desired.x, 0.0, r.desired.z);
        let moved = Vec3::new(r.end.x - r.start.x, 0.0, r.end.z - r.start.z).length();
        found.desired += f64::from(h.length());
        found.moved += f64::from(moved);
        if h.length() < 1e-4 || moved >= STUCK_FRACTION * h.length() {
            return;
        }
        if self.penetration(r.start).0 > INSIDE_DEPTH {
            found.started_inside += 1;
        } else if self.free_way(r.start, h) {
            found.stuck += 1;
            found.stuck_characters.insert(character);
            if found.stuck_cases.len() < CASES_KEPT {
                found.stuck_cases.push(Case {
                    frame,
                    character,
                    record: *r,
                    amount: moved,
                    object: None,
                });
            }
        } else {
            found.blocked += 1;
        }
    }

    /// The tests on every move of one engine's run (`run` walks the motions and calls back each move).
    fn findings(
        &self,
        run: impl FnOnce(&mut dyn FnMut(usize, usize, &Record)) -> Vec3,
    ) -> Findings {
        let mut found = Findings::default();
        run(&mut |f, i, r| self.check(f, i, r, &mut found));
        found
    }
}

/// The self-test of the checker: a body sunk 5 cm into the floor is inside and fell through, one resting a
/// skin above it is neither; pushing into a wall head-on is blocked while along it is free; a 0.2 m riser is a
/// way on and a 0.42 m one is not.
fn self_test(ch: &Characters) {
    let s = singles(ch, true).remove(1);
    let bench = Bench {
        name: "self-test",
        scene: s.scene,
        rapier: s.rapier,
        floor: Floor::Flat {
            min: Vec2::splat(-50.0),
            max: Vec2::splat(50.0),
            top: 0.0,
        },
        motions: s.motions,
        notes: Vec::new(),
    };
    let checker = Checker::new(&bench, ch);
    let skin = ch.ours.skin;
    let rest = Vec3::new(0.0, skin, 0.0);
    assert!(checker.penetration(rest).0 == 0.0 && !checker.near(rest));
    let sunk = Vec3::new(0.0, -0.06, 0.0);
    let mut found = Findings::default();
    let r = Record {
        start: rest,
        desired: Vec3::new(0.05, 0.0, 0.0),
        end: sunk,
    };
    checker.check(0, 0, &r, &mut found);
    assert!(
        found.inside == 1 && found.fell == 1 && found.near == 1,
        "sunk"
    );
    // At the wall (its face z = 1): head-on is blocked, at 45° the way along it is free.
    let at_wall = Vec3::new(0.0, skin, 1.0 - ch.ours.radius - skin);
    assert!(!checker.free_way(at_wall, Vec3::new(0.0, 0.0, 0.05)));
    assert!(checker.free_way(at_wall, Vec3::new(0.05, 0.0, 0.05)));
    let mut found = Findings::default();
    let stuck = Record {
        start: at_wall,
        desired: Vec3::new(0.05, 0.0, 0.05),
        end: at_wall,
    };
    checker.check(0, 0, &stuck, &mut found);
    assert!(found.stuck == 1 && found.inside == 0, "stuck at 45°");
    // A riser of 0.2 m is a way on, one of 0.42 m is not, even at 15° from its normal.
    for (riser, free) in [(0.2f32, true), (0.42, false)] {
        let scene = Scene::from_objects([
            (
                ObjectId(1),
                Static::Aabb(Aabb::new(
                    Vec3::new(-50.0, -1.0, -50.0),
                    Vec3::new(50.0, 0.0, 50.0),
                )),
            ),
            (
                ObjectId(2),
                Static::Aabb(Aabb::new(
                    Vec3::new(0.0, 0.0, -2.0),
                    Vec3::new(2.0, riser, 2.0),
                )),
            ),
        ]);
        let bench = Bench {
            name: "self-test",
            rapier: Rapier::from_scene(&scene),
            scene,
            floor: Floor::Flat {
                min: Vec2::splat(-50.0),
                max: Vec2::splat(50.0),
                top: 0.0,
            },
            motions: bench.motions.clone(),
            notes: Vec::new(),
        };
        let checker = Checker::new(&bench, ch);
        let at_riser = Vec3::new(-ch.ours.radius - skin, skin, 0.0);
        for h in [Vec3::new(0.1, 0.0, 0.0), Vec3::new(0.1, 0.0, 0.027)] {
            assert_eq!(checker.free_way(at_riser, h), free, "riser {riser}, {h:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Report.
// ---------------------------------------------------------------------------------------------------------

fn us(seconds: f64) -> String {
    format!("{:.2}", seconds * 1e6)
}

fn case_line(scene: &str, kind: &str, c: &Case) -> String {
    let r = &c.record;
    format!(
        "  - {scene} {kind}: frame {}, character {}: feet ({:.6}, {:.6}, {:.6}), motion ({:.6}, {:.6}, {:.6}) -> \
         ({:.6}, {:.6}, {:.6}); {} {:.4} m{}",
        c.frame,
        c.character,
        r.start.x,
        r.start.y,
        r.start.z,
        r.desired.x,
        r.desired.y,
        r.desired.z,
        r.end.x,
        r.end.y,
        r.end.z,
        if kind == "inside" { "depth" } else { "moved" },
        c.amount,
        c.object
            .map_or_else(String::new, |o| format!(", object #{}", o.0)),
    )
}

/// collidoscope's own account of a recorded move, replayed: its limit, hits and step attempts.
fn workings(b: &Bench, ch: &Characters, r: &Record) -> String {
    let c = &ch.ours;
    let m = c.move_character(&b.scene, r.start, r.desired);
    let name = |id: ObjectId| format!("#{}", id.0);
    let mut out = format!(
        "    replayed: feet ({:.6}, {:.6}, {:.6}), grounded {}, limit: {}\n",
        m.feet.x,
        m.feet.y,
        m.feet.z,
        m.grounded,
        m.limit.as_ref().map_or_else(
            || "none".to_string(),
            |l| l.describe(c.max_step, c.max_slope_deg, name)
        )
    );
    for h in &m.hits {
        out.push_str(&format!(
            "    hit #{} at ({:.3}, {:.3}, {:.3}), normal ({:.3}, {:.3}, {:.3}), iteration {}\n",
            h.object.0,
            h.point.x,
            h.point.y,
            h.point.z,
            h.normal.x,
            h.normal.y,
            h.normal.z,
            h.iteration
        ));
    }
    for st in &m.trace.steps {
        out.push_str(&format!(
            "    step: obstacle #{}, lift {:.3}, forward {:.3}, riser {:?}, taken {}, refused {:?}\n",
            st.obstacle.0, st.lift, st.forward, st.riser, st.taken, st.refused
        ));
    }
    out
}

fn report(benches: &[Bench], singles: &[Single], ch: &Characters, since: SystemTime) {
    self_test(ch);
    let mut out = String::from("\n# Character controller: collidoscope against rapier3d 0.36\n\n");
    for b in benches {
        for n in &b.notes {
            out.push_str(&format!("- {n}\n"));
        }
    }
    out.push_str(&format!(
        "- {CHARACTERS} characters x {FRAMES} frames at 60 Hz per scene; rapier3d normal_nudge_factor {}; load \
         average at the report: {}\n",
        ch.theirs.normal_nudge_factor,
        std::fs::read_to_string("/proc/loadavg")
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|_| "-".into())
    ));
    // Timing pass, alternating engines.
    let mut rows = Vec::new();
    let cases: Vec<(&str, &Scene, &Rapier, &Motions)> = benches
        .iter()
        .map(|b| (b.name, &b.scene, &b.rapier, &b.motions))
        .chain(
            singles
                .iter()
                .map(|s| (s.name, &s.scene, &s.rapier, &s.motions)),
        )
        .collect();
    for (name, scene, rapier, motions) in &cases {
        let moves = motions.moves();
        let (mut ours, mut theirs) = (PassTimes::default(), PassTimes::default());
        // Short cases are repeated within a run for a tick-exact CPU time.
        let reps = (20_000 / moves).max(1);
        for _ in 0..PASS_REPEATS {
            ours.time(moves * reps, || {
                (0..reps)
                    .map(|_| run_collidoscope(scene, ch, motions, |_, _, _| {}))
                    .sum()
            });
            theirs.time(moves * reps, || {
                (0..reps)
                    .map(|_| run_rapier(rapier, ch, motions, |_, _, _| {}))
                    .sum()
            });
        }
        let group = if benches.iter().any(|b| b.name == *name) {
            format!("character_{name}")
        } else {
            format!("character_single_{name}")
        };
        let crit = |f: &str| {
            criterion_mean(&group, f, since).map(|e| e.map(|ns| ns * 1e-9 / moves as f64))
        };
        let (co, cr) = (crit("collidoscope"), crit("rapier3d"));
        let crit_cell = |e: Option<[f64; 3]>| {
            e.map_or_else(
                || "-".to_string(),
                |[lo, p, hi]| format!("{} [{} .. {}]", us(p), us(lo), us(hi)),
            )
        };
        let ratio = match (co, cr) {
            (Some(o), Some(r)) => format!("{:.2}", r[1] / o[1]),
            _ => "-".into(),
        };
        rows.push(format!(
            "| {name} | {moves} | {} | {} | **{ratio}** | {} / {} | {} / {} | {:.2} | {:.2} |",
            crit_cell(co),
            crit_cell(cr),
            ours.spread(true),
            theirs.spread(true),
            ours.spread(false),
            theirs.spread(false),
            theirs.best_cpu() / ours.best_cpu(),
            theirs.best_wall() / ours.best_wall(),
        ));
    }
    out.push_str(
        "\n## Time per move, µs\n\nCriterion: the mean estimate per move [95% interval], one iteration being a whole \
         run. Timing pass: each run's CPU time per move (collidoscope / rapier3d, the runs in order, the engines \
         alternating), then the wall time; its ratios compare the best run of each. Ratios are rapier3d / \
         collidoscope: above 1, collidoscope is faster.\n\n\
         | scene | moves | collidoscope (criterion) | rapier3d (criterion) | ratio (criterion) \
         | CPU per run: collidoscope / rapier3d | wall per run: collidoscope / rapier3d | ratio (CPU, best) \
         | ratio (wall, best) |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in &rows {
        out.push_str(r);
        out.push('\n');
    }
    // Correctness.
    out.push_str(&format!(
        "\n## Correctness on the same moves\n\ninside: penetration above {} mm (parry3d `contact`, every engine); \
         within skin/2: the body with its radius grown by half the skin overlaps something (`Scene::overlap_capsule`, \
         collidoscope's own guarantee); stuck: moved less than {}% of the horizontal motion while a way within 60° \
         of it was free; blocked: as short, with no way free; progress: horizontal distance moved over distance \
         asked.\n\n\
         | scene | engine | moves | inside (moves / characters) | worst penetration, mm | within skin/2 \
         | stuck (moves / characters) | blocked | short moves starting inside | fell through (moves / characters) \
         | left the level | progress |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        INSIDE_DEPTH * 1e3,
        STUCK_FRACTION * 100.0
    ));
    let mut cases_out = String::new();
    for b in benches {
        let checker = Checker::new(b, ch);
        let ours = checker.findings(|rec| run_collidoscope(&b.scene, ch, &b.motions, rec));
        let theirs = checker.findings(|rec| run_rapier(&b.rapier, ch, &b.motions, rec));
        for (engine, f) in [("collidoscope", &ours), ("rapier3d", &theirs)] {
            out.push_str(&format!(
                "| {} | {engine} | {} | {} / {} | {:.2} | {} | {} / {} | {} | {} | {} / {} | {} | {:.3} |\n",
                b.name,
                f.moves,
                f.inside,
                f.inside_characters.len(),
                f.worst_depth * 1e3,
                f.near,
                f.stuck,
                f.stuck_characters.len(),
                f.blocked,
                f.started_inside,
                f.fell,
                f.fell_characters.len(),
                f.left_characters.len(),
                f.moved / f.desired.max(1e-9),
            ));
            for (kind, cases) in [("inside", &f.inside_cases), ("stuck", &f.stuck_cases)] {
                for c in cases {
                    cases_out.push_str(&case_line(b.name, kind, c));
                    cases_out.push_str(&format!(" ({engine})\n"));
                    if engine == "collidoscope" {
                        cases_out.push_str(&workings(b, ch, &c.record));
                    }
                }
            }
        }
    }
    if !cases_out.is_empty() {
        out.push_str(&format!(
            "\nFirst failing moves (up to {CASES_KEPT} per scene, engine and kind):\n\n{cases_out}"
        ));
    }
    // Where the single characters ended.
    out.push_str("\n## Single characters: where each engine ended\n\n");
    for s in singles {
        let end = |f: Vec3| format!("({:.3}, {:.3}, {:.3})", f.x, f.y, f.z);
        out.push_str(&format!(
            "- {} ({} moves): collidoscope {}, rapier3d {}\n",
            s.name,
            s.motions.moves(),
            end(run_collidoscope(&s.scene, ch, &s.motions, |_, _, _| {})),
            end(run_rapier(&s.rapier, ch, &s.motions, |_, _, _| {})),
        ));
    }
    out.push_str(&riding::report(600));
    println!("{out}");
}

fn main() {
    let since = SystemTime::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = std::env::var("CHARACTER_REPORT").unwrap_or_default();
    if mode == "riding" {
        // The riding scene alone (10 s of riding); the full report includes it.
        println!("{}", riding::report(600));
        return;
    }
    let in_cargo_bench = args.iter().any(|a| a == "--bench");
    let quick = !in_cargo_bench && mode != "only";
    let (characters, frames) = if quick { (8, 20) } else { (CHARACTERS, FRAMES) };
    let ch = Characters::new();
    let built = Instant::now();
    let scenes = [
        terrain_scene(characters, frames, &ch),
        playground_scene(characters, frames, &ch),
    ];
    let singles = singles(&ch, quick);
    if !quick {
        eprintln!("scenes built in {:.2} s", built.elapsed().as_secs_f64());
    }
    if mode != "only" {
        let mut c = Criterion::default().configure_from_args();
        benches(&mut c, &scenes, &singles, &ch);
        c.final_summary();
    }
    let filtered = args.iter().any(|a| !a.starts_with('-'));
    if mode != "0" && (mode == "only" || (in_cargo_bench && !filtered)) {
        report(&scenes, &singles, &ch, since);
    }
}
