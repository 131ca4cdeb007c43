//! Navigation: [`NavAgent`] entities walked along [`NavMap`] paths by their [`CharacterBody`], the map built
//! from the current level for the agent sizes the game registers in [`NavAgents`].
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_collidoscope::*;
//!
//! fn setup(mut commands: Commands) {
//!     let small = CharacterController::default();
//!     // Agent 0 is `small`: its bodies use the same controller.
//!     commands.insert_resource(NavAgents::new(vec![small]));
//!     commands.spawn((
//!         CharacterBody::new(small),
//!         NavAgent { agent: 0, target: Vec3::new(8.0, 0.0, 3.0) },
//!         Transform::from_xyz(0.0, 0.01, 0.0),
//!     ));
//! }
//! ```

use bevy::prelude::*;
use collidoscope::character::{BodyInput, CharacterController};
use collidoscope::nav::{NavMap, NavPath, NavSettings};

use crate::character::CharacterBody;
use crate::scene::LevelScene;

/// Fixed steps between two tries to plan again when no path was found (the body may have been in the air,
/// or the level may change under it): half a second at 60 Hz.
const RETRY_STEPS: u32 = 30;

/// The agent sizes a game navigates with, and the [`NavMap`] the plugin builds from the current level for
/// them. Insert it (`NavAgents::new(controllers)`) to turn navigation on; [`NavAgent::agent`] indexes
/// `agents`.
///
/// The map is (re)built in [`FixedUpdate`], before the agents steer, whenever the current level changes (a
/// new level, a reload after a save) or `agents`, `cell` or `jump` change; until then agents stand still. The
/// bake takes the level's static objects where they stand (movers at rest) and its gravity; it runs on the
/// game's thread, so keep `agents` short and `cell` coarse on big levels.
#[derive(Resource, Clone, Debug)]
pub struct NavAgents {
    /// The agent sizes (controllers); a [`NavAgent`]'s `agent` is an index into this list, and its body
    /// should use that controller.
    pub agents: Vec<CharacterController>,
    /// The map's cell, metres (0.25); a target moved more than this replans.
    pub cell: f32,
    /// Jump links in the map (true).
    pub jump: bool,
    built: Option<Built>,
    generation: u64,
}

/// What the current map was built from, and the map.
#[derive(Clone, Debug)]
struct Built {
    revision: u64,
    agents: Vec<CharacterController>,
    cell: f32,
    jump: bool,
    map: NavMap,
}

impl Default for NavAgents {
    fn default() -> Self {
        Self::new(vec![CharacterController::default()])
    }
}

impl NavAgents {
    /// Navigation for these agent sizes, with a 0.25 m cell and jumps on.
    #[must_use]
    pub fn new(agents: Vec<CharacterController>) -> Self {
        Self {
            agents,
            cell: NavSettings::default().cell,
            jump: true,
            built: None,
            generation: 0,
        }
    }

    /// The map of the current level, once one is built (its [`NavMap::error`] says why it is empty when the
    /// settings are invalid).
    #[must_use]
    pub fn map(&self) -> Option<&NavMap> {
        self.built.as_ref().map(|b| &b.map)
    }

    /// How many times the map was built or dropped: agents replan when it changes.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

/// A character that walks to `target`: each [`FixedUpdate`] step, before the bodies move, the plugin writes
/// its [`CharacterBody`]'s `input` from [`NavPath::steer`] along a path of the [`NavAgents`] map for agent
/// size `agent`. It plans from the body's feet, and plans again when the map is rebuilt (the level reloaded,
/// the agents changed), `agent` changes or `target` moves more than a cell. Where there is no path (or no map yet) the input
/// is zero and [`NavAgentState::status`] says why.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(CharacterBody, NavAgentState)]
pub struct NavAgent {
    /// The agent size: an index into [`NavAgents::agents`].
    pub agent: usize,
    /// Where to go (feet), in the level's coordinates.
    pub target: Vec3,
}

/// What a path was planned for: the map generation, the agent size, the target.
type Planned = (u64, usize, Vec3);

/// Where a [`NavAgent`] stands with its path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NavStatus {
    /// No map: no [`NavAgents`] resource, no level spawned, or the map's settings are invalid (see
    /// [`NavMap::error`]). The input is zero.
    #[default]
    NoMap,
    /// Walking its path.
    Moving,
    /// Within `cell·√2` of the target horizontally and `max_step` vertically (steering keeps it there).
    Arrived,
    /// No path from the body's feet to the target for its agent size (or `agent` is out of range, or the body
    /// is in the air or inside something): the input is zero, and planning is tried again every half second.
    Unreachable,
}

/// What the plugin knows of a [`NavAgent`]'s path (added with it).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct NavAgentState {
    status: NavStatus,
    path: Option<NavPath>,
    /// The map generation, agent size and target the path was planned for.
    planned: Option<Planned>,
    /// Steps until an unreachable agent tries again.
    retry: u32,
}

