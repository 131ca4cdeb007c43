//! The Sector tool: click a greybox sector's outline point by point (welded to the sectors' vertices,
//! snapped to the grid) and close it on the first point, Enter or a double-click; a double-click inside a
//! closed loop of sector edges fills it; two points and Enter split the sector the line crosses; Alt+click
//! on an edge inserts a vertex in every sector that has it. An outline that cannot be a sector (crossing
//! itself, overlapping a sector of its storey) is refused with the reason, and the points stay.

use egui::Pos2;
use glam::Vec2;

use super::{Gesture, Pointer, ToolCtx, Tools, WELD_PX};
use crate::editor::document::sector::{
    self as edits, add_sectors, closest_on_segment, heights_for, in_storey, new_sector, same_point,
};
use crate::editor::document::{Header, Object, Preview};
use crate::level::SectorObject;

impl Tools {
    /// Sector tool: clicks add outline points; a click on the first point, or a double-click, closes it.
    pub(crate) fn sector_pointer(
        &mut self,
        cx: &mut ToolCtx<'_>,
        ui: &egui::Ui,
        resp: &egui::Response,
        pt: Pointer,
    ) {
        let Some(p) = pt.press else {
            return;
        };
        let w = pt.world(p);
        if resp.double_clicked() {
            if self.chain.len() <= 1 {
                // The double-click's first click started a chain: a fill instead.
                self.chain.clear();
                fill(cx, w);
            } else {
                self.finish_sector(cx);
            }
            return;
        }
        if !resp.clicked() {
            return;
        }
        if ui.input(|i| i.modifiers.alt) && self.chain.is_empty() {
            insert_on_edge(cx, w, WELD_PX / pt.cam.scale);
            return;
        }
        let (v, _) = self.snap_vertex(cx.doc, pt.cam.scale, w, pt.shift);
        if self.chain.len() >= 3 && same_point(v, self.chain[0]) {
            self.finish_sector(cx);
        } else if self.chain.last().is_none_or(|l| !same_point(*l, v)) {
            self.chain.push(v);
        }
    }

    /// Close the outline (three points or more) into a sector, or split a sector by a two-point line. A
    /// refusal keeps the points and says why.
    pub(crate) fn finish_sector(&mut self, cx: &mut ToolCtx<'_>) {
        match self.chain.len() {
            2 => self.split_by_chain(cx),
            n if n >= 3 => {
                if let Some((i, j)) = edits::self_crossing(&self.chain) {
                    *cx.status = format!(
                        "not drawn: the outline crosses itself (edges {} and {}); Backspace removes the last point",
                        i + 1,
                        j + 1
                    );
                    return;
                }
                let storey = cx.scene.storey();
                let (floor, ceiling) = heights_for(cx.doc.level(), &self.chain, storey);
                let s = new_sector(self.chain.clone(), floor, ceiling);
                match add_sectors(cx.doc.level(), vec![s], "Draw sector") {
                    Ok(e) => {
                        cx.apply_edit(e);
                        self.chain.clear();
                        *cx.status = format!("drew a sector: floor {floor} m, ceiling {ceiling} m");
                    }
                    Err(why) => *cx.status = format!("not drawn: {why}"),
                }
            }
            _ => {}
        }
    }

    /// Split the shown sector the chain's line crosses.
    fn split_by_chain(&mut self, cx: &mut ToolCtx<'_>) {
        let (a, b) = (self.chain[0], self.chain[1]);
        let storey = cx.scene.storey();
        let mut why = String::from("the line crosses no sector");
        let candidates: Vec<&SectorObject> = cx
            .doc
            .level()
            .sectors
            .iter()
            .filter(|s| in_storey(s.floor.height, storey))
            .filter(|s| crate::sector::ring::contains(&s.outline, (a + b) * 0.5))
            .collect();
        for s in candidates {
            match edits::split_sector(cx.doc.level(), s.id, a, b) {
                Ok(e) => {
                    cx.apply_edit(e);
                    self.chain.clear();
                    *cx.status = "split the sector in two".into();
                    return;
                }
                Err(e) => why = e,
            }
        }
        *cx.status = format!("not split: {why}");
    }
}

/// Fill the closed loop of shown sector edges around `p` with a new sector.
fn fill(cx: &mut ToolCtx<'_>, p: Vec2) {
    let storey = cx.scene.storey();
    let level = cx.doc.level();
    let Some(outline) = edits::loop_around(level, p, |s| in_storey(s.floor.height, storey)) else {
        *cx.status = "not filled: no closed loop of sector edges around that point".into();
        return;
    };
    let (floor, ceiling) = heights_for(level, &outline, storey);
    match add_sectors(
        level,
        vec![new_sector(outline, floor, ceiling)],
        "Fill sector",
    ) {
        Ok(e) => {
            cx.apply_edit(e);
            *cx.status = "filled the loop with a sector".into();
        }
        Err(why) => *cx.status = format!("not filled: {why}"),
    }
}

