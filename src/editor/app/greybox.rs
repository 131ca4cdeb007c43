//! The greybox commands (floor and ceiling heights by keys, join), the storey filter's controls in the
//! palette, and the sectors' edges drawn by kind in the top-down view.

use egui::{Color32, Ui};

use crate::editor::command::{Command, Tool};
use crate::editor::document::sector;
use crate::editor::document::{Document, LabelledEdit};
use crate::editor::greybox::{EdgeLook, Greybox, SectorEdges};
use crate::editor::view2d::Drawer;
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
/// join two; `None` for a command that is not a greybox one.
pub(super) fn greybox_edit(
    doc: &Document,
    snap_step: f32,
    command: &Command,
) -> Option<Result<LabelledEdit, String>> {
    let ids = selected_sectors(doc);
    Some(match command {
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
