//! Moving makes no heap allocation when nobody asks for a fresh answer: `move_character_into` and
//! `move_character_untraced` reuse the caller's `CharacterMove`, and the scene's queries (the tree's, the
//! meshes') keep their scratch memory per thread. Counted by this binary's global allocator, per thread (the
//! other tests run on other threads), and checked against `move_character` bit for bit.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use collidoscope::character::{CharacterController, CharacterMove};
use collidoscope::glam::{Mat3, Vec3};
use collidoscope::level::ObjectId;
use collidoscope::mesh::TriMesh;
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::{Aabb, Obb};
use proptest::prelude::*;

use crate::guarantees::{config, object};

/// The system allocator, counting each thread's allocations (and reallocations).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // Gone at thread teardown: nothing to count then.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed to `System` unchanged; counting touches only a const-initialised thread-local
// `Cell` (no allocation, no destructor), so it cannot recurse into the allocator.
#[expect(
    unsafe_code,
    reason = "a global allocator is an unsafe trait; this one forwards to System"
)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees for `layout` are passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with this `layout` (every allocation here does).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as `dealloc`, and the caller's guarantees for `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations this thread makes while running `f`.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// A rolling terrain mesh (0.5 m cells over 20 m) with crates sunk into it: low ones to step onto, tall ones
/// to slide along and into corners between.
fn terrain() -> Scene {
    const N: usize = 40;
    let height = |x: f32, z: f32| 0.25 * (0.7 * x).sin() * (0.5 * z).cos();
    let mut vertices = Vec::new();
    for i in 0..=N {
        for j in 0..=N {
            let (x, z) = (i as f32 * 0.5 - 10.0, j as f32 * 0.5 - 10.0);
            vertices.push(Vec3::new(x, height(x, z), z));
        }
    }
    let k = |i: usize, j: usize| (i * (N + 1) + j) as u32;
    let mut indices = Vec::new();
    for i in 0..N {
        for j in 0..N {
            indices.push([k(i, j), k(i, j + 1), k(i + 1, j + 1)]);
            indices.push([k(i, j), k(i + 1, j + 1), k(i + 1, j)]);
        }
    }
    let mut objects = vec![Static::Mesh(TriMesh::new(vertices, indices).unwrap())];
    for (c, half, top, yaw) in [
        (
            Vec3::new(2.0, 0.0, 0.5),
            Vec3::new(0.6, 0.0, 1.5),
            1.6,
            0.3f32,
        ),
        (
            Vec3::new(3.5, 0.0, -1.5),
            Vec3::new(0.8, 0.0, 0.6),
            1.6,
            -0.4,
        ),
        (
            Vec3::new(-2.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 1.0),
            0.45,
            0.8,
        ),
        (
            Vec3::new(-4.0, 0.0, -2.0),
            Vec3::new(0.7, 0.0, 0.7),
            0.3,
            0.0,
        ),
    ] {
        let half = Vec3::new(half.x, (top + 1.0) * 0.5, half.z);
        let center = Vec3::new(c.x, top - half.y, c.z);
        objects.push(Static::Obb(Obb::new(
            center,
            half,
            Mat3::from_rotation_y(yaw),
        )));
    }
    // A low box on the walk's way back: stepped onto and off.
    objects.push(Static::Aabb(Aabb::new(
        Vec3::new(0.0, -1.0, 1.9),
        Vec3::new(1.5, 0.25, 2.4),
    )));
    Scene::from_objects(
        objects
            .into_iter()
            .enumerate()
            .map(|(i, s)| (ObjectId(i as u32 + 1), s)),
    )
}

/// A walk over the terrain: into crates, along them, up the low ones, into corners; with gravity.
fn motions() -> Vec<Vec3> {
    (0..240)
        .map(|k| {
            let a = k as f32 * 0.05;
            Vec3::new(a.cos(), 0.0, (0.7 * a).sin()).normalize() * 0.12 + Vec3::new(0.0, -0.08, 0.0)
        })
        .collect()
}

fn walk(
    c: &CharacterController,
    scene: &Scene,
    motions: &[Vec3],
    traced: bool,
    out: &mut CharacterMove,
) {
    let mut feet = Vec3::new(0.0, 1.0, 0.0);
    for &motion in motions {
        if traced {
            c.move_character_into(scene, feet, motion, out);
        } else {
            c.move_character_untraced(scene, feet, motion, out);
        }
        feet = out.feet;
    }
}

