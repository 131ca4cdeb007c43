//! The reachability overlay in the top-down view: the cells as one kept mesh over the level's lines (rebuilt
//! only when the map, the camera, the view or the floor shown change; runs of cells, culled to the view, a row
//! in several when cells are under a pixel), the blockers' marks and labels (largest area first, a label
//! left out where it would cover another), the clicked spot's path or blocker, and a legend.

use egui::{Align2, Color32, FontId, Pos2, Rect, Shape};
use glam::{Vec2, Vec3};

use super::floor_name;
use super::geometry::{FloorView, Label, MARK, ReachGeometry, cell_rgb};
use super::model::ReachOverlay;
use super::model::TargetView;
use crate::editor::document::DocKey;
use crate::editor::draw::{Batch, Camera};

/// The path's colour.
pub const PATH: Color32 = Color32::from_rgb(80, 210, 255);
/// Labels drawn at most (the largest areas).
const MAX_LABELS: usize = 40;

/// What the kept cells were drawn for.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PaintKey {
    generation: u64,
    /// Camera centre and scale, then the view's rectangle, as bits.
    view: [u32; 7],
    floor: FloorView,
    dim: bool,
}

/// The overlay's cells as last drawn.
#[derive(Default)]
pub(crate) struct ReachPaintCache {
    kept: Option<(PaintKey, Shape)>,
}

/// The colour of a cell from above: its fill, faint while a newer map is made.
fn cell_color(reached: bool, shade: u8, dim: bool) -> Color32 {
    let [r, g, b] = cell_rgb(reached, shade);
    let alpha = match (dim, reached) {
        (true, _) => 0.2,
        (false, true) => 0.55,
        (false, false) => 0.7,
    };
    Color32::from_rgb(r, g, b).gamma_multiply(alpha)
}

/// The cells `floor` shows, as one mesh: a quad per run of cells in a row.
fn cells_shape(g: &ReachGeometry, floor: FloorView, cam: &Camera, rect: Rect, dim: bool) -> Shape {
    let mut batch = Batch::default();
    let (lo, hi) = cam.visible(rect);
    let px = g.cell * cam.scale;
    // Rows thinner than a pixel: one in `stride`, drawn `stride` rows tall.
    let stride = if px >= 1.0 {
        1
    } else {
        (1.0 / px.max(1e-6)).ceil().min(1e6) as u32
    };
    for r in g.runs(floor) {
        if r.row % stride != 0 {
            continue;
        }
        let z0 = g.origin.y + r.row as f32 * g.cell;
        let z1 = z0 + g.cell * stride as f32;
        let x0 = g.origin.x + r.first as f32 * g.cell;
        let x1 = g.origin.x + r.end as f32 * g.cell;
        if x1 < lo.x || x0 > hi.x || z1 < lo.y || z0 > hi.y {
            continue;
        }
        let a = cam.screen_from_world(rect, Vec2::new(x0, z0));
        let c = cam.screen_from_world(rect, Vec2::new(x1, z1));
        let quad = [a, Pos2::new(c.x, a.y), c, Pos2::new(a.x, c.y)];
        batch.fill_convex(&quad, cell_color(r.reached, r.shade, dim));
    }
    batch.finish()
}

/// A blocker's mark: a red diamond with a white rim.
pub(crate) fn mark(batch: &mut Batch, c: Pos2, size: f32, faint: bool) {
    let [r, g, b] = MARK;
    let alpha = if faint { 0.35 } else { 1.0 };
    let pts = [
        c + egui::vec2(0.0, -size),
        c + egui::vec2(size, 0.0),
        c + egui::vec2(0.0, size),
        c + egui::vec2(-size, 0.0),
    ];
    batch.fill_convex(&pts, Color32::from_rgb(r, g, b).gamma_multiply(alpha));
    batch.polyline(&pts, true, 1.2, Color32::WHITE.gamma_multiply(alpha));
}

