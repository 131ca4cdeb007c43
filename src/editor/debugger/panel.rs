//! The step debugger's panel (play, pause, step, step back, restart, speed, timeline scrubber, event log and
//! plots) and its overlays in the top-down view (simulated balls, velocities, trails, contact points and
//! normals, time-of-impact markers, broadphase bounds and a short flash at each contact).

use std::sync::Arc;

use super::overlay::{Marks, MarksKey};
pub use super::overlay::{Overlay, Overlays};
use crate::editor::theme;
use egui::{Color32, RichText, Ui};
use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};

use crate::editor::debugger::model::{DEFAULT_BUDGET_BYTES, Debugger, Ghost};
use crate::editor::document::{DocKey, Document};
use crate::level::ObjectId;
use crate::sim::{Contact, ContactEvent};

/// Which tab of the lower panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// The level's problems.
    Problems,
    /// Contact events.
    Events,
    /// Energy, contacts and step time over time.
    Plots,
    /// The probe ray's hits and slab intervals.
    Probe,
    /// The separating-axis test of two selected boxes.
    Sat,
    /// The seed texts' method variants side by side.
    Compare,
    /// A game's recording (a file or the live link): its frames and queries.
    Recording,
    /// The character walked in the 3D preview: its last moves and their workings.
    Character,
    /// The level's entity types and their fields.
    EntityTypes,
    /// Reachability: the map's figures, the spot clicked with the Reach tool, the places out of reach.
    Reach,
}

/// The debugger as the editor shows it.
pub struct DebugPanel {
    /// The recording, built from the level on first use and dropped when the level changes.
    pub debugger: Option<Debugger>,
    /// Why the level cannot be simulated, when it cannot.
    pub error: Option<String>,
    /// Playing (Space).
    pub playing: bool,
    /// Playback speed: simulated seconds per real second.
    pub speed: f32,
    /// Overlay toggles.
    pub overlays: Overlays,
    /// Memory budget for snapshots, bytes.
    pub budget_bytes: usize,
    /// The highlighted event: frame (1-based: the step that ended at this frame) and index in it.
    pub highlighted: Option<(usize, usize)>,
    /// The previous run after a what-if edit, until dismissed.
    pub ghost: Option<Ghost>,
    /// The document and revision the recording was made from.
    recorded_from: Option<DocKey>,
    /// The overlays of the current frame, built once for both views.
    marks: Option<(MarksKey, Arc<Marks>)>,
    owed: f64,
}

/// What [`DebugPanel::sync`] did about a level change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sync {
    /// Nothing to do.
    Unchanged,
    /// The recording continues from the current frame in the edited level (the old future is the ghost).
    Branched(usize),
    /// The recording was dropped (the balls or `dt` changed, or nothing was recorded): it starts again.
    Restarted,
    /// Another document was opened: the recording of the previous one was dropped.
    Replaced,
}

impl Default for DebugPanel {
    fn default() -> Self {
        Self {
            debugger: None,
            error: None,
            playing: false,
            speed: 1.0,
            overlays: Overlays::default(),
            budget_bytes: DEFAULT_BUDGET_BYTES,
            highlighted: None,
            ghost: None,
            recorded_from: None,
            marks: None,
            owed: 0.0,
        }
    }
}

impl DebugPanel {
    /// Follow a level change: while paused past frame 0, an edit that keeps the balls branches the recording
    /// at the current frame (what-if) and keeps the previous future as a ghost; any other edit drops the
    /// recording. Waits while a drag is still changing the level (`editing`).
    pub fn sync(&mut self, doc: &Document, editing: bool) -> Sync {
        let key = doc.key();
        let Some(from) = self.recorded_from.filter(|k| *k != key) else {
            return Sync::Unchanged;
        };
        if from.id != key.id {
            // Another document: nothing of this recording belongs to it.
            self.drop_recording();
            return Sync::Replaced;
        }
        if editing {
            return Sync::Unchanged;
        }
        self.recorded_from = Some(key);
        self.playing = false;
        self.highlighted = None;
        if let Some(d) = &mut self.debugger
            && d.cursor() > 0
            && let Some(ghost) = d.branch(doc.level())
        {
            let from = ghost.from;
            // Another edit at the same frame keeps the ghost of the run before the first edit.
            match &mut self.ghost {
                Some(g) if g.from == from => {
                    g.diverges_at = None;
                    g.diverged.clear();
                }
                _ => self.ghost = Some(ghost),
            }
            return Sync::Branched(from);
        }
        self.drop_recording();
        Sync::Restarted
    }

