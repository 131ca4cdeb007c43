//! Greybox sectors in the editor: the feature's own state (the storey filter) and what the top-down view
//! draws of the sectors' edges, cooked by the runtime ([`SectorCook`], [`FaceKind`]) once per document key.
//! No egui here: the views draw the segments this hands them; the edits are `document::sector`'s.

pub mod build;
pub mod builders;
pub mod scene;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use glam::Vec2;

use crate::editor::document::{DocId, DocKey, Document};
use crate::level::{Level, ObjectId, SectorObject};
use crate::sector::{CookedSector, FaceKind, SectorCook};

/// Which sectors the top-down view draws and picks: those whose floor lies in `[low, high]` when on, so
/// an upper floor can be drawn over a lower one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Storey {
    /// Filter on.
    pub on: bool,
    /// Lowest floor shown, metres.
    pub low: f32,
    /// Highest floor shown, metres.
    pub high: f32,
}

impl Default for Storey {
    fn default() -> Self {
        Self {
            on: false,
            low: 0.0,
            high: 2.5,
        }
    }
}

impl Storey {
    /// Whether a sector with this floor height is shown.
    #[must_use]
    pub fn shows_floor(&self, floor: f32) -> bool {
        !self.on || (floor >= self.low && floor <= self.high)
    }

    /// Whether `s` is shown.
    #[must_use]
    pub fn shows(&self, s: &SectorObject) -> bool {
        self.shows_floor(s.floor.height)
    }

    /// The range `(low, high)` when on (what the drawn scene and the tools filter by).
    #[must_use]
    pub fn range(&self) -> Option<(f32, f32)> {
        self.on.then_some((self.low, self.high))
    }

    /// The range as a key (bits), `None` when off.
    #[must_use]
    pub fn key(&self) -> Option<[u32; 2]> {
        self.on.then(|| [self.low.to_bits(), self.high.to_bits()])
    }
}

/// How a sector edge looks from above: what the runtime cooked along it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeLook {
    /// Open: air on both sides (drawn thin and dashed).
    Portal,
    /// A lintel down to a lower ceiling.
    Lintel,
    /// A riser up to a higher floor.
    Riser,
    /// A solid wall from floor to ceiling (drawn thick).
    Wall,
}

impl EdgeLook {
    fn of(kind: FaceKind) -> Option<Self> {
        match kind {
            FaceKind::Wall => Some(EdgeLook::Wall),
            FaceKind::Riser => Some(EdgeLook::Riser),
            FaceKind::Lintel => Some(EdgeLook::Lintel),
            FaceKind::Floor | FaceKind::Ceiling => None,
        }
    }
}

/// The sectors' edges from above, each plan segment once with the strongest look cooked along it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SectorEdges {
    /// `(a, b, look)`, portals first, walls last (the order they are drawn in).
    pub segments: Vec<(Vec2, Vec2, EdgeLook)>,
}

impl SectorEdges {
    /// Cook the shown sectors of `level` and list their edges by kind.
    #[must_use]
    pub fn of(level: &Level, storey: Storey) -> Self {
        EdgeCook::new(level, storey).edges()
    }
}

/// The edges of one cooked sector seen from above: its outline and holes as portals, then each wall,
/// riser or lintel triangle as the segment of its two farthest corners, sorted by look, repeats dropped.
fn sector_segments(s: &SectorObject, c: Option<&CookedSector>) -> Vec<(Vec2, Vec2, EdgeLook)> {
    let mut segments = Vec::new();
    for r in std::iter::once(&s.outline).chain(&s.holes) {
        let n = r.len();
        segments.extend((0..n).map(|i| (r[i], r[(i + 1) % n], EdgeLook::Portal)));
    }
    if let Some(c) = c {
        for (t, kind) in c.indices.iter().zip(&c.faces) {
            let Some(look) = EdgeLook::of(*kind) else {
                continue;
            };
            let p = t.map(|k| {
                let v = c.vertices[k as usize];
                Vec2::new(v.x, v.z)
            });
            // A vertical triangle from above is a segment: its two farthest corners.
            let pairs = [(p[0], p[1]), (p[1], p[2]), (p[0], p[2])];
            if let Some(&(a, b)) = pairs
                .iter()
                .max_by(|x, y| x.0.distance(x.1).total_cmp(&y.0.distance(y.1)))
                && a.distance(b) > 1e-5
            {
                segments.push((a, b, look));
            }
        }
    }
    segments.sort_by_key(|s| s.2);
    segments
        .dedup_by(|x, y| x.2 == y.2 && ((x.0 == y.0 && x.1 == y.1) || (x.0 == y.1 && x.1 == y.0)));
    segments
}

