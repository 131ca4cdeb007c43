//! The Reach tab: the map's figures (or why there is none, or its build under way), the floor shown from
//! above, the spot clicked with the Reach tool with its path or blocker and the buttons to walk or clear it,
//! and every limit that keeps places out of reach, largest area first (a click shows it in both views).

use egui::{RichText, Ui};
use glam::{Vec2, Vec3};

use super::geometry::Label;
use crate::editor::app::{Command, EditorApp, floor_name};
use crate::editor::theme;

fn v3(p: Vec3) -> String {
    format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z)
}

impl EditorApp {
    /// The Reach tab.
    pub(crate) fn reach_tab(&mut self, ui: &mut Ui) {
        let mut run: Option<Command> = None;
        self.reach_tab_header(ui, &mut run);
        ui.separator();
        self.reach_tab_target(ui, &mut run);
        ui.separator();
        let mut clicked: Option<Label> = None;
        match self.reach.data() {
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
            self.cam.center = Vec2::new(l.at.x, l.at.z);
            run = Some(Command::ReachTo(l.feet));
        }
        if let Some(c) = run {
            self.run_command(&ui.ctx().clone(), c);
        }
    }

    /// The overlay's switch, the map's state and the floor shown from above.
    fn reach_tab_header(&self, ui: &mut Ui, run: &mut Option<Command>) {
        ui.horizontal_wrapped(|ui| {
            let mut on = self.reach.on;
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
            if let Some((_, running)) = self.reach.building() {
                ui.spinner();
                ui.label(format!("mapping… {:.1} s", running.as_secs_f32()));
                ui.separator();
            }
            match self.reach.shown() {
                Some(b) => match &b.outcome {
                    Ok(d) => {
                        let (standable, reached) = d
                            .geometry
                            .floors
                            .iter()
                            .fold((0.0, 0.0), |(s, r), f| (s + f.standable, r + f.reached));
                        let stale = if self.reach.is_current(self.doc.key()) {
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
                None if self.reach.building().is_none() => {
                    ui.weak("no map yet: turn the overlay on or pick the Reach tool (H)");
                }
                None => {}
            }
            ui.separator();
            let floors = self.reach_floors();
            let current = floors
                .iter()
                .find(|(f, _)| *f == self.reach.floor)
                .map_or_else(|| floor_name(self.reach.floor, None), |(f, h)| floor_name(*f, *h));
            let l = ui.label("From above:");
            egui::ComboBox::from_id_salt("reach floor")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (f, h) in floors {
                        if ui
                            .selectable_label(self.reach.floor == f, floor_name(f, h))
                            .clicked()
                        {
                            *run = Some(Command::ReachFloor(f));
                        }
                    }
                })
                .response
                .labelled_by(l.id);
        });
    }

    /// The spot clicked with the Reach tool: what it is, and the buttons to walk its path or clear it.
    fn reach_tab_target(&self, ui: &mut Ui, run: &mut Option<Command>) {
        if self.reach.target().is_none() {
            ui.weak(
                "Pick the Reach tool (H) and click a spot in either view: the path from the walker start to it, or what keeps it out.",
            );
            return;
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(self.reach_target_text()).strong());
            for c in [Command::WalkReachPath, Command::ClearReachPath] {
                let spec = c.spec();
                let key = spec
                    .keys
                    .first()
                    .map_or_else(String::new, |k| ui.ctx().format_shortcut(k));
                if ui
                    .add_enabled(
                        self.can_run(&c),
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
