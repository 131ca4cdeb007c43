//! Greybox sector edits (no egui): add, move shared vertices and edges, insert a vertex, split, join, set and
//! raise floors and ceilings. Each function reads the level and returns one [`LabelledEdit`] (one undo step)
//! or the reason it is refused: every result is checked first with the runtime's own validation
//! (`Level::validate`, the rules of `level/validate_sector.rs`) on the touched sectors and their neighbours,
//! so an edit that would make a self-crossing outline, a ceiling under its floor or an overlap within a
//! storey is refused with the runtime's message, never clamped. The Sector tool, the Select tool's vertex
//! and edge drags, the inspector, the height keys, the 3D view and the builders all go through these.
//!
//! Points within [`WELD`] (the runtime's sharing tolerance, `1e-4` m) are one point: a vertex or an edge
//! moves in every sector that has it.

use glam::{DVec2, Vec2};

use super::{Edit, LabelledEdit, Object, count_noun};
use crate::level::{Level, ObjectId, SectorObject, Severity, Slope, Surface};
use crate::sector::{SHARE_TOLERANCE, ring};

/// Points closer than this (metres) are one point: the runtime's edge-sharing tolerance.
pub const WELD: f32 = SHARE_TOLERANCE;

/// A new sector's floor height when nothing suggests another, metres.
pub const DEFAULT_FLOOR: f32 = 0.0;
/// A new sector's ceiling height above its floor, metres.
pub const DEFAULT_ROOM_HEIGHT: f32 = 3.0;

/// Which surface of a sector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Which {
    /// The floor.
    Floor,
    /// The ceiling.
    Ceiling,
}

impl Which {
    /// "floor" or "ceiling".
    #[must_use]
    pub fn noun(self) -> &'static str {
        match self {
            Which::Floor => "floor",
            Which::Ceiling => "ceiling",
        }
    }

    /// The surface of `s`.
    #[must_use]
    pub fn of(self, s: &SectorObject) -> Surface {
        match self {
            Which::Floor => s.floor,
            Which::Ceiling => s.ceiling,
        }
    }

    /// The surface of `s`, to change.
    pub fn of_mut(self, s: &mut SectorObject) -> &mut Surface {
        match self {
            Which::Floor => &mut s.floor,
            Which::Ceiling => &mut s.ceiling,
        }
    }
}

/// Whether two points are one (within [`WELD`]).
#[must_use]
pub fn same_point(a: Vec2, b: Vec2) -> bool {
    a.distance_squared(b) <= WELD * WELD
}

/// A flat sector with id 0 (the document gives it a fresh one) over `outline`.
#[must_use]
pub fn new_sector(outline: Vec<Vec2>, floor: f32, ceiling: f32) -> SectorObject {
    SectorObject {
        id: ObjectId(0),
        name: None,
        outline,
        holes: Vec::new(),
        floor: Surface {
            height: floor,
            slope: None,
        },
        ceiling: Surface {
            height: ceiling,
            slope: None,
        },
        properties: Default::default(),
        one_way: false,
    }
}

/// Whether a sector with floor height `floor` is shown under the storey filter `storey` (`(low, high)`;
/// `None`: every sector).
#[must_use]
pub fn in_storey(floor: f32, storey: Option<(f32, f32)>) -> bool {
    storey.is_none_or(|(lo, hi)| floor >= lo && floor <= hi)
}

/// The floor and ceiling a new sector drawn with `outline` gets: those of a sector in the storey it shares an
/// edge with (the first found; the ceiling at least [`DEFAULT_ROOM_HEIGHT`] above), else the storey
/// filter's lowest floor, else [`DEFAULT_FLOOR`]; the ceiling [`DEFAULT_ROOM_HEIGHT`] above the floor.
#[must_use]
pub fn heights_for(level: &Level, outline: &[Vec2], storey: Option<(f32, f32)>) -> (f32, f32) {
    let n = outline.len();
    for s in level
        .sectors
        .iter()
        .filter(|s| in_storey(s.floor.height, storey))
    {
        let shares = (0..n).any(|i| !find_edges(s, outline[i], outline[(i + 1) % n]).is_empty());
        if shares {
            let room = (s.ceiling.height - s.floor.height).max(DEFAULT_ROOM_HEIGHT);
            return (s.floor.height, s.floor.height + room);
        }
    }
    let floor = storey.map_or(DEFAULT_FLOOR, |(lo, _)| lo);
    (floor, floor + DEFAULT_ROOM_HEIGHT)
}

