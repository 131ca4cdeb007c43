//! The probe: a ray dragged in the top-down view (or clicked in the 3D preview) is cast against every object
//! of the level (Möller–Trumbore `t, u, v` for triangles, point and normal for the rest), with the slab
//! intervals of each box as a plot. [`cast`] is the whole-level cast.

use egui::{Color32, Rect, RichText, Ui};
use egui_plot::{Bar, BarChart, Plot, PlotPoint, Span, Text, VLine, uniform_grid_spacer};
use glam::{Vec2, Vec3};

use crate::editor::document::Object;
use crate::editor::draw::{Batch, Camera};
use crate::level::{Level, ObjectId};
use crate::query::Cull;
use crate::query::ray::SlabTrace;
use crate::query::ray::{ray_aabb_slabs, ray_obb_slabs, ray_sphere};
use crate::query::triangle::moller_trumbore;
use crate::scene::Scene;
use crate::shape::{Ray, Sphere};
use crate::sim::Static;

/// One object the probe ray meets.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeHit {
    /// The object.
    pub object: ObjectId,
    /// Its description.
    pub label: String,
    /// Distance along the ray, metres (the ray's direction is unit length).
    pub t: f32,
    /// Where.
    pub point: Vec3,
    /// Surface normal there.
    pub normal: Vec3,
    /// Barycentric `(u, v)` for triangles and mesh triangles.
    pub uv: Option<(f32, f32)>,
}

/// A box's slab trace for the probe ray.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxSlabs {
    /// The box.
    pub object: ObjectId,
    /// Its description.
    pub label: String,
    /// The trace.
    pub trace: SlabTrace,
    /// The box's axes in world space (the slabs' normals), for drawing the slabs.
    pub axes: [Vec3; 3],
    /// The box's centre and half extents along those axes.
    pub center: Vec3,
    /// Half extents.
    pub half: Vec3,
}

/// Everything the probe found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeResult {
    /// Hits, nearest first.
    pub hits: Vec<ProbeHit>,
    /// Slab traces of every box, hit or not.
    pub slabs: Vec<BoxSlabs>,
}

/// The probe ray from top-down points `a` to `b` at height `y`: unit direction, `max_t` the drag length.
#[must_use]
pub fn probe_ray(a: Vec2, b: Vec2, y: f32) -> Option<(Ray, f32)> {
    let d = b - a;
    let len = d.length();
    (len > 0.0 && len.is_finite() && y.is_finite()).then(|| {
        let dir = d / len;
        (
            Ray::new(Vec3::new(a.x, y, a.y), Vec3::new(dir.x, 0.0, dir.y)),
            len,
        )
    })
}

/// Cast `ray` up to `max_t` against every object of `level`: the static objects through the runtime's
/// whole-level query ([`Scene::cast_ray_all`], the one a game uses), the balls (dynamic, not in a scene) one
/// by one, with Möller–Trumbore `u, v` for triangles and meshes and the slab intervals of every box.
#[must_use]
pub fn cast(level: &Level, ray: &Ray, max_t: f32) -> ProbeResult {
    cast_in(level, &Scene::build(level), ray, max_t)
}

