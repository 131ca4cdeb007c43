//! Game data in levels (format version 2): the migration chain with a golden file per version, typed access
//! (`entities_of`, `entity_field`, `fields_as`), and every validation problem of entity types, entities and
//! triggers.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;

use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{
    EntityObject, FieldKind, LEVEL_VERSION, Level, ObjectId, Severity, TriggerShape, Value,
};

fn golden(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(name),
    )
    .unwrap()
}

#[test]
fn every_version_migrates_to_the_current_one() {
    assert_eq!(LEVEL_VERSION, 3);
    let v0 = Level::from_ron_str(&golden("v0.ron")).unwrap();
    let v1 = Level::from_ron_str(&golden("v1.ron")).unwrap();
    let v2 = Level::from_ron_str(&golden("v2.ron")).unwrap();
    // The geometry is the same in all three; v0 numbers its objects from 1, as v1 does by hand.
    for old in [&v0, &v1] {
        assert_eq!(old.walls, v2.walls);
        assert_eq!(old.balls, v2.balls);
        assert!(old.entity_types.is_empty() && old.entities.is_empty() && old.triggers.is_empty());
        // Saved, an old level is a version 3 file that reads back the same.
        let text = old.to_ron_string();
        assert!(text.contains("version: 3,"), "{text}");
        assert_eq!(&Level::from_ron_str(&text).unwrap(), old);
    }
    // Version 2 is canonical: loading and saving gives the same bytes, but for the version written (3).
    assert_eq!(
        v2.to_ron_string(),
        golden("v2.ron").replace("version: 2,", "version: 3,")
    );
    assert_eq!(v2.entity_types.len(), 3);
    assert_eq!(v2.entities.len(), 3);
    assert_eq!(v2.triggers.len(), 3);
    assert!(v2.validate().is_empty(), "{:?}", v2.validate());
    // Game data in a version 1 file is an unknown field, named with its position.
    let e = Level::from_ron_str("(version: 1, entities: [])")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("1:14:") && e.contains("entities"), "{e}");
}

