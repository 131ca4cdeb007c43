//! Updating a map after an edit.

use super::NavMap;
use crate::scene::Scene;
use crate::shape::Aabb;

/// Rebuild what `changed` touched (see [`NavMap::update`]).
pub(super) fn update(map: &mut NavMap, scene: &Scene, changed: Aabb) {
    let _ = changed;
    let settings = map.settings.clone();
    *map = NavMap::build(scene, &settings);
}
