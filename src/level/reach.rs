//! Reachability of a level's entities: the map of the level's character from the walker start
//! ([`Level::reach_map`]) and, for every entity of a type that says `must_reach: true`, whether the character
//! can walk to it ([`Level::reach_problems`]). [`Level::validate`] builds no map (a map costs a second or more
//! on a large level); `collidoscope check --reach` does, through these.

use glam::Vec3;

use super::{EntityObject, Level, Problem, Severity};
use crate::character::{Blocker3, ReachError, ReachMap, ReachSettings};
use crate::scene::Scene;

/// An entity of a `must_reach` type that the level's character cannot reach from the walker start.
#[derive(Clone, Debug, PartialEq)]
pub struct ReachProblem {
    /// The error as `collidoscope check --reach` reports it: at `entities[i]`, the object the entity's id, the
    /// message naming the blocker in words and by kind (`… (StepTooHigh)`).
    pub problem: Problem,
    /// The entity's type.
    pub entity_type: String,
    /// Its position, taken as the character's feet.
    pub feet: Vec3,
    /// The limit that keeps it out; `None` when there is nowhere to stand at its position.
    pub blocker: Option<Blocker3>,
    /// Whether the character can stand at its position (a place within one cell and `max_step`).
    pub can_stand: bool,
}

/// The kind named for an entity with nowhere to stand at its position.
const NOWHERE_TO_STAND: &str = "NowhereToStand";

impl ReachProblem {
    /// The blocker's kind (`StepTooHigh`, `SlopeTooSteep`, `TooNarrow`, `TooLow`, `Gap`), or `NowhereToStand`
    /// when the entity's position is no place to stand (in the air, inside or against something, on a
    /// surface too steep), or `Unreached` for a place to stand that has no blocker (not expected: the map
    /// names one for every unreached place).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match (&self.blocker, self.can_stand) {
            (Some(b), _) => b.kind(),
            (None, false) => NOWHERE_TO_STAND,
            (None, true) => "Unreached",
        }
    }
}

impl Level {
    /// The walker start's spot at its height: `(x, height, z)` (`height` 0 when absent); `None` without a
    /// walker start. Reachability maps start on the surface under it ([`Level::start_feet`]).
    #[must_use]
    pub fn walker_feet(&self) -> Option<Vec3> {
        self.walker
            .as_ref()
            .map(|w| Vec3::new(w.position.x, w.height.unwrap_or(0.0), w.position.y))
    }

    /// The entities of types that say `must_reach: true`, with their index in [`Level::entities`], in file
    /// order.
    pub fn must_reach_entities(&self) -> impl Iterator<Item = (usize, &EntityObject)> + '_ {
        self.entities.iter().enumerate().filter(|(_, e)| {
            self.entity_type(&e.entity_type)
                .is_some_and(|t| t.must_reach)
        })
    }

    /// The reachability map of the level's character (its `character`, or the default) from the walker start
    /// in `scene` (built from this level): from the first supporting surface at or below the start's `height`
    /// (0 when absent) plus `max_step` ([`Level::start_feet`]), or from [`Level::walker_feet`] when nothing
    /// supports there (then [`ReachError::Start`] says why).
    ///
    /// # Errors
    /// [`ReachError::Start`] when the level has no walker start or the start is no place to stand (in the
    /// air, inside a wall); [`ReachError::Settings`] for a bad cell or character; [`ReachError::TooLarge`]
    /// when the map would have more columns than `settings.max_columns`.
    pub fn reach_map(
        &self,
        scene: &Scene,
        settings: &ReachSettings,
    ) -> Result<ReachMap, ReachError> {
        let start = self.walker_feet().ok_or_else(|| {
            ReachError::Start(
                "the level has no walker start, which reachability is measured from: add one (the editor's \
                 Walker start tool, K)"
                    .into(),
            )
        })?;
        // On the walker start's storey: the first supporting surface at or below its height plus max_step.
        let start = self.start_feet(scene).unwrap_or(start);
        ReachMap::try_build(scene, &self.character.unwrap_or_default(), start, settings)
    }

    /// Every entity of a `must_reach` type that `map` does not reach (an entity's position is its feet: it
    /// is reached when a reached place lies within one cell horizontally and `max_step` vertically), as an
    /// error at the entity: `entities[i]`, its id, and a message naming the limit in words and by kind:
    /// "unreachable from the walker start: riser 0.50 m is above max_step 0.35 m at (2.00, 0.50, 0.10)
    /// (StepTooHigh)". Entities of other types are never reported. Positions are filled in as
    /// [`Level::validate`] does. `map` is this level's ([`Level::reach_map`]).
    #[must_use]
    pub fn reach_problems(&self, map: &ReachMap) -> Vec<ReachProblem> {
        let ctl = map.controller();
        let mut out: Vec<ReachProblem> = self
            .must_reach_entities()
            .filter(|(_, e)| !map.reachable(e.position))
            .map(|(i, e)| {
                let feet = e.position;
                let blocker = map.blocker(feet);
                let can_stand = map.can_stand(feet);
                let why = match (&blocker, can_stand) {
                    (Some(b), _) => format!("{} ({})", b.describe(ctl), b.kind()),
                    (None, false) => format!(
                        "nowhere to stand within {} m across and max_step {:.2} m up or down of its position \
                         ({:.2}, {:.2}, {:.2}), which is taken as the character's feet: in the air, inside or \
                         against something, or on a surface steeper than {}° ({NOWHERE_TO_STAND})",
                        map.cell(),
                        ctl.max_step,
                        feet.x,
                        feet.y,
                        feet.z,
                        ctl.max_slope_deg
                    ),
                    // Not expected (every standable unreached place has a blocker), but said plainly.
                    (None, true) => "no way found to it (Unreached)".to_owned(),
                };
                ReachProblem {
                    problem: Problem {
                        severity: Severity::Error,
                        object: Some(e.id),
                        field: format!("entities[{i}]"),
                        message: format!("unreachable from the walker start: {why}"),
                        line: None,
                        col: None,
                    },
                    entity_type: e.entity_type.clone(),
                    feet,
                    blocker,
                    can_stand,
                }
            })
            .collect();
        let mut problems: Vec<Problem> = out.iter().map(|r| r.problem.clone()).collect();
        self.locate_problems(&mut problems);
        for (r, p) in out.iter_mut().zip(problems) {
            r.problem = p;
        }
        out
    }
}