#[test]
fn typed_access_fills_defaults_and_reads_into_game_structs() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    enum Team {
        #[serde(rename = "red")]
        Red,
        #[serde(rename = "blue")]
        Blue,
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Spawn {
        team: Team,
        health: f64,
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Switch {
        opens: ObjectId,
        label: Option<String>,
        presses: i64,
        aim: (f32, f32, f32),
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Door {
        locked: bool,
        tint: (u8, u8, u8, u8),
    }
    let level = Level::from_ron_str(&golden("v2.ron")).unwrap();
    let spawn = level.entities_of("spawn").next().unwrap();
    assert_eq!(spawn.id, ObjectId(12));
    assert_eq!(
        level.entity_field(spawn, "team"),
        Some(&Value::Enum("red".into()))
    );
    assert_eq!(
        level.entity_field(spawn, "health"),
        Some(&Value::Float(100.0))
    );
    assert_eq!(level.entity_field(spawn, "nothing"), None);
    assert_eq!(
        spawn.fields_as::<Spawn>(&level).unwrap(),
        Spawn {
            team: Team::Red,
            health: 100.0
        }
    );
    let switch = level.entities_of("switch").next().unwrap();
    assert_eq!(
        switch.fields_as::<Switch>(&level).unwrap(),
        Switch {
            opens: ObjectId(14),
            label: Some("open".into()),
            presses: 3,
            aim: (0.0, 1.0, 0.0)
        }
    );
    let door = level.entities_of("door").next().unwrap();
    assert_eq!(
        door.fields_as::<Door>(&level).unwrap(),
        Door {
            locked: false,
            tint: (255, 0, 0, 255)
        }
    );
    assert_eq!(
        door.properties.get("sound"),
        Some(&Value::Text("creak".into()))
    );
    assert_eq!(level.entities_of("nobody").count(), 0);

    // Errors name the entity and the field.
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        health: String,
    }
    let e = spawn.fields_as::<Wrong>(&level).unwrap_err().to_string();
    assert!(
        e.contains("entities[0].fields.health") && e.contains("entity #12"),
        "{e}"
    );
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Missing {
        speed: f64,
    }
    let e = spawn.fields_as::<Missing>(&level).unwrap_err().to_string();
    assert!(e.contains("speed") && e.contains("entities[0]"), "{e}");
}

/// `(field, message)` of each problem found.
type Found = Vec<(String, String)>;

/// The v2 golden level with one change, and the problems validation finds.
fn problems_after(change: impl FnOnce(&mut Level)) -> Found {
    let mut level = Level::from_ron_str(&golden("v2.ron")).unwrap();
    change(&mut level);
    level
        .validate()
        .into_iter()
        .inspect(|p| assert_eq!(p.severity, Severity::Error, "{p}"))
        .map(|p| (p.field, p.message))
        .collect()
}

fn entity(level: &mut Level, id: u32) -> &mut EntityObject {
    level
        .entities
        .iter_mut()
        .find(|e| e.id == ObjectId(id))
        .unwrap()
}

#[test]
fn every_game_data_problem_is_found_with_its_field() {
    let cases: Vec<(Found, &str, &str)> = vec![
        (
            problems_after(|l| entity(l, 15).entity_type = "lever".into()),
            "entities[2].entity_type",
            "unknown entity type \"lever\"",
        ),
        (
            problems_after(|l| {
                entity(l, 12).fields.remove("team");
            }),
            "entities[0].fields.team",
            "required field \"team\" is missing",
        ),
        (
            problems_after(|l| {
                entity(l, 12)
                    .fields
                    .insert("team".into(), Value::Text("red".into()));
            }),
            "entities[0].fields.team",
            "is Text but the field is Enum",
        ),
        (
            problems_after(|l| {
                entity(l, 12)
                    .fields
                    .insert("health".into(), Value::Float(150.0));
            }),
            "entities[0].fields.health",
            "above the maximum 100",
        ),
        (
            problems_after(|l| {
                entity(l, 15)
                    .fields
                    .insert("presses".into(), Value::Int(-1));
            }),
            "entities[2].fields.presses",
            "below the minimum 0",
        ),
        (
            problems_after(|l| {
                entity(l, 12)
                    .fields
                    .insert("team".into(), Value::Enum("green".into()));
            }),
            "entities[0].fields.team",
            "\"green\" is not one of the listed values",
        ),
        (
            problems_after(|l| {
                entity(l, 15)
                    .fields
                    .insert("opens".into(), Value::Ref(ObjectId(99)));
            }),
            "entities[2].fields.opens",
            "refers to #99, which is not in the level",
        ),
        (
            problems_after(|l| {
                entity(l, 15)
                    .fields
                    .insert("opens".into(), Value::Ref(ObjectId(12)));
            }),
            "entities[2].fields.opens",
            "a \"spawn\" entity, not a \"door\"",
        ),
        (
            problems_after(|l| {
                entity(l, 15)
                    .fields
                    .insert("opens".into(), Value::Ref(ObjectId(1)));
            }),
            "entities[2].fields.opens",
            "which is not a \"door\" entity",
        ),
        (
            problems_after(|l| {
                entity(l, 15)
                    .fields
                    .insert("speed".into(), Value::Float(1.0));
            }),
            "entities[2].fields.speed",
            "type \"switch\" has no field \"speed\"",
        ),
        (
            problems_after(|l| {
                let mut e = l.entities[0].clone();
                e.id = ObjectId(40);
                l.entities.push(e);
            }),
            "entity_types[0].max_count",
            "2 \"spawn\" entities, more than the maximum 1",
        ),
        (
            problems_after(|l| {
                l.entities.remove(0);
            }),
            "entity_types[0].min_count",
            "0 \"spawn\" entities, fewer than the minimum 1",
        ),
        (
            problems_after(|l| l.entity_types[1].name = "spawn".into()),
            "entity_types[1].name",
            "type \"spawn\" is defined twice",
        ),
        (
            problems_after(|l| {
                let f = l.entity_types[0].fields[0].clone();
                l.entity_types[0].fields.push(f);
            }),
            "entity_types[0].fields[2].name",
            "field \"team\" is defined twice",
        ),
        (
            problems_after(|l| l.entity_types[0].fields[1].default = Some(Value::Float(-5.0))),
            "entity_types[0].fields[1].default",
            "the default -5 is below the minimum 0",
        ),
        (
            problems_after(|l| {
                l.entity_types[0].fields[1].kind = FieldKind::Float {
                    min: Some(5.0),
                    max: Some(1.0),
                }
            }),
            "entity_types[0].fields[1].kind",
            "min 5 is above max 1",
        ),
        (
            problems_after(|l| {
                l.entity_types[0].min_count = Some(3);
                l.entity_types[0].max_count = Some(2);
            }),
            "entity_types[0].min_count",
            "min_count 3 is above max_count 2",
        ),
        (
            problems_after(|l| {
                l.triggers[2].shape = TriggerShape::Prism {
                    points: vec![Vec2::ZERO, Vec2::X],
                    bottom: 0.0,
                    top: 1.0,
                }
            }),
            "triggers[2].shape",
            "at least 3 points",
        ),
        (
            problems_after(|l| {
                l.triggers[2].shape = TriggerShape::Prism {
                    points: vec![Vec2::ZERO, Vec2::X, Vec2::Y],
                    bottom: 2.0,
                    top: 1.0,
                }
            }),
            "triggers[2].shape",
            "bottom is above its top",
        ),
        (
            problems_after(|l| {
                l.triggers[2].shape = TriggerShape::Prism {
                    points: vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)],
                    bottom: 0.0,
                    top: 1.0,
                }
            }),
            "triggers[2].shape",
            "encloses no area",
        ),
        (
            problems_after(|l| {
                l.triggers[0].shape =
                    TriggerShape::Aabb(collidoscope::shape::Aabb::new(Vec3::ONE, Vec3::ZERO))
            }),
            "triggers[0].shape",
            "min <= max",
        ),
        (
            problems_after(|l| {
                l.triggers[1].shape =
                    TriggerShape::Sphere(collidoscope::shape::Sphere::new(Vec3::ZERO, 0.0))
            }),
            "triggers[1].shape",
            "radius > 0",
        ),
        (
            problems_after(|l| l.triggers[1].id = ObjectId(12)),
            "triggers[1]",
            "duplicate",
        ),
        (
            problems_after(|l| entity(l, 12).position = Vec3::NAN),
            "entities[0].position",
            "finite",
        ),
    ];
    for (found, field, message) in cases {
        assert!(
            found
                .iter()
                .any(|(f, m)| f.starts_with(field) && m.contains(message)),
            "wanted {field}: {message}; found {found:?}"
        );
    }
    // An unknown trigger shape is refused by the reader, at its position and field.
    let text = golden("v2.ron").replace("Sphere((center", "Cone((center");
    let e = Level::from_ron_str(&text).unwrap_err().to_string();
    assert!(e.contains("triggers[1].shape") && e.contains("Cone"), "{e}");
}