/// [`cast`] with the level's scene already built.
#[must_use]
pub fn cast_in(level: &Level, scene: &Scene, ray: &Ray, max_t: f32) -> ProbeResult {
    let mut out = ProbeResult::default();
    let hits = scene.cast_ray_all(ray, max_t);
    let wanted: std::collections::HashSet<ObjectId> = hits.iter().map(|h| h.object).collect();
    let mut labels: std::collections::HashMap<ObjectId, String> = std::collections::HashMap::new();
    for o in Object::all(level) {
        let id = o.id();
        if wanted.contains(&id) {
            labels.insert(id, o.label());
        }
        match &o {
            Object::Ball(b) => {
                if let Some(h) = ray_sphere(ray, &Sphere::new(b.center, b.radius), max_t) {
                    out.hits.push(ProbeHit {
                        object: id,
                        label: o.label(),
                        t: h.t,
                        point: h.point,
                        normal: h.normal,
                        uv: None,
                    });
                }
            }
            Object::Aabb(b) => {
                let aabb = b.aabb();
                out.slabs.push(BoxSlabs {
                    object: id,
                    label: o.label(),
                    trace: ray_aabb_slabs(ray, &aabb),
                    axes: [Vec3::X, Vec3::Y, Vec3::Z],
                    center: (aabb.min + aabb.max) * 0.5,
                    half: (aabb.max - aabb.min) * 0.5,
                });
            }
            Object::Obb(b) => {
                let r = b.rotation();
                out.slabs.push(BoxSlabs {
                    object: id,
                    label: o.label(),
                    trace: ray_obb_slabs(ray, &b.obb()),
                    axes: [r.x_axis, r.y_axis, r.z_axis],
                    center: b.center,
                    half: b.half_extents,
                });
            }
            _ => {}
        }
    }
    for h in hits {
        // Barycentrics for what has them: the triangle's own Möller–Trumbore, the mesh's own cast.
        let uv = match scene.object(h.object) {
            Some(Static::Triangle(t)) => moller_trumbore(ray, t, Cull::None).map(|m| (m.u, m.v)),
            Some(Static::Mesh(m)) => m.cast_ray(ray, max_t).map(|m| (m.u, m.v)),
            _ => None,
        };
        out.hits.push(ProbeHit {
            object: h.object,
            label: labels
                .remove(&h.object)
                .unwrap_or_else(|| h.object.to_string()),
            t: h.t,
            point: h.point,
            normal: h.normal,
            uv,
        });
    }
    out.hits
        .sort_by(|a, b| a.t.total_cmp(&b.t).then(a.object.cmp(&b.object)));
    out
}

const AXIS_COLORS: [Color32; 3] = [
    Color32::from_rgb(230, 90, 90),
    Color32::from_rgb(90, 200, 90),
    Color32::from_rgb(90, 140, 240),
];

/// The probe tab: the hit list and the chosen box's slab plot.
pub fn probe_panel(
    ui: &mut Ui,
    result: Option<&ProbeResult>,
    chosen_box: &mut Option<ObjectId>,
    max_t: f32,
) {
    let Some(r) = result else {
        ui.label("Pick the Probe tool (R) and drag a ray in the view: every hit is listed here, with the slab intervals of each box.");
        return;
    };
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        ui.strong(format!("{} hit(s) within {max_t:.2} m", r.hits.len()));
        egui::ScrollArea::both()
            .id_salt("probe hits")
            .show(ui, |ui| {
                for h in &r.hits {
                    let mut text = format!(
                        "t {:.4}  {}  at ({:.3}, {:.3}, {:.3})  n ({:.3}, {:.3}, {:.3})",
                        h.t,
                        h.label,
                        h.point.x,
                        h.point.y,
                        h.point.z,
                        h.normal.x,
                        h.normal.y,
                        h.normal.z
                    );
                    if let Some((u, v)) = h.uv {
                        text.push_str(&format!("  u {u:.4} v {v:.4}"));
                    }
                    // One line per hit: a long row scrolls sideways rather than breaking a number.
                    ui.add(
                        egui::Label::new(RichText::new(text).monospace())
                            .wrap_mode(egui::TextWrapMode::Extend),
                    );
                }
            });
        let ui = &mut cols[1];
        if r.slabs.is_empty() {
            ui.label("No boxes in the level: slab intervals show for AABBs and OBBs.");
            return;
        }
        let current = chosen_box
            .and_then(|id| r.slabs.iter().find(|s| s.object == id))
            .or_else(|| r.slabs.iter().find(|s| s.trace.hit.is_some()))
            .unwrap_or(&r.slabs[0]);
        let mut pick = current.object;
        egui::ComboBox::from_label("slabs of")
            .selected_text(current.label.clone())
            .show_ui(ui, |ui| {
                for s in &r.slabs {
                    ui.selectable_value(&mut pick, s.object, s.label.clone());
                }
            });
        *chosen_box = Some(pick);
        slab_plot(ui, current, max_t);
    });
}