#[test]
fn moves_into_a_kept_answer_allocate_nothing_once_warm() {
    let scene = terrain();
    let c = CharacterController::default();
    // The walk meets what it should: steps climbed, walls and corners met, meshes swept.
    let reference: Vec<CharacterMove> = {
        let mut feet = Vec3::new(0.0, 1.0, 0.0);
        motions()
            .into_iter()
            .map(|m| {
                let r = c.move_character(&scene, feet, m);
                feet = r.feet;
                r
            })
            .collect()
    };
    assert!(reference.iter().any(|m| m.stepped_up > 0.0));
    assert!(reference.iter().any(|m| m.limit.is_some()));
    assert!(reference.iter().filter(|m| m.grounded).count() > 200);
    for traced in [false, true] {
        let mut out = CharacterMove::default();
        // Warm: one move, a fall onto the terrain (the first to meet the mesh).
        let start = Vec3::new(0.0, 1.0, 0.0);
        let first = Vec3::new(0.1, -2.0, 0.0);
        if traced {
            c.move_character_into(&scene, start, first, &mut out);
        } else {
            c.move_character_untraced(&scene, start, first, &mut out);
        }
        // The same move again, and the whole walk: nothing allocated.
        let again = allocations(|| {
            for _ in 0..50 {
                if traced {
                    c.move_character_into(&scene, start, first, &mut out);
                } else {
                    c.move_character_untraced(&scene, start, first, &mut out);
                }
            }
        });
        assert_eq!(again, 0, "traced {traced}: the same move repeated");
        let motions = motions();
        let whole = allocations(|| walk(&c, &scene, &motions, traced, &mut out));
        assert_eq!(whole, 0, "traced {traced}: a walk of 240 moves");
    }
    // The fresh answer allocates (its lists), which is what the kept one saves.
    let fresh = allocations(|| {
        let _ = c.move_character(&scene, Vec3::new(0.0, 1.0, 0.0), motions()[0]);
    });
    assert!(fresh > 0);
}

#[test]
fn moves_into_a_kept_answer_equal_fresh_ones_along_a_walk() {
    let scene = terrain();
    let c = CharacterController::default();
    let (mut traced, mut untraced) = (CharacterMove::default(), CharacterMove::default());
    let mut feet = Vec3::new(0.0, 1.0, 0.0);
    for motion in motions() {
        let fresh = c.move_character(&scene, feet, motion);
        c.move_character_into(&scene, feet, motion, &mut traced);
        c.move_character_untraced(&scene, feet, motion, &mut untraced);
        assert_eq!(traced, fresh);
        assert_eq!(
            untraced,
            CharacterMove {
                trace: Default::default(),
                ..fresh.clone()
            }
        );
        feet = fresh.feet;
    }
}

proptest! {
    #![proptest_config(config(200))]

    /// On random levels, walks of random moves (long dashes, jumps, falls, starts inside included) answer
    /// through a kept `CharacterMove` exactly as fresh: traced bit for bit, untraced but for the trace.
    #[test]
    fn kept_answers_equal_fresh_ones_on_random_levels(
        objects in prop::collection::vec(object(), 0..12),
        start in (-6.0f32..6.0, 0.0f32..3.0, -6.0f32..6.0),
        moves in prop::collection::vec((-1.0f32..1.0, -1.0f32..0.6, -1.0f32..1.0, 0u8..10), 1..20),
    ) {
        let scene = Scene::from_objects(
            std::iter::once(Static::Aabb(Aabb::new(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0))))
                .chain(objects)
                .enumerate()
                .map(|(i, s)| (ObjectId(i as u32 + 1), s)),
        );
        let c = CharacterController::default();
        let (mut traced, mut untraced) = (CharacterMove::default(), CharacterMove::default());
        let mut feet = Vec3::new(start.0, start.1, start.2);
        for (x, y, z, kind) in moves {
            let scale = match kind { 0 => 20.0, 1..=4 => 1.0, _ => 0.15 };
            let motion = Vec3::new(x, y, z) * scale;
            let fresh = c.move_character(&scene, feet, motion);
            c.move_character_into(&scene, feet, motion, &mut traced);
            c.move_character_untraced(&scene, feet, motion, &mut untraced);
            prop_assert_eq!(&traced, &fresh);
            prop_assert_eq!(&untraced, &CharacterMove { trace: Default::default(), ..fresh.clone() });
            feet = fresh.feet;
        }
    }
}
