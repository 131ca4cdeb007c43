//! Where the character can stand: on a grid of columns, every supporting surface under each column (floors
//! over one another included) where the body fits, nudged within its cell when the centre does not.

use glam::{Vec2, Vec3};

use super::super::CharacterController;
use super::super::pushout::push_out;
use super::super::support::closest_point;
use crate::id::ObjectId;
use crate::scene::{Scene, Static};
use crate::shape::{Aabb, Capsule, Ray, Sphere};

/// The most surfaces followed down one column of one mesh (a tower of floors in one mesh).
const MAX_MESH_LAYERS: usize = 64;

/// The grid of columns over the mapped area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Grid {
    /// The `(x, z)` corner of cell `(0, 0)`.
    pub(super) min: Vec2,
    /// Cell size, metres.
    pub(super) cell: f32,
    /// Columns along x.
    pub(super) nx: usize,
    /// Columns along z.
    pub(super) nz: usize,
    /// Where rays start (above everything mapped).
    pub(super) top: f32,
    /// Where rays stop.
    pub(super) bottom: f32,
}

impl Grid {
    /// The grid over `bounds` with cells of `cell`.
    pub(super) fn over(bounds: &Aabb, cell: f32, body_height: f32) -> Self {
        let size = Vec2::new(bounds.max.x - bounds.min.x, bounds.max.z - bounds.min.z);
        let nx = ((size.x / cell).ceil() as usize).max(1);
        let nz = ((size.y / cell).ceil() as usize).max(1);
        Self {
            min: Vec2::new(bounds.min.x, bounds.min.z),
            cell,
            nx,
            nz,
            top: bounds.max.y + body_height,
            bottom: bounds.min.y - 1.0,
        }
    }

    /// Number of columns.
    pub(super) fn columns(&self) -> usize {
        self.nx * self.nz
    }

    /// The centre `(x, z)` of column `c`.
    pub(super) fn center(&self, c: usize) -> Vec2 {
        let (i, k) = (c % self.nx, c / self.nx);
        self.min + Vec2::new((i as f32 + 0.5) * self.cell, (k as f32 + 0.5) * self.cell)
    }

    /// The column holding `(x, z)`, if inside the grid.
    pub(super) fn column_at(&self, p: Vec2) -> Option<usize> {
        let f = (p - self.min) / self.cell;
        if !(f.x >= 0.0 && f.y >= 0.0) {
            return None;
        }
        let (i, k) = (f.x as usize, f.y as usize);
        (i < self.nx && k < self.nz).then_some(k * self.nx + i)
    }

    /// The column holding `(x, z)`, or for a point outside the grid the nearest column on its edge (`None`
    /// only for a point that is not finite).
    pub(super) fn column_near(&self, p: Vec2) -> Option<usize> {
        self.column_at(p).or_else(|| {
            let far = self.min + Vec2::new(self.nx as f32, self.nz as f32) * self.cell - 1e-3;
            self.column_at(p.clamp(self.min, far.max(self.min)))
        })
    }

    /// The column `(di, dk)` away from `c`, if inside the grid.
    pub(super) fn neighbour(&self, c: usize, di: i64, dk: i64) -> Option<usize> {
        let (i, k) = ((c % self.nx) as i64 + di, (c / self.nx) as i64 + dk);
        (i >= 0 && k >= 0 && (i as usize) < self.nx && (k as usize) < self.nz)
            .then(|| k as usize * self.nx + i as usize)
    }

    /// The columns of the square of `r` columns either side of `c` (itself included), row by row; those
    /// outside the grid left out.
    pub(super) fn around(&self, c: usize, r: i64) -> impl Iterator<Item = usize> + '_ {
        (-r..=r).flat_map(move |dk| (-r..=r).filter_map(move |di| self.neighbour(c, di, dk)))
    }

    /// The columns exactly `r` columns from `c` (the border of [`Grid::around`]), row by row.
    pub(super) fn ring(&self, c: usize, r: i64) -> impl Iterator<Item = usize> + '_ {
        (-r..=r).flat_map(move |dk| {
            (-r..=r)
                .filter(move |di| di.abs() == r || dk.abs() == r)
                .filter_map(move |di| self.neighbour(c, di, dk))
        })
    }
}

/// A place to stand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Spot {
    /// Where the feet rest: a skin above the surface (measured along its normal), or lower where a body set
    /// down there comes straight down onto an edge and stays ([`settle`]).
    pub(super) feet: Vec3,
    /// The surface's unit normal.
    pub(super) normal: Vec3,
    /// The surface's height under the feet.
    pub(super) ground: f32,
    /// What it stands on.
    pub(super) object: ObjectId,
    /// Its column.
    pub(super) column: u32,
    /// Whether a body set down here stays: its move with only gravity ends where it began ([`rests_at`]).
    pub(super) rests: bool,
}

