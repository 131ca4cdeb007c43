//! Capsule queries: one regression test per bug the differential and property tests found (named
//! `regression_*`, each with the case that found it and what was wrong), and hand-worked cases of the
//! conventions those fixes touch.
#![allow(clippy::unwrap_used)]

use super::capsule_referee::{Seg, Solid, d};
use collidoscope::glam::{Mat3, Vec2, Vec3};
use collidoscope::query::{Toi, overlap, sweep};
use collidoscope::shape::{Capsule, Cylinder, Obb, Wall};

/// `|t - want|·|motion|` within API.md's allowance `1e-5·(1 + |motion|)`.
#[track_caller]
fn assert_t(toi: Option<Toi>, motion: Vec3, want: f64) {
    let toi = toi.unwrap_or_else(|| panic!("no contact, expected t = {want}"));
    let err = (f64::from(toi.t) - want).abs() * f64::from(motion.length());
    let allowance = 1e-5 * (1.0 + f64::from(motion.length()));
    assert!(
        err <= allowance,
        "t = {} vs {want}: |Δt|·|m| = {err:e} over the allowance {allowance:e}",
        toi.t
    );
}

/// The contact point lies on the obstacle's boundary and within the capsule (it starts in overlap).
#[track_caller]
fn assert_point_on_both(toi: &Toi, cap: &Capsule, solid: &Solid) {
    let p = d(toi.point);
    let off = solid.boundary_distance(p);
    assert!(
        off <= 1e-5,
        "{:?} is {off:e} off the obstacle's boundary",
        toi.point
    );
    let seg = Seg::of(cap);
    let axis = p.distance(super::capsule_referee::cp_segment(p, seg.p, seg.q));
    assert!(
        axis <= seg.r + 1e-5,
        "{:?} is {axis} from the capsule's axis, radius {}",
        toi.point,
        seg.r
    );
}

/// Found by `capsule_wall_sweep_matches_parry_and_the_referee`: a wall of no length and no radius (a bare
/// vertical line, valid by `Wall::is_valid`) was never hit by `sweep::capsule_wall`, whose solid was its box
/// core (absent without length) and its round posts (skipped without radius), while `overlap::capsule_wall`
/// saw the line. The line is now a segment the capsule's segment must keep its radius from.
#[test]
fn regression_capsule_wall_sweep_hits_a_wall_of_no_length_and_no_radius() {
    let post = Wall::new(Vec2::ZERO, Vec2::ZERO, 0.0);
    // An upright capsule (radius 0.5) at x = 3 moving -x by 5 toward the line x = z = 0, y in 0..2: the side
    // meets it when the axis is at x = 0.5, after 2.5 of 5.
    let body = Capsule::new(Vec3::new(3.0, 0.5, 0.0), Vec3::new(3.0, 1.5, 0.0), 0.5);
    let m = Vec3::new(-5.0, 0.0, 0.0);
    let toi = sweep::capsule_wall(&body, m, &post, 2.0);
    assert_t(toi, m, 0.5);
    let toi = toi.unwrap();
    assert!((toi.point - Vec3::new(0.0, toi.point.y, 0.0)).length() < 1e-6);
    assert!((0.5..=1.5).contains(&toi.point.y));
    assert!((toi.normal - Vec3::X).length() < 1e-6);
    // Over the top of it: the lower end sphere (y = 2.6, radius 0.5) clears the line's top (y = 2) by 0.1.
    let high = body.translated(Vec3::new(0.0, 2.1, 0.0));
    assert!(sweep::capsule_wall(&high, m, &post, 2.0).is_none());
    // A lower one meets the line's top end: the end sphere at y = 2.4 touches (0, 2, 0) when its centre is
    // sqrt(0.25 - 0.16) = 0.3 beyond it in x.
    let low = body.translated(Vec3::new(0.0, 1.9, 0.0));
    assert_t(
        sweep::capsule_wall(&low, m, &post, 2.0),
        m,
        (3.0 - 0.3) / 5.0,
    );
    // No height either: a point on the floor, met by the capsule lying along x sliding down onto it.
    let point = Wall::new(Vec2::new(1.0, 0.0), Vec2::new(1.0, 0.0), 0.0);
    let lying = Capsule::new(Vec3::new(-2.0, 2.0, 0.0), Vec3::new(2.0, 2.0, 0.0), 0.5);
    let down = Vec3::new(0.0, -4.0, 0.0);
    assert_t(
        sweep::capsule_wall(&lying, down, &point, 0.0),
        down,
        1.5 / 4.0,
    );
    // The first case the differential test found.
    let c = Capsule::new(
        Vec3::new(-9.6483345, -0.87462664, 5.461332),
        Vec3::new(-9.6483345, -0.87462664, 5.461332),
        0.8441542,
    );
    let m = Vec3::new(1.3574177, 1.4680394, 6.8138585);
    let w = Wall::new(
        Vec2::new(-8.781291, 9.335369),
        Vec2::new(-8.781291, 9.335369),
        0.0,
    );
    assert_t(
        sweep::capsule_wall(&c, m, &w, 2.5320206),
        m,
        0.454240369003267,
    );
}

