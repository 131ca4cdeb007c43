//! The panels around the view: status bar, lower panel (problems, events, plots, probe, SAT, compare), tool
//! palette with the object list, inspector with history, and the 3D preview's panel.

use crate::editor::theme;

use egui::{RichText, Sense, Ui};

use crate::editor::app::*;
use crate::editor::debugger::panel::Tab;
use crate::editor::document::{Kind, count_noun};
use crate::editor::inspector::{self};
use crate::editor::tools::*;
use crate::editor::view2d::{self};
use crate::level::{ObjectId, Problem, Severity};

impl EditorApp {
    /// The Recording tab.
    pub(crate) fn recording_tab(&mut self, ui: &mut Ui) {
        let selected = self.doc.selection().iter().next().copied();
        match &mut self.recording {
            Some(s) => crate::editor::recording::panel::recording_panel(ui, s, &self.doc, selected),
            None => {
                ui.label("No recording. File → Open Recording… opens one a game saved (Recorder::save); File → Listen for a game receives one live (Recorder::connect).");
            }
        }
    }

    /// The live link in the status bar.
    pub(crate) fn live_status(&self) -> Option<String> {
        self.live
            .listener
            .as_ref()
            .map(crate::editor::recording::live::live_status)
    }

    /// The Character tab.
    pub(crate) fn character_tab(&mut self, ui: &mut Ui) {
        use crate::editor::character::panel::{PanelAction, character_panel};
        let walking = self.view3d.walking_character();
        let action = character_panel(ui, &self.view3d.character, &self.doc, walking);
        match action {
            Some(PanelAction::Run(c)) => self.run_command(&ui.ctx().clone(), c),
            Some(PanelAction::Select(tick)) => self.view3d.character.selected = Some(tick),
            None => {}
        }
    }

    pub(crate) fn preview3d(&mut self, ui: &mut Ui) {
        let scene = self.level_scene();
        let marks = self.debug.marks();
        let faulty = &self.problems.faulty;
        let selection = &self.doc.selection();
        let reach_on = self.reach.on && self.reach.data().is_some();
        let paint = |id: ObjectId, kind: Kind| -> [u8; 4] {
            let c = if faulty.contains(&id) {
                theme::FAULTY
            } else if selection.contains(&id) {
                theme::SELECTED
            } else if reach_on {
                // Neutral under the reachability overlay, whose green and orange must read.
                theme::REACH_NEUTRAL
            } else {
                theme::base_color(kind)
            };
            c.to_srgba_unmultiplied()
        };
        let input = Input3 {
            scene,
            doc: &self.doc,
            debug: &self.debug,
            marks: &marks,
            paint: &paint,
            probe: self.probe.ray,
            probe_result: self.probe.result.as_ref().map(|(_, r)| r),
            probe_tool: self.tools.tool == Tool::Probe,
            wall_radii: self.debug.overlays.wall_radii,
            recording_query: self
                .recording
                .as_ref()
                .and_then(|r| r.selected_query())
                .map(|q| crate::editor::recording::query_shape(q, 0.05)),
            recording_step: self
                .recording
                .as_ref()
                .and_then(|r| r.frame())
                .and_then(|f| f.steps.last()),
            recording_move: self.recording_move_marks(),
            reach: Reach3::of(&self.reach, self.doc.key()),
            reach_tool: self.tools.tool == Tool::Reach,
            nav: Nav3::of(&self.nav.overlay, self.doc.key()),
            height_step: self.tools.snap_step,
            recorded_movers: self
                .recording
                .as_ref()
                .and_then(|r| r.frame())
                .filter(|f| !(f.scene_times.is_empty() && f.mover_starts.is_empty()))
                .map(|f| (f.scene_time(), f.mover_starts.as_slice())),
        };
        match self.view3d.ui(ui, &input) {
            None => {}
            Some(Action3::Run(c)) => self.run_command(&ui.ctx().clone(), c),
            Some(Action3::Heights(out)) => self.height_gesture(&ui.ctx().clone(), out),
            Some(Action3::Reach(Some(to))) => {
                self.run_command(&ui.ctx().clone(), Command::ReachTo(to));
            }
            Some(Action3::Reach(None)) | Some(Action3::Nav(None)) => {
                self.status = "3D: no surface under the pointer".into();
            }
            Some(Action3::Nav(Some(at))) => {
                self.run_command(&ui.ctx().clone(), Command::NavPoint(at));
            }
            Some(Action3::Probe(ray, max_t)) => {
                self.probe.ray = Some((ray, max_t));
                self.probe.flat = false;
                self.panels.tab = Tab::Probe;
                self.panels.show_problems = true;
                self.panels.lower_collapsed = false;
            }
            Some(Action3::Select { hit, add }) => {
                match hit {
                    Some(id) if add => self.doc.toggle_selected(id),
                    Some(id) => self.doc.select_only([id]),
                    None if add => {}
                    None => self.doc.clear_selection(),
                }
                self.status = match hit.and_then(|id| self.doc.object(id)) {
                    Some(o) => format!("3D: picked {}", o.label()),
                    None => "3D: nothing under the pointer".into(),
                };
            }
        }
    }

