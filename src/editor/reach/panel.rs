//! The Reach tab: the map's figures (or why there is none, or its build under way), the floor shown from
//! above, the spot clicked with the Reach tool with its path or blocker and the buttons to walk or clear it,
//! and every limit that keeps places out of reach, largest area first (a click shows it in both views).

use egui::{RichText, Ui};
use glam::{Vec2, Vec3};

use super::geometry::Label;
use super::model::{ReachOverlay, TargetView};
use super::{floor_name, paint::floors};
use crate::editor::command::Command;
use crate::editor::document::DocKey;
use crate::editor::theme;

fn v3(p: Vec3) -> String {
    format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z)
}

/// The Reach tab as drawn this frame: the overlay and what the app knows around it.
pub struct ReachTab<'a> {
    /// The overlay (map, spot, floor shown).
    pub overlay: &'a ReachOverlay,
    /// The document as it is now (a map of another revision is said to be earlier).
    pub doc_key: DocKey,
    /// Whether the shown path can be walked now.
    pub can_walk: bool,
}

impl ReachTab<'_> {
    /// The Reach tab: the command it asks for, if any (a clicked limit also centres the top-down view on
    /// it through `center`).
    pub fn ui(&self, ui: &mut Ui, center: &mut Vec2) -> Option<Command> {
        let mut run: Option<Command> = None;
        self.reach_tab_header(ui, &mut run);
        ui.separator();
        self.reach_tab_target(ui, &mut run);
        ui.separator();
        let mut clicked: Option<Label> = None;
        match self.overlay.data() {
            Some(d) if d.geometry.labels.is_empty() => {
                ui.label("Every place the character can stand on is reached.");
            }
            Some(d) => {
                ui.strong("Out of reach, and what keeps it out (click: show it)");
                egui::ScrollArea::vertical()
                    .id_salt("reach_limits")
                    .auto_shrink([false, false])
                    .show_rows(ui, 18.0, d.geometry.labels.len(), |ui, rows| {
                        for l in &d.geometry.labels[rows] {
                            let text = format!(
                                "{:<24} {:>7.2} m²   at {}   {}",
                                l.text,
                                l.area,
                                v3(l.at),
                                l.blocker.kind()
                            );
                            let rich = RichText::new(text).monospace();
                            if ui.add(egui::Button::new(rich).frame(false)).clicked() {
                                clicked = Some(l.clone());
                            }
                        }
                    });
            }
            None => {}
        }
        if let Some(l) = clicked {
            *center = Vec2::new(l.at.x, l.at.z);
            run = Some(Command::ReachTo(l.feet));
        }
        run
    }

    /// The overlay's switch, the map's state and the floor shown from above.
    fn reach_tab_header(&self, ui: &mut Ui, run: &mut Option<Command>) {
        ui.horizontal_wrapped(|ui| {
            let mut on = self.overlay.on;
            let toggle = Command::ToggleReach;
            let key = toggle
                .spec()
                .keys
                .first()
                .map_or_else(String::new, |k| ui.ctx().format_shortcut(k));
            if ui
                .checkbox(&mut on, format!("{} ({key})", toggle.spec().name))
                .on_hover_text(toggle.spec().help)
                .clicked()
            {
                *run = Some(toggle);
            }
            ui.separator();
            if let Some((_, running)) = self.overlay.building() {
                ui.spinner();
                ui.label(format!("mapping… {:.1} s", running.as_secs_f32()));
                ui.separator();
            }
            match self.overlay.shown() {
                Some(b) => match &b.outcome {
                    Ok(d) => {
                        let (standable, reached) = d
                            .geometry
                            .floors
                            .iter()
                            .fold((0.0, 0.0), |(s, r), f| (s + f.standable, r + f.reached));
                        let stale = if self.overlay.is_current(self.doc_key) {
                            ""
                        } else {
                            " (of an earlier revision)"
                        };
                        ui.label(format!(
                            "{reached:.1} of {standable:.1} m² reached from the walker start, {} floor(s), cells of {} m, made in {:.2} s{stale}",
                            d.geometry.floors.len(),
                            d.geometry.cell,
                            b.seconds
                        ));
                    }
                    Err(why) => {
                        ui.label(RichText::new(why).color(theme::WARNING_TEXT));
                    }
                },
                None if self.overlay.building().is_none() => {
                    ui.weak("no map yet: turn the overlay on or pick the Reach tool (H)");
                }
                None => {}
            }
            ui.separator();
            let floors = floors(self.overlay);
            let current = floors
                .iter()
                .find(|(f, _)| *f == self.overlay.floor)
                .map_or_else(|| floor_name(self.overlay.floor, None), |(f, h)| floor_name(*f, *h));
            let l = ui.label("From above:");
            egui::ComboBox::from_id_salt("reach floor")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (f, h) in floors {
                        if ui
                            .selectable_label(self.overlay.floor == f, floor_name(f, h))
                            .clicked()
                        {
                            *run = Some(Command::ReachFloor(super::floor_index(f)));
                        }
                    }
                })
                .response
                .labelled_by(l.id);
        });
    }

    /// The spot clicked with the Reach tool: what it is, and the buttons to walk its path or clear it.
    fn reach_tab_target(&self, ui: &mut Ui, run: &mut Option<Command>) {
        if self.overlay.target().is_none() {
            ui.weak(
                "Pick the Reach tool (H) and click a spot in either view: the path from the walker start to it, or what keeps it out.",
            );
            return;
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(target_text(self.overlay)).strong());
            for c in [Command::WalkReachPath, Command::ClearReachPath] {
                let spec = c.spec();
                let key = spec
                    .keys
                    .first()
                    .map_or_else(String::new, |k| ui.ctx().format_shortcut(k));
                if ui
                    .add_enabled(
                        self.can_walk || c == Command::ClearReachPath,
                        egui::Button::new(format!("{} ({key})", spec.name)),
                    )
                    .on_hover_text(spec.help)
                    .clicked()
                {
                    *run = Some(c);
                }
            }
        });
    }
}

/// What the clicked spot is, for the status bar.
pub(crate) fn target_text(o: &ReachOverlay) -> String {
    let Some(t) = o.target() else {
        return String::new();
    };
    let at = |p: Vec3| format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z);
    match &t.view {
        TargetView::Path { path, length } => format!(
            "reached: {} moves, {length:.1} m from the walker start to {} (Walk the path: Shift+H)",
            path.len().saturating_sub(1),
            at(t.to)
        ),
        TargetView::Blocked { words, .. } => format!("out of reach: {words}"),
        TargetView::Nowhere => format!("nowhere to stand at {}", at(t.to)),
        TargetView::NoMap => "the spot is kept: its path shows when the map is ready".into(),
    }
}
