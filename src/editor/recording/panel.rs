//! The recording panel: the game's timeline (frames, marks, frames whose answers changed), the query list with
//! its filters, and the selected query in detail (its inputs, the recorded answer, the answer against the
//! edited level, and for a ray against a box its slab intervals).

use egui::{Color32, RichText, Sense, Ui, vec2};

use super::model::{RecordingSession, kind_index};
use crate::editor::analysis::probe::{BoxSlabs, slab_plot};
use crate::editor::document::Document;
use crate::editor::theme;
use crate::level::Level;
use crate::query::ray::{ray_aabb_slabs, ray_obb_slabs};
use crate::record::QueryRecord;
use crate::sim::Static;

const KINDS: [&str; 5] = QueryRecord::KINDS;
/// A game's mark on the timeline.
const MARK: Color32 = Color32::from_rgb(120, 180, 255);

/// The query's inputs in one line.
#[must_use]
pub fn input_text(q: &QueryRecord) -> String {
    match q {
        QueryRecord::Ray { ray, max_t, .. } => format!(
            "from ({:.2}, {:.2}, {:.2}) along ({:.2}, {:.2}, {:.2}), max t {max_t}",
            ray.origin.x, ray.origin.y, ray.origin.z, ray.dir.x, ray.dir.y, ray.dir.z
        ),
        QueryRecord::Sweep { sphere, motion, .. } => format!(
            "sphere r {:.2} at ({:.2}, {:.2}, {:.2}) by ({:.2}, {:.2}, {:.2})",
            sphere.radius,
            sphere.center.x,
            sphere.center.y,
            sphere.center.z,
            motion.x,
            motion.y,
            motion.z
        ),
        QueryRecord::Overlap { sphere, .. } => format!(
            "sphere r {:.2} at ({:.2}, {:.2}, {:.2})",
            sphere.radius, sphere.center.x, sphere.center.y, sphere.center.z
        ),
        QueryRecord::Slide {
            from,
            radius,
            motion,
            ..
        } => format!(
            "radius {radius:.2} from ({:.2}, {:.2}) by ({:.2}, {:.2})",
            from.x, from.y, motion.x, motion.y
        ),
        QueryRecord::Character {
            controller,
            feet,
            motion,
            ..
        } => format!(
            "character r {:.2} h {:.2} from feet ({:.2}, {:.2}, {:.2}) by ({:.2}, {:.2}, {:.2})",
            controller.radius,
            controller.height,
            feet.x,
            feet.y,
            feet.z,
            motion.x,
            motion.y,
            motion.z
        ),
    }
}

/// First, previous, the frame slider, next, last and the next frame whose answers changed.
fn timeline_buttons(ui: &mut Ui, s: &mut RecordingSession) {
    let n = s.frames.len();
    ui.horizontal(|ui| {
        if ui.button("First").on_hover_text("First frame").clicked() {
            s.seek(0);
        }
        if ui
            .button("Previous")
            .on_hover_text("Previous frame")
            .clicked()
        {
            s.seek(s.cursor.saturating_sub(1));
        }
        let mut pos = s.cursor;
        let l = ui.label("frame");
        let slider =
            egui::Slider::new(&mut pos, 0..=n.saturating_sub(1)).custom_formatter(|v, _| {
                let k = v as usize;
                s.frames
                    .get(k)
                    .map_or_else(String::new, |f| format!("#{} ({:.2} s)", f.index, f.time))
            });
        if ui.add_enabled(n > 1, slider).labelled_by(l.id).changed() {
            s.seek(pos);
        }
        if ui.button("Next").on_hover_text("Next frame").clicked() {
            s.seek(s.cursor + 1);
        }
        if ui.button("Last").on_hover_text("Last frame").clicked() {
            s.seek(n);
        }
        let changed = s.changed_frames();
        if ui
            .add_enabled(!changed.is_empty(), egui::Button::new("Next changed"))
            .on_hover_text("The next frame with an answer that changed against the current level")
            .clicked()
            && let Some(&k) = changed.iter().find(|&&k| k > s.cursor).or(changed.first())
        {
            s.seek(k);
        }
    });
}

