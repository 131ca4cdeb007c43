//! [`SectorCook`]: the sectors of a level, their shared edges and their cooked triangles, kept so an edit
//! re-cooks only the sectors it touches.

use std::collections::HashMap;

use glam::{DVec2, Vec2, Vec3};

use super::cooked::{CookedSector, FaceKind};
use super::grid::{EdgeGrid, EdgeRef};
use super::walls::{Part, Viewer, crossings, line_key, part_faces};
use super::{HeightFn, SHARE_TOLERANCE, SectorGeom, height_range, ring, triangulate};
use crate::id::ObjectId;

/// An overlap of one of a sector's edges with another sector's collinear edge.
#[derive(Clone, Copy, Debug)]
pub(super) struct Link {
    /// The sector's ring and edge.
    pub ring: u32,
    /// The edge.
    pub edge: u32,
    /// The overlap along the edge, as parameters `0..=1` from its start.
    pub s0: f64,
    /// End of the overlap.
    pub s1: f64,
    /// The other edge.
    pub other: EdgeRef,
    /// The other sector lies across the edge and their height ranges overlap: they share the overlap.
    pub partner: bool,
}

/// One sector as the cook keeps it.
#[derive(Clone, Debug)]
pub(super) struct Slot {
    pub id: ObjectId,
    /// Cleaned rings (outline first); empty when the outline is unusable.
    pub rings: Vec<Vec<Vec2>>,
    /// Per ring: `+1` when the sector's inside is left of its edges, `-1` when right.
    pub side: Vec<f64>,
    pub floor: Option<HeightFn>,
    pub ceiling: Option<HeightFn>,
    /// Height range (lowest floor, highest ceiling).
    pub lo: f32,
    pub hi: f32,
    /// Overlaps with other sectors' edges, sorted by ring and edge.
    pub links: Vec<Link>,
    pub cooked: CookedSector,
    pub alive: bool,
}

impl Slot {
    fn new(g: &SectorGeom<'_>) -> Self {
        let outline = ring::clean(g.outline);
        let mut slot = Slot::dead(g.id);
        slot.alive = true;
        let outer_area = ring::signed_area(&outline);
        let surfaces_finite = [g.floor, g.ceiling]
            .iter()
            .all(|s| s.height.is_finite() && s.slope.is_none_or(|sl| sl.degrees.is_finite()));
        if outline.is_empty() || outer_area == 0.0 || !outer_area.is_finite() || !surfaces_finite {
            return slot;
        }
        slot.side.push(outer_area.signum());
        slot.rings.push(outline);
        for h in g.holes {
            let hole = ring::clean(h);
            let a = ring::signed_area(&hole);
            if !hole.is_empty() && a != 0.0 && a.is_finite() {
                // The sector's inside is outside the hole.
                slot.side.push(-a.signum());
                slot.rings.push(hole);
            }
        }
        slot.floor = Some(HeightFn::new(&g.floor, g.outline));
        slot.ceiling = Some(HeightFn::new(&g.ceiling, g.outline).lowered());
        (slot.lo, slot.hi) = height_range(g);
        slot
    }

    /// A slot holding nothing.
    fn dead(id: ObjectId) -> Self {
        Slot {
            id,
            rings: Vec::new(),
            side: Vec::new(),
            floor: None,
            ceiling: None,
            lo: 0.0,
            hi: 0.0,
            links: Vec::new(),
            cooked: CookedSector::empty(id),
            alive: false,
        }
    }

    /// The end points of edge `e` of ring `r`.
    pub fn edge(&self, r: u32, e: u32) -> (Vec2, Vec2) {
        let ring = &self.rings[r as usize];
        let e = e as usize;
        (ring[e], ring[(e + 1) % ring.len()])
    }

    /// Unit normal of edge `e` of ring `r` pointing into the sector.
    pub fn inward(&self, r: u32, e: u32) -> DVec2 {
        let (a, b) = self.edge(r, e);
        let d = (b - a).as_dvec2();
        DVec2::new(-d.y, d.x).normalize_or_zero() * self.side[r as usize]
    }

    /// The links of edge `e` of ring `r`.
    pub fn links_of(&self, r: u32, e: u32) -> &[Link] {
        let from = self.links.partition_point(|l| (l.ring, l.edge) < (r, e));
        let to = self.links.partition_point(|l| (l.ring, l.edge) <= (r, e));
        &self.links[from..to]
    }

