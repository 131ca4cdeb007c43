//! Reachability over whole maps: the regression of a rolling terrain where one standable place was neither
//! reached nor blocked, and the contract as a property over random terrains with crates sunk into them.

use collidoscope::character::{CharacterController, ReachMap, ReachSettings};
use collidoscope::glam::Vec3;
use collidoscope::level::{Level, ObjectId};
use collidoscope::mesh::TriMesh;
use collidoscope::nav::{NavMap, NavSettings};
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::{Aabb, Ray};
use proptest::prelude::*;

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
    // And over the whole map: every place and every point between places.
    assert_eq!(map.self_check(), Vec::<Vec3>::new());
}

/// On the same terrain, a start where a body set down does not stay: on a 44° slope in the fold under a 49°
/// face, the body's gravity slides it down that face at once, so no move out of the place lands where the
/// same move aimed at its landing lands again. The map from there once reached its start alone (2 places of
/// 427 in these bounds, and the navigation found no path from it); it starts beside it, where a body stays,
/// and the navigation starts there too. (One of six such starts of the navigation bench's pairs.)
#[test]
fn rolling_terrain_start_where_a_body_does_not_stay() {
    let level = Level::from_ron_str(include_str!("data/rolling_terrain_reach.ron")).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let ctl = CharacterController::default();
    let from = Vec3::new(-17.742_594, -0.507_981_36, 4.007_405_3);
    let half = Vec3::new(3.0, 5.0, 3.0);
    let bounds = Aabb::new(from - half, from + half);
    let settings = ReachSettings {
        bounds: Some(bounds),
        ..ReachSettings::default()
    };
    let map = ReachMap::try_build(&scene, &ctl, from, &settings).unwrap();
    let to = Vec3::new(-18.367_594, -0.661_361_6, 1.632_405_3);
    assert!(
        map.reachable(to) && map.stats().reached > 200,
        "start {:?}, blocker {:?}, stats {:?}",
        map.start(),
        map.blocker(to),
        map.stats()
    );
    let path = map.path(to).unwrap();
    assert!(path[0].distance(from) <= 1.5 * settings.cell * std::f32::consts::SQRT_2);
    for w in path.windows(2) {
        let m = ctl.move_character(&scene, w[0], w[1] - w[0] + Vec3::NEG_Y * ctl.max_step);
        assert!(
            m.feet.distance(w[1]) <= ctl.skin + 1e-3,
            "{w:?}: {}",
            m.feet
        );
    }
    let nav = NavMap::build(
        &scene,
        &NavSettings {
            bounds: Some(bounds),
            jump: false,
            ..NavSettings::default()
        },
    );
    assert!(nav.path(0, from, to).is_some());
}

/// A random rolling terrain: a heightfield mesh of `n` by `n` cells of half a metre, its heights a sum of a few
/// waves scaled so the steepest triangle is `max_deg` from level, with crates (boxes) sunk into it.
fn terrain(
    n: usize,
    waves: &[(f32, f32, f32, f32)],
    max_deg: f32,
    crates: &[(f32, f32, f32, f32, f32)],
) -> Scene {
    let side = n as f32 * 0.5;
    let raw = |x: f32, z: f32| -> f32 {
        waves
            .iter()
            .map(|&(a, fx, fz, phase)| a * (fx * x + phase).sin() * (fz * z - phase).cos())
            .sum()
    };
    let mut vertices = Vec::with_capacity((n + 1) * (n + 1));
    for k in 0..=n {
        for i in 0..=n {
            let (x, z) = (i as f32 * 0.5 - side * 0.5, k as f32 * 0.5 - side * 0.5);
            vertices.push(Vec3::new(x, raw(x, z), z));
        }
    }
    let mut indices = Vec::with_capacity(n * n * 2);
    for k in 0..n as u32 {
        for i in 0..n as u32 {
            let a = k * (n as u32 + 1) + i;
            let (b, c, d) = (a + 1, a + n as u32 + 1, a + n as u32 + 2);
            indices.push([a, c, b]);
            indices.push([b, c, d]);
        }
    }
    // Scale the heights so the steepest triangle's slope is `max_deg`.
    let steepest = indices
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            let nrm = (b - a).cross(c - a).normalize();
            nrm.y.abs().acos()
        })
        .fold(0.0f32, f32::max);
    let scale = if steepest > 1e-3 {
        max_deg.to_radians().tan() / steepest.tan()
    } else {
        1.0
    };
    for v in &mut vertices {
        v.y *= scale;
    }
    let height = |x: f32, z: f32| raw(x, z) * scale;
    let mesh = TriMesh::new(vertices, indices).unwrap();
    let mut objects = vec![(ObjectId(1), Static::Mesh(mesh))];
    for (i, &(x, z, w, d, top)) in crates.iter().enumerate() {
        let (x, z) = (x * side * 0.4, z * side * 0.4);
        let ground = height(x, z);
        let crate_box = Aabb::new(
            Vec3::new(x - w, ground - 1.0, z - d),
            Vec3::new(x + w, ground + top, z + d),
        );
        objects.push((ObjectId(i as u32 + 2), Static::Aabb(crate_box)));
    }
    Scene::from_objects(objects)
}

proptest! {
    #![proptest_config(crate::guarantees::config(12))]

    /// Whole maps of random terrains (slopes up to 48°, so some are too steep) with crates sunk into them: every
    /// place can be stood on, and is reachable or has a blocker, never both, `reachable` as the place is marked;
    /// a reached place has a path; and every point half a cell off a place along its ground is reachable or
    /// blocked too ([`ReachMap::self_check`]).
    #[test]
    fn every_standable_place_of_a_terrain_is_reached_or_blocked(
        waves in proptest::collection::vec((0.2f32..1.5, 0.3f32..1.6, 0.3f32..1.6, 0.0f32..6.3), 1..4),
        max_deg in 15.0f32..48.0,
        crates in proptest::collection::vec(
            (-1.0f32..1.0, -1.0f32..1.0, 0.2f32..1.0, 0.2f32..1.0, 0.1f32..1.2), 0..5),
        start in (-2.0f32..2.0, -2.0f32..2.0),
    ) {
        let s = terrain(20, &waves, max_deg, &crates);
        let ctl = CharacterController::default();
        let ray = Ray::new(Vec3::new(start.0, 50.0, start.1), Vec3::NEG_Y);
        let Some(hit) = s.cast_ray(&ray, 100.0) else { return Ok(()) };
        let feet = ray.at(hit.t) + Vec3::Y * 0.05;
        // A start on a crate's side or a face too steep has nowhere to stand: an error, never a panic.
        let Ok(m) = ReachMap::try_build(&s, &ctl, feet, &ReachSettings::default()) else {
            return Ok(());
        };
        let mut places = 0;
        for (p, reached) in m.places() {
            places += 1;
            prop_assert!(m.can_stand(p), "{p}");
            let blocker = m.blocker(p);
            prop_assert!(m.reachable(p) != blocker.is_some(), "{p}: reached {reached}, {blocker:?}");
            // A place answers as it is marked, and a reached one has a path.
            prop_assert_eq!(m.reachable(p), reached, "{}", p);
            if reached {
                prop_assert!(m.path(p).is_some(), "{p}");
            }
        }
        prop_assert!(places > 0);
        let broken = m.self_check();
        prop_assert!(broken.is_empty(), "{} points, first {:?}", broken.len(), broken.first());
    }
}
