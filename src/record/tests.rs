use super::*;
use crate::character::{CharacterHit, Ground, Limit, MoveTrace};

fn a_move(feet: Vec3) -> CharacterMove {
    CharacterMove {
        feet,
        grounded: false,
        ground: None,
        hits: Vec::new(),
        stepped_up: 0.0,
        snapped_down: 0.0,
        start: Vec3::ZERO,
        motion: feet,
        limit: None,
        trace: MoveTrace::default(),
        crushed: false,
        movers: Vec::new(),
    }
}

fn record(result: CharacterMove) -> QueryRecord {
    QueryRecord::Character {
        controller: CharacterController::default(),
        feet: result.start,
        motion: result.motion,
        result,
    }
}

fn ground(id: u32) -> Ground {
    Ground {
        object: ObjectId(id),
        point: Vec3::ZERO,
        normal: Vec3::Y,
    }
}

#[test]
fn a_character_move_in_words() {
    let mut m = a_move(Vec3::new(1.0, 0.205, -2.0));
    assert_eq!(
        record(m.clone()).answer_text(2),
        "feet (1.00, 0.20, -2.00), in the air"
    );
    m.grounded = true;
    m.ground = Some(ground(7));
    m.stepped_up = 0.2;
    assert_eq!(
        record(m.clone()).answer_text(2),
        "feet (1.00, 0.20, -2.00), grounded on #7, stepped 0.20 m"
    );
    m.stepped_up = 0.0;
    m.snapped_down = 0.125;
    m.limit = Some(Limit::StepTooHigh {
        object: ObjectId(12),
        height: Some(0.42),
        at: Vec3::ZERO,
    });
    assert_eq!(
        record(m).answer_text(1),
        "feet (1.0, 0.2, -2.0), grounded on #7, snapped 0.1 m; riser 0.42 m is above max_step 0.35 m: #12"
    );
}

#[test]
fn differences_name_the_parts_of_a_move_that_changed() {
    let a = a_move(Vec3::new(1.0, 0.0, 0.0));
    let mut b = a.clone();
    assert!(record(a.clone()).same_answer(&record(b.clone())));
    // The workings and the inputs are not the answer.
    b.trace.steps.clear();
    b.trace.ground_at_start = Some(ground(3));
    b.start = Vec3::ONE;
    assert!(record(a.clone()).differences(&record(b.clone())).is_empty());
    b.feet.y = -0.0;
    b.hits.push(CharacterHit {
        object: ObjectId(3),
        point: Vec3::ZERO,
        normal: Vec3::X,
        iteration: 0,
    });
    b.snapped_down = f32::MIN_POSITIVE;
    b.limit = Some(Limit::Iterations);
    // 0.0 and -0.0 differ in their bits.
    assert_eq!(
        record(a.clone()).differences(&record(b.clone())),
        ["feet", "hits", "snap", "limit"]
    );
    assert!(!record(a.clone()).same_answer(&record(b)));
    let ray = QueryRecord::Ray {
        ray: Ray::new(Vec3::ZERO, Vec3::X),
        max_t: 1.0,
        hit: None,
    };
    assert_eq!(record(a).differences(&ray), ["kind"]);
    assert!(ray.differences(&ray).is_empty());
    let mut missed = a_move(Vec3::NAN);
    missed.snapped_down = f32::NAN;
    assert!(record(missed.clone()).same_answer(&record(missed)));
}

#[test]
fn a_moves_objects_and_misses() {
    let mut m = a_move(Vec3::ZERO);
    assert!(record(m.clone()).hit_nothing());
    assert!(record(m.clone()).objects().is_empty());
    m.ground = Some(ground(9));
    m.limit = Some(Limit::Corner {
        objects: vec![ObjectId(4), ObjectId(2)],
        at: Vec3::ZERO,
    });
    m.hits.push(CharacterHit {
        object: ObjectId(4),
        point: Vec3::ZERO,
        normal: Vec3::X,
        iteration: 0,
    });
    let q = record(m);
    assert!(!q.hit_nothing());
    assert_eq!(q.objects(), [ObjectId(2), ObjectId(4), ObjectId(9)]);
    assert_eq!(q.kind(), "character");
    assert_eq!(QueryRecord::KINDS[4], q.kind());
}

#[test]
fn a_character_record_encodes_as_its_borrowed_twin() {
    let level = Level::default();
    let scene = Scene::from_level(&level).unwrap_or_else(|_| unreachable!());
    let c = CharacterController::default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let result = rec.move_character(&scene, &c, Vec3::ZERO, Vec3::new(0.1, -0.2, 0.0));
    let owned = postcard::to_allocvec(&QueryRecord::Character {
        controller: c,
        feet: Vec3::ZERO,
        motion: Vec3::new(0.1, -0.2, 0.0),
        result,
    })
    .unwrap_or_default();
    let cur = rec.current.as_ref().map(|c| c.queries.clone());
    assert_eq!(cur, Some(owned));
}

/// A recorded move is written in the layout recordings had before `Body::step` learnt movers (the move's
/// fields up to `trace`, nothing after), so those recordings still load and new ones read the same way;
/// what a body's step adds (`crushed`, `movers`) reads back as its default.
#[test]
fn a_recorded_move_keeps_the_layout_before_movers() {
    #[derive(serde::Serialize)]
    struct Before {
        feet: Vec3,
        grounded: bool,
        ground: Option<Ground>,
        hits: Vec<CharacterHit>,
        stepped_up: f32,
        snapped_down: f32,
        start: Vec3,
        motion: Vec3,
        limit: Option<Limit>,
        trace: MoveTrace,
    }
    // The recorded kinds' layout: only the variant's index and the last kind's fields matter here.
    #[allow(clippy::large_enum_variant)]
    #[derive(serde::Serialize)]
    enum Kinds {
        _Ray,
        _Sweep,
        _Overlap,
        _Slide,
        Character {
            controller: (f32, f32, f32, f32, f32, f32, u32),
            feet: Vec3,
            motion: Vec3,
            result: Before,
        },
    }
    let mut m = a_move(Vec3::new(1.0, 0.25, -2.0));
    m.ground = Some(ground(7));
    m.grounded = true;
    m.stepped_up = 0.125;
    let c = CharacterController::default();
    let before = Kinds::Character {
        controller: (
            c.radius,
            c.height,
            c.skin,
            c.max_step,
            c.max_slope_deg,
            c.snap_distance,
            c.max_iterations,
        ),
        feet: m.start,
        motion: m.motion,
        result: Before {
            feet: m.feet,
            grounded: m.grounded,
            ground: m.ground,
            hits: m.hits.clone(),
            stepped_up: m.stepped_up,
            snapped_down: m.snapped_down,
            start: m.start,
            motion: m.motion,
            limit: m.limit.clone(),
            trace: m.trace.clone(),
        },
    };
    let old_bytes = postcard::to_allocvec(&before).unwrap_or_default();
    let mut with_events = m.clone();
    with_events.crushed = true;
    let new_bytes = postcard::to_allocvec(&record(with_events)).unwrap_or_default();
    assert!(!old_bytes.is_empty());
    assert_eq!(new_bytes, old_bytes);
    let back: QueryRecord = postcard::from_bytes(&old_bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, record(m));
}
