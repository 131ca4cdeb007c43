//! Reachability over whole maps: the regression of a rolling terrain where one standable place was neither
//! reached nor blocked, and the contract as a property over random terrains with crates sunk into them.

use collidoscope::character::{CharacterController, ReachMap, ReachSettings};
use collidoscope::glam::Vec3;
use collidoscope::level::Level;
use collidoscope::scene::Scene;

/// A 40 m rolling terrain mesh (0.5 m cells, slopes up to about 45°) with three flights of box stairs. From
/// the feet below, the default controller reached every neighbour of `(-12.85, -0.05, -14.37)` (a 38° slope)
/// but not that place, and `blocker` said nothing of it either.
#[test]
fn rolling_terrain_reach_has_no_place_neither_reached_nor_blocked() {
    let level = Level::from_ron_str(include_str!("data/rolling_terrain_reach.ron")).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let ctl = CharacterController::default();
    let start = Vec3::new(14.875, -0.041_392_058, -14.625);
    let map = ReachMap::try_build(&scene, &ctl, start, &ReachSettings::default()).unwrap();
    let at = Vec3::new(-12.85, -0.05, -14.37);
    assert!(map.can_stand(at));
    assert!(
        map.reachable(at),
        "blocker {:?}, stats {:?}",
        map.blocker(at),
        map.stats()
    );
    for dz in [-0.25f32, 0.0, 0.25] {
        for dx in [-0.25f32, 0.0, 0.25] {
            let p = at + Vec3::new(dx, 0.0, dz);
            assert!(map.reachable(p), "{p}");
        }
    }
}
