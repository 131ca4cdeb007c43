//! Navigation on greybox levels (sectors: floors and ceilings at heights, slopes, stairs, low passages) for
//! agent sizes far from the default: random sector grids and the greybox sample, with agents from 0.1 m to
//! 0.7 m across, steps from 5 cm to 0.6 m and slopes from 25° to 60°. With jumps off a path exists exactly
//! where the reach map from `from` reaches `to`; with jumps on or off every path is walked from `from` itself
//! with `steer` and `Body::step` at 60 Hz in the contract's time, never inside anything.
//!
//! Seconds a case in a release build: `cargo test --release --test character -- nav::soak --ignored`
//! (`NAV_SOAK_CASES`, 24 by default, sets how many random levels).

use collidoscope::character::CharacterController;
use collidoscope::glam::Vec3;
use collidoscope::level::Level;
use collidoscope::nav::{NavLink, NavMap, NavPath};
use collidoscope::scene::Scene;

use super::{disagreements, settings, walk_from};

/// One cell of a random sector grid: the floor's height, the clearance to the ceiling, the slope (edge,
/// degrees; the ceiling parallel to the floor), or no sector at all (a solid block).
type Cell = Option<(f32, f32, Option<(u32, f32)>)>;

/// The random sector grids' level: three cells a side of `size` m, each crate drawn with its x and z on a
/// 0–9 scale across the three cells (as the strategy draws them), placed by the size.
fn soak_grid(size: f32, cells: &[Cell], crates: &[(f32, f32, f32, f32)]) -> Scene {
    soak_grid_turned(size, cells, crates, 0.0)
}

/// [`soak_grid`] turned by `yaw` degrees (the turned soak's level).
fn soak_grid_turned(size: f32, cells: &[Cell], crates: &[(f32, f32, f32, f32)], yaw: f32) -> Scene {
    let scale = size * 3.0 / 9.0;
    let crates: Vec<_> = crates
        .iter()
        .map(|&(x, z, w, top)| (x * scale, z * scale, w, top))
        .collect();
    turned_grid(size, 3, cells, &crates, yaw)
}

/// The agent the soaks draw: radius, height over the two half-spheres, step, slope (degrees) and jump height,
/// as [`agent`] takes them (kept as numbers, so a failing case's minimal input can be typed into a test).
fn agent_strategy() -> impl proptest::strategy::Strategy<Value = (f32, f32, f32, f32, f32)> {
    (
        0.1f32..0.7,
        0.1f32..1.6,
        0.05f32..0.6,
        25.0f32..60.0,
        0.3f32..1.5,
    )
}

/// [`agent`] from what [`agent_strategy`] draws.
fn agent_of(
    (radius, tall, max_step, slope, jump): (f32, f32, f32, f32, f32),
) -> CharacterController {
    agent(radius, tall, max_step, slope, jump)
}

/// A sector level: a `cols × rows` grid of `size` m square sectors (cells left out are solid), plus a `crate`
/// box (x, z, half width, top) standing on the floor of the cell under it when given.
fn sector_grid(size: f32, cols: usize, cells: &[Cell], crates: &[(f32, f32, f32, f32)]) -> Scene {
    turned_grid(size, cols, cells, crates, 0.0)
}

