//! The SAT tab: two selected boxes (AABB or OBB) tested on every separating-axis candidate, each with both
//! projection intervals, the separating one named and highlighted.

use crate::editor::theme;
use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, Legend, Plot, Span};

use crate::editor::document::Object;
use crate::query::sat::{SatReport, obb_obb_axes};
use crate::shape::Obb;

/// The SAT report of two boxes (AABB or OBB objects), or `None` when either is not a box.
#[must_use]
pub fn sat_of(a: &Object, b: &Object) -> Option<SatReport> {
    let obb = |o: &Object| -> Option<Obb> {
        match o {
            Object::Aabb(x) => {
                let b = x.aabb();
                Some(Obb::new(
                    (b.min + b.max) * 0.5,
                    (b.max - b.min) * 0.5,
                    glam::Mat3::IDENTITY,
                ))
            }
            Object::Obb(x) => Some(x.obb()),
            _ => None,
        }
    };
    Some(obb_obb_axes(&obb(a)?, &obb(b)?))
}

/// The name of SAT axis `i` of a report: the face axes of each box first, then the edge cross products.
#[must_use]
pub fn sat_axis_name(i: usize) -> String {
    match i {
        0..=2 => format!("A face {}", ["x", "y", "z"][i]),
        3..=5 => format!("B face {}", ["x", "y", "z"][i - 3]),
        _ => format!("A×B edge #{}", i - 5),
    }
}

/// The SAT tab for two selected boxes.
pub fn sat_panel(ui: &mut Ui, report: Option<&(String, String, SatReport)>) {
    let Some((a, b, r)) = report else {
        ui.label("Select exactly two boxes (AABB or OBB) to see every separating-axis test.");
        return;
    };
    if r.axes.is_empty() {
        ui.label("One of the boxes is not valid (non-finite or negative size): nothing to test.");
        return;
    }
    match r.separating {
        Some(i) => ui.label(
            RichText::new(format!(
                "A = {a}, B = {b}: separated on {} ({:.3}, {:.3}, {:.3})",
                sat_axis_name(i),
                r.axes[i].axis.x,
                r.axes[i].axis.y,
                r.axes[i].axis.z
            ))
            .strong(),
        ),
        None => ui.label(
            RichText::new(format!(
                "A = {a}, B = {b}: overlap (no axis separates them)"
            ))
            .strong(),
        ),
    };
    ui.columns(2, |cols| {
        egui::ScrollArea::vertical()
            .id_salt("sat axes")
            .show(&mut cols[0], |ui| axis_table(ui, r));
        axis_plot(&mut cols[1], r);
    });
}

/// Every tested axis: its name (the separating one highlighted), direction and both projection intervals.
fn axis_table(ui: &mut Ui, r: &SatReport) {
    egui::Grid::new("sat").striped(true).show(ui, |ui| {
        ui.strong("axis");
        ui.strong("direction");
        ui.strong("A");
        ui.strong("B");
        ui.end_row();
        for (i, ax) in r.axes.iter().enumerate() {
            let name = if r.separating == Some(i) {
                RichText::new(sat_axis_name(i))
                    .color(theme::SELECTED)
                    .strong()
            } else {
                RichText::new(sat_axis_name(i))
            };
            ui.label(name);
            ui.monospace(format!(
                "({:.3}, {:.3}, {:.3})",
                ax.axis.x, ax.axis.y, ax.axis.z
            ));
            ui.monospace(format!("[{:.3}, {:.3}]", ax.a.min, ax.a.max));
            ui.monospace(format!("[{:.3}, {:.3}]", ax.b.min, ax.b.max));
            ui.end_row();
        }
    });
}

/// Both boxes' projection intervals on every axis as bars, the separating axis shaded.
fn axis_plot(ui: &mut Ui, r: &SatReport) {
    let bars = |which: usize| -> Vec<Bar> {
        r.axes
            .iter()
            .enumerate()
            .map(|(i, ax)| {
                let iv = if which == 0 { ax.a } else { ax.b };
                let y = i as f64 + if which == 0 { -0.17 } else { 0.17 };
                Bar::new(y, f64::from(iv.max - iv.min))
                    .base_offset(f64::from(iv.min))
                    .name(sat_axis_name(i))
            })
            .collect()
    };
    let height = ui.available_height().max(40.0);
    Plot::new("sat plot")
        .legend(Legend::default())
        .height(height)
        .x_axis_label("projection (m)")
        .y_axis_label("axis")
        .allow_scroll(false)
        .show(ui, |p| {
            p.bar_chart(
                BarChart::new("A", bars(0))
                    .horizontal()
                    .width(0.3)
                    .color(Color32::from_rgb(90, 140, 240)),
            );
            p.bar_chart(
                BarChart::new("B", bars(1))
                    .horizontal()
                    .width(0.3)
                    .color(Color32::from_rgb(240, 150, 60)),
            );
            if let Some(i) = r.separating {
                p.span(
                    Span::new("separating axis", (i as f64 - 0.45)..=(i as f64 + 0.45))
                        .axis(egui_plot::Axis::Y)
                        .fill(theme::SELECTED.gamma_multiply(0.2)),
                );
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    #[test]
    fn sat_names_the_separating_axis() {
        let level = Level::from_ron_str(
            "(version: 1, aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0)),
                                  (id: 2, min: (3.0, 0.0, 0.0), max: (4.0, 1.0, 1.0))])",
        )
        .unwrap();
        let objects: Vec<Object> = Object::all(&level).collect();
        let r = sat_of(&objects[0], &objects[1]).unwrap();
        assert_eq!(r.separating, Some(0));
        assert_eq!(sat_axis_name(0), "A face x");
        assert_eq!((r.axes[0].a.min, r.axes[0].a.max), (0.0, 1.0));
        assert_eq!((r.axes[0].b.min, r.axes[0].b.max), (3.0, 4.0));
        assert!(
            sat_of(&objects[0], &Object::all(&level).next().unwrap())
                .unwrap()
                .overlaps()
        );
    }
}
