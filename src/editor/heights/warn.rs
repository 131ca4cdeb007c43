//! The limits a sector's heights meet, as numbers (no egui): the riser each sector makes against each
//! neighbour against the character's `max_step`, its headroom (and the opening into each neighbour) against
//! the body's height and crouch height, its floor's slope against `max_slope_deg`. The 3D preview labels
//! them at the edge while a height changes, the status bar and the inspector list them.
//!
//! Everything is measured on the level's own planes ([`HeightFn`]): a sloped floor's riser is its largest
//! difference along the shared part of the edge, a headroom the least gap over the outline (both surfaces
//! are planes, so the extremes are at the points measured).

use glam::{Vec2, Vec3};

use crate::character::CharacterController;
use crate::level::{Level, ObjectId, SectorObject};
use crate::sector::{HeightFn, MAX_SLOPE_DEGREES, SHARE_TOLERANCE};

/// Which limit a number is held against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarnKind {
    /// A riser between two floors, against `max_step`.
    Riser,
    /// The gap between a sector's floor and its ceiling, against the body's height (and crouch height).
    Headroom,
    /// The opening over a shared edge (lowest ceiling above the highest floor), against the same.
    Opening,
    /// A floor's slope, against `max_slope_deg`.
    Slope,
}

/// How a number stands against its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Within the limit.
    Fits,
    /// Passable only crouching (headroom or opening under the body's height, at least its crouch height).
    Crouch,
    /// Beyond the limit: not climbed, not passed, not walked up.
    Over,
}

/// One number against one limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The sector measured.
    pub sector: ObjectId,
    /// The neighbour across the edge (risers and openings).
    pub other: Option<ObjectId>,
    /// What is measured.
    pub kind: WarnKind,
    /// The number: metres, or degrees for a slope.
    pub value: f32,
    /// The limit it is held against (the crouch height when a headroom is below it).
    pub limit: f32,
    /// How it stands.
    pub verdict: Verdict,
    /// Where to label it: the top of a riser at the middle of the longest shared part, an opening's top
    /// there, a headroom or slope over the sector's middle.
    pub at: Vec3,
}

impl Warning {
    /// Whether the number is beyond its limit (drawn red).
    #[must_use]
    pub fn over(&self) -> bool {
        self.verdict == Verdict::Over
    }

    /// The label: "riser 0.42 m > max_step 0.35 m", "headroom 1.20 m < height 1.80 m: crouch",
    /// "slope 30.0° ≤ max_slope_deg 45°".
    #[must_use]
    pub fn text(&self) -> String {
        let (v, l) = (self.value, self.limit);
        match (self.kind, self.verdict) {
            (WarnKind::Riser, Verdict::Over) => format!("riser {v:.2} m > max_step {l:.2} m"),
            (WarnKind::Riser, _) => format!("riser {v:.2} m ≤ max_step {l:.2} m"),
            (WarnKind::Slope, Verdict::Over) => format!("slope {v:.1}° > max_slope_deg {l:.0}°"),
            (WarnKind::Slope, _) => format!("slope {v:.1}° ≤ max_slope_deg {l:.0}°"),
            (k, verdict) => {
                let what = if k == WarnKind::Headroom {
                    "headroom"
                } else {
                    "opening"
                };
                match verdict {
                    Verdict::Over => format!("{what} {v:.2} m < crouch_height {l:.2} m"),
                    Verdict::Crouch => format!("{what} {v:.2} m < height {l:.2} m: crouch"),
                    Verdict::Fits => format!("{what} {v:.2} m ≥ height {l:.2} m"),
                }
            }
        }
    }
}

/// Risers lower than this (metres) are no risers: the floors meet.
const FLUSH: f32 = 1e-3;

/// The numbers of sectors `ids` of `level` against the level's character (the default one when the level
/// has none): each sector's slope (when sloped) and headroom, and against each neighbour sharing an edge
/// with it (within the runtime's sharing tolerance, height ranges overlapping) its riser (when the floors
/// differ) and the opening over the edge (when under the body's height). Beyond-the-limit first, then in
/// the order measured; ids that are no sector are skipped.
#[must_use]
pub fn warnings(level: &Level, ids: &[ObjectId]) -> Vec<Warning> {
    let c = level.character.unwrap_or_default();
    let mut out = Vec::new();
    for &id in ids {
        let Some(s) = level.sectors.iter().find(|s| s.id == id) else {
            continue;
        };
        own(s, &c, &mut out);
        let (lo, hi) = bounds(s);
        for n in level.sectors.iter().filter(|n| n.id != id) {
            let (nlo, nhi) = bounds(n);
            let e = 1e-3;
            if nlo.x > hi.x + e || nlo.y > hi.y + e || lo.x > nhi.x + e || lo.y > nhi.y + e {
                continue;
            }
            across(s, n, &c, &mut out);
        }
    }
    out.sort_by_key(|w| std::cmp::Reverse(w.verdict));
    out
}

