//! `LevelScene`: the current level's scene as a system parameter, answering exactly as `Scene` does.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collidoscope::collidoscope::glam;
use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::collidoscope::scene::Scene;
use bevy_collidoscope::collidoscope::shape::{Capsule, Ray, Sphere};
use bevy_collidoscope::*;

use crate::common::*;

/// Every query of `LevelScene` at a few places, as plain values.
#[derive(Debug, PartialEq)]
struct Answers {
    rays: Vec<Option<SceneHit>>,
    sweeps: Vec<Option<SceneToi>>,
    overlaps: Vec<Vec<ObjectId>>,
    slides: Vec<glam::Vec2>,
    triggers: Vec<Vec<ObjectId>>,
    capsule_triggers: Vec<Vec<ObjectId>>,
    capsule_sweeps: Vec<Option<SceneToi>>,
    capsule_overlaps: Vec<Vec<ObjectId>>,
}

/// The capsule queries of a scene (or of `LevelScene`).
type CapsuleQueries<'a> = (
    &'a dyn Fn(&Capsule, glam::Vec3) -> Option<SceneToi>,
    &'a dyn Fn(&Capsule) -> Vec<ObjectId>,
);

fn places() -> Vec<glam::Vec3> {
    (0..40)
        .map(|i| {
            // Alternately near the walls and near the fountain.
            let (a, r) = (i as f32 * 0.7, if i % 2 == 0 { 1.0 } else { 0.3 });
            glam::Vec3::new(
                12.0 * r * a.cos(),
                0.2 + (i % 5) as f32 * 0.5,
                9.0 * r * a.sin(),
            )
        })
        .collect()
}

fn answers_of(
    cast: impl Fn(&Ray, f32) -> Option<SceneHit>,
    sweep: impl Fn(&Sphere, glam::Vec3) -> Option<SceneToi>,
    overlap: impl Fn(&Sphere) -> Vec<ObjectId>,
    slide: impl Fn(glam::Vec2, f32, glam::Vec2) -> glam::Vec2,
    triggers: impl Fn(&Sphere) -> Vec<ObjectId>,
    capsule_triggers: impl Fn(&Capsule) -> Vec<ObjectId>,
    (capsule_sweep, capsule_overlap): CapsuleQueries,
) -> Answers {
    let capsule = |v: glam::Vec3, r: f32| Capsule::new(v, v + glam::Vec3::Y * 1.2, r);
    let p = places();
    let dir = |v: glam::Vec3| glam::Vec3::new(-v.z, -0.05, v.x).normalize_or(glam::Vec3::X);
    Answers {
        rays: p
            .iter()
            .map(|v| cast(&Ray::new(*v, dir(*v)), 30.0))
            .collect(),
        sweeps: p
            .iter()
            .map(|v| sweep(&Sphere::new(*v, 0.4), dir(*v) * 8.0))
            .collect(),
        overlaps: p.iter().map(|v| overlap(&Sphere::new(*v, 1.5))).collect(),
        slides: p
            .iter()
            .map(|v| slide(glam::Vec2::new(v.x, v.z), 0.3, glam::Vec2::new(5.0, -3.0)))
            .collect(),
        triggers: p.iter().map(|v| triggers(&Sphere::new(*v, 2.0))).collect(),
        capsule_triggers: p
            .iter()
            .map(|v| capsule_triggers(&capsule(*v, 1.0)))
            .collect(),
        capsule_sweeps: p
            .iter()
            .map(|v| capsule_sweep(&capsule(*v, 0.3), dir(*v) * 8.0))
            .collect(),
        capsule_overlaps: p
            .iter()
            .map(|v| capsule_overlap(&capsule(*v, 1.0)))
            .collect(),
    }
}

