//! The turned and shape soaks' findings (session 28), each a test.

use collidoscope::glam::{Vec2, Vec3};
use collidoscope::scene::Scene;

use super::{Cell, agent, turned_grid, walked_map};

/// The turned soak's seed 3 level: a 3×3 sector grid of 2.16 m cells turned by 1°, a slope falling 22° east
/// into a valley at the foot of a 0.45 m floor (cell 5, object 6) whose rim a wide body hangs on.
fn seed_3_level() -> Scene {
    let cells: Vec<Cell> = vec![
        Some((0.0, 1.0, None)),
        None,
        Some((0.0, 1.0, None)),
        Some((0.259_533_67, 3.284_343_5, None)),
        Some((0.317_348_42, 2.926_515_3, Some((3, -22.453_903)))),
        Some((0.45, 2.822_694_3, None)),
        Some((0.669_666_77, 1.139_739_5, Some((1, 22.409_5)))),
        Some((0.0, 1.983_091_8, None)),
        Some((0.072_107_986, 2.463_512_7, None)),
    ];
    turned_grid(2.161_247_7, 3, &cells, &[], 1.0)
}

/// Seed 3's controller: radius 0.68 m, a 0.44 m step, slopes to 59.9°.
fn seed_3_agent() -> collidoscope::character::CharacterController {
    agent(0.677_531_7, 0.408_425_93, 0.442_321_87, 59.869_617, 0.3)
}

/// Seed 3's move that carried the body half a metre sideways: hanging on the rim of the 0.45 m floor (its axis
/// 0.52 m off the rim, the valley below), moving 6.7 cm almost along the rim. Its step up landed on the rim's
/// edge 81° off the motion, and settling on the tread walked the axis over that edge, 0.53 m across the
/// motion, up onto the floor. A nosing is climbed only within 60° of the motion; one further aside is an edge
/// the body rests on as it is (as one behind it was), so the move goes about as far as its motion.
#[test]
fn regression_turned_seed_3_a_step_does_not_carry_the_body_sideways_onto_a_rim() {
    let (scene, ctl) = (seed_3_level(), seed_3_agent());
    let start = Vec3::new(3.798_960_2, 0.217_341_45, 3.295_621_6);
    let motion = Vec3::new(0.009_955_046, -0.001_362_500_2, 0.065_919_206);
    let m = ctl.move_character(&scene, start, motion);
    let across = Vec2::new(m.feet.x - start.x, m.feet.z - start.z).length();
    // Before: (4.334, 0.46, 3.352), 0.54 m away.
    assert!(
        across <= Vec2::new(motion.x, motion.z).length() + 2.0 * ctl.skin,
        "{start} + {motion} -> {}",
        m.feet
    );
    assert!(scene.overlap_capsule(&ctl.capsule(m.feet)).is_empty());
}