/// The timeline strip: a tick per mark, a red tick per frame whose answers changed, the cursor; a click or
/// drag seeks.
fn timeline(ui: &mut Ui, s: &mut RecordingSession) {
    timeline_buttons(ui, s);
    let n = s.frames.len();
    let (rect, response) =
        ui.allocate_exact_size(vec2(ui.available_width(), 14.0), Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    if n == 0 {
        return;
    }
    let x_of = |k: usize| rect.left() + rect.width() * (k as f32 + 0.5) / n as f32;
    for k in s.changed_frames() {
        painter.line_segment(
            [
                egui::pos2(x_of(k), rect.top()),
                egui::pos2(x_of(k), rect.bottom()),
            ],
            (1.0, theme::CHANGED),
        );
    }
    for (k, _) in s.marks() {
        painter.circle_filled(egui::pos2(x_of(k), rect.center().y), 3.0, MARK);
    }
    painter.line_segment(
        [
            egui::pos2(x_of(s.cursor), rect.top()),
            egui::pos2(x_of(s.cursor), rect.bottom()),
        ],
        (2.0, ui.visuals().strong_text_color()),
    );
    if (response.clicked() || response.dragged())
        && let Some(p) = response.interact_pointer_pos()
    {
        let k = ((p.x - rect.left()) / rect.width() * n as f32)
            .floor()
            .max(0.0) as usize;
        s.seek(k);
    }
    let marks = s.marks();
    if !marks.is_empty() {
        response.on_hover_text(
            marks
                .iter()
                .map(|(k, m)| format!("#{}: {m}", s.frames[*k].index))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
}

fn filters(ui: &mut Ui, s: &mut RecordingSession, selected_object: Option<crate::level::ObjectId>) {
    ui.horizontal_wrapped(|ui| {
        for (k, name) in KINDS.iter().enumerate() {
            ui.checkbox(&mut s.filter.kinds[k], *name);
        }
        ui.separator();
        ui.checkbox(&mut s.filter.nothing_only, "found nothing");
        ui.checkbox(&mut s.filter.changed_only, "changed");
        ui.separator();
        match s.filter.object {
            Some(id) => {
                ui.label(format!("object {id}"));
                if ui
                    .small_button("✖")
                    .on_hover_text("Show queries about every object")
                    .clicked()
                {
                    s.filter.object = None;
                }
            }
            None => {
                if ui
                    .add_enabled(
                        selected_object.is_some(),
                        egui::Button::new("Only the selected object"),
                    )
                    .clicked()
                {
                    s.filter.object = selected_object;
                }
            }
        }
    });
}

fn query_list(ui: &mut Ui, s: &mut RecordingSession) {
    let visible = s.visible_queries();
    let total = s.frame().map_or(0, |f| f.queries.len());
    ui.label(format!("{} of {total} queries", visible.len()));
    egui::ScrollArea::vertical()
        .id_salt("recording_queries")
        .max_height(ui.available_height().max(80.0))
        .auto_shrink([false, true])
        .show_rows(ui, 18.0, visible.len(), |ui, range| {
            for &i in &visible[range] {
                let Some(q) = s.frame().and_then(|f| f.queries.get(i)) else {
                    continue;
                };
                let changed = s.changed(s.cursor, i);
                let mut text = RichText::new(format!(
                    "{i:>5}  {:<8}{}",
                    KINDS[kind_index(q)],
                    q.answer_text(2)
                ))
                .monospace();
                if changed {
                    text = text.color(theme::CHANGED);
                }
                let row = ui.add(egui::Button::selectable(s.selected == Some(i), text).truncate());
                if row.clicked() {
                    s.selected = Some(i);
                }
                if changed {
                    row.on_hover_text("The answer against the current level is different");
                }
            }
        });
}

/// The selected query in detail, with the level it is compared against (the edited document).
fn details(ui: &mut Ui, s: &mut RecordingSession, doc: &Document) {
    let level = doc.level();
    let (Some(i), Some(q)) = (s.selected, s.selected_query().cloned()) else {
        ui.weak("Select a query to see it in the views and in detail.");
        return;
    };
    let q = &q;
    egui::Grid::new("recording_query")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            ui.label("query");
            ui.label(format!("#{i}, {}", KINDS[kind_index(q)]));
            ui.end_row();
            ui.label("asked");
            ui.label(input_text(q));
            ui.end_row();
            ui.label("the game got");
            ui.label(q.answer_text(2));
            ui.end_row();
            if let Some(again) = s.reasked(s.cursor, i) {
                ui.label("the level now");
                let text = RichText::new(again.answer_text(2));
                ui.label(if s.changed(s.cursor, i) {
                    text.color(theme::CHANGED)
                } else {
                    text
                });
                ui.end_row();
            }
            if let QueryRecord::Sweep {
                sphere,
                motion,
                toi: Some(c),
            } = q
            {
                ui.label("time of impact");
                let at = sphere.center + *motion * c.t;
                ui.label(format!(
                    "t {:.5}: centre ({:.3}, {:.3}, {:.3}), normal ({:.3}, {:.3}, {:.3})",
                    c.t, at.x, at.y, at.z, c.normal.x, c.normal.y, c.normal.z
                ));
                ui.end_row();
            }
        });
    ray_slabs(ui, s, q, level);
    character_workings(ui, s, doc);
}

/// A character move's workings, as the game made it or as the edited level answers it now (the choice is
/// also what both views draw).
fn character_workings(ui: &mut Ui, s: &mut RecordingSession, doc: &Document) {
    let (Some(i), Some(QueryRecord::Character { controller, .. })) =
        (s.selected, s.selected_query())
    else {
        return;
    };
    let controller = *controller;
    let changed = s.changed(s.cursor, i);
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new("Workings").strong());
        ui.selectable_value(&mut s.show_reasked, false, "as the game made it");
        let now = s.reasked(s.cursor, i).is_some();
        ui.add_enabled_ui(now, |ui| {
            ui.selectable_value(&mut s.show_reasked, true, "as the level answers now");
        });
        if changed {
            ui.colored_label(theme::CHANGED, "changed by the edit");
        }
    });
    let recorded = s.selected_query();
    let shown = if s.show_reasked {
        s.reasked(s.cursor, i).or(recorded)
    } else {
        recorded
    };
    if let Some(QueryRecord::Character { result, .. }) = shown {
        let salt = if s.show_reasked { "now" } else { "recorded" };
        crate::editor::character::workings::workings(ui, salt, &controller, result, doc);
    }
}

