//! The navigation commands on the feature's state: each answers the status line, and whether the 3D preview
//! should open (an agent set walking). The app runs them and shows the answer.

use super::{AgentSize, Nav};
use crate::editor::command::Command;
use crate::level::Level;

/// What a navigation command did: the status line (none when it did nothing) and whether the agent walks.
#[derive(Debug, Default, PartialEq)]
pub struct NavAnswer {
    /// The status line's words.
    pub status: Option<String>,
    /// The agent was set walking: the 3D preview shows it.
    pub open_3d: bool,
}

impl Nav {
    /// Run navigation command `command` against the document's level `level` (other commands do nothing).
    pub fn run(&mut self, command: &Command, level: &Level) -> NavAnswer {
        let o = &mut self.overlay;
        let status = match *command {
            Command::ToggleNav => {
                o.on = !o.on;
                Some(if o.on {
                    "navigation overlay on: Shift+click a start, then a goal, in either view".into()
                } else {
                    "navigation overlay off".into()
                })
            }
            Command::NavPoint(at) => {
                o.on = true;
                Some(o.click(at))
            }
            Command::NavAgent(i) => {
                let agents = super::model::agents(level, &o.added);
                (i < agents.len()).then(|| o.set_agent(i))
            }
            Command::NavAddAgent(radius, height) => Some(self.add_agent(level, radius, height)),
            Command::WalkNavPath => {
                o.walk_route();
                let walking = o.walker.is_some();
                return NavAnswer {
                    status: Some(if walking {
                        "navigation: the agent walks the path".into()
                    } else {
                        "navigation: no path to walk".into()
                    }),
                    open_3d: walking,
                };
            }
            Command::ClearNavPath if o.clear() => Some("navigation path cleared".into()),
            _ => None,
        };
        NavAnswer {
            status,
            open_3d: false,
        }
    }

    /// Add an agent size (the level's character with `radius` and `height`), chosen at once; the map is baked
    /// again. Refused with the reason when the size is not a valid controller or the map holds no more sizes.
    fn add_agent(&mut self, level: &Level, radius: f32, height: f32) -> String {
        let o = &mut self.overlay;
        let c = crate::character::CharacterController {
            radius,
            height,
            ..crate::editor::document::character::effective(level)
        };
        if o.added.len() + 1 >= crate::nav::MAX_AGENT_SIZES {
            return format!(
                "not added: a map holds at most {} agent sizes",
                crate::nav::MAX_AGENT_SIZES
            );
        }
        if let Some((field, why)) = c.problems().first() {
            return format!("not added: {field} {why}");
        }
        o.added.push(AgentSize { radius, height });
        o.agent = o.added.len();
        o.route = None;
        o.walker = None;
        format!(
            "navigation agent {}: radius {radius:.2} m, height {height:.2} m (the map is baked again)",
            o.agent + 1
        )
    }
}