fn bounds(s: &SectorObject) -> (Vec2, Vec2) {
    s.outline.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

/// The headroom verdict of a gap.
fn headroom(gap: f32, c: &CharacterController) -> (Verdict, f32) {
    let crouch = c.crouching_height();
    if gap < crouch {
        (Verdict::Over, crouch)
    } else if gap < c.height {
        (Verdict::Crouch, c.height)
    } else {
        (Verdict::Fits, c.height)
    }
}

/// The sector's own numbers: slope and headroom.
fn own(s: &SectorObject, c: &CharacterController, out: &mut Vec<Warning>) {
    let floor = HeightFn::new(&s.floor, &s.outline);
    let ceiling = HeightFn::new(&s.ceiling, &s.outline);
    let points: Vec<Vec2> = s
        .outline
        .iter()
        .chain(s.holes.iter().flatten())
        .copied()
        .filter(|p| p.is_finite())
        .collect();
    if points.is_empty() {
        return;
    }
    let mid = points.iter().copied().sum::<Vec2>() / points.len() as f32;
    let gap = points
        .iter()
        .map(|&p| ceiling.at(p) - floor.at(p))
        .fold(f32::INFINITY, f32::min);
    if let Some(slope) = s.floor.slope
        && slope.degrees.is_finite()
        && slope.degrees.abs() < MAX_SLOPE_DEGREES
        && !floor.is_flat()
    {
        let deg = slope.degrees.abs();
        out.push(Warning {
            sector: s.id,
            other: None,
            kind: WarnKind::Slope,
            value: deg,
            limit: c.max_slope_deg,
            verdict: if deg > c.max_slope_deg {
                Verdict::Over
            } else {
                Verdict::Fits
            },
            at: Vec3::new(mid.x, floor.at(mid), mid.y),
        });
    }
    if gap.is_finite() {
        let (verdict, limit) = headroom(gap, c);
        out.push(Warning {
            sector: s.id,
            other: None,
            kind: WarnKind::Headroom,
            value: gap,
            limit,
            verdict,
            at: Vec3::new(mid.x, floor.at(mid) + gap * 0.5, mid.y),
        });
    }
}

/// The parts of `s`'s edges that lie on `n`'s edges (collinear within the sharing tolerance, overlapping by
/// more than it), as plan segments.
#[must_use]
pub fn shared_parts(s: &SectorObject, n: &SectorObject) -> Vec<(Vec2, Vec2)> {
    let tol = SHARE_TOLERANCE * 2.0;
    let mut out = Vec::new();
    for (a, b) in edges(s) {
        let len = a.distance(b);
        if !(len > tol) {
            continue;
        }
        let dir = (b - a) / len;
        let off = |p: Vec2| (p - a).perp_dot(dir).abs();
        for (p, q) in edges(n) {
            if off(p) > tol || off(q) > tol {
                continue;
            }
            let (tp, tq) = ((p - a).dot(dir), (q - a).dot(dir));
            let (t0, t1) = (tp.min(tq).max(0.0), tp.max(tq).min(len));
            if t1 - t0 > tol {
                out.push((a + dir * t0, a + dir * t1));
            }
        }
    }
    out
}

fn edges(s: &SectorObject) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    std::iter::once(&s.outline)
        .chain(&s.holes)
        .flat_map(|r| (0..r.len()).map(move |i| (r[i], r[(i + 1) % r.len()])))
}

