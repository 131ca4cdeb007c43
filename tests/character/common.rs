//! Levels and helpers shared by the character tests.

use collidoscope::character::{CharacterController, CharacterMove};
use collidoscope::glam::Vec3;
use collidoscope::level::Level;
use collidoscope::scene::Scene;

/// A scene from RON level text.
pub fn scene(ron: &str) -> Scene {
    Scene::from_level(&Level::from_ron_str(ron).unwrap()).unwrap()
}

/// Walk `moves` times by `motion` from `feet`, returning every move.
pub fn walk(
    c: &CharacterController,
    scene: &Scene,
    mut feet: Vec3,
    motion: Vec3,
    moves: usize,
) -> Vec<CharacterMove> {
    let mut out = Vec::with_capacity(moves);
    for _ in 0..moves {
        let m = c.move_character(scene, feet, motion);
        feet = m.feet;
        out.push(m);
    }
    out
}
