//! The flight recorder, its file format (truncation, damage, garbage), the live link (loopback, bad peers, a
//! slow viewer, a restarting game, a game that starts before the viewer listens), character moves recorded and
//! asked again, and hot reload.

#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use collidoscope::character::{CharacterController, Limit};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{Level, LevelWatcher, ObjectId};
use collidoscope::record::{
    Listener, LiveEvent, QueryRecord, RecordError, Recorder, RecorderConfig, Recording, format,
};
use collidoscope::scene::Scene;
use collidoscope::shape::{Ray, Sphere};
use collidoscope::sim::World;

fn sample(name: &str) -> Level {
    Level::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("levels")
            .join(name),
    )
    .unwrap()
}

struct Rng(u64);
impl Rng {
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn v(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.f(-s, s), self.f(0.0, s * 0.3), self.f(-s, s))
    }
}

/// `n` mixed queries into the current frame; returns what the scene answered, as records.
fn mixed_queries(rec: &mut Recorder, scene: &Scene, rng: &mut Rng, n: usize) -> Vec<QueryRecord> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        match i % 4 {
            0 => {
                let ray = Ray::new(rng.v(10.0), rng.v(1.0) - Vec3::Y * 0.1);
                let hit = rec.cast_ray(scene, &ray, 50.0);
                assert_eq!(hit, scene.cast_ray(&ray, 50.0));
                out.push(QueryRecord::Ray {
                    ray,
                    max_t: 50.0,
                    hit,
                });
            }
            1 => {
                let sphere = Sphere::new(rng.v(10.0), rng.f(0.1, 1.0));
                let motion = rng.v(5.0);
                let toi = rec.sweep_sphere(scene, &sphere, motion);
                assert_eq!(toi, scene.sweep_sphere(&sphere, motion));
                out.push(QueryRecord::Sweep {
                    sphere,
                    motion,
                    toi,
                });
            }
            2 => {
                let sphere = Sphere::new(rng.v(10.0), rng.f(0.1, 3.0));
                let objects = rec.overlap_sphere(scene, &sphere);
                assert_eq!(objects, scene.overlap_sphere(&sphere));
                out.push(QueryRecord::Overlap { sphere, objects });
            }
            _ => {
                let from = Vec2::new(rng.f(-10.0, 10.0), rng.f(-10.0, 10.0));
                let motion = Vec2::new(rng.f(-3.0, 3.0), rng.f(-3.0, 3.0));
                let end = rec.move_and_slide(scene, from, 0.3, motion);
                assert_eq!(end, scene.move_and_slide(from, 0.3, motion));
                out.push(QueryRecord::Slide {
                    from,
                    radius: 0.3,
                    motion,
                    end,
                });
            }
        }
    }
    out
}

/// A character move from a random spot of a 20 m square (on the floor, above it, or inside something) by a
/// random motion with some gravity, recorded; returns the record.
fn random_move(rec: &mut Recorder, scene: &Scene, rng: &mut Rng) -> QueryRecord {
    let controller = CharacterController::default();
    let feet = Vec3::new(rng.f(-10.0, 10.0), rng.f(0.0, 1.0), rng.f(-10.0, 10.0));
    let motion = Vec3::new(rng.f(-1.0, 1.0), rng.f(-0.5, 0.2), rng.f(-1.0, 1.0));
    let result = rec.move_character(scene, &controller, feet, motion);
    assert_eq!(result, controller.move_character(scene, feet, motion));
    QueryRecord::Character {
        controller,
        feet,
        motion,
        result,
    }
}

/// A recording of the magic room: 6 frames of queries (character moves among them), steps and marks.
fn small_recording() -> (Level, Vec<Vec<QueryRecord>>, Vec<u8>) {
    let level = sample("magic_room.ron");
    let scene = Scene::from_level(&level).unwrap();
    let mut world = World::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let mut rng = Rng(1);
    let mut asked = Vec::new();
    for f in 0..6 {
        rec.begin_frame(f64::from(f) / 60.0);
        let mut queries = mixed_queries(&mut rec, &scene, &mut rng, 5 + f as usize);
        if f % 2 == 1 {
            queries.push(random_move(&mut rec, &scene, &mut rng));
        }
        asked.push(queries);
        let report = world.step(1.0 / 60.0);
        rec.record_step(&world, &report);
        if f == 3 {
            rec.mark("the ball bounced");
        }
    }
    let bytes = rec.to_bytes();
    (level, asked, bytes)
}

