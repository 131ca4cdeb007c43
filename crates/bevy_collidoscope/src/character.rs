//! Characters: [`CharacterBody`] entities moved each fixed step through the current level, and the trigger
//! volumes they enter and leave as Bevy messages.

use bevy::prelude::*;
use collidoscope::character::{Body, BodyInput, CharacterController, CharacterMove, Limit};
use collidoscope::level::{Level, ObjectId};

use crate::scene::LevelScene;

/// A character moved by the plugin: each [`FixedUpdate`] step the plugin calls [`Body::step`] (the one
/// integrator the editor's Walk mode and the example game call too) with the game's [`BodyInput`] and the
/// level's gravity, and writes the feet to the [`Transform`]'s translation, which is the body's **feet**.
///
/// The game writes `input` (the wanted horizontal velocity, jump, crouch) each frame; `body` holds what the
/// step keeps: feet, velocity, grounded, crouching, the ground. A game that moves the [`Transform`] itself (a
/// teleport, a spawn point) moves the body there: a translation other than the body's feet is taken as the
/// feet before the next step. The body enters and leaves trigger volumes as [`TriggerEntered`] /
/// [`TriggerLeft`] messages.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(Transform, CharacterState)]
pub struct CharacterBody {
    /// The body's size and movement limits (a level's own: `level.character.unwrap_or_default()`).
    pub controller: CharacterController,
    /// What the game asks of the next step.
    pub input: BodyInput,
    /// The body's state between steps.
    pub body: Body,
}

impl Default for CharacterBody {
    fn default() -> Self {
        Self::new(CharacterController::default())
    }
}

impl CharacterBody {
    /// A body at rest with this controller (its feet are taken from its [`Transform`] at the first step).
    #[must_use]
    pub fn new(controller: CharacterController) -> Self {
        Self {
            controller,
            input: BodyInput::default(),
            body: Body::new(Vec3::ZERO),
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

/// [`FixedUpdate`]: every body stepped by [`Body::step`] with its input and the level's gravity (recorded
/// through [`LevelScene::step_body`]), its feet written to its translation. Bodies wait (no gravity either)
/// until a level is spawned.
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
    let gravity = scene.gravity();
    for (entity, mut character, mut transform, mut state) in &mut bodies {
        let CharacterBody {
            controller,
            input,
            body,
        } = &mut *character;
        if transform.translation != body.feet {
            // The game put the body somewhere (spawned or teleported it).
            body.feet = transform.translation;
        }
        let mv = scene.step_body(body, controller, input, gravity, dt);
        if let Some(Limit::Invalid { reason }) = &mv.limit
            && !state.warned
        {
            tracing::warn!("character {entity} does not move: {reason}");
            state.warned = true;
        }
        if transform.translation != body.feet {
            transform.translation = body.feet;
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
            .body
            .moving_controller(&body.controller)
            .capsule(transform.translation);
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
