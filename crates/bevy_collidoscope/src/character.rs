//! Characters: [`CharacterBody`] entities moved each fixed step through the current level, and the trigger
//! volumes they enter and leave as Bevy messages.

use bevy::prelude::*;
use collidoscope::character::{CharacterController, CharacterMove, Limit};
use collidoscope::level::{Level, ObjectId};

use crate::convert::{ToBevy, ToCollidoscope};
use crate::scene::LevelScene;

/// A character moved by the plugin: each [`FixedUpdate`] step its velocity gets the level's gravity and the
/// controller moves its capsule through the current level (sliding along walls, climbing steps, walking
/// slopes, snapping down stairs), from its [`Transform`]'s translation, which is its **feet**.
///
/// The game owns the horizontal velocity (set it from input; the plugin keeps it as it is); the plugin owns
/// the vertical part: gravity is added every step, and it is cleared when the character lands (grounded and
/// falling) or hits a ceiling. Jump by setting `velocity.y` while `grounded`. The body enters and leaves
/// trigger volumes as [`TriggerEntered`] / [`TriggerLeft`] messages.
///
/// `velocity` is Bevy's `Vec3` (metres per second, world axes), like the `Transform` beside it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(Transform, CharacterState)]
pub struct CharacterBody {
    /// The body's size and movement limits (a level's own: `level.character.unwrap_or_default()`).
    pub controller: CharacterController,
    /// Metres per second.
    pub velocity: Vec3,
    /// Whether the last move ended on a supporting surface.
    pub grounded: bool,
}

impl Default for CharacterBody {
    fn default() -> Self {
        Self::new(CharacterController::default())
    }
}

impl CharacterBody {
    /// A body at rest with this controller.
    #[must_use]
    pub fn new(controller: CharacterController) -> Self {
        Self {
            controller,
            velocity: Vec3::ZERO,
            grounded: false,
        }
    }

    /// A body at rest with the level's player size and limits (`level.character`, or the default).
    #[must_use]
    pub fn for_level(level: &Level) -> Self {
        Self::new(level.character.unwrap_or_default())
    }
}

/// What the plugin last found for a [`CharacterBody`] (added with it): its last move and the trigger volumes
/// it is in.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct CharacterState {
    last_move: Option<CharacterMove>,
    triggers: Vec<ObjectId>,
    /// The controller's problem was logged (once, not every step).
    warned: bool,
}

impl CharacterState {
    /// The body's last move, with its workings (the ground, every surface met, steps climbed, the snap),
    /// in Collidoscope's types; `None` before its first step.
    #[must_use]
    pub fn last_move(&self) -> Option<&CharacterMove> {
        self.last_move.as_ref()
    }

    /// The trigger volumes the body was in after its last step, ids ascending.
    #[must_use]
    pub fn triggers(&self) -> &[ObjectId] {
        &self.triggers
    }
}

/// A [`CharacterBody`] started to touch a trigger volume (written in [`FixedUpdate`], read in `Update`).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TriggerEntered {
    /// The trigger's id in the level.
    pub trigger: ObjectId,
    /// The character's entity.
    pub entity: Entity,
}

/// A [`CharacterBody`] stopped touching a trigger volume (or the trigger went away in a reload).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TriggerLeft {
    /// The trigger's id in the level.
    pub trigger: ObjectId,
    /// The character's entity.
    pub entity: Entity,
}

/// [`FixedUpdate`]: every body moved by its velocity (gravity added first) through the current level; the
/// vertical speed is spent on landing and on a ceiling. Bodies wait (no gravity either) until a level is
/// spawned.
pub(crate) fn move_characters(
    time: Res<Time>,
    scene: LevelScene,
    mut bodies: Query<(
        Entity,
        &mut CharacterBody,
        &mut Transform,
        &mut CharacterState,
    )>,
) {
    let dt = time.delta_secs();
    if !scene.is_loaded() || dt <= 0.0 {
        return;
    }
    let gravity = scene.gravity().to_bevy();
    for (entity, mut body, mut transform, mut state) in &mut bodies {
        body.velocity += gravity * dt;
        let motion = body.velocity * dt;
        let mv = scene.move_character(
            &body.controller,
            transform.translation.to_collidoscope(),
            motion.to_collidoscope(),
        );
        if let Some(Limit::Invalid { reason }) = &mv.limit
            && !state.warned
        {
            tracing::warn!("character {entity} does not move: {reason}");
            state.warned = true;
        }
        transform.translation = mv.feet.to_bevy();
        body.grounded = mv.grounded;
        if mv.grounded && body.velocity.y < 0.0 {
            body.velocity.y = 0.0;
        }
        if body.velocity.y > 0.0 && mv.hits.iter().any(|h| h.normal.y < -0.5) {
            body.velocity.y = 0.0;
        }
        state.last_move = Some(mv);
    }
}

/// [`FixedUpdate`], after the moves: each body's capsule against the trigger volumes (exactly: see
/// [`LevelScene::triggers_at_capsule`]), compared with the step before.
pub(crate) fn character_triggers(
    scene: LevelScene,
    mut bodies: Query<(Entity, &CharacterBody, &Transform, &mut CharacterState)>,
    mut entered: MessageWriter<TriggerEntered>,
    mut left: MessageWriter<TriggerLeft>,
) {
    if !scene.is_loaded() {
        return;
    }
    for (entity, body, transform, mut state) in &mut bodies {
        let capsule = body
            .controller
            .capsule(transform.translation.to_collidoscope());
        let now = scene.triggers_at_capsule(&capsule);
        if now == state.triggers {
            continue;
        }
        for &trigger in state.triggers.iter().filter(|t| !now.contains(t)) {
            left.write(TriggerLeft { trigger, entity });
        }
        for &trigger in now.iter().filter(|t| !state.triggers.contains(t)) {
            entered.write(TriggerEntered { trigger, entity });
        }
        state.triggers = now;
    }
}
