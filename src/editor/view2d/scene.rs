//! The drawn scene of the top-down view: each object's floor footprint, label and bounds, rebuilt when the
//! document changes (keyed by [`DocKey`]); picking and framing read it.

use glam::{Vec2, Vec3};

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::editor::document::{DocKey, Document, Kind, Object};
use crate::editor::draw::Picking;
use crate::editor::view2d::Extras;
use crate::editor::view2d::footprint::Footprint;
use crate::editor::view2d::relief::{self, MeshPlan, Relief};
use crate::level::{Level, ObjectId, WalkerStart};

/// Pointer distance, in screen points, within which an object counts as under the pointer.
const PICK_PX: f32 = 6.0;

/// A drawn object, precomputed for drawing and picking; rebuilt when the document changes.
#[cfg_attr(test, derive(Clone))]
pub(crate) struct Entry {
    pub(crate) id: ObjectId,
    pub(crate) label: String,
    pub(crate) kind: Kind,
    pub(crate) fp: Footprint,
    pub(crate) bounds: Option<(Vec2, Vec2)>,
    pub(crate) extras: Extras,
}

#[derive(Default)]
pub(crate) struct Scene {
    pub(crate) key: Option<DocKey>,
    pub(crate) entries: Vec<Entry>,
    /// Mesh plans by id with the fingerprint of the geometry they were made from (a 100,000-triangle mesh
    /// takes tens of milliseconds to plan: an edit elsewhere keeps it).
    pub(crate) plans: Vec<(ObjectId, u64, Arc<MeshPlan>)>,
    /// The edges of every mesh and level triangle by height, drawn shaded by height.
    pub(crate) relief: Relief,
    /// The entries by where they are, for picking.
    pub(crate) grid: PickGrid,
    /// The first entry of each id (a scan of 100,000 entries per frame for the hovered one cost a millisecond).
    by_id: HashMap<ObjectId, u32>,
    /// The greybox storey filter `(low, high)`: sectors whose floor lies outside are neither drawn nor picked.
    pub(crate) storey: Option<(f32, f32)>,
}

/// A uniform grid over the entries' bounds (CSR: `starts[cell]..starts[cell + 1]` in `items`), so a pick
/// looks at the few entries near the pointer instead of all of them (100,000 walls). Entries without
/// bounds (vertical planes) or spanning many cells are always looked at.
#[derive(Default)]
pub(crate) struct PickGrid {
    origin: Vec2,
    cell: f32,
    dims: (usize, usize),
    starts: Vec<u32>,
    items: Vec<u32>,
    always: Vec<u32>,
}

/// Cells an entry may span before it goes to the always-checked list.
const MAX_CELLS_PER_ENTRY: usize = 64;