    fn drop_recording(&mut self) {
        self.debugger = None;
        self.error = None;
        self.recorded_from = None;
        self.ghost = None;
        self.playing = false;
        self.highlighted = None;
    }

    fn stepped(&mut self) {
        if let (Some(d), Some(g)) = (&self.debugger, &mut self.ghost) {
            d.compare(g);
        }
    }

    /// The recording, made from the level if there is none yet. `None` (with [`DebugPanel::error`] set) when
    /// the level has errors.
    pub fn ensure(&mut self, doc: &Document) -> Option<&mut Debugger> {
        if self.debugger.is_none() {
            match Debugger::new(doc.level(), self.budget_bytes) {
                Ok(d) => {
                    self.debugger = Some(d);
                    self.error = None;
                    self.recorded_from = Some(doc.key());
                }
                Err(e) => {
                    self.error = Some(format!("the level cannot be simulated: {e}"));
                    self.playing = false;
                }
            }
        }
        self.debugger.as_mut()
    }

    /// Whether the view should show simulated balls instead of the level's.
    #[must_use]
    pub fn active(&self) -> bool {
        self.debugger.as_ref().is_some_and(|d| d.cursor() > 0)
    }

    /// Play or pause.
    pub fn toggle_play(&mut self, doc: &Document) {
        if self.playing {
            self.playing = false;
        } else if self.ensure(doc).is_some() {
            self.playing = true;
            self.owed = 0.0;
        }
    }

    /// One step forward (`.`).
    pub fn step(&mut self, doc: &Document) {
        self.playing = false;
        if let Some(d) = self.ensure(doc) {
            d.step();
        }
        self.stepped();
    }

    /// One step back (`,`).
    pub fn step_back(&mut self, doc: &Document) {
        self.playing = false;
        if let Some(d) = self.ensure(doc) {
            d.step_back();
        }
    }

    /// Advance playback by `real_secs` of wall-clock time; returns whether a frame was stepped.
    pub fn advance(&mut self, real_secs: f64) -> bool {
        if !self.playing {
            return false;
        }
        let Some(d) = self.debugger.as_mut() else {
            self.playing = false;
            return false;
        };
        let dt = f64::from(d.dt());
        // At most a tenth of a second of catching up per frame, so a slow frame never snowballs.
        self.owed = (self.owed + real_secs.min(0.1) * f64::from(self.speed)).min(dt * 8.0);
        let mut stepped = false;
        while self.owed >= dt {
            self.owed -= dt;
            d.step();
            stepped = true;
            if let Some(g) = &mut self.ghost {
                d.compare(g);
            }
        }
        stepped
    }

    /// The overlays of the current frame (rebuilt only when the frame, the toggles, the chosen event or the
    /// ghost changed), for both views.
    pub fn marks(&mut self) -> Arc<Marks> {
        let key = MarksKey::of(
            self.debugger.as_ref(),
            self.overlays,
            self.highlighted,
            self.ghost.as_ref(),
        );
        match &self.marks {
            Some((k, m)) if *k == key => m.clone(),
            _ => {
                let m = Arc::new(Marks::build(
                    self.debugger.as_ref(),
                    self.overlays,
                    self.highlighted,
                    self.ghost.as_ref(),
                ));
                self.marks = Some((key, m.clone()));
                m
            }
        }
    }

    /// Back to frame 0 of the recording.
    pub fn restart(&mut self, doc: &Document) {
        self.playing = false;
        if let Some(d) = self.ensure(doc) {
            d.restart();
        }
    }

    /// The what-if banner: where the new run leaves the previous one (the ghost), with Dismiss.
    fn ghost_banner(&mut self, ui: &mut Ui) {
        if let Some(g) = &self.ghost {
            let mut dismiss = false;
            ui.horizontal(|ui| {
                let text = match g.diverges_at {
                    Some(k) => format!(
                        "What-if from frame {}: the new run leaves the previous one (ghost) at frame {k}.",
                        g.from
                    ),
                    None => format!(
                        "What-if from frame {}: no difference from the previous run (ghost) yet; step or play on.",
                        g.from
                    ),
                };
                ui.colored_label(Color32::from_rgb(200, 200, 255), text);
                dismiss = ui.button("Dismiss ghost").clicked();
            });
            if dismiss {
                self.ghost = None;
            }
        }
    }