/// The sector with `id`, if `level` has one.
#[must_use]
pub fn sector(level: &Level, id: ObjectId) -> Option<&SectorObject> {
    level.sectors.iter().find(|s| s.id == id)
}

fn bounds(s: &SectorObject) -> (Vec2, Vec2) {
    s.outline.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

fn boxes_meet(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> bool {
    let e = 1e-3;
    a.0.x <= b.1.x + e && b.0.x <= a.1.x + e && a.0.y <= b.1.y + e && b.0.y <= a.1.y + e
}

/// Check `changed` (new versions of existing sectors) and `added` (new sectors, whatever their ids) against
/// the runtime's validation, with the level's other sectors near them (those in `removed` left out): the
/// first error of one of them, as "outline: the outline crosses itself …".
///
/// # Errors
/// The runtime's reason when one is invalid.
pub fn check(
    level: &Level,
    changed: &[SectorObject],
    added: &[SectorObject],
    removed: &[ObjectId],
) -> Result<(), String> {
    let mut next = level.next_id().0;
    let mut mine: Vec<SectorObject> = changed.to_vec();
    for s in added {
        let mut s = s.clone();
        s.id = ObjectId(next);
        next = next.saturating_add(1);
        mine.push(s);
    }
    let ids: Vec<ObjectId> = mine.iter().map(|s| s.id).collect();
    let boxes: Vec<(Vec2, Vec2)> = mine.iter().map(bounds).collect();
    let whole = boxes.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), b| (lo.min(b.0), hi.max(b.1)),
    );
    let near = |b: (Vec2, Vec2)| {
        boxes_meet(whole, b) && (boxes.len() > 64 || boxes.iter().any(|m| boxes_meet(*m, b)))
    };
    // Neighbours first: an overlap is reported on the later sector, a candidate.
    let mut sectors: Vec<SectorObject> = level
        .sectors
        .iter()
        .filter(|s| !ids.contains(&s.id) && !removed.contains(&s.id) && near(bounds(s)))
        .cloned()
        .collect();
    sectors.extend(mine);
    let mini = Level {
        sectors,
        ..Level::default()
    };
    let problem = mini
        .validate()
        .into_iter()
        .find(|p| p.severity == Severity::Error && p.object.is_some_and(|o| ids.contains(&o)));
    match problem {
        None => Ok(()),
        Some(p) => {
            // `sectors[3].outline[2]` → `outline[2]`: the index is the check's own, not the level's.
            let field = p.field.split_once('.').map_or("", |(_, f)| f);
            Err(if field.is_empty() {
                p.message
            } else {
                format!("{field}: {}", p.message)
            })
        }
    }
}

/// An edit replacing `replace`, removing `remove` and adding `add` (sectors), checked first.
fn checked(
    level: &Level,
    label: String,
    replace: Vec<SectorObject>,
    remove: Vec<ObjectId>,
    add: Vec<SectorObject>,
) -> Result<LabelledEdit, String> {
    check(level, &replace, &add, &remove)?;
    Ok(LabelledEdit::new(
        label,
        Edit {
            remove,
            replace: replace.into_iter().map(Object::Sector).collect(),
            add: add.into_iter().map(Object::Sector).collect(),
            header: None,
        },
        None,
    ))
}

/// Add `sectors` (id 0 gets a fresh id) as one step named `label`.
///
/// # Errors
/// The runtime's reason when one is invalid or overlaps another within a storey.
pub fn add_sectors(
    level: &Level,
    sectors: Vec<SectorObject>,
    label: impl Into<String>,
) -> Result<LabelledEdit, String> {
    if sectors.is_empty() {
        return Err("no sectors to add".into());
    }
    checked(level, label.into(), Vec::new(), Vec::new(), sectors)
}

/// Replace `replace` (new versions, same ids), remove `remove` and add `add` (id 0 gets a fresh id) as one
/// step named `label`: what a builder makes (stairs replacing a picked sector, a doorway pulling back two
/// rooms).
///
/// # Errors
/// Nothing to do, or the runtime's reason when a sector is invalid or overlaps another within a storey.
pub fn sector_edit(
    level: &Level,
    label: impl Into<String>,
    replace: Vec<SectorObject>,
    remove: Vec<ObjectId>,
    add: Vec<SectorObject>,
) -> Result<LabelledEdit, String> {
    if replace.is_empty() && remove.is_empty() && add.is_empty() {
        return Err("nothing to change".into());
    }
    checked(level, label.into(), replace, remove, add)
}

