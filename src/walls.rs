//! Top-down walls (seed 003): line segments on the floor with a collision distance, a point or circle that is
//! blocked within that distance, and movement that slides along walls instead of stopping.
//!
//! Positions are `Vec2(x, z)` on the floor `y = 0`. Distances are computed in f64 with the projection onto the
//! segment's direction vector, so vertical and horizontal walls are exact (seed 003's slope-intercept form
//! divides by zero on vertical walls and checks only `x` to decide whether the foot of the perpendicular lies
//! on the segment).

use glam::{DVec2, Vec2};

use crate::query::sweep::circle_wall;
use crate::shape::Wall;

/// The gap `move_and_slide` keeps from every wall's collision outline, in metres (scaled up for coordinates
/// so large that f32 cannot resolve it).
pub const MOVE_SKIN: f32 = 1e-4;

/// How many contacts one `move_and_slide` call resolves before it stops where it is.
pub const MAX_SLIDE_ITERATIONS: usize = 8;

/// Distance (f64) from `p` to the segment `a..b`; a zero-length segment is its point.
fn distance_point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    p.distance(closest_point_segment(p, a, b))
}

/// The point (f64) of segment `a..b` closest to `p`.
fn closest_point_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 > 0.0 {
        a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        a
    }
}

/// Distance from `p` to the wall's segment `a..b` (the collision radius is **not** subtracted).
///
/// Exact for walls in any direction, including vertical and horizontal ones, and for a zero-length wall
/// (a post). An invalid wall or non-finite `p` gives `f32::INFINITY` (nothing is blocked by it).
///
/// ```
/// use collidoscope::{glam::Vec2, shape::Wall, walls::distance_point_wall};
/// // A vertical wall x = 2 from z = 0 to z = 4 (seed 003's slope-intercept distance divides by zero here).
/// let wall = Wall::new(Vec2::new(2.0, 0.0), Vec2::new(2.0, 4.0), 0.5);
/// assert_eq!(distance_point_wall(Vec2::new(5.0, 1.0), &wall), 3.0); // beside it
/// assert_eq!(distance_point_wall(Vec2::new(2.0, 7.0), &wall), 3.0); // past its end
/// ```
#[must_use]
pub fn distance_point_wall(p: Vec2, wall: &Wall) -> f32 {
    if !wall.is_valid() || !p.is_finite() {
        return f32::INFINITY;
    }
    distance_point_segment(p.as_dvec2(), wall.a.as_dvec2(), wall.b.as_dvec2()) as f32
}

/// Whether `p` is within some wall's collision distance (`distance <= radius`: touching is blocked), the
/// seed's rule for the camera point. Invalid walls never block; a non-finite `p` is not blocked.
///
/// ```
/// use collidoscope::{glam::Vec2, shape::Wall, walls::blocked};
/// let walls = [Wall::new(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.5)];
/// assert!(blocked(Vec2::new(3.0, 0.5), &walls)); // exactly at the collision distance
/// assert!(!blocked(Vec2::new(3.0, 0.6), &walls));
/// ```
#[must_use]
pub fn blocked(p: Vec2, walls: &[Wall]) -> bool {
    if !p.is_finite() {
        return false;
    }
    let pd = p.as_dvec2();
    walls.iter().any(|w| {
        w.is_valid()
            && distance_point_segment(pd, w.a.as_dvec2(), w.b.as_dvec2()) <= f64::from(w.radius)
    })
}

/// The skin for a move around `p`: [`MOVE_SKIN`], or a few f32 steps of the coordinates when that is larger.
fn skin_at(p: DVec2, motion: DVec2) -> f64 {
    let magnitude = p.abs().max_element().max((p + motion).abs().max_element());
    f64::from(MOVE_SKIN).max(magnitude * f64::from(f32::EPSILON) * 16.0)
}

/// Whether a circle of `radius` at `p` is clear of every wall by more than `margin` beyond the collision
/// distance.
fn clear_of(p: DVec2, radius: f64, walls: &[Wall], margin: f64) -> bool {
    walls.iter().filter(|w| w.is_valid()).all(|w| {
        distance_point_segment(p, w.a.as_dvec2(), w.b.as_dvec2())
            > f64::from(w.radius) + radius + margin
    })
}

