//! One character move's workings as tables: the summary a designer reads first (where it went, the ground,
//! `stepped_up`, `snapped_down`, why it ended short in words), then every sweep in order, the step-up
//! attempts with their outcome, the push-out and the ground at the start. The Character tab and the
//! Recording tab show moves with this one widget.

use egui::{Color32, RichText, Ui};
use glam::Vec3;

use crate::character::{
    CharacterController, CharacterMove, Constraint, StepRefusal, SweepHit, SweepPhase, SweepRecord,
};
use crate::editor::character::marks::MarkKind;
use crate::editor::document::Document;
use crate::editor::theme;
use crate::level::ObjectId;

/// An object as the rest of the editor names it in lists: `box (AABB) #12` (its kind and id), or `#12`
/// when the edited level has no such object.
#[must_use]
pub fn short_name(doc: &Document, id: ObjectId) -> String {
    doc.object(id)
        .map_or_else(|| id.to_string(), |o| format!("{} {id}", o.kind().noun()))
}

/// An object with its name too: `box (AABB) #12 "stairs: step 1"`.
#[must_use]
pub fn long_name(doc: &Document, id: ObjectId) -> String {
    doc.object(id).map_or_else(|| id.to_string(), |o| o.label())
}

/// Why the move ended short, in words naming the objects ("riser 0.42 m is above max_step 0.35 m: box
/// (AABB) #133 …"), or `None` when it did not.
#[must_use]
pub fn limit_text(c: &CharacterController, m: &CharacterMove, doc: &Document) -> Option<String> {
    m.limit
        .as_ref()
        .map(|l| l.describe(c.max_step, c.max_slope_deg, |id| long_name(doc, id)))
}

/// What movers did to the body in the move, in words ("carried 0.083 m by mover #12; crushed between mover
/// #14 and wall #3"; a moved object is named "mover #id", the others by kind), or `None` when nothing did.
#[must_use]
pub fn mover_text(m: &CharacterMove, doc: &Document) -> Option<String> {
    if m.movers.is_empty() {
        return None;
    }
    let name = |id: ObjectId| {
        if doc.level().movers.iter().any(|mv| mv.object == id) {
            format!("mover {id}")
        } else {
            short_name(doc, id)
        }
    };
    let words: Vec<String> = m.movers.iter().map(|e| e.describe(name)).collect();
    Some(words.join("; "))
}

/// A point or vector with two decimals: `(1.00, 0.01, -4.33)`.
#[must_use]
pub fn v3(v: Vec3) -> String {
    format!("({:.2}, {:.2}, {:.2})", v.x, v.y, v.z)
}

/// A sweep's phase in a word.
#[must_use]
pub fn phase_name(p: SweepPhase) -> &'static str {
    match p {
        SweepPhase::Slide => "slide",
        SweepPhase::StepUp => "step: lift",
        SweepPhase::StepForward => "step: forward",
        SweepPhase::StepDown => "step: settle",
        SweepPhase::Ground => "ground probe",
        SweepPhase::Snap => "snap probe",
    }
}

fn constraint_name(c: Option<Constraint>) -> &'static str {
    match c {
        Some(Constraint::Ground) => "ground",
        Some(Constraint::Steep) => "too steep",
        Some(Constraint::Wall) => "wall",
        Some(Constraint::Ceiling) => "ceiling",
        None => "",
    }
}

/// Why a step-up was refused, in words.
#[must_use]
pub fn refusal_text(r: StepRefusal) -> &'static str {
    match r {
        StepRefusal::TooHigh => "too high (above max_step)",
        StepRefusal::NoHeadroom => "no headroom to lift",
        StepRefusal::NoTread => "nothing walkable past it",
        StepRefusal::TreadTooSteep => "the tread is too steep",
        StepRefusal::NoProgress => "no farther than sliding",
    }
}

fn slope_deg(normal: Vec3) -> f32 {
    normal.y.clamp(-1.0, 1.0).acos().to_degrees()
}

fn colour(kind: MarkKind) -> Color32 {
    let [r, g, b, _] = kind.rgba();
    Color32::from_rgb(r, g, b)
}