/// Replace sectors by new versions of themselves (same ids) as one step named `label`, merging with the
/// previous step of the same `merge_key` (a dragged number in the inspector).
///
/// # Errors
/// The runtime's reason when one is invalid.
pub fn replace_sectors(
    level: &Level,
    sectors: Vec<SectorObject>,
    label: impl Into<String>,
    merge_key: Option<String>,
) -> Result<LabelledEdit, String> {
    let mut e = checked(level, label.into(), sectors, Vec::new(), Vec::new())?;
    e.merge_key = merge_key;
    Ok(e)
}

/// Change the sectors `ids` with `f` as one step (checked; see [`replace_sectors`]).
///
/// # Errors
/// No such sector, or the runtime's reason when a changed one is invalid.
pub fn edit_sectors(
    level: &Level,
    ids: &[ObjectId],
    label: impl Into<String>,
    merge_key: Option<String>,
    mut f: impl FnMut(&mut SectorObject),
) -> Result<LabelledEdit, String> {
    let mut changed = Vec::new();
    for &id in ids {
        let mut s = sector(level, id).ok_or(format!("no sector {id}"))?.clone();
        f(&mut s);
        changed.push(s);
    }
    if changed.is_empty() {
        return Err("no sector selected".into());
    }
    replace_sectors(level, changed, label, merge_key)
}

/// Set the floor or ceiling of sectors `ids` to `surface` (height and slope) as one step.
///
/// # Errors
/// The runtime's reason (a slope edge out of range, a ceiling under the floor, …).
pub fn set_surface(
    level: &Level,
    ids: &[ObjectId],
    which: Which,
    surface: Surface,
) -> Result<LabelledEdit, String> {
    let label = format!(
        "Set {} of {}",
        which.noun(),
        count_noun(ids.len(), "sector")
    );
    edit_sectors(level, ids, label, None, |s| *which.of_mut(s) = surface)
}

/// Raise (a positive `delta`) or lower the floors or ceilings of sectors `ids` by `delta` metres, slopes
/// kept, as one step.
///
/// # Errors
/// The runtime's reason (a floor raised through its ceiling is refused, not clamped).
pub fn raise(
    level: &Level,
    ids: &[ObjectId],
    which: Which,
    delta: f32,
) -> Result<LabelledEdit, String> {
    let verb = if delta >= 0.0 { "Raise" } else { "Lower" };
    let label = format!(
        "{verb} {} of {}",
        which.noun(),
        count_noun(ids.len(), "sector")
    );
    edit_sectors(level, ids, label, None, |s| which.of_mut(s).height += delta)
}

/// Every ring of `s`, outline first, to change.
fn rings_mut(s: &mut SectorObject) -> impl Iterator<Item = &mut Vec<Vec2>> {
    std::iter::once(&mut s.outline).chain(s.holes.iter_mut())
}

/// Move every sector point at a `from` (within [`WELD`]) to its `to`, in every sector that has it, as one
/// step named `label`.
///
/// # Errors
/// No sector has a point there, or the runtime's reason when a moved sector is invalid.
pub fn move_points(
    level: &Level,
    moves: &[(Vec2, Vec2)],
    label: impl Into<String>,
) -> Result<LabelledEdit, String> {
    let moved = moved_points(level.sectors.iter(), moves);
    if moved.is_empty() {
        return Err("no sector has a point there".into());
    }
    replace_sectors(level, moved, label, None)
}

/// The sectors of `sectors` with a point at a `from`, with those points moved to their `to` (what a live
/// drag previews each frame).
pub fn moved_points<'a>(
    sectors: impl IntoIterator<Item = &'a SectorObject>,
    moves: &[(Vec2, Vec2)],
) -> Vec<SectorObject> {
    let mut out = Vec::new();
    for s in sectors {
        let mut t = s.clone();
        let mut hit = false;
        for r in rings_mut(&mut t) {
            for p in r.iter_mut() {
                if let Some((_, to)) = moves.iter().find(|(from, _)| same_point(*p, *from)) {
                    *p = *to;
                    hit = true;
                }
            }
        }
        if hit {
            out.push(t);
        }
    }
    out
}