/// Push a circle that starts inside walls out along their normals (a few rounds, for corners).
fn depenetrate(mut p: DVec2, radius: f64, walls: &[Wall], skin: f64) -> DVec2 {
    for _ in 0..MAX_SLIDE_ITERATIONS {
        let mut moved = false;
        for w in walls.iter().filter(|w| w.is_valid()) {
            let (a, b) = (w.a.as_dvec2(), w.b.as_dvec2());
            let q = closest_point_segment(p, a, b);
            let want = f64::from(w.radius) + radius + skin;
            let dist = p.distance(q);
            if dist < want {
                let normal = (p - q).try_normalize().unwrap_or_else(|| {
                    (b - a)
                        .try_normalize()
                        .map_or(DVec2::Y, |e| DVec2::new(-e.y, e.x))
                });
                p = q + normal * want;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    p
}

/// Move a circle of `radius` from `from` by `motion`, sliding along walls instead of stopping; returns the
/// reachable end point.
///
/// Each contact (found by the exact sweep [`circle_wall`], so fast moves never tunnel) stops the circle a skin
/// ([`MOVE_SKIN`]) short of the wall, removes the motion's component into the wall and continues with the rest,
/// up to [`MAX_SLIDE_ITERATIONS`] contacts. Every accepted position is checked, so the end point is never
/// within any wall's collision distance plus `radius`. A circle that starts inside walls is first pushed out
/// along their normals (in a gap narrower than the circle no position is clear, and it stays where that push
/// leaves it). A negative or non-finite `radius`, or non-finite motion, moves nothing; a non-finite `from`
/// returns the origin.
///
/// ```
/// use collidoscope::{glam::Vec2, shape::Wall, walls::{move_and_slide, blocked}};
/// // A wall along z = 0; the walker (radius 0.25) at z = 1 moves diagonally (+2, -2) into it.
/// let walls = [Wall::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0), 0.5)];
/// let end = move_and_slide(Vec2::new(0.0, 1.0), 0.25, Vec2::new(2.0, -2.0), &walls);
/// // It stops 0.75 (+ skin) from the wall and slides along x by the whole x motion.
/// assert!((end.x - 2.0).abs() < 1e-3 && (end.y - 0.75).abs() < 1e-3);
/// assert!(!blocked(end, &[Wall { radius: 0.75, ..walls[0] }]));
/// ```
#[must_use]
pub fn move_and_slide(from: Vec2, radius: f32, motion: Vec2, walls: &[Wall]) -> Vec2 {
    if !from.is_finite() {
        return Vec2::ZERO;
    }
    if !motion.is_finite() || !radius.is_finite() || radius < 0.0 {
        return from;
    }
    let r = f64::from(radius);
    let mut pos = from.as_dvec2();
    let mut remaining = motion.as_dvec2();
    let skin = skin_at(pos, remaining);
    if !clear_of(pos, r, walls, 0.0) {
        pos = depenetrate(pos, r, walls, skin);
    }
    for _ in 0..MAX_SLIDE_ITERATIONS {
        let len = remaining.length();
        if !(len > 0.0) {
            break;
        }
        let pos32 = pos.as_vec2();
        let step = remaining.as_vec2();
        // Earliest contact among all walls for the rest of the motion.
        let hit = walls
            .iter()
            .filter_map(|w| circle_wall(pos32, radius, step, w))
            .min_by(|a, b| a.t.total_cmp(&b.t));
        let Some(hit) = hit else {
            let end = pos + remaining;
            if clear_of(end, r, walls, 0.0) {
                pos = end;
            }
            break;
        };
        let normal = hit.normal.as_dvec2();
        let t = f64::from(hit.t);
        // Back off along the motion so the stop is a skin away from the wall along its normal.
        let approach = -normal.dot(remaining) / len; // cos of the angle into the wall, in (0, 1]
        let back = if approach > 0.0 {
            skin / (approach * len)
        } else {
            0.0
        };
        let t_safe = (t - back).max(0.0);
        let candidate = pos + remaining * t_safe;
        if t_safe > 0.0 && clear_of(candidate, r, walls, 0.0) {
            pos = candidate;
        }
        // Slide: keep the rest of the motion minus its component into the wall.
        let rest = remaining * (1.0 - t_safe);
        let into = rest.dot(normal);
        remaining = if into < 0.0 {
            rest - normal * into
        } else {
            rest
        };
        if remaining.length() <= skin * 1e-3 {
            break;
        }
    }
    let out = pos.as_vec2();
    if out.is_finite() { out } else { from }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_in_a_corner() {
        let walls = [
            Wall::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), 0.0),
            Wall::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 10.0), 0.0),
        ];
        let end = move_and_slide(Vec2::new(3.0, 3.0), 0.5, Vec2::new(-10.0, -10.0), &walls);
        assert!((end - Vec2::splat(0.5)).length() < 1e-2, "{end}");
        assert!(distance_point_wall(end, &walls[0]) > 0.5);
        assert!(distance_point_wall(end, &walls[1]) > 0.5);
    }

    #[test]
    fn fast_motion_does_not_tunnel() {
        let walls = [Wall::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.1)];
        let end = move_and_slide(Vec2::new(0.0, 5.0), 0.0, Vec2::new(0.0, -1e6), &walls);
        assert!(end.y > 0.1, "{end}");
    }

    #[test]
    fn starting_inside_is_pushed_out() {
        let walls = [Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 1.0)];
        let end = move_and_slide(Vec2::new(0.0, 0.5), 0.0, Vec2::ZERO, &walls);
        assert!(!blocked(end, &walls), "{end}");
    }
}

