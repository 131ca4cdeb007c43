//! The movers' pass at each time gives the same bits however it is organised: a hash of every moved entry's
//! shape and boxes, the movers' states and the moved objects' tree, at many times and through starts, resets
//! and edits, against the value the first (straightforward) pass gave.

#![allow(clippy::unwrap_used)]

use glam::Vec3;

use crate::id::ObjectId;
use crate::level::Level;
use crate::scene::Scene;
use crate::shape::Aabb;
use crate::statics::Static;

/// Boxes, a triangle, a cylinder and a mesh moved along two- and many-point paths (one with a zero-length leg)
/// in every repeat mode, a door ceiling and a lift floor of sectors, a whole sector, and trigger starts.
const LEVEL: &str = r#"(version: 3,
    aabbs: [
        (id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0)),
        (id: 2, min: (4.0, 1.0, 0.0), max: (6.0, 1.2, 2.0)),
        (id: 3, min: (-8.0, 2.0, 3.0), max: (-6.0, 2.2, 5.0)),
        (id: 4, min: (10.0, 0.0, 10.0), max: (11.0, 3.0, 11.0)),
        (id: 5, min: (20.0, 0.0, -3.0), max: (21.0, 1.0, -2.0)),
        (id: 6, min: (-20.0, 0.0, -20.0), max: (20.0, 0.1, 20.0)),
    ],
    triangles: [(id: 7, a: (0.0, 1.0, -5.0), b: (1.0, 1.0, -5.0), c: (0.0, 1.0, -4.0))],
    cylinders: [(id: 8, a: (3.0, 0.0, -3.0), b: (3.0, 2.0, -3.0), radius: 0.4)],
    meshes: [(id: 9, vertices: [(0.0, 0.0, 8.0), (2.0, 0.0, 8.0), (0.0, 0.0, 10.0), (2.0, 0.5, 10.0)],
        indices: [(0, 2, 1), (1, 2, 3)])],
    sectors: [
        (id: 20, outline: [(30.0, 0.0), (40.0, 0.0), (40.0, 10.0), (30.0, 10.0)], floor: (height: 0.0), ceiling: (height: 4.0)),
        (id: 21, outline: [(40.0, 4.0), (41.0, 4.0), (41.0, 6.0), (40.0, 6.0)], floor: (height: 0.0), ceiling: (height: 0.1)),
        (id: 22, outline: [(30.0, 10.0), (34.0, 10.0), (34.0, 14.0), (30.0, 14.0)], floor: (height: 0.0), ceiling: (height: 5.0)),
        (id: 23, outline: [(50.0, 0.0), (52.0, 0.0), (52.0, 2.0), (50.0, 2.0)], floor: (height: 1.0), ceiling: (height: 3.0)),
    ],
    triggers: [(id: 50, shape: Aabb((min: (8.0, 0.0, 3.5), max: (10.0, 2.0, 6.5))))],
    movers: [
        (id: 101, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: 2.0, wait: 1.0),
        (id: 102, object: 2, path: [(0.0, 0.0, 0.0), (3.0, 0.0, 0.0), (3.0, 0.0, 3.0), (0.0, 1.0, 3.0)],
            speed: 1.7, wait: 0.25, repeat: Loop),
        (id: 103, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (-4.0, 0.3, 0.0)], speed: 2.5, repeat: Once,
            start: OnTrigger(50)),
        (id: 104, object: 4, path: [(0.0, 0.0, 0.0), (0.0, -2.5, 0.0)], speed: 1.5, wait: 0.5, repeat: Once),
        (id: 105, object: 5, path: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], speed: 0.3, start: OnTrigger(50)),
        (id: 106, object: 6, path: [(0.0, 0.0, 0.0), (0.1, 0.0, 0.0), (0.1, 0.0, 0.1)], speed: 0.05, wait: 2.0),
        (id: 107, object: 7, path: [(0.0, 0.0, 0.0), (0.5, 0.5, 0.5)], speed: 0.9, wait: 0.1),
        (id: 108, object: 8, path: [(0.0, 0.0, 0.0), (-2.0, 0.0, 0.0), (-2.0, 0.0, 2.0)], speed: 3.0, repeat: Loop),
        (id: 109, object: 9, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 0.0)], speed: 1.1, wait: 0.3),
        (id: 110, object: 20, part: Floor, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 2.0, wait: 1.5),
        (id: 111, object: 21, part: Ceiling, path: [(0.0, 0.0, 0.0), (0.0, 2.4, 0.0)], speed: 1.5, repeat: Once,
            start: OnTrigger(50)),
        (id: 112, object: 23, path: [(0.0, 0.0, 0.0), (0.0, 0.0, 3.0)], speed: 0.7, wait: 0.2),
    ])"#;

