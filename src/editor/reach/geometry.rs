//! What a reachability map looks like, worked out once per map on the builder's thread (no egui): the map's
//! own columns and floors ([`ReachMap::column`], [`ReachMap::floors`]), the top-down view's runs of cells for
//! each way of showing a column (the reached place on top, or one floor), the 3D preview's translucent cells on
//! the surfaces, and the blockers' labels ("step 0.42 m > 0.35 m").

use std::sync::Arc;

use glam::{Vec2, Vec3};

use crate::character::{Blocker3, CharacterController, ReachMap};
use crate::editor::draw::translucent::Translucent;

/// Reached ground, lowest and highest (the colours of `collidoscope reach --png`).
pub const REACHED: ([u8; 3], [u8; 3]) = ([30, 130, 50], [130, 230, 120]);
/// Ground that can be stood on but is not reached, lowest and highest.
pub const UNREACHED: ([u8; 3], [u8; 3]) = ([205, 95, 20], [255, 190, 90]);
/// The mark at a blocker.
pub const MARK: [u8; 3] = [225, 25, 25];
/// Height bands of the cells' shading.
pub const SHADES: u8 = 8;
/// How far the 3D cells float over the surface, metres (over the feet, which are a skin above it).
const LIFT: f32 = 0.03;
/// The 3D cells' share of a cell's side (a thin gap shows the grid).
const QUAD_SIDE: f32 = 0.9;

/// Which place of a column the top-down view shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FloorView {
    /// The highest reached place, else the highest that can be stood on (as `collidoscope reach --png`): what
    /// is reached in a column is on top, so a floor over another reads by whatever can be walked to.
    #[default]
    ReachedOnTop,
    /// The places of one floor (0: the lowest of every column, 1: the next above it, …).
    Floor(usize),
}

/// One place to stand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    /// Its feet.
    pub feet: Vec3,
    /// Whether it is reached from the start.
    pub reached: bool,
    /// The ground's unit normal under the feet (the 3D cell lies in the ground's plane).
    pub normal: Vec3,
}

/// A run of neighbouring cells in one grid row drawn alike: columns `first..end` of row `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The row (z).
    pub row: u32,
    /// Its first column (x).
    pub first: u32,
    /// One past its last column.
    pub end: u32,
    /// Reached (green) or only standable (orange).
    pub reached: bool,
    /// The height band, `0..SHADES` (lighter higher).
    pub shade: u8,
}

/// A blocker's label: where the limit is and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The limit's place ([`Blocker3::at`]).
    pub at: Vec3,
    /// In a few words: "step 0.42 m > 0.35 m".
    pub text: String,
    /// The area it keeps out of reach, square metres (regions behind the same limit together).
    pub area: f32,
    /// The limit.
    pub blocker: Blocker3,
    /// A place it keeps out, the nearest to it.
    pub feet: Vec3,
}

/// One floor: a layer of every column's places.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloorInfo {
    /// Lowest and highest feet on it, metres.
    pub heights: (f32, f32),
    /// Area that can be stood on, square metres.
    pub standable: f32,
    /// Of it, reached.
    pub reached: f32,
}

/// A map's drawing, built once per map.
#[derive(Clone, Debug, Default)]
pub struct ReachGeometry {
    /// The grid's corner `(x, z)`.
    pub origin: Vec2,
    /// Its cell, metres.
    pub cell: f32,
    /// Columns along x and rows along z.
    pub nx: usize,
    /// Rows along z.
    pub nz: usize,
    places: Vec<Place>,
    col_start: Vec<u32>,
    /// Lowest and highest feet of any place.
    pub heights: (f32, f32),
    /// The floors, lowest first.
    pub floors: Vec<FloorInfo>,
    /// Runs for [`FloorView::ReachedOnTop`], then for each floor.
    runs: Vec<Vec<Run>>,
    /// The 3D preview's cells on the surfaces.
    pub surface: Arc<Translucent>,
    /// The same, faint (while a newer map is being built).
    pub surface_dimmed: Arc<Translucent>,
    /// The blockers' labels, largest area first.
    pub labels: Vec<Label>,
}