/// A uniform grid over walls, so that the walls near a point or a move are found without scanning them all.
///
/// Each wall is listed in every cell its bounding box (grown by its collision radius) touches. The cell size
/// follows the walls' typical extent, and the grid never has more than about four cells per wall, so memory
/// stays linear. Queries return wall indices (into the order given to [`WallGrid::new`]), each once, sorted.
#[derive(Clone, Debug, Default)]
pub struct WallGrid {
    walls: Vec<Wall>,
    origin: DVec2,
    cell: f64,
    dims: (usize, usize),
    /// Start of each cell's run in `items` (one more entry than cells).
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Walls that are invalid: kept out of every cell.
    skipped: usize,
    /// The largest collision radius of a valid wall (0 when there are none).
    max_radius: f32,
}

/// A wall's box on the floor, its radius included.
fn wall_box(w: &Wall) -> (DVec2, DVec2) {
    let r = f64::from(w.radius);
    let (a, b) = (w.a.as_dvec2(), w.b.as_dvec2());
    (a.min(b) - DVec2::splat(r), a.max(b) + DVec2::splat(r))
}

/// A [`WallGrid`]'s cells: the corner `lo`, the side `cell` and the number on each axis.
struct Cells {
    lo: DVec2,
    cell: f64,
    dims: (usize, usize),
}

impl Cells {
    /// Cells over the boxes of the walls `valid` (at least one), about as large as a typical wall, but no more
    /// than ~4 cells per wall in all.
    fn fit(walls: &[Wall], valid: &[usize]) -> Self {
        let mut lo = DVec2::splat(f64::INFINITY);
        let mut hi = DVec2::splat(f64::NEG_INFINITY);
        let mut extent_sum = 0.0;
        for &i in valid {
            let (l, h) = wall_box(&walls[i]);
            lo = lo.min(l);
            hi = hi.max(h);
            extent_sum += (h - l).max_element();
        }
        let n = valid.len() as f64;
        let size = (hi - lo).max(DVec2::splat(1e-6));
        // Cells about as large as a typical wall, but no more than ~4 cells per wall in all.
        let typical = (extent_sum / n).max(1e-6);
        let min_cell = ((size.x * size.y) / (4.0 * n + 16.0)).sqrt();
        let cell = typical.max(min_cell);
        let dims = (
            ((size.x / cell).ceil() as usize).clamp(1, 1 << 16),
            ((size.y / cell).ceil() as usize).clamp(1, 1 << 16),
        );
        Self { lo, cell, dims }
    }