/// The shown sectors cooked and kept between revisions: an edit re-cooks only the sectors it changed and
/// their neighbours (`SectorCook::update`), and re-lists only their edges.
#[derive(Debug)]
pub struct EdgeCook {
    storey: Storey,
    cook: SectorCook,
    /// The shown sectors as last cooked, by id.
    kept: HashMap<ObjectId, SectorObject>,
    /// Each shown sector's edges from above.
    segments: HashMap<ObjectId, Vec<(Vec2, Vec2, EdgeLook)>>,
    /// The ids in the level's order (the drawing order within a look).
    order: Vec<ObjectId>,
}

impl EdgeCook {
    /// Cook the shown sectors of `level`.
    #[must_use]
    pub fn new(level: &Level, storey: Storey) -> Self {
        let shown: Vec<&SectorObject> = level.sectors.iter().filter(|s| storey.shows(s)).collect();
        let cook = SectorCook::new(shown.iter().map(|s| s.geom()));
        let segments = shown
            .iter()
            .map(|s| (s.id, sector_segments(s, cook.sector(s.id))))
            .collect();
        Self {
            storey,
            kept: shown.iter().map(|s| (s.id, (*s).clone())).collect(),
            order: shown.iter().map(|s| s.id).collect(),
            cook,
            segments,
        }
    }

    /// Follow `level` as it is now: the sectors added, removed or changed since the last call (or shown or
    /// hidden by the filter) are re-cooked with their neighbours. Returns how many sectors were re-listed.
    pub fn update(&mut self, level: &Level) -> usize {
        let mut seen: HashSet<ObjectId> = HashSet::with_capacity(self.kept.len());
        let mut changed: Vec<SectorObject> = Vec::new();
        let mut order = Vec::with_capacity(self.order.len());
        for s in level.sectors.iter().filter(|s| self.storey.shows(s)) {
            seen.insert(s.id);
            order.push(s.id);
            if self.kept.get(&s.id) != Some(s) {
                changed.push(s.clone());
            }
        }
        let removed: Vec<ObjectId> = self
            .kept
            .keys()
            .filter(|id| !seen.contains(id))
            .copied()
            .collect();
        self.order = order;
        if changed.is_empty() && removed.is_empty() {
            return 0;
        }
        let changes = changed
            .iter()
            .map(|s| (s.id, Some(s.geom())))
            .chain(removed.iter().map(|id| (*id, None)));
        let recooked = self.cook.update(changes);
        for id in &removed {
            self.kept.remove(id);
            self.segments.remove(id);
        }
        for s in changed {
            self.kept.insert(s.id, s);
        }
        let mut n = 0;
        for id in recooked {
            if let Some(s) = self.kept.get(&id) {
                self.segments
                    .insert(id, sector_segments(s, self.cook.sector(id)));
                n += 1;
            }
        }
        n
    }

    /// Every shown sector's edges, portals first and walls last, each look in the level's order.
    #[must_use]
    pub fn edges(&self) -> SectorEdges {
        let total = self.segments.values().map(Vec::len).sum();
        let mut segments = Vec::with_capacity(total);
        for look in [
            EdgeLook::Portal,
            EdgeLook::Lintel,
            EdgeLook::Riser,
            EdgeLook::Wall,
        ] {
            for id in &self.order {
                if let Some(list) = self.segments.get(id) {
                    segments.extend(list.iter().filter(|s| s.2 == look));
                }
            }
        }
        SectorEdges { segments }
    }
}

/// What the drawn edges are for: the document as it was and the storey filter's range (bits).
type EdgesKey = (DocKey, Option<[u32; 2]>);

/// The greybox feature's state: the storey filter, the Build tool's parameters and the edges drawn for the
/// document as it is.
#[derive(Debug, Default)]
pub struct Greybox {
    /// Which sectors are drawn and picked.
    pub storey: Storey,
    /// The Build tool's builder and typed parameters.
    pub build: build::BuildParams,
    edges: Option<(EdgesKey, Arc<SectorEdges>)>,
    /// The cooked shown sectors, kept for the next revision of the same document and filter.
    cook: Option<(DocId, Option<[u32; 2]>, EdgeCook)>,
}