    /// The controls, timeline and readouts; `transport` draws the play / step buttons (the editor's
    /// commands) at the start of the first row.
    pub fn controls(&mut self, ui: &mut Ui, doc: &Document, transport: &mut dyn FnMut(&mut Ui)) {
        ui.horizontal(|ui| {
            transport(ui);
            let l = ui.label("speed");
            ui.add(
                egui::DragValue::new(&mut self.speed)
                    .range(0.01..=16.0)
                    .speed(0.01)
                    .suffix("×"),
            )
            .labelled_by(l.id);
            ui.separator();
            match &self.debugger {
                Some(d) => {
                    let (bytes, every) = d.memory();
                    ui.monospace(format!(
                        "frame {} / {}   t = {:.3} s   dt = {} s",
                        d.cursor(),
                        d.recorded(),
                        d.world().time(),
                        d.dt()
                    ));
                    ui.label(format!(
                        "recording {}{}",
                        human_bytes(bytes),
                        if every > 1 {
                            format!(", keyframes every {every}")
                        } else {
                            String::new()
                        }
                    ));
                }
                None => {
                    ui.monospace(format!("frame 0   dt = {} s", doc.level().simulation.dt));
                }
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(theme::ERROR_TEXT, e);
        }
        self.ghost_banner(ui);
        // The timeline row is always there (disabled before anything is recorded), so the view never jumps.
        let (mut frame, recorded) = self
            .debugger
            .as_ref()
            .map_or((0, 0), |d| (d.cursor(), d.recorded()));
        ui.horizontal(|ui| {
            let l = ui.label("timeline");
            ui.spacing_mut().slider_width = (ui.available_width() - 80.0).max(100.0);
            let resp = ui
                .add_enabled(
                    recorded > 0,
                    egui::Slider::new(&mut frame, 0..=recorded.max(1)).show_value(true),
                )
                .labelled_by(l.id);
            if let Some(d) = &self.debugger {
                let width = ui.spacing().slider_width;
                trigger_ticks(ui, resp.rect, width, d.frames(), recorded);
            }
            if resp.changed()
                && let Some(d) = &mut self.debugger
            {
                self.playing = false;
                d.seek(frame);
            }
        });
    }

    /// The event log: every recorded contact, newest step first near the cursor. Returns the ball's object
    /// when an event was clicked (the debugger jumps to its frame).
    pub fn events(&mut self, ui: &mut Ui) -> Option<ObjectId> {
        let Some(d) = &mut self.debugger else {
            ui.label("Step or play the simulation (Space, `.`) to record contact events.");
            return None;
        };
        // Contacts as (frame, index); trigger events as (frame, usize::MAX - index).
        let rows: Vec<(usize, usize)> = d
            .frames()
            .iter()
            .enumerate()
            .flat_map(|(f, r)| {
                (0..r.events.len())
                    .map(move |i| (f + 1, i))
                    .chain((0..r.triggers.len()).map(move |i| (f + 1, usize::MAX - i)))
            })
            .collect();
        let n_triggers: usize = d.frames().iter().map(|r| r.triggers.len()).sum();
        ui.label(format!(
            "{} contact and {} trigger events in {} frames; click one to jump to its frame.",
            rows.len() - n_triggers,
            n_triggers,
            d.recorded()
        ));
        let mut clicked = None;
        let ball_ids = d.world().ball_object_ids().to_vec();
        let static_ids = d.world().static_object_ids().to_vec();
        let name = |c: Contact| match c {
            Contact::Ball(b) => ball_ids
                .get(b.0)
                .copied()
                .flatten()
                .map_or_else(|| format!("ball [{}]", b.0), |id| format!("ball {id}")),
            Contact::Static(s) => static_ids
                .get(s)
                .copied()
                .flatten()
                .map_or_else(|| format!("static [{s}]"), |id| format!("static {id}")),
        };
        egui::ScrollArea::vertical()
            .id_salt("events")
            .auto_shrink([false, false])
            .show_rows(ui, 18.0, rows.len(), |ui, range| {
                for &(f, i) in &rows[range] {
                    if i > d.frames()[f - 1].events.len() {
                        let t = &d.frames()[f - 1].triggers[usize::MAX - i];
                        let start = d.frames()[f - 1].time - f64::from(d.dt());
                        let text = trigger_text(f, start, t, &name(Contact::Ball(t.ball)));
                        let rich = RichText::new(text)
                            .monospace()
                            .color(theme::palette::TRIGGER);
                        if ui.add(egui::Button::selectable(false, rich)).clicked() {
                            clicked = Some((f, i, t.ball));
                        }
                        continue;
                    }
                    let e = &d.frames()[f - 1].events[i];
                    let start = d.frames()[f - 1].time - f64::from(d.dt());
                    let text =
                        contact_text(f, start, e, &name(Contact::Ball(e.ball)), &name(e.other));
                    let on = self.highlighted == Some((f, i));
                    let current = f == d.cursor();
                    let rich = if current {
                        RichText::new(text).monospace().strong()
                    } else {
                        RichText::new(text).monospace()
                    };
                    if ui.add(egui::Button::selectable(on, rich)).clicked() {
                        clicked = Some((f, i, e.ball));
                    }
                }
            });
        let (f, i, ball) = clicked?;
        self.playing = false;
        self.highlighted = Some((f, i));
        d.seek(f);
        ball_ids.get(ball.0).copied().flatten()
    }

    /// Energy, contacts per step and step time over the recording, with the cursor marked.
    pub fn plots(&self, ui: &mut Ui) {
        let Some(d) = &self.debugger else {
            ui.label("Nothing recorded yet.");
            return;
        };
        let frames = d.frames();
        let t_now = d.world().time();
        let height = ((ui.available_height() - 10.0) / 1.0).max(80.0);
        let width = ui.available_width() / 3.0 - 8.0;
        ui.horizontal(|ui| {
            let series = |f: &dyn Fn(&crate::editor::debugger::model::FrameRecord) -> f64| -> PlotPoints<'static> {
                frames.iter().map(|r| [r.time, f(r)]).collect()
            };
            Plot::new("energy")
                .legend(Legend::default())
                .height(height)
                .width(width)
                .x_axis_label("t (s)")
                .y_axis_label("J")
                .show(ui, |p| {
                    p.line(Line::new("kinetic", series(&|r| r.kinetic)));
                    p.line(Line::new("potential", series(&|r| r.potential)));
                    p.line(Line::new("total", series(&|r| r.kinetic + r.potential)));
                    p.vline(VLine::new("now", t_now));
                });
            Plot::new("contacts")
                .height(height)
                .width(width)
                .x_axis_label("t (s)")
                .y_axis_label("contacts per step")
                .show(ui, |p| {
                    p.line(Line::new("contacts", series(&|r| r.events.len() as f64)));
                    p.vline(VLine::new("now", t_now));
                });
            Plot::new("step time")
                .height(height)
                .width(width)
                .x_axis_label("t (s)")
                .y_axis_label("µs per step")
                .show(ui, |p| {
                    p.line(Line::new("step time", series(&|r| r.step_micros)));
                    p.vline(VLine::new("now", t_now));
                });
        });
    }
}

/// `12.3 KB`, `4.5 MB`, `1.2 GB`.
fn human_bytes(bytes: usize) -> String {
    let b = bytes as f64;
    if b < 1e6 {
        format!("{:.1} KB", b / 1e3)
    } else if b < 1e9 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.2} GB", b / 1e9)
    }
}