#[test]
fn round_trip_keeps_every_query_step_and_mark() {
    let (level, asked, bytes) = small_recording();
    let r = Recording::from_bytes(&bytes).unwrap();
    assert!(!r.truncated);
    assert_eq!(r.level, level);
    assert_eq!(r.frames.len(), 6);
    let scene = Scene::from_level(&r.level).unwrap();
    for (f, frame) in r.frames.iter().enumerate() {
        assert_eq!(frame.index, f as u64);
        assert_eq!(frame.time, f as f64 / 60.0);
        assert_eq!(frame.queries, asked[f]);
        assert_eq!(frame.steps.len(), 1);
        assert_eq!(frame.steps[0].balls.len(), level.balls.len());
        assert_eq!(frame.marks.len(), usize::from(f == 3));
        for q in &frame.queries {
            assert_eq!(&q.rerun(&scene), q);
            assert!(q.same_answer(&q.rerun(&scene)));
        }
        assert_eq!(
            frame
                .queries
                .iter()
                .filter(|q| q.kind() == "character")
                .count(),
            f % 2
        );
    }
    // The steps are the world's: replaying the world gives the same balls.
    let mut world = World::from_level(&level).unwrap();
    for frame in &r.frames {
        let report = world.step(1.0 / 60.0);
        assert_eq!(frame.steps[0].balls, world.balls());
        assert_eq!(frame.steps[0].events, report.events);
    }
}

#[test]
fn every_cut_loads_the_whole_frames_before_it() {
    let (_, _, bytes) = small_recording();
    let full = Recording::from_bytes(&bytes).unwrap();
    // Where each frame ends.
    let header_len = format::HEADER_BYTES + full.level.to_ron_string().len();
    let mut ends = vec![header_len];
    let mut at = header_len;
    while at < bytes.len() {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        at += format::FRAME_HEADER_BYTES + len;
        ends.push(at);
    }
    assert_eq!(at, bytes.len());
    for cut in 0..bytes.len() {
        let r = Recording::from_bytes(&bytes[..cut]);
        if cut < header_len {
            let e = r.unwrap_err();
            assert!(!e.to_string().is_empty());
            continue;
        }
        let r = r.unwrap();
        let whole = ends.iter().filter(|&&e| e <= cut).count() - 1;
        assert_eq!(r.frames.len(), whole, "cut at {cut}");
        assert_eq!(r.frames[..], full.frames[..whole]);
        assert_eq!(r.truncated, !ends.contains(&cut), "cut at {cut}");
    }
}

#[test]
fn every_byte_flip_is_an_error_naming_the_frame() {
    let (_, _, bytes) = small_recording();
    let header_len = format::HEADER_BYTES
        + Recording::from_bytes(&bytes)
            .unwrap()
            .level
            .to_ron_string()
            .len();
    for pos in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[pos] ^= flip;
            match Recording::from_bytes(&damaged) {
                Ok(_) => panic!("a flip of {flip:#x} at byte {pos} went unnoticed"),
                Err(RecordError::Frame { frame, offset, .. }) => {
                    assert!(pos >= header_len, "byte {pos}");
                    assert!(offset as usize <= pos && frame < 6);
                }
                Err(e) => {
                    assert!(pos < header_len, "byte {pos}: {e}");
                }
            }
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let (_, _, bytes) = small_recording();
    let mut rng = Rng(99);
    for i in 0..3000 {
        let mut b = if i % 3 == 0 {
            (0..(rng.f(0.0, 400.0) as usize))
                .map(|_| rng.f(0.0, 256.0) as u8)
                .collect::<Vec<u8>>()
        } else {
            bytes.clone()
        };
        // Several random flips and a random cut.
        for _ in 0..(rng.f(1.0, 6.0) as usize) {
            if !b.is_empty() {
                let p = rng.f(0.0, b.len() as f32) as usize % b.len();
                b[p] = rng.f(0.0, 256.0) as u8;
            }
        }
        let cut = rng.f(0.0, b.len() as f32 + 1.0) as usize;
        let _ = Recording::from_bytes(&b[..cut.min(b.len())]);
    }
    // A header claiming a huge level is refused before anything is allocated for it.
    let mut huge = format::encode_header("");
    huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    let crc = crc_of(&huge[..16]);
    huge[16..20].copy_from_slice(&crc.to_le_bytes());
    assert!(matches!(
        Recording::from_bytes(&huge),
        Err(RecordError::Header { .. })
    ));
    assert!(matches!(
        Recording::from_bytes(b"hello"),
        Err(RecordError::NotARecording)
    ));
}