#[test]
fn game_data_survives_the_editor_style_round_trip() {
    let mut level = Level::default();
    level.entity_types.push(collidoscope::level::EntityType {
        name: "pickup".into(),
        color: Some((255, 200, 0)),
        min_count: None,
        max_count: None,
        must_reach: false,
        fields: vec![collidoscope::level::FieldDef {
            name: "amount".into(),
            kind: FieldKind::Int {
                min: Some(1),
                max: None,
            },
            required: false,
            default: Some(Value::Int(10)),
        }],
    });
    level.entities.push(EntityObject {
        id: ObjectId(1),
        name: Some("coin".into()),
        entity_type: "pickup".into(),
        position: Vec3::new(1.0, 0.5, -2.0),
        yaw_deg: 0.0,
        fields: BTreeMap::new(),
        properties: BTreeMap::from([("glint".to_owned(), Value::Bool(true))]),
    });
    let text = level.to_ron_string();
    assert_eq!(Level::from_ron_str(&text).unwrap(), level);
    assert_eq!(level.next_id(), ObjectId(2));
    assert!(level.validate().is_empty());
}

/// A world of one ball (no gravity) and the given triggers and planes, from RON.
fn trigger_world(extra: &str, velocity: f32) -> collidoscope::sim::World {
    let text = format!(
        "(version: 2, simulation: (gravity: (0.0, 0.0, 0.0), dt: 0.1),
          balls: [(id: 1, center: (0.0, 1.0, 0.0), velocity: ({velocity}, 0.0, 0.0), radius: 0.5, mass: 1.0, restitution: 1.0)],
          {extra})"
    );
    collidoscope::sim::World::from_level(&Level::from_ron_str(&text).unwrap()).unwrap()
}