/// FNV-1a, written here so the expected value never depends on the standard library's hasher.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn text(&mut self, v: &impl std::fmt::Debug) {
        self.bytes(format!("{v:?}").as_bytes());
    }

    fn aabb(&mut self, b: &Aabb) {
        for x in b.min.to_array().into_iter().chain(b.max.to_array()) {
            self.bytes(&x.to_bits().to_le_bytes());
        }
    }
}

/// Every moved entry's shape (its `Debug` text: shortest round-trip floats, a mesh's vertices and nodes too)
/// and scene box, the moved tree's item boxes and the tree itself, each mover's state, the generation, and
/// the moved entries a grid of boxes finds in the tree.
fn snapshot(scene: &Scene, h: &mut Fnv) {
    for (i, s) in scene.shapes.iter().enumerate() {
        if scene.is_moving_entry(i) {
            h.text(s);
            h.aabb(&scene.boxes[i]);
        }
    }
    for b in &scene.moving.boxes {
        h.aabb(b);
    }
    h.text(&scene.moving.tree);
    h.text(&scene.movers());
    h.bytes(&scene.generation.to_le_bytes());
    for x in (-24..56).step_by(4) {
        for z in (-24..24).step_by(4) {
            let lo = Vec3::new(x as f32, -1.0, z as f32);
            let mut found = Vec::new();
            scene.moving_query(lo, lo + Vec3::new(4.0, 8.0, 4.0), |i| found.push(i));
            found.sort_unstable();
            h.text(&found);
        }
    }
}

/// The pass at 30 Hz for 12 s, then odd times (ends of legs, far future, before 0, back in time), with
/// trigger starts, a restart, a reset and an edited moved object between them.
fn run() -> u64 {
    let level = Level::from_ron_str(LEVEL).unwrap();
    let mut scene = Scene::from_level(&level).unwrap();
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    snapshot(&scene, &mut h);
    for k in 0..360 {
        let t = k as f32 / 30.0;
        if k == 75 {
            assert_eq!(scene.start_triggered(ObjectId(50), t).len(), 3);
        }
        scene.set_time(t);
        snapshot(&scene, &mut h);
    }
    for t in [
        2.0,
        3.0,
        4.0,
        1.0e5 + 0.3,
        123.456,
        -1.0,
        0.0,
        7.5,
        7.5,
        2.6,
    ] {
        scene.set_time(t);
        snapshot(&scene, &mut h);
    }
    scene.set_mover_start(ObjectId(103), Some(6.9));
    snapshot(&scene, &mut h);
    scene.start_mover(ObjectId(105), 1.0);
    snapshot(&scene, &mut h);
    scene.set_object(
        ObjectId(1),
        Some(Static::Aabb(Aabb::new(
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.5, 0.4, 1.0),
        ))),
    );
    scene.set_object(
        ObjectId(7),
        Some(Static::Aabb(Aabb::new(
            Vec3::new(0.0, 1.0, -5.0),
            Vec3::new(1.0, 1.1, -4.0),
        ))),
    );
    snapshot(&scene, &mut h);
    for k in 0..90 {
        scene.set_time(8.0 + k as f32 * 0.07);
        snapshot(&scene, &mut h);
    }
    scene.reset_movers();
    snapshot(&scene, &mut h);
    scene.set_object(ObjectId(2), None);
    for k in 0..60 {
        scene.set_time(3.0 + k as f32 * 0.11);
        snapshot(&scene, &mut h);
    }
    h.0
}

#[test]
fn the_movers_pass_keeps_its_bits() {
    let got = run();
    assert_eq!(run(), got, "the pass is not a pure function of its inputs");
    assert_eq!(got, EXPECTED, "got {got:#018x}");
}

/// What the straightforward pass (every mover's path asked through `MoverPath::at`, every entry rewritten
/// from its base) gave.
const EXPECTED: u64 = 0xe101_72fa_c612_eb6b;
