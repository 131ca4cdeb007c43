//! Navigation agents: bodies of two sizes steered along the map's paths up a stair and off a ledge, and an
//! unreachable target leaving the input at zero.

use bevy::prelude::*;
use bevy_collidoscope::collidoscope::character::BodyInput;
use bevy_collidoscope::*;

use crate::common::*;

/// A floor, a stair of four 0.3 m steps up to a 1.2 m platform across the whole floor, and a 1.2 m drop on
/// its far side (too high to climb or jump back up).
const STAIR_AND_DROP: &str = r#"(version: 3, name: "stair and drop",
    aabbs: [(id: 1, min: (-1.0, -0.5, -2.5), max: (11.0, 0.0, 2.5)),
             (id: 2, min: (2.0, 0.0, -2.5), max: (2.5, 0.3, 2.5)),
             (id: 3, min: (2.5, 0.0, -2.5), max: (3.0, 0.6, 2.5)),
             (id: 4, min: (3.0, 0.0, -2.5), max: (3.5, 0.9, 2.5)),
             (id: 5, min: (3.5, 0.0, -2.5), max: (7.0, 1.2, 2.5))])"#;

fn big() -> CharacterController {
    CharacterController {
        radius: 0.5,
        height: 2.2,
        ..CharacterController::default()
    }
}

fn spawn_level(app: &mut App, assets: &AssetDir) {
    std::fs::write(assets.path("levels/stair.ron"), STAIR_AND_DROP).unwrap();
    let root = spawn_root(app, "levels/stair.ron");
    update_until(app, "the stair level to spawn", |app| spawned(app, root));
}

fn spawn_agent(app: &mut App, c: CharacterController, agent: usize, at: Vec3, to: Vec3) -> Entity {
    app.world_mut()
        .spawn((
            CharacterBody::new(c),
            NavAgent { agent, target: to },
            Transform::from_translation(at),
        ))
        .id()
}

fn status(app: &App, e: Entity) -> NavStatus {
    app.world().get::<NavAgentState>(e).unwrap().status()
}

#[test]
fn agents_of_two_sizes_climb_the_stair_and_drop_to_their_targets() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    app.insert_resource(NavAgents::new(vec![CharacterController::default(), big()]));
    spawn_level(&mut app, &assets);
    let to = Vec3::new(9.0, 0.0, 0.5);
    let small = spawn_agent(
        &mut app,
        CharacterController::default(),
        0,
        Vec3::new(0.0, 0.01, 0.0),
        to,
    );
    let large = spawn_agent(&mut app, big(), 1, Vec3::new(0.0, 0.01, -1.0), to);
    // Back up the drop: no way (1.2 m, above the jump).
    let stuck = spawn_agent(
        &mut app,
        CharacterController::default(),
        0,
        Vec3::new(9.0, 0.01, -1.0),
        Vec3::new(0.0, 0.0, 0.0),
    );
    let mut top = [0.0f32; 2];
    // 60 Hz: the contract's time for an ~11 m path is 1.5 × 11 / 4 + 2 s ≈ 6 s.
    for _ in 0..400 {
        app.update();
        for (i, e) in [small, large].into_iter().enumerate() {
            top[i] = top[i].max(app.world().get::<Transform>(e).unwrap().translation.y);
        }
        if [small, large]
            .iter()
            .all(|&e| status(&app, e) == NavStatus::Arrived)
        {
            break;
        }
    }
    for (i, e) in [small, large].into_iter().enumerate() {
        let feet = app.world().get::<Transform>(e).unwrap().translation;
        assert_eq!(status(&app, e), NavStatus::Arrived, "agent {i} at {feet}");
        assert!(Vec2::new(feet.x - to.x, feet.z - to.z).length() <= 0.25 * 2f32.sqrt() + 1e-4);
        assert!(feet.y.abs() <= 0.35, "{feet}");
        // It went over the platform (the only way), not through it.
        assert!(top[i] > 1.1, "agent {i} never climbed: {}", top[i]);
        let path = app.world().get::<NavAgentState>(e).unwrap().path().unwrap();
        assert_eq!(path.links.len() + 1, path.points.len());
    }
    assert_eq!(status(&app, stuck), NavStatus::Unreachable);
    assert!(
        app.world()
            .get::<NavAgentState>(stuck)
            .unwrap()
            .path()
            .is_none()
    );
    assert_eq!(
        app.world().get::<CharacterBody>(stuck).unwrap().input,
        BodyInput::default()
    );
}

