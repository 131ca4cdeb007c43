//! The greybox builders as plain functions (no egui, no document): stairs, a ramp, a room and a doorway,
//! each returning the sectors it makes. The Build tool (`greybox::build`) finds the heights around a drag
//! and turns the result into one checked undo step; the level generator and the tests call these directly.
//!
//! Points shared between the sectors a builder makes are computed once and copied, so they are
//! bit-identical (welded): the runtime then shares the edges exactly, with no T-junction.

use glam::Vec2;

use crate::editor::document::sector::{new_sector, same_point};
use crate::level::{SectorObject, Slope};

pub use crate::editor::command::Builder;

/// A dragged run: an axis-aligned rectangle climbed along its longer side, away from where the drag
/// started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The climb's axis: 0 for x, 1 for z.
    pub axis: usize,
    /// The coordinate (on `axis`) where the climb starts.
    pub from: f32,
    /// The coordinate (on `axis`) where the climb ends.
    pub to: f32,
    /// The rectangle's lower coordinate across the climb.
    pub side_lo: f32,
    /// The rectangle's upper coordinate across the climb.
    pub side_hi: f32,
}

impl Run {
    /// The run dragged from `start` to `end`; `None` when the rectangle is thinner than 1 cm either way.
    #[must_use]
    pub fn of_drag(start: Vec2, end: Vec2) -> Option<Self> {
        let d = end - start;
        if !(d.x.abs() >= 0.01 && d.y.abs() >= 0.01) {
            return None;
        }
        let axis = usize::from(d.y.abs() > d.x.abs());
        let other = 1 - axis;
        Some(Self {
            axis,
            from: start[axis],
            to: end[axis],
            side_lo: start[other].min(end[other]),
            side_hi: start[other].max(end[other]),
        })
    }

    /// The world point at `along` on the climb's axis and `across` on the other.
    #[must_use]
    pub fn point(&self, along: f32, across: f32) -> Vec2 {
        if self.axis == 0 {
            Vec2::new(along, across)
        } else {
            Vec2::new(across, along)
        }
    }

    /// The unit vector of the climb.
    #[must_use]
    pub fn forward(&self) -> Vec2 {
        let s = if self.to >= self.from { 1.0 } else { -1.0 };
        self.point(s, 0.0) - self.point(0.0, 0.0)
    }

    /// The run's length along the climb, metres.
    #[must_use]
    pub fn length(&self) -> f32 {
        (self.to - self.from).abs()
    }

    /// The middle of the edge where the climb starts.
    #[must_use]
    pub fn start_mid(&self) -> Vec2 {
        self.point(self.from, (self.side_lo + self.side_hi) * 0.5)
    }

    /// The middle of the edge where the climb ends.
    #[must_use]
    pub fn end_mid(&self) -> Vec2 {
        self.point(self.to, (self.side_lo + self.side_hi) * 0.5)
    }

    /// The coordinate of the `k`-th of `n` equal cuts along the climb: the ends exact.
    fn cut(&self, k: u32, n: u32) -> f32 {
        if k == 0 {
            self.from
        } else if k >= n {
            self.to
        } else {
            self.from + (self.to - self.from) * (k as f32 / n as f32)
        }
    }

    /// The slice between cuts `a` and `b` (coordinates along the climb), its first edge across the climb at
    /// `a` (a slope's edge 0).
    fn slice(&self, a: f32, b: f32) -> Vec<Vec2> {
        vec![
            self.point(a, self.side_lo),
            self.point(a, self.side_hi),
            self.point(b, self.side_hi),
            self.point(b, self.side_lo),
        ]
    }

    /// The whole rectangle as an outline, edge 0 across the climb's start.
    #[must_use]
    pub fn outline(&self) -> Vec<Vec2> {
        self.slice(self.from, self.to)
    }
}

/// The most steps a stair may have (a bound on what one drag makes).
pub const MAX_STEPS: u32 = 1000;

/// `steps` step sectors up `run`, the first tread `rise / steps` above `base`, the last exactly at
/// `base + rise`; each ceiling `headroom` above its tread. Neighbouring steps share their edge's two points
/// bit for bit.
///
/// # Errors
/// No steps, more than [`MAX_STEPS`], or a value that is not finite or a headroom not above zero.
pub fn stairs(
    run: &Run,
    steps: u32,
    base: f32,
    rise: f32,
    headroom: f32,
) -> Result<Vec<SectorObject>, String> {
    if steps == 0 || steps > MAX_STEPS {
        return Err(format!("a stair has 1 to {MAX_STEPS} steps, not {steps}"));
    }
    if !(base.is_finite() && rise.is_finite() && headroom.is_finite() && headroom > 0.0) {
        return Err("the stair's heights must be finite and its headroom above 0".into());
    }
    let out = (0..steps)
        .map(|k| {
            let floor = if k + 1 == steps {
                base + rise
            } else {
                base + rise * ((k + 1) as f32 / steps as f32)
            };
            let outline = run.slice(run.cut(k, steps), run.cut(k + 1, steps));
            let mut s = new_sector(outline, floor, floor + headroom);
            s.name = Some(format!("step {}", k + 1));
            s
        })
        .collect();
    Ok(out)
}

