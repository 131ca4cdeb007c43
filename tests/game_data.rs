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
    assert_eq!(LEVEL_VERSION, 2);
    let v0 = Level::from_ron_str(&golden("v0.ron")).unwrap();
    let v1 = Level::from_ron_str(&golden("v1.ron")).unwrap();
    let v2 = Level::from_ron_str(&golden("v2.ron")).unwrap();
    // The geometry is the same in all three; v0 numbers its objects from 1, as v1 does by hand.
    for old in [&v0, &v1] {
        assert_eq!(old.walls, v2.walls);
        assert_eq!(old.balls, v2.balls);
        assert!(old.entity_types.is_empty() && old.entities.is_empty() && old.triggers.is_empty());
        // Saved, an old level is a version 2 file that reads back the same.
        let text = old.to_ron_string();
        assert!(text.contains("version: 2,"), "{text}");
        assert_eq!(&Level::from_ron_str(&text).unwrap(), old);
    }
    // Version 2 is canonical: loading and saving gives the same bytes.
    assert_eq!(v2.to_ron_string(), golden("v2.ron"));
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