fn crc_of(bytes: &[u8]) -> u32 {
    // The format's checksum (CRC-32, IEEE), computed bit by bit.
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn wrong_version_is_named() {
    let mut h = format::encode_header(&Level::default().to_ron_string());
    h[8..12].copy_from_slice(&7u32.to_le_bytes());
    let crc = crc_of(&h[..16]);
    h[16..20].copy_from_slice(&crc.to_le_bytes());
    let e = Recording::from_bytes(&h).unwrap_err();
    assert!(
        matches!(
            e,
            RecordError::UnsupportedVersion {
                found: 7,
                supported: 1
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("version 7"));
}

#[test]
fn memory_stays_within_the_budget_dropping_whole_old_frames() {
    let level = sample("house.ron");
    let scene = Scene::from_level(&level).unwrap();
    let max_bytes = 20_000;
    let mut rec = Recorder::new(
        RecorderConfig {
            max_bytes,
            ..RecorderConfig::default()
        },
        &level,
    );
    let mut rng = Rng(3);
    for f in 0..200 {
        rec.begin_frame(f64::from(f));
        let _ = mixed_queries(&mut rec, &scene, &mut rng, 40);
        assert!(rec.bytes() <= max_bytes, "{} at frame {f}", rec.bytes());
    }
    assert!(rec.frames_dropped() > 0);
    let r = Recording::from_bytes(&rec.to_bytes()).unwrap();
    assert_eq!(r.frames.len(), rec.frame_count());
    // The newest frames, whole and contiguous.
    let last = r.frames.last().unwrap().index;
    assert_eq!(last, 199);
    for (k, f) in r.frames.iter().enumerate() {
        assert_eq!(f.index, last + 1 - (r.frames.len() - k) as u64);
        assert_eq!(f.queries.len(), 40);
        assert_eq!(f.dropped, 0);
    }
    // bytes() is the exact size of the frames.
    let header = format::HEADER_BYTES + rec.level().to_ron_string().len();
    assert_eq!(rec.to_bytes().len() - header, rec.bytes());

    // One frame larger than the whole budget keeps its first queries and counts the rest.
    let mut small = Recorder::new(
        RecorderConfig {
            max_bytes: 2_000,
            ..RecorderConfig::default()
        },
        &level,
    );
    small.begin_frame(0.0);
    let _ = mixed_queries(&mut small, &scene, &mut rng, 500);
    assert!(small.bytes() <= 2_000);
    let r = Recording::from_bytes(&small.to_bytes()).unwrap();
    assert_eq!(r.frames.len(), 1);
    assert!(r.frames[0].dropped > 0);
    assert_eq!(r.frames[0].queries.len() as u64 + r.frames[0].dropped, 500);
}

#[test]
fn save_and_load_a_file() {
    let (_, _, bytes) = small_recording();
    let dir = tempfile::tempdir().unwrap();
    let level = sample("magic_room.ron");
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let _ = rec.cast_ray(&scene, &Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::X), 100.0);
    let path = dir.path().join("game.crec");
    rec.save(&path).unwrap();
    let r = Recording::load(&path).unwrap();
    assert_eq!(r.frames.len(), 1);
    assert_eq!(r.frames[0].index, 0);
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    assert!(Recording::load(&path).unwrap().truncated);
    let e = Recording::load(&dir.path().join("missing.crec")).unwrap_err();
    assert!(e.to_string().contains("missing.crec"), "{e}");
}

/// Poll until `done` says so or 10 s pass.
fn poll_until(l: &mut Listener, mut done: impl FnMut(&[LiveEvent]) -> bool) -> Vec<LiveEvent> {
    let start = Instant::now();
    let mut all = Vec::new();
    while start.elapsed() < Duration::from_secs(10) {
        all.extend(l.poll());
        if done(&all) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    all
}

fn frames(events: &[LiveEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, LiveEvent::Frame(_)))
        .count()
}

#[test]
fn live_link_streams_frames_and_survives_a_restarting_game() {
    let level = sample("house.ron");
    let scene = Scene::from_level(&level).unwrap();
    let mut listener = Listener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    let addr = listener.local_addr();
    assert!(addr.ip().is_loopback());
    let mut rng = Rng(5);
    for run in 0..2 {
        let mut rec = Recorder::new(RecorderConfig::default(), &level);
        rec.connect(addr).unwrap();
        let mut asked = Vec::new();
        for f in 0..10 {
            rec.begin_frame(f64::from(f));
            asked.push(mixed_queries(&mut rec, &scene, &mut rng, 100));
        }
        rec.flush();
        let events = poll_until(&mut listener, |ev| frames(ev) >= 10);
        let mut iter = events.iter();
        let connected = iter
            .position(|e| matches!(e, LiveEvent::Connected { .. }))
            .is_some();
        assert!(connected, "run {run}: {} events", events.len());
        let got: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                LiveEvent::Frame(f) => Some(f),
                _ => None,
            })
            .collect();
        assert_eq!(got.len(), 10);
        for (f, frame) in got.iter().enumerate() {
            assert_eq!(frame.index, f as u64);
            assert_eq!(frame.queries, asked[f]);
        }
        assert!(listener.stats().connected);
        let stats = rec.live_stats().unwrap();
        assert_eq!(stats.dropped, 0);
        drop(rec);
        let events = poll_until(&mut listener, |ev| {
            ev.iter().any(|e| matches!(e, LiveEvent::Disconnected))
        });
        assert!(
            events.iter().any(|e| matches!(e, LiveEvent::Disconnected)),
            "run {run}"
        );
        assert!(!listener.stats().connected);
    }
}