/// Found by the turned soak's seed 3 (jumps off): a wide body set off on the rim, where the map's search starts
/// on the slope below (a body moved straight down slides off the rim's edge), steered along the path's first
/// segment; each time it slid down the rim a step carried it sideways back up onto the floor (the test above),
/// for good. Now it slides down and follows the path.
#[test]
fn regression_turned_seed_3() {
    let (scene, ctl) = (seed_3_level(), seed_3_agent());
    let (from, to) = (
        Vec3::new(3.999_859, 0.379_509, 3.264_067_4),
        Vec3::new(5.068_997, 0.082_000_08, 5.318_997),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Found by the shapes soak's seed 5 (jumps off): a wide agent (radius 0.65 m, a 0.58 m step, slopes to 54°)
/// on a floor of logs and tilted slabs. The path is kept as the search found it (a point a cell); its move onto a
/// lying log's flank (the body's round bottom resting on it at 49°, the feet 0.25 m up) is one 28 cm move in the
/// map, and the steered body, moving 6.7 cm a frame, came down each frame on the flank too steep (59°) to stand on
/// and was refused: it stopped 0.16 m short for good. A step now moves on over a rounded flank as over a nosing
/// (`tests/character/rounded.rs`), and the body walks the path.
#[test]
fn regression_shapes_seed_5() {
    let shapes = [
        (
            3,
            0.391_871_96,
            0.817_753_8,
            0.0,
            0.398_180_96,
            0.646_15,
            0.087_730_85,
        ),
        (
            2,
            0.754_198,
            0.341_617_32,
            0.341_151_42,
            0.0,
            0.431_959_27,
            0.697_736_2,
        ),
        (
            3,
            0.862_326_5,
            0.041_496_79,
            0.895_861_2,
            0.207_214_67,
            0.580_837_97,
            0.355_783_22,
        ),
        (
            2,
            0.810_716_3,
            0.884_614_35,
            0.633_234_7,
            0.0,
            0.688_621_16,
            0.028_784_126,
        ),
        (
            2,
            0.815_598_5,
            0.182_625_22,
            0.946_992_75,
            0.0,
            0.637_787_04,
            0.914_368,
        ),
    ];
    let scene = super::shapes_level(&shapes);
    let ctl = agent(0.648_443_8, 0.1, 0.575_174_45, 54.117_12, 0.3);
    let (from, to) = (
        Vec3::new(-3.375_003_3, 0.009_999_99, -3.481_161_6),
        Vec3::new(1.374_996_7, 0.559_903_5, -1.981_161_6),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Found by the shapes soak's seed 11 (jumps on): a wide agent (radius 0.68 m, a 0.12 m step, slopes to 30°, a
/// 1.08 m jump) among posts, logs and walls.
#[test]
fn regression_shapes_seed_11() {
    let shapes = [
        (
            2,
            0.582_192_5,
            0.016_678_145,
            0.266_472_2,
            0.0,
            0.680_175_3,
            0.437_086_6,
        ),
        (
            2,
            0.009_272_552,
            0.778_837_4,
            0.137_748_33,
            0.0,
            0.218_919_4,
            0.064_037_226,
        ),
        (
            1,
            0.012_646_218,
            0.958_252_5,
            0.748_028_7,
            0.0,
            0.742_543_7,
            0.0,
        ),
        (
            2,
            0.594_690_2,
            0.389_225_72,
            0.659_449_8,
            0.0,
            0.306_363_67,
            0.039_249_483,
        ),
        (
            1,
            0.863_233_45,
            0.041_436_72,
            0.870_249_4,
            0.0,
            0.253_757_3,
            0.0,
        ),
        (
            2,
            0.679_685,
            0.246_329_86,
            0.294_495_52,
            0.0,
            0.243_034_96,
            0.267_703_6,
        ),
        (
            3,
            0.251_865_45,
            0.550_668_06,
            0.515_281_2,
            0.641_578_3,
            0.803_921,
            0.514_598_5,
        ),
        (
            1,
            0.652_840_5,
            0.689_005_2,
            0.312_817_36,
            0.0,
            0.357_472_9,
            0.0,
        ),
        (
            0,
            0.473_471_8,
            0.378_968_7,
            0.568_442_5,
            0.342_853_22,
            0.397_729_7,
            0.863_311_35,
        ),
        (
            0,
            0.987_484,
            0.663_620_95,
            0.015_242_079,
            0.886_603_5,
            0.503_535_8,
            0.781_624_56,
        ),
        (
            1,
            0.957_045_3,
            0.487_884_97,
            0.929_279_7,
            0.0,
            0.572_605_55,
            0.0,
        ),
    ];
    let scene = super::shapes_level(&shapes);
    let ctl = agent(0.683_875_8, 0.1, 0.116_008_29, 30.213_337, 1.084_070_2);
    let (from, to) = (
        Vec3::new(-3.375_003_3, 0.009_999_99, -1.907_003_6),
        Vec3::new(-1.045_607_2, 0.291_373_55, 0.516_342_94),
    );
    walked_map(&scene, ctl, true, from, to);
}

/// Found by the shapes soak's seed 22 (jumps off): a 0.66 m wide agent with a 0.47 m step, slopes to 49°.
#[test]
fn regression_shapes_seed_22() {
    let shapes = [
        (2, 0.826_180_34, 0.925_688_9, 0.0, 0.0, 0.759_470_4, 0.0),
        (
            3,
            0.718_885_1,
            0.429_388_8,
            0.839_273_8,
            0.450_494_86,
            0.856_489_54,
            0.875_386_3,
        ),
        (1, 0.491_044_37, 0.117_112_42, 0.0, 0.0, 0.464_247_64, 0.0),
        (
            2,
            0.979_389_5,
            0.214_569_67,
            0.225_298_46,
            0.0,
            0.789_139_75,
            0.580_283,
        ),
        (
            0,
            0.293_873_7,
            0.571_695_2,
            0.855_383_93,
            0.875_321_03,
            0.962_493_66,
            0.420_589_86,
        ),
        (1, 0.0, 0.512_299_84, 0.931_954_44, 0.0, 0.331_388_83, 0.0),
        (
            0,
            0.513_539_25,
            0.689_888_83,
            0.631_402_85,
            0.331_699_22,
            0.441_140_44,
            0.208_162_23,
        ),
    ];
    let scene = super::shapes_level(&shapes);
    let ctl = agent(0.328_551_02, 0.1, 0.465_002_45, 49.415_585, 0.3);
    let (from, to) = (
        Vec3::new(2.374_996_7, 0.009_999_99, -2.375_003_3),
        Vec3::new(2.903_464_3, 0.009_999_99, -0.583_851_16),
    );
    walked_map(&scene, ctl, false, from, to);
}

/// Found by the shapes soak's seed 23 (jumps off): a 0.99 m wide agent with a 0.58 m step, slopes to 34°,
/// set off 3.8 cm from its path's start.
#[test]
fn regression_shapes_seed_23() {
    let shapes = [
        (
            0,
            0.610_236_3,
            0.585_366_1,
            0.064_254_95,
            0.502_515_14,
            0.104_577_51,
            0.0,
        ),
        (
            1,
            0.402_096_54,
            0.631_059_05,
            0.545_106_35,
            0.0,
            0.955_637_4,
            0.0,
        ),
        (
            1,
            0.734_931_35,
            0.750_236_2,
            0.861_492_75,
            0.0,
            0.398_703_2,
            0.0,
        ),
        (
            3,
            0.481_309_03,
            0.384_822_34,
            0.407_224_5,
            0.449_080_7,
            0.558_264_55,
            0.020_187_821,
        ),
        (
            3,
            0.940_054_9,
            0.383_673_5,
            0.568_933_2,
            0.459_440_9,
            0.816_280_36,
            0.794_825_43,
        ),
        (
            0,
            0.092_863_85,
            0.599_596_14,
            0.200_556_74,
            0.575_075_1,
            0.328_406_54,
            0.790_983_9,
        ),
        (1, 0.683_377_8, 0.833_956_36, 0.0, 0.0, 0.350_719_6, 0.0),
        (
            3,
            0.825_525_05,
            0.908_058_5,
            0.0,
            0.817_142_8,
            0.383_244_72,
            0.342_575_22,
        ),
        (
            0,
            0.051_087_473,
            0.0,
            0.594_998_3,
            0.817_786_34,
            0.027_671_628,
            0.269_762_75,
        ),
        (
            1,
            0.804_118_4,
            0.027_709_2,
            0.437_335_64,
            0.0,
            0.670_592_4,
            0.0,
        ),
        (
            0,
            0.160_373_1,
            0.117_341_54,
            0.993_410_1,
            0.630_605_76,
            0.097_059_72,
            0.785_880_5,
        ),
        (
            3,
            0.072_929_36,
            0.275_884_2,
            0.312_767_5,
            0.0,
            0.908_747_4,
            0.807_132_66,
        ),
    ];
    let scene = super::shapes_level(&shapes);
    let ctl = agent(0.492_687_3, 0.1, 0.577_994_94, 34.290_962, 0.3);
    let (from, to) = (
        Vec3::new(-0.321_390_63, 0.010_000_02, 0.150_506_21),
        Vec3::new(-3.388_004_3, 0.010_000_02, 2.374_996_7),
    );
    walked_map(&scene, ctl, false, from, to);
}
