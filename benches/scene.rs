//! The game bridge (issue 15), side by side in one run:
//!
//! - `scene_cast_ray/{maze_10k, maze_100k}`: `Scene::cast_ray` on the largest sample level's size (10,000 walls)
//!   and on 100,000 walls, against `TriMesh::cast_ray` (the mesh BVH: the fastest single-structure path in the
//!   crate) over the same walls as closed boxes (10 triangles each), with the same rays.
//! - `scene_sweep/{1k, 10k, 100k}` and `scene_overlap/...`: `Scene::sweep_sphere` and `Scene::overlap_sphere` at
//!   three sizes with the same local queries: the time per query must grow far slower than the object count.
//! - `scene_sweep_capsule/{floor_triangles, floor_mesh}`: `Scene::sweep_capsule`, the character controller's
//!   query, for a character-sized capsule taking steps of a few centimetres (with a little gravity) over a
//!   40 m floor of 3,200 triangles (as triangle objects, or as one mesh) with 200 boxes (steps, crates) and 40
//!   walls on it, resting on the floor, a hair above it, or on a box; time per query.
//! - `record/{plain, recorded}`: 10,000 mixed queries (ray, sweep, overlap, slide) per frame on the 10,000-wall
//!   maze, asked of the `Scene` directly and through a `Recorder` (one frame per iteration); the encoded bytes
//!   per query are printed.
//! - Before the groups: the live link streams 120 frames of 10,000 queries at 60 frames per second over
//!   loopback to a `Listener` polled on another thread; frames sent, received and dropped are printed.
//!
//! At the end a table gives the ratios (fastest sample of each side). Scenes: `generate::maze` with N walls
//! (2 m cells, collision distance 0.1, height 3 m); rays and spheres from a seeded SplitMix64.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use collidoscope::generate::{MazeParams, maze};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{AabbObject, Level, MeshObject, ObjectId, TriangleObject, WallObject};
use collidoscope::mesh::TriMesh;
use collidoscope::record::{Listener, LiveEvent, Recorder, RecorderConfig};
use collidoscope::scene::Scene;
use collidoscope::shape::{Capsule, Ray, Sphere};
use criterion::{Criterion, Throughput};

struct Rng(u64);
impl Rng {
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        lo + (hi - lo) * ((z >> 40) as f32 / (1u64 << 24) as f32)
    }
}

static BEST: Mutex<BTreeMap<String, Duration>> = Mutex::new(BTreeMap::new());

fn note(key: &str, per_iter: Duration) {
    let mut m = BEST
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let e = m.entry(key.to_owned()).or_insert(per_iter);
    *e = (*e).min(per_iter);
}

fn best(key: &str) -> Option<Duration> {
    BEST.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(key)
        .copied()
}

fn level(walls: usize) -> Level {
    let mut l = maze(&MazeParams {
        walls,
        balls: 0,
        seed: 1,
        cell: 2.0,
    });
    l.planes.clear(); // the floor: a plane every ray aimed down would hit first
    l
}

/// The walls as closed boxes (sides and top, bottom on the floor), one mesh.
fn walls_mesh(l: &Level) -> TriMesh {
    let mut v = Vec::new();
    let mut idx = Vec::new();
    for w in &l.walls {
        let h = w.height.unwrap_or(l.default_wall_height);
        let d = (w.b - w.a).normalize_or(Vec2::X);
        let n = d.perp() * w.radius.max(0.01);
        let (a, b) = (w.a - d * w.radius, w.b + d * w.radius);
        let base = v.len() as u32;
        for p in [a - n, b - n, b + n, a + n] {
            v.push(Vec3::new(p.x, 0.0, p.y));
            v.push(Vec3::new(p.x, h, p.y));
        }
        // Quad (i, j) of the four sides, then the top.
        for k in 0..4u32 {
            let (i, j) = (base + 2 * k, base + 2 * ((k + 1) % 4));
            idx.push([i, j, j + 1]);
            idx.push([i, j + 1, i + 1]);
        }
        idx.push([base + 1, base + 3, base + 5]);
        idx.push([base + 1, base + 5, base + 7]);
    }
    TriMesh::new(v, idx).expect("wall boxes")
}

fn rays(l: &Level, n: usize, seed: u64) -> Vec<Ray> {
    let b = l.bounds().expect("bounds");
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            let o = Vec3::new(r.f(b.min.x, b.max.x), r.f(0.2, 2.8), r.f(b.min.z, b.max.z));
            let a = r.f(0.0, std::f32::consts::TAU);
            Ray::new(o, Vec3::new(a.cos(), r.f(-0.2, 0.2), a.sin()))
        })
        .collect()
}