/// A label beside point `at` (screen) in a dark box; `None` when it would leave the view or cover one of
/// `placed` (which it joins otherwise).
pub(crate) fn place_label(
    painter: &egui::Painter,
    at: Pos2,
    text: &str,
    color: Color32,
    placed: &mut Vec<Rect>,
    force: bool,
) -> Option<Rect> {
    let galley = painter.layout_no_wrap(text.to_owned(), FontId::proportional(11.5), color);
    let min = at + egui::vec2(7.0, -7.0 - galley.size().y);
    let r = Rect::from_min_size(min, galley.size()).expand(2.0);
    let clip = painter.clip_rect();
    if !force && (!clip.contains_rect(r) || placed.iter().any(|p| p.intersects(r))) {
        return None;
    }
    painter.rect_filled(r, 3.0, Color32::from_black_alpha(170));
    painter.galley(min, galley, color);
    placed.push(r);
    Some(r)
}

impl ReachPaintCache {
    /// The overlay's cells (kept between frames), drawn over the level's lines; `None` when the overlay is
    /// off or there is no map.
    pub(crate) fn cells(
        &mut self,
        o: &ReachOverlay,
        doc_key: DocKey,
        cam: &Camera,
        rect: Rect,
    ) -> Option<Shape> {
        if !o.on {
            return None;
        }
        let built = o.shown()?.clone();
        let data = built.outcome.as_ref().ok()?;
        let key = PaintKey {
            generation: built.generation,
            view: [
                cam.center.x,
                cam.center.y,
                cam.scale,
                rect.min.x,
                rect.min.y,
                rect.max.x,
                rect.max.y,
            ]
            .map(f32::to_bits),
            floor: o.floor,
            dim: !o.is_current(doc_key),
        };
        if let Some((k, shape)) = &self.kept
            && *k == key
        {
            return Some(shape.clone());
        }
        let shape = cells_shape(&data.geometry, key.floor, cam, rect, key.dim);
        self.kept = Some((key, shape.clone()));
        Some(shape)
    }
}

/// Over everything: each blocker's mark and label, the clicked spot's path or blocker, the legend, or why
/// there is no map.
pub(crate) fn paint_marks(
    o: &ReachOverlay,
    doc_key: DocKey,
    cam: &Camera,
    painter: &egui::Painter,
    rect: Rect,
) {
    if !o.on {
        return;
    }
    let s = |p: Vec3| cam.screen_from_world(rect, Vec2::new(p.x, p.z));
    let faint = !o.is_current(doc_key);
    let mut placed: Vec<Rect> = Vec::new();
    let mut batch = Batch::default();
    match o.shown().map(|b| &b.outcome) {
        Some(Ok(data)) => {
            paint_target(o, cam, painter, &mut batch, rect, &mut placed);
            let text = Color32::from_gray(if faint { 150 } else { 240 });
            let labels: Vec<&Label> = data.geometry.labels.iter().collect();
            for l in &labels {
                // A limit that keeps out less than a square metre (a wall's top) gets a smaller mark.
                let size = if l.area >= 1.0 { 5.0 } else { 3.5 };
                mark(&mut batch, s(l.at), size, faint);
            }
            painter.add(batch.finish());
            for l in labels.iter().take(MAX_LABELS) {
                place_label(painter, s(l.at), &l.text, text, &mut placed, false);
            }
        }
        Some(Err(why)) => {
            painter.text(
                rect.center_top() + egui::vec2(0.0, 34.0),
                Align2::CENTER_CENTER,
                format!("Reachability: {why}"),
                FontId::proportional(14.0),
                crate::editor::theme::WARNING_TEXT,
            );
        }
        None => {}
    }
    legend(o, painter, rect, faint);
}