#[test]
fn bad_peers_are_refused_and_the_listener_keeps_listening() {
    let mut listener = Listener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    let addr = listener.local_addr();
    let level = Level::default();
    let good_header = format::encode_header(&level.to_ron_string());
    let mut wrong_version = good_header.clone();
    wrong_version[8..12].copy_from_slice(&2u32.to_le_bytes());
    let c = crc_of(&wrong_version[..16]);
    wrong_version[16..20].copy_from_slice(&c.to_le_bytes());
    // A valid header, then a frame whose length claims 4 GB (with a matching length checksum).
    let mut huge_frame = good_header.clone();
    let len = u32::MAX.to_le_bytes();
    huge_frame.extend_from_slice(&len);
    huge_frame.extend_from_slice(&crc_of(&len).to_le_bytes());
    huge_frame.extend_from_slice(&[0; 4]);
    let cases: [(&[u8], &str); 3] = [
        (b"GET / HTTP/1.1\r\n\r\n", "not a Collidoscope recording"),
        (&wrong_version, "version 2"),
        (&huge_frame, "limit"),
    ];
    for (bytes, want) in cases {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(bytes).unwrap();
        let start = Instant::now();
        let mut messages = Vec::new();
        while start.elapsed() < Duration::from_secs(5) && messages.is_empty() {
            let _ = listener.poll();
            messages = listener.messages();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            messages.iter().any(|m| m.contains(want)),
            "{want}: {messages:?}"
        );
        // The refused peer's socket is closed by the listener.
        s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let mut buf = [0u8; 8];
        assert!(matches!(s.read(&mut buf), Ok(0) | Err(_)));
    }
    // Still listening: a real game connects afterwards.
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    rec.connect(addr).unwrap();
    rec.begin_frame(0.0);
    rec.mark("hello");
    rec.flush();
    let events = poll_until(&mut listener, |ev| frames(ev) >= 1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, LiveEvent::Connected { .. }))
    );
    assert_eq!(frames(&events), 1);
}

