//! The greybox commands (floor and ceiling heights by keys, join), the storey filter's controls in the
//! palette, and the sectors' edges drawn by kind in the top-down view.

use egui::{Color32, Ui};

use crate::editor::command::{Command, Tool};
use crate::editor::document::sector;
use crate::editor::document::{Document, LabelledEdit};
use crate::editor::greybox::build::{BuildParams, Plan};
use crate::editor::greybox::builders::{self, Builder};
use crate::editor::greybox::{EdgeLook, Greybox, SectorEdges};
use crate::editor::view2d::{Batch, Camera, Drawer};
use crate::level::ObjectId;

/// The selected sectors' ids.
fn selected_sectors(doc: &Document) -> Vec<ObjectId> {
    let level = doc.level();
    doc.selection()
        .iter()
        .copied()
        .filter(|id| level.sectors.iter().any(|s| s.id == *id))
        .collect()
}

/// The edit a greybox command makes: raise or lower the selected floors or ceilings by the snap step,
/// join two, build with the Build tool's builder; `None` for a command that is not a greybox one.
pub(super) fn greybox_edit(
    doc: &Document,
    greybox: &Greybox,
    snap_step: f32,
    command: &Command,
) -> Option<Result<LabelledEdit, String>> {
    let ids = selected_sectors(doc);
    let storey = greybox.storey.range();
    Some(match command {
        Command::BuildAt(a, b) => greybox.build.plan_drag(doc.level(), *a, *b, storey).edit,
        Command::BuildSelected => greybox.build.plan_selected(doc.level(), &ids).edit,
        Command::SectorHeight(which, up) => {
            let step = snap_step.max(0.01);
            sector::raise(doc.level(), &ids, *which, if *up { step } else { -step })
        }
        Command::JoinSectors => match ids.as_slice() {
            [a, b] => sector::join_sectors(doc.level(), *a, *b),
            _ => Err("select two sectors that share an edge".into()),
        },
        _ => return None,
    })
}

/// The Sector tool's options: the storey filter (only sectors whose floor lies in the range are drawn
/// and picked, and new sectors start at its lowest floor).
pub(super) fn greybox_options(ui: &mut Ui, tool: Tool, greybox: &mut Greybox) {
    if tool == Tool::Build {
        build_options(ui, &mut greybox.build);
        return;
    }
    if tool != Tool::Sector {
        return;
    }
    ui.separator();
    let s = &mut greybox.storey;
    ui.checkbox(&mut s.on, "Storey filter")
        .on_hover_text("Only sectors whose floor lies in this range are drawn and picked");
    ui.add_enabled_ui(s.on, |ui| {
        ui.horizontal(|ui| {
            let l = ui.label("floor from");
            ui.add(egui::DragValue::new(&mut s.low).speed(0.05).suffix(" m"))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.label("to");
            ui.add(egui::DragValue::new(&mut s.high).speed(0.05).suffix(" m"))
                .labelled_by(l.id);
        });
    });
    ui.small("PgUp / PgDn: floors, Shift: ceilings");
}

/// The shown sectors' edges by what the runtime cooked along them: portals thin and dashed, lintels
/// thin, risers medium, walls thick.
pub(crate) fn paint_sector_edges(drawer: &mut Drawer<'_>, edges: &SectorEdges) {
    let (vis_lo, vis_hi) = drawer.cam.visible(drawer.rect);
    for &(a, b, look) in &edges.segments {
        let (lo, hi) = (a.min(b), a.max(b));
        if hi.x < vis_lo.x || hi.y < vis_lo.y || lo.x > vis_hi.x || lo.y > vis_hi.y {
            continue;
        }
        let (sa, sb) = (
            drawer.cam.screen_from_world(drawer.rect, a),
            drawer.cam.screen_from_world(drawer.rect, b),
        );
        match look {
            EdgeLook::Portal => {
                drawer
                    .lines
                    .dashed(&[sa, sb], false, 1.0, Color32::from_gray(150));
            }
            EdgeLook::Lintel => drawer.lines.line(sa, sb, 1.0, Color32::from_gray(170)),
            EdgeLook::Riser => {
                drawer
                    .lines
                    .line(sa, sb, 2.0, Color32::from_rgb(250, 200, 120));
            }
            EdgeLook::Wall => drawer.lines.line(sa, sb, 3.0, Color32::from_gray(225)),
        }
    }
}

/// A labelled number field of the Build tool's panel.
fn number(
    ui: &mut Ui,
    label: &str,
    value: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    unit: &str,
) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(
            egui::DragValue::new(value)
                .range(range)
                .speed(0.05)
                .max_decimals(3)
                .suffix(unit),
        )
        .labelled_by(l.id);
    });
}