/// Every trigger event over `steps` steps of `dt`, as (absolute time, trigger id, entered).
fn run_triggers(
    world: &mut collidoscope::sim::World,
    steps: usize,
    dt: f32,
) -> Vec<(f64, u32, bool)> {
    let mut out = Vec::new();
    for k in 0..steps {
        let report = world.step(dt);
        for e in &report.triggers {
            assert!((0.0..=dt).contains(&e.time));
            out.push((
                k as f64 * f64::from(dt) + f64::from(e.time),
                e.trigger.0,
                e.entered,
            ));
        }
    }
    out
}

fn close(got: &[(f64, u32, bool)], want: &[(f64, u32, bool)]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g.0 - w.0).abs() < 1e-5 && g.1 == w.1 && g.2 == w.2,
            "{got:?} vs {want:?}"
        );
    }
}

#[test]
fn trigger_events_have_the_exact_times() {
    // A ball of radius 0.5 at 10 m/s along x through a box x in [4, 6]: it touches from x = 3.5 to x = 6.5,
    // so it enters at 0.35 s and leaves at 0.65 s (inside the 4th and 7th steps of 0.1 s).
    let mut w = trigger_world(
        "triggers: [(id: 7, shape: Aabb((min: (4.0, 0.0, -1.0), max: (6.0, 2.0, 1.0))))]",
        10.0,
    );
    close(
        &run_triggers(&mut w, 10, 0.1),
        &[(0.35, 7, true), (0.65, 7, false)],
    );

    // A sphere trigger of radius 1 at x = 5: centres within 1.5, x from 3.5 to 6.5, the same times.
    let mut w = trigger_world(
        "triggers: [(id: 8, shape: Sphere((center: (5.0, 1.0, 0.0), radius: 1.0)))]",
        10.0,
    );
    close(
        &run_triggers(&mut w, 10, 0.1),
        &[(0.35, 8, true), (0.65, 8, false)],
    );

    // A bounce inside one step: a wall plane at x = 10 sends the ball back; the trigger x in [8, 9.9] is
    // entered at x = 7.5 (0.75 s), the ball touches the plane at x = 9.5 (0.95 s) and leaves the trigger
    // going back through x = 7.5 at 0.95 + 0.2 = 1.15 s, all in one 2 s step.
    let mut w = trigger_world(
        "planes: [(id: 2, normal: (-1.0, 0.0, 0.0), d: -10.0)],
         triggers: [(id: 9, shape: Aabb((min: (8.0, 0.0, -1.0), max: (9.9, 2.0, 1.0))))]",
        10.0,
    );
    close(
        &run_triggers(&mut w, 1, 2.0),
        &[(0.75, 9, true), (1.15, 9, false)],
    );

    // A U-shaped prism (a non-convex outline, cut into triangles): crossed along its closed bottom it is one
    // overlap; crossed through its two arms it is entered and left twice.
    let mut w = trigger_world(
        "triggers: [(id: 10, shape: Prism(points: [(1.0, -1.0), (4.0, -1.0), (4.0, 2.0), (3.0, 2.0), (3.0, 0.5), \
         (2.0, 0.5), (2.0, 2.0), (1.0, 2.0)], bottom: 0.0, top: 2.0))]",
        10.0,
    );
    // The ball's centre path z = 0 crosses the U's closed bottom (z in [-1, 0.5]) everywhere from x = 1 to 4:
    // one long overlap, x from 0.5 to 4.5.
    close(
        &run_triggers(&mut w, 10, 0.1),
        &[(0.05, 10, true), (0.45, 10, false)],
    );
    let mut w = collidoscope::sim::World::from_level(
        &Level::from_ron_str(
            "(version: 2, simulation: (gravity: (0.0, 0.0, 0.0), dt: 0.1),
              balls: [(id: 1, center: (0.0, 1.0, 1.5), velocity: (10.0, 0.0, 0.0), radius: 0.25, mass: 1.0, restitution: 1.0)],
              triggers: [(id: 10, shape: Prism(points: [(1.0, -1.0), (4.0, -1.0), (4.0, 2.0), (3.0, 2.0), (3.0, 0.5),
                 (2.0, 0.5), (2.0, 2.0), (1.0, 2.0)], bottom: 0.0, top: 2.0))])",
        )
        .unwrap(),
    )
    .unwrap();
    // At z = 1.5 only the arms: x from 0.75 to 2.25 and from 2.75 to 4.25.
    close(
        &run_triggers(&mut w, 10, 0.1),
        &[
            (0.075, 10, true),
            (0.225, 10, false),
            (0.275, 10, true),
            (0.425, 10, false),
        ],
    );
}