/// A limit in a few words, as the overlay labels it: "step 0.42 m > 0.35 m", "slope
/// 52° > 45°", "narrow 0.42 m < 0.62 m", "low 1.50 m < 1.82 m", "gap". Figures that would round to the same
/// text as the limit get another decimal.
#[must_use]
pub fn short_label(b: &Blocker3, ctl: &CharacterController) -> String {
    let pair = |v: f32, limit: f32, unit: &str, sign: &str, decimals: usize| {
        let mut d = decimals;
        while d < decimals + 2 && format!("{v:.d$}") == format!("{limit:.d$}") {
            d += 1;
        }
        format!("{v:.d$}{unit} {sign} {limit:.d$}{unit}")
    };
    let limit = b.limit(ctl).unwrap_or(0.0);
    match *b {
        Blocker3::StepTooHigh { height, .. } => {
            format!("step {}", pair(height, ctl.max_step, " m", ">", 2))
        }
        Blocker3::SlopeTooSteep { degrees, .. } => {
            format!("slope {}", pair(degrees, ctl.max_slope_deg, "°", ">", 0))
        }
        Blocker3::TooNarrow { width, .. } => {
            format!("narrow {}", pair(width, limit, " m", "<", 2))
        }
        Blocker3::TooLow { clearance, .. } => {
            format!("low {}", pair(clearance, limit, " m", "<", 2))
        }
        Blocker3::Gap { .. } => "gap".into(),
    }
}

/// An sRGB colour `t` of the way from `lo` to `hi`.
#[must_use]
pub fn mix(c: ([u8; 3], [u8; 3]), t: f32) -> [u8; 3] {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    std::array::from_fn(|k| {
        let (a, b) = (f32::from(c.0[k]), f32::from(c.1[k]));
        (a + (b - a) * t).round() as u8
    })
}

/// The colour of a cell drawn `reached` or not, in height band `shade`.
#[must_use]
pub fn cell_rgb(reached: bool, shade: u8) -> [u8; 3] {
    let t = f32::from(shade) / f32::from(SHADES - 1);
    mix(if reached { REACHED } else { UNREACHED }, t)
}

