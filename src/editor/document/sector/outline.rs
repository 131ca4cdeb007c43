//! Outlines the Sector tool draws: the closed loop of existing sector edges around a point (to fill it), and
//! where a drawn outline crosses itself (to refuse it with the reason).

use std::collections::{HashMap, HashSet};

use glam::Vec2;

use super::{WELD, dedup_welded, same_point};
use crate::level::{Level, SectorObject};
use crate::sector::ring;

/// The welded vertices and undirected edges of some sectors, each edge split at the vertices lying on it
/// (a room drawn against part of a long edge leaves T-junctions there).
struct Graph {
    verts: Vec<Vec2>,
    edges: Vec<(usize, usize)>,
}

impl Graph {
    fn new<'a>(sectors: impl Iterator<Item = &'a SectorObject>) -> Self {
        let mut verts: Vec<Vec2> = Vec::new();
        let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        let cell = |q: Vec2| {
            (
                (f64::from(q.x) / f64::from(WELD)).floor() as i64,
                (f64::from(q.y) / f64::from(WELD)).floor() as i64,
            )
        };
        let mut id_of = |q: Vec2| -> usize {
            let (cx, cz) = cell(q);
            for dx in -1..=1 {
                for dz in -1..=1 {
                    if let Some(v) = cells.get(&(cx + dx, cz + dz))
                        && let Some(&i) = v.iter().find(|&&i| same_point(verts[i], q))
                    {
                        return i;
                    }
                }
            }
            verts.push(q);
            cells.entry((cx, cz)).or_default().push(verts.len() - 1);
            verts.len() - 1
        };
        let mut seen = HashSet::new();
        let mut raw = Vec::new();
        for s in sectors {
            for r in std::iter::once(&s.outline).chain(&s.holes) {
                if r.iter().any(|p| !p.is_finite()) {
                    continue;
                }
                let n = r.len();
                for i in 0..n {
                    let (u, v) = (id_of(r[i]), id_of(r[(i + 1) % n]));
                    if u != v && seen.insert((u.min(v), u.max(v))) {
                        raw.push((u, v));
                    }
                }
            }
        }
        let edges = split_at_vertices(&verts, raw);
        Graph { verts, edges }
    }
}

/// Split each edge at the vertices on its inside (found by a sweep over the vertices sorted by `x`).
fn split_at_vertices(verts: &[Vec2], raw: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut by_x: Vec<usize> = (0..verts.len()).collect();
    by_x.sort_by(|a, b| verts[*a].x.total_cmp(&verts[*b].x));
    let xs: Vec<f32> = by_x.iter().map(|&i| verts[i].x).collect();
    let mut seen = HashSet::new();
    let mut edges = Vec::with_capacity(raw.len());
    for (u, v) in raw {
        let (a, b) = (verts[u], verts[v]);
        let (lo, hi) = (a.x.min(b.x) - WELD, a.x.max(b.x) + WELD);
        let start = xs.partition_point(|x| *x < lo);
        let d = b - a;
        let len2 = d.length_squared();
        let mut on: Vec<(f32, usize)> = Vec::new();
        for &w in by_x[start..].iter().take_while(|&&w| verts[w].x <= hi) {
            if w == u || w == v {
                continue;
            }
            let t = (verts[w] - a).dot(d) / len2;
            if t > 0.0 && t < 1.0 && same_point(a + d * t, verts[w]) {
                on.push((t, w));
            }
        }
        on.sort_by(|x, y| x.0.total_cmp(&y.0));
        let chain: Vec<usize> = std::iter::once(u)
            .chain(on.into_iter().map(|(_, w)| w))
            .chain(std::iter::once(v))
            .collect();
        for w in chain.windows(2) {
            if seen.insert((w[0].min(w[1]), w[0].max(w[1]))) {
                edges.push((w[0], w[1]));
            }
        }
    }
    edges
}

/// The smallest closed loop of the sectors' edges (those `keep` accepts) around `p`, counter-clockwise,
/// or `None` when `p` is in no closed loop: what the Sector tool fills on a double-click.
#[must_use]
pub fn loop_around(
    level: &Level,
    p: Vec2,
    keep: impl Fn(&SectorObject) -> bool,
) -> Option<Vec<Vec2>> {
    let Graph { verts, edges } = Graph::new(level.sectors.iter().filter(|s| keep(s)));
    let mut around: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(u, v) in &edges {
        around.entry(u).or_default().push(v);
        around.entry(v).or_default().push(u);
    }
    // The nearest edge the ray from p toward +x crosses, directed so p is on its left.
    let mut best: Option<(f32, usize, usize)> = None;
    for &(u, v) in &edges {
        let (a, b) = (verts[u], verts[v]);
        if (a.y > p.y) == (b.y > p.y) {
            continue;
        }
        let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
        if x > p.x && best.is_none_or(|(bx, _, _)| x < bx) {
            best = Some((x, u, v));
        }
    }
    let (_, mut u, mut v) = best?;
    if (verts[v] - verts[u]).perp_dot(p - verts[u]) < 0.0 {
        std::mem::swap(&mut u, &mut v);
    }
    let start = (u, v);
    let mut out = vec![verts[u]];
    for _ in 0..=edges.len() {
        // At v, the first edge clockwise from the way back (v → u): the face on the left.
        let back = verts[u] - verts[v];
        let back_angle = back.y.atan2(back.x);
        let mut next: Option<(f32, usize)> = None;
        for &w in around.get(&v)? {
            if w == u {
                continue;
            }
            let d = verts[w] - verts[v];
            let mut turn = back_angle - d.y.atan2(d.x);
            while turn <= 0.0 {
                turn += std::f32::consts::TAU;
            }
            if next.is_none_or(|(t, _)| turn < t) {
                next = Some((turn, w));
            }
        }
        // A dead end (a lone edge) turns back along itself.
        let w = next.map_or(u, |n| n.1);
        (u, v) = (v, w);
        if (u, v) == start {
            let r = dedup_welded(out);
            return (r.len() >= 3 && ring::signed_area(&r) > 0.0 && ring::contains(&r, p))
                .then_some(r);
        }
        out.push(verts[u]);
    }
    None
}

/// Where the outline first crosses itself: the two edges' indices, or `None` for a simple outline.
#[must_use]
pub fn self_crossing(outline: &[Vec2]) -> Option<(usize, usize)> {
    let n = outline.len();
    for i in 0..n {
        for j in i + 1..n {
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            let (a, b) = (outline[i], outline[(i + 1) % n]);
            let (c, d) = (outline[j], outline[(j + 1) % n]);
            let bad = if adjacent {
                let (first, shared, last) = if j == i + 1 { (a, b, d) } else { (c, a, b) };
                ring::folds_back(first, shared, last)
            } else {
                ring::segments_meet(a, b, c, d)
            };
            if bad {
                return Some((i, j));
            }
        }
    }
    None
}