/// Move the vertex at `from` to `to` in every sector that has it (one step).
///
/// # Errors
/// See [`move_points`].
pub fn move_vertex(level: &Level, from: Vec2, to: Vec2) -> Result<LabelledEdit, String> {
    move_points(level, &[(from, to)], "Move sector vertex")
}

/// Move the edge `a`–`b` by `delta` in every sector that has its ends (one step).
///
/// # Errors
/// See [`move_points`].
pub fn move_edge(level: &Level, a: Vec2, b: Vec2, delta: Vec2) -> Result<LabelledEdit, String> {
    move_points(level, &[(a, a + delta), (b, b + delta)], "Move sector edge")
}

/// Insert `p` into ring `r` (0: the outline, `k + 1`: hole `k`) of `s` after point `i`, keeping a slope on
/// its edge: the split edge's first part keeps the index (the same line), later edges move up by one.
fn insert_point(s: &mut SectorObject, r: usize, i: usize, p: Vec2) {
    if r == 0 {
        for surf in [&mut s.floor, &mut s.ceiling] {
            if let Some(sl) = &mut surf.slope
                && sl.edge as usize > i
            {
                sl.edge += 1;
            }
        }
    }
    if let Some(ring) = rings_mut(s).nth(r) {
        ring.insert(i + 1, p);
    }
}

/// Where the edge `a`–`b` (either direction) is in `s`: `(ring, index of its first point)`.
fn find_edges(s: &SectorObject, a: Vec2, b: Vec2) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (r, ring) in std::iter::once(&s.outline).chain(&s.holes).enumerate() {
        let n = ring.len();
        for i in 0..n {
            let (p, q) = (ring[i], ring[(i + 1) % n]);
            if (same_point(p, a) && same_point(q, b)) || (same_point(p, b) && same_point(q, a)) {
                out.push((r, i));
            }
        }
    }
    out
}

/// The sectors of `level` with the edge `a`–`b`, with `p` inserted on it (no check).
fn with_point_on_edge(level: &Level, a: Vec2, b: Vec2, p: Vec2) -> Vec<SectorObject> {
    let mut out = Vec::new();
    for s in &level.sectors {
        let mut found = find_edges(s, a, b);
        if found.is_empty() {
            continue;
        }
        let mut t = s.clone();
        // From the back, so earlier indices stay valid.
        found.sort_unstable_by(|x, y| y.cmp(x));
        for (r, i) in found {
            insert_point(&mut t, r, i, p);
        }
        out.push(t);
    }
    out
}

/// The point of segment `a`–`b` nearest `p`.
#[must_use]
pub fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 <= 0.0 || !len2.is_finite() {
        return a;
    }
    a + d * ((p - a).dot(d) / len2).clamp(0.0, 1.0)
}

/// Insert a vertex on the edge `a`–`b` at the point of the edge nearest `p`, in every sector that has the
/// edge (one step).
///
/// # Errors
/// The point is at an end of the edge, or no sector has the edge.
pub fn insert_vertex(level: &Level, a: Vec2, b: Vec2, p: Vec2) -> Result<LabelledEdit, String> {
    let q = closest_on_segment(p, a, b);
    if same_point(q, a) || same_point(q, b) {
        return Err("the new vertex would be on an end of the edge".into());
    }
    let changed = with_point_on_edge(level, a, b, q);
    if changed.is_empty() {
        return Err("no sector has that edge".into());
    }
    replace_sectors(level, changed, "Insert sector vertex", None)
}

/// Where the segment `a`–`b` crosses the outline: `(parameter along a–b, edge index, point)`, each place
/// once (a crossing through a vertex is the vertex's, on the edge that starts there).
fn crossings(outline: &[Vec2], a: Vec2, b: Vec2) -> Vec<(f64, usize, Vec2)> {
    let n = outline.len();
    let (a64, d) = (a.as_dvec2(), (b - a).as_dvec2());
    let len = d.length();
    let mut out: Vec<(f64, usize, Vec2)> = Vec::new();
    if len == 0.0 {
        return out;
    }
    let tol = f64::from(WELD) / len;
    for i in 0..n {
        let (p, q) = (outline[i].as_dvec2(), outline[(i + 1) % n].as_dvec2());
        let e = q - p;
        let den = d.perp_dot(e);
        let hit = if den.abs() < 1e-12 * len * e.length() {
            None
        } else {
            let t = (p - a64).perp_dot(e) / den;
            let u = (p - a64).perp_dot(d) / den;
            let u_tol = f64::from(WELD) / e.length().max(1e-12);
            (t >= -tol && t <= 1.0 + tol && u >= -u_tol && u < 1.0 - u_tol).then(|| {
                let pt = if u <= u_tol { p } else { p + e * u };
                (t, i, pt)
            })
        };
        if let Some((t, i, pt)) = hit {
            let pt = DVec2::new(pt.x, pt.y).as_vec2();
            if !out.iter().any(|(_, _, o)| same_point(*o, pt)) {
                out.push((t, i, pt));
            }
        }
    }
    out.sort_by(|x, y| x.0.total_cmp(&y.0));
    out
}