/// Found by `capsule_cylinder_sweep_matches_parry_and_the_referee`: the rims' root finding stopped once the
/// distance was within 1e-12 of the scale of the radius. Time is distance over closing speed, and in a
/// grazing contact (here the capsule closes on the rim at under a millionth of its speed) that put `t`
/// 4.9e-5 of the motion early, twice API.md's allowance. The capsule sweeps now stop within 1e-15 of the
/// scale (a few roundings); the sphere sweeps keep their tolerance (and their bits).
#[test]
fn regression_capsule_cylinder_grazing_rim_contact_is_not_early() {
    let c = Capsule::new(
        Vec3::new(-10.356871, 3.7618477, -5.786104),
        Vec3::new(-8.933308, 5.0768375, -8.751385),
        0.03026801,
    );
    let m = Vec3::new(-0.4056181, 1.0584725, 0.6444745);
    let cy = Cylinder::new(
        Vec3::new(-10.052122, 0.27545077, -3.846818),
        Vec3::new(-8.412632, 2.0037699, -5.6535215),
        3.8614628,
    );
    // The referee's first root (golden-section search and bisection on the distance, in f64).
    assert_t(sweep::capsule_cylinder(&c, m, &cy), m, 0.09463138496600514);
}

/// Found by `capsule_cylinder_sweep_matches_parry_and_the_referee` and its wall twin: for a capsule whose
/// segment meets a cylinder or a wall at the start, the contact point was the segment's middle pushed out
/// through the nearest surface, which lies off the obstacle when the middle is outside it (1.04 off the
/// cylinder, 1.77 off the wall in the cases found). The point is now the obstacle's boundary point nearest
/// the segment: where the segment crosses the boundary, or the shallower end's exit point when the segment
/// lies wholly inside.
#[test]
fn regression_capsule_overlap_point_lies_on_the_obstacle() {
    let c = Capsule::new(
        Vec3::new(3.9023232, -0.0852918, 3.7981832),
        Vec3::new(6.9167867, 1.8094363, 1.7175772),
        0.62310827,
    );
    let cy = Cylinder::new(
        Vec3::new(7.1821785, 1.994463, 2.5611713),
        Vec3::new(7.795246, 2.057394, 2.1529057),
        0.93792003,
    );
    let m = Vec3::new(6.3351865, 4.5407944, 2.6374402);
    let toi = sweep::capsule_cylinder(&c, m, &cy).unwrap();
    assert_eq!(toi.t, 0.0);
    assert_point_on_both(&toi, &c, &Solid::cylinder(&cy));

    let w = Wall::new(
        Vec2::new(-0.9339237, -7.942338),
        Vec2::new(3.5600872, -13.777261),
        1.4845374,
    );
    let c = Capsule::new(
        Vec3::new(2.0947351, 0.13429034, -14.190792),
        Vec3::new(-2.2269926, -3.724368, -14.604614),
        0.16114019,
    );
    let toi = sweep::capsule_wall(&c, Vec3::ZERO, &w, 4.431664).unwrap();
    assert_eq!(toi.t, 0.0);
    assert_point_on_both(&toi, &c, &Solid::wall(&w, 4.431664));

    // Hand-worked: a pillar of radius 1 from y = 0 to 4; a capsule lying along x at mid height from x = 0.5
    // (inside) to x = 3 (outside). Its segment leaves the pillar through the side at x = 1: that is the point.
    let pillar = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0), 1.0);
    let c = Capsule::new(Vec3::new(0.5, 2.0, 0.0), Vec3::new(3.0, 2.0, 0.0), 0.25);
    let toi = sweep::capsule_cylinder(&c, Vec3::new(0.0, 0.0, 1.0), &pillar).unwrap();
    assert_eq!(toi.t, 0.0);
    assert!(
        (toi.point - Vec3::new(1.0, 2.0, 0.0)).length() < 1e-6,
        "{toi:?}"
    );
    // Wholly inside, its upper end 0.5 below the top cap (and 0.8 from the side): that end's exit point,
    // straight up. (The normal stays the way out from the segment's middle, here the side: 0.9 < 1.)
    let c = Capsule::new(Vec3::new(0.0, 2.5, 0.0), Vec3::new(0.2, 3.5, 0.0), 0.25);
    let toi = sweep::capsule_cylinder(&c, Vec3::ZERO, &pillar).unwrap();
    assert!(
        (toi.point - Vec3::new(0.2, 4.0, 0.0)).length() < 1e-6,
        "{toi:?}"
    );
    assert_eq!(toi.normal, Vec3::X);
}