/// The slab plot's row names: `x slab` at 0, `y slab` at 1, `z slab` at 2, nothing between.
fn axis_row_name(y: f64) -> &'static str {
    if (y - y.round()).abs() > 1e-6 {
        return "";
    }
    match y.round() as i64 {
        0 => "x slab",
        1 => "y slab",
        2 => "z slab",
        _ => "",
    }
}

/// One horizontal bar per axis `[t_enter, t_exit]` on a shared `t` axis; the overlap highlighted, or the gap
/// when the ray misses.
pub fn slab_plot(ui: &mut Ui, s: &BoxSlabs, max_t: f32) {
    // Infinite slab ends (a ray parallel to a slab) are drawn to just past what is in view.
    let ends = s
        .trace
        .axes
        .iter()
        .flat_map(|i| [i.min, i.max])
        .filter(|v| v.is_finite());
    let (lo, hi) = ends.fold((0f32.min(max_t), max_t.max(0.0)), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let pad = (hi - lo).max(1.0) * 0.15;
    let finite = |v: f32| {
        if v.is_finite() {
            f64::from(v)
        } else if v > 0.0 {
            f64::from(hi + pad)
        } else {
            f64::from(lo - pad)
        }
    };
    let bars: Vec<Bar> = s
        .trace
        .axes
        .iter()
        .enumerate()
        .map(|(i, iv)| {
            let (lo, hi) = (finite(iv.min), finite(iv.max));
            Bar::new(i as f64, hi - lo)
                .base_offset(lo)
                .name(format!(
                    "{} slab [{:.3}, {:.3}]",
                    ["x", "y", "z"][i],
                    iv.min,
                    iv.max
                ))
                .fill(AXIS_COLORS[i].gamma_multiply(0.6))
        })
        .collect();
    let (enter, exit, verdict) = verdict(s);
    ui.label(verdict);
    // Each row is labelled by its axis on the y axis; no legend box to cover the bars (the verdict above
    // names the overlap or the gap, hovering names each item).
    Plot::new("slabs")
        .height(ui.available_height().max(40.0))
        .x_axis_label("t (m)")
        .show_axes([true, true])
        .y_grid_spacer(uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .y_axis_formatter(|mark, _| axis_row_name(mark.value).to_owned())
        .include_y(-0.6)
        .include_y(2.6)
        .allow_scroll(false)
        .show(ui, |p| {
            p.bar_chart(BarChart::new("slabs", bars).horizontal().width(0.6));
            // Each row named at its left end, in its bar's colour.
            for (i, iv) in s.trace.axes.iter().enumerate() {
                let name = axis_row_name(i as f64);
                p.text(
                    Text::new(
                        name,
                        PlotPoint::new(finite(iv.min), i as f64),
                        format!("{name} "),
                    )
                    .anchor(egui::Align2::RIGHT_CENTER)
                    .color(AXIS_COLORS[i]),
                );
            }
            if enter.is_finite() && exit.is_finite() {
                let (lo, hi) = (f64::from(enter.min(exit)), f64::from(enter.max(exit)));
                let color = if s.trace.hit.is_some() {
                    Color32::from_rgb(80, 220, 120)
                } else {
                    Color32::from_rgb(255, 90, 90)
                };
                let name = if enter <= exit { "overlap" } else { "gap" };
                p.span(Span::new(name, lo..=hi).fill(color.gamma_multiply(0.25)));
            }
            p.vline(VLine::new("ray origin", 0.0));
        });
}

/// Where the ray enters the last slab and leaves the first, and what that means for the box.
fn verdict(s: &BoxSlabs) -> (f32, f32, String) {
    let enter = s
        .trace
        .axes
        .iter()
        .map(|i| i.min)
        .fold(f32::NEG_INFINITY, f32::max);
    let exit = s
        .trace
        .axes
        .iter()
        .map(|i| i.max)
        .fold(f32::INFINITY, f32::min);
    let verdict = match s.trace.hit {
        Some(h) => format!(
            "overlap [{:.3}, {:.3}]: the ray is inside all three slabs there",
            h.min, h.max
        ),
        None if enter > exit => {
            format!("gap: enters the last slab at {enter:.3} after leaving one at {exit:.3}")
        }
        None => format!("no hit: the overlap [{enter:.3}, {exit:.3}] is behind the ray"),
    };
    (enter, exit, verdict)
}

/// Draw the probe: the ray, its hits and the chosen box's slabs as bands (the slabs whose planes stand
/// vertically show as pairs of lines in the top-down view).
pub fn paint(
    batch: &mut Batch,
    rect: Rect,
    cam: &Camera,
    ray: (Vec2, Vec2),
    result: Option<&ProbeResult>,
    chosen_box: Option<ObjectId>,
) {
    let s = |p: Vec2| cam.screen_from_world(rect, p);
    let accent = Color32::from_rgb(230, 100, 200);
    let (a, b) = ray;
    if let Some(r) = result {
        let slabs = chosen_box
            .and_then(|id| r.slabs.iter().find(|x| x.object == id))
            .or_else(|| r.slabs.iter().find(|x| x.trace.hit.is_some()));
        if let Some(sl) = slabs {
            let reach = (rect.size().length() / cam.scale).max(1.0) * 2.0;
            for (i, axis) in sl.axes.iter().enumerate() {
                let n = Vec2::new(axis.x, axis.z);
                // A slab whose normal is (nearly) vertical has horizontal planes: nothing to see from above.
                if n.length() < 0.3 {
                    continue;
                }
                let n = n.normalize();
                let along = n.perp();
                let c = Vec2::new(sl.center.x, sl.center.z);
                let h = sl.half[i] * Vec2::new(axis.x, axis.z).length();
                for side in [-1.0, 1.0] {
                    let p = c + n * h * side;
                    batch.line(
                        s(p - along * reach),
                        s(p + along * reach),
                        1.0,
                        AXIS_COLORS[i].gamma_multiply(0.7),
                    );
                }
                // The ray's stretch inside this slab.
                let iv = sl.trace.axes[i];
                let dir = (b - a).normalize_or_zero();
                let clamp = |t: f32| t.clamp(-reach, reach);
                if iv.min <= iv.max {
                    batch.line(
                        s(a + dir * clamp(iv.min)),
                        s(a + dir * clamp(iv.max)),
                        5.0,
                        AXIS_COLORS[i].gamma_multiply(0.35),
                    );
                }
            }
            if let Some(h) = sl.trace.hit {
                let dir = (b - a).normalize_or_zero();
                batch.line(
                    s(a + dir * h.min),
                    s(a + dir * h.max),
                    3.0,
                    Color32::from_rgb(80, 220, 120),
                );
            }
        }
    }
    batch.arrow(s(a), s(b), 2.0, 10.0, accent);
    if let Some(r) = result {
        for h in &r.hits {
            let p = s(Vec2::new(h.point.x, h.point.z));
            batch.disc(p, 4.0, accent);
            let tip = p + egui::vec2(h.normal.x, h.normal.z) * 20.0;
            batch.arrow(p, tip, 1.5, 6.0, Color32::from_rgb(255, 230, 80));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_through_a_box_gives_its_slab_intervals() {
        let level = Level::from_ron_str(
            "(version: 1, aabbs: [(id: 1, min: (2.0, 0.0, -1.0), max: (4.0, 2.0, 1.0))],
              walls: [(id: 2, a: (6.0, -5.0), b: (6.0, 5.0), radius: 0.5)])",
        )
        .unwrap();
        let (ray, max_t) = probe_ray(Vec2::ZERO, Vec2::new(10.0, 0.0), 1.0).unwrap();
        let r = cast(&level, &ray, max_t);
        assert_eq!(r.hits.len(), 2);
        assert_eq!((r.hits[0].object, r.hits[0].t), (ObjectId(1), 2.0));
        assert_eq!((r.hits[1].object, r.hits[1].t), (ObjectId(2), 5.5));
        let slabs = &r.slabs[0].trace;
        assert_eq!((slabs.axes[0].min, slabs.axes[0].max), (2.0, 4.0));
        assert_eq!(
            (slabs.axes[1].min, slabs.axes[1].max),
            (f32::NEG_INFINITY, f32::INFINITY)
        );
        let hit = slabs.hit.unwrap();
        assert_eq!((hit.min, hit.max), (2.0, 4.0));
    }
}