/// The clicked spot: its path (a line through the feet, the start and the spot ringed) or, out of reach,
/// how far the character gets and the blocker with its words; a cross where there is nowhere to stand.
fn paint_target(
    o: &ReachOverlay,
    cam: &Camera,
    painter: &egui::Painter,
    batch: &mut Batch,
    rect: Rect,
    placed: &mut Vec<Rect>,
) {
    let Some(t) = o.target() else {
        return;
    };
    let s = |p: Vec3| cam.screen_from_world(rect, Vec2::new(p.x, p.z));
    let to = s(t.to);
    let line = |batch: &mut Batch, path: &[Vec3], color: Color32| {
        let pts: Vec<Pos2> = path.iter().map(|p| s(*p)).collect();
        batch.polyline(&pts, false, 4.5, Color32::from_black_alpha(160));
        batch.polyline(&pts, false, 2.5, color);
        if let Some(first) = pts.first() {
            batch.circle(*first, 6.0, 2.0, color);
        }
    };
    match &t.view {
        TargetView::Path { path, .. } => {
            line(batch, path, PATH);
            batch.disc(to, 5.0, PATH);
            batch.circle(to, 9.0, 2.0, Color32::WHITE);
        }
        TargetView::Blocked {
            blocker,
            short,
            partial,
            ..
        } => {
            if let Some(p) = partial {
                line(batch, p, PATH.gamma_multiply(0.7));
            }
            let at = s(blocker.at());
            batch.dashed(&[at, to], false, 2.0, Color32::from_rgb(255, 120, 90));
            batch.circle(to, 8.0, 2.0, Color32::from_rgb(255, 160, 60));
            mark(batch, at, 8.0, false);
            place_label(
                painter,
                at + egui::vec2(4.0, -4.0),
                short,
                Color32::from_rgb(255, 200, 120),
                placed,
                true,
            );
        }
        TargetView::Nowhere | TargetView::NoMap => {
            let d = egui::vec2(6.0, 6.0);
            let grey = Color32::from_gray(200);
            batch.line(to - d, to + d, 2.0, grey);
            batch.line(
                to + egui::vec2(-6.0, 6.0),
                to + egui::vec2(6.0, -6.0),
                2.0,
                grey,
            );
        }
    }
}

/// The legend in the lower left corner: the two colours, the blocker's mark and the floor shown.
fn legend(o: &ReachOverlay, painter: &egui::Painter, rect: Rect, faint: bool) {
    let floor = floor_name(
        o.floor,
        floors(o)
            .into_iter()
            .find(|(f, _)| *f == o.floor)
            .and_then(|(_, h)| h),
    );
    let rows = [
        (
            Some(cell_color(true, 4, false)),
            "reached from the walker start".to_owned(),
        ),
        (
            Some(cell_color(false, 4, false)),
            "can stand, out of reach".to_owned(),
        ),
        (None, "what keeps it out".to_owned()),
        (
            None,
            if faint {
                format!("{floor} · updating…")
            } else {
                floor
            },
        ),
    ];
    let font = FontId::proportional(11.0);
    let line_h = 15.0;
    let box_rect = Rect::from_min_size(
        rect.left_bottom() + egui::vec2(8.0, -8.0 - line_h * rows.len() as f32 - 6.0),
        egui::vec2(220.0, line_h * rows.len() as f32 + 6.0),
    );
    painter.rect_filled(box_rect, 3.0, Color32::from_black_alpha(150));
    let mut batch = Batch::default();
    for (k, (swatch, text)) in rows.iter().enumerate() {
        let y = box_rect.top() + 3.0 + line_h * (k as f32 + 0.5);
        let x = box_rect.left() + 6.0;
        match (swatch, k) {
            (Some(c), _) => batch.fill_convex(
                &[
                    Pos2::new(x, y - 5.0),
                    Pos2::new(x + 10.0, y - 5.0),
                    Pos2::new(x + 10.0, y + 5.0),
                    Pos2::new(x, y + 5.0),
                ],
                *c,
            ),
            (None, 2) => mark(&mut batch, Pos2::new(x + 5.0, y), 5.0, false),
            _ => {}
        }
        painter.text(
            Pos2::new(x + 16.0, y),
            Align2::LEFT_CENTER,
            text,
            font.clone(),
            Color32::from_gray(225),
        );
    }
    painter.add(batch.finish());
}

/// The floors the overlay can show from above, with their heights: the reached place on top, then each
/// floor of the shown map.
pub(crate) fn floors(o: &ReachOverlay) -> Vec<(FloorView, Option<(f32, f32)>)> {
    let mut out = vec![(FloorView::ReachedOnTop, None)];
    if let Some(d) = o.data() {
        out.extend(
            d.geometry
                .floors
                .iter()
                .enumerate()
                .map(|(k, f)| (FloorView::Floor(k), Some(f.heights))),
        );
    }
    out
}