impl PickGrid {
    fn new(entries: &[Entry]) -> Self {
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        for (l, h) in entries.iter().filter_map(|e| e.bounds) {
            lo = lo.min(l);
            hi = hi.max(h);
        }
        let mut grid = PickGrid::default();
        if !(lo.is_finite() && hi.is_finite()) {
            grid.always = (0..entries.len() as u32).collect();
            return grid;
        }
        let extent = (hi - lo).max(Vec2::splat(1e-3));
        // About two entries per cell, at most 2048 cells a side.
        let cell = (extent.x * extent.y / (entries.len().max(1) as f32 * 0.5))
            .sqrt()
            .max(extent.max_element() / 2048.0)
            .max(1e-3);
        let dims = (
            ((extent.x / cell) as usize + 1).min(2048),
            ((extent.y / cell) as usize + 1).min(2048),
        );
        grid.origin = lo;
        grid.cell = cell;
        grid.dims = dims;
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); dims.0 * dims.1];
        for (i, e) in entries.iter().enumerate() {
            let Some((l, h)) = e.bounds else {
                grid.always.push(i as u32);
                continue;
            };
            let (x0, y0, x1, y1) = grid.span(l, h);
            if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS_PER_ENTRY {
                grid.always.push(i as u32);
                continue;
            }
            for y in y0..=y1 {
                for x in x0..=x1 {
                    per_cell[y * dims.0 + x].push(i as u32);
                }
            }
        }
        grid.starts.push(0);
        for c in per_cell {
            grid.items.extend(c);
            grid.starts.push(grid.items.len() as u32);
        }
        grid
    }

    /// The cells a world box overlaps, clamped to the grid: `(x0, y0, x1, y1)` inclusive.
    fn span(&self, l: Vec2, h: Vec2) -> (usize, usize, usize, usize) {
        let c = |v: f32, n: usize| (((v / self.cell).floor()).max(0.0) as usize).min(n - 1);
        let (l, h) = (l - self.origin, h - self.origin);
        (
            c(l.x, self.dims.0),
            c(l.y, self.dims.1),
            c(h.x, self.dims.0),
            c(h.y, self.dims.1),
        )
    }

    /// Entries whose cells meet the box `p ± tol`, in entry order, each once.
    fn near(&self, p: Vec2, tol: f32) -> Vec<u32> {
        let mut out = self.always.clone();
        if self.dims.0 > 0 {
            let (l, h) = (p - Vec2::splat(tol), p + Vec2::splat(tol));
            let outside = h.x < self.origin.x
                || h.y < self.origin.y
                || l.x > self.origin.x + self.cell * self.dims.0 as f32
                || l.y > self.origin.y + self.cell * self.dims.1 as f32;
            if !outside {
                let (x0, y0, x1, y1) = self.span(l, h);
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let c = y * self.dims.0 + x;
                        out.extend_from_slice(
                            &self.items[self.starts[c] as usize..self.starts[c + 1] as usize],
                        );
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl Scene {
    /// Rebuild the entries when the document changed (meshes keep their hull while their vertices do).
    pub(crate) fn refresh(&mut self, doc: &Document) {
        if self.key == Some(doc.key()) {
            return;
        }
        let level = doc.level();
        let mut entries = Vec::with_capacity(level.walls.len() + level.balls.len() + 16);
        for &kind in Kind::ALL {
            if kind == Kind::Mesh {
                continue;
            }
            for i in 0..kind.count(level) {
                let Some(o) = Object::get(level, kind, i) else {
                    continue;
                };
                let extras = extras_of(level, &o);
                let fp = Footprint::of(&o);
                entries.push(Entry {
                    id: o.id(),
                    label: o.label(),
                    kind,
                    bounds: fp.bounds(),
                    fp,
                    extras,
                });
            }
        }
        let mut plans = Vec::new();
        for m in &level.meshes {
            let key = relief::fingerprint(&m.vertices, &m.indices);
            let plan = self
                .plans
                .iter()
                .find(|(id, k, _)| *id == m.id && *k == key)
                .map(|(_, _, p)| Arc::clone(p))
                .unwrap_or_else(|| Arc::new(MeshPlan::new(&m.vertices, &m.indices)));
            let fp = Footprint::Mesh(Arc::clone(&plan));
            entries.push(Entry {
                id: m.id,
                label: match &m.name {
                    Some(n) => format!("mesh {} \"{n}\"", m.id),
                    None => format!("mesh {}", m.id),
                },
                kind: Kind::Mesh,
                bounds: fp.bounds(),
                fp,
                extras: Extras::default(),
            });
            plans.push((m.id, key, plan));
        }
        let (tri_edges, _) = relief::unique_edges(level.triangles.iter().map(|t| [t.a, t.b, t.c]));
        let mut parts: Vec<&[relief::Edge]> =
            plans.iter().map(|(_, _, p)| p.edges.as_slice()).collect();
        parts.push(&tri_edges);
        let mut relief = Relief::new(&parts);
        // Sectors are filled by their floor's height on the same ramp.
        let floors = relief::HeightRange::of(level.sectors.iter().map(|s| s.floor.height));
        relief.range = match (relief.range, floors) {
            (Some(r), Some(f)) => Some(relief::HeightRange {
                low: r.low.min(f.low),
                high: r.high.max(f.high),
            }),
            (r, f) => r.or(f),
        };
        let mut by_id = HashMap::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            by_id.entry(e.id).or_insert(i as u32);
        }
        *self = Scene {
            key: Some(doc.key()),
            grid: PickGrid::new(&entries),
            entries,
            plans,
            relief,
            by_id,
            storey: self.storey,
        };
    }

    /// Whether the entry is drawn and picked: not a sector outside the storey filter.
    pub(crate) fn shows(&self, e: &Entry) -> bool {
        e.extras
            .floor
            .is_none_or(|f| crate::editor::document::sector::in_storey(f, self.storey))
    }

    /// The first entry with this id.
    pub(crate) fn entry(&self, id: ObjectId) -> Option<&Entry> {
        self.entries.get(*self.by_id.get(&id)? as usize)
    }

    /// Bounds of every object and the walker.
    pub(crate) fn level_bounds(&self, level: &Level) -> Option<(Vec2, Vec2)> {
        let mut acc: Option<(Vec2, Vec2)> = None;
        let mut add = |b: (Vec2, Vec2)| {
            acc = Some(match acc {
                Some((lo, hi)) => (lo.min(b.0), hi.max(b.1)),
                None => b,
            });
        };
        for e in &self.entries {
            if let Some(b) = e.bounds {
                add(b);
            }
        }
        if let Some(w) = &level.walker {
            add((
                w.position - Vec2::splat(w.radius),
                w.position + Vec2::splat(w.radius),
            ));
        }
        acc
    }

    /// Bounds of the selected objects.
    pub(crate) fn selection_bounds(&self, selection: &BTreeSet<ObjectId>) -> Option<(Vec2, Vec2)> {
        let mut acc: Option<(Vec2, Vec2)> = None;
        for e in &self.entries {
            if selection.contains(&e.id)
                && let Some(b) = e.bounds
            {
                acc = Some(match acc {
                    Some((lo, hi)) => (lo.min(b.0), hi.max(b.1)),
                    None => b,
                });
            }
        }
        acc
    }

    /// The object (or the walker, as `None` inside `Some`) under world point `p`, seen at `scale` pixels
    /// per metre.
    pub(crate) fn pick(
        &self,
        p: Vec2,
        scale: f32,
        walker: Option<&WalkerStart>,
    ) -> Option<Option<ObjectId>> {
        let tol = PICK_PX / scale;
        let mut best: Option<(f32, f32, Option<ObjectId>)> = None;
        let mut consider = |d: f32, area: f32, id: Option<ObjectId>| {
            if d <= tol && best.is_none_or(|(bd, ba, _)| (d, area) < (bd, ba)) {
                best = Some((d, area, id));
            }
        };
        // Entry order, as a scan of all entries would go: ties go to the first, whatever the grid.
        for i in self.grid.near(p, tol) {
            let e = &self.entries[i as usize];
            if let Some((lo, hi)) = e.bounds
                && (p.x < lo.x - tol || p.y < lo.y - tol || p.x > hi.x + tol || p.y > hi.y + tol)
            {
                continue;
            }
            if !self.shows(e) {
                continue;
            }
            if let Some(d) = e.fp.distance_within(p, tol) {
                let area = e
                    .bounds
                    .map_or(f32::INFINITY, |(lo, hi)| (hi - lo).x * (hi - lo).y);
                consider(d, area, Some(e.id));
            }
        }
        if let Some(w) = walker {
            let r = w.radius.max(5.0 / scale);
            consider((p.distance(w.position) - r).max(0.0), r * r * 4.0, None);
        }
        best.map(|b| b.2)
    }

    /// The height of the highest mesh or level triangle surface over floor point `p`, if any.
    pub(crate) fn surface_height(&self, p: Vec2) -> Option<f32> {
        let mut best: Option<f32> = None;
        for i in self.grid.near(p, 0.0) {
            let e = &self.entries[i as usize];
            let y = match (&e.fp, e.extras.heights) {
                (Footprint::Mesh(m), _) => m.height_at(p),
                (Footprint::Triangle(t), Some(h)) => {
                    relief::height_in(p, [0, 1, 2].map(|k| Vec3::new(t[k].x, h[k], t[k].y)))
                }
                _ => None,
            };
            if let Some(y) = y {
                best = Some(best.map_or(y, |b: f32| b.max(y)));
            }
        }
        best
    }
}

impl Picking for Scene {
    fn pick(&self, p: Vec2, scale: f32, walker: Option<&WalkerStart>) -> Option<Option<ObjectId>> {
        Scene::pick(self, p, scale, walker)
    }

    fn inside(&self, lo: Vec2, hi: Vec2) -> Vec<ObjectId> {
        self.entries
            .iter()
            .filter(|e| {
                // A sector of a storey the filter hides is not selected either.
                self.shows(e)
                    && e.bounds
                        .is_some_and(|(l, h)| l.cmpge(lo).all() && h.cmple(hi).all())
            })
            .map(|e| e.id)
            .collect()
    }

    fn storey(&self) -> Option<(f32, f32)> {
        self.storey
    }
}

/// What the 2D view draws besides an object's footprint: a ball's velocity, a triangle's normal, an entity's
/// facing and colour, a trigger's dashes.
fn extras_of(level: &Level, o: &Object) -> Extras {
    match o {
        Object::Ball(b) => Extras {
            velocity: Some(Vec2::new(b.velocity.x, b.velocity.z)),
            ..Extras::default()
        },
        Object::Triangle(t) => {
            let n = (t.b - t.a).cross(t.c - t.a).normalize_or_zero();
            Extras {
                normal: Some((Vec2::new(n.x, n.z), n.y)),
                heights: Some([t.a.y, t.b.y, t.c.y]),
                ..Extras::default()
            }
        }
        Object::Entity(e) => {
            let f = e.yaw_deg.to_radians();
            Extras {
                // Facing 0 looks down -z (as the walker).
                facing: Some(Vec2::new(-f.sin(), -f.cos())),
                color: Some(crate::editor::theme::entity_color(level, &e.entity_type)),
                ..Extras::default()
            }
        }
        Object::Trigger(_) => Extras {
            dashed: true,
            ..Extras::default()
        },
        Object::Sector(s) => Extras {
            floor: Some(s.floor.height),
            ..Extras::default()
        },
        _ => Extras::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Picking through the grid gives what a scan of every entry gives, everywhere.
    #[test]
    fn the_pick_grid_finds_what_a_full_scan_finds() {
        let level = crate::generate::maze(&crate::generate::MazeParams {
            walls: 2_000,
            balls: 50,
            ..crate::generate::MazeParams::default()
        });
        let mut scene = Scene::default();
        scene.refresh(&Document::new(level, None));
        assert!(!scene.grid.items.is_empty());
        // The same entries with every one always looked at: a scan of all of them.
        let full = Scene {
            grid: PickGrid {
                always: (0..scene.entries.len() as u32).collect(),
                ..PickGrid::default()
            },
            entries: scene.entries.clone(),
            ..Scene::default()
        };
        let mut hits = 0;
        for i in 0..4000 {
            let p = Vec2::new((i % 80) as f32 * 0.77 - 5.0, (i / 80) as f32 * 1.91 - 5.0);
            let a = scene.pick(p, 8.0, None);
            assert_eq!(a, full.pick(p, 8.0, None), "at {p}");
            hits += usize::from(a.is_some());
        }
        assert!(hits > 500, "the probe points meet walls: {hits}");
    }
}
