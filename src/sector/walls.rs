//! The vertical faces along one part of an edge, seen from the air of one sector (the viewer) across to
//! the sectors sharing the part with it: what their air leaves uncovered of the viewer's floor-to-ceiling
//! span is a riser, a lintel or a wall.

use glam::{DVec2, Vec2, Vec3};

use super::HeightFn;
use super::cooked::{CookedSector, FaceKind};

/// A part of a sector's edge between two split points.
#[derive(Clone, Copy, Debug)]
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
        }
    }
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
    let station = |at: Vec2| Station {
        at,
        y: lines.iter().map(|(h, _)| h.at(at)).collect(),
    };
    let (sa, sb) = (station(part.a), station(part.b));
    // Split where two lines cross, so the lines keep one order along each piece.
    let mut cuts: Vec<f64> = Vec::new();
    for i in 0..lines.len() {
        for j in i + 1..lines.len() {
            let da = f64::from(sa.y[i]) - f64::from(sa.y[j]);
            let db = f64::from(sb.y[i]) - f64::from(sb.y[j]);
            if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
                let u = da / (da - db);
                if u > 1e-6 && u < 1.0 - 1e-6 {
                    cuts.push(u);
                }
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.dedup_by(|x, y| (*x - *y).abs() < 1e-9);
    let mut stations = Vec::with_capacity(cuts.len() + 2);
    stations.push(sa);
    for &u in &cuts {
        let p = part.a.as_dvec2().lerp(part.b.as_dvec2(), u).as_vec2();
        stations.push(station(p));
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
    let mut tris: Vec<[Vec3; 3]> = Vec::with_capacity(2);
    if b1.y > b0.y {
        tris.push([a0, b0, b1]);
    }
    if a1.y > a0.y {
        tris.push([a0, b1, a1]);
    }
    let Some(first) = tris.first() else { return };
    let n = (first[1] - first[0]).cross(first[2] - first[0]);
    let flip = n.dot(facing) < 0.0;
    for t in tris {
        out.push(if flip { [t[0], t[2], t[1]] } else { t }, kind);
    }
}