/// Spheres near the maze's corner (the same places at every size), with motions of up to 3 m.
fn spheres(n: usize, seed: u64) -> Vec<(Sphere, Vec3)> {
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            let c = Vec3::new(r.f(0.0, 40.0), r.f(0.3, 2.5), r.f(0.0, 40.0));
            let m = Vec3::new(r.f(-3.0, 3.0), r.f(-0.5, 0.5), r.f(-3.0, 3.0));
            (Sphere::new(c, r.f(0.1, 0.6)), m)
        })
        .collect()
}

fn mixed(rec: Option<&mut Recorder>, scene: &Scene, qs: &[(Sphere, Vec3)], rs: &[Ray]) {
    match rec {
        Some(rec) => {
            for (i, ((s, m), r)) in qs.iter().zip(rs).enumerate() {
                match i % 4 {
                    0 => drop(black_box(rec.cast_ray(scene, r, 60.0))),
                    1 => drop(black_box(rec.sweep_sphere(scene, s, *m))),
                    2 => drop(black_box(rec.overlap_sphere(scene, s))),
                    _ => drop(black_box(rec.move_and_slide(
                        scene,
                        Vec2::new(s.center.x, s.center.z),
                        0.3,
                        Vec2::new(m.x, m.z),
                    ))),
                }
            }
        }
        None => {
            for (i, ((s, m), r)) in qs.iter().zip(rs).enumerate() {
                match i % 4 {
                    0 => drop(black_box(scene.cast_ray(r, 60.0))),
                    1 => drop(black_box(scene.sweep_sphere(s, *m))),
                    2 => drop(black_box(scene.overlap_sphere(s))),
                    _ => drop(black_box(scene.move_and_slide(
                        Vec2::new(s.center.x, s.center.z),
                        0.3,
                        Vec2::new(m.x, m.z),
                    ))),
                }
            }
        }
    }
}

/// The live link at 60 frames per second: (frames sent, received, dropped by the game, missing at the viewer).
fn live_check(
    scene: &Scene,
    level: &Level,
    qs: &[(Sphere, Vec3)],
    rs: &[Ray],
    frames: u64,
) -> (u64, u64, u64, u64) {
    let mut listener = Listener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).expect("bind");
    let addr = listener.local_addr();
    let viewer = std::thread::spawn(move || {
        let mut got = 0u64;
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            for e in listener.poll() {
                if matches!(e, LiveEvent::Frame(_)) {
                    got += 1;
                }
            }
            if got >= frames {
                break;
            }
            std::thread::sleep(Duration::from_millis(16));
        }
        (got, listener.stats().dropped)
    });
    let mut rec = Recorder::new(RecorderConfig::default(), level);
    rec.connect(addr).expect("connect");
    let start = Instant::now();
    for f in 0..frames {
        rec.begin_frame(f as f64 / 60.0);
        mixed(Some(&mut rec), scene, qs, rs);
        let due = start + Duration::from_secs_f64((f + 1) as f64 / 60.0);
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
    }
    rec.flush();
    let stats = rec.live_stats().expect("connected");
    let (got, missing) = viewer.join().expect("viewer");
    (stats.frames, got, stats.dropped, missing)
}