impl NavAgentState {
    /// Why the agent moves or does not.
    #[must_use]
    pub fn status(&self) -> NavStatus {
        self.status
    }

    /// The path it follows, if it has one.
    #[must_use]
    pub fn path(&self) -> Option<&NavPath> {
        self.path.as_ref()
    }
}

/// [`FixedUpdate`], before the agents steer: the map rebuilt when the level or the agents changed.
pub(crate) fn rebuild_nav_map(scene: LevelScene, nav: Option<ResMut<NavAgents>>) {
    let Some(mut nav) = nav else {
        return;
    };
    let Some(asset) = scene.level_asset() else {
        if nav.built.take().is_some() {
            nav.generation += 1;
        }
        return;
    };
    let revision = asset.revision();
    let fresh = nav.built.as_ref().is_some_and(|b| {
        b.revision == revision && b.agents == nav.agents && b.cell == nav.cell && b.jump == nav.jump
    });
    if fresh {
        return;
    }
    let settings = NavSettings {
        agents: nav.agents.clone(),
        cell: nav.cell,
        jump: nav.jump,
        gravity: scene.gravity(),
        ..NavSettings::default()
    };
    let map = NavMap::build(asset.scene(), &settings);
    if let Some(error) = map.error() {
        tracing::warn!("navigation map not built: {error}");
    }
    nav.built = Some(Built {
        revision,
        agents: settings.agents,
        cell: settings.cell,
        jump: settings.jump,
        map,
    });
    nav.generation += 1;
}

/// [`FixedUpdate`], before the bodies step: each agent's input from its path (planned again when needed).
pub(crate) fn steer_nav_agents(
    nav: Option<Res<NavAgents>>,
    mut agents: Query<(
        &NavAgent,
        &mut NavAgentState,
        &mut CharacterBody,
        &Transform,
    )>,
) {
    let map = nav
        .as_deref()
        .and_then(|n| n.map().filter(|m| m.error().is_none()).map(|m| (n, m)));
    for (agent, mut state, mut character, transform) in &mut agents {
        let Some((nav, map)) = map else {
            set_state(&mut state, NavStatus::NoMap, None, None);
            character.input = BodyInput::default();
            continue;
        };
        // The game may have moved the body: its translation is its feet, as the step will take it.
        let mut body = character.body;
        body.feet = transform.translation;
        let stale = state.planned.is_none_or(|(g, a, t)| {
            g != nav.generation || a != agent.agent || t.distance(agent.target) > nav.cell
        });
        let retry = state.status == NavStatus::Unreachable && state.retry == 0;
        if stale || retry {
            let path = map.path(agent.agent, body.feet, agent.target);
            let status = if path.is_some() {
                NavStatus::Moving
            } else {
                NavStatus::Unreachable
            };
            set_state(
                &mut state,
                status,
                path,
                Some((nav.generation, agent.agent, agent.target)),
            );
            state.retry = RETRY_STEPS;
        }
        state.retry = state.retry.saturating_sub(1);
        let input = match &state.path {
            Some(path) => path.steer(&body, &character.controller),
            None => BodyInput::default(),
        };
        if state.path.is_some() {
            let arrived = arrived(body.feet, agent.target, nav.cell, &character.controller);
            let status = if arrived {
                NavStatus::Arrived
            } else {
                NavStatus::Moving
            };
            if state.status != status {
                state.status = status;
            }
        }
        character.input = input;
    }
}

/// Write the state only when it changes (keeps Bevy's change detection meaningful).
fn set_state(
    state: &mut Mut<NavAgentState>,
    status: NavStatus,
    path: Option<NavPath>,
    planned: Option<Planned>,
) {
    if state.status != status || state.path != path || state.planned != planned {
        state.status = status;
        state.path = path;
        state.planned = planned;
    }
}

/// The contract's "reached": within `cell·√2` horizontally and `max_step` vertically.
fn arrived(feet: Vec3, target: Vec3, cell: f32, controller: &CharacterController) -> bool {
    let d = feet - target;
    Vec2::new(d.x, d.z).length() <= cell * std::f32::consts::SQRT_2
        && d.y.abs() <= controller.max_step
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrived_is_horizontal_within_cell_sqrt2_and_vertical_within_max_step() {
        let c = CharacterController::default();
        assert!(arrived(Vec3::ZERO, Vec3::new(0.3, 0.0, 0.0), 0.25, &c));
        assert!(!arrived(Vec3::ZERO, Vec3::new(0.4, 0.0, 0.0), 0.25, &c));
        assert!(!arrived(
            Vec3::ZERO,
            Vec3::new(0.0, c.max_step + 0.1, 0.0),
            0.25,
            &c
        ));
    }

    #[test]
    fn a_new_agent_has_no_map_and_no_path() {
        let s = NavAgentState::default();
        assert_eq!(s.status(), NavStatus::NoMap);
        assert!(s.path().is_none());
    }
}