#[test]
fn a_slow_viewer_never_blocks_the_game() {
    // A viewer that accepts and then reads a little every 50 ms: the game's queue fills and frames are dropped
    // and counted, but no frame of the game waits on the socket.
    let viewer = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = viewer.local_addr().unwrap();
    let reader = std::thread::spawn(move || {
        let (mut s, _) = viewer.accept().unwrap();
        let mut buf = [0u8; 4096];
        let mut total = 0usize;
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(3) {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        total
    });
    let level = sample("house.ron");
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(
        RecorderConfig {
            live_queue_bytes: 1 << 20,
            ..RecorderConfig::default()
        },
        &level,
    );
    rec.connect(addr).unwrap();
    let mut rng = Rng(8);
    let mut slowest = Duration::ZERO;
    // 120 frames of 10,000 queries: about 30 MB, more than the kernel's socket buffers hold.
    for f in 0..120 {
        let t = Instant::now();
        rec.begin_frame(f64::from(f));
        slowest = slowest.max(t.elapsed());
        let _ = mixed_queries(&mut rec, &scene, &mut rng, 10_000);
    }
    let stats = rec.live_stats().unwrap();
    assert!(stats.dropped > 0, "{stats:?}");
    assert!(stats.frames + stats.dropped <= 120);
    // Finishing a frame never waited for the viewer (encoding a frame takes well under this).
    assert!(slowest < Duration::from_millis(200), "{slowest:?}");
    drop(rec);
    assert!(reader.join().unwrap() > 0);
}

#[test]
fn level_watcher_reloads_once_per_save_and_keeps_the_old_level_on_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.ron");
    let mut level = sample("house.ron");
    level.save(&path).unwrap();
    let mut w = LevelWatcher::new(&path).unwrap();
    assert_eq!(w.level(), &level);
    assert!(w.poll().is_none());
    let wait = |w: &mut LevelWatcher| {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(3) {
            if let Some(r) = w.poll() {
                return Some((r, start.elapsed()));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    };
    // An atomic save (temporary file renamed over the level): one reload, within a second.
    level.name = "edited".into();
    level.save(&path).unwrap();
    let (r, took) = wait(&mut w).expect("a reload");
    assert_eq!(r.unwrap().name, "edited");
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(w.level().name, "edited");
    std::thread::sleep(Duration::from_millis(300));
    assert!(wait(&mut w).is_none(), "a second reload for one save");
    // A broken save: reported once, the previous level stays.
    std::fs::write(&path, "(version: 1, walls: [oops])").unwrap();
    let (r, _) = wait(&mut w).expect("the error");
    assert!(r.unwrap_err().to_string().contains("level.ron"));
    assert_eq!(w.level().name, "edited");
    assert!(wait(&mut w).is_none());
    // Fixed again.
    level.name = "fixed".into();
    level.save(&path).unwrap();
    assert_eq!(wait(&mut w).expect("a reload").0.unwrap().name, "fixed");
}

/// A recording written by the code of main before the character move was a recorded kind (commit c057839:
/// the example game on the courtyard, 90 frames; see `tests/data/README.md`).
fn recording_before_characters() -> (Vec<u8>, Recording) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/courtyard_before_characters.crec");
    let bytes = std::fs::read(&path).unwrap();
    let r = Recording::load(&path).unwrap();
    (bytes, r)
}

#[test]
fn a_recording_written_before_character_moves_still_loads() {
    let (bytes, r) = recording_before_characters();
    assert!(!r.truncated);
    assert_eq!(r.version, 1);
    assert_eq!(r.level.name, "courtyard");
    assert_eq!(r.level.walls.len(), 8);
    assert_eq!(r.frames.len(), 90);
    for (i, f) in r.frames.iter().enumerate() {
        assert_eq!(f.index, i as u64);
        let kinds: Vec<&str> = f.queries.iter().map(QueryRecord::kind).collect();
        assert_eq!(kinds, ["slide", "ray", "sweep", "overlap"], "frame {i}");
        assert_eq!(f.steps.len(), 1);
        assert_eq!(f.steps[0].balls.len(), 2);
        assert_eq!(f.dropped, 0);
    }
    assert_eq!(r.frames[52].marks, ["picked up #32 (5 coin)"]);
    let QueryRecord::Slide { from, radius, .. } = &r.frames[0].queries[0] else {
        unreachable!()
    };
    assert_eq!((*from, *radius), (Vec2::new(-6.0, -6.0), 0.3));
    // Every frame decodes to what encodes back to its very bytes: the layout of the kinds written then is
    // unchanged.
    let header_len =
        format::HEADER_BYTES + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut at = header_len;
    for f in &r.frames {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let payload =
            &bytes[at + format::FRAME_HEADER_BYTES..at + format::FRAME_HEADER_BYTES + len];
        assert_eq!(
            postcard::to_allocvec(f).unwrap(),
            payload,
            "frame {}",
            f.index
        );
        at += format::FRAME_HEADER_BYTES + len;
    }
    assert_eq!(at, bytes.len());
    // Its queries can be asked again of its level (whether every answer is still the same bit for bit is the
    // business of the queries' own tests, not of the format).
    let scene = Scene::from_level(&r.level).unwrap();
    for f in &r.frames {
        for q in &f.queries {
            assert_eq!(q.rerun(&scene).kind(), q.kind());
        }
    }
}

/// A floor (#1), a 0.2 m step (#2) and a wall (#3).
const STEPS: &str = r#"(version: 2,
    planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
    aabbs: [(id: 2, min: (1.0, 0.0, -1.0), max: (4.0, 0.2, 1.0)), (id: 3, min: (6.0, 0.0, -5.0), max: (7.0, 3.0, 5.0))],
)"#;