/// A ray against a box (the one it hit, else the filter's object): its slab intervals. The box is looked up
/// in the level by id (building a whole scene for it each frame cost milliseconds on a large level).
fn ray_slabs(ui: &mut Ui, s: &RecordingSession, q: &QueryRecord, level: &Level) {
    if let QueryRecord::Ray { ray, max_t, hit } = q {
        let target = hit.map(|h| h.object).or(s.filter.object);
        let shape = target.and_then(|id| {
            let aabb = level.aabbs.iter().find(|a| a.id == id);
            let obb = level.obbs.iter().find(|o| o.id == id);
            aabb.map(|a| Static::Aabb(a.aabb()))
                .or_else(|| obb.map(|o| Static::Obb(o.obb())))
                .map(|o| (id, o))
        });
        let slabs = match shape {
            Some((id, Static::Aabb(b))) => Some(BoxSlabs {
                object: id,
                label: format!("box {id}"),
                trace: ray_aabb_slabs(ray, &b),
                axes: [
                    crate::glam::Vec3::X,
                    crate::glam::Vec3::Y,
                    crate::glam::Vec3::Z,
                ],
                center: (b.min + b.max) * 0.5,
                half: (b.max - b.min) * 0.5,
            }),
            Some((id, Static::Obb(o))) => Some(BoxSlabs {
                object: id,
                label: format!("box {id}"),
                trace: ray_obb_slabs(ray, &o),
                axes: [o.rotation.x_axis, o.rotation.y_axis, o.rotation.z_axis],
                center: o.center,
                half: o.half_extents,
            }),
            _ => None,
        };
        if let Some(sl) = slabs {
            ui.label(RichText::new(format!("Slab intervals against {}", sl.label)).strong());
            let max_t = if max_t.is_finite() {
                *max_t
            } else {
                hit.map_or(10.0, |h| h.t * 1.5)
            };
            slab_plot(ui, &sl, max_t);
        }
    }
}