/// The riser and the opening between `s` and its neighbour `n` over the parts of the edge they share.
fn across(s: &SectorObject, n: &SectorObject, c: &CharacterController, out: &mut Vec<Warning>) {
    let parts = shared_parts(s, n);
    if parts.is_empty() {
        return;
    }
    let sf = HeightFn::new(&s.floor, &s.outline);
    let sc = HeightFn::new(&s.ceiling, &s.outline);
    let nf = HeightFn::new(&n.floor, &n.outline);
    let nc = HeightFn::new(&n.ceiling, &n.outline);
    let (mut riser, mut opening) = (0.0f32, f32::INFINITY);
    let mut longest = (0.0f32, parts[0]);
    for &(a, b) in &parts {
        for p in [a, b] {
            riser = riser.max((sf.at(p) - nf.at(p)).abs());
            opening = opening.min(sc.at(p).min(nc.at(p)) - sf.at(p).max(nf.at(p)));
        }
        if a.distance(b) > longest.0 {
            longest = (a.distance(b), (a, b));
        }
    }
    // Sealed over the whole edge (storeys, a closed door): nothing passes, nothing to climb.
    if !(opening > 0.0) {
        return;
    }
    let mid = (longest.1.0 + longest.1.1) * 0.5;
    let top = sf.at(mid).max(nf.at(mid));
    if riser > FLUSH {
        out.push(Warning {
            sector: s.id,
            other: Some(n.id),
            kind: WarnKind::Riser,
            value: riser,
            limit: c.max_step,
            verdict: if riser > c.max_step {
                Verdict::Over
            } else {
                Verdict::Fits
            },
            at: Vec3::new(mid.x, top, mid.y),
        });
    }
    if opening < c.height {
        let (verdict, limit) = headroom(opening, c);
        out.push(Warning {
            sector: s.id,
            other: Some(n.id),
            kind: WarnKind::Opening,
            value: opening,
            limit,
            verdict,
            at: Vec3::new(mid.x, top + opening, mid.y),
        });
    }
}

