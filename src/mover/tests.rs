use glam::Vec3;
use proptest::prelude::*;

use super::*;

fn lift(repeat: Repeat) -> MoverPath {
    // Up 4 m at 2 m/s (2 s), waiting 1 s at each end.
    MoverPath::new(&[Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0)], 2.0, 1.0, repeat)
}

#[test]
fn not_started_is_at_rest_at_the_first_point() {
    let p = lift(Repeat::PingPong);
    assert_eq!(p.at(5.0, None), MoverState::default());
    // Before its start time too.
    assert_eq!(p.at(1.0, Some(3.0)), MoverState::default());
}

#[test]
fn once_goes_and_stays() {
    let p = lift(Repeat::Once);
    let s = p.at(0.5, Some(0.0));
    assert_eq!(s.offset, Vec3::new(0.0, 1.0, 0.0));
    assert_eq!(s.velocity, Vec3::new(0.0, 2.0, 0.0));
    for t in [2.0, 3.0, 1e5] {
        let s = p.at(t, Some(0.0));
        assert_eq!(
            (s.offset, s.velocity),
            (Vec3::new(0.0, 4.0, 0.0), Vec3::ZERO)
        );
    }
    assert!(p.finished(2.0, 0.0) && !p.finished(1.9, 0.0));
}

#[test]
fn ping_pong_waits_at_both_ends() {
    let p = lift(Repeat::PingPong);
    // 0..2 up, 2..3 wait at top, 3..5 down, 5..6 wait at bottom: period 6.
    let at = |t: f64| p.at(t, Some(10.0));
    assert_eq!(at(11.0).offset.y, 2.0);
    assert_eq!(at(12.5).offset.y, 4.0);
    assert_eq!(at(12.5).velocity, Vec3::ZERO);
    assert_eq!(at(14.0).offset.y, 2.0);
    assert_eq!(at(14.0).velocity.y, -2.0);
    assert_eq!(at(15.5).offset.y, 0.0);
    assert_eq!(at(15.5).velocity, Vec3::ZERO);
    assert_eq!(at(17.0), at(11.0));
}

#[test]
fn loop_closes_the_path_and_waits_at_the_first_point() {
    // A square of side 2 at 1 m/s: 8 s around, then 1 s waiting at the start.
    let pts = [
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 2.0),
        Vec3::new(0.0, 0.0, 2.0),
    ];
    let p = MoverPath::new(&pts, 1.0, 1.0, Repeat::Loop);
    assert_eq!(p.length(), 8.0);
    assert_eq!(p.at(7.0, Some(0.0)).offset, Vec3::new(0.0, 0.0, 1.0));
    assert_eq!(p.at(7.0, Some(0.0)).velocity, Vec3::new(0.0, 0.0, -1.0));
    assert_eq!(p.at(8.5, Some(0.0)), MoverState::default());
    assert_eq!(p.at(10.0, Some(0.0)).offset, Vec3::new(1.0, 0.0, 0.0));
}

#[test]
fn long_games_stay_exact() {
    let p = lift(Repeat::PingPong);
    // 10^5 s is a whole number of periods (6 s) plus 4 s: on the way down, at 2 m.
    let s = p.at(100_000.0, Some(0.0));
    assert!((s.offset.y - 2.0).abs() < 1e-6, "{s:?}");
}

#[test]
fn degenerate_paths_stay_put() {
    for p in [
        MoverPath::new(&[Vec3::ZERO], 1.0, 0.0, Repeat::Loop),
        MoverPath::new(&[Vec3::ZERO, Vec3::ZERO], 1.0, 0.0, Repeat::PingPong),
        MoverPath::new(&[Vec3::ZERO, Vec3::X], 0.0, 0.0, Repeat::Once),
        MoverPath::new(&[Vec3::ZERO, Vec3::X], f32::NAN, f32::NAN, Repeat::Once),
        MoverPath::new(&[], 1.0, 0.0, Repeat::Once),
    ] {
        for t in [0.0, 1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(p.at(t, Some(0.0)), MoverState::default());
        }
    }
}