#[test]
fn a_ball_that_starts_inside_enters_at_zero_and_step_back_keeps_the_state() {
    let mut w = trigger_world(
        "triggers: [(id: 7, shape: Aabb((min: (-1.0, 0.0, -1.0), max: (1.0, 2.0, 1.0))))]",
        10.0,
    );
    let first = w.step(0.1);
    assert_eq!(first.triggers.len(), 1);
    assert!(first.triggers[0].entered && first.triggers[0].time == 0.0);
    // Inside for x up to 1.5: leaves at 0.15 s, in the second step at 0.05.
    let snap = w.snapshot();
    let second = w.step(0.1);
    assert_eq!(second.triggers.len(), 1);
    assert!(!second.triggers[0].entered && (second.triggers[0].time - 0.05).abs() < 1e-6);
    w.restore(&snap);
    assert_eq!(w.step(0.1).triggers, second.triggers);
}

#[test]
fn scene_reports_the_triggers_a_mover_is_in() {
    let level = Level::from_ron_str(&golden("v2.ron")).unwrap();
    let scene = collidoscope::scene::Scene::from_level(&level).unwrap();
    let at = |x: f32, y: f32, z: f32, r: f32| {
        scene.triggers_at(&collidoscope::shape::Sphere::new(Vec3::new(x, y, z), r))
    };
    assert_eq!(at(9.0, 1.0, 0.0, 0.1), vec![ObjectId(13)]);
    assert_eq!(at(0.0, 1.0, 5.0, 0.1), vec![ObjectId(16)]);
    assert_eq!(at(1.0, 1.0, 0.5, 0.1), vec![ObjectId(17)]); // inside the prism's triangle
    assert_eq!(at(1.0, 3.2, 0.5, 0.25), vec![ObjectId(17)]); // touching its top from above
    assert!(at(1.0, 3.3, 0.5, 0.25).is_empty());
    assert!(at(20.0, 1.0, 0.0, 1.0).is_empty());
    // Triggers are not obstacles.
    assert!(
        scene
            .cast_ray(
                &collidoscope::shape::Ray::new(Vec3::new(9.0, 1.0, -5.0), Vec3::Z),
                10.0
            )
            .is_none()
    );
}