/// The Build tool's panel: the builder (1-4 or U to cycle) and its typed parameters.
fn build_options(ui: &mut Ui, p: &mut BuildParams) {
    ui.separator();
    egui::ComboBox::from_label("builder")
        .selected_text(p.builder.name())
        .show_ui(ui, |ui| {
            for b in Builder::ALL {
                ui.selectable_value(&mut p.builder, b, b.name());
            }
        });
    match p.builder {
        Builder::Stairs => {
            ui.horizontal(|ui| {
                let l = ui.label("steps");
                ui.add(egui::DragValue::new(&mut p.steps).range(1..=builders::MAX_STEPS))
                    .labelled_by(l.id);
            });
            ui.checkbox(&mut p.by_riser, "by riser height");
            if p.by_riser {
                number(ui, "riser", &mut p.riser, 0.0..=10.0, " m");
            } else {
                number(ui, "total rise", &mut p.rise, -1e3..=1e3, " m");
            }
            ui.checkbox(&mut p.to_beyond, "up to the floor beyond")
                .on_hover_text(
                    "A sector beyond the run's end with a higher floor (a balcony) sets the rise",
                );
            number(ui, "headroom", &mut p.headroom, 0.01..=1e3, " m");
        }
        Builder::Ramp => {
            ui.checkbox(&mut p.by_ends, "by end height");
            if p.by_ends {
                number(ui, "end height", &mut p.end_height, -1e3..=1e3, " m");
            } else {
                number(ui, "slope", &mut p.degrees, -88.9..=88.9, "°");
            }
            ui.checkbox(&mut p.to_beyond, "up to the floor beyond")
                .on_hover_text("A sector beyond the run's end with a higher floor sets the slope");
            number(ui, "headroom", &mut p.headroom, 0.01..=1e3, " m");
        }
        Builder::Room => number(ui, "height", &mut p.room_height, 0.01..=1e3, " m"),
        Builder::Doorway => {
            number(ui, "width", &mut p.door.width, 0.01..=1e3, " m");
            number(ui, "height", &mut p.door.height, 0.01..=1e3, " m");
            number(ui, "wall", &mut p.door.wall, 0.01..=10.0, " m");
        }
    }
    ui.small("Drag a run (doorway: across the shared wall); or select and press Enter");
}

/// The Build tool's preview while dragging: the outlines it would make (red when refused) and the summary
/// or the reason beside the pointer.
pub(super) fn paint_build_preview(
    painter: &egui::Painter,
    cam: &Camera,
    rect: egui::Rect,
    plan: &Plan,
    at: glam::Vec2,
) {
    let ok = plan.edit.is_ok();
    let colour = if ok {
        crate::editor::theme::SELECTED
    } else {
        crate::editor::theme::ERROR_TEXT
    };
    let mut b = Batch::default();
    for outline in &plan.outlines {
        let pts: Vec<egui::Pos2> = outline
            .iter()
            .map(|p| cam.screen_from_world(rect, *p))
            .collect();
        b.dashed(&pts, true, 1.5, colour);
    }
    painter.add(b.finish());
    let text = match &plan.edit {
        Ok(_) => plan.summary.clone(),
        Err(why) => format!("not built: {why}"),
    };
    painter.text(
        cam.screen_from_world(rect, at) + egui::vec2(12.0, 12.0),
        egui::Align2::LEFT_TOP,
        text,
        egui::FontId::proportional(13.0),
        colour,
    );
}

/// The Build tool's preview of what Enter builds on the selected sectors (nothing when none is selected).
pub(super) fn paint_selected_preview(
    painter: &egui::Painter,
    cam: &Camera,
    rect: egui::Rect,
    doc: &Document,
    greybox: &Greybox,
) {
    let ids = selected_sectors(doc);
    if ids.is_empty() {
        return;
    }
    let plan = greybox.build.plan_selected(doc.level(), &ids);
    // A selection the builder does not take (the room or the steps a build just made, say): a refusal there
    // would read as if the build had failed, so nothing is said until Enter asks.
    if plan.edit.is_err() && !greybox.build.takes(ids.len()) {
        return;
    }
    let at = plan
        .outlines
        .iter()
        .flatten()
        .copied()
        .reduce(|a, b| a.max(b))
        .or_else(|| {
            let s = doc.level().sectors.iter().find(|s| s.id == ids[0])?;
            s.outline.first().copied()
        })
        .unwrap_or_default();
    paint_build_preview(painter, cam, rect, &plan, at);
}