fn benches(c: &mut Criterion) {
    let quick = !std::env::args().any(|a| a == "--bench");
    let sizes: &[(usize, &str)] = if quick {
        &[(1_000, "1k"), (10_000, "10k")]
    } else {
        &[(1_000, "1k"), (10_000, "10k"), (100_000, "100k")]
    };
    let mut scenes = Vec::new();
    for &(n, name) in sizes {
        let l = level(n);
        let s = Scene::from_level(&l).expect("maze scene");
        scenes.push((name, l, s));
    }
    // Ray casts: Scene against the mesh BVH over the same walls.
    for (name, l, scene) in scenes.iter().filter(|(n, ..)| *n != "1k") {
        let mesh = walls_mesh(l);
        let rs = rays(l, 1024, 7);
        let hits = rs
            .iter()
            .filter(|r| scene.cast_ray(r, f32::INFINITY).is_some())
            .count();
        println!(
            "maze_{name}: {} walls, {hits} of {} rays hit",
            l.walls.len(),
            rs.len()
        );
        let mut g = c.benchmark_group(format!("scene_cast_ray/maze_{name}"));
        g.throughput(Throughput::Elements(rs.len() as u64));
        g.sample_size(10);
        g.bench_function("scene", |b| {
            b.iter_custom(|iters| {
                let t = Instant::now();
                for _ in 0..iters {
                    for r in &rs {
                        black_box(scene.cast_ray(r, f32::INFINITY));
                    }
                }
                let e = t.elapsed();
                note(&format!("ray {name} scene"), e / iters as u32);
                e
            });
        });
        g.bench_function("mesh_bvh", |b| {
            b.iter_custom(|iters| {
                let t = Instant::now();
                for _ in 0..iters {
                    for r in &rs {
                        black_box(mesh.cast_ray(r, f32::INFINITY));
                    }
                }
                let e = t.elapsed();
                note(&format!("ray {name} mesh"), e / iters as u32);
                e
            });
        });
        g.finish();
    }
    // Sweeps and overlaps at growing sizes, same queries.
    let qs = spheres(1024, 11);
    for (kind, sweep) in [("sweep", true), ("overlap", false)] {
        let mut g = c.benchmark_group(format!("scene_{kind}"));
        g.throughput(Throughput::Elements(qs.len() as u64));
        g.sample_size(10);
        for (name, _, scene) in &scenes {
            g.bench_function(*name, |b| {
                b.iter_custom(|iters| {
                    let t = Instant::now();
                    for _ in 0..iters {
                        for (s, m) in &qs {
                            if sweep {
                                black_box(scene.sweep_sphere(s, *m));
                            } else {
                                black_box(scene.overlap_sphere(s));
                            }
                        }
                    }
                    let e = t.elapsed();
                    note(&format!("{kind} {name}"), e / iters as u32);
                    e
                });
            });
        }
        g.finish();
    }
    // The character's query: capsule sweeps of a few centimetres over floors of many triangles and boxes.
    let mut g = c.benchmark_group("scene_sweep_capsule");
    g.sample_size(10);
    for (name, as_mesh) in [("floor_triangles", false), ("floor_mesh", true)] {
        let (scene, steps) = character_floor(as_mesh);
        let hits = steps
            .iter()
            .filter(|(cap, m)| scene.sweep_capsule(cap, *m).is_some())
            .count();
        println!(
            "scene_sweep_capsule/{name}: {} objects, {hits} of {} steps touch something",
            scene.len(),
            steps.len()
        );
        g.throughput(Throughput::Elements(steps.len() as u64));
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let t = Instant::now();
                for _ in 0..iters {
                    for (cap, m) in &steps {
                        black_box(scene.sweep_capsule(cap, *m));
                    }
                }
                let e = t.elapsed();
                note(&format!("capsule {name}"), e / iters as u32);
                e
            });
        });
    }
    g.finish();
    // Recording overhead: 10,000 mixed queries per frame.
    let (_, l10, s10) = scenes.iter().find(|(n, ..)| *n == "10k").expect("10k");
    let qs = spheres(10_000, 21);
    let rs = rays(l10, 10_000, 22);
    {
        let mut rec = Recorder::new(RecorderConfig::default(), l10);
        rec.begin_frame(0.0);
        mixed(Some(&mut rec), s10, &qs, &rs);
        println!(
            "recording: {:.1} encoded bytes per query (10,000 mixed queries: {} bytes)",
            rec.bytes() as f64 / 10_000.0,
            rec.bytes()
        );
    }
    let mut g = c.benchmark_group("record");
    g.throughput(Throughput::Elements(10_000));
    g.sample_size(10);
    g.bench_function("plain", |b| {
        b.iter_custom(|iters| {
            let t = Instant::now();
            for _ in 0..iters {
                mixed(None, s10, &qs, &rs);
            }
            let e = t.elapsed();
            note("record plain", e / iters as u32);
            e
        });
    });
    let mut rec = Recorder::new(RecorderConfig::default(), l10);
    g.bench_function("recorded", |b| {
        b.iter_custom(|iters| {
            let t = Instant::now();
            for i in 0..iters {
                rec.begin_frame(i as f64);
                mixed(Some(&mut rec), s10, &qs, &rs);
            }
            let e = t.elapsed();
            note("record recorded", e / iters as u32);
            e
        });
    });
    g.finish();
    if !quick {
        let (sent, got, dropped, missing) = live_check(s10, l10, &qs, &rs, 120);
        println!(
            "live link, 10,000 queries per frame at 60 fps over loopback, 120 frames: sent {sent}, received {got}, \
             dropped by the game {dropped}, missing at the viewer {missing}"
        );
    }
    summary(quick);
}