impl Greybox {
    /// The sectors' edges for `doc` as it is now, cooked once per (document key, storey filter): a new
    /// revision of the same document re-cooks only the sectors it changed and their neighbours.
    pub fn edges(&mut self, doc: &Document) -> Arc<SectorEdges> {
        let key = (doc.key(), self.storey.key());
        if let Some((k, e)) = &self.edges
            && *k == key
        {
            return Arc::clone(e);
        }
        let level = doc.level();
        let same = |c: &(DocId, Option<[u32; 2]>, EdgeCook)| c.0 == key.0.id && c.1 == key.1;
        match &mut self.cook {
            Some(c) if same(c) => {
                c.2.update(level);
            }
            _ => self.cook = Some((key.0.id, key.1, EdgeCook::new(level, self.storey))),
        }
        let e = Arc::new(self.cook.as_ref().map(|c| c.2.edges()).unwrap_or_default());
        self.edges = Some((key, Arc::clone(&e)));
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::sector::new_sector;

    fn rect(x0: f32, x1: f32) -> Vec<Vec2> {
        vec![
            Vec2::new(x0, 0.0),
            Vec2::new(x1, 0.0),
            Vec2::new(x1, 2.0),
            Vec2::new(x0, 2.0),
        ]
    }

    #[test]
    fn edges_are_walls_risers_and_portals_as_cooked() {
        let mut low = new_sector(rect(0.0, 2.0), 0.0, 3.0);
        low.id = crate::level::ObjectId(1);
        let mut high = new_sector(rect(2.0, 4.0), 0.3, 3.0);
        high.id = crate::level::ObjectId(2);
        let mut same = new_sector(rect(4.0, 6.0), 0.3, 3.0);
        same.id = crate::level::ObjectId(3);
        let level = Level {
            sectors: vec![low, high, same],
            ..Level::default()
        };
        let e = SectorEdges::of(&level, Storey::default());
        let at_x = |x: f32, look: EdgeLook| {
            e.segments
                .iter()
                .any(|(a, b, l)| *l == look && a.x == x && b.x == x)
        };
        assert!(at_x(2.0, EdgeLook::Riser));
        assert!(!at_x(4.0, EdgeLook::Riser) && !at_x(4.0, EdgeLook::Wall));
        assert!(at_x(4.0, EdgeLook::Portal));
        assert!(at_x(0.0, EdgeLook::Wall) && at_x(6.0, EdgeLook::Wall));
        let upper = Storey {
            on: true,
            low: 0.2,
            high: 1.0,
        };
        let e = SectorEdges::of(&level, upper);
        // The low room is filtered out: the higher one's edge at x = 2 is now a wall.
        assert!(
            e.segments
                .iter()
                .any(|(a, b, l)| *l == EdgeLook::Wall && a.x == 2.0 && b.x == 2.0)
        );
    }

    #[test]
    fn an_edit_recooks_only_its_neighbourhood_and_draws_as_a_fresh_cook() {
        let mut sectors: Vec<SectorObject> = (0..12)
            .map(|i| {
                let x = i as f32 * 2.0;
                let mut s = new_sector(rect(x, x + 2.0), (i % 3) as f32 * 0.2, 3.0);
                s.id = crate::level::ObjectId(i + 1);
                s
            })
            .collect();
        let mut level = Level {
            sectors: sectors.clone(),
            ..Level::default()
        };
        let mut kept = EdgeCook::new(&level, Storey::default());
        assert_eq!(kept.update(&level), 0);
        // Raise one floor: at most it and its two neighbours are re-listed.
        sectors[5].floor.height = 1.0;
        level.sectors = sectors.clone();
        assert!((1..=3).contains(&kept.update(&level)));
        assert_eq!(
            kept.edges(),
            EdgeCook::new(&level, Storey::default()).edges()
        );
        // Remove one and add another elsewhere.
        level.sectors.remove(8);
        let mut far = new_sector(rect(40.0, 42.0), 0.0, 3.0);
        far.id = crate::level::ObjectId(99);
        level.sectors.push(far);
        kept.update(&level);
        assert_eq!(
            kept.edges(),
            EdgeCook::new(&level, Storey::default()).edges()
        );
    }
}