#[test]
fn problems_carry_the_line_and_column_of_their_field() {
    let text = golden("v2.ron").replace(r#""team": Enum("red")"#, r#""team": Enum("green")"#);
    let level = Level::from_ron_str(&text).unwrap();
    let problems = level.validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert_eq!(p.field, "entities[0].fields.team");
    let (line, col) = (p.line.unwrap() as usize, p.col.unwrap() as usize);
    let at: String = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .chars()
        .skip(col - 1)
        .collect();
    assert!(at.starts_with(r#""team": Enum("green")"#), "{at}");
    // A level built in code has no positions; an edited one keeps them only where the object is unchanged.
    let mut edited = level.clone();
    edited.entities.swap(0, 1);
    let moved = edited.validate();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].field, "entities[1].fields.team");
    assert_eq!((moved[0].line, moved[0].col), (None, None));
    let built = Level {
        source: collidoscope::level::Source::none(),
        ..level
    };
    assert!(built.validate().iter().all(|p| p.line.is_none()));
}

#[test]
fn every_object_carries_free_form_properties() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/courtyard.ron");
    let level = Level::load(&path).unwrap();
    let north = level.walls.iter().find(|w| w.id == ObjectId(3)).unwrap();
    assert_eq!(north.properties.get("glass"), Some(&Value::Bool(true)));
    assert_eq!(
        level.balls[0].properties.get("sound"),
        Some(&Value::Text("splash".into()))
    );
    // Canonical: the file reads and writes back byte for byte, properties included.
    assert_eq!(
        level.to_ron_string(),
        std::fs::read_to_string(&path).unwrap()
    );
    // Any kind of object, in a file.
    let text = r#"(version: 2,
        triangles: [(id: 1, a: (0.0, 0.0, 0.0), b: (1.0, 0.0, 0.0), c: (0.0, 1.0, 0.0), properties: {"k": Int(1)})],
        planes: [(id: 2, normal: (0.0, 1.0, 0.0), d: 0.0, properties: {"k": Float(2.5)})],
        cylinders: [(id: 3, a: (0.0, 0.0, 0.0), b: (0.0, 1.0, 0.0), radius: 0.5, properties: {"k": Text("x")})],
        aabbs: [(id: 4, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0), properties: {"k": Color((1, 2, 3, 4))})],
        obbs: [(id: 5, center: (0.0, 0.0, 0.0), half_extents: (1.0, 1.0, 1.0), rotation_deg: (0.0, 0.0, 0.0), properties: {"k": Point((1.0, 2.0, 3.0))})],
        meshes: [(id: 6, vertices: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)], indices: [(0, 1, 2)], properties: {"k": Ref(1)})],
        probes: [(id: 7, origin: (0.0, 1.0, 0.0), dir: (1.0, 0.0, 0.0), max_t: 5.0, properties: {"k": Enum("on")})],
    )"#;
    let l = Level::from_ron_str(text).unwrap();
    assert_eq!(
        l.meshes[0].properties.get("k"),
        Some(&Value::Ref(ObjectId(1)))
    );
    assert_eq!(
        l.probes[0].properties.get("k"),
        Some(&Value::Enum("on".into()))
    );
    assert_eq!(Level::from_ron_str(&l.to_ron_string()).unwrap(), l);
}