/// The whole workings of move `m` made by controller `c`; objects named from `doc`. `salt` keeps the
/// grids of two widgets on one screen apart.
pub fn workings(
    ui: &mut Ui,
    salt: &str,
    c: &CharacterController,
    m: &CharacterMove,
    doc: &Document,
) {
    summary(ui, salt, c, m, doc);
    ui.add_space(4.0);
    ui.label(RichText::new(format!("Sweeps ({})", m.trace.sweeps.len())).strong());
    // The tables are wide: they scroll sideways on their own, the summary above wraps.
    egui::ScrollArea::horizontal()
        .id_salt(("move tables", salt))
        .show(ui, |ui| {
            sweeps(ui, salt, &m.trace.sweeps, doc);
            if !m.trace.steps.is_empty() {
                ui.add_space(4.0);
                ui.label(
                    RichText::new(format!("Step-up attempts ({})", m.trace.steps.len())).strong(),
                );
                steps(ui, salt, m, doc);
            }
        });
}

fn summary(ui: &mut Ui, salt: &str, c: &CharacterController, m: &CharacterMove, doc: &Document) {
    egui::Grid::new(("move summary", salt))
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let row = |ui: &mut Ui, k: &str, v: String| {
                ui.label(k);
                ui.add(egui::Label::new(v).wrap());
                ui.end_row();
            };
            row(ui, "from", v3(m.start));
            row(ui, "motion asked", v3(m.motion));
            row(
                ui,
                "to",
                format!(
                    "{} (moved {:.3} m of {:.3} m)",
                    v3(m.feet),
                    m.displacement().length(),
                    m.motion.length()
                ),
            );
            ui.label("why it ended short");
            match limit_text(c, m, doc) {
                Some(t) => ui.add(
                    egui::Label::new(RichText::new(t).color(theme::ERROR_TEXT).strong()).wrap(),
                ),
                None => ui.label("it did not"),
            };
            ui.end_row();
            if let Some(t) = mover_text(m, doc) {
                let text = RichText::new(t).strong();
                let text = if m.crushed {
                    text.color(theme::ERROR_TEXT)
                } else {
                    text
                };
                ui.label("movers");
                ui.add(egui::Label::new(text).wrap());
                ui.end_row();
            }
            support(ui, c, m, doc);
        });
}

/// The summary's rows about what held the body: the ground at the end and at the start, the step and
/// the snap, the hits, the push-out.
fn support(ui: &mut Ui, c: &CharacterController, m: &CharacterMove, doc: &Document) {
    let row = |ui: &mut Ui, k: &str, v: String| {
        ui.label(k);
        ui.add(egui::Label::new(v).wrap());
        ui.end_row();
    };
    let ground = match &m.ground {
        Some(g) => format!(
            "grounded on {} at {}, normal {} ({:.1}° from level)",
            short_name(doc, g.object),
            v3(g.point),
            v3(g.normal),
            slope_deg(g.normal)
        ),
        None => "not grounded (in the air)".into(),
    };
    row(ui, "ground at the end", ground);
    let start = match &m.trace.ground_at_start {
        Some(g) => format!(
            "{} at {}, normal {}",
            short_name(doc, g.object),
            v3(g.point),
            v3(g.normal)
        ),
        None => "none (in the air)".into(),
    };
    row(ui, "ground at the start", start);
    row(
        ui,
        "stepped_up",
        format!("{:.3} m (max_step {:.2} m)", m.stepped_up, c.max_step),
    );
    row(
        ui,
        "snapped_down",
        format!(
            "{:.3} m (snap_distance {:.2} m)",
            m.snapped_down, c.snap_distance
        ),
    );
    let hits: Vec<String> = m
        .hits
        .iter()
        .map(|h| format!("{} (iteration {})", short_name(doc, h.object), h.iteration))
        .collect();
    row(
        ui,
        "hits",
        if hits.is_empty() {
            "none".into()
        } else {
            hits.join(", ")
        },
    );
    if let Some(p) = &m.trace.push_out {
        let names: Vec<String> = p.objects.iter().map(|o| short_name(doc, *o)).collect();
        row(
            ui,
            "push-out",
            format!(
                "{} → {} out of {}{}",
                v3(p.from),
                v3(p.to),
                names.join(", "),
                if p.resolved {
                    ""
                } else {
                    " (still inside: not moved)"
                }
            ),
        );
    }
}