/// The slope, degrees, that rises from `from` to `to` over `length` metres.
#[must_use]
pub fn ramp_degrees(length: f32, from: f32, to: f32) -> f32 {
    if length > 0.0 {
        (to - from).atan2(length).to_degrees()
    } else {
        0.0
    }
}

/// One sector over `run`, its floor through the start edge at `base` and rising `degrees` along the climb
/// (`Slope { edge: 0, degrees }`), its ceiling `headroom` above the floor and parallel to it.
///
/// # Errors
/// `|degrees|` of 89 or more, or a value that is not finite, or a headroom not above zero.
pub fn ramp(run: &Run, base: f32, degrees: f32, headroom: f32) -> Result<SectorObject, String> {
    if !(degrees.is_finite() && degrees.abs() < 89.0) {
        return Err(format!("a ramp's slope is under 89°, not {degrees}°"));
    }
    if !(base.is_finite() && headroom.is_finite() && headroom > 0.0) {
        return Err("the ramp's heights must be finite and its headroom above 0".into());
    }
    let slope = (degrees != 0.0).then_some(Slope { edge: 0, degrees });
    let mut s = new_sector(run.outline(), base, base + headroom);
    s.floor.slope = slope;
    s.ceiling.slope = slope;
    s.name = Some("ramp".into());
    Ok(s)
}

/// A room over the rectangle with corners `a` and `b`: a floor at `floor`, a ceiling `height` above.
///
/// # Errors
/// A rectangle thinner than 1 cm, or a height not above zero.
pub fn room(a: Vec2, b: Vec2, floor: f32, height: f32) -> Result<SectorObject, String> {
    let (lo, hi) = (a.min(b), a.max(b));
    if !(hi.x - lo.x >= 0.01 && hi.y - lo.y >= 0.01) {
        return Err("drag a rectangle at least 1 cm each way".into());
    }
    if !(floor.is_finite() && height.is_finite() && height > 0.0) {
        return Err("a room's floor must be finite and its height above 0".into());
    }
    let outline = vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    Ok(new_sector(outline, floor, floor + height))
}

/// A doorway's sizes, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DoorSize {
    /// Across the opening.
    pub width: f32,
    /// From the doorway's floor to its ceiling.
    pub height: f32,
    /// The wall's thickness: the rooms are pulled back by half of it each along their shared edge, so they
    /// no longer touch beside the doorway (walls there) and the doorway sector fills the gap.
    pub wall: f32,
}

impl Default for DoorSize {
    fn default() -> Self {
        Self {
            width: 1.0,
            height: 2.1,
            wall: 0.2,
        }
    }
}

/// What the doorway builder makes: the two rooms (same ids, pulled back along their shared edge) and the
/// doorway sector between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Doorway {
    /// The two rooms, changed.
    pub rooms: [SectorObject; 2],
    /// The new doorway sector (id 0).
    pub door: SectorObject,
}

/// An edge of `a`'s outline and one of `b`'s, collinear and overlapping (the longest such overlap):
/// `(edge of a, edge of b, overlap's start, overlap's end)` with the overlap along a's edge.
fn shared_edge(a: &SectorObject, b: &SectorObject) -> Option<(usize, usize, Vec2, Vec2)> {
    let (na, nb) = (a.outline.len(), b.outline.len());
    let mut best: Option<(f32, (usize, usize, Vec2, Vec2))> = None;
    for i in 0..na {
        let (p, q) = (a.outline[i], a.outline[(i + 1) % na]);
        let len = p.distance(q);
        if len < 1e-3 {
            continue;
        }
        let dir = (q - p) / len;
        let normal = Vec2::new(-dir.y, dir.x);
        for j in 0..nb {
            let (r, s) = (b.outline[j], b.outline[(j + 1) % nb]);
            let on_line = |x: Vec2| (x - p).dot(normal).abs() <= 1e-4;
            // Either winding: the rooms' edges may run either way along the line.
            if !(on_line(r) && on_line(s)) {
                continue;
            }
            let (t0, t1) = {
                let (u, v) = ((r - p).dot(dir), (s - p).dot(dir));
                (u.min(v).max(0.0), u.max(v).min(len))
            };
            let overlap = t1 - t0;
            if overlap > 1e-3 && best.is_none_or(|(o, _)| overlap > o) {
                // The overlap's ends: the edges' own points where they lie there, so they stay welded.
                let snap = |t: f32| {
                    let x = p + dir * t;
                    [p, q, r, s]
                        .into_iter()
                        .find(|c| same_point(*c, x))
                        .unwrap_or(x)
                };
                best = Some((overlap, (i, j, snap(t0), snap(t1))));
            }
        }
    }
    best.map(|(_, e)| e)
}