/// Ticks over the timeline at the frames where a ball entered or left a trigger volume.
fn trigger_ticks(
    ui: &Ui,
    rect: egui::Rect,
    width: f32,
    frames: &[crate::editor::debugger::model::FrameRecord],
    recorded: usize,
) {
    if recorded == 0 {
        return;
    }
    let painter = ui.painter();
    // The slider's rail: the slider width from its left, less the handle's radius at each end.
    let inset = rect.height() / 2.5;
    let rail = egui::Rect::from_min_max(
        egui::pos2(rect.min.x + inset, rect.min.y),
        egui::pos2(rect.min.x + width - inset, rect.max.y),
    );
    for (f, r) in frames.iter().enumerate() {
        if r.triggers.is_empty() {
            continue;
        }
        let x = rail.min.x + rail.width() * (f + 1) as f32 / recorded.max(1) as f32;
        painter.line_segment(
            [egui::pos2(x, rail.min.y), egui::pos2(x, rail.min.y + 5.0)],
            egui::Stroke::new(2.0, theme::palette::TRIGGER),
        );
    }
}

/// One trigger event of the events list: frame, time, ball, entered or left, trigger.
fn trigger_text(f: usize, step_start: f64, t: &crate::sim::TriggerEvent, ball: &str) -> String {
    format!(
        "frame {f:>5}  t {:>8.4} s  {ball} {} trigger {}",
        step_start + f64::from(t.time),
        if t.entered { "entered" } else { "left" },
        t.trigger
    )
}

/// One contact of the events list: frame, time, the two bodies, point, normal, time of impact.
fn contact_text(f: usize, step_start: f64, e: &ContactEvent, ball: &str, other: &str) -> String {
    format!(
        "frame {f:>5}  t {:>8.4} s  {ball} <-> {other}  at ({:.3}, {:.3}, {:.3})  n ({:.2}, {:.2}, {:.2})  toi {:.3}",
        step_start + f64::from(e.time),
        e.point.x,
        e.point.y,
        e.point.z,
        e.normal.x,
        e.normal.y,
        e.normal.z,
        e.toi_fraction
    )
}