    fn edges(&self) -> impl Iterator<Item = (u32, u32, Vec2, Vec2)> + '_ {
        self.rings.iter().enumerate().flat_map(|(r, ring)| {
            (0..ring.len()).map(move |e| {
                let b = ring[(e + 1) % ring.len()];
                (r as u32, e as u32, ring[e], b)
            })
        })
    }
}

/// The sectors of a level and their cooked triangles, kept for incremental re-cooking.
#[derive(Clone, Debug, Default)]
pub struct SectorCook {
    slots: Vec<Slot>,
    by_id: HashMap<ObjectId, u32>,
    grid: EdgeGrid,
}

/// Sectors at or above this count are linked and cooked on two threads.
const PARALLEL_MIN: usize = 2_000;

impl SectorCook {
    /// Cook `sectors` (ids should be unique: a repeated id's later sectors are cooked but cannot be updated).
    #[must_use]
    pub fn new<'a>(sectors: impl IntoIterator<Item = SectorGeom<'a>>) -> Self {
        let slots: Vec<Slot> = sectors.into_iter().map(|g| Slot::new(&g)).collect();
        let mut by_id = HashMap::with_capacity(slots.len());
        for (i, s) in slots.iter().enumerate() {
            by_id.entry(s.id).or_insert(i as u32);
        }
        let mut cook = SectorCook {
            grid: EdgeGrid::new(cell_size(&slots)),
            slots,
            by_id,
        };
        for (i, s) in cook.slots.iter().enumerate() {
            for (r, e, a, b) in s.edges() {
                let er = EdgeRef {
                    slot: i as u32,
                    ring: r,
                    edge: e,
                };
                cook.grid.insert(er, a, b);
            }
        }
        let all: Vec<u32> = (0..cook.slots.len() as u32).collect();
        let links = cook.each(&all, |c, s| c.links_for(s));
        for (&s, l) in all.iter().zip(links) {
            cook.slots[s as usize].links = l;
        }
        let cooked = cook.each(&all, |c, s| c.cook_slot(s));
        for (&s, c) in all.iter().zip(cooked) {
            cook.slots[s as usize].cooked = c;
        }
        cook
    }

    /// `f` for every slot of `which`, on two threads when there are many.
    fn each<T: Send>(&self, which: &[u32], f: impl Fn(&Self, u32) -> T + Sync) -> Vec<T> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        if which.len() < PARALLEL_MIN || threads < 2 {
            return which.iter().map(|&s| f(self, s)).collect();
        }
        let chunk = which.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = which
                .chunks(chunk)
                .map(|part| {
                    let f = &f;
                    scope.spawn(move || part.iter().map(|&s| f(self, s)).collect::<Vec<T>>())
                })
                .collect();
            let mut out = Vec::with_capacity(which.len());
            for h in handles {
                match h.join() {
                    Ok(v) => out.extend(v),
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
            out
        })
    }

    /// The cooked triangles of sector `id`.
    #[must_use]
    pub fn sector(&self, id: ObjectId) -> Option<&CookedSector> {
        let &s = self.by_id.get(&id)?;
        Some(&self.slots[s as usize].cooked)
    }

    /// Every sector's cooked triangles, in the order they were given (sectors added by
    /// [`SectorCook::update`] last).
    pub fn sectors(&self) -> impl Iterator<Item = &CookedSector> + '_ {
        self.slots.iter().filter(|s| s.alive).map(|s| &s.cooked)
    }

    /// The cooked sectors, taken.
    #[must_use]
    pub fn into_cooked(self) -> Vec<CookedSector> {
        self.slots
            .into_iter()
            .filter(|s| s.alive)
            .map(|s| s.cooked)
            .collect()
    }

    /// The sectors with an edge collinear with and overlapping one of `id`'s (ids ascending).
    #[must_use]
    pub fn neighbours(&self, id: ObjectId) -> Vec<ObjectId> {
        let Some(&s) = self.by_id.get(&id) else {
            return Vec::new();
        };
        let mut out: Vec<ObjectId> = self
            .neighbour_slots(s)
            .into_iter()
            .map(|n| self.slots[n as usize].id)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn neighbour_slots(&self, s: u32) -> Vec<u32> {
        let mut out: Vec<u32> = self.slots[s as usize]
            .links
            .iter()
            .map(|l| l.other.slot)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Apply edits and re-cook what they touch: each change is a sector's id and its new geometry (`None`:
    /// removed; an id not known yet: added). Only the changed sectors and those sharing an edge with them,
    /// before or after, are re-linked and re-cooked. Returns the ids whose triangles changed (removed ones
    /// included), ascending.
    pub fn update<'a>(
        &mut self,
        changes: impl IntoIterator<Item = (ObjectId, Option<SectorGeom<'a>>)>,
    ) -> Vec<ObjectId> {
        let mut touched: Vec<u32> = Vec::new();
        let mut changed_ids: Vec<ObjectId> = Vec::new();
        for (id, geom) in changes {
            let existing = self.by_id.get(&id).copied();
            if let Some(s) = existing {
                touched.extend(self.neighbour_slots(s));
                let old = std::mem::replace(&mut self.slots[s as usize], Slot::dead(id));
                for (_, _, a, b) in old.edges() {
                    self.grid.remove(s, a, b);
                }
                changed_ids.push(id);
            }
            match (existing, geom) {
                (Some(s), Some(g)) => {
                    self.slots[s as usize] = Slot::new(&g);
                    self.enter(s);
                    touched.push(s);
                }
                (Some(s), None) => {
                    self.by_id.remove(&id);
                    self.slots[s as usize].alive = false;
                }
                (None, Some(g)) => {
                    let s = self.slots.len() as u32;
                    self.slots.push(Slot::new(&g));
                    self.by_id.insert(id, s);
                    self.enter(s);
                    touched.push(s);
                    changed_ids.push(id);
                }
                (None, None) => {}
            }
        }
        // The edited sectors' new neighbours.
        let edited = touched.clone();
        for &s in &edited {
            if self.slots[s as usize].alive {
                let links = self.links_for(s);
                touched.extend(links.iter().map(|l| l.other.slot));
                self.slots[s as usize].links = links;
            }
        }
        touched.sort_unstable();
        touched.dedup();
        touched.retain(|&s| self.slots[s as usize].alive);
        for &s in &touched {
            self.slots[s as usize].links = self.links_for(s);
        }
        for &s in &touched {
            let cooked = self.cook_slot(s);
            let slot = &mut self.slots[s as usize];
            if slot.cooked != cooked {
                changed_ids.push(slot.id);
                slot.cooked = cooked;
            }
        }
        changed_ids.sort_unstable();
        changed_ids.dedup();
        changed_ids
    }

    /// Enter slot `s`'s edges in the grid.
    fn enter(&mut self, s: u32) {
        let edges: Vec<_> = self.slots[s as usize].edges().collect();
        for (r, e, a, b) in edges {
            let er = EdgeRef {
                slot: s,
                ring: r,
                edge: e,
            };
            self.grid.insert(er, a, b);
        }
    }

    /// The overlaps of slot `s`'s edges with other sectors' collinear edges, sorted by ring and edge.
    fn links_for(&self, s: u32) -> Vec<Link> {
        let me = &self.slots[s as usize];
        let mut out = Vec::new();
        let mut cands = Vec::new();
        for (r, e, a, b) in me.edges() {
            cands.clear();
            if !self.grid.query(a, b, &mut cands) {
                // Too long for the grid: every edge.
                for (k, o) in self.slots.iter().enumerate() {
                    cands.extend(o.edges().map(|(r, e, _, _)| EdgeRef {
                        slot: k as u32,
                        ring: r,
                        edge: e,
                    }));
                }
            }
            cands.sort_unstable();
            cands.dedup();
            for &c in &cands {
                if c.slot == s {
                    continue;
                }
                let other = &self.slots[c.slot as usize];
                if !other.alive || other.rings.len() <= c.ring as usize {
                    continue;
                }
                let (oa, ob) = other.edge(c.ring, c.edge);
                let Some((s0, s1)) = overlap(a, b, oa, ob) else {
                    continue;
                };
                let across = me.inward(r, e).dot(other.inward(c.ring, c.edge)) < 0.0;
                let heights = me.lo < other.hi && other.lo < me.hi;
                out.push(Link {
                    ring: r,
                    edge: e,
                    s0,
                    s1,
                    other: c,
                    partner: across && heights,
                });
            }
        }
        out
    }

    /// The partners of slot `s` over the point at parameter `at` of its edge `(r, e)`.
    pub(super) fn partners_at(&self, s: u32, r: u32, e: u32, at: f64) -> Vec<u32> {
        let slot = &self.slots[s as usize];
        let (a, b) = slot.edge(r, e);
        let eps = f64::from(SHARE_TOLERANCE) / (b - a).as_dvec2().length().max(1e-30);
        let mut out: Vec<u32> = slot
            .links_of(r, e)
            .iter()
            .filter(|l| l.partner && l.s0 - eps <= at && at <= l.s1 + eps)
            .map(|l| l.other.slot)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Slot `s`'s triangles.
    fn cook_slot(&self, s: u32) -> CookedSector {
        let slot = &self.slots[s as usize];
        let mut out = CookedSector::empty(slot.id);
        let (Some(floor), Some(ceiling)) = (slot.floor, slot.ceiling) else {
            return out;
        };
        let split = self.split_rings(s);
        let mut points: Vec<Vec2> = split.rings.iter().flatten().copied().collect();
        let tris = match convex_fan(&split.rings) {
            Some((centre, tris)) => {
                points.push(centre);
                tris
            }
            None => triangulate(&split.rings),
        };
        for t in &tris {
            let [a, b, c] = t.map(|i| points[i as usize]);
            let up = |p: Vec2| Vec3::new(p.x, split.height(&floor, false, p), p.y);
            // Counter-clockwise in x-z faces down: the floor takes the other order.
            out.push([up(a), up(c), up(b)], FaceKind::Floor);
        }
        for t in &tris {
            let [a, b, c] = t.map(|i| points[i as usize]);
            let down = |p: Vec2| Vec3::new(p.x, split.height(&ceiling, true, p), p.y);
            out.push([down(a), down(b), down(c)], FaceKind::Ceiling);
        }
        for part in &split.parts {
            self.cook_part(s, part, &mut out);
        }
        out
    }

    /// The faces slot `s` owns along one part of its edge: its walls, and the risers and lintels its
    /// partners see across the part.
    fn cook_part(&self, s: u32, part: &Part, out: &mut CookedSector) {
        let slot = &self.slots[s as usize];
        let partners = self.partners_at(s, part.ring, part.edge, part.mid);
        let inward = slot.inward(part.ring, part.edge);
        let me = Viewer {
            slot: s,
            floor: slot.floor,
            ceiling: slot.ceiling,
        };
        let others: Vec<Viewer> = partners.iter().map(|&p| self.viewer(p)).collect();
        part_faces(part, inward, &me, &others, s, out);
        // Seen from each partner: what it sees across, owned by `s`.
        for &p in &partners {
            let pslot = &self.slots[p as usize];
            let mid = part.a.as_dvec2().lerp(part.b.as_dvec2(), 0.5);
            let mut theirs: Vec<u32> = Vec::new();
            for l in slot.links_of(part.ring, part.edge) {
                if l.other.slot != p {
                    continue;
                }
                let (oa, ob) = pslot.edge(l.other.ring, l.other.edge);
                let at = param(oa, ob, mid);
                theirs.extend(self.partners_at(p, l.other.ring, l.other.edge, at));
            }
            theirs.sort_unstable();
            theirs.dedup();
            let others: Vec<Viewer> = theirs.iter().map(|&q| self.viewer(q)).collect();
            part_faces(part, -inward, &self.viewer(p), &others, s, out);
        }
    }

    fn viewer(&self, s: u32) -> Viewer {
        let slot = &self.slots[s as usize];
        Viewer {
            slot: s,
            floor: slot.floor,
            ceiling: slot.ceiling,
        }
    }

    /// Slot `s`'s rings with every split point inserted, the parts of its edges between them, and its
    /// lines' heights where they cross others.
    fn split_rings(&self, s: u32) -> SplitRings {
        let slot = &self.slots[s as usize];
        let tol = f64::from(SHARE_TOLERANCE);
        let mut out = SplitRings::default();
        let mut splits: Vec<(f64, Vec2)> = Vec::new();
        for (r, ring) in slot.rings.iter().enumerate() {
            out.rings.push(Vec::with_capacity(ring.len() + 4));
            for e in 0..ring.len() {
                let (a, b) = (ring[e], ring[(e + 1) % ring.len()]);
                let len = (b - a).as_dvec2().length();
                splits.clear();
                for l in slot.links_of(r as u32, e as u32) {
                    let (oa, ob) =
                        self.slots[l.other.slot as usize].edge(l.other.ring, l.other.edge);
                    for p in [oa, ob] {
                        let t = param(a, b, p.as_dvec2());
                        if t * len > tol && (1.0 - t) * len > tol {
                            splits.push((t, p));
                        }
                    }
                }
                splits.sort_by(|x, y| x.0.total_cmp(&y.0));
                let mut prev = (0.0, a);
                out.rings[r].push(a);
                let edge = (r as u32, e as u32);
                for &(t, p) in &splits {
                    if (t - prev.0) * len <= tol {
                        continue;
                    }
                    self.push_parts(s, edge, prev, (t, p), &mut out);
                    out.rings[r].push(p);
                    prev = (t, p);
                }
                self.push_parts(s, edge, prev, (1.0, b), &mut out);
            }
        }
        out
    }

    /// The part of slot `s`'s edge `(ring, edge)` from `from` to `to` (edge parameter and point), cut where
    /// the lines of slot `s` and of its partners there cross: the cuts go to `ring` (the part's ends are the
    /// caller's) and, with the height slot `s`'s own lines take there, to `own`; the pieces go to `parts`.
    /// Both sectors of a seam compute the cuts from the same part ends ([`crossings`]), so their floors,
    /// ceilings, risers and lintels share the vertex bit for bit.
    fn push_parts(
        &self,
        s: u32,
        (r, e): (u32, u32),
        from: (f64, Vec2),
        to: (f64, Vec2),
        out: &mut SplitRings,
    ) {
        let part = Part::new(r, e, from, to);
        let slot = &self.slots[s as usize];
        let sloped = |k: &Slot| {
            k.floor.is_some_and(|h| !h.is_flat()) || k.ceiling.is_some_and(|h| !h.is_flat())
        };
        // Flat lines never cross: the common case needs no partner look-up.
        if !sloped(slot)
            && !slot
                .links_of(r, e)
                .iter()
                .any(|l| l.partner && sloped(&self.slots[l.other.slot as usize]))
        {
            out.parts.push(part);
            return;
        }
        // The lines `part_faces` sees from `s` across this part.
        let mut lines = Vec::with_capacity(6);
        for k in std::iter::once(s).chain(self.partners_at(s, r, e, part.mid)) {
            let ks = &self.slots[k as usize];
            if let (Some(f), Some(c)) = (ks.floor, ks.ceiling) {
                lines.extend([(f, k), (c, k)]);
            }
        }
        let mut cuts = Vec::new();
        crossings(from.1, to.1, &lines, &mut cuts);
        let mut prev = (from, Vec::new());
        for c in cuts {
            let at = (from.0 + (to.0 - from.0) * c.u, c.at);
            let snaps: Vec<(u64, f32)> = c
                .lines
                .iter()
                .map(|&k| (line_key(lines[k].1, k), c.y))
                .collect();
            for &k in &c.lines {
                if lines[k].1 == s {
                    out.own.push((c.at, k % 2 == 1, c.y));
                }
            }
            let mut piece = Part::new(r, e, prev.0, at);
            piece.snap_a = prev.1;
            piece.snap_b = snaps.clone();
            out.parts.push(piece);
            out.rings[r as usize].push(c.at);
            prev = (at, snaps);
        }
        let mut piece = Part::new(r, e, prev.0, to);
        piece.snap_a = prev.1;
        out.parts.push(piece);
    }
}

/// A sector's rings with every split point inserted, the parts of its edges between them, and the heights
/// its floor (`false`) or ceiling (`true`) takes at the points where lines cross.
#[derive(Default)]
struct SplitRings {
    rings: Vec<Vec<Vec2>>,
    parts: Vec<Part>,
    own: Vec<(Vec2, bool, f32)>,
}

impl SplitRings {
    /// The height of the floor (`ceiling` false) or ceiling at ring point `p`.
    fn height(&self, h: &HeightFn, ceiling: bool, p: Vec2) -> f32 {
        self.own
            .iter()
            .find(|o| o.0 == p && o.1 == ceiling)
            .map_or_else(|| h.at(p), |o| o.2)
    }
}

/// A fan from an inner point for a convex outline without holes (the common room: no triangulation to
/// build), collinear points included (a fan from a corner would give them zero-area triangles, or leave them
/// out of the floor's edges as T-junctions): the point, and the triangles with it as the index after the
/// outline's points, counter-clockwise in `x`-`z` as [`triangulate`]'s. `None` for anything else.
fn convex_fan(rings: &[Vec<Vec2>]) -> Option<(Vec2, Vec<[u32; 3]>)> {
    let [ring] = rings else { return None };
    let n = ring.len();
    let area = ring::signed_area(ring);
    if n < 3 || !(area.abs() > 0.0) {
        return None;
    }
    // Every turn the same way (or straight), and each coordinate turns back at most twice: convex, once round.
    let d = |i: usize| (ring[(i + 1) % n] - ring[i]).as_dvec2();
    let (mut flips_x, mut flips_z) = (0, 0);
    let (mut last_x, mut last_z) = (0.0f64, 0.0f64);
    for i in 0..n + 1 {
        let (a, b) = (d(i % n), d((i + 1) % n));
        if a.perp_dot(b) * area < 0.0 {
            return None;
        }
        if b.x != 0.0 {
            if last_x != 0.0 && b.x.signum() != last_x.signum() {
                flips_x += 1;
            }
            last_x = b.x;
        }
        if b.y != 0.0 {
            if last_z != 0.0 && b.y.signum() != last_z.signum() {
                flips_z += 1;
            }
            last_z = b.y;
        }
    }
    if flips_x > 3 || flips_z > 3 {
        return None;
    }
    let sum = ring.iter().fold(glam::DVec2::ZERO, |s, p| s + p.as_dvec2());
    let centre = (sum / n as f64).as_vec2();
    let c = n as u32;
    let mut tris = Vec::with_capacity(n);
    for i in 0..n {
        let (a, b) = (i as u32, ((i + 1) % n) as u32);
        let t = if area > 0.0 { [c, a, b] } else { [c, b, a] };
        // The centre must be strictly inside every edge's triangle (rounding at a sliver): else triangulate.
        let [p, q, r] = t.map(|k| if k == c { centre } else { ring[k as usize] }.as_dvec2());
        if !((q - p).perp_dot(r - p) > 0.0) {
            return None;
        }
        tris.push(t);
    }
    Some((centre, tris))
}

/// The parameter of `p`'s projection on the line `a`–`b` (`0` at `a`, `1` at `b`).
fn param(a: Vec2, b: Vec2, p: DVec2) -> f64 {
    let (a, b) = (a.as_dvec2(), b.as_dvec2());
    let d = b - a;
    let l2 = d.length_squared();
    if l2 > 0.0 { (p - a).dot(d) / l2 } else { 0.0 }
}

/// The overlap of edge `c`–`d` with edge `a`–`b` when the two are collinear within [`SHARE_TOLERANCE`] and
/// overlap by more than it: the overlap's parameters along `a`–`b`, ascending.
fn overlap(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> Option<(f64, f64)> {
    let tol = f64::from(SHARE_TOLERANCE);
    let (a, b, c, d) = (a.as_dvec2(), b.as_dvec2(), c.as_dvec2(), d.as_dvec2());
    let (ab, cd) = (b - a, d - c);
    let (lab, lcd) = (ab.length(), cd.length());
    if !(lab > tol && lcd > tol) {
        return None;
    }
    let off = |p: DVec2, o: DVec2, dir: DVec2, len: f64| (dir.perp_dot(p - o) / len).abs();
    if off(c, a, ab, lab) > tol
        || off(d, a, ab, lab) > tol
        || off(a, c, cd, lcd) > tol
        || off(b, c, cd, lcd) > tol
    {
        return None;
    }
    let tc = (c - a).dot(ab) / (lab * lab);
    let td = (d - a).dot(ab) / (lab * lab);
    let (lo, hi) = (tc.min(td).max(0.0), tc.max(td).min(1.0));
    ((hi - lo) * lab > tol).then_some((lo, hi))
}

/// A grid cell about the mean edge length, but no finer than a 65,536th of the level's extent (a kilometre
/// of wall in a level of small rooms is then a few thousand cells, not millions).
fn cell_size(slots: &[Slot]) -> f64 {
    let mut total = 0.0;
    let mut count = 0usize;
    let mut lo = DVec2::splat(f64::INFINITY);
    let mut hi = DVec2::splat(f64::NEG_INFINITY);
    for s in slots {
        for (_, _, a, b) in s.edges() {
            total += (b - a).as_dvec2().length();
            count += 1;
            lo = lo.min(a.as_dvec2());
            hi = hi.max(a.as_dvec2());
        }
    }
    if count == 0 {
        return 1.0;
    }
    let extent = (hi - lo).max_element();
    (total / count as f64).max(extent / 65_536.0).max(1e-3)
}
