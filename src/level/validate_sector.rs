//! Validation of greybox sectors: each problem names `sectors[i]…` (located at `file:line:col` by the
//! caller). Outlines and holes with too few points, non-finite values, zero area, self-crossing, holes
//! outside or crossing their outline, bad slopes, a ceiling below the floor, and two sectors overlapping in
//! plan where their height ranges overlap. Crossings are found by a sweep over edges sorted by `x`, overlaps
//! through a hash grid of the sectors' boxes, so 100,000 sectors cost about linear time and memory.

use std::collections::HashMap;

use glam::{DVec2, Vec2};

use super::{Level, Problem, SectorObject, Severity};
use crate::sector::{HeightFn, MAX_SLOPE_DEGREES, Surface, height_range, ring, triangulate};

/// Sectors overlapping in plan by more than this (m²) with overlapping height ranges are an error.
pub const OVERLAP_AREA: f64 = 1e-4;

/// Every sector problem of `level`.
pub(super) fn problems(level: &Level) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut sound = Vec::with_capacity(level.sectors.len());
    for (i, s) in level.sectors.iter().enumerate() {
        let before = out.len();
        check_sector(i, s, &mut out);
        sound.push(out.len() == before);
    }
    let mut found = Vec::new();
    overlaps(level, &sound, &mut found);
    // The grid's cells come in hash order: the problems in sector order.
    found.sort_by(|p, q| {
        (p.field.len(), &p.field, &p.message).cmp(&(q.field.len(), &q.field, &q.message))
    });
    out.extend(found);
    out
}

fn error(out: &mut Vec<Problem>, s: &SectorObject, field: String, message: String) {
    out.push(Problem {
        severity: Severity::Error,
        object: Some(s.id),
        field,
        message,
        line: None,
        col: None,
    });
}

/// One sector's own problems.
fn check_sector(i: usize, s: &SectorObject, out: &mut Vec<Problem>) {
    let p = format!("sectors[{i}]");
    let mut rings_ok = true;
    let rings = std::iter::once((format!("{p}.outline"), &s.outline, "outline")).chain(
        s.holes
            .iter()
            .enumerate()
            .map(|(k, h)| (format!("{p}.holes[{k}]"), h, "hole")),
    );
    for (field, r, what) in rings {
        if let Some(j) = r.iter().position(|q| !q.is_finite()) {
            error(
                out,
                s,
                format!("{field}[{j}]"),
                "must be finite numbers (not NaN or infinite)".into(),
            );
            rings_ok = false;
        } else if r.len() < 3 {
            error(
                out,
                s,
                field,
                format!("a {what} needs at least 3 points (has {})", r.len()),
            );
            rings_ok = false;
        } else if ring::signed_area(r).abs() <= 1e-9 {
            error(
                out,
                s,
                field,
                format!("the {what} has zero area (its points are on one line)"),
            );
            rings_ok = false;
        } else if let Some((j, k)) = self_crossing(r) {
            error(
                out,
                s,
                format!("{field}[{j}]"),
                format!("the {what} crosses itself: its edge {j} meets its edge {k}"),
            );
            rings_ok = false;
        }
    }
    let surfaces_ok =
        surface(out, s, &p, "floor", &s.floor) & surface(out, s, &p, "ceiling", &s.ceiling);
    if !rings_ok {
        return;
    }
    holes(i, s, out);
    if surfaces_ok {
        let floor = HeightFn::new(&s.floor, &s.outline);
        let ceiling = HeightFn::new(&s.ceiling, &s.outline);
        for &q in &s.outline {
            let (f, c) = (floor.at(q), ceiling.at(q));
            if c < f - 1e-5 * (1.0 + f.abs()) {
                error(
                    out,
                    s,
                    format!("{p}.ceiling"),
                    format!(
                        "the ceiling is below the floor at ({}, {}): {c} m under {f} m",
                        q.x, q.y
                    ),
                );
                break;
            }
        }
    }
}

/// A surface's own problems; whether it has none.
fn surface(out: &mut Vec<Problem>, s: &SectorObject, p: &str, name: &str, surf: &Surface) -> bool {
    let mut ok = true;
    if !surf.height.is_finite() {
        error(
            out,
            s,
            format!("{p}.{name}.height"),
            "must be a finite number".into(),
        );
        ok = false;
    }
    if let Some(slope) = surf.slope {
        if !slope.degrees.is_finite() || slope.degrees.abs() >= MAX_SLOPE_DEGREES {
            error(
                out,
                s,
                format!("{p}.{name}.slope.degrees"),
                format!(
                    "must be a finite angle under {MAX_SLOPE_DEGREES}° either way (is {})",
                    slope.degrees
                ),
            );
            ok = false;
        }
        if slope.edge as usize >= s.outline.len() {
            error(
                out,
                s,
                format!("{p}.{name}.slope.edge"),
                format!(
                    "edge {} is out of range: the outline has {} edges",
                    slope.edge,
                    s.outline.len()
                ),
            );
            ok = false;
        }
    }
    ok
}

