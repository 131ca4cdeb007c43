//! A game's recording in the editor: File → Open Recording (or a dropped `.crec`), File → Listen for a game,
//! the Recording tab, the re-ask of every recorded query against the edited level, and the selected query
//! drawn in the top-down view.

use std::net::SocketAddr;
use std::path::Path;

use egui::{Color32, Rect, Ui};

use super::EditorApp;
use crate::editor::recording::{Origin, RecordingSession, panel, query_shape};
use crate::editor::view2d::Batch;
use crate::glam::Vec2;
use crate::record::{DEFAULT_PORT, Listener, LiveEvent, Recording};

/// Queries asked again per UI frame (a long recording takes several frames; the tab shows the progress).
const REASK_PER_FRAME: usize = 20_000;
/// The colour of a recorded query in the views.
const QUERY: Color32 = Color32::from_rgb(90, 220, 255);
/// The game's own balls (a recording's steps), apart from the editor's simulated ones.
const BALL: Color32 = Color32::from_rgb(255, 150, 90);

impl EditorApp {
    /// Open a recording file: its frames in the Recording tab, asked again of the current level.
    pub fn open_recording(&mut self, path: &Path) {
        match Recording::load(path) {
            Ok(r) => {
                let frames = r.frames.len();
                let cut = if r.truncated {
                    " (cut off: its last frame was incomplete)"
                } else {
                    ""
                };
                self.recording = Some(RecordingSession::new(r, Origin::File(path.to_path_buf())));
                self.panels.tab = crate::editor::debugger::panel::Tab::Recording;
                self.panels.lower_collapsed = false;
                self.status = format!("opened recording {} ({frames} frames){cut}", path.display());
            }
            Err(e) => self.status = format!("cannot open the recording {}: {e}", path.display()),
        }
    }

    /// Start listening for a game on loopback (port 47474), or stop.
    pub fn toggle_listen(&mut self) {
        if let Some(l) = self.live.take() {
            self.status = format!("stopped listening on {}", l.local_addr());
            return;
        }
        let addr = SocketAddr::from(([127, 0, 0, 1], self.listen_port.unwrap_or(DEFAULT_PORT)));
        match Listener::bind(addr) {
            Ok(l) => {
                self.status = format!(
                    "listening for a game on {} (Recorder::connect in the game)",
                    l.local_addr()
                );
                self.live = Some(l);
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    /// Once a frame: take what the live link received, and ask more recorded queries of the current level.
    pub(crate) fn refresh_recording(&mut self, ctx: &egui::Context) {
        if let Some(l) = &mut self.live {
            let addr = l.local_addr();
            for ev in l.poll() {
                match ev {
                    LiveEvent::Connected { level } => {
                        self.recording = Some(RecordingSession::live(level, addr));
                        self.panels.tab = crate::editor::debugger::panel::Tab::Recording;
                        self.status =
                            "a game connected: its frames arrive in the Recording tab".into();
                    }
                    LiveEvent::Frame(f) => {
                        if let Some(s) = &mut self.recording {
                            s.push_live(f);
                        }
                    }
                    LiveEvent::Disconnected => self.status = "the game disconnected".into(),
                }
            }
            for m in l.messages() {
                self.status = m;
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        if self.recording.is_some() {
            let scene = self.level_scene();
            let key = self.doc.key();
            let id = {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                key.hash(&mut h);
                h.finish()
            };
            if let Some(s) = &mut self.recording {
                s.reask_against(scene, (id, key.revision));
                if !s.reask_step(REASK_PER_FRAME) {
                    ctx.request_repaint();
                }
            }
        }
    }

    /// The Recording tab.
    pub(crate) fn recording_tab(&mut self, ui: &mut Ui) {
        let selected = self.doc.selection().iter().next().copied();
        match &mut self.recording {
            Some(s) => panel::recording_panel(ui, s, &self.doc, selected),
            None => {
                ui.label("No recording. File → Open Recording… opens one a game saved (Recorder::save); File → Listen for a game receives one live (Recorder::connect).");
            }
        }
    }

    /// The live link in the status bar.
    pub(crate) fn live_status(&self) -> Option<String> {
        let l = self.live.as_ref()?;
        let s = l.stats();
        Some(if s.connected {
            format!("game connected: {} frames, {} dropped", s.frames, s.dropped)
        } else {
            format!("listening on {}", l.local_addr())
        })
    }

    /// The recording's current frame in the top-down view: the game's balls after its last step with that
    /// step's contacts, and the selected query.
    pub(crate) fn paint_recording_query(&self, lines: &mut Batch, rect: Rect) {
        let Some(session) = self.recording.as_ref() else {
            return;
        };
        let flat =
            |p: crate::glam::Vec3| self.view2d.cam.screen_from_world(rect, Vec2::new(p.x, p.z));
        if let Some(step) = session.frame().and_then(|f| f.steps.last()) {
            for b in &step.balls {
                lines.circle(flat(b.center), b.radius * self.view2d.cam.scale, 1.5, BALL);
            }
            for e in &step.events {
                lines.disc(flat(e.point), 3.0, Color32::WHITE);
                lines.line(
                    flat(e.point),
                    flat(e.point + e.normal * 0.5),
                    1.0,
                    Color32::WHITE,
                );
            }
        }
        let Some(q) = session.selected_query() else {
            return;
        };
        let shape = query_shape(q, 0.0);
        let s = flat;
        for (a, b) in &shape.lines {
            lines.line(s(*a), s(*b), 2.0, QUERY);
        }
        for p in &shape.points {
            lines.disc(s(*p), 4.0, QUERY);
        }
        for sp in &shape.spheres {
            lines.circle(s(sp.center), sp.radius * self.view2d.cam.scale, 1.5, QUERY);
        }
        for (a, b) in &shape.arrows {
            lines.line(s(*a), s(*b), 1.5, Color32::WHITE);
        }
    }
}