impl ReachGeometry {
    /// The drawing of `map` (empty for a map that could not be built): its columns and floors as the map holds
    /// them.
    #[must_use]
    pub fn of(map: &ReachMap) -> ReachGeometry {
        let Some(grid) = map.grid() else {
            return ReachGeometry::default();
        };
        let ctl = *map.controller();
        let mut g = ReachGeometry {
            origin: grid.origin,
            cell: grid.cell,
            nx: grid.nx,
            nz: grid.nz,
            ..ReachGeometry::default()
        };
        let mut start = vec![0u32; grid.nx * grid.nz + 1];
        for ((i, k), places) in map.columns() {
            start[k * grid.nx + i + 1] = places.len() as u32;
            g.places.extend(places.into_iter().map(|p| Place {
                feet: p.feet,
                reached: p.reached,
                normal: p.normal,
            }));
        }
        for c in 0..grid.nx * grid.nz {
            start[c + 1] += start[c];
        }
        g.col_start = start;
        g.heights = g
            .places
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p.feet.y), hi.max(p.feet.y))
            });
        g.floors = map
            .floors()
            .into_iter()
            .map(|f| FloorInfo {
                heights: f.heights,
                standable: f.standable,
                reached: f.reachable,
            })
            .collect();
        g.runs = (0..=g.floors.len())
            .map(|k| {
                let view = match k {
                    0 => FloorView::ReachedOnTop,
                    k => FloorView::Floor(k - 1),
                };
                g.make_runs(view)
            })
            .collect();
        let (bright, faint) = g.surfaces();
        (g.surface, g.surface_dimmed) = (Arc::new(bright), Arc::new(faint));
        g.labels = g.labels(map, &ctl);
        g
    }

    /// The cell `(i, k)` holding floor point `p`, clamped to the grid.
    #[must_use]
    pub fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let q = (p - self.origin) / self.cell.max(1e-6);
        let clamp = |v: f32, n: usize| (v.floor().max(0.0) as usize).min(n.saturating_sub(1));
        (clamp(q.x, self.nx), clamp(q.y, self.nz))
    }

    /// The places of column `(i, k)`, lowest first.
    #[must_use]
    pub fn column(&self, i: usize, k: usize) -> &[Place] {
        if i >= self.nx || k >= self.nz {
            return &[];
        }
        let c = k * self.nx + i;
        &self.places[self.col_start[c] as usize..self.col_start[c + 1] as usize]
    }

    /// Every place, by column.
    #[must_use]
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// The place column `(i, k)` shows in `view`.
    #[must_use]
    pub fn shown(&self, i: usize, k: usize, view: FloorView) -> Option<Place> {
        let col = self.column(i, k);
        match view {
            FloorView::ReachedOnTop => col.iter().rev().find(|p| p.reached).or(col.last()).copied(),
            FloorView::Floor(f) => col.get(f).copied(),
        }
    }

    /// The place shown in `view` at floor point `p`: its cell's, else the nearest shown within a cell;
    /// `None` outside the mapped area.
    #[must_use]
    pub fn place_at(&self, p: Vec2, view: FloorView) -> Option<Place> {
        let far = self.origin + Vec2::new(self.nx as f32, self.nz as f32) * self.cell;
        if self.nx == 0 || !p.is_finite() || p.cmplt(self.origin).any() || p.cmpge(far).any() {
            return None;
        }
        let (i, k) = self.cell_of(p);
        if let Some(found) = self.shown(i, k, view) {
            return Some(found);
        }
        let mut best: Option<(f32, Place)> = None;
        for dk in -1..=1i64 {
            for di in -1..=1i64 {
                let (ii, kk) = (i as i64 + di, k as i64 + dk);
                if ii < 0 || kk < 0 {
                    continue;
                }
                if let Some(q) = self.shown(ii as usize, kk as usize, view) {
                    let d = Vec2::new(q.feet.x, q.feet.z).distance(p);
                    if d <= self.cell * 1.5 && best.is_none_or(|(b, _)| d < b) {
                        best = Some((d, q));
                    }
                }
            }
        }
        best.map(|(_, q)| q)
    }

    /// The reached place nearest `at` within `cells` cells across and `dy` metres up or down.
    #[must_use]
    pub fn reached_near(&self, at: Vec3, cells: usize, dy: f32) -> Option<Place> {
        if self.nx == 0 || !at.is_finite() {
            return None;
        }
        let (i, k) = self.cell_of(Vec2::new(at.x, at.z));
        let r = cells as i64;
        let mut best: Option<(f32, Place)> = None;
        for kk in (k as i64 - r).max(0)..=(k as i64 + r) {
            for ii in (i as i64 - r).max(0)..=(i as i64 + r) {
                for q in self.column(ii as usize, kk as usize) {
                    let d = q.feet.distance(at);
                    if q.reached && (q.feet.y - at.y).abs() <= dy && best.is_none_or(|(b, _)| d < b)
                    {
                        best = Some((d, *q));
                    }
                }
            }
        }
        best.map(|(_, q)| q)
    }

    /// The runs the top-down view draws for `view` (none for a floor the map does not have).
    #[must_use]
    pub fn runs(&self, view: FloorView) -> &[Run] {
        let k = match view {
            FloorView::ReachedOnTop => 0,
            FloorView::Floor(f) => f + 1,
        };
        self.runs.get(k).map_or(&[], Vec::as_slice)
    }

    /// The height band of feet at `y`.
    #[must_use]
    pub fn shade(&self, y: f32) -> u8 {
        let (lo, hi) = self.heights;
        if !(hi > lo) {
            return 0;
        }
        (((y - lo) / (hi - lo)) * f32::from(SHADES - 1)).round() as u8
    }

    /// Runs of neighbouring cells in each row that `view` shows alike.
    fn make_runs(&self, view: FloorView) -> Vec<Run> {
        let mut out = Vec::new();
        for k in 0..self.nz {
            let mut open: Option<Run> = None;
            for i in 0..self.nx {
                let look = self
                    .shown(i, k, view)
                    .map(|p| (p.reached, self.shade(p.feet.y)));
                match (&mut open, look) {
                    (Some(r), Some((reached, shade)))
                        if r.reached == reached && r.shade == shade =>
                    {
                        r.end = i as u32 + 1;
                    }
                    (_, look) => {
                        out.extend(open.take());
                        open = look.map(|(reached, shade)| Run {
                            row: k as u32,
                            first: i as u32,
                            end: i as u32 + 1,
                            reached,
                            shade,
                        });
                    }
                }
            }
            out.extend(open);
        }
        out
    }

    /// Every place as a translucent quad on its surface (the plane of the ground under its feet: a ramp's
    /// cells tilt with it, a tread's stay level beside its riser), green reached, orange not, lighter higher;
    /// and the same faint.
    fn surfaces(&self) -> (Translucent, Translucent) {
        let mut bright = Translucent::default();
        let mut faint = Translucent::default();
        let h = self.cell * QUAD_SIDE * 0.5;
        for k in 0..self.nz {
            for i in 0..self.nx {
                let centre = self.origin + (Vec2::new(i as f32, k as f32) + 0.5) * self.cell;
                for p in self.column(i, k) {
                    let n = if p.normal.y > 0.05 && p.normal.is_finite() {
                        p.normal
                    } else {
                        Vec3::Y
                    };
                    let corner = |dx: f32, dz: f32| {
                        let at = centre + Vec2::new(dx, dz);
                        Vec3::new(at.x, surface_y(p.feet, n, at) + LIFT, at.y)
                    };
                    let [r, g, b] = cell_rgb(p.reached, self.shade(p.feet.y));
                    let alpha = if p.reached { 150 } else { 180 };
                    let (a, bb, c, d) =
                        (corner(-h, -h), corner(h, -h), corner(h, h), corner(-h, h));
                    bright.quad(a, bb, c, d, [r, g, b, alpha]);
                    faint.quad(a, bb, c, d, [r, g, b, alpha / 3]);
                }
            }
        }
        (bright, faint)
    }
}