/// A 40 m floor at y = 0 of 3,200 triangles (triangle objects, or one mesh), 200 boxes (0.1..0.4 high steps
/// and crates) and 40 walls on it; and 1,024 character steps: an upright capsule (radius 0.3, 1.8 tall) resting
/// on the floor, 1 mm to 5 cm above it, or on a box top, moving 1..5 cm with a little gravity.
fn character_floor(as_mesh: bool) -> (Scene, Vec<(Capsule, Vec3)>) {
    let mut rng = Rng(0xC4A2);
    let mut level = Level::default();
    let mut id = 0u32;
    let mut next = || {
        id += 1;
        ObjectId(id)
    };
    let (n, cell) = (40usize, 1.0f32);
    let v = |i: usize, j: usize| Vec3::new(i as f32 * cell - 20.0, 0.0, j as f32 * cell - 20.0);
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for j in 0..n {
        for i in 0..n {
            for (a, b, c) in [
                (v(i, j), v(i, j + 1), v(i + 1, j)),
                (v(i + 1, j), v(i, j + 1), v(i + 1, j + 1)),
            ] {
                if as_mesh {
                    let k = vertices.len() as u32;
                    vertices.extend([a, b, c]);
                    indices.push([k, k + 1, k + 2]);
                } else {
                    level.triangles.push(TriangleObject {
                        id: next(),
                        name: None,
                        a,
                        b,
                        c,
                        properties: Default::default(),
                        one_way: false,
                    });
                }
            }
        }
    }
    if as_mesh {
        level.meshes.push(MeshObject {
            id: next(),
            name: None,
            obj: None,
            vertices,
            indices,
            properties: Default::default(),
            one_way: false,
        });
    }
    let mut tops = Vec::new();
    for _ in 0..200 {
        let c = Vec3::new(rng.f(-19.0, 19.0), 0.0, rng.f(-19.0, 19.0));
        let h = Vec3::new(rng.f(0.2, 1.0), rng.f(0.1, 0.4), rng.f(0.2, 1.0));
        tops.push((c, h));
        level.aabbs.push(AabbObject {
            id: next(),
            name: None,
            min: Vec3::new(c.x - h.x, 0.0, c.z - h.z),
            max: Vec3::new(c.x + h.x, h.y, c.z + h.z),
            properties: Default::default(),
            one_way: false,
        });
    }
    for _ in 0..40 {
        let a = Vec2::new(rng.f(-19.0, 19.0), rng.f(-19.0, 19.0));
        let b = a + Vec2::new(rng.f(-4.0, 4.0), rng.f(-4.0, 4.0));
        level.walls.push(WallObject {
            id: next(),
            name: None,
            a,
            b,
            radius: 0.1,
            height: Some(2.5),
            properties: Default::default(),
        });
    }
    let scene = Scene::from_level(&level).expect("character floor");
    let steps = (0..1024)
        .map(|k| {
            let feet = if k % 4 == 3 {
                let (c, h) = tops[k % tops.len()];
                Vec3::new(c.x + rng.f(-h.x, h.x), h.y, c.z + rng.f(-h.z, h.z))
            } else {
                let lift = match k % 3 {
                    0 => 0.0,
                    1 => rng.f(0.001, 0.01),
                    _ => rng.f(0.01, 0.05),
                };
                Vec3::new(rng.f(-19.0, 19.0), lift, rng.f(-19.0, 19.0))
            };
            let cap = Capsule::new(feet + Vec3::Y * 0.3, feet + Vec3::Y * 1.5, 0.3);
            let dir = rng.f(0.0, std::f32::consts::TAU);
            let len = rng.f(0.01, 0.05);
            (
                cap,
                Vec3::new(dir.cos() * len, -rng.f(0.0, 0.01), dir.sin() * len),
            )
        })
        .collect();
    (scene, steps)
}

fn summary(quick: bool) {
    let ratio = |a: &str, b: &str| match (best(a), best(b)) {
        (Some(x), Some(y)) if !y.is_zero() => Some(x.as_secs_f64() / y.as_secs_f64()),
        _ => None,
    };
    println!("\n--- game bridge ratios (fastest sample each) ---");
    for name in ["10k", "100k"] {
        if let Some(r) = ratio(&format!("ray {name} mesh"), &format!("ray {name} scene")) {
            println!(
                "cast_ray maze_{name}: mesh BVH time / Scene time = {r:.2} (>= 1: Scene at least as fast)"
            );
        }
    }
    let top = if quick { "10k" } else { "100k" };
    for kind in ["sweep", "overlap"] {
        if let Some(r) = ratio(&format!("{kind} {top}"), &format!("{kind} 1k")) {
            println!(
                "{kind}: time per query at {top} walls / at 1k = {r:.2} (linear would be {})",
                if quick { 10 } else { 100 }
            );
        }
    }
    for name in ["floor_triangles", "floor_mesh"] {
        if let Some(t) = best(&format!("capsule {name}")) {
            println!(
                "scene_sweep_capsule/{name}: {:.0} ns per sweep",
                t.as_secs_f64() * 1e9 / 1024.0
            );
        }
    }
    if let Some(r) = ratio("record recorded", "record plain") {
        println!("recording overhead: recorded / plain = {r:.3} (goal <= 1.05, bar <= 1.15)");
    }
}

fn main() {
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    benches(&mut c);
    c.final_summary();
}