/// Walk the character over the step to the wall, recorded, one move a frame: every move and its record.
fn walk_to_the_wall(
    rec: &mut Recorder,
    scene: &Scene,
    c: &CharacterController,
) -> Vec<collidoscope::character::CharacterMove> {
    let mut feet = Vec3::new(0.0, c.skin, 0.0);
    let mut out = Vec::new();
    for f in 0..70 {
        rec.begin_frame(f64::from(f) / 60.0);
        let m = rec.move_character(scene, c, feet, Vec3::new(0.1, -0.01, 0.0));
        feet = m.feet;
        out.push(m);
    }
    out
}

#[test]
fn character_moves_are_recorded_whole_and_asked_again_bit_for_bit() {
    let level = Level::from_ron_str(STEPS).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let c = CharacterController::default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let moves = walk_to_the_wall(&mut rec, &scene, &c);
    // The recorder answers what the controller answers.
    let mut feet = Vec3::new(0.0, c.skin, 0.0);
    for m in &moves {
        assert_eq!(
            *m,
            c.move_character(&scene, feet, Vec3::new(0.1, -0.01, 0.0))
        );
        feet = m.feet;
    }
    let stepped = moves.iter().position(|m| m.stepped_up > 0.0).unwrap();
    let blocked = moves
        .iter()
        .position(|m| matches!(m.limit, Some(Limit::Wall { .. })))
        .unwrap();
    // bytes() is exact with moves too.
    let bytes = rec.to_bytes();
    let header = format::HEADER_BYTES + rec.level().to_ron_string().len();
    assert_eq!(bytes.len() - header, rec.bytes());

    let r = Recording::from_bytes(&bytes).unwrap();
    assert_eq!(r.frames.len(), 70);
    for (f, m) in r.frames.iter().zip(&moves) {
        assert_eq!(f.queries.len(), 1);
        let q = &f.queries[0];
        let QueryRecord::Character {
            controller, result, ..
        } = q
        else {
            panic!("frame {}: {q:?}", f.index)
        };
        assert_eq!((controller, result), (&c, m));
        assert!(!result.trace.sweeps.is_empty());
        // Asked again: the same record, bit for bit, the workings included.
        let again = q.rerun(&scene);
        assert_eq!(
            postcard::to_allocvec(&again).unwrap(),
            postcard::to_allocvec(q).unwrap()
        );
        assert!(q.same_answer(&again) && q.differences(&again).is_empty());
        assert_eq!(q.kind(), "character");
    }
    // The answer in words.
    let text = r.frames[stepped].queries[0].answer_text(2);
    assert!(
        text.starts_with("feet (") && text.contains(", grounded on #2, stepped 0.20 m"),
        "{text}"
    );
    let text = r.frames[blocked].queries[0].answer_text(2);
    assert!(text.ends_with("; blocked by a wall: #3"), "{text}");
    assert_eq!(
        r.frames[blocked].queries[0].objects(),
        [ObjectId(1), ObjectId(3)]
    );
    assert!(!r.frames[blocked].queries[0].hit_nothing());
}