/// The whole panel. `doc` is the edited document (its level is what queries are asked again of, its
/// objects name what a character move met);
/// `selected_object` is the document's selection, for the object filter.
pub fn recording_panel(
    ui: &mut Ui,
    s: &mut RecordingSession,
    doc: &Document,
    selected_object: Option<crate::level::ObjectId>,
) {
    ui.horizontal(|ui| {
        let origin = match &s.origin {
            super::Origin::File(p) => p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            super::Origin::Live(a) => format!("live from {a}"),
        };
        ui.label(RichText::new(origin).strong());
        ui.label(format!("{} frames of \"{}\"", s.frames.len(), s.level.name));
        if s.truncated {
            ui.colored_label(
                theme::WARNING_TEXT,
                "cut off (the game stopped mid-write; every whole frame is here)",
            );
        }
        if let Some((asked, total)) = s.reask_progress() {
            if asked < total {
                ui.add(
                    egui::ProgressBar::new(asked as f32 / total.max(1) as f32)
                        .desired_width(120.0)
                        .text(format!("re-asking {asked}/{total}")),
                );
            } else {
                let n = s.changed_count();
                let color = if n > 0 {
                    theme::CHANGED
                } else {
                    Color32::from_rgb(90, 190, 110)
                };
                ui.colored_label(
                    color,
                    format!("{n} of {total} answers changed against the level"),
                );
            }
        }
    });
    timeline(ui, s);
    filters(ui, s, selected_object);
    // The list and the selected query side by side: the lower panel is wide and short.
    ui.columns(2, |cols| {
        query_list(&mut cols[0], s);
        egui::ScrollArea::vertical()
            .id_salt("recording_details")
            .auto_shrink([false, true])
            .show(&mut cols[1], |ui| details(ui, s, doc));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::recording::model::Origin;
    use crate::glam::{Vec2, Vec3};
    use crate::record::{Recorder, RecorderConfig, Recording};
    use crate::scene::Scene;
    use crate::shape::Ray;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    fn session() -> (RecordingSession, Level) {
        let level = Level::from_ron_str(
            "(version: 2, aabbs: [(id: 1, min: (-1.0, 0.0, 3.0), max: (1.0, 2.0, 4.0))],
              walls: [(id: 2, a: (-5.0, -2.0), b: (5.0, -2.0), radius: 0.25)])",
        )
        .unwrap();
        let scene = Scene::from_level(&level).unwrap();
        let mut rec = Recorder::new(RecorderConfig::default(), &level);
        for f in 0..4 {
            rec.begin_frame(f64::from(f) / 60.0);
            rec.cast_ray(&scene, &Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::Z), 10.0);
            rec.cast_ray(&scene, &Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::X), 10.0);
            rec.move_and_slide(&scene, Vec2::ZERO, 0.3, Vec2::new(0.0, -5.0));
            if f == 2 {
                rec.mark("stuck");
            }
        }
        let r = Recording::from_bytes(&rec.to_bytes()).unwrap();
        (
            RecordingSession::new(r, Origin::File("game.crec".into())),
            level,
        )
    }

    #[test]
    fn the_panel_lists_filters_and_details_queries_with_the_changed_ones_flagged() {
        let (mut s, level) = session();
        // The edited level moved the box: the first ray's answer changes.
        let mut edited = level.clone();
        edited.aabbs[0].min.z = 5.0;
        edited.aabbs[0].max.z = 6.0;
        s.reask_against(std::sync::Arc::new(Scene::build(&edited)), (7, 3));
        while !s.reask_step(100) {}
        s.selected = Some(0);
        let doc = Document::new(edited, None);
        let mut harness = Harness::builder()
            .with_size(vec2(900.0, 600.0))
            .build_ui_state(
                |ui, s: &mut RecordingSession| {
                    recording_panel(ui, s, &doc, Some(crate::level::ObjectId(1)))
                },
                s,
            );
        harness.run();
        harness.get_by_label_contains("game.crec");
        harness.get_by_label_contains("4 of 12 answers changed");
        harness.get_by_label_contains("3 of 3 queries");
        // In the list and in the details.
        assert_eq!(
            harness
                .query_all_by_label_contains("#1 at t 3.0000")
                .count(),
            2
        );
        // The level now: the box is 5 away.
        harness.get_by_label_contains("#1 at t 5.0000");
        harness.get_by_label_contains("Slab intervals against box #1");
        // Filter: only what found nothing (the ray along +x).
        harness.get_by_label("found nothing").click();
        harness.run();
        harness.get_by_label_contains("1 of 3 queries");
        assert_eq!(harness.state().visible_queries(), [1]);
        // Next frame, then the timeline's last frame.
        harness.get_by_label("Next").click();
        harness.run();
        assert_eq!(harness.state().cursor, 1);
        harness.get_by_label("Last").click();
        harness.run();
        assert_eq!(harness.state().cursor, 3);
        assert_eq!(harness.state().marks(), [(2, "stuck")]);
    }
}