#[test]
fn level_scene_answers_as_the_levels_scene_and_empty_before_a_level() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    let through_param = |app: &mut App| {
        app.world_mut()
            .run_system_once(|scene: LevelScene| {
                answers_of(
                    |r, t| scene.cast_ray(r, t),
                    |s, m| scene.sweep_sphere(s, m),
                    |s| scene.overlap_sphere(s),
                    |f, r, m| scene.move_and_slide(f, r, m),
                    |s| scene.triggers_at(s),
                    |c| scene.triggers_at_capsule(c),
                    (&|c, m| scene.sweep_capsule(c, m), &|c| {
                        scene.overlap_capsule(c)
                    }),
                )
            })
            .unwrap()
    };
    // Before any level: nothing is there.
    let empty = through_param(&mut app);
    assert!(empty.rays.iter().all(Option::is_none));
    assert!(empty.overlaps.iter().all(Vec::is_empty));
    assert!(empty.triggers.iter().all(Vec::is_empty));
    assert_eq!(
        empty.slides,
        places()
            .iter()
            .map(|v| glam::Vec2::new(v.x + 5.0, v.z - 3.0))
            .collect::<Vec<_>>()
    );

    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    let got = through_param(&mut app);
    let scene = Scene::from_level(&Level::from_ron_str(COURTYARD).unwrap()).unwrap();
    let want = answers_of(
        |r, t| scene.cast_ray(r, t),
        |s, m| scene.sweep_sphere(s, m),
        |s| scene.overlap_sphere(s),
        |f, r, m| scene.move_and_slide(f, r, m),
        |s| scene.triggers_at(s),
        // A capsule touches a trigger exactly when some sphere along its axis does: sampled finely, the
        // same set (the sampled spheres can only miss, never add).
        |c| {
            let mut ids: Vec<ObjectId> = (0..=200)
                .flat_map(|i| {
                    scene.triggers_at(&Sphere::new(c.a.lerp(c.b, i as f32 / 200.0), c.radius))
                })
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        },
        (&|c, m| scene.sweep_capsule(c, m), &|c| {
            scene.overlap_capsule(c)
        }),
    );
    assert_eq!(got, want);
    // The places meet something of each kind.
    assert!(got.rays.iter().flatten().count() > 10);
    assert!(got.sweeps.iter().flatten().count() > 5);
    assert!(got.triggers.iter().any(|t| !t.is_empty()));
    assert!(got.capsule_triggers.iter().any(|t| !t.is_empty()));
    assert!(got.capsule_sweeps.iter().flatten().count() > 5);
    assert!(got.capsule_overlaps.iter().any(|t| !t.is_empty()));

    let (loaded, is_root, gravity) = app
        .world_mut()
        .run_system_once(move |scene: LevelScene| {
            (
                scene.is_loaded(),
                scene.root() == Some(root),
                scene.gravity(),
            )
        })
        .unwrap();
    assert!(loaded && is_root);
    assert_eq!(gravity, glam::Vec3::new(0.0, -9.81, 0.0));
}

#[test]
fn the_newest_root_is_the_current_level() {
    let assets = AssetDir::new();
    std::fs::write(
        assets.path("levels/box.ron"),
        r#"(version: 2, name: "box", aabbs: [(id: 77, min: (-1.0, -1.0, -1.0), max: (1.0, 1.0, 1.0))])"#,
    )
    .unwrap();
    let mut app = app(assets.root());
    let first = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard", |app| spawned(app, first));
    let name = |app: &mut App| {
        app.world_mut()
            .run_system_once(|scene: LevelScene| scene.level().map(|l| l.name.clone()))
            .unwrap()
    };
    assert_eq!(name(&mut app).as_deref(), Some("courtyard"));
    let second = spawn_root(&mut app, "levels/box.ron");
    update_until(&mut app, "the box", |app| spawned(app, second));
    assert_eq!(name(&mut app).as_deref(), Some("box"));
    // The newest root gone: the one before it is current again.
    app.world_mut().entity_mut(second).despawn();
    app.update();
    assert_eq!(name(&mut app).as_deref(), Some("courtyard"));
}