#[test]
fn a_moved_step_changes_the_character_moves_part_by_part() {
    let level = Level::from_ron_str(STEPS).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let c = CharacterController::default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let _ = walk_to_the_wall(&mut rec, &scene, &c);
    let r = Recording::from_bytes(&rec.to_bytes()).unwrap();
    // The step 0.1 m higher: the climb is higher and everything on the tread stands higher.
    let mut higher = level.clone();
    higher.aabbs[0].max.y = 0.3;
    let scene2 = Scene::from_level(&higher).unwrap();
    let mut parts = std::collections::BTreeSet::new();
    for f in &r.frames {
        let q = &f.queries[0];
        let again = q.rerun(&scene2);
        let d = q.differences(&again);
        assert_eq!(d.is_empty(), q.same_answer(&again));
        parts.extend(d);
    }
    assert!(
        parts.contains("feet") && parts.contains("steps"),
        "{parts:?}"
    );
    assert!(parts.iter().all(|p| {
        [
            "feet", "grounded", "ground", "hits", "steps", "snap", "limit",
        ]
        .contains(p)
    }));
    // A step too high to climb: the limit says so.
    let mut wall = level.clone();
    wall.aabbs[0].max.y = 0.5;
    let scene3 = Scene::from_level(&wall).unwrap();
    let changed_limit = r.frames.iter().any(|f| {
        let again = f.queries[0].rerun(&scene3);
        f.queries[0].differences(&again).contains(&"limit")
            && again
                .answer_text(2)
                .contains("is above max_step 0.35 m: #2")
    });
    assert!(changed_limit);
}

#[test]
fn bytes_per_character_move() {
    // What a move costs in a recording, beside a ray: walking on a floor, stepping up, against a wall.
    let level = Level::from_ron_str(STEPS).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let c = CharacterController::default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let moves = walk_to_the_wall(&mut rec, &scene, &c);
    let r = Recording::from_bytes(&rec.to_bytes()).unwrap();
    let size = |q: &QueryRecord| postcard::to_allocvec(q).unwrap().len();
    let (mut plain, mut step, mut wall) = (Vec::new(), Vec::new(), Vec::new());
    for (f, m) in r.frames.iter().zip(&moves) {
        let n = size(&f.queries[0]);
        let trace = postcard::to_allocvec(&m.trace).unwrap().len();
        if m.stepped_up > 0.0 {
            step.push((n, trace));
        } else if m.limit.is_some() {
            wall.push((n, trace));
        } else {
            plain.push((n, trace));
        }
    }
    let mean = |v: &[(usize, usize)]| {
        let k = v.len().max(1) as f64;
        (
            v.iter().map(|x| x.0).sum::<usize>() as f64 / k,
            v.iter().map(|x| x.1).sum::<usize>() as f64 / k,
        )
    };
    let ray = QueryRecord::Ray {
        ray: Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::X),
        max_t: 100.0,
        hit: scene.cast_ray(&Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::X), 100.0),
    };
    for (what, v) in [
        ("on the floor", &plain),
        ("stepping up", &step),
        ("against the wall", &wall),
    ] {
        let (all, trace) = mean(v);
        println!(
            "a character move {what}: {all:.0} bytes ({trace:.0} of them its workings), {} moves",
            v.len()
        );
    }
    println!("a ray that hits: {} bytes", size(&ray));
    assert!(!plain.is_empty() && !step.is_empty() && !wall.is_empty());
    // A move with its workings is a few hundred bytes: kept whole, but bounded.
    assert!(mean(&plain).0 < 600.0 && mean(&step).0 < 1500.0 && mean(&wall).0 < 1000.0);
}