/// Insert a vertex on the shown sector edge nearest `w` (within `tol` metres).
fn insert_on_edge(cx: &mut ToolCtx<'_>, w: Vec2, tol: f32) {
    let storey = cx.scene.storey();
    let level = cx.doc.level();
    let mut best: Option<(f32, Vec2, Vec2)> = None;
    for s in level
        .sectors
        .iter()
        .filter(|s| in_storey(s.floor.height, storey))
    {
        for r in std::iter::once(&s.outline).chain(&s.holes) {
            let n = r.len();
            for i in 0..n {
                let (a, b) = (r[i], r[(i + 1) % n]);
                let d = closest_on_segment(w, a, b).distance(w);
                if d <= tol && best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, a, b));
                }
            }
        }
    }
    let Some((_, a, b)) = best else {
        *cx.status = "Alt+click on a sector edge inserts a vertex there".into();
        return;
    };
    match edits::insert_vertex(level, a, b, w) {
        Ok(e) => {
            cx.apply_edit(e);
            *cx.status = "inserted a vertex".into();
        }
        Err(why) => *cx.status = format!("no vertex inserted: {why}"),
    }
}

/// The sector vertex a press at screen point `p` grabs (within the weld distance), if any.
pub(crate) fn vertex_at(cx: &ToolCtx<'_>, pt: Pointer, p: Pos2) -> Option<Vec2> {
    let w = pt.world(p);
    let tol = WELD_PX / pt.cam.scale;
    let storey = cx.scene.storey();
    cx.doc
        .level()
        .sectors
        .iter()
        .filter(|s| in_storey(s.floor.height, storey))
        .flat_map(|s| s.outline.iter().chain(s.holes.iter().flatten()))
        .map(|v| (v.distance(w), *v))
        .filter(|(d, _)| *d <= tol)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, v)| v)
}

/// The sector points a Select drag from screen point `p` takes: a vertex near it, else the two ends of a
/// sector edge near it (both within the weld distance), shown sectors only.
pub(crate) fn points_at(cx: &ToolCtx<'_>, pt: Pointer, p: Pos2) -> Option<Vec<Vec2>> {
    if let Some(v) = vertex_at(cx, pt, p) {
        return Some(vec![v]);
    }
    let w = pt.world(p);
    let tol = WELD_PX / pt.cam.scale;
    let storey = cx.scene.storey();
    let mut best: Option<(f32, Vec2, Vec2)> = None;
    for s in cx
        .doc
        .level()
        .sectors
        .iter()
        .filter(|s| in_storey(s.floor.height, storey))
    {
        for r in std::iter::once(&s.outline).chain(&s.holes) {
            let n = r.len();
            for i in 0..n {
                let (a, b) = (r[i], r[(i + 1) % n]);
                let d = closest_on_segment(w, a, b).distance(w);
                if d <= tol * 0.6 && best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, a, b));
                }
            }
        }
    }
    best.map(|(_, a, b)| vec![a, b])
}

/// Start dragging `points` grabbed at world point `grab`: the sectors that have them are the preview's.
pub(crate) fn begin_points(cx: &mut ToolCtx<'_>, points: Vec<Vec2>, grab: Vec2) -> Gesture {
    let level = cx.doc.level();
    let still: Vec<(Vec2, Vec2)> = points.iter().map(|p| (*p, *p)).collect();
    let originals = edits::moved_points(level.sectors.iter(), &still)
        .into_iter()
        .map(Object::Sector)
        .collect();
    Gesture::MovePoints {
        preview: Preview {
            originals,
            header: Header::of(level),
        },
        points,
        grab,
        delta: Vec2::ZERO,
    }
}

/// The drag ends: the preview undone, then the move as one checked step (or the reason it is refused).
pub(crate) fn end_points(cx: &mut ToolCtx<'_>, preview: Preview, points: &[Vec2], delta: Vec2) {
    cx.doc.cancel_preview(preview);
    if delta == Vec2::ZERO {
        return;
    }
    let moves: Vec<(Vec2, Vec2)> = points.iter().map(|p| (*p, *p + delta)).collect();
    let label = if points.len() == 1 {
        "Move sector vertex"
    } else {
        "Move sector edge"
    };
    match edits::move_points(cx.doc.level(), &moves, label) {
        Ok(e) => {
            cx.apply_edit(e);
            *cx.status = label.to_lowercase();
        }
        Err(why) => *cx.status = format!("not moved: {why}"),
    }
}

impl Tools {
    /// Where the sector points' drag was grabbed.
    pub(crate) fn grab_of_points(&self) -> Vec2 {
        match &self.gesture {
            Some(Gesture::MovePoints { grab, .. }) => *grab,
            _ => Vec2::ZERO,
        }
    }

    /// Preview the dragged points moved by `d` in every sector that has them.
    pub(crate) fn drag_points(&mut self, cx: &mut ToolCtx<'_>, d: Vec2) {
        let Some(Gesture::MovePoints {
            preview,
            points,
            delta,
            ..
        }) = &mut self.gesture
        else {
            return;
        };
        *delta = d;
        let moves: Vec<(Vec2, Vec2)> = points.iter().map(|p| (*p, *p + d)).collect();
        let sectors: Vec<SectorObject> = preview
            .originals
            .iter()
            .filter_map(|o| match o {
                Object::Sector(s) => Some(s.clone()),
                _ => None,
            })
            .collect();
        let moved = edits::moved_points(sectors.iter(), &moves)
            .into_iter()
            .map(Object::Sector)
            .collect();
        cx.doc.preview(moved, None);
    }
}