/// `must_reach` is optional: absent it is false and a saved type leaves it out (so files written before it
/// save byte-identical, as the golden v2 file above does); when true it is written after the count limits.
/// Plain validation builds no map: it only warns when there is no walker start to reach from.
#[test]
fn must_reach_is_optional_saved_when_true_and_warned_of_without_a_walker() {
    // Saved in the current format (version 3), otherwise byte for byte.
    let text = golden("v2.ron").replace("version: 2,", "version: 3,");
    let mut level = Level::from_ron_str(&text).unwrap();
    assert!(level.entity_types.iter().all(|t| !t.must_reach));
    assert_eq!(level.to_ron_string(), text);
    level.entity_types[1].must_reach = true;
    let saved = level.to_ron_string();
    let line = saved
        .lines()
        .find(|l| l.contains("must_reach"))
        .expect("saved");
    assert!(line.contains("must_reach: true"), "{line}");
    let after_counts = line.find("must_reach").unwrap();
    assert!(
        line.find("fields").is_none_or(|f| f > after_counts)
            && line.find("max_count").is_none_or(|m| m < after_counts),
        "{line}"
    );
    let back = Level::from_ron_str(&saved).unwrap();
    assert_eq!(back, level);
    assert_eq!(
        back.must_reach_entities()
            .map(|(i, e)| (i, e.id))
            .collect::<Vec<_>>(),
        level
            .entities
            .iter()
            .enumerate()
            .filter(|(_, e)| e.entity_type == level.entity_types[1].name)
            .map(|(i, e)| (i, e.id))
            .collect::<Vec<_>>()
    );
    // No walker start (the golden file has none): one warning at the type, with its position.
    assert!(back.walker.is_none());
    let problems = back.validate();
    let p = problems
        .iter()
        .find(|p| p.field == "entity_types[1].must_reach")
        .expect("a warning");
    assert_eq!(p.severity, Severity::Warning);
    assert!(p.message.contains("no walker start"), "{p}");
    assert!(p.line.is_some() && p.col.is_some(), "{p:?}");
    // With one, nothing to say: validation builds no map.
    let mut with_walker = back.clone();
    with_walker.walker = Some(collidoscope::level::WalkerStart::default());
    let problems = with_walker.validate();
    assert!(
        problems.iter().all(|p| !p.field.contains("must_reach")),
        "{problems:?}"
    );
    // A value that is not a bool is a parse error at its place.
    let bad = saved.replacen("must_reach: true", "must_reach: \"yes\"", 1);
    let e = Level::from_ron_str(&bad).unwrap_err().to_string();
    assert!(e.contains("entity_types[1].must_reach"), "{e}");
}

/// `Level::reach_problems`: every entity of a `must_reach` type that the map from the walker start does not
/// reach is an error at the entity (`entities[i]`, its id, its line and column), naming the blocker in words
/// and by kind; reachable ones, and entities of other types, are not reported.
#[test]
fn reach_problems_are_errors_at_the_unreachable_entities() {
    use collidoscope::character::ReachSettings;
    use collidoscope::scene::Scene;
    let text = r#"(
    version: 2,
    aabbs: [
        (id: 1, min: (-6.0, -1.0, -6.0), max: (6.0, 0.0, 6.0)),
        (id: 2, min: (2.0, 0.0, -2.0), max: (5.0, 0.5, 2.0)),
    ],
    walker: (position: (-3.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3),
    entity_types: [
        (name: "goal", must_reach: true),
        (name: "decor"),
    ],
    entities: [
        (id: 10, entity_type: "goal", position: (-4.0, 0.0, 3.0)),
        (id: 11, entity_type: "goal", position: (3.5, 0.5, 0.0)),
        (id: 12, entity_type: "decor", position: (3.5, 0.5, 1.0)),
        (id: 13, entity_type: "goal", position: (0.0, 3.0, 0.0)),
    ],
)"#;
    let level = Level::from_ron_str(text).unwrap();
    assert!(level.validate().is_empty(), "{:?}", level.validate());
    let scene = Scene::from_level(&level).unwrap();
    let map = level.reach_map(&scene, &ReachSettings::default()).unwrap();
    let problems = level.reach_problems(&map);
    let got: Vec<(&str, Option<ObjectId>, &str)> = problems
        .iter()
        .map(|r| (r.problem.field.as_str(), r.problem.object, r.kind()))
        .collect();
    assert_eq!(
        got,
        [
            ("entities[1]", Some(ObjectId(11)), "StepTooHigh"),
            ("entities[3]", Some(ObjectId(13)), "NowhereToStand"),
        ]
    );
    let step = &problems[0].problem;
    assert_eq!(step.severity, Severity::Error);
    assert_eq!((step.line, step.col), (Some(14), Some(9)));
    assert!(
        step.message
            .starts_with("unreachable from the walker start: riser 0.5")
            && step.message.ends_with("(StepTooHigh)"),
        "{}",
        step.message
    );
    assert!(
        problems[1].problem.message.contains("nowhere to stand"),
        "{}",
        problems[1].problem.message
    );
    // Without a walker start there is no map, and the error says why.
    let mut no_walker = level.clone();
    no_walker.walker = None;
    let e = no_walker
        .reach_map(&scene, &ReachSettings::default())
        .unwrap_err();
    assert!(e.to_string().contains("no walker start"), "{e}");
}