fn path_strategy() -> impl Strategy<Value = (Vec<Vec3>, f32, f32, Repeat)> {
    let point = (-5.0f32..5.0, -5.0f32..5.0, -5.0f32..5.0).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    (
        prop::collection::vec(point, 1..5),
        0.5f32..10.0,
        0.0f32..2.0,
        prop_oneof![
            Just(Repeat::Once),
            Just(Repeat::Loop),
            Just(Repeat::PingPong)
        ],
    )
        .prop_map(|(mut pts, speed, wait, repeat)| {
            pts.insert(0, Vec3::ZERO);
            (pts, speed, wait, repeat)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The offset moves no faster than `speed`, and the velocity is the offset's rate of change away from
    /// corners and ends.
    #[test]
    fn continuous_and_velocity_is_the_derivative(
        (pts, speed, wait, repeat) in path_strategy(),
        start in -10.0f64..10.0,
        t in -5.0f64..60.0,
    ) {
        let p = MoverPath::new(&pts, speed, wait, repeat);
        let h = 1e-4f64;
        let (a, b) = (p.at(t, Some(start)), p.at(t + h, Some(start)));
        let moved = (b.offset - a.offset).length();
        prop_assert!(f64::from(moved) <= f64::from(speed) * h + 1e-4, "{moved}");
        // Same speed at both ends of the step: no corner or end in between (a corner changes direction,
        // an end changes the speed to or from 0).
        if a.velocity == b.velocity && a.velocity != Vec3::ZERO {
            let fd = (b.offset - a.offset) / h as f32;
            prop_assert!((fd - a.velocity).length() <= 0.05 * speed + 0.05, "{fd} {:?}", a.velocity);
        }
        prop_assert!(a.velocity.length() <= speed * 1.0001);
        // Same bits.
        prop_assert_eq!(p.at(t, Some(start)), a);
    }

    /// `Once` ends at the last point, at rest; `PingPong` repeats with its period.
    #[test]
    fn once_ends_at_last_and_ping_pong_is_periodic(
        (pts, speed, wait, _r) in path_strategy(),
        t in 0.0f64..30.0,
    ) {
        let once = MoverPath::new(&pts, speed, wait, Repeat::Once);
        let end = once.at(once.travel_time() + t, Some(0.0));
        let last = *pts.last().unwrap_or(&Vec3::ZERO);
        prop_assert!((end.offset - last).length() <= 1e-5);
        prop_assert_eq!(end.velocity, Vec3::ZERO);
        let pp = MoverPath::new(&pts, speed, wait, Repeat::PingPong);
        let period = 2.0 * (pp.travel_time() + f64::from(wait));
        let (a, b) = (pp.at(t, Some(0.0)), pp.at(t + period, Some(0.0)));
        prop_assert!((a.offset - b.offset).length() <= 1e-4, "{a:?} {b:?}");
    }
}

fn bits(s: MoverState) -> [u32; 6] {
    let (o, v) = (s.offset, s.velocity);
    [o.x, o.y, o.z, v.x, v.y, v.z].map(f32::to_bits)
}

#[test]
fn a_track_answers_degenerate_paths_as_the_path() {
    for p in [
        MoverPath::new(&[Vec3::ZERO], 1.0, 0.0, Repeat::Loop),
        MoverPath::new(&[Vec3::ZERO, Vec3::ZERO], 1.0, 0.0, Repeat::PingPong),
        MoverPath::new(
            &[Vec3::ZERO, Vec3::X, Vec3::X, Vec3::Y],
            1.0,
            0.5,
            Repeat::PingPong,
        ),
        MoverPath::new(&[Vec3::ZERO, Vec3::X], f32::NAN, f32::NAN, Repeat::Once),
        MoverPath::new(&[], 1.0, 0.0, Repeat::Once),
    ] {
        let mut track = Track::new(&p);
        for t in [
            0.0,
            0.5,
            1.0,
            1.5,
            2.0,
            2.25,
            3.0,
            1e9,
            -1.0,
            f64::NAN,
            f64::INFINITY,
        ] {
            for start in [None, Some(0.0), Some(f64::NAN)] {
                assert_eq!(
                    bits(track.at(&p, t, start)),
                    bits(p.at(t, start)),
                    "{p:?} {t} {start:?}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// A track gives the path's own answers bit for bit, over a run of times (forward at 60 Hz with its leg
    /// remembered, and jumps back and far ahead), paths with repeated points (legs of no length) included.
    #[test]
    fn a_track_answers_as_the_path(
        (mut pts, speed, wait, repeat) in path_strategy(),
        repeat_at in 0usize..6,
        start in -3.0f64..3.0,
        jumps in prop::collection::vec(-50.0f64..1e5, 4),
    ) {
        if repeat_at < pts.len() {
            pts.insert(repeat_at, pts[repeat_at]);
        }
        let p = MoverPath::new(&pts, speed, wait, repeat);
        let mut track = Track::new(&p);
        let mut times: Vec<f64> = (0..600).map(|k| f64::from(k as f32 / 60.0)).collect();
        times.extend(jumps);
        for t in times {
            prop_assert_eq!(bits(track.at(&p, t, Some(start))), bits(p.at(t, Some(start))), "t {}", t);
        }
    }
}

#[test]
fn floor_nonneg_is_floor() {
    let edge = [
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        5e-324,
        0.5,
        1.0 - f64::EPSILON / 2.0,
        1.0,
        1.5,
        2.0 - f64::EPSILON,
        4_503_599_627_370_495.5,
        4_503_599_627_370_496.0,
        9.3e18,
        1e300,
        f64::INFINITY,
        -0.5,
        -3.0,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for q in edge {
        assert_eq!(floor_nonneg(q).to_bits(), q.floor().to_bits(), "{q}");
    }
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..10_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let q = f64::from_bits(x >> 2); // Positive, of every magnitude up to 2^512.
        assert_eq!(floor_nonneg(q).to_bits(), q.floor().to_bits(), "{q}");
    }
}