/// The height at floor point `at` of the plane through `feet` with normal `n` (`n.y > 0`).
fn surface_y(feet: Vec3, n: Vec3, at: Vec2) -> f32 {
    feet.y - (n.x * (at.x - feet.x) + n.z * (at.y - feet.z)) / n.y
}

impl ReachGeometry {
    /// The unreachable places' labels: one per limit (regions behind the same words within a metre of each
    /// other are one label with their areas summed), largest area first; a region the map's own queries find
    /// reached everywhere has none.
    fn labels(&self, map: &ReachMap, ctl: &CharacterController) -> Vec<Label> {
        let mut out: Vec<Label> = Vec::new();
        for p in map.unreachable_places() {
            let text = short_label(&p.blocker, ctl);
            let at = p.blocker.at();
            match out
                .iter_mut()
                .find(|l| l.text == text && l.at.distance(at) <= 1.0)
            {
                Some(l) => {
                    l.area += p.area;
                }
                None => {
                    // A region whose every place the map answers for as reached (each within a cell of a
                    // landing) keeps nothing out: no label.
                    if let Some(feet) = self.spot_behind(map, &p.blocker) {
                        out.push(Label {
                            at,
                            text,
                            area: p.area,
                            blocker: p.blocker,
                            feet,
                        });
                    }
                }
            }
        }
        out.sort_by(|a, b| b.area.total_cmp(&a.area));
        out
    }