/// Split sector `id` in two by the segment `a`–`b`, which must cross its outline exactly twice (its ends
/// on or beyond the outline). The sector keeps its id, name and surfaces on one side; the other side is a
/// new sector with the same surfaces. The neighbours sharing the cut edges get the new vertices too. A
/// sloped sector is refused (its slope's edge may fall on one side only).
///
/// # Errors
/// Why it cannot be split.
pub fn split_sector(level: &Level, id: ObjectId, a: Vec2, b: Vec2) -> Result<LabelledEdit, String> {
    let s = sector(level, id).ok_or(format!("no sector {id}"))?;
    if s.floor.slope.is_some() || s.ceiling.slope.is_some() {
        return Err("a sloped sector cannot be split: make it flat first".into());
    }
    let cuts = crossings(&s.outline, a, b);
    if cuts.len() != 2 {
        return Err(format!(
            "the line must cross the sector's outline exactly twice (it crosses {})",
            cuts.len()
        ));
    }
    let (p, q) = (cuts[0], cuts[1]);
    let mid = (p.2 + q.2) * 0.5;
    if !ring::contains(&s.outline, mid) {
        return Err("the line runs outside the sector".into());
    }
    let n = s.outline.len();
    // Walk the outline from one cut to the other: p, outline[p.1 + 1 ..= q.1], q; and back.
    let side = |from: (f64, usize, Vec2), to: (f64, usize, Vec2)| {
        let mut r = vec![from.2];
        let mut k = (from.1 + 1) % n;
        loop {
            r.push(s.outline[k]);
            if k == to.1 {
                break;
            }
            k = (k + 1) % n;
        }
        r.push(to.2);
        ring::clean(&dedup_welded(r))
    };
    let (one, two) = (side(p, q), side(q, p));
    if one.len() < 3 || two.len() < 3 {
        return Err("the line does not cut the sector in two".into());
    }
    let mut first = s.clone();
    first.outline = one;
    first.holes.clear();
    let mut second = s.clone();
    second.id = ObjectId(0);
    second.name = None;
    second.outline = two;
    second.holes.clear();
    for h in &s.holes {
        if h.iter().any(|pt| ring::contains(&first.outline, *pt))
            && h.iter().any(|pt| ring::contains(&second.outline, *pt))
        {
            return Err("the line crosses a hole".into());
        }
        let into = if ring::contains(&first.outline, h[0]) {
            &mut first
        } else {
            &mut second
        };
        into.holes.push(h.clone());
    }
    // Neighbours that share a cut edge get the cut's point too, so the seam stays welded.
    let mut replace = vec![first];
    for cut in [p, q] {
        let (ea, eb) = (s.outline[cut.1], s.outline[(cut.1 + 1) % n]);
        if same_point(cut.2, ea) || same_point(cut.2, eb) {
            continue;
        }
        for t in with_point_on_edge(level, ea, eb, cut.2) {
            if t.id == id {
                continue;
            }
            match replace.iter_mut().find(|r| r.id == t.id) {
                Some(r) => {
                    let moved = with_point_on_edge(
                        &Level {
                            sectors: vec![r.clone()],
                            ..Level::default()
                        },
                        ea,
                        eb,
                        cut.2,
                    );
                    if let Some(m) = moved.into_iter().next() {
                        *r = m;
                    }
                }
                None => replace.push(t),
            }
        }
    }
    checked(
        level,
        "Split sector".into(),
        replace,
        Vec::new(),
        vec![second],
    )
}

/// `r` without consecutive points within [`WELD`] of each other (nor a last one at the first).
fn dedup_welded(r: Vec<Vec2>) -> Vec<Vec2> {
    let mut out: Vec<Vec2> = Vec::with_capacity(r.len());
    for p in r {
        if out.last().is_none_or(|l| !same_point(*l, p)) {
            out.push(p);
        }
    }
    while out.len() > 1
        && out
            .first()
            .zip(out.last())
            .is_some_and(|(f, l)| same_point(*f, *l))
    {
        out.pop();
    }
    out
}

