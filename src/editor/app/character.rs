//! The level's character in the editor's frame: the camera and character commands, the Character tab, and
//! the character drawn in the top-down view (where it is, what stopped it, and the selected move's
//! workings: the body's footprint at each contact, the sweeps' paths, the normals, the step probes).

use egui::{Color32, Rect, Ui};
use glam::{Vec2, Vec3};

use super::EditorApp;
use crate::editor::character::model::MoveEntry;
use crate::editor::character::panel::{PanelAction, character_panel};
use crate::editor::character::{MarkKind, MoveMarks, marks};
use crate::editor::command::Command;
use crate::editor::view2d::Batch;
use crate::record::QueryRecord;

impl EditorApp {
    /// Run a camera or character command.
    pub(super) fn run_character_command(&mut self, command: Command) {
        let scene = self.level_scene();
        let walking = self.view3d.walking_character();
        let v = &mut self.view3d;
        match command {
            Command::SetCamera(mode) => {
                v.open = true;
                v.set_camera(mode, &self.doc, &scene);
            }
            Command::ThirdPerson => {
                v.cam.character.third_person = !v.cam.character.third_person;
                self.status = if v.cam.character.third_person {
                    "the walk camera is behind the character".into()
                } else {
                    "the walk camera is at the character's eyes".into()
                };
            }
            _ if !walking => {
                self.status = "the character walks in the 3D preview's Walk mode".into();
            }
            Command::CharacterPause => {
                v.toggle_character_pause();
                self.status = if v.character.paused {
                    "character paused: step through its moves in the Character tab".into()
                } else {
                    "character resumed".into()
                };
                if v.character.paused {
                    self.panels.tab = crate::editor::debugger::panel::Tab::Character;
                    self.panels.show_problems = true;
                }
            }
            Command::CharacterStepBack => v.character_step_back(),
            Command::CharacterStepForward => v.character_step_forward(&self.doc, &scene),
            Command::CharacterRestart => v.start_character(&self.doc, &scene),
            _ => {}
        }
    }

    /// The Character tab.
    pub(crate) fn character_tab(&mut self, ui: &mut Ui) {
        let walking = self.view3d.walking_character();
        let action = character_panel(ui, &self.view3d.character, &self.doc, walking);
        match action {
            Some(PanelAction::Run(c)) => self.run_command(&ui.ctx().clone(), c),
            Some(PanelAction::Select(tick)) => self.view3d.character.selected = Some(tick),
            None => {}
        }
    }

    /// The workings of the recording's selected query when it is a character move: as the game made it, or
    /// as the edited level answers it now (the Recording tab's choice).
    #[must_use]
    pub fn recording_move_marks(&self) -> Option<MoveMarks> {
        let s = self.recording.as_ref()?;
        let q = s.selected_query()?;
        let q = match s.selected.and_then(|i| s.reasked(s.cursor, i)) {
            Some(again) if s.show_reasked => again,
            _ => q,
        };
        match q {
            QueryRecord::Character {
                controller, result, ..
            } => Some(MoveMarks::of(controller, result)),
            _ => None,
        }
    }

    /// The character's selected move in the Character tab (while walking).
    #[must_use]
    pub fn selected_character_move(&self) -> Option<&MoveEntry> {
        if !self.view3d.walking_character() {
            return None;
        }
        self.view3d.character.selected_move()
    }

    /// The top-down view's character marks: where the character is (footprint and facing) and what stopped
    /// its last move, the selected move's workings, and the recording's selected character move.
    pub(crate) fn paint_character_moves(&self, lines: &mut Batch, rect: Rect) {
        if let Some(m) = self.recording_move_marks() {
            self.paint_move_marks(lines, rect, &m);
        }
        if !self.view3d.walking_character() {
            return;
        }
        if let Some(m) = self.selected_character_move() {
            self.paint_move_marks(lines, rect, &MoveMarks::of(&m.controller, &m.result));
        }
        let w = &self.view3d.character;
        let s = |p: Vec3| self.view2d.cam.screen_from_world(rect, Vec2::new(p.x, p.z));
        if let Some(last) = w.last()
            && let Some(at) = last.result.limit.as_ref().and_then(marks::limit_at)
        {
            cross(lines, s(at), 6.0, rgb(MarkKind::Limit));
        }
        let c = w.last().map(|m| m.controller).unwrap_or_default();
        let feet = w.body.feet;
        let r = (c.radius * self.view2d.cam.scale).max(3.0);
        let colour = rgb(MarkKind::End);
        lines.disc(s(feet), r, colour.gamma_multiply(0.35));
        lines.circle(s(feet), r, 2.0, colour);
        let f = self.view3d.cam.walker.forward();
        let tip = feet + Vec3::new(f.x, 0.0, f.y) * (c.radius * 2.5).max(0.5);
        lines.arrow(s(feet), s(tip), 2.0, 8.0, colour);
    }

    /// One move's marks from above: the body's footprint at each contact, each sweep's path, the normals
    /// (their horizontal part; a vertical one is a dot) and where a limit stopped it.
    fn paint_move_marks(&self, lines: &mut Batch, rect: Rect, m: &MoveMarks) {
        let s = |p: Vec3| self.view2d.cam.screen_from_world(rect, Vec2::new(p.x, p.z));
        let r = (m.radius * self.view2d.cam.scale).max(2.0);
        for (feet, kind) in &m.bodies {
            let width = if *kind == MarkKind::End { 2.0 } else { 1.2 };
            lines.circle(s(*feet), r, width, rgb(*kind));
        }
        for (a, b, kind) in &m.paths {
            lines.line(s(*a), s(*b), 1.5, rgb(*kind));
        }
        for (p, n, kind) in &m.normals {
            let flat = Vec3::new(n.x, 0.0, n.z);
            if flat.length() > 0.05 {
                lines.arrow(s(*p), s(*p + flat * 0.5), 1.5, 6.0, rgb(*kind));
            }
            lines.disc(s(*p), 2.5, rgb(*kind));
        }
        if let Some(at) = m.limit_at {
            cross(lines, s(at), 7.0, rgb(MarkKind::Limit));
        }
    }
}

fn rgb(kind: MarkKind) -> Color32 {
    let [r, g, b, _] = kind.rgba();
    Color32::from_rgb(r, g, b)
}

fn cross(lines: &mut Batch, c: egui::Pos2, size: f32, colour: Color32) {
    lines.line(
        c + egui::vec2(-size, -size),
        c + egui::vec2(size, size),
        2.0,
        colour,
    );
    lines.line(
        c + egui::vec2(-size, size),
        c + egui::vec2(size, -size),
        2.0,
        colour,
    );
}
