//! The navigation soaks' knife-edge findings, where the map and the reach map once disagreed (a place the reach
//! map reached with no path; a path a body walks to a place the reach map did not reach). The reach map now
//! moves as the map's graph does (each place from its own feet, every landing of every target tried:
//! `character/reach/edges.rs`'s `explore`), and each case here is a test that the two agree, with the answer
//! they agree on, the path walked where there is one and a blocker named where there is not. No disagreement is
//! open (the last, sector seeds 76 and 110, the magic room's sample 31 and seed 114, are fixed); four paths not
//! walked are, ignored: sector seeds 133 (a path doubling back over a drop onto a slope), 139 (in the air over
//! a landing that is the next jump's take-off, steering turns onto that jump), 157 (a jump cut at once by a
//! ceiling's edge over its take-off) and 161 (not yet looked into). Sector seeds 120 (a wide body slid off a rim into a pocket between two roofs' rims),
//! 125 (a tiny body stopped at a lip below a walkable slope), 128 (a low riser under a ceiling coming down) 140 (a
//! body held 4 mm short of a jump's landing) and 159 (a riser's rising edge beside a wall), and the sample
//! soak's seed 154 (a start under a sloped ceiling), are fixed.
//! The paths a body
//! did not walk that the last soaks found (sector seeds 52, 80, 81 and 82: steps up and drops from feet the
//! scan set down off their column's centre, against a riser) are tests here too. The cases of other defects
//! fixed are in `nav_soak_cases.rs` and `nav_soak_rims.rs`.

use collidoscope::character::{CharacterController, ReachMap, ReachSettings};
use collidoscope::glam::Vec3;
use collidoscope::nav::NavMap;
use collidoscope::scene::Scene;

use super::{Cell, agent, sample_level, sector_grid, soak_grid, walked_map};
use crate::nav::{settings, walk_from};

/// The map (jumps off) has a path from `from` to `to` exactly where the reach map from `from` reaches `to`; a
/// body walks the path, or the reach map names what keeps the place out. Answers whether `to` is reached.
fn the_two_agree(scene: &Scene, ctl: CharacterController, from: Vec3, to: Vec3) -> bool {
    let map = NavMap::build(scene, &settings(false, vec![ctl]));
    let reach = ReachMap::build(scene, &ctl, from, &ReachSettings::default());
    let (path, reached) = (map.path(0, from, to), reach.reachable(to));
    assert_eq!(
        path.is_some(),
        reached,
        "the map's path to {to}: {path:?}; the reach map reaches it: {reached}"
    );
    if path.is_some() {
        walk_from(scene, &map, &ctl, from, to).unwrap_or_else(|e| panic!("{e}"));
    } else {
        // A place the reach map has near `to` (its grid lies on other bounds than the map's) names its blocker.
        let near = reach.places().any(|(p, _)| {
            let across = ((p.x - to.x).powi(2) + (p.z - to.z).powi(2)).sqrt();
            across <= reach.cell() && (p.y - to.y).abs() <= ctl.max_step
        });
        assert!(
            !near || reach.blocker(to).is_some(),
            "no blocker named for {to}"
        );
    }
    reached
}

/// Found by the random levels (100 cases, the 25th): a sloped roof (34.8°) beside a flat one lower down; a
/// place for a 0.41 m body at the sloped roof's rim, 0.26 m out past it, held by its rounded bottom on the rim's
/// edge. The map's path walks there in one segment (and the body arrives), but the reach map from the slope
/// neither reaches the place nor names a blocker for it, which its own rule (every place reached or blocked)
/// forbids. Not fixed yet: the reach map's owner's, found by the navigation soak.
/// Since the reach map moves as the graph does, it reaches the place or names its blocker.
#[test]
fn regression_a_rim_place_the_reach_map_reaches_or_blocks() {
    let size = 2.941_626_f32;
    let cells: Vec<Cell> = vec![
        Some((0.0, 2.121_025_6, None)),
        Some((0.45, 3.186_802, None)),
        Some((0.0, 3.476_738_2, Some((0, 34.814_007)))),
        Some((0.048_923_727, 2.007_686_6, None)),
        Some((0.0, 2.928_483_2, None)),
        Some((0.0, 3.470_229_9, None)),
        Some((0.45, 3.051_373, None)),
        Some((0.0, 3.257_098_7, None)),
        Some((0.15, 2.425_850_4, None)),
    ];
    let scene = soak_grid(
        size,
        &cells,
        &[(7.992_662_4, 1.026_300_3, 0.280_535_1, 0.104_253_985)],
    );
    let ctl = agent(
        0.406_255_66,
        1.405_068_6,
        0.177_969_63,
        52.113_87,
        0.867_033_2,
    );
    let (from, to) = (
        Vec3::new(6.124_995_7, 4.533_726, 1.374_995_8),
        Vec3::new(5.624_995_7, 3.903_167_5, 0.624_995_77),
    );
    let map = NavMap::build(&scene, &settings(false, vec![ctl]));
    if let Err(e) = walk_from(&scene, &map, &ctl, from, to) {
        panic!("{e}");
    }
    let reach = collidoscope::character::ReachMap::build(&scene, &ctl, from, &Default::default());
    assert!(reach.reachable(to) || reach.blocker(to).is_some());
}