/// Holes outside their outline, or crossing it or each other.
fn holes(i: usize, s: &SectorObject, out: &mut Vec<Problem>) {
    if s.holes.is_empty() {
        return;
    }
    let mut edges: Vec<Edge> = Vec::new();
    for (r, ring) in std::iter::once(&s.outline).chain(&s.holes).enumerate() {
        push_edges(&mut edges, ring, r);
    }
    let mut reported = vec![false; s.holes.len() + 1];
    sweep(&mut edges, |a, b| {
        if a.ring == b.ring {
            return false;
        }
        let hole = a.ring.max(b.ring);
        if !reported[hole] {
            reported[hole] = true;
            let other = a.ring.min(b.ring);
            let what = if other == 0 {
                "the outline".to_owned()
            } else {
                format!("hole {}", other - 1)
            };
            error(
                out,
                s,
                format!("sectors[{i}].holes[{}]", hole - 1),
                format!("the hole crosses {what}"),
            );
        }
        false
    });
    for (k, h) in s.holes.iter().enumerate() {
        if !reported[k + 1] && !h.iter().all(|&q| ring::contains(&s.outline, q)) {
            error(
                out,
                s,
                format!("sectors[{i}].holes[{k}]"),
                "the hole lies outside the outline".into(),
            );
        }
    }
}

/// An edge for the sweep: its ends, ring and index.
#[derive(Clone, Copy)]
struct Edge {
    a: Vec2,
    b: Vec2,
    ring: usize,
    index: usize,
    len: usize,
}

fn push_edges(edges: &mut Vec<Edge>, ring: &[Vec2], r: usize) {
    let n = ring.len();
    for k in 0..n {
        edges.push(Edge {
            a: ring[k],
            b: ring[(k + 1) % n],
            ring: r,
            index: k,
            len: n,
        });
    }
}

/// Call `f` with every pair of edges that meet (touching counts), by a sweep along `x`, until it says stop.
fn sweep(edges: &mut [Edge], mut f: impl FnMut(&Edge, &Edge) -> bool) {
    edges.sort_by(|p, q| p.a.x.min(p.b.x).total_cmp(&q.a.x.min(q.b.x)));
    for i in 0..edges.len() {
        let e = edges[i];
        let max_x = e.a.x.max(e.b.x);
        let (lo_z, hi_z) = (e.a.y.min(e.b.y), e.a.y.max(e.b.y));
        for o in &edges[i + 1..] {
            if o.a.x.min(o.b.x) > max_x {
                break;
            }
            if o.a.y.max(o.b.y) < lo_z || o.a.y.min(o.b.y) > hi_z {
                continue;
            }
            if ring::segments_meet(e.a, e.b, o.a, o.b) && f(&e, o) {
                return;
            }
        }
    }
}

/// The first pair of a ring's edges that cross (neighbours only when they fold back over each other).
fn self_crossing(r: &[Vec2]) -> Option<(usize, usize)> {
    let n = r.len();
    for k in 0..n {
        if ring::folds_back(r[k], r[(k + 1) % n], r[(k + 2) % n]) {
            return Some(((k + 1) % n, k));
        }
    }
    let mut edges = Vec::with_capacity(n);
    push_edges(&mut edges, r, 0);
    let mut found = None;
    sweep(&mut edges, |a, b| {
        let (i, j) = (a.index.min(b.index), a.index.max(b.index));
        let adjacent = j == i + 1 || (i == 0 && j == a.len - 1);
        if adjacent {
            return false;
        }
        found = Some((i, j));
        true
    });
    found
}

