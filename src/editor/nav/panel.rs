//! The navigation section beside the inspector (while the overlay is on): the agent sizes (the level's
//! character, then those added here: radius and height), the one drawn and asked for paths, the path with
//! its links, and the buttons to walk it again or clear it. It changes nothing itself: it hands back a
//! [`Command`].

use egui::{RichText, Ui};

use super::model::{AgentSize, NavOverlay};
use super::walker::WalkState;
use crate::editor::command::Command;

/// The section; the command it asks for, if any. `size` is the size being typed for a new agent.
pub fn show(ui: &mut Ui, o: &NavOverlay, size: &mut AgentSize) -> Option<Command> {
    let mut run = None;
    ui.strong("Navigation");
    let sizes: Vec<(f32, f32)> = match o.data() {
        Some(d) => d.geometry.agents.iter().map(|a| a.size).collect(),
        None => Vec::new(),
    };
    for (i, (r, h)) in sizes.iter().enumerate() {
        let name = if i == 0 {
            format!("Character: radius {r:.2} m, height {h:.2} m")
        } else {
            format!("Agent {}: radius {r:.2} m, height {h:.2} m", i + 1)
        };
        if ui.radio(o.agent == i, name).clicked() {
            run = Some(Command::NavAgent(i));
        }
    }
    if sizes.is_empty() {
        ui.label("The map is being made…");
    }
    ui.horizontal(|ui| {
        ui.label("radius");
        ui.add(
            egui::DragValue::new(&mut size.radius)
                .range(0.05..=5.0)
                .speed(0.01),
        );
        ui.label("height");
        ui.add(
            egui::DragValue::new(&mut size.height)
                .range(0.1..=10.0)
                .speed(0.01),
        );
        if ui
            .button("Add size")
            .on_hover_text("Another agent size in the same map (baked again)")
            .clicked()
        {
            run = Some(Command::NavAddAgent(size.radius, size.height));
        }
    });
    ui.label(
        RichText::new(
            "Shift+click a start, then a goal, in either view: the agent walks the path.",
        )
        .weak(),
    );
    if let Some(s) = o.start {
        ui.label(format!(
            "start ({:.2}, {:.2}, {:.2}): Shift+click the goal",
            s.x, s.y, s.z
        ));
    }
    if o.route.is_some() {
        ui.label(super::route_text(o));
        if let Some(w) = &o.walker {
            ui.label(match w.state {
                WalkState::Walking => format!("walking… {:.1} s", w.time),
                WalkState::Arrived(t) => format!("arrived in {t:.1} s"),
                WalkState::GaveUp => format!("did not arrive in {:.1} s", w.time),
            });
        }
        ui.horizontal(|ui| {
            for c in [Command::WalkNavPath, Command::ClearNavPath] {
                if ui
                    .button(c.spec().name)
                    .on_hover_text(c.spec().help)
                    .clicked()
                {
                    run = Some(c);
                }
            }
        });
    }
    run
}
