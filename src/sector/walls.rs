//! The vertical faces along one part of an edge, seen from the air of one sector (the viewer) across to
//! the sectors sharing the part with it: what their air leaves uncovered of the viewer's floor-to-ceiling
//! span is a riser, a lintel or a wall.

use glam::{DVec2, Vec2, Vec3};

use super::cooked::{CookedSector, FaceKind};
use super::{HeightFn, SHARE_TOLERANCE};

/// A part of a sector's edge between two split points.
#[derive(Clone, Debug)]
pub struct Part {
    /// The ring and edge it lies on.
    pub ring: u32,
    /// The edge.
    pub edge: u32,
    /// Its start (a ring point or a split point, exactly).
    pub a: Vec2,
    /// Its end.
    pub b: Vec2,
    /// The edge parameter of its middle.
    pub mid: f64,
    /// At `a`, where lines cross there: the height each of those lines takes ([`line_key`], height).
    pub snap_a: Vec<(u64, f32)>,
    /// At `b`, likewise.
    pub snap_b: Vec<(u64, f32)>,
}

impl Part {
    /// The part from `(t0, a)` to `(t1, b)` of edge `edge` of ring `ring`.
    pub fn new(ring: u32, edge: u32, (t0, a): (f64, Vec2), (t1, b): (f64, Vec2)) -> Self {
        Self {
            ring,
            edge,
            a,
            b,
            mid: (t0 + t1) * 0.5,
            snap_a: Vec::new(),
            snap_b: Vec::new(),
        }
    }
}

/// The key of line `index` of a part's lines held by sector slot `slot`: lines come in pairs, floor then
/// ceiling.
pub fn line_key(slot: u32, index: usize) -> u64 {
    u64::from(slot) * 2 + (index % 2) as u64
}

/// A point where lines cross along a part: one vertex of every face and surface there.
#[derive(Clone, Debug)]
pub struct Crossing {
    /// Its parameter from the part's start.
    pub u: f64,
    /// The point.
    pub at: Vec2,
    /// The height all the lines crossing there take at it (the highest of theirs: each line's own height
    /// there may round an ulp apart from the others', which would open a crack no face can fill).
    pub y: f32,
    /// The lines crossing there (indices into the lines given).
    pub lines: Vec<usize>,
}

/// A sector's surfaces, as a part's faces need them.
#[derive(Clone, Copy, Debug)]
pub struct Viewer {
    /// Its slot in the cook.
    pub slot: u32,
    /// Its floor (`None`: the sector did not cook).
    pub floor: Option<HeightFn>,
    /// Its ceiling.
    pub ceiling: Option<HeightFn>,
}

/// A point along the part: where it is, and every line's height there.
struct Station {
    at: Vec2,
    y: Vec<f32>,
}

/// Add to `out` the faces along `part` seen from `viewer` (whose air lies toward `facing`, a unit plan
/// vector) that `owner` holds, with `across` the sectors sharing the part with the viewer.
pub fn part_faces(
    part: &Part,
    facing: DVec2,
    viewer: &Viewer,
    across: &[Viewer],
    owner: u32,
    out: &mut CookedSector,
) {
    let (Some(vf), Some(vc)) = (viewer.floor, viewer.ceiling) else {
        return;
    };
    // Lines: 0 the viewer's floor, 1 its ceiling, then each sector across: floor, ceiling.
    let mut lines = vec![(vf, viewer.slot), (vc, viewer.slot)];
    for o in across {
        if let (Some(f), Some(c)) = (o.floor, o.ceiling) {
            lines.push((f, o.slot));
            lines.push((c, o.slot));
        }
    }
    // Nothing of this part is the owner's unless it is the viewer or across.
    if viewer.slot != owner && !lines.iter().any(|l| l.1 == owner) {
        return;
    }
    let station = |at: Vec2, snaps: &[(u64, f32)]| {
        let mut y: Vec<f32> = lines.iter().map(|(h, _)| h.at(at)).collect();
        for (k, (_, slot)) in lines.iter().enumerate() {
            if let Some(&(_, v)) = snaps.iter().find(|sn| sn.0 == line_key(*slot, k)) {
                y[k] = v;
            }
        }
        Station { at, y }
    };
    let (sa, sb) = (station(part.a, &part.snap_a), station(part.b, &part.snap_b));
    // Split where two lines cross, so the lines keep one order along each piece. The rings already have a
    // point where the viewer's lines cross those across (`crossings` there too), so this cuts only where
    // lines of sectors beyond those meet; a crossing within `SHARE_TOLERANCE` of an end is that end.
    let mut cuts: Vec<Crossing> = Vec::new();
    crossings(part.a, part.b, &lines, &mut cuts);
    let mut stations = Vec::with_capacity(cuts.len() + 2);
    stations.push(sa);
    for c in &cuts {
        let snaps: Vec<(u64, f32)> = c
            .lines
            .iter()
            .map(|&k| (line_key(lines[k].1, k), c.y))
            .collect();
        stations.push(station(c.at, &snaps));
    }
    stations.push(sb);
    let facing = Vec3::new(facing.x as f32, 0.0, facing.y as f32);
    for w in stations.windows(2) {
        for (bottom, top, kind, who) in pieces(&w[0], &w[1], &lines) {
            if who == owner {
                emit(&w[0], &w[1], bottom, top, kind, facing, out);
            }
        }
    }
}