fn hit_cells(ui: &mut Ui, hit: Option<&SweepHit>, doc: &Document) {
    match hit {
        Some(h) => {
            ui.label(short_name(doc, h.object))
                .on_hover_text(long_name(doc, h.object));
            ui.monospace(format!("{:.4}", h.t));
            ui.monospace(v3(h.normal));
            ui.label(constraint_name(h.constraint));
        }
        None => {
            ui.weak("nothing");
            ui.monospace("1");
            ui.label("");
            ui.label("");
        }
    }
}

fn sweeps(ui: &mut Ui, salt: &str, list: &[SweepRecord], doc: &Document) {
    egui::Grid::new(("move sweeps", salt))
        .striped(true)
        .show(ui, |ui| {
            for h in [
                "#",
                "phase",
                "iter",
                "from",
                "motion",
                "hit",
                "t",
                "normal",
                "as",
                "to",
                "motion left",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for (k, s) in list.iter().enumerate() {
                ui.monospace(k.to_string());
                ui.label(
                    RichText::new(phase_name(s.phase)).color(colour(match s.phase {
                        SweepPhase::Slide => MarkKind::Slide,
                        SweepPhase::Ground => MarkKind::Ground,
                        SweepPhase::Snap => MarkKind::Snap,
                        _ => MarkKind::Step,
                    })),
                );
                ui.monospace(s.iteration.to_string());
                ui.monospace(v3(s.from));
                ui.monospace(v3(s.motion));
                hit_cells(ui, s.hit.as_ref(), doc);
                ui.monospace(v3(s.to));
                if s.phase == SweepPhase::Slide {
                    ui.monospace(v3(s.left));
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
}

fn steps(ui: &mut Ui, salt: &str, m: &CharacterMove, doc: &Document) {
    egui::Grid::new(("move steps", salt))
        .striped(true)
        .show(ui, |ui| {
            for h in ["iter", "obstacle", "lift", "forward", "riser", "outcome"] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for s in &m.trace.steps {
                ui.monospace(s.iteration.to_string());
                ui.label(short_name(doc, s.obstacle))
                    .on_hover_text(long_name(doc, s.obstacle));
                ui.monospace(format!("{:.3}", s.lift));
                ui.monospace(format!("{:.3}", s.forward));
                ui.monospace(s.riser.map_or_else(|| "?".into(), |r| format!("{r:.3}")));
                match (s.taken, s.refused) {
                    (true, _) => ui.label(RichText::new("taken").color(colour(MarkKind::Ground))),
                    (false, Some(r)) => ui.label(
                        RichText::new(format!("refused: {}", refusal_text(r)))
                            .color(theme::ERROR_TEXT),
                    ),
                    (false, None) => ui.label("not taken"),
                };
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::MoverEvent;
    use crate::level::Level;

    #[test]
    fn mover_events_name_moved_objects_as_movers() {
        let level = Level::from_ron_str(
            r#"(version: 3,
            aabbs: [(id: 12, min: (0.0, 0.0, 0.0), max: (1.0, 0.2, 1.0))],
            walls: [(id: 3, a: (0.0, 0.0), b: (5.0, 0.0), radius: 0.1, height: 2.0)],
            movers: [(id: 30, object: 12, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0)])"#,
        )
        .unwrap();
        let doc = Document::new(level, None);
        let mut m = CharacterMove::default();
        assert_eq!(mover_text(&m, &doc), None);
        m.movers = vec![
            MoverEvent::Carried {
                object: ObjectId(12),
                mover: ObjectId(30),
                by: Vec3::new(0.0, 0.083, 0.0),
            },
            MoverEvent::Crushed {
                movers: vec![ObjectId(12)],
                against: vec![ObjectId(3)],
            },
        ];
        assert_eq!(
            mover_text(&m, &doc).unwrap(),
            "carried 0.083 m by mover #12; crushed between mover #12 and wall #3"
        );
    }
}
