use super::cylinder::{point_disk_d, segment_cylinder, segment_disk};
use super::*;
use crate::query::closest_segment::segment_convex;

/// The disk's closest pair equals a fine golden-section search's, across segments crossing the disk, over
/// it, beside it, parallel to it and to its axis.
#[test]
fn segment_disk_equals_golden_section_search() {
    let mut state = 11u64;
    let mut rnd = |lo: f64, hi: f64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
    };
    for k in 0..20_000 {
        let c = DVec3::new(rnd(-3.0, 3.0), rnd(-3.0, 3.0), rnd(-3.0, 3.0));
        let u = DVec3::new(rnd(-1.0, 1.0), rnd(-1.0, 1.0), rnd(-1.0, 1.0))
            .try_normalize()
            .unwrap_or(DVec3::Y);
        let rc = rnd(0.1, 3.0);
        let p = DVec3::new(rnd(-5.0, 5.0), rnd(-5.0, 5.0), rnd(-5.0, 5.0));
        let dir = match k % 4 {
            // Parallel to the disk's plane, or along its axis.
            0 => {
                let v = DVec3::new(rnd(-1.0, 1.0), rnd(-1.0, 1.0), rnd(-1.0, 1.0));
                v - u * v.dot(u)
            }
            1 => u,
            _ => DVec3::new(rnd(-1.0, 1.0), rnd(-1.0, 1.0), rnd(-1.0, 1.0)),
        };
        let q = p + dir * rnd(0.0, 6.0);
        let got = segment_disk(p, q, c, u, rc);
        let want = segment_convex(p, q, |x| point_disk_d(x, c, u, rc));
        let (g, w) = (got.0.distance(got.1), want.0.distance(want.1));
        assert!(g <= w + 1e-12, "{p} {q} {c} {u} {rc}: {g} vs golden {w}");
        assert!((got.1 - point_disk_d(got.0, c, u, rc)).length() < 1e-12);
    }
}

/// The cylinder's and the wall's closest pairs (closed forms where they apply, the parts' nearest for
/// walls) equal a golden-section search's on the whole solid.
#[test]
fn cylinder_and_wall_pairs_equal_golden_section_search() {
    let mut state = 5u64;
    let mut rnd = |lo: f64, hi: f64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
    };
    for k in 0..20_000 {
        let p = DVec3::new(rnd(-5.0, 5.0), rnd(-1.0, 5.0), rnd(-5.0, 5.0));
        let dir = if k % 3 == 0 {
            DVec3::Y
        } else {
            DVec3::new(rnd(-1.0, 1.0), rnd(-1.0, 1.0), rnd(-1.0, 1.0))
        };
        let q = p + dir * rnd(0.0, 5.0);
        let a = DVec3::new(rnd(-2.0, 2.0), rnd(-2.0, 2.0), rnd(-2.0, 2.0));
        let b = if k % 5 == 0 {
            a + DVec3::Y * rnd(0.1, 3.0)
        } else {
            a + DVec3::new(rnd(-2.0, 2.0), rnd(-2.0, 2.0), rnd(-2.0, 2.0))
        };
        let rc = rnd(0.05, 2.0);
        let got = segment_cylinder(p, q, a, b, rc);
        let want = segment_convex(p, q, |x| point_cylinder_d(x, a, b, rc));
        let (g, w) = (got.0.distance(got.1), want.0.distance(want.1));
        assert!(
            g <= w + 1e-12 && g >= w - 1e-9,
            "cylinder {p} {q} {a} {b} {rc}: {g} vs {w}"
        );
        let wall = WallD {
            a: DVec3::new(a.x, 0.0, a.z),
            b: if k % 7 == 0 {
                DVec3::new(a.x, 0.0, a.z)
            } else {
                DVec3::new(b.x, 0.0, b.z)
            },
            r: if k % 4 == 0 { 0.0 } else { rc },
            h: if k % 6 == 0 { 0.0 } else { rnd(0.1, 3.0) },
        };
        let got = wall.segment_pair(p, q);
        let want = segment_convex(p, q, |x| wall.closest(x));
        let (g, w) = (got.0.distance(got.1), want.0.distance(want.1));
        assert!(
            g <= w + 1e-12 && g >= w - 1e-9,
            "wall {p} {q} {wall:?}: {g} vs {w}"
        );
    }
}