/// `ring` counter-clockwise (positive signed area).
fn ccw(mut ring: Vec<Vec2>) -> Vec<Vec2> {
    if ring::signed_area(&ring) < 0.0 {
        ring.reverse();
    }
    ring
}

/// The directed edges of a sector's outline (counter-clockwise) and holes (clockwise).
fn directed_edges(s: &SectorObject) -> Vec<(Vec2, Vec2)> {
    let mut out = Vec::new();
    let outline = ccw(dedup_welded(s.outline.clone()));
    let holes = s.holes.iter().map(|h| {
        let mut h = ccw(dedup_welded(h.clone()));
        h.reverse();
        h
    });
    for r in std::iter::once(outline).chain(holes) {
        let n = r.len();
        out.extend((0..n).map(|i| (r[i], r[(i + 1) % n])));
    }
    out
}

/// Join sectors `a` and `b`, which must share at least one whole edge (the same two points): one sector
/// with `a`'s id, name and surfaces over both plans (a ring left between them becomes a hole). A slope of
/// `a` is kept on its edge; `b` is removed.
///
/// # Errors
/// They share no edge, or the union is not one outline.
pub fn join_sectors(level: &Level, a: ObjectId, b: ObjectId) -> Result<LabelledEdit, String> {
    let sa = sector(level, a).ok_or(format!("no sector {a}"))?;
    let sb = sector(level, b).ok_or(format!("no sector {b}"))?;
    if a == b {
        return Err("select two different sectors".into());
    }
    let mut edges = directed_edges(sa);
    let mut shared = 0;
    for (p, q) in directed_edges(sb) {
        match edges
            .iter()
            .position(|(x, y)| same_point(*x, q) && same_point(*y, p))
        {
            Some(k) => {
                edges.swap_remove(k);
                shared += 1;
            }
            None => edges.push((p, q)),
        }
    }
    if shared == 0 {
        return Err(format!(
            "sectors {a} and {b} share no edge (their common edges must have the same end points)"
        ));
    }
    let mut rings = chain_rings(edges)?;
    rings.sort_by(|x, y| ring::signed_area(y).total_cmp(&ring::signed_area(x)));
    let mut joined = sa.clone();
    joined.outline = rings.remove(0);
    joined.holes = rings;
    for which in [Which::Floor, Which::Ceiling] {
        if let Some(sl) = which.of(sa).slope {
            let n = sa.outline.len();
            if n == 0 {
                return Err(format!("sector {a} has no outline"));
            }
            let (p, q) = (
                sa.outline[sl.edge as usize % n],
                sa.outline[(sl.edge as usize + 1) % n],
            );
            let edge = find_edges(&joined, p, q)
                .into_iter()
                .find(|(r, _)| *r == 0)
                .ok_or("the slope's edge is inside the joined sector: make it flat first")?;
            which.of_mut(&mut joined).slope = Some(Slope {
                edge: edge.1 as u32,
                degrees: sl.degrees,
            });
        }
    }
    checked(
        level,
        "Join 2 sectors".into(),
        vec![joined],
        vec![b],
        Vec::new(),
    )
}

/// Chain directed edges into closed rings (each edge once).
fn chain_rings(mut edges: Vec<(Vec2, Vec2)>) -> Result<Vec<Vec<Vec2>>, String> {
    let mut rings = Vec::new();
    while let Some((start, mut at)) = edges.pop() {
        let mut r = vec![start];
        let mut guard = 0;
        while !same_point(at, start) {
            let k = edges
                .iter()
                .position(|(p, _)| same_point(*p, at))
                .ok_or("the joined outline does not close (an edge is shared only in part)")?;
            r.push(at);
            at = edges.swap_remove(k).1;
            guard += 1;
            if guard > 1_000_000 {
                return Err("the joined outline does not close".into());
            }
        }
        let r = dedup_welded(r);
        if r.len() >= 3 {
            rings.push(r);
        }
    }
    if rings.is_empty() {
        return Err("the joined outline is empty".into());
    }
    Ok(rings)
}

mod outline;
mod refuse;
pub use outline::{loop_around, self_crossing};
pub use refuse::edit_refusal;

#[cfg(test)]
mod tests;