    /// The cells `(x0, y0, x1, y1)` the box `l..h` covers.
    fn range(&self, l: DVec2, h: DVec2) -> (usize, usize, usize, usize) {
        let (lo, cell, dims) = (self.lo, self.cell, self.dims);
        // Cell of a coordinate: clamped at 0 first, so the cast's truncation is the floor (without a call to
        // libm's `floor`, which the baseline x86-64 target makes); NaN goes to 0.
        let x0 = (((l.x - lo.x) / cell).max(0.0) as usize).min(dims.0 - 1);
        let y0 = (((l.y - lo.y) / cell).max(0.0) as usize).min(dims.1 - 1);
        let x1 = (((h.x - lo.x) / cell).max(0.0) as usize).min(dims.0 - 1);
        let y1 = (((h.y - lo.y) / cell).max(0.0) as usize).min(dims.1 - 1);
        (x0, y0, x1, y1)
    }

    /// The walls `valid` counting-sorted into the cells their boxes cover (CSR layout): each cell's first
    /// entry (and one past the last cell's) and the entries, wall indices.
    fn sort(&self, walls: &[Wall], valid: &[usize]) -> (Vec<u32>, Vec<u32>) {
        let dims = self.dims;
        let mut counts = vec![0u32; dims.0 * dims.1 + 1];
        for &i in valid {
            let (l, h) = wall_box(&walls[i]);
            let (x0, y0, x1, y1) = self.range(l, h);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    counts[y * dims.0 + x + 1] += 1;
                }
            }
        }
        for k in 1..counts.len() {
            counts[k] += counts[k - 1];
        }
        let starts = counts.clone();
        let mut fill = counts;
        let mut items = vec![0u32; starts[starts.len() - 1] as usize];
        for &i in valid {
            let (l, h) = wall_box(&walls[i]);
            let (x0, y0, x1, y1) = self.range(l, h);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let c = y * dims.0 + x;
                    items[fill[c] as usize] = i as u32;
                    fill[c] += 1;
                }
            }
        }
        (starts, items)
    }
}

impl WallGrid {
    /// Build the grid. Invalid walls are kept (so indices match) but never returned.
    #[must_use]
    pub fn new(walls: impl IntoIterator<Item = Wall>) -> Self {
        let walls: Vec<Wall> = walls.into_iter().collect();
        let valid: Vec<usize> = (0..walls.len()).filter(|&i| walls[i].is_valid()).collect();
        let skipped = walls.len() - valid.len();
        let max_radius = valid.iter().map(|&i| walls[i].radius).fold(0.0, f32::max);
        if valid.is_empty() {
            return Self {
                walls,
                cell: 1.0,
                starts: vec![0],
                skipped,
                ..Self::default()
            };
        }
        let cells = Cells::fit(&walls, &valid);
        let (starts, items) = cells.sort(&walls, &valid);
        let Cells {
            lo: origin,
            cell,
            dims,
        } = cells;
        Self {
            walls,
            origin,
            cell,
            dims,
            starts,
            items,
            skipped,
            max_radius,
        }
    }

    /// The largest collision radius among the valid walls (0 for none).
    #[must_use]
    pub fn max_radius(&self) -> f32 {
        self.max_radius
    }

    /// The walls, in the order given.
    #[must_use]
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// Number of walls (valid or not).
    #[must_use]
    pub fn len(&self) -> usize {
        self.walls.len()
    }