/// The points where two of `lines` cross strictly inside the segment `a`–`b`, more than [`SHARE_TOLERANCE`]
/// from its ends, into `out` (cleared first), ascending; crossings closer than that to one before are that
/// one (its lines join it). Computed from the lesser end (by `x`, then `z`), so the segment given either way
/// round gives the same points and heights bit for bit: the two sectors of a seam insert the same vertex in
/// their rings, and their faces meet there.
pub fn crossings(a: Vec2, b: Vec2, lines: &[(HeightFn, u32)], out: &mut Vec<Crossing>) {
    out.clear();
    if lines.iter().all(|(h, _)| h.is_flat()) {
        // Flat lines never cross (equal ones coincide).
        return;
    }
    let flip = (b.x, b.y) < (a.x, a.y);
    let (lo, hi) = if flip { (b, a) } else { (a, b) };
    let len = (hi - lo).as_dvec2().length();
    let tol = f64::from(SHARE_TOLERANCE);
    if !(len > 2.0 * tol) {
        return;
    }
    let ylo: Vec<f64> = lines.iter().map(|(h, _)| f64::from(h.at(lo))).collect();
    let yhi: Vec<f64> = lines.iter().map(|(h, _)| f64::from(h.at(hi))).collect();
    let mut found: Vec<(f64, usize, usize)> = Vec::new();
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            let (da, db) = (ylo[i] - ylo[j], yhi[i] - yhi[j]);
            if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
                // Either order of the two lines gives the same `u`: negation is exact.
                let u = da / (da - db);
                if u * len > tol && (1.0 - u) * len > tol {
                    found.push((u, i, j));
                }
            }
        }
    }
    found.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    for (u, i, j) in found {
        let at = lo.as_dvec2().lerp(hi.as_dvec2(), u).as_vec2();
        match out.last_mut() {
            Some(c) if (u - c.u) * len <= tol || at == c.at => {
                for k in [i, j] {
                    if !c.lines.contains(&k) {
                        c.lines.push(k);
                    }
                }
            }
            // Far-off coordinates may round it onto an end: that is the end.
            _ if at == lo || at == hi => {}
            _ => out.push(Crossing {
                u,
                at,
                y: 0.0,
                lines: vec![i, j],
            }),
        }
    }
    for c in out.iter_mut() {
        c.y = c
            .lines
            .iter()
            .map(|&k| lines[k].0.at(c.at))
            .fold(f32::NEG_INFINITY, f32::max);
    }
    if flip {
        out.reverse();
        for c in out.iter_mut() {
            c.u = 1.0 - c.u;
        }
    }
}

/// The uncovered pieces of the viewer's span between two stations: `(bottom line, top line, kind, owner)`.
fn pieces(
    p: &Station,
    q: &Station,
    lines: &[(HeightFn, u32)],
) -> Vec<(usize, usize, FaceKind, u32)> {
    let mid = |i: usize| (f64::from(p.y[i]) + f64::from(q.y[i])) * 0.5;
    let (fv, cv) = (mid(0), mid(1));
    let mut out = Vec::new();
    if !(cv > fv) {
        return out;
    }
    // The air of each sector across, clipped to the viewer's: (bottom, top, its floor line, its ceiling line).
    let mut air: Vec<(f64, f64, usize, usize)> = Vec::new();
    for k in (2..lines.len()).step_by(2) {
        // A closed door's lowered ceiling is a few ulps under its floor: no air, not less.
        let (f, c) = (mid(k), mid(k + 1).max(mid(k)));
        if c < fv || f > cv {
            continue;
        }
        let lo = f.max(fv);
        let hi = c.min(cv);
        air.push((
            lo,
            hi,
            if f > fv { k } else { 0 },
            if c < cv { k + 1 } else { 1 },
        ));
    }
    air.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (mut at, mut line) = (fv, 0usize);
    for &(lo, hi, floor_line, ceiling_line) in &air {
        if lo > at {
            out.push((line, floor_line, FaceKind::Riser, lines[floor_line].1));
            (at, line) = (hi, ceiling_line);
        } else if hi > at {
            (at, line) = (hi, ceiling_line);
        }
    }
    if cv > at {
        if line >= 2 {
            out.push((line, 1, FaceKind::Lintel, lines[line].1));
        } else {
            out.push((line, 1, FaceKind::Wall, lines[0].1));
        }
    }
    out
}

/// The quad between lines `bottom` and `top` from station `p` to `q`, as up to two triangles facing `facing`.
fn emit(
    p: &Station,
    q: &Station,
    bottom: usize,
    top: usize,
    kind: FaceKind,
    facing: Vec3,
    out: &mut CookedSector,
) {
    let v = |s: &Station, line: usize| Vec3::new(s.at.x, s.y[line], s.at.y);
    let (a0, a1, b0, b1) = (v(p, bottom), v(p, top), v(q, bottom), v(q, top));
    // Both halves unless flat. At a crossing the two lines may round an ulp apart the wrong way round:
    // that half is then a sliver folded back over the other, and it is kept, for it closes the gap between
    // the floor's (or ceiling's) edge and the other half's diagonal there.
    let mut tris: Vec<[Vec3; 3]> = Vec::with_capacity(2);
    if b1.y != b0.y {
        tris.push([a0, b0, b1]);
    }
    if a1.y != a0.y {
        tris.push([a0, b1, a1]);
    }
    // A half the right way up has the normal (−dz, 0, dx) for the plan step (dx, dz) from `p` to `q` (from
    // the first half, a fold would turn the whole quad round); the fold keeps its winding and faces the
    // other way, as it lies.
    let along = q.at - p.at;
    let flip = Vec3::new(-along.y, 0.0, along.x).dot(facing) < 0.0;
    for t in tris {
        out.push(if flip { [t[0], t[2], t[1]] } else { t }, kind);
    }
}
