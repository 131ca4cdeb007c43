//! The navigation soaks' knife-edge findings, where the map and the reach map once disagreed (a place the reach
//! map reached with no path; a path a body walks to a place the reach map did not reach). The reach map now
//! moves as the map's graph does (each place from its own feet, every landing of every target tried:
//! `character/reach/edges.rs`'s `explore`), and each case here is a test that the two agree, with the answer
//! they agree on, the path walked where there is one and a blocker named where there is not. No disagreement is
//! open (the last, sector seeds 76 and 110, the magic room's sample 31 and seed 114, are fixed). The paths a body
//! did not walk that the last soaks found (sector seeds 52, 80, 81 and 82: steps up and drops from feet the
//! scan set down off their column's centre, against a riser) are tests here too. The cases of other defects
//! fixed are in `nav_soak_cases.rs` and `nav_soak_rims.rs`; the paths not walked at the controller's steps and
//! at steering's ends of segments that session 26's soaks found are in `nav_soak_steps.rs`.

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
/// and that one is not: the map and the reach map agreed that the place was out of reach from there (the reach
/// map naming a blocker). Since a step moves on over an edge higher than the riser it met when that edge is still
/// within a step of the feet (session 29: faceted logs), the place is reached, and the path to it walked.
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
    assert!(the_two_agree(&scene, ctl, from, to));
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