/// One surface met going down a column.
#[derive(Clone, Copy, Debug)]
pub(super) struct Surface {
    point: Vec3,
    normal: Vec3,
    object: ObjectId,
}

/// Every surface under `(x, z)`, from the top down: each object's first surface (the top of a solid), and for a
/// mesh every layer of it (a mesh may hold floors over one another).
fn surfaces(scene: &Scene, grid: &Grid, x: f32, z: f32, out: &mut Vec<Surface>) {
    out.clear();
    let ray = Ray::new(Vec3::new(x, grid.top, z), Vec3::NEG_Y);
    let depth = grid.top - grid.bottom;
    for hit in scene.cast_ray_all(&ray, depth) {
        out.push(Surface {
            point: hit.point,
            normal: hit.normal,
            object: hit.object,
        });
        if let Some(Static::Mesh(mesh)) = scene.object(hit.object) {
            let mut at = hit.point;
            for _ in 0..MAX_MESH_LAYERS {
                let below = at.y - 1e-4 * (1.0 + at.y.abs());
                let ray = Ray::new(Vec3::new(x, below, z), Vec3::NEG_Y);
                let Some(h) = mesh.cast_ray(&ray, below - grid.bottom) else {
                    break;
                };
                at = ray.at(h.t);
                out.push(Surface {
                    point: at,
                    normal: h.normal,
                    object: hit.object,
                });
            }
        }
    }
    out.sort_by(|a, b| b.point.y.total_cmp(&a.point.y));
}

/// The body with its radius grown by half the skin (what every move keeps clear).
pub(super) fn grown(ctl: &CharacterController, feet: Vec3) -> Capsule {
    let mut c = ctl.capsule(feet);
    c.radius += ctl.skin * 0.5;
    c
}

/// Where the feet rest above the surface point `p` with normal `n`: the body's lower sphere a radius and a skin
/// from the surface's plane, along its normal.
pub(super) fn feet_above(ctl: &CharacterController, p: Vec3, n: Vec3) -> Vec3 {
    let lift = (ctl.radius + ctl.skin) / n.y.max(1e-3) - ctl.radius;
    p + Vec3::Y * lift
}

/// Why a surface under a column is no place to stand, when it is a limit a way could meet (a surface merely
/// beside a wall is no limit, and is not kept).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Rejection {
    /// Steeper than `max_slope_deg`.
    Steep {
        /// Degrees from level.
        degrees: f32,
    },
    /// The body does not fit under what is above: floor to ceiling.
    Low {
        /// Metres.
        clearance: f32,
    },
    /// The body does not fit between things on either side: the clear opening.
    Narrow {
        /// Metres.
        width: f32,
    },
}

/// A surface that is no place to stand, and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rejected {
    /// The surface point under the column's centre.
    pub(super) point: Vec3,
    /// Why.
    pub(super) why: Rejection,
    /// Its column.
    pub(super) column: u32,
}

/// What one column holds.
#[derive(Default)]
pub(super) struct ColumnOut {
    /// Places to stand, from the top down.
    pub(super) spots: Vec<Spot>,
    /// Surfaces rejected for a reason a way could meet.
    pub(super) rejected: Vec<Rejected>,
    /// Whether the column has no surface at all within the bounds (a pit).
    pub(super) empty: bool,
}

/// The places to stand in column `c`, from the top down, and the surfaces rejected there.
pub(super) fn column_spots(
    scene: &Scene,
    ctl: &CharacterController,
    grid: &Grid,
    c: usize,
    scratch: &mut Vec<Surface>,
    out: &mut ColumnOut,
) {
    let walkable = ctl.max_slope_deg.to_radians().cos();
    let center = grid.center(c);
    surfaces(scene, grid, center.x, center.y, scratch);
    out.empty = scratch.is_empty();
    for s in scratch.iter() {
        // A surface under something else (a floor beneath a crate) is no surface to stand on or to meet.
        let above = s.point + Vec3::Y * (ctl.skin * 2.0);
        if !scene
            .overlap_sphere(&Sphere::new(above, ctl.skin))
            .is_empty()
        {
            continue;
        }
        if s.normal.y < walkable {
            out.rejected.push(Rejected {
                point: s.point,
                why: Rejection::Steep {
                    degrees: s.normal.y.clamp(-1.0, 1.0).acos().to_degrees(),
                },
                column: c as u32,
            });
            continue;
        }
        let feet = feet_above(ctl, s.point, s.normal);
        if scene.overlap_capsule(&grown(ctl, feet)).is_empty() {
            let (feet, rests) = settle(scene, ctl, feet, s.normal);
            out.spots.push(Spot {
                feet,
                normal: s.normal,
                ground: s.point.y,
                object: s.object,
                column: c as u32,
                rests,
            });
            continue;
        }
        // The body does not fit at the centre: why (kept even when a place is found off the centre, so a
        // doorway the grid straddles still names its width), then the nearest place in the cell.
        if let Some(why) = why_not(scene, ctl, feet, s.point) {
            out.rejected.push(Rejected {
                point: s.point,
                why,
                column: c as u32,
            });
        }
        if let Some(f) = fit(scene, ctl, grid, feet, s) {
            out.spots.push(Spot {
                feet: f.feet,
                normal: f.normal,
                ground: f.ground,
                object: s.object,
                column: c as u32,
                rests: rests_at(scene, ctl, f.feet, f.normal),
            });
        }
    }
}