#[test]
fn the_budget_holds_with_character_moves() {
    let level = sample("magic_room.ron");
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(
        RecorderConfig {
            max_bytes: 30_000,
            ..RecorderConfig::default()
        },
        &level,
    );
    let mut rng = Rng(11);
    for f in 0..100 {
        rec.begin_frame(f64::from(f));
        for _ in 0..10 {
            let _ = random_move(&mut rec, &scene, &mut rng);
        }
        assert!(rec.bytes() <= 30_000, "{} at frame {f}", rec.bytes());
    }
    assert!(rec.frames_dropped() > 0);
    let header = format::HEADER_BYTES + rec.level().to_ron_string().len();
    assert_eq!(rec.to_bytes().len() - header, rec.bytes());
    let r = Recording::from_bytes(&rec.to_bytes()).unwrap();
    assert_eq!(r.frames.last().unwrap().index, 99);
    assert!(
        r.frames
            .iter()
            .all(|f| f.queries.len() == 10 && f.dropped == 0)
    );
}

#[test]
fn the_live_link_streams_character_moves() {
    let level = Level::from_ron_str(STEPS).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let mut listener = Listener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    rec.connect(listener.local_addr()).unwrap();
    let moves = walk_to_the_wall(&mut rec, &scene, &CharacterController::default());
    rec.flush();
    let events = poll_until(&mut listener, |ev| frames(ev) >= 70);
    let got: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            LiveEvent::Frame(f) => Some(f),
            _ => None,
        })
        .collect();
    assert_eq!(got.len(), 70);
    for (f, m) in got.iter().zip(&moves) {
        assert!(matches!(&f.queries[0], QueryRecord::Character { result, .. } if result == m));
    }
}

#[test]
fn a_game_that_connects_before_the_viewer_listens_connects_once_it_does() {
    // A port nothing listens on (bound, then let go).
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let level = Level::from_ron_str(STEPS).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    // Not an error: the link is retried in the background, and the failure is said once.
    rec.connect(addr).unwrap();
    assert!(!rec.live_stats().unwrap().connected);
    let mut messages = rec.live_messages();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains(&addr.to_string()) && messages[0].contains("retrying every second"),
        "{messages:?}"
    );
    // The game plays on for 2.5 s (two retries fail), its frames dropped and counted; nothing more is said.
    let c = CharacterController::default();
    let mut feet = Vec3::new(0.0, c.skin, 0.0);
    let mut frame = 0u32;
    let mut play = |rec: &mut Recorder, for_ms: u64| {
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(for_ms) {
            rec.begin_frame(f64::from(frame) / 60.0);
            feet = rec
                .move_character(&scene, &c, feet, Vec3::new(0.0, -0.01, 0.0))
                .feet;
            frame += 1;
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    play(&mut rec, 2500);
    messages.extend(rec.live_messages());
    assert_eq!(messages.len(), 1, "{messages:?}");
    let stats = rec.live_stats().unwrap();
    assert!(
        !stats.connected && stats.dropped > 0 && stats.frames == 0,
        "{stats:?}"
    );
    // The viewer starts listening: within the next retry the game connects, sends the level, then frames.
    let mut listener = Listener::bind(addr).unwrap();
    let start = Instant::now();
    let mut events = Vec::new();
    while start.elapsed() < Duration::from_secs(10) && frames(&events) < 5 {
        play(&mut rec, 50);
        events.extend(listener.poll());
    }
    assert!(matches!(events.first(), Some(LiveEvent::Connected { level: l }) if *l == level));
    assert!(frames(&events) >= 5, "{} frames", frames(&events));
    let stats = rec.live_stats().unwrap();
    assert!(stats.connected && stats.frames >= 5, "{stats:?}");
    let said = rec.live_messages();
    assert_eq!(said, [format!("connected to the viewer at {addr}")]);
}