    /// A place out of reach behind `blocker`, the nearest to the limit (up to four metres across): what a click
    /// on the label asks about. (The region's own place nearest what is reached may lie within a cell of a
    /// reached one, where the map answers for that one.)
    fn spot_behind(&self, map: &ReachMap, blocker: &Blocker3) -> Option<Vec3> {
        let at = blocker.at();
        let (i, k) = self.cell_of(Vec2::new(at.x, at.z));
        let mut best: Option<(f32, Vec3)> = None;
        for r in 0..=16i64 {
            for kk in (k as i64 - r).max(0)..=(k as i64 + r) {
                for ii in (i as i64 - r).max(0)..=(i as i64 + r) {
                    if (ii - i as i64).abs() != r && (kk - k as i64).abs() != r {
                        continue;
                    }
                    for q in self.column(ii as usize, kk as usize) {
                        let d = q.feet.distance(at);
                        if !q.reached
                            && best.is_none_or(|(b, _)| d < b)
                            && !map.reachable(q.feet)
                            && map.blocker(q.feet).as_ref() == Some(blocker)
                        {
                            best = Some((d, q.feet));
                        }
                    }
                }
            }
            // Rings further out are all further than a place found within this one's inner radius.
            if best.is_some_and(|(d, _)| d <= r as f32 * self.cell) {
                break;
            }
        }
        best.map(|(_, spot)| spot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::ReachSettings;
    use crate::level::Level;
    use crate::scene::Scene;

    fn ctl() -> CharacterController {
        CharacterController::default()
    }

    #[test]
    fn labels_are_short_and_tell_close_figures_apart() {
        let at = Vec3::ZERO;
        let c = ctl();
        let step = Blocker3::StepTooHigh { at, height: 0.42 };
        assert_eq!(short_label(&step, &c), "step 0.42 m > 0.35 m");
        let slope = Blocker3::SlopeTooSteep { at, degrees: 52.2 };
        assert_eq!(short_label(&slope, &c), "slope 52° > 45°");
        let narrow = Blocker3::TooNarrow { at, width: 0.5 };
        assert_eq!(short_label(&narrow, &c), "narrow 0.50 m < 0.62 m");
        let low = Blocker3::TooLow {
            at,
            clearance: 1.816,
        };
        assert_eq!(short_label(&low, &c), "low 1.816 m < 1.820 m");
        assert_eq!(short_label(&Blocker3::Gap { at }, &c), "gap");
    }

    /// The map of `level` from its walker start, as the editor builds it.
    fn map_of(level: &Level) -> ReachMap {
        level
            .reach_map(&Scene::build(level), &ReachSettings::default())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Two floors: a deck 2 m up over the ground, reached by nothing.
    fn deck() -> ReachMap {
        let level = Level::from_ron_str(
            r"(version: 2, aabbs: [
                (id: 1, min: (-5.0, -0.2, -5.0), max: (5.0, 0.0, 5.0)),
                (id: 2, min: (1.0, 2.0, -2.0), max: (4.0, 2.2, 2.0)),
            ],
            walker: (position: (-3.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3))",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        map_of(&level)
    }

    #[test]
    fn a_deck_over_reached_ground_is_a_floor_of_its_own() {
        let map = deck();
        let g = ReachGeometry::of(&map);
        assert_eq!(g.floors.len(), 2, "{:?}", g.floors);
        let deck = g.floors[1];
        assert!(deck.heights.0 > 2.1 && deck.reached == 0.0, "{deck:?}");
        // Under the deck: the ground is reached and shows on top; floor 1 shows the deck, not reached.
        let under = Vec2::new(2.5, 0.0);
        let top = g.place_at(under, FloorView::ReachedOnTop);
        assert!(top.is_some_and(|p| p.reached && p.feet.y < 0.1), "{top:?}");
        let upper = g.place_at(under, FloorView::Floor(1));
        assert!(
            upper.is_some_and(|p| !p.reached && p.feet.y > 2.1),
            "{upper:?}"
        );
        assert!(
            g.place_at(Vec2::new(-3.0, 0.0), FloorView::Floor(1))
                .is_none()
        );
        // Runs cover each shown cell once; a flat floor is a few runs a row.
        let cells: u32 = g
            .runs(FloorView::Floor(0))
            .iter()
            .map(|r| r.end - r.first)
            .sum();
        let ground = (g.floors[0].standable / (g.cell * g.cell)).round() as u32;
        assert_eq!(cells, ground);
        assert!(g.runs(FloorView::Floor(0)).len() <= g.nz * 3);
        assert!(g.runs(FloorView::Floor(7)).is_empty());
        // Every place is a quad in 3D, faint and bright alike.
        assert_eq!(g.surface.vertices(), g.places().len() * 6);
        assert_eq!(g.surface.vertices(), g.surface_dimmed.vertices());
        // The deck's label says why: nothing climbs 2 m.
        assert!(
            g.labels.iter().any(|l| l.text.starts_with("step 2.")),
            "{:?}",
            g.labels
        );
    }

    #[test]
    fn the_30_degree_ramp_is_drawn_on_its_slope() {
        let level = Level::from_ron_str(include_str!("../../../levels/playground.ron"))
            .unwrap_or_else(|e| panic!("{e}"));
        let map = map_of(&level);
        let g = ReachGeometry::of(&map);
        // Halfway up the ramp (x 3..6, rising 2.309 m from z = -4 to z = -8): a quad's corners follow the
        // slope, 0.577 m up per metre north, and it is reached.
        let (i, k) = g.cell_of(Vec2::new(4.5, -6.0));
        let p = g
            .column(i, k)
            .last()
            .copied()
            .unwrap_or_else(|| panic!("a place"));
        assert!(p.reached && (p.feet.y - 1.155).abs() < 0.1, "{p:?}");
        let n = p.normal;
        let north = surface_y(p.feet, n, Vec2::new(4.5, -6.1));
        let south = surface_y(p.feet, n, Vec2::new(4.5, -5.9));
        assert!(
            ((north - south) / 0.2 - 0.577).abs() < 0.01,
            "{north} {south}"
        );
        // A tread of the low stairs stays level beside its riser.
        let (i, k) = g.cell_of(Vec2::new(-16.5, -4.6));
        let t = g
            .column(i, k)
            .last()
            .copied()
            .unwrap_or_else(|| panic!("a tread"));
        assert!((t.feet.y - 0.41).abs() < 0.02, "{t:?}");
        assert_eq!(t.normal, Vec3::Y);
        // The high stairs' label.
        assert!(
            g.labels.iter().any(|l| l.text == "step 0.42 m > 0.35 m"),
            "{:?}",
            g.labels.iter().map(|l| &l.text).collect::<Vec<_>>()
        );
        // Each label's spot is out of reach behind its limit (what a click on it shows).
        for l in &g.labels {
            assert!(
                !map.reachable(l.feet) && map.blocker(l.feet) == Some(l.blocker),
                "{} at {}",
                l.text,
                l.feet
            );
        }
    }
}