/// Where a body set down at `feet` (over a surface of normal `normal`) stays, and whether it does: where it
/// does not ([`rests_at`]) but comes straight down onto ground within the column and stays there (a wide body
/// over a rim, held by the rim's edge below where the surface's plane would hold it), there.
fn settle(scene: &Scene, ctl: &CharacterController, feet: Vec3, normal: Vec3) -> (Vec3, bool) {
    if rests_at(scene, ctl, feet, normal) {
        return (feet, true);
    }
    let m = ctl.move_character(scene, feet, Vec3::NEG_Y * ctl.max_step);
    let across = Vec2::new(m.feet.x - feet.x, m.feet.z - feet.z).length();
    if m.grounded && across <= 1e-3 && m.feet.y < feet.y && rests_at(scene, ctl, m.feet, normal) {
        return (m.feet, true);
    }
    (feet, false)
}

/// Whether a body set down with its feet at `feet` (a place on a surface of normal `normal`) stays there: the
/// controller's move with only gravity in it ends where it began. It does not where the body, resting a skin
/// above a walkable slope, is nearer still to a steeper face just above it (the fold of a valley): the move
/// finds no ground to stand on under the start, its fall slides down that face, and every move out of the
/// place slides as far again, so none lands where the same move aimed at its landing lands (a search started
/// there found nothing). Such a place is still a place to stand and to reach (a move lands on it from
/// elsewhere); only a search does not start on it (`nearest_start`). On a level surface the moves between
/// places are single sweeps (`edges.rs`), so the question is not asked (nor paid for) there.
fn rests_at(scene: &Scene, ctl: &CharacterController, feet: Vec3, normal: Vec3) -> bool {
    if normal == Vec3::Y {
        return true;
    }
    let m = ctl.move_character(scene, feet, Vec3::NEG_Y * ctl.max_step);
    m.grounded && m.feet.distance(feet) <= 1e-4 * (1.0 + feet.abs().max_element())
}

/// Why the body does not fit at `feet` over the surface point `ground`: a ceiling lower than the body, or
/// things on opposite sides closer than its width; `None` for anything else (beside a wall).
fn why_not(
    scene: &Scene,
    ctl: &CharacterController,
    feet: Vec3,
    ground: Vec3,
) -> Option<Rejection> {
    let up = Ray::new(ground + Vec3::Y * ctl.skin, Vec3::Y);
    if let Some(h) = scene.cast_ray(&up, ctl.height + ctl.skin)
        && h.t > 0.0
    {
        return Some(Rejection::Low {
            clearance: h.t + ctl.skin,
        });
    }
    // At mid-height, the nearest points of the things the body overlaps: two on opposite sides (more than
    // 150° apart around the axis) make an opening narrower than the body.
    let mid = feet + Vec3::Y * (ctl.height * 0.5);
    let mut body = grown(ctl, feet);
    let reach = body.radius * 2.0;
    // Everything within a body's width of the axis: the other side of an opening may not touch the body.
    body.radius = reach;
    let mut near: Vec<Vec3> = Vec::new();
    for id in scene.overlap_capsule(&body) {
        let Some(shape) = scene.object(id) else {
            continue;
        };
        let probe = Vec3::new(
            mid.x,
            mid.y
                .clamp(feet.y + ctl.radius, feet.y + ctl.height - ctl.radius),
            mid.z,
        );
        if let Some(q) = closest_point(shape, probe, reach) {
            let flat = Vec3::new(q.x - probe.x, 0.0, q.z - probe.z);
            if flat.length() > 1e-6 && flat.length() <= reach {
                near.push(q);
            }
        }
    }
    let mut narrowest: Option<f32> = None;
    for (i, a) in near.iter().enumerate() {
        for b in &near[i + 1..] {
            let (da, db) = (
                Vec3::new(a.x - mid.x, 0.0, a.z - mid.z).normalize(),
                Vec3::new(b.x - mid.x, 0.0, b.z - mid.z).normalize(),
            );
            if da.dot(db) < -0.866 {
                let width = Vec3::new(a.x - b.x, 0.0, a.z - b.z).length();
                narrowest = Some(narrowest.map_or(width, |w: f32| w.min(width)));
            }
        }
    }
    narrowest
        .filter(|&w| w < 2.0 * (ctl.radius + ctl.skin))
        .map(|width| Rejection::Narrow { width })
}