#[test]
fn a_moved_target_is_planned_again_and_no_map_means_no_input() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    spawn_level(&mut app, &assets);
    let to = Vec3::new(1.0, 0.0, 0.0);
    let e = spawn_agent(
        &mut app,
        CharacterController::default(),
        0,
        Vec3::new(0.0, 0.01, 0.0),
        to,
    );
    app.update();
    // No `NavAgents`: standing still, saying so.
    assert_eq!(status(&app, e), NavStatus::NoMap);
    assert_eq!(
        app.world().get::<CharacterBody>(e).unwrap().input,
        BodyInput::default()
    );

    app.insert_resource(NavAgents::default());
    app.update();
    assert_eq!(status(&app, e), NavStatus::Moving);
    let end = |app: &App| {
        *app.world()
            .get::<NavAgentState>(e)
            .unwrap()
            .path()
            .unwrap()
            .points
            .last()
            .unwrap()
    };
    assert!(end(&app).distance(to) < 0.5, "{}", end(&app));
    // A target moved less than a cell keeps the path; more plans again.
    app.world_mut().get_mut::<NavAgent>(e).unwrap().target = Vec3::new(1.1, 0.0, 0.0);
    app.update();
    assert!(end(&app).distance(to) < 0.5);
    let moved = Vec3::new(1.0, 0.0, 1.5);
    app.world_mut().get_mut::<NavAgent>(e).unwrap().target = moved;
    app.update();
    assert!(end(&app).distance(moved) < 0.5, "{}", end(&app));
    // An agent index out of range has no path.
    app.world_mut().get_mut::<NavAgent>(e).unwrap().agent = 5;
    app.update();
    assert_eq!(status(&app, e), NavStatus::Unreachable);
}

#[test]
fn a_reloaded_level_is_baked_again_and_the_agents_plan_again() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    app.insert_resource(NavAgents::default());
    spawn_level(&mut app, &assets);
    // Back over the platform from its far side: unreachable until a stair is built there.
    let e = spawn_agent(
        &mut app,
        CharacterController::default(),
        0,
        Vec3::new(9.5, 0.01, -1.0),
        Vec3::new(0.0, 0.0, 0.0),
    );
    app.update();
    assert_eq!(status(&app, e), NavStatus::Unreachable);
    let generation = app.world().resource::<NavAgents>().generation();

    let with_stair = STAIR_AND_DROP.replace(
        "])",
        r#",
             (id: 6, min: (7.0, 0.0, -2.5), max: (7.5, 0.9, 2.5)),
             (id: 7, min: (7.5, 0.0, -2.5), max: (8.0, 0.6, 2.5)),
             (id: 8, min: (8.0, 0.0, -2.5), max: (8.5, 0.3, 2.5))])"#,
    );
    let tmp = assets.path("levels/stair.ron.tmp");
    std::fs::write(&tmp, with_stair).unwrap();
    std::fs::rename(&tmp, assets.path("levels/stair.ron")).unwrap();
    update_until(&mut app, "the agent to plan over the new stair", |app| {
        status(app, e) == NavStatus::Moving
    });
    assert!(app.world().resource::<NavAgents>().generation() > generation);
    assert!(
        app.world()
            .resource::<NavAgents>()
            .map()
            .unwrap()
            .error()
            .is_none()
    );
}