    /// Carry out a height gesture of the 3D preview: a preview written in place (as a live drag's), or its
    /// end: the original put back, then the final state run as one command (one undo step).
    fn height_gesture(&mut self, ctx: &egui::Context, out: crate::editor::heights::HeightsOut) {
        use crate::editor::heights::HeightsOut;
        match out {
            HeightsOut::Nothing => {}
            HeightsOut::Preview(o) => self.doc.preview(vec![*o], None),
            HeightsOut::Finish { original, edit } => {
                let id = original.id();
                self.doc.preview(vec![*original], None);
                match edit {
                    Some(e) => {
                        self.status = e.label.to_lowercase();
                        self.run_command(ctx, Command::Apply(e));
                        // Selected, its limits stay labelled and listed.
                        self.doc.select_only([id]);
                    }
                    None => self.status = "3D: height not changed".into(),
                }
            }
        }
    }

    pub(crate) fn status_bar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            // Where the pointer is, or was last in the view (the view's centre before it ever was).
            let p = self
                .view2d
                .cursor_world
                .or(self.view2d.last_cursor_world)
                .unwrap_or(self.view2d.cam.center);
            ui.monospace(format!("x {:.2} m  z {:.2} m", p.x, p.y));
            ui.separator();
            ui.label(if self.tools.snap {
                format!("snap {} m", view2d::trim_number(self.tools.snap_step))
            } else {
                "snap off".into()
            });
            ui.separator();
            let n = self.doc.selection().len() + usize::from(self.doc.walker_selected());
            ui.label(format!("{n} selected"));
            ui.separator();
            if let Some(live) = self.live_status() {
                ui.label(live);
                ui.separator();
            }
            let errors = self
                .problems
                .list
                .iter()
                .filter(|p| p.severity == Severity::Error)
                .count();
            let warnings = self.problems.list.len() - errors;
            let text = format!(
                "{} · {}",
                count_noun(errors, "error"),
                count_noun(warnings, "warning")
            );
            let color = if errors > 0 {
                theme::ERROR_TEXT
            } else if warnings > 0 {
                theme::WARNING_TEXT
            } else {
                ui.visuals().text_color()
            };
            if ui
                .add(egui::Button::new(RichText::new(text).color(color)).frame(false))
                .clicked()
            {
                self.panels.show_problems = !self.panels.show_problems;
            }
            ui.separator();
            self.reach_status(ui);
            if self.nav.overlay.on {
                self.nav.overlay.status_ui(ui);
            }
            let limits = self.view3d.heights.warnings(&self.doc);
            if let Some(line) = crate::editor::heights::warn::status_line(&limits, 2) {
                let over = limits.iter().any(crate::editor::heights::Warning::over);
                let c = if over {
                    theme::ERROR_TEXT
                } else {
                    theme::WARNING_TEXT
                };
                ui.label(RichText::new(line).color(c));
                ui.separator();
            }
            ui.label(self.tools.tool.name());
            ui.separator();
            ui.label(&self.status);
        });
    }

    /// The lower panel's tab row, with the button that collapses the panel to this row (a tab click opens
    /// it again).
    pub(crate) fn lower_tabs(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let problems = format!("Problems ({})", self.problems.list.len());
            let tabs = [
                (Tab::Problems, problems.as_str()),
                (Tab::Events, "Events"),
                (Tab::Plots, "Plots"),
                (Tab::Probe, "Probe"),
                (Tab::Sat, "SAT"),
                (Tab::Compare, "Compare"),
                (Tab::Recording, "Recording"),
                (Tab::Character, "Character"),
                (Tab::Reach, "Reach"),
                (Tab::EntityTypes, "Entity types"),
            ];
            for (tab, name) in tabs {
                if ui
                    .selectable_value(&mut self.panels.tab, tab, name)
                    .clicked()
                {
                    self.panels.lower_collapsed = false;
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let (text, help) = if self.panels.lower_collapsed {
                    ("Show panel", "Open the lower panel again")
                } else {
                    (
                        "Hide panel",
                        "Collapse the lower panel to its tabs: the view gets the room",
                    )
                };
                if ui.small_button(text).on_hover_text(help).clicked() {
                    self.panels.lower_collapsed = !self.panels.lower_collapsed;
                }
            });
        });
    }

    pub(crate) fn lower_panel(&mut self, ui: &mut Ui) {
        self.lower_tabs(ui);
        ui.separator();
        // The tab's content gets exactly the panel's remaining room (clipped), so switching tabs or a tall plot
        // never resizes the panel and moves the view.
        let rect = ui.available_rect_before_wrap();
        ui.allocate_rect(rect, Sense::hover());
        let mut content = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        content.set_clip_rect(rect.intersect(ui.clip_rect()));
        let ui = &mut content;
        match self.panels.tab {
            Tab::Problems => self.problems_panel(ui),
            Tab::Events => {
                if let Some(id) = self.debug.events(ui) {
                    self.doc.select_only([id]);
                }
            }
            Tab::Plots => self.debug.plots(ui),
            Tab::Probe => {
                let max_t = self.probe.ray.map_or(0.0, |(_, t)| t);
                if self.probe.ray.is_some() && ui.button(Command::KeepProbe.spec().name).clicked() {
                    self.run_command(&ui.ctx().clone(), Command::KeepProbe);
                }
                let result = self.probe.result.as_ref().map(|(_, r)| r);
                crate::editor::analysis::probe::probe_panel(
                    ui,
                    result,
                    &mut self.probe.box_id,
                    max_t,
                );
            }
            Tab::Compare => {
                self.probe.refresh_compare(&self.doc, &self.debug);
                let (tris, sweeps) = match &self.probe.compare {
                    Some((_, tris, sweeps)) => (tris.as_deref(), sweeps.as_ref()),
                    None => (None, None),
                };
                crate::editor::analysis::compare::panel(ui, tris, sweeps);
            }
            Tab::Recording => self.recording_tab(ui),
            Tab::Character => self.character_tab(ui),
            Tab::Reach => {
                let tab = crate::editor::reach::ReachTab {
                    overlay: &self.reach,
                    doc_key: self.doc.key(),
                    can_walk: self.can_run(&Command::WalkReachPath),
                };
                if let Some(c) = tab.ui(ui, &mut self.view2d.cam.center) {
                    self.run_command(&ui.ctx().clone(), c);
                }
            }
            Tab::EntityTypes => {
                let edits =
                    crate::editor::entity_types::panel(ui, &self.doc, &mut self.entity_types);
                let ctx = ui.ctx().clone();
                for e in edits {
                    self.run_command(&ctx, Command::Apply(Box::new(e)));
                }
            }
            Tab::Sat => {
                let selected = self.doc.selected_objects();
                let report = match selected.as_slice() {
                    [a, b] => crate::editor::analysis::sat::sat_of(a, b)
                        .map(|r| (a.label(), b.label(), r)),
                    _ => None,
                };
                crate::editor::analysis::sat::sat_panel(ui, report.as_ref());
            }
        }
    }

    /// The active tool's own settings under the palette: the probe's height, the box kind, the trigger's
    /// shape, the entity type.
    fn tool_options(&mut self, ui: &mut Ui) {
        if self.tools.tool == Tool::Probe {
            ui.separator();
            ui.horizontal(|ui| {
                let l = ui.label("height");
                ui.add(
                    egui::DragValue::new(&mut self.probe.height)
                        .range(-1e4..=1e4)
                        .speed(0.05)
                        .suffix(" m"),
                )
                .labelled_by(l.id);
            });
        }
        super::greybox::greybox_options(ui, self.tools.tool, &mut self.greybox);
        if self.tools.tool == Tool::Box {
            ui.separator();
            ui.radio_value(&mut self.tools.box_obb, false, "AABB");
            ui.radio_value(&mut self.tools.box_obb, true, "OBB");
        }
        if self.tools.tool == Tool::Trigger {
            ui.separator();
            for k in crate::editor::tools::TriggerKind::ALL {
                if ui
                    .radio_value(&mut self.tools.trigger_kind, k, k.name())
                    .changed()
                {
                    self.tools.chain.clear();
                }
            }
        }
        if self.tools.tool == Tool::Entity {
            self.entity_palette(ui);
        }
        if self.tools.tool == Tool::Reach {
            ui.separator();
            ui.add(
                egui::Label::new(
                    RichText::new(
                        "Click a spot in either view: its path, or what keeps it out (Reach tab).",
                    )
                    .weak(),
                )
                .wrap(),
            );
        }
    }

    /// The Entity tool's palette: one entry per entity type, in its colour.
    fn entity_palette(&mut self, ui: &mut Ui) {
        ui.separator();
        ui.strong("Entity type");
        let level = self.doc.level();
        if level.entity_types.is_empty() {
            ui.weak("none yet");
        }
        let current = self
            .tools
            .entity_type
            .clone()
            .filter(|t| level.entity_type(t).is_some())
            .or_else(|| level.entity_types.first().map(|t| t.name.clone()));
        let mut chosen = None;
        for t in &level.entity_types {
            ui.horizontal(|ui| {
                let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), Sense::hover());
                ui.painter()
                    .rect_filled(r, 2.0, theme::entity_color(level, &t.name));
                if ui
                    .selectable_label(current.as_deref() == Some(t.name.as_str()), &t.name)
                    .clicked()
                {
                    chosen = Some(t.name.clone());
                }
            });
        }
        if let Some(c) = chosen.or(current) {
            self.tools.entity_type = Some(c);
        }
        if ui.small_button("Edit types…").clicked() {
            self.panels.tab = Tab::EntityTypes;
            self.panels.lower_collapsed = false;
        }
    }

    pub(crate) fn problems_panel(&mut self, ui: &mut Ui) {
        if self.problems.list.is_empty() {
            ui.label("No problems: the level is ready to simulate and export.");
            return;
        }
        let mut clicked: Option<Problem> = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show_rows(ui, 18.0, self.problems.list.len(), |ui, rows| {
                for p in &self.problems.list[rows] {
                    let color = match p.severity {
                        Severity::Error => theme::ERROR_TEXT,
                        Severity::Warning => theme::WARNING_TEXT,
                    };
                    let text = RichText::new(p.to_string()).color(color);
                    if ui.add(egui::Button::new(text).frame(false)).clicked() {
                        clicked = Some(p.clone());
                    }
                }
            });
        if let Some(p) = clicked {
            self.inspector.focus = focus_path(&p.field);
            if let Some(t) = type_of_problem(self.doc.level(), &p.field) {
                self.entity_types.selected = Some(t);
                self.panels.tab = Tab::EntityTypes;
                return;
            }
            self.doc.select_only(p.object);
            self.doc.set_walker_selected(p.field.starts_with("walker"));
            self.view2d.frame_selection = true;
            if p.field.starts_with("walker")
                && let Some(w) = &self.doc.level().walker
            {
                let c = w.position;
                self.view2d.cam.center = c;
                self.view2d.frame_selection = false;
            }
        }
    }

    pub(crate) fn tool_panel(&mut self, ui: &mut Ui) {
        // The tools and the tool's options scroll when they do not fit (a builder's fields under a short
        // window's lower panel stay reachable), leaving the objects list a few rows below them.
        let keep = (ui.available_height() * 0.25).clamp(60.0, 160.0);
        egui::ScrollArea::vertical()
            .id_salt("tools")
            .max_height((ui.available_height() - keep).max(120.0))
            .show(ui, |ui| self.tools_and_options(ui));
        self.objects_list(ui);
    }

    /// The tool buttons, the snap and the current tool's options.
    fn tools_and_options(&mut self, ui: &mut Ui) {
        ui.strong("Tools");
        let mut run = None;
        // Sixteen tools in a tight column, so the tool's options below stay in view in an 800-pixel window.
        ui.spacing_mut().item_spacing.y = 2.0;
        for &tool in Tool::ALL {
            let spec = tool.spec();
            let key = spec.keys.first().map_or("", |k| k.logical_key.name());
            if ui
                .add_sized(
                    [130.0, 19.0],
                    egui::Button::selectable(
                        self.tools.tool == tool,
                        format!("{}  ({key})", spec.name),
                    ),
                )
                .on_hover_text(spec.help)
                .clicked()
            {
                run = Some(Command::SetTool(tool));
            }
        }
        ui.spacing_mut().item_spacing.y = ui.style().spacing.item_spacing.y;
        if let Some(c) = run {
            self.run_command(&ui.ctx().clone(), c);
        }
        ui.separator();
        ui.checkbox(&mut self.tools.snap, "Snap (G)");
        ui.horizontal(|ui| {
            let l = ui.label("step");
            ui.add(
                egui::DragValue::new(&mut self.tools.snap_step)
                    .range(1.0 / 64.0..=64.0)
                    .speed(0.05)
                    .suffix(" m"),
            )
            .labelled_by(l.id);
        });
        let before = ui.cursor().top();
        self.tool_options(ui);
        // Options just shown (a tool chosen, another builder): scrolled into view (in a short window they lie
        // below the buttons, and a builder's fields or the storey filter out of sight look like none).
        let shown = (self.tools.tool, (ui.cursor().top() - before).round() as i32);
        if self.panels.options_in_view != Some(shown) {
            self.panels.options_in_view = Some(shown);
            if shown.1 > 0 {
                ui.scroll_to_cursor(Some(egui::Align::BOTTOM));
            }
        }
    }

    /// The level's objects, a click selecting one (Shift adds it) and framing it.
    fn objects_list(&mut self, ui: &mut Ui) {
        ui.separator();
        ui.strong("Objects");
        let mut clicked = None;
        let n = self.view2d.scene.entries.len();
        egui::ScrollArea::vertical()
            .id_salt("objects")
            .auto_shrink([false, false])
            .show_rows(ui, 18.0, n, |ui, rows| {
                for e in &self.view2d.scene.entries[rows] {
                    let selected = self.doc.selection().contains(&e.id);
                    if ui
                        .add(egui::Button::selectable(selected, e.label.as_str()))
                        .clicked()
                    {
                        clicked = Some(e.id);
                    }
                }
            });
        if let Some(id) = clicked {
            let shift = ui.input(|i| i.modifiers.shift);
            if shift {
                self.doc.add_to_selection([id], false);
            } else {
                self.doc.select_only([id]);
            }
            self.view2d.frame_selection = true;
        }
    }

    pub(crate) fn right_panel(&mut self, ui: &mut Ui) {
        if self.nav.overlay.on {
            // The navigation section above the inspector: the agent sizes and the path.
            let run =
                crate::editor::nav::panel::show(ui, &self.nav.overlay, &mut self.nav.new_size);
            ui.separator();
            if let Some(c) = run {
                self.run_command(&ui.ctx().clone(), c);
            }
        }
        let history_height = if self.panels.show_history { 170.0 } else { 0.0 };
        let edits = egui::ScrollArea::vertical()
            .id_salt("inspector")
            .max_height((ui.available_height() - history_height).max(100.0))
            .show(ui, |ui| inspector::show(ui, &self.doc, &mut self.inspector))
            .inner;
        let ctx = ui.ctx().clone();
        for e in edits {
            self.run_command(&ctx, Command::Apply(Box::new(e)));
        }
        if self.panels.show_history {
            ui.separator();
            ui.strong("History");
            let (labels, cursor) = self.doc.history();
            let labels: Vec<String> = labels.into_iter().map(str::to_owned).collect();
            let mut go = None;
            egui::ScrollArea::vertical()
                .id_salt("history")
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    if ui
                        .add(egui::Button::selectable(cursor == 0, "(opened)"))
                        .clicked()
                    {
                        go = Some(0);
                    }
                    for (i, l) in labels.iter().enumerate() {
                        let text = if i < cursor {
                            RichText::new(l)
                        } else {
                            RichText::new(l).weak().italics()
                        };
                        if ui
                            .add(egui::Button::selectable(cursor == i + 1, text))
                            .clicked()
                        {
                            go = Some(i + 1);
                        }
                    }
                });
            if let Some(c) = go {
                self.run_command(&ui.ctx().clone(), Command::GoToHistory(c));
            }
        }
    }
}

/// The field a problem names, after its object: `walls[3].radius` → `radius`,
/// `entities[0].fields.team` → `fields.team` (what the inspector focuses).
fn focus_path(field: &str) -> Option<String> {
    if field.starts_with("character.") {
        // The level's character: its section in the level's settings.
        return Some(field.to_owned());
    }
    let (_, rest) = field.split_once("].")?;
    (!rest.is_empty()).then(|| rest.to_owned())
}

/// The entity type a problem is about (`entity_types[2]…`), by name.
fn type_of_problem(level: &crate::level::Level, field: &str) -> Option<String> {
    let k: usize = field
        .strip_prefix("entity_types[")?
        .split(']')
        .next()?
        .parse()
        .ok()?;
    level.entity_types.get(k).map(|t| t.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problem_fields_map_to_inspector_paths() {
        assert_eq!(focus_path("walls[3].radius").as_deref(), Some("radius"));
        assert_eq!(
            focus_path("entities[0].fields.team").as_deref(),
            Some("fields.team")
        );
        assert_eq!(focus_path("walker"), None);
        assert_eq!(
            focus_path("character.max_step").as_deref(),
            Some("character.max_step")
        );
    }
}