/// A place found off a column's centre: its feet, the ground's height under them and the ground's normal.
struct Fitted {
    feet: Vec3,
    ground: f32,
    normal: Vec3,
}

/// For a body that does not fit at `feet`: the nearest place within a cell of it where it fits over the same
/// surface (pushed out of what it overlaps by the shortest way: a door a little wider than the body has a place
/// to stand whatever the grid's phase), with the ground under it; else `None`.
///
/// The body is moved along the surface's plane, so it keeps its rest height over a slope as over a level floor.
/// (Moved level, a body on a slope sinks into the ground uphill and floats downhill, and no place off the centre
/// was ever at the centre's height: a column near a concave crease of a sloped mesh, where the body at the
/// centre touches the steeper face beyond the crease, had no place at all, and a row of such columns left
/// points that could be stood on between two rows of reached places, neither reached nor blocked.)
fn fit(
    scene: &Scene,
    ctl: &CharacterController,
    grid: &Grid,
    feet: Vec3,
    s: &Surface,
) -> Option<Fitted> {
    let clear = |f: Vec3| scene.overlap_capsule(&grown(ctl, f)).is_empty();
    // A horizontal direction `d` as a step along the surface's plane (level: `d` itself).
    let n = s.normal;
    let along = |d: Vec3| Vec3::new(d.x, -(n.x * d.x + n.z * d.z) / n.y.max(1e-3), d.z);
    // Directions to try, along the floor: the push-out's (the shortest way out) first, then the compass.
    let out = push_out(scene, feet, ctl.radius + ctl.skin, |f| grown(ctl, f));
    let pushed = Vec3::new(out.feet.x - feet.x, 0.0, out.feet.z - feet.z);
    let mut dirs: Vec<Vec3> = pushed.try_normalize().into_iter().collect();
    for k in 0..8 {
        let a = k as f32 * std::f32::consts::FRAC_PI_4;
        dirs.push(Vec3::new(a.cos(), 0.0, a.sin()));
    }
    let reach = grid.cell;
    let mut best: Option<(f32, Vec3)> = None;
    for d in dirs.into_iter().map(along) {
        // The first clear distance along `d` within the cell (a scan, then bisection to a millimetre). Steps
        // from where a clear point could no longer beat the best found are not tried: the bisection's answer
        // lies past its step's start, so it would not be taken.
        let beats = |k: usize| best.is_none_or(|(b, _)| reach * (k - 1) as f32 / 8.0 < b);
        let Some(k) = (1..=8)
            .take_while(|&k| beats(k))
            .find(|&k| clear(feet + d * (reach * k as f32 / 8.0)))
        else {
            continue;
        };
        let (mut lo, mut hi) = (reach * (k - 1) as f32 / 8.0, reach * k as f32 / 8.0);
        while hi - lo > 1e-3 {
            let mid = 0.5 * (lo + hi);
            if clear(feet + d * mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        // A skin further when that is clear too: a place with room to spare, which moves land on reliably.
        let at = if hi + ctl.skin <= reach && clear(feet + d * (hi + ctl.skin)) {
            hi + ctl.skin
        } else {
            hi
        };
        if best.is_none_or(|(b, _)| hi < b) {
            best = Some((hi, feet + d * at));
        }
    }
    let (_, at) = best?;
    // Still over walkable ground: found again by a ray a skin either side of the plane (a neighbouring triangle
    // of a mesh may tilt a little from the centre's; the place keeps what is found there, with its normal).
    let ground = s.point.y + (at.y - feet.y);
    let ray = Ray::new(Vec3::new(at.x, ground + ctl.skin, at.z), Vec3::NEG_Y);
    let hit = scene.cast_ray(&ray, 2.0 * ctl.skin)?;
    if hit.normal.y < ctl.max_slope_deg.to_radians().cos() {
        return None;
    }
    let point = ray.at(hit.t);
    let on_plane = feet_above(ctl, point, hit.normal);
    let settled = if clear(on_plane) {
        on_plane
    } else {
        // Beside a crease of a mesh, the body over one face's plane touches the next face: it comes to rest
        // on both, lowered from a little above onto what it meets first (half a skin clear of it).
        let top = at + Vec3::Y * (2.0 * ctl.skin);
        if !clear(top) {
            return None;
        }
        let drop = 4.0 * ctl.skin;
        let h = scene.sweep_capsule(&grown(ctl, top), Vec3::NEG_Y * drop)?;
        top - Vec3::Y * (drop * h.t - 0.5 * ctl.skin).max(0.0)
    };
    // Within a skin of the height it was moved to: the same ground, not a ledge or a step beside it.
    ((settled.y - at.y).abs() <= ctl.skin && clear(settled)).then_some(Fitted {
        feet: settled,
        ground: point.y,
        normal: hit.normal,
    })
}

/// Every column's places and rejected surfaces, in column order, with each column's ranges.
pub(super) struct Found {
    /// The places, column by column (each column's from the top down).
    pub(super) spots: Vec<Spot>,
    /// `spots[col_start[c]..col_start[c + 1]]` are column `c`'s.
    pub(super) col_start: Vec<u32>,
    /// The rejected surfaces, column by column.
    pub(super) rejected: Vec<Rejected>,
    /// `rejected[rej_start[c]..rej_start[c + 1]]` are column `c`'s.
    pub(super) rej_start: Vec<u32>,
    /// Whether each column is a pit (no surface at all).
    pub(super) empty: Vec<bool>,
}

/// One thread's columns: what they hold, each one's counts of places and rejected surfaces, which are pits.
type Part = (ColumnOut, Vec<(u32, u32)>, Vec<bool>);

/// Every place, column by column (on `threads` threads, each a contiguous run of columns).
pub(super) fn find_spots(
    scene: &Scene,
    ctl: &CharacterController,
    grid: &Grid,
    threads: usize,
) -> Found {
    let n = grid.columns();
    let threads = threads.clamp(1, 64).min(n.max(1));
    let chunk = n.div_ceil(threads);
    let parts: Vec<Part> = super::par::on_threads(threads, |t| {
        let mut out = ColumnOut::default();
        let mut counts = Vec::with_capacity(chunk);
        let mut empty = Vec::with_capacity(chunk);
        let mut scratch = Vec::new();
        for c in t * chunk..((t + 1) * chunk).min(n) {
            let (before, rej) = (out.spots.len(), out.rejected.len());
            column_spots(scene, ctl, grid, c, &mut scratch, &mut out);
            // Highest first, always (a place nudged off the centre may have moved a little in height).
            out.spots[before..].sort_by(|a, b| b.ground.total_cmp(&a.ground));
            counts.push((
                (out.spots.len() - before) as u32,
                (out.rejected.len() - rej) as u32,
            ));
            empty.push(out.empty);
        }
        (out, counts, empty)
    });
    let mut found = Found {
        spots: Vec::new(),
        col_start: vec![0],
        rejected: Vec::new(),
        rej_start: vec![0],
        empty: Vec::with_capacity(n),
    };
    let (mut spots, mut rejected) = (0u32, 0u32);
    for (out, counts, empty) in parts {
        found.spots.extend(out.spots);
        found.rejected.extend(out.rejected);
        found.empty.extend(empty);
        for (s, r) in counts {
            (spots, rejected) = (spots + s, rejected + r);
            found.col_start.push(spots);
            found.rej_start.push(rejected);
        }
    }
    found
}

/// Columns `columns` scanned again (an update's, on up to `threads` threads, a thread for each 64 columns):
/// what each holds, its places sorted highest first as [`find_spots`] sorts them, by column.
pub(super) fn scan_columns(
    scene: &Scene,
    ctl: &CharacterController,
    grid: &Grid,
    columns: &[usize],
    threads: usize,
) -> std::collections::HashMap<usize, ColumnOut> {
    let threads = threads.min(columns.len().div_ceil(64)).max(1);
    let chunk = columns.len().div_ceil(threads).max(1);
    let parts = super::par::on_threads(threads, |t| {
        let mut out = Vec::new();
        let mut scratch = Vec::new();
        let end = ((t + 1) * chunk).min(columns.len());
        for &c in &columns[(t * chunk).min(end)..end] {
            let mut col = ColumnOut::default();
            column_spots(scene, ctl, grid, c, &mut scratch, &mut col);
            col.spots.sort_by(|a, b| b.ground.total_cmp(&a.ground));
            out.push((c, col));
        }
        out
    });
    parts.into_iter().flatten().collect()
}