/// Found by `capsule_obb_overlap_matches_parry_and_the_referee`: `overlap::capsule_obb` mapped the closest
/// pair found in the box's frame back to the world and measured it there, while `sweep::capsule_obb` measures
/// in the box's frame. An f32 rotation is orthonormal only to rounding (here 6e-8), so for a capsule touching
/// the box to within that the two disagreed: the overlap test said "apart" where the sweep said "touching
/// now" (or the reverse). Both now measure in the box's frame, so they agree to the bit.
#[test]
fn regression_capsule_obb_overlap_agrees_with_the_sweep_start() {
    let cases = [
        (
            Capsule::new(
                Vec3::new(11.013842, -9.31745, 4.6126957),
                Vec3::new(11.013842, -9.31745, 4.6126957),
                0.30878782,
            ),
            Obb::new(
                Vec3::new(9.783585, -8.803095, 4.423931),
                Vec3::new(0.26156145, 0.53804183, 3.0758007),
                Mat3::from_cols(
                    Vec3::new(0.04799211, 0.45608634, 0.88864064),
                    Vec3::new(-0.8882132, -0.38748693, 0.24684304),
                    Vec3::new(0.45691824, -0.80114883, 0.38650542),
                ),
            ),
        ),
        (
            Capsule::new(
                Vec3::new(2.4097388, 8.432252, 5.596439),
                Vec3::new(1.8390394, 8.269418, 8.632575),
                2.1524475,
            ),
            Obb::new(
                Vec3::new(5.7225056, 6.6646442, 6.557974),
                Vec3::new(3.9668767, 2.162078, 1.6839356),
                Mat3::from_cols(
                    Vec3::new(-0.124628544, -0.41365665, -0.9018624),
                    Vec3::new(-0.5335484, -0.7384038, 0.41241443),
                    Vec3::new(-0.83653677, 0.53258586, -0.12867951),
                ),
            ),
        ),
        (
            Capsule::new(
                Vec3::new(1.5001295, 12.302566, 10.844771),
                Vec3::new(2.4324763, 13.34826, 10.307862),
                2.6292057,
            ),
            Obb::new(
                Vec3::new(5.4637575, 7.461216, 5.1862965),
                Vec3::new(2.09679, 3.0724778, 4.641664),
                Mat3::from_cols(
                    Vec3::new(-0.7843845, 0.5434682, -0.2989706),
                    Vec3::new(0.5450571, 0.37385362, -0.7504307),
                    Vec3::new(-0.296064, -0.75158215, -0.5894662),
                ),
            ),
        ),
    ];
    for (c, b) in cases {
        let now = overlap::capsule_obb(&c, &b);
        for m in [Vec3::ZERO, Vec3::X, -Vec3::Y] {
            let start = sweep::capsule_obb(&c, m, &b);
            if now {
                // Touching at the start: t = 0, or None when the motion leaves.
                assert!(
                    start.is_none_or(|t| t.t == 0.0),
                    "{c:?} {b:?} {m}: {start:?}"
                );
            } else {
                assert!(
                    start.is_none_or(|t| t.t > 0.0),
                    "{c:?} {b:?} {m}: {start:?}"
                );
            }
        }
        assert_eq!(now, sweep::capsule_obb(&c, Vec3::ZERO, &b).is_some());
    }
}