/// The status bar's line: the first `max` numbers beyond their limit (or passable only crouching), joined;
/// `None` when all fit.
#[must_use]
pub fn status_line(warnings: &[Warning], max: usize) -> Option<String> {
    let bad: Vec<String> = warnings
        .iter()
        .filter(|w| w.verdict != Verdict::Fits)
        .take(max)
        .map(Warning::text)
        .collect();
    (!bad.is_empty()).then(|| bad.join(" · "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::sector::new_sector;
    use crate::level::Slope;

    fn rect(x0: f32, x1: f32) -> Vec<Vec2> {
        vec![
            Vec2::new(x0, 0.0),
            Vec2::new(x1, 0.0),
            Vec2::new(x1, 2.0),
            Vec2::new(x0, 2.0),
        ]
    }

    fn level(sectors: Vec<(f32, f32, f32, f32)>) -> Level {
        let sectors = sectors
            .into_iter()
            .enumerate()
            .map(|(i, (x0, x1, floor, ceiling))| {
                let mut s = new_sector(rect(x0, x1), floor, ceiling);
                s.id = ObjectId(i as u32 + 1);
                s
            })
            .collect();
        Level {
            sectors,
            ..Level::default()
        }
    }

    #[test]
    fn a_riser_above_max_step_is_red_with_its_numbers() {
        let l = level(vec![(0.0, 2.0, 0.0, 3.0), (2.0, 4.0, 0.42, 3.0)]);
        let w = warnings(&l, &[ObjectId(2)]);
        let r = w.iter().find(|w| w.kind == WarnKind::Riser).unwrap();
        assert!(r.over() && r.other == Some(ObjectId(1)));
        assert_eq!(r.text(), "riser 0.42 m > max_step 0.35 m");
        assert!(
            (r.at - Vec3::new(2.0, 0.42, 1.0)).length() < 1e-5,
            "{:?}",
            r.at
        );
        assert_eq!(w[0].kind, WarnKind::Riser, "beyond the limit first");
        // Seen from the lower side, the same riser.
        let w = warnings(&l, &[ObjectId(1)]);
        assert!(w.iter().any(|w| w.kind == WarnKind::Riser && w.over()));
        assert_eq!(
            status_line(&w, 3).unwrap(),
            "riser 0.42 m > max_step 0.35 m"
        );
    }

    #[test]
    fn a_low_riser_fits_and_flush_floors_have_none() {
        let l = level(vec![
            (0.0, 2.0, 0.0, 3.0),
            (2.0, 4.0, 0.2, 3.0),
            (4.0, 6.0, 0.2, 3.0),
        ]);
        let w = warnings(&l, &[ObjectId(2)]);
        let risers: Vec<&Warning> = w.iter().filter(|w| w.kind == WarnKind::Riser).collect();
        assert_eq!(risers.len(), 1, "{w:?}");
        assert_eq!(risers[0].verdict, Verdict::Fits);
        assert_eq!(risers[0].text(), "riser 0.20 m ≤ max_step 0.35 m");
        assert_eq!(status_line(&w, 3), None);
    }

    #[test]
    fn headroom_and_openings_against_the_body_and_its_crouch() {
        // A 1.2 m passage beside a 3 m room, then a 0.8 m crawl space.
        let l = level(vec![
            (0.0, 2.0, 0.0, 3.0),
            (2.0, 4.0, 0.0, 1.2),
            (4.0, 6.0, 0.0, 0.8),
        ]);
        let w = warnings(&l, &[ObjectId(2)]);
        let own = w.iter().find(|w| w.kind == WarnKind::Headroom).unwrap();
        assert_eq!(own.verdict, Verdict::Crouch);
        assert_eq!(own.text(), "headroom 1.20 m < height 1.80 m: crouch");
        let openings: Vec<&Warning> = w.iter().filter(|w| w.kind == WarnKind::Opening).collect();
        assert_eq!(openings.len(), 2, "{w:?}");
        let crawl = openings
            .iter()
            .find(|o| o.other == Some(ObjectId(3)))
            .unwrap();
        assert!(crawl.over());
        assert_eq!(crawl.text(), "opening 0.80 m < crouch_height 1.00 m");
        let room = warnings(&l, &[ObjectId(1)]);
        let h = room.iter().find(|w| w.kind == WarnKind::Headroom).unwrap();
        assert_eq!(h.text(), "headroom 3.00 m ≥ height 1.80 m");
    }

    #[test]
    fn a_slope_against_max_slope_and_a_sloped_riser_at_its_highest() {
        let mut l = level(vec![(0.0, 2.0, 0.0, 4.0), (2.0, 4.0, 0.0, 4.0)]);
        // The second floor rises 30° away from its edge at z = 0 (edge 0): 2 m deep, about 1.15 m high
        // at z = 2, where it meets the first at x = 2.
        l.sectors[1].floor.slope = Some(Slope {
            edge: 0,
            degrees: 30.0,
        });
        let w = warnings(&l, &[ObjectId(2)]);
        let s = w.iter().find(|w| w.kind == WarnKind::Slope).unwrap();
        assert_eq!(s.text(), "slope 30.0° ≤ max_slope_deg 45°");
        let r = w.iter().find(|w| w.kind == WarnKind::Riser).unwrap();
        assert!(
            (r.value - 2.0 * 30f32.to_radians().tan()).abs() < 1e-4,
            "{r:?}"
        );
        l.sectors[1].floor.slope = Some(Slope {
            edge: 0,
            degrees: 52.0,
        });
        let w = warnings(&l, &[ObjectId(2)]);
        let s = w.iter().find(|w| w.kind == WarnKind::Slope).unwrap();
        assert!(s.over() && s.text() == "slope 52.0° > max_slope_deg 45°");
    }

    #[test]
    fn storeys_share_nothing_and_partial_edges_share_their_overlap() {
        // An upper storey over the room: same plan, heights apart.
        let mut l = level(vec![(0.0, 2.0, 0.0, 3.0), (0.0, 2.0, 3.0, 6.0)]);
        let w = warnings(&l, &[ObjectId(1)]);
        assert!(w.iter().all(|w| w.other.is_none()), "{w:?}");
        // A narrow room against part of a long edge: the shared part is the narrow one's edge.
        let mut narrow = new_sector(
            vec![
                Vec2::new(2.0, 0.5),
                Vec2::new(3.0, 0.5),
                Vec2::new(3.0, 1.5),
                Vec2::new(2.0, 1.5),
            ],
            0.5,
            3.0,
        );
        narrow.id = ObjectId(3);
        l.sectors.push(narrow);
        let parts = shared_parts(&l.sectors[0], &l.sectors[2]);
        assert_eq!(parts.len(), 1);
        let (a, b) = parts[0];
        assert!(
            (a.y - b.y).abs() > 0.99 && a.x == 2.0 && b.x == 2.0,
            "{parts:?}"
        );
        let w = warnings(&l, &[ObjectId(3)]);
        assert!(
            w.iter()
                .any(|w| w.kind == WarnKind::Riser && w.over() && w.other == Some(ObjectId(1)))
        );
    }
}