    /// Whether the grid holds no walls.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.walls.is_empty()
    }

    /// Indices of the valid walls whose grown bounding boxes may touch the box `min..=max` (a superset of
    /// the walls within it), sorted, each once.
    #[must_use]
    pub fn query_box(&self, min: Vec2, max: Vec2) -> Vec<usize> {
        let mut out = Vec::new();
        if self.walls.len() == self.skipped || !(min.is_finite() && max.is_finite()) {
            return out;
        }
        let (l, h) = (min.as_dvec2(), max.as_dvec2());
        let hi_corner =
            self.origin + DVec2::new(self.dims.0 as f64, self.dims.1 as f64) * self.cell;
        if h.x < self.origin.x || h.y < self.origin.y || l.x > hi_corner.x || l.y > hi_corner.y {
            return out;
        }
        let to_cell =
            |v: f64, o: f64, n: usize| (((v - o) / self.cell).max(0.0) as usize).min(n - 1);
        let (x0, x1) = (
            to_cell(l.x, self.origin.x, self.dims.0),
            to_cell(h.x, self.origin.x, self.dims.0),
        );
        let (y0, y1) = (
            to_cell(l.y, self.origin.y, self.dims.1),
            to_cell(h.y, self.origin.y, self.dims.1),
        );
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.dims.0 + x;
                let run = &self.items[self.starts[c] as usize..self.starts[c + 1] as usize];
                out.extend(run.iter().map(|&i| i as usize));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Indices of the walls that may be within `radius` plus their own collision distance of `center`.
    #[must_use]
    pub fn query_circle(&self, center: Vec2, radius: f32) -> Vec<usize> {
        let r = Vec2::splat(radius.max(0.0));
        self.query_box(center - r, center + r)
    }

    /// Whether `p` is within some wall's collision distance: [`blocked`], through the grid.
    #[must_use]
    pub fn blocked(&self, p: Vec2) -> bool {
        if !p.is_finite() {
            return false;
        }
        self.query_box(p, p)
            .into_iter()
            .any(|i| distance_point_wall(p, &self.walls[i]) <= self.walls[i].radius)
    }

    /// [`move_and_slide`] through the grid: only the walls near the move are considered, so the cost does
    /// not grow with the number of walls. The answer is the same as [`move_and_slide`] over all the walls.
    ///
    /// Why the search reaches as far as it does: a slide never travels further than `|motion|` in all (each
    /// contact removes part of what is left), and a sweep from any point of it can only meet walls whose
    /// collision outline comes within `radius` of the path, so a square of half-size `|motion| + radius +` the
    /// largest wall radius around `from` holds every wall the slide can meet. A start inside walls is first
    /// pushed out, by at most `radius +` the largest wall radius per round, for up to [`MAX_SLIDE_ITERATIONS`]
    /// rounds: that distance is added when the start is not clear. (The box of `from..from + motion` alone
    /// missed walls that a slide along another wall reached: about 2% of random slides disagreed.)
    #[must_use]
    pub fn move_and_slide(&self, from: Vec2, radius: f32, motion: Vec2) -> Vec2 {
        if !from.is_finite() || !motion.is_finite() || !radius.is_finite() || radius < 0.0 {
            return move_and_slide(from, radius, motion, &[]);
        }
        let skin = skin_at(from.as_dvec2(), motion.as_dvec2()) as f32;
        let reach = radius + self.max_radius + 2.0 * skin;
        // Rounding: a few f32 steps of the coordinates and of the motion.
        let slack = f32::EPSILON * 16.0 * (from.abs().max_element() + motion.length() + reach);
        let mut half = motion.length() + reach + slack;
        let near_start = self.near(from, reach + slack);
        if !clear_of(from.as_dvec2(), f64::from(radius), &near_start, 0.0) {
            half += (MAX_SLIDE_ITERATIONS as f32 + 1.0) * reach;
        }
        let near = self.near(from, half);
        move_and_slide(from, radius, motion, &near)
    }

    /// Columns plus rows: the most cells a ray's walk can cross (about).
    pub(crate) fn cells_across(&self) -> usize {
        self.dims.0 + self.dims.1
    }

    /// The most walls listed in one cell (a grid whose walls crowd into few cells serves rays poorly).
    pub(crate) fn max_cell_len(&self) -> usize {
        self.starts
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Visit the cells that the top-down ray `origin + t dir`, `t` in `t_min..=t_max`, crosses, nearer cells
    /// first, with the walls listed in each (indices into [`WallGrid::walls`]; a wall spanning several cells
    /// comes once per cell). `f` answers the bound: cells the ray enters beyond it are not visited (those
    /// entered at it, or within a few f32 ulps of it, still are, so a caller can break ties itself).
    ///
    /// Conservative: every cell is taken a millionth of a cell larger on each side, so rounding never skips a
    /// cell the exact ray touches (a wall is listed in every cell its grown box touches, so the cell holding a
    /// hit point lists the wall hit). The walk goes column by column along `x` and, within a column, row by
    /// row along `z`: both in the order of increasing `t`.
    pub(crate) fn walk_ray(
        &self,
        origin: DVec2,
        dir: DVec2,
        t_min: f64,
        t_max: f64,
        mut f: impl FnMut(&[u32]) -> f64,
    ) {
        if self.walls.len() == self.skipped
            || !(t_min <= t_max)
            || !origin.is_finite()
            || !dir.is_finite()
        {
            return;
        }
        let cell = self.cell;
        let eps = cell * 1e-6;
        let n = [self.dims.0, self.dims.1];
        let lo = self.origin - DVec2::splat(eps);
        let hi = self.origin + DVec2::new(n[0] as f64, n[1] as f64) * cell + DVec2::splat(eps);
        // `origin + t dir` on one axis; a zero direction stays at the origin (even for an infinite `t`).
        let at = |k: usize, t: f64| {
            if dir[k] == 0.0 {
                origin[k]
            } else {
                origin[k] + t * dir[k]
            }
        };
        // The `t` interval on which the ray lies within `l..=h` on axis `k`, within `t0..=t1`.
        // (A reciprocal rather than a division per cell: its rounding is far inside the cells' growth.)
        let inv = dir.recip();
        let within = |k: usize, l: f64, h: f64, t0: f64, t1: f64| -> Option<(f64, f64)> {
            let (o, d) = (origin[k], dir[k]);
            let (a, b) = if d == 0.0 {
                if o < l || o > h {
                    return None;
                }
                (t0, t1)
            } else {
                let (a, b) = ((l - o) * inv[k], (h - o) * inv[k]);
                (t0.max(a.min(b)), t1.min(a.max(b)))
            };
            (a <= b).then_some((a, b))
        };
        let Some((t0, t1)) =
            within(0, lo.x, hi.x, t_min, t_max).and_then(|(t0, t1)| within(1, lo.y, hi.y, t0, t1))
        else {
            return;
        };
        let index =
            |k: usize, v: f64| (((v - self.origin[k]) / cell).max(0.0) as usize).min(n[k] - 1);
        // The cells of axis `k` that the ray covers on `ta..=tb` (grown), in the order it meets them.
        let span = |k: usize, ta: f64, tb: f64| {
            let (a, b) = (at(k, ta), at(k, tb));
            let (first, last) = (index(k, a.min(b) - eps), index(k, a.max(b) + eps));
            let forward = dir[k] >= 0.0;
            (0..=last - first).map(move |j| if forward { first + j } else { last - j })
        };
        // Entered beyond the bound: a few f32 ulps of slack, as the answers compared with it are f32.
        let beyond = |t: f64, bound: f64| t - t.abs() * 1e-6 > bound;
        let mut bound = t_max;
        for col in span(0, t0, t1) {
            let x = self.origin.x + col as f64 * cell;
            let Some((c0, c1)) = within(0, x - eps, x + cell + eps, t0, t1) else {
                continue;
            };
            if beyond(c0, bound) {
                return;
            }
            for row in span(1, c0, c1) {
                let z = self.origin.y + row as f64 * cell;
                let Some((r0, _)) = within(1, z - eps, z + cell + eps, c0, c1) else {
                    continue;
                };
                if beyond(r0, bound) {
                    break;
                }
                let c = row * n[0] + col;
                let run = &self.items[self.starts[c] as usize..self.starts[c + 1] as usize];
                if !run.is_empty() {
                    bound = bound.min(f(run));
                }
            }
        }
    }

    /// The valid walls (in index order) whose grown boxes touch the square of half-size `half` around `p`.
    fn near(&self, p: Vec2, half: f32) -> Vec<Wall> {
        let half = Vec2::splat(half);
        self.query_box(p - half, p + half)
            .into_iter()
            .map(|i| self.walls[i])
            .collect()
    }
}
