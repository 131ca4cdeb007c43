//! Many bodies stepped at once: [`step_bodies`], on every core with the runtime's `parallel` feature.
//!
//! Each body's step is its own [`Body::step`] (bodies never meet each other: the scene is static geometry),
//! so stepping them on several threads gives the same bits as stepping them one after another, in any order.

use glam::Vec3;

use super::body::Step;
use super::{Body, BodyInput, CharacterController, CharacterMove};
use crate::scene::Scene;

/// Why [`step_bodies`] refused its arguments.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepBodiesError {
    /// `controllers` is neither one for all the bodies nor one per body.
    #[error("{controllers} controllers for {bodies} bodies: give one for all, or one per body")]
    Controllers {
        /// Controllers given.
        controllers: usize,
        /// Bodies given.
        bodies: usize,
    },
    /// `inputs` is neither one for all the bodies nor one per body.
    #[error("{inputs} inputs for {bodies} bodies: give one for all, or one per body")]
    Inputs {
        /// Inputs given.
        inputs: usize,
        /// Bodies given.
        bodies: usize,
    },
}

/// Bodies per task handed to a thread: enough moves to outweigh the hand-over, few enough that both cores get
/// work with a few hundred bodies.
#[cfg(feature = "parallel")]
const CHUNK: usize = 32;

/// One [`Body::step`] of `dt` seconds for every body, each with its controller and its input (`controllers` and
/// `inputs` each hold one for all the bodies, or one per body), under `gravity`. With the `parallel` feature
/// the bodies are shared among all cores (rayon); the result is the same bits either way. Each body keeps what
/// a step keeps (feet, velocity, grounded, crouching, ground); the moves are made untraced
/// ([`super::CharacterController::move_character_untraced`]: the same answers, no workings recorded), so a game
/// that wants a move's workings calls [`Body::step`] itself.
///
/// ```
/// use collidoscope::character::{Body, BodyInput, CharacterController, step_bodies};
/// use collidoscope::{glam::{Vec2, Vec3}, level::Level, scene::Scene};
/// let level = Level::from_ron_str("(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)])")?;
/// let scene = Scene::from_level(&level)?;
/// let mut crowd: Vec<Body> = (0..100).map(|i| Body::new(Vec3::new(i as f32, 0.01, 0.0))).collect();
/// let walk = BodyInput { wish: Vec2::new(0.0, 2.0), ..BodyInput::default() };
/// for _ in 0..60 {
///     step_bodies(&scene, &[CharacterController::default()], &[walk], &mut crowd,
///                 Vec3::new(0.0, -9.81, 0.0), 1.0 / 60.0)?;
/// }
/// assert!(crowd.iter().all(|b| b.grounded && b.feet.z > 1.9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn step_bodies(
    scene: &Scene,
    controllers: &[CharacterController],
    inputs: &[BodyInput],
    bodies: &mut [Body],
    gravity: Vec3,
    dt: f32,
) -> Result<(), StepBodiesError> {
    let n = bodies.len();
    let one_or_each = |len: usize| len == n || (len == 1 && n > 0) || (n == 0);
    if !one_or_each(controllers.len()) {
        return Err(StepBodiesError::Controllers {
            controllers: controllers.len(),
            bodies: n,
        });
    }
    if !one_or_each(inputs.len()) {
        return Err(StepBodiesError::Inputs {
            inputs: inputs.len(),
            bodies: n,
        });
    }
    // Each body's move is made untraced into one answer kept per run of bodies: nobody asks for the workings
    // here, so none are recorded, and only a run's first move allocates (its answer's lists).
    let step = |i: usize, body: &mut Body, out: &mut CharacterMove| {
        let step = Step {
            controller: &controllers[if controllers.len() == 1 { 0 } else { i }],
            scene,
            input: &inputs[if inputs.len() == 1 { 0 } else { i }],
            gravity,
            dt,
        };
        body.step_into(
            &step,
            |c, feet, motion, clear, out| c.move_untraced_from(scene, feet, motion, clear, out),
            out,
        );
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        bodies.par_chunks_mut(CHUNK).enumerate().for_each_init(
            CharacterMove::default,
            |out, (k, chunk)| {
                for (j, body) in chunk.iter_mut().enumerate() {
                    step(k * CHUNK + j, body, out);
                }
            },
        );
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut out = CharacterMove::default();
        for (i, body) in bodies.iter_mut().enumerate() {
            step(i, body, &mut out);
        }
    }
    Ok(())
}