/// [`sector_grid`] turned by `yaw` degrees about the grid's middle (the sectors' corners and the crates,
/// oriented boxes then), so nothing lines up with the map's columns, as in a level drawn by hand. At 0° the
/// very level of `sector_grid`.
fn turned_grid(
    size: f32,
    cols: usize,
    cells: &[Cell],
    crates: &[(f32, f32, f32, f32)],
    yaw: f32,
) -> Scene {
    let rows = cells.len().div_ceil(cols.max(1));
    let middle = (0.5 * cols as f32 * size, 0.5 * rows as f32 * size);
    let (sin, cos) = yaw.to_radians().sin_cos();
    let turn = |x: f32, z: f32| {
        if yaw == 0.0 {
            return (x, z);
        }
        let (dx, dz) = (x - middle.0, z - middle.1);
        // About +y: x' = x cos + z sin, z' = -x sin + z cos (an oriented box's yaw turns the same way).
        (
            middle.0 + dx * cos + dz * sin,
            middle.1 - dx * sin + dz * cos,
        )
    };
    let mut sectors = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        let Some((floor, clearance, slope)) = cell else {
            continue;
        };
        let (x, z) = ((i % cols) as f32 * size, (i / cols) as f32 * size);
        let slope = slope.map_or(String::new(), |(edge, degrees)| {
            format!(", slope: (edge: {edge}, degrees: {degrees:.2})")
        });
        let corners: Vec<String> = [(x, z), (x + size, z), (x + size, z + size), (x, z + size)]
            .into_iter()
            .map(|(a, b)| {
                let (a, b) = turn(a, b);
                format!("({a:.3}, {b:.3})")
            })
            .collect();
        sectors.push(format!(
            "(id: {}, outline: [{}], floor: (height: {floor:.3}{slope}), ceiling: (height: {:.3}{slope}))",
            i + 1,
            corners.join(", "),
            floor + clearance
        ));
    }
    let boxes: Vec<String> = crates
        .iter()
        .enumerate()
        .map(|(k, &(x, z, w, top))| {
            let (x, z) = turn(x, z);
            if yaw == 0.0 {
                format!(
                    "(id: {}, min: ({:.3}, -3.0, {:.3}), max: ({:.3}, {top:.3}, {:.3}))",
                    1000 + k,
                    x - w,
                    z - w,
                    x + w,
                    z + w
                )
            } else {
                format!(
                    "(id: {}, center: ({x:.3}, {:.3}, {z:.3}), half_extents: ({w:.3}, {:.3}, {w:.3}), \
                     rotation_deg: ({yaw:.3}, 0.0, 0.0))",
                    1000 + k,
                    0.5 * (top - 3.0),
                    0.5 * (top + 3.0)
                )
            }
        })
        .collect();
    let kind = if yaw == 0.0 { "aabbs" } else { "obbs" };
    let text = format!(
        "#![enable(implicit_some)]\n(version: 3, sectors: [{}], {kind}: [{}])",
        sectors.join(", "),
        boxes.join(", ")
    );
    let level = Level::from_ron_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Scene::from_level(&level).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Every check of the module for `ctl` on `scene`: `pairs` picks of its places (jumps off: agreement with
/// the reach map and walked; jumps on: walked).
fn check(scene: &Scene, ctl: CharacterController, picks: &[(usize, usize)]) -> Result<(), String> {
    for jump in [false, true] {
        let map = NavMap::build(scene, &settings(jump, vec![ctl]));
        if let Some(e) = map.error() {
            return Err(format!("bake: {e}"));
        }
        let places = map.places(0);
        if places.is_empty() {
            return Ok(());
        }
        let pairs: Vec<(Vec3, Vec3)> = picks
            .iter()
            .map(|&(a, b)| (places[a % places.len()], places[b % places.len()]))
            .collect();
        if !jump {
            let bad = disagreements(scene, &ctl, &map, &pairs);
            if !bad.is_empty() {
                return Err(format!("disagree with the reach map: {bad:?}"));
            }
        }
        for &(from, to) in &pairs {
            walk_from(scene, &map, &ctl, from, to).map_err(|e| format!("jump {jump}: {e}"))?;
        }
    }
    Ok(())
}

/// A random agent size: radius, height over `2·radius`, step (under the height), slope, jump height.
fn agent(radius: f32, tall: f32, max_step: f32, slope: f32, jump: f32) -> CharacterController {
    let height = 2.0 * radius + tall;
    CharacterController {
        radius,
        height,
        // Below the height, as a controller's must be.
        max_step: max_step.min(0.9 * height),
        max_slope_deg: slope,
        jump_height: jump,
        ..CharacterController::default()
    }
}

fn cases() -> u32 {
    std::env::var("NAV_SOAK_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24)
}

fn cell_strategy() -> impl proptest::strategy::Strategy<Value = Cell> {
    use proptest::prelude::*;
    let height = prop_oneof![
        Just(0.0f32),
        0.0f32..0.7,
        prop::sample::select(vec![0.15f32, 0.3, 0.45, 0.6, 1.2])
    ];
    let slope = prop_oneof![
        3 => Just(None),
        1 => (0u32..4, -40.0f32..40.0).prop_map(Some),
    ];
    prop_oneof![
        1 => Just(None),
        6 => (height, 1.0f32..3.5, slope).prop_map(Some),
    ]
}

proptest::proptest! {
    #![proptest_config(crate::guarantees::config(cases()))]

    /// Random 3×3 sector grids (steps, ledges, slopes, low ceilings, solid cells, crates) and random agent
    /// sizes: the module's checks on six random pairs of places.
    #[test]
    #[ignore = "seconds a case in a release build"]
    fn random_sector_levels_and_agent_sizes(
        size in 2.0f32..4.0,
        cells in proptest::collection::vec(cell_strategy(), 9),
        crates in proptest::collection::vec((0.5f32..8.5, 0.5f32..8.5, 0.2f32..0.8, -0.5f32..1.5), 0..3),
        body in agent_strategy(),
        picks in proptest::collection::vec((0usize..100_000, 0usize..100_000), 6),
    ) {
        let scene = soak_grid(size, &cells, &crates);
        let ctl = agent_of(body);
        let r = check(&scene, ctl, &picks);
        proptest::prop_assert!(r.is_ok(), "{ctl:?}: {}", r.unwrap_err());
    }

    /// The same grids turned by a random angle (sectors and crates at any yaw, as a level drawn by hand or
    /// brought in from another tool is): the module's checks on six random pairs of places.
    #[test]
    #[ignore = "seconds a case in a release build"]
    fn turned_sector_levels_and_agent_sizes(
        size in 2.0f32..4.0,
        cells in proptest::collection::vec(cell_strategy(), 9),
        crates in proptest::collection::vec((0.5f32..8.5, 0.5f32..8.5, 0.2f32..0.8, -0.5f32..1.5), 0..3),
        yaw in 1.0f32..89.0,
        body in agent_strategy(),
        picks in proptest::collection::vec((0usize..100_000, 0usize..100_000), 6),
    ) {
        let scene = soak_grid_turned(size, &cells, &crates, yaw);
        let ctl = agent_of(body);
        let r = check(&scene, ctl, &picks);
        proptest::prop_assert!(r.is_ok(), "{yaw}°, {ctl:?}: {}", r.unwrap_err());
    }
}

/// A 6 m floor with `shapes` on it, each drawn as `(kind, x, z, a, b, c, yaw)` on 0–1 scales: a wall (from
/// `(x, z)` along `yaw`, `a`·3 m long, `b`·0.3 m thick, `c`·2.5 m high), a post or a log (a cylinder `a`·0.5 m
/// across, upright and `c`·2.5 m high, or lying along `yaw`, `c`·2 m long), or an oriented box (`a`·1.5 m by
/// `c`·1.5 m, turned by `yaw` and pitched by up to 35°, its middle `b`·0.6 m below to 0.4 m above the floor:
/// a ramp, a tilted crate, a slab).
fn shapes_level(shapes: &[(u8, f32, f32, f32, f32, f32, f32)]) -> Scene {
    let (mut walls, mut cylinders, mut obbs) = (Vec::new(), Vec::new(), Vec::new());
    for (k, &(kind, x, z, a, b, c, yaw)) in shapes.iter().enumerate() {
        let id = 10 + k;
        let (x, z) = (-3.0 + 6.0 * x, -3.0 + 6.0 * z);
        let turn = (yaw * 180.0).to_radians();
        let (dx, dz) = (turn.cos(), turn.sin());
        match kind % 4 {
            0 => walls.push(format!(
                "(id: {id}, a: ({x:.3}, {z:.3}), b: ({:.3}, {:.3}), radius: {:.3}, height: {:.3})",
                x + (0.05 + 3.0 * a) * dx,
                z + (0.05 + 3.0 * a) * dz,
                0.01 + 0.15 * b,
                0.05 + 2.5 * c
            )),
            1 => {
                let r = 0.05 + 0.25 * a;
                cylinders.push(format!(
                    "(id: {id}, a: ({x:.3}, 0.0, {z:.3}), b: ({x:.3}, {:.3}, {z:.3}), radius: {r:.3})",
                    0.05 + 2.5 * c
                ));
            }
            2 => {
                let (r, half) = (0.05 + 0.25 * a, 0.1 + c);
                cylinders.push(format!(
                    "(id: {id}, a: ({:.3}, {r:.3}, {:.3}), b: ({:.3}, {r:.3}, {:.3}), radius: {r:.3})",
                    x - half * dx,
                    z - half * dz,
                    x + half * dx,
                    z + half * dz
                ));
            }
            _ => obbs.push(format!(
                "(id: {id}, center: ({x:.3}, {:.3}, {z:.3}), half_extents: ({:.3}, 0.3, {:.3}), \
                 rotation_deg: ({:.2}, {:.2}, 0.0))",
                -0.6 + b,
                0.1 + 0.65 * a,
                0.1 + 0.65 * c,
                yaw * 180.0,
                (b - 0.5) * 70.0
            )),
        }
    }
    let text = format!(
        "#![enable(implicit_some)]\n(version: 2, aabbs: [(id: 1, min: (-3.5, -0.5, -3.5), max: (3.5, 0.0, 3.5))], walls: [{}], \
         cylinders: [{}], obbs: [{}])",
        walls.join(", "),
        cylinders.join(", "),
        obbs.join(", ")
    );
    let level = Level::from_ron_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Scene::from_level(&level).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

proptest::proptest! {
    #![proptest_config(crate::guarantees::config(cases()))]

    /// Random floors of shapes at any angle (walls of every height, posts, logs lying on the floor, ramps and
    /// tilted boxes) and random agent sizes: the module's checks on six random pairs of places.
    #[test]
    #[ignore = "seconds a case in a release build"]
    fn random_shapes_and_agent_sizes(
        shapes in proptest::collection::vec(
            (0u8..4, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0),
            1..14,
        ),
        body in agent_strategy(),
        picks in proptest::collection::vec((0usize..100_000, 0usize..100_000), 6),
    ) {
        let scene = shapes_level(&shapes);
        let ctl = agent_of(body);
        let r = check(&scene, ctl, &picks);
        proptest::prop_assert!(r.is_ok(), "{ctl:?}: {}", r.unwrap_err());
    }
}

/// The greybox sample's scene (`levels/greybox.ron`).
fn greybox() -> Scene {
    sample_level("greybox")
}

/// The greybox sample (stairs of 0.3 m and of 0.45 m risers, a 30° ramp, a balcony, a low passage, a
/// doorway) for a small, the default and a large agent: the module's checks on 40 pairs each.
#[test]
#[ignore = "seconds in a release build"]
fn the_greybox_sample_for_three_agent_sizes() {
    let scene = greybox();
    let picks: Vec<(usize, usize)> = (0..40u64)
        .map(|k| {
            let h = k.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
            ((h >> 32) as usize, (h & 0xFFFF_FFFF) as usize)
        })
        .collect();
    for ctl in [
        agent(0.15, 0.7, 0.2, 40.0, 0.6),
        CharacterController::default(),
        agent(0.6, 1.0, 0.5, 50.0, 1.2),
    ] {
        if let Err(e) = check(&scene, ctl, &picks) {
            panic!("{ctl:?}: {e}");
        }
    }
}

/// The sample levels' scenes (`levels/`), by name.
fn sample_level(name: &str) -> Scene {
    let path = format!("{}/levels/{name}.ron", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    Scene::from_level(&Level::from_ron_str(&text).unwrap()).unwrap()
}

proptest::proptest! {
    #![proptest_config(crate::guarantees::config(cases()))]

    /// The sample levels (crates, ramps, stairs, doorways, rooms of a house, a gallery of shapes, movers) for
    /// random agent sizes: the module's checks on six random pairs of places.
    #[test]
    #[ignore = "seconds a case in a release build"]
    fn sample_levels_and_random_agent_sizes(
        level in proptest::sample::select(vec![
            "playground", "courtyard", "house", "greybox", "magic_room", "cookbook_gallery", "triangle_walk",
        ]),
        body in agent_strategy(),
        picks in proptest::collection::vec((0usize..100_000, 0usize..100_000), 6),
    ) {
        let ctl = agent_of(body);
        let r = check(&sample_level(level), ctl, &picks);
        proptest::prop_assert!(r.is_ok(), "{level}, {ctl:?}: {}", r.unwrap_err());
    }
}

/// `ctl`'s map of `scene` (jumps on or off), its path from `from` to `to` walked from `from` (a panic saying why
/// when it is not).
fn walked_map(scene: &Scene, ctl: CharacterController, jump: bool, from: Vec3, to: Vec3) -> NavMap {
    let map = NavMap::build(scene, &settings(jump, vec![ctl]));
    if let Err(e) = walk_from(scene, &map, &ctl, from, to) {
        panic!("{e}");
    }
    map
}

/// `ctl`'s path on `scene`'s map with jumps on from `from` to `to`, walked from `from` (a panic saying why when
/// it is not), or `None` without one.
fn walked_path(scene: &Scene, ctl: CharacterController, from: Vec3, to: Vec3) -> Option<NavPath> {
    walked_map(scene, ctl, true, from, to).path(0, from, to)
}

/// How many jump links `path` has.
fn jumps(path: &NavPath) -> usize {
    path.links
        .iter()
        .filter(|l| matches!(l, NavLink::Jump { .. }))
        .count()
}

/// The cases the soaks (and the editor) found, each a test.
#[path = "nav_soak_cases.rs"]
mod cases;

/// The cases found at rims (a roof's rim beside a slope, a jump grazing a rise), each a test.
#[path = "nav_soak_rims.rs"]
mod rims;

/// The paths not walked at the controller's steps and at steering's ends of segments (session 26).
#[path = "nav_soak_steps.rs"]
mod steps;

/// The knife-edge findings, where the map and the reach map once disagreed, each a test.
#[path = "nav_soak_known.rs"]
mod known;

/// The turned and shape soaks' findings (session 28).
#[path = "nav_soak_turned.rs"]
mod turned;