/// Pairs of sound sectors whose height ranges overlap and whose plan areas overlap by more than
/// [`OVERLAP_AREA`], found through a hash grid of their boxes.
fn overlaps(level: &Level, sound: &[bool], out: &mut Vec<Problem>) {
    let boxes: Vec<Option<(DVec2, DVec2, f32, f32)>> = level
        .sectors
        .iter()
        .zip(sound)
        .map(|(s, &ok)| {
            ok.then(|| {
                let lo = s
                    .outline
                    .iter()
                    .fold(DVec2::INFINITY, |m, p| m.min(p.as_dvec2()));
                let hi = s
                    .outline
                    .iter()
                    .fold(DVec2::NEG_INFINITY, |m, p| m.max(p.as_dvec2()));
                let (f, c) = height_range(&s.geom());
                (lo, hi, f, c)
            })
        })
        .collect();
    let mut sizes: Vec<f64> = boxes
        .iter()
        .flatten()
        .map(|b| (b.1 - b.0).max_element())
        .collect();
    if sizes.len() < 2 {
        return;
    }
    let mid = sizes.len() / 2;
    let median = *sizes.select_nth_unstable_by(mid, f64::total_cmp).1;
    let (lo, hi) = boxes
        .iter()
        .flatten()
        .fold((DVec2::INFINITY, DVec2::NEG_INFINITY), |(l, h), b| {
            (l.min(b.0), h.max(b.1))
        });
    let cell = median.max((hi - lo).max_element() / 4096.0).max(1e-3);
    let key = |p: DVec2| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut grid: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
    let mut big = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        let Some((l, h, _, _)) = b else { continue };
        let (k0, k1) = (key(*l), key(*h));
        if (k1.0 - k0.0 + 1) * (k1.1 - k0.1 + 1) > 4096 {
            big.push(i as u32);
            continue;
        }
        for x in k0.0..=k1.0 {
            for z in k0.1..=k1.1 {
                grid.entry((x, z)).or_default().push(i as u32);
            }
        }
    }
    let mut tris: HashMap<usize, Vec<[DVec2; 3]>> = HashMap::new();
    let mut test = |i: usize, j: usize, out: &mut Vec<Problem>| {
        let (Some(a), Some(b)) = (boxes[i], boxes[j]) else {
            return;
        };
        let boxes_meet = a.0.x <= b.1.x && b.0.x <= a.1.x && a.0.y <= b.1.y && b.0.y <= a.1.y;
        if !(boxes_meet && a.2 < b.3 && b.2 < a.3) {
            return;
        }
        let area = plan_overlap(&level.sectors, i, j, &mut tris);
        if area > OVERLAP_AREA {
            let (si, sj) = (&level.sectors[i], &level.sectors[j]);
            error(
                out,
                sj,
                format!("sectors[{j}]"),
                format!(
                    "overlaps sector {} in plan by {area:.4} m² where their heights overlap \
                     ({} to {} m and {} to {} m): sectors may overlap only as storeys",
                    si.id, a.2, a.3, b.2, b.3
                ),
            );
        }
    };
    for (&cell_key, items) in &grid {
        for (k, &i) in items.iter().enumerate() {
            for &j in &items[k + 1..] {
                let (Some(a), Some(b)) = (boxes[i as usize], boxes[j as usize]) else {
                    continue;
                };
                // Each pair once: in the cell of the corner where their boxes' overlap starts (both boxes
                // hold that corner, so both are in its cell).
                if key(a.0.max(b.0)) == cell_key {
                    test(i.min(j) as usize, i.max(j) as usize, out);
                }
            }
        }
    }
    for &i in &big {
        for j in 0..boxes.len() {
            if j != i as usize && (!big.contains(&(j as u32)) || (j as u32) > i) {
                test((i as usize).min(j), (i as usize).max(j), out);
            }
        }
    }
}

/// The plan area where sectors `i` and `j` overlap: their triangulations clipped pairwise.
fn plan_overlap(
    sectors: &[SectorObject],
    i: usize,
    j: usize,
    cache: &mut HashMap<usize, Vec<[DVec2; 3]>>,
) -> f64 {
    for k in [i, j] {
        cache.entry(k).or_insert_with(|| {
            let s = &sectors[k];
            let rings: Vec<Vec<Vec2>> = std::iter::once(&s.outline)
                .chain(&s.holes)
                .cloned()
                .collect();
            let pts: Vec<DVec2> = rings.iter().flatten().map(|p| p.as_dvec2()).collect();
            triangulate(&rings)
                .into_iter()
                .map(|t| t.map(|v| pts[v as usize]))
                .collect()
        });
    }
    let (ta, tb) = (&cache[&i], &cache[&j]);
    let bbox = |t: &[DVec2; 3]| (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2]));
    let mut total = 0.0;
    for t in ta {
        let (l, h) = bbox(t);
        for u in tb {
            let (m, n) = bbox(u);
            if l.x <= n.x && m.x <= h.x && l.y <= n.y && m.y <= h.y {
                total += ring::triangle_overlap_area(*t, *u);
                if total > OVERLAP_AREA {
                    return total;
                }
            }
        }
    }
    total
}