/// `ring` with its edge `i` (from `ring[i]`) pulled back by `inward` over `[s0, s1]` (on that edge):
/// an end of the part at a corner moves the corner, an end inside the edge makes a notch.
fn pull_back(ring: &[Vec2], i: usize, s0: Vec2, s1: Vec2, inward: Vec2) -> Vec<Vec2> {
    let n = ring.len();
    let (p, q) = (ring[i], ring[(i + 1) % n]);
    // The part's ends in the edge's own direction.
    let (s0, s1) = if (s1 - s0).dot(q - p) < 0.0 {
        (s1, s0)
    } else {
        (s0, s1)
    };
    let mut out = Vec::with_capacity(n + 4);
    for (k, v) in ring.iter().enumerate() {
        if k == (i + 1) % n && same_point(*v, s1) {
            continue; // moved: pushed after the edge's part below
        }
        if k == i {
            if !same_point(p, s0) {
                out.push(*v);
                out.push(s0);
            }
            out.push(s0 + inward);
            out.push(s1 + inward);
            if !same_point(q, s1) {
                out.push(s1);
            }
        } else {
            out.push(*v);
        }
    }
    out
}

/// A doorway between rooms `a` and `b`, which share part of an outline edge: both rooms are pulled back
/// by half the wall's thickness along the whole shared part (so beside the doorway they no longer touch:
/// walls), and the doorway sector fills the gap over `size.width` around `at` (projected on the shared
/// edge, kept inside it; `None`: its middle), its floor the higher of the two and its ceiling
/// `size.height` above.
///
/// # Errors
/// The rooms share no edge, a room is sloped, the shared part is narrower than the door, or a size is not
/// positive.
pub fn doorway(
    a: &SectorObject,
    b: &SectorObject,
    at: Option<Vec2>,
    size: DoorSize,
) -> Result<Doorway, String> {
    let DoorSize {
        width,
        height,
        wall,
    } = size;
    let sizes = [width, height, wall];
    if !sizes.iter().all(|v| v.is_finite() && *v > 0.0) {
        return Err("a doorway's width, height and wall must be above 0".into());
    }
    if [a, b]
        .iter()
        .any(|s| s.floor.slope.is_some() || s.ceiling.slope.is_some())
    {
        return Err("a doorway joins flat rooms: make the rooms flat first".into());
    }
    let (ia, ib, s0, s1) =
        shared_edge(a, b).ok_or("the two rooms share no edge: draw them against each other")?;
    let len = s0.distance(s1);
    if len < width + 1e-3 {
        return Err(format!(
            "the shared wall is {len:.2} m, too narrow for a {width:.2} m doorway"
        ));
    }
    let dir = (s1 - s0) / len;
    let centre = at.map_or(len * 0.5, |p| (p - s0).dot(dir));
    let c = centre.clamp(width * 0.5, len - width * 0.5);
    let (d0, d1) = (s0 + dir * (c - width * 0.5), s0 + dir * (c + width * 0.5));
    // Into a: the side of a's edge its area lies on (either winding).
    let left = Vec2::new(-dir.y, dir.x);
    let mid = (s0 + s1) * 0.5;
    let into_a = if crate::sector::ring::contains(&a.outline, mid + left * 1e-3) {
        left
    } else {
        -left
    };
    let half = wall * 0.5;
    let (ia_in, ib_in) = (into_a * half, -into_a * half);
    let mut ra = a.clone();
    ra.outline = pull_back(&a.outline, ia, s0, s1, ia_in);
    let mut rb = b.clone();
    rb.outline = pull_back(&b.outline, ib, s0, s1, ib_in);
    let floor = a.floor.height.max(b.floor.height);
    let outline = vec![d0 + ia_in, d1 + ia_in, d1 + ib_in, d0 + ib_in];
    let mut door = new_sector(outline, floor, floor + height);
    door.name = Some("doorway".into());
    Ok(Doorway {
        rooms: [ra, rb],
        door,
    })
}

#[cfg(test)]
#[path = "builders_tests.rs"]
mod tests;
