//! The navigation soaks' findings at rims, each a level, an agent size and a pair of places, walked: a thin
//! roof's rim beside a body walking down a slope (the snap met it and found no ground), and a jump whose flight
//! grazes a rise's rim beside its take-off (a body standing higher in the skin band hit the rise).

use collidoscope::glam::Vec3;

use super::{Cell, agent, jumps, soak_grid, walked_map, walked_path};

/// Found by sector seed 102 (jumps off): a wide agent (radius 0.58 m, a 0.26 m step) walks down a 22.8° roof
/// (a sector's sloped ceiling top) along its west edge, where the rim of the next roof (rising away from it to
/// 3.71 m) stands 2 mm inside the body's side. On the way down the snap's sweep met that rim at the body's side
/// (its face toward the body a wall: the roof beyond slopes away) and the move found no ground: the body fell,
/// flew past four points of the path and stood pressed against the rise onto the next roof. Now the ground
/// under such a rim is looked for as under an edge the body hangs beside, and the body walks down the slope.
#[test]
fn a_wide_body_walks_down_a_roof_beside_the_rim_of_the_next() {
    let cells: Vec<Cell> = vec![
        Some((0.0, 1.0, None)),
        Some((0.601_527_7, 2.854_91, None)),
        Some((0.502_261_7, 2.129_568, None)),
        Some((0.0, 2.130_533_5, None)),
        Some((1.2, 2.653_410_2, None)),
        Some((0.6, 3.363_323_7, Some((1, -24.915_573)))),
        Some((0.381_795_35, 3.277_840_1, None)),
        Some((0.161_682_67, 1.150_153_5, Some((3, 36.210_773)))),
        Some((0.018_330_641, 2.349_743_1, Some((0, 22.849_829)))),
    ];
    let scene = soak_grid(
        3.270_582_4,
        &cells,
        &[(0.875_508_9, 3.145_494_2, 0.589_995_86, 0.0)],
    );
    let ctl = agent(0.578_868_2, 0.581_709_2, 0.262_047_83, 41.501_152, 0.3);
    let (from, to) = (
        Vec3::new(0.124_995_32, 3.669_999_1, 8.624_995),
        Vec3::new(9.374_995, 3.830_416_2, 4.124_995),
    );
    let map = walked_map(&scene, ctl, false, from, to);
    assert!(map.path(0, from, to).is_some(), "no path");
}

/// Found by sector seed 107 (jumps on): a thin agent (radius 0.16 m, a 0.14 m step, 1.32 m jumps) jumps up
/// onto a roof and from there diagonally across a corner to a higher roof, the flight grazing the rim of a rise
/// beside the take-off. The bake flew it from the take-off at rest and it landed; the steered body, landed
/// there off the first jump, stood 4 mm higher (within the skin band, where a move settles without snapping),
/// and its flight hit the rise's wall and fell off the level. Now the bake flies each link from the top of
/// the skin band too: this one is not a link, and the path goes another way.
#[test]
fn a_jump_from_the_top_of_the_skin_band_lands_as_from_rest() {
    let cells: Vec<Cell> = vec![
        Some((0.0, 1.0, None)),
        Some((0.0, 2.708_434_3, Some((3, 22.316_66)))),
        Some((0.3, 2.556_800_1, None)),
        Some((0.0, 2.655_532_8, None)),
        Some((0.0, 1.405_962_8, None)),
        Some((0.622_246_15, 2.065_43, None)),
        Some((0.0, 1.0, None)),
        None,
        None,
    ];
    let scene = soak_grid(2.319_248_4, &cells, &[]);
    let ctl = agent(0.158_179_39, 1.196_870_8, 0.141_653_08, 25.0, 1.318_673);
    let (from, to) = (
        Vec3::new(2.489_791, 1.415_999_5, 2.489_791),
        Vec3::new(4.624_996_7, 3.678_319, 1.374_996_7),
    );
    let path = walked_path(&scene, ctl, from, to).expect("a path");
    assert!(jumps(&path) >= 1, "{path:?}");
}