/// Found by the sample levels with random agent sizes (seed 16): on the playground a 0.48 m body (5 cm step,
/// 30.5° slopes), jumps off, squeezes through the south wall's 0.5 m door by a chain of landings off the places
/// (the reach map, from its start's own landings) that the graph, moving from the places' feet, does not make:
/// the reach map reaches `to` and the map has no path. The knife-edge class ARCHITECTURE describes (a landing's
/// feet decide a move 1 cm wider than the body); seen, not fixed.
/// Since the reach map moves as the graph does (from the places' feet), neither reaches it, and the reach map
/// names the blocker.
#[test]
fn regression_a_door_as_wide_as_the_body_is_squeezed_through_by_neither() {
    let scene = sample_level("playground");
    let ctl = agent(0.240_430_2, 0.1, 0.05, 30.515_144, 0.3);
    let (from, to) = (
        Vec3::new(-14.125_019, 0.009_999_99, -9.875_025),
        Vec3::new(-15.743_925, 0.009_999_99, 7.874_975),
    );
    assert!(!the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 25, the 50th case) once a body standing on a tread's edge climbs by
/// its feet's rise: a 1.24 m wide body (0.59 m step, 47° slopes), jumps off, reaches the raised sectors
/// beyond a row of landings (a step up 0.35 m from where a move along a sector's side landed, off its place)
/// by the reach map from `from`, and the map has no path. Without the rule the two agree. The knife-edge class
/// ARCHITECTURE describes (the reach map moves from where its moves landed, the graph from the places' feet);
/// seen, not fixed.
/// Since the reach map moves as the graph does (from the places' feet), neither reaches it, and the reach map
/// names the blocker.
#[test]
fn regression_a_step_up_from_a_landing_beside_a_sector_is_in_neither() {
    let cells: Vec<Cell> = vec![
        Some((0.6, 2.629_189_5, Some((3, 29.841_167)))),
        Some((0.0, 3.156_350_4, None)),
        Some((1.2, 1.610_991_7, None)),
        Some((0.0, 1.645_041_5, None)),
        None,
        Some((1.2, 2.274_399, None)),
        Some((0.319_771_6, 2.349_575_3, None)),
        Some((0.327_885_9, 1.305_924_5, None)),
        Some((1.2, 1.767_755_2, None)),
    ];
    let scene = sector_grid(3.458_272_2, 3, &cells, &[]);
    let ctl = agent(
        0.621_239,
        0.323_960_1,
        0.589_027_4,
        46.949_364,
        0.954_418_66,
    );
    let (from, to) = (
        Vec3::new(9.374_995, 2.820_999_4, 0.374_995_05),
        Vec3::new(7.254_454, 3.128_627_3, 2.890_227_3),
    );
    assert!(!the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 30, the 15th case): a 1.18 m wide body (0.33 m step, 45° slopes),
/// jumps off, reaches the sector 0.31 m higher by the reach map from `from`: the reach map's moves along the
/// riser land off the places (the body resting on the riser's top edge by its rounded side, 1 cm of rounding
/// to spare) and step up from there; the graph, moving from the places' feet, does not, and the map has no
/// path. The knife-edge class ARCHITECTURE describes; seen, not fixed.
/// Since the reach map moves as the graph does (from the places' feet), neither reaches it, and the reach map
/// names the blocker.
#[test]
fn regression_a_step_up_from_a_landing_on_a_risers_edge_is_in_neither() {
    let cells: Vec<Cell> = vec![
        Some((0.0, 2.876_163_2, Some((2, -39.229_85)))),
        Some((0.271_583_1, 1.767_831_6, None)),
        Some((0.0, 2.899_673_2, Some((1, 39.027_332)))),
        Some((0.0, 2.088_325_7, None)),
        Some((0.202_315_51, 1.914_211_9, Some((0, -2.593_552_4)))),
        Some((0.501_466_4, 1.404_899_7, None)),
        Some((0.0, 1.546_465_3, None)),
        Some((0.0, 1.474_424_6, None)),
        Some((0.145_514_92, 2.898_917_7, None)),
    ];
    let size = 3.433_780_2_f32;
    let scene = soak_grid(
        size,
        &cells,
        &[
            (7.763_19, 0.711_964_2, 0.253_109_1, -0.285_850_64),
            (1.454_921, 0.681_829_33, 0.262_817_8, -0.364_239_16),
        ],
    );
    let ctl = agent(
        0.587_761_1,
        0.108_161_18,
        0.329_371_18,
        44.967_873,
        1.332_478_6,
    );
    let (from, to) = (
        Vec3::new(2.374_995, 0.010_000_229, 3.624_995),
        Vec3::new(6.874_995, 0.510_999_9, 4.374_995),
    );
    assert!(!the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 32, the 8th case): jumps off, the map has a path from `from` to `to`
/// and a body walks it, but the reach map from `from` does not reach `to`: the knife-edge class the other way
/// (the graph moves from a place's feet where the reach map, from where its move landed, does not). Seen, not
/// fixed; the walk is checked, the agreement is what fails.
/// Since the reach map moves as the graph does, both reach it (and the body walks the path).
#[test]
fn regression_seed_32_a_place_the_map_walks_to_is_reached_by_the_reach_map() {
    let cells: Vec<Cell> = vec![
        Some((0.31849843, 1.164641, None)),
        Some((0.0, 2.2601938, None)),
        Some((0.07022415, 1.7129773, Some((0, -33.43063)))),
        None,
        Some((1.2, 1.402352, None)),
        Some((0.2139183, 1.4264253, Some((1, -11.272673)))),
        Some((0.6, 1.6987277, None)),
        Some((0.0, 2.0417461, None)),
        Some((1.2, 3.2509217, Some((1, 19.355024)))),
    ];
    let size = 3.0901055_f32;
    let scene = soak_grid(
        size,
        &cells,
        &[(4.2938104, 3.7474358, 0.6853618, -0.35970265)],
    );
    let ctl = agent(0.5018315, 0.82436365, 0.070215516, 57.88907, 0.6138579);
    let (from, to) = (
        Vec3::new(7.8749957, 1.3820727, 5.1249957),
        Vec3::new(8.124995, 0.32665855, 2.3749955),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 34, the 18th case): jumps off, the map has a path from `from` to `to`
/// and a body walks it, but the reach map from `from` does not reach `to`: the knife-edge class the other way
/// (the graph moves from a place's feet where the reach map, from where its move landed, does not). Seen, not
/// fixed; the walk is checked, the agreement is what fails.
/// Since the reach map moves as the graph does, both reach it (and the body walks the path).
#[test]
fn regression_seed_34_a_place_the_map_walks_to_is_reached_by_the_reach_map() {
    let cells: Vec<Cell> = vec![
        Some((0.016854307, 1.6654269, None)),
        Some((1.2, 3.0999, None)),
        Some((0.6, 3.334067, None)),
        Some((0.0, 2.8088758, None)),
        Some((0.0, 3.093929, None)),
        None,
        Some((0.3, 2.8467221, None)),
        Some((0.0, 1.2370603, None)),
        Some((0.15, 2.232272, None)),
    ];
    let size = 3.5715168_f32;
    let scene = soak_grid(
        size,
        &cells,
        &[(7.446723, 3.3046007, 0.25181478, -0.10014401)],
    );
    let ctl = agent(0.35780594, 0.7304677, 0.22813323, 45.668133, 0.84438676);
    let (from, to) = (
        Vec3::new(1.3749949, 3.1569993, 8.624995),
        Vec3::new(6.8756, 3.1039991, 3.9455392),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 52; jumps off): the map has a path a 0.36 m wide body walks, to a
/// place the reach map from `from` does not reach: the knife-edge class the other way (as seeds 32 and 34).
/// Seen, not fixed; the walk is checked, the agreement is what fails.
/// Since the reach map moves as the graph does, both reach it (and the body walks the path).
#[test]
fn regression_seed_52_a_place_the_map_walks_to_is_reached_by_the_reach_map() {
    let cells: Vec<Cell> = vec![
        None,
        Some((0.25032535, 1.9826875, Some((0, 29.512814)))),
        Some((0.6, 1.9960828, Some((3, 16.027573)))),
        Some((1.2, 2.3038445, None)),
        Some((0.0, 1.4001101, None)),
        None,
        Some((0.45, 2.5297124, Some((1, 15.213476)))),
        Some((0.0, 1.339112, None)),
        Some((0.62772816, 3.29312, None)),
    ];
    let scene = soak_grid(3.2523766, &cells, &[]);
    let ctl = agent(0.18036689, 0.47154444, 0.5804272, 29.900328, 1.4877027);
    let (from, to) = (
        Vec3::new(2.1249952, 0.7733223, 8.874995),
        Vec3::new(5.124995, 0.010000005, 5.874995),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 53, on the controller with the hung-body rules; jumps off): the
/// reach map from `from` reaches `to` and the map has no path, the knife-edge class ARCHITECTURE describes.
/// Seen, not looked into.
/// Since the reach map moves as the graph does (from the places' feet), neither reached it, and the reach map
/// named the blocker. Since a step whose whole lift steps onto nothing is tried again lifted just over the
/// riser's top (`movement/step.rs`), both reach it, and a body walks the map's path there.
#[test]
fn regression_seed_53_a_place_the_map_and_the_reach_map_agree_on() {
    let cells: Vec<Cell> = vec![
        Some((0.18181121, 3.1525247, Some((2, -5.8205957)))),
        Some((0.67647904, 2.6554072, None)),
        Some((0.45, 1.9831346, None)),
        Some((1.2, 1.9699411, None)),
        Some((0.36575872, 1.9377656, None)),
        Some((0.1733756, 2.709705, Some((3, 7.7604446)))),
        None,
        Some((0.45, 1.0833224, None)),
        None,
    ];
    let scene = soak_grid(3.8628147, &cells, &[]);
    let ctl = agent(0.5138724, 0.7488031, 0.42148587, 53.999485, 1.3320556);
    let (from, to) = (
        Vec3::new(10.374994, 0.5488248, 6.1249943),
        Vec3::new(4.6249943, 0.37599987, 5.1249943),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 60, on the controller with the hung-body rules; jumps off): the map
/// has a path a 0.83 m wide body walks, to a place the reach map from `from` does not reach: the knife-edge
/// class the other way (as seeds 32, 34 and 52). Seen, not fixed; the walk is checked, the agreement is what
/// fails.
/// Since the reach map moves as the graph does, both reach it (and the body walks the path).
#[test]
fn regression_seed_60_a_place_the_map_walks_to_is_reached_by_the_reach_map() {
    let cells: Vec<Cell> = vec![
        Some((0.058062345, 2.733648, None)),
        Some((0.0, 2.4382226, None)),
        Some((0.3, 1.2055398, None)),
        Some((0.22423542, 2.2012317, None)),
        Some((0.040415198, 2.5338764, Some((3, 39.046364)))),
        Some((0.13050023, 1.7233623, None)),
        Some((0.45, 1.7301469, None)),
        Some((0.0, 1.3596257, None)),
        Some((0.0, 1.9781383, Some((2, 36.094925)))),
    ];
    let scene = soak_grid(
        3.5579953,
        &cells,
        &[(3.2513235, 2.1448014, 0.56318045, 1.1243904)],
    );
    let ctl = agent(0.41286775, 0.92551035, 0.30433717, 54.681145, 0.90037966);
    let (from, to) = (
        Vec3::new(1.8749949, 2.8019989, 1.1249949),
        Vec3::new(8.624995, 1.8639991, 4.1249948),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 64; jumps off): the map has a path a 0.5 m wide body walks, to a place
/// the reach map from `from` does not reach: the knife-edge class the other way. Seen, not fixed; the walk is
/// checked, the agreement is what fails.
/// Since the reach map moves as the graph does, both reach it (and the body walks the path).
#[test]
fn regression_seed_64_a_place_the_map_walks_to_is_reached_by_the_reach_map() {
    let cells: Vec<Cell> = vec![
        None,
        Some((0.0, 2.6550007, None)),
        Some((0.45, 2.4471917, None)),
        Some((1.2, 3.2994008, None)),
        Some((0.6228751, 1.4705907, None)),
        Some((0.15970747, 3.4338117, None)),
        Some((0.3, 2.162372, None)),
        Some((0.23380563, 2.485238, None)),
        Some((0.0, 1.9172233, None)),
    ];
    let scene = soak_grid(2.2037244, &cells, &[]);
    let ctl = agent(0.24842829, 0.29057145, 0.3632617, 51.019722, 0.8768801);
    let (from, to) = (
        Vec3::new(5.6249967, 0.17000008, 2.874997),
        Vec3::new(3.374997, 0.633, 3.874997),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the sample levels with random agent sizes (seed 31, its 210th case, after the reach map moved as
/// the graph does; jumps off): in the magic room a 0.7 m wide body (a 0.59 m step) has a path from `from` to
/// the place `to`, and the reach map from `from` (on the same grid: the same places) did not reach it. `to`'s
/// own place is reached by no move; a place 0.24 m from it is, by a move that landed 0.27 m from `to`. The
/// graph's node for that place stands on its feet (within a cell of `to`: a goal), and the reach map looked
/// for landings within a cell (none). Now the reach map's nodes answer where they are moved on from (a place's
/// feet, as the graph's), so both say reached. Seed 114 found the same corner for a 0.76 m body.
#[test]
fn regression_sample_31_a_magic_room_place_the_map_walks_to_is_reached_by_the_reach_map() {
    let scene = sample_level("magic_room");
    let ctl = agent(
        0.350_092_62,
        0.565_111_4,
        0.592_188_6,
        54.934_83,
        0.457_082_1,
    );
    let (from, to) = (
        Vec3::new(1.574_997, 0.009_999_99, 2.374_997_6),
        Vec3::new(-3.333_143_7, 0.009_999_99, 2.054_639_3),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 52, a later case than the one above, once that one agreed; jumps
/// off): a path a 0.6 m wide body (a 0.55 m step) did not walk. Straightening kept the search's own points,
/// and the body, steered from a graph move's landing 4 cm off its place (one move sliding 0.26 m along a
/// riser's face) toward the next point up a 0.24 m riser (less than half its step: one move stood for it,
/// unwalked), passed that landing by 1.3 cm and stood against the riser's corner for good. A step up from
/// feet off their column's centre is now walked as a steered body walks it (`reach/edges.rs` `try_move`),
/// and that one is not: the map and the reach map agree that the place is out of reach from there (the reach
/// map naming a blocker).
#[test]
fn regression_seed_52_a_step_up_from_feet_held_by_a_riser_is_walked_or_not_taken() {
    let cells: Vec<Cell> = vec![
        Some((0.166_256_92, 2.201_448_7, Some((1, 4.651_277_5)))),
        Some((0.0, 2.130_499_1, Some((2, -36.069_218)))),
        Some((0.0, 2.660_581, Some((2, -26.105_022)))),
        Some((0.549_120_2, 1.440_667_2, Some((2, 19.454_65)))),
        Some((0.0, 1.908_509_3, None)),
        Some((0.675_728_44, 1.110_755_6, Some((1, -39.892_2)))),
        Some((0.15, 2.472_89, None)),
        Some((0.0, 3.145_527_6, None)),
        None,
    ];
    let size = 3.390_959_f32;
    let scale = size * 3.0 / 9.0;
    let crates = [(
        2.136_860_8 * scale,
        2.145_780_6 * scale,
        0.517_267_64,
        1.049_906_3,
    )];
    let scene = sector_grid(size, 3, &cells, &crates);
    let ctl = agent(
        0.299_568_15,
        0.787_136_3,
        0.551_491_26,
        35.657_906,
        0.788_225_53,
    );
    let (from, to) = (
        Vec3::new(4.624_995, 1.918_999_7, 4.624_995),
        Vec3::new(6.624_995, 3.155_999, 7.374_995),
    );
    assert!(!the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 80; jumps off): a path a 0.68 m wide body (a 0.38 m step, 29°
/// slopes) did not walk in time, from a sector roof toward one 0.33 m higher. The path went by a row of
/// places the scan had set down off their columns' centres before a sloped sector's rim (each a body touching
/// the rim's corner), and from the last of them one move of 0.29 m stepped 0.12 m up onto the slope (less than
/// half a step: not walked); the steered body, reaching that place exactly, was pressed along the corner
/// and stood 13 cm aside of it for good. Such a step up is now walked as steering walks it, and the path
/// goes another way.
#[test]
fn regression_seed_80_a_path_up_to_a_higher_roof_is_walked() {
    let cells: Vec<Cell> = vec![
        Some((0.248_234_94, 2.237_810_6, None)),
        Some((1.2, 3.303_105_4, None)),
        None,
        Some((0.0, 2.618_167_2, None)),
        Some((0.304_881_48, 1.434_794_9, None)),
        Some((0.0, 1.091_320_4, None)),
        Some((0.528_576_2, 3.362_628, Some((1, -23.009_106)))),
        Some((0.258_593_68, 2.476_433_5, None)),
        Some((0.0, 2.960_792_3, Some((3, 5.249_417_3)))),
    ];
    let scene = sector_grid(3.166_971_7, 3, &cells, &[]);
    let ctl = agent(
        0.342_512_13,
        0.619_624_56,
        0.379_604_46,
        29.218_472,
        1.242_638_2,
    );
    let (from, to) = (
        Vec3::new(1.124_995_5, 2.627_999, 5.624_995),
        Vec3::new(0.874_995_47, 2.958_099_8, 6.874_995),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the random sector grids (seed 81, an early case; jumps on): a path a 1.29 m wide body (a 0.52 m
/// step) did not walk in time, from a raised sector down to the floor 1.3 m lower (the binary from before
/// session 21 failed it the same way). The path dropped 1.2 m off a place the scan had set down 3 cm off its
/// column's centre, beside a sector a little higher; walked off slowly, the body's rounded bottom met that
/// sector's corner and the controller stepped it up onto it, then steering brought it back to the rim, again
/// and again. A long drop from feet off their column's centre is now walked as steering walks it, and the
/// path goes another way.
#[test]
fn regression_seed_81_a_path_down_from_a_raised_sector_is_walked() {
    let cells: Vec<Cell> = vec![
        Some((0.45, 1.777_112, Some((3, 28.504_196)))),
        Some((0.15, 1.352_775_8, None)),
        None,
        Some((0.562_203, 1.288_290_3, None)),
        Some((0.668_590_1, 2.364_047, Some((2, -7.802_312_4)))),
        Some((0.15, 3.385_714_8, Some((2, -12.963_303)))),
        Some((0.6, 1.775_309_2, None)),
        None,
        Some((0.475_201_73, 2.366_833, None)),
    ];
    let size = 2.477_421_8_f32;
    let scale = size * 3.0 / 9.0;
    let crates = [
        (
            6.590_67 * scale,
            1.873_366_7 * scale,
            0.716_179_4,
            0.001_671_519_6,
        ),
        (
            7.767_185 * scale,
            3.935_286_3 * scale,
            0.598_923_74,
            1.312_292_5,
        ),
    ];
    let scene = sector_grid(size, 3, &cells, &crates);
    let ctl = agent(0.645_398_9, 1.255_465_5, 0.520_719_5, 55.222_393, 0.984_751);
    let (from, to) = (
        Vec3::new(7.124_996_7, 2.851_998_8, 5.624_996_7),
        Vec3::new(4.874_996_7, 1.512_999_8, 0.874_996_5),
    );
    let map = walked_map(&scene, ctl, true, from, to);
    assert!(map.path(0, from, to).is_some(), "no path");
}

/// Found by the random sector grids (seed 82; jumps on): a path a 0.54 m wide body (a 0.3 m step, a 1.27 m
/// jump) did not walk in time, from a sector roof down to one 1.46 m lower. It dropped 1.55 m off a place
/// the scan had set down 7 cm off its column's centre, a skin off the riser of a roof 8 cm higher; walked off
/// at half a metre a second, the body's rounded bottom met that riser's corner three frames on, and the
/// controller stepped it up onto the roof, carrying it 21 cm onto the tread; steering brought it back to the
/// rim, and so on for good. Such a drop is now walked as steering walks it (`reach/edges.rs` `try_move`),
/// and the path goes another way.
#[test]
fn regression_seed_82_a_path_down_between_roofs_is_walked() {
    let cells: Vec<Cell> = vec![
        Some((1.2, 2.566_173_6, None)),
        Some((0.6, 2.535_940_2, None)),
        Some((0.0, 2.572_327_6, None)),
        Some((0.15, 1.264_194_6, None)),
        None,
        Some((0.0, 1.230_397_9, None)),
        None,
        Some((0.322_208_97, 2.549_519_8, None)),
        Some((0.487_581_9, 2.294_186_4, None)),
    ];
    let scene = sector_grid(2.798_753_7, 3, &cells, &[]);
    let ctl = agent(
        0.270_265_85,
        0.150_673_55,
        0.301_968_2,
        48.748_03,
        1.269_897_8,
    );
    let (from, to) = (
        Vec3::new(3.124_996, 2.881_999_3, 7.624_996),
        Vec3::new(2.624_996, 1.423_999_5, 5.124_996),
    );
    let map = walked_map(&scene, ctl, true, from, to);
    assert!(map.path(0, from, to).is_some(), "no path");
}

/// Found by the sample levels with random agent sizes (seed 110, jumps off): in the gallery a wide body (radius
/// 0.64 m, a 0.05 m step) starts on a place nudged within its cell into the next column. The reach map took the
/// start for that column's place (its feet's key), so that place was never moved on from, and the pocket it
/// leads out of was all the map reached (a narrow gap named the blocker); the map walked out by it. Now the
/// start is the place it stands on, and both reach the far side.
#[test]
fn regression_seed_110_a_start_nudged_into_the_next_column_is_its_own_place() {
    let scene = sample_level("cookbook_gallery");
    let ctl = agent(0.641_496_7, 0.895_700_04, 0.05, 25.0, 0.3);
    let (from, to) = (
        Vec3::new(-1.389_927_5, 0.009_999_99, 1.272_354_8),
        Vec3::new(1.657_064_7, 0.009_999_99, 2.124_995_2),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by the sample levels with random agent sizes (seed 114, jumps off): sample 31's corner of the magic
/// room for a 0.76 m wide body with a 5 cm step (see there).
#[test]
fn regression_seed_114_a_magic_room_place_near_a_reached_one_is_reached() {
    let scene = sample_level("magic_room");
    let ctl = agent(0.378_732_62, 0.434_921_7, 0.05, 25.0, 0.3);
    let (from, to) = (
        Vec3::new(-2.925_003, 0.009_999_99, -2.375_002_4),
        Vec3::new(-3.324_659_8, 0.009_999_99, 2.064_647),
    );
    assert!(the_two_agree(&scene, ctl, from, to));
}

/// Found by sector seed 120 (jumps off): a wide agent (radius 0.6 m, a 0.31 m step, slopes to 51°) walks along
/// the rim of one sloped roof beside another (objects 8 and 6), between two places held off their columns'
/// centres on the rims. The map's one move from the first place's feet lands on the second; a body walked there at
/// 60 Hz sinks a few centimetres a frame, slides off the rim into a pocket between the two roofs' rims and,
/// steered back, steps out 0.45 m the way it came, looping. A move from feet held off their column's centre on a
/// face that is not level is now kept only when the walk makes it too (`character/reach/edges.rs`), as one up a
/// riser from such feet was.
#[test]
fn regression_seed_120_a_wide_body_crosses_a_crease_between_two_sloped_roofs() {
    let cells: Vec<Cell> = vec![
        Some((0.0, 2.493_758_7, None)),
        Some((0.122_919_71, 3.335_513_8, None)),
        Some((0.0, 2.818_221_6, None)),
        Some((0.520_140_4, 2.026_221_5, None)),
        Some((0.0, 1.720_884_4, None)),
        Some((0.368_697_2, 2.829_990_4, Some((1, -2.494_073_4)))),
        Some((0.0, 3.361_985_7, Some((1, -24.873_386)))),
        Some((0.0, 2.650_46, Some((0, 16.238_907)))),
        Some((0.3, 2.115_460_4, None)),
    ];
    let scene = soak_grid(
        2.933_714_2,
        &cells,
        &[
            (0.5, 7.519_602, 0.2, 1.136_117_1),
            (7.076_197, 3.885_875_2, 0.2, 1.494_769_8),
        ],
    );
    let ctl = agent(0.597_722, 0.521_538_14, 0.307_547_7, 51.471_397, 0.3);
    let (from, to) = (
        Vec3::new(0.124_995_805, 2.555_999, 3.874_995_7),
        Vec3::new(7.374_995_7, 2.827_998_9, 0.874_995_8),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Found by sector seed 125 (jumps off): a tiny agent (radius 0.1 m, 0.3 m tall, a 0.27 m step, slopes to
/// 42.7°) walks off a flat roof onto a 33.7° roof rising from a 4.5 cm lip where the two meet. The steered body,
/// arriving at walking speed with its front a centimetre past the lip, stepped up and landed with its rounded
/// bottom on the slope ahead of its axis, the axis still over the flat roof: the riser, measured straight under
/// the feet before and after, read as no climb, and each move was refused for good. What the body climbs there
/// is its feet's rise (`movement/step.rs`).
#[test]
fn regression_seed_125_a_tiny_body_climbs_the_lip_onto_a_sloped_roof() {
    let cells: Vec<Cell> = vec![
        None,
        None,
        Some((0.625_167_5, 1.647_478_8, Some((1, 27.231_401)))),
        Some((0.0, 1.0, None)),
        None,
        Some((0.0, 1.0, None)),
        Some((0.0, 1.0, None)),
        Some((0.271_220_98, 3.337_124_6, Some((1, 33.728_8)))),
        Some((0.3, 3.263_487_3, None)),
    ];
    let scene = soak_grid(3.351_807_8, &cells, &[]);
    let ctl = agent(0.1, 0.1, 0.551_875_3, 42.718_872, 1.289_331_6);
    let (from, to) = (
        Vec3::new(9.624_995, 3.572_999, 8.624_995),
        Vec3::new(1.124_995_2, 1.01, 7.624_995),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Found by sector seed 128 (jumps off): a 0.24 m body (0.88 m tall, a 0.36 m step) walks down a floor sloped
/// 8.8° to a 0.1 m riser, under a ceiling sloped with it that comes down to 1.3 m over the riser. The map's move
/// from the place at the riser's foot steps up; the steered body, arriving a few millimetres higher in the skin
/// band, lifted the whole step, met the ceiling with its head before its middle was over the tread, and stood
/// at the riser for good. A step whose whole lift steps onto nothing is now tried again lifted just over the
/// riser's top (`movement/step.rs`).
#[test]
fn regression_seed_128() {
    let cells: Vec<Cell> = vec![
        Some((0.45, 2.318_301, None)),
        Some((0.0, 1.253_724_7, Some((0, 30.667_77)))),
        Some((0.0, 2.685_6, None)),
        Some((0.0, 1.303_370_2, Some((2, 8.836_355)))),
        Some((0.0, 1.0, None)),
        None,
        Some((0.15, 2.543_755, None)),
        Some((0.536_079_4, 1.0, None)),
        Some((0.0, 1.0, None)),
    ];
    let scene = soak_grid(3.970_621_6, &cells, &[]);
    let ctl = agent(0.241_544_77, 0.400_106_16, 0.358_386_93, 52.818_848, 0.3);
    let (from, to) = (
        Vec3::new(0.624_994_34, 0.459_999_98, 0.257_064_64),
        Vec3::new(2.124_994_3, 0.160_000_34, 10.874_994),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Found by sector seed 136 (jumps off), a path not walked by a wide, tall agent (radius 0.46 m, 2.49 m tall, a
/// 0.15 m step, slopes to 35.8°) over flat sectors 0.15 to 0.5 m apart beside a 34.4° one; walked since the
/// session's two changes (the lower lift of a step, and walks of moves from feet held off centre on a slope; the
/// soak found it on the binary before both, and which of them it needed is not separated).
#[test]
fn regression_seed_136() {
    let cells: Vec<Cell> = vec![
        Some((0.3, 1.669_672_6, None)),
        Some((0.0, 1.922_741_8, Some((2, -34.432_926)))),
        Some((0.15, 2.164_9, None)),
        Some((0.505_207, 1.821_906_4, None)),
        Some((0.15, 1.459_636_3, None)),
        None,
        None,
        None,
        None,
    ];
    let scene = soak_grid(2.140_616_2, &cells, &[]);
    let ctl = agent(0.460_532_67, 1.566_066_4, 0.150_287_1, 35.760_38, 0.3);
    let (from, to) = (
        Vec3::new(4.374_997, 2.324_999, 1.124_996_9),
        Vec3::new(0.124_996_94, 1.979_999_1, 1.624_996_9),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Found by sector seed 140 (jumps on; on the binary before the session too): a slim agent (radius 0.17 m, a
/// 0.19 m step, slopes to 25°, a 0.81 m jump) jumps 0.43 m down onto a landing on a riser's rim and lands 4 mm
/// short of it, held by the rim. Steering aims at the landing exactly; the rule that a body closing no faster
/// than that wish is held short (and goes on) was left out for a landing lower than the take-off by more than
/// the snap, as for walking off a ledge, so the body was aimed at the 4 mm for good. A jump is not walked off
/// slowly: the rule holds for it (`nav/steer.rs`, `at_corners`).
#[test]
fn regression_seed_140() {
    let cells: Vec<Cell> = vec![
        Some((0.120_274_46, 3.138_074, Some((1, -22.941_2)))),
        Some((0.0, 1.828_360_8, None)),
        None,
        Some((0.526_049_44, 3.438_892, None)),
        Some((0.0, 2.405_107, None)),
        Some((0.0, 2.394_765_4, None)),
        Some((0.0, 1.0, None)),
        None,
        Some((0.6, 3.009_831_2, None)),
    ];
    let scene = soak_grid(
        2.422_137,
        &cells,
        &[(1.033_212_1, 3.595_739_6, 0.600_107_25, 0.980_870_6)],
    );
    let ctl = agent(0.171_731_7, 1.453_654_9, 0.192_416_97, 25.0, 0.813_056_23);
    let (from, to) = (
        Vec3::new(5.374_996_7, 3.619_999, 5.124_996_7),
        Vec3::new(1.874_996_5, 3.974_998_7, 3.374_996_4),
    );
    walked_map(&scene, ctl, true, from, to);
}

/// Still open (found by sector seed 139, jumps on; the soak found it on the binary before the session too): a
/// wide agent (radius 0.56 m, a 0.29 m step, a 0.3 m jump) jumps 0.27 m up off a slope; sliding up a 55° face
/// on the way throws it 0.64 m up, and it stops against a wall over the landing, still rising. The landing is
/// the next jump's take-off, and steering, stateless, cannot tell a body still flying the first jump from one
/// just off the second: the body's energy over each take-off points to the second, so the wish turns along it
/// in the air, the body comes down past the landing onto the slope below, and the loop begins again. The bake
/// flew the first jump with its wish held to the landing. Not fixed: telling the two apart needs what the body
/// did before (a take-off the game keeps), or a bake that drops a jump whose landing is a take-off flown over.
#[test]
#[ignore = "known: in the air over a landing that is the next jump's take-off, steering turns onto that jump"]
fn regression_seed_139() {
    let cells: Vec<Cell> = vec![
        None,
        None,
        None,
        Some((0.0, 3.264_774, None)),
        Some((0.15, 1.173_085, Some((2, -4.282_019_6)))),
        Some((0.0, 2.268_876_6, None)),
        Some((0.636_675_83, 2.781_439, Some((2, 29.701_717)))),
        Some((0.046_585_467, 1.456_452, None)),
        Some((0.151_707_22, 1.423_145_7, None)),
    ];
    let scene = soak_grid(
        2.545_902_5,
        &cells,
        &[
            (0.5, 1.753_839_3, 0.234_717_53, 0.0),
            (3.269_75, 3.723_224_6, 0.518_011_45, 1.480_310_6),
        ],
    );
    let ctl = agent(0.555_221_9, 1.057_283_9, 0.292_152_14, 44.825_19, 0.3);
    let (from, to) = (
        Vec3::new(3.137_828_6, 1.301_327, 4.647_674),
        Vec3::new(3.116_441_7, 1.512_999_5, 5.128_998_3),
    );
    walked_map(&scene, ctl, true, from, to);
}

/// Found by the sample levels' soak (seed 154, jumps off): the magic room, a slim agent (radius 0.17 m, 0.76 m
/// tall, a 5 cm step) set off 0.15 m from the path's start, under a sloped ceiling its head touches. Within a
/// radius of the start, steering headed for the first segment's end; the ceiling turned the body off the segment
/// past a radius, steering sent it back, and so on for good. A body short of the path's start now goes to the
/// start first, reaching it exactly, where the bake's moves began (`nav/steer.rs`).
#[test]
fn regression_sample_154() {
    let scene = sample_level("magic_room");
    let ctl = agent(0.173_474_06, 0.408_408_73, 0.05, 50.258_846, 0.3);
    let (from, to) = (
        Vec3::new(-2.837_433_6, 0.010_000_005, 2.726_217_7),
        Vec3::new(-1.326_484, 0.010_000_005, -2.146_420_2),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Still open (found by sector seed 157, jumps on): a 0.39 m agent (1.51 m tall, a 1.38 m jump) walks
/// diagonally to a jump's take-off (0.23 m down over 0.81 m) under a ceiling whose edge is 4 cm over its head,
/// reaches it exactly and jumps: the ceiling's edge cuts the jump at once, the body comes down 0.2 m on, short
/// of the landing, and steering walks it back to the take-off, for good. The bake flew the link from the
/// take-off (and from the skin band's top) and it landed; what the steered jump has that those flights do not
/// (the walk's approach from the side, the velocity it arrives with) is not yet found.
#[test]
#[ignore = "known: a jump cut by a ceiling's edge over the take-off falls short; steering loops"]
fn regression_seed_157() {
    let cells: Vec<Cell> = vec![
        Some((0.0, 1.617_494_7, None)),
        Some((0.45, 2.830_367, None)),
        Some((1.2, 3.443_500_5, None)),
        Some((0.0, 1.631_263_4, None)),
        Some((0.339_208_36, 1.653_668_3, None)),
        Some((0.0, 2.762_870_6, None)),
        Some((0.15, 2.523_680_2, None)),
        Some((0.6, 1.669_037_7, None)),
        Some((0.0, 2.125_970_1, None)),
    ];
    let scene = soak_grid(
        2.452_276_7,
        &cells,
        &[(6.082_342_6, 4.593_693_7, 0.714_348_55, 0.973_366_3)],
    );
    let ctl = agent(0.392_069, 0.730_060_9, 0.587_122_14, 41.343_92, 1.375_698_1);
    let (from, to) = (
        Vec3::new(5.124_996_7, 1.210_000_3, 1.374_996_5),
        Vec3::new(5.312_118, 0.983, 3.390_154_1),
    );
    walked_map(&scene, ctl, true, from, to);
}

/// Found by sector seed 159 (jumps off; on the session's first binary too, at another case): a slim agent
/// (radius 0.1 m, a 0.36 m step) turns at a corner of the path beside a wall onto a 0.1 m riser whose top edge
/// rises along it (a sector sloped up from the wall). The map's one move of a cell from the corner carries the
/// body onto the tread; a frame's walk meets the rising edge, is turned along it into the wall's corner and
/// stands there. A move that steps up a riser is now kept only when the walk makes it too
/// (`character/reach/edges.rs`).
#[test]
fn regression_seed_159() {
    let cells: Vec<Cell> = vec![
        Some((0.0, 1.0, None)),
        None,
        None,
        Some((0.15, 1.719_798_3, None)),
        Some((0.282_692_34, 1.0, Some((0, 34.438_183)))),
        Some((0.290_831_77, 2.886_303_4, None)),
        Some((0.0, 1.0, None)),
        Some((0.6, 1.0, None)),
        Some((0.0, 1.0, None)),
    ];
    let scene = soak_grid(
        3.000_42,
        &cells,
        &[(4.908_593_7, 4.583_809_4, 0.307_057_26, 0.0)],
    );
    let ctl = agent(0.1, 0.682_688_9, 0.359_094_02, 41.727_65, 0.3);
    let (from, to) = (
        Vec3::new(3.374_995_7, 2.287_879, 5.874_995_7),
        Vec3::new(3.874_995_7, 1.430_703_5, 4.624_995_7),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Still open (found by sector seed 133, jumps off; on the session's first binary too): a slim agent (radius
/// 0.14 m, a 5 cm step) drops 0.65 m onto a 35° slope, goes 0.1 m on down it (a drop link), then back up the same
/// line: three segments over one another across, and a body on the slope between their ends counts as on the
/// first drop (its band is the drop's height), so steering holds it at a corner or sends it back and forth.
/// Counting a grounded body more than a step under a drop's landing off that drop ends the first stop; the
/// back and forth remains. Needs the path not to double back on itself (or steering to know which pass).
#[test]
#[ignore = "known: a path that doubles back over a drop onto a slope; steering holds the body between its passes"]
fn regression_seed_133() {
    let cells: Vec<Cell> = vec![
        Some((0.0, 1.0, None)),
        Some((0.490_141, 1.430_695_3, None)),
        Some((0.0, 3.352_698_3, Some((0, -34.911_995)))),
        None,
        None,
        Some((0.0, 1.677_109_1, None)),
        None,
        Some((0.0, 2.919_543_3, None)),
        Some((0.648_788_63, 1.628_108_3, None)),
    ];
    let scene = soak_grid(
        3.686_726_8,
        &cells,
        &[(6.082_644, 3.708_734_8, 0.310_062_17, 0.024_946_576)],
    );
    let ctl = agent(0.144_815_33, 0.314_820_77, 0.05, 56.340_355, 0.3);
    let (from, to) = (
        Vec3::new(4.374_994_8, 2.929_999, 10.374_994),
        Vec3::new(4.374_994_8, 1.930_999_5, 3.124_994_8),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Still open (found by sector seed 161, jumps off, on the session's last binary), not yet looked into: a path
/// a 0.21 m agent with a 6 cm step and slopes to 37° does not walk, over sloped sectors.
#[test]
#[ignore = "known: a path not walked, not yet looked into"]
fn regression_seed_161() {
    let cells: Vec<Cell> = vec![
        Some((0.584_352_6, 2.598_695_5, Some((2, 25.752_203)))),
        None,
        Some((0.15, 2.747_501_4, Some((0, -30.672_611)))),
        Some((0.0, 2.095_147_8, None)),
        Some((0.0, 1.584_447_5, Some((2, 11.355_034)))),
        Some((0.0, 1.433_321_7, None)),
        None,
        None,
        Some((0.15, 3.049_821_1, Some((3, -23.531_87)))),
    ];
    let scene = soak_grid(3.661_396_3, &cells, &[]);
    let ctl = agent(0.208_345_77, 1.159_904_5, 0.058_473_185, 37.072_975, 0.3);
    let (from, to) = (
        Vec3::new(7.624_994_8, 1.442_999_6, 6.624_994_8),
        Vec3::new(7.374_994_8, 2.572_856_2, 0.624_994_75),
    );
    walked_map(&scene, ctl, false, from, to);
}
