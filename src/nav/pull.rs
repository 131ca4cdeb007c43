//! Straightening by proof: along a run of walking, the line from the point reached so far to the farthest
//! later point that [`line::proven`] settles (a level floor the widest checked body crosses touching nothing),
//! so no body is stepped for it.
//!
//! The search's points hug walls where the path turns (a place beside a wall stands its body a skin off it),
//! and no line from such a point is proven: the widest body does not fit there. So each point of a run has an
//! anchor for proven lines: the place of the map nearest it (itself first) within two cells at its height where
//! a body half a cell wider than the widest stands clear (a cell or so off the wall, so lines between such
//! anchors round a corner keep clear of it). A proven line may end on an anchor that is not
//! a point of the search: the line itself is the proof, wherever its ends are. The run's last point is its own
//! anchor only (a jump's take-off, a drop's rim or the goal). Where no line from the point reached is proven,
//! the caller steps bodies as before.

use glam::Vec3;

use super::line;
use super::ways::{self, Way};
use crate::character::{CharacterController, MoveGraph};
use crate::scene::Scene;

/// How far from a point (in cells) its anchor may stand.
const REACH: f32 = 2.0;

/// How far a place may stand from a point's height and still anchor it, metres (`line`'s level).
const LEVEL: f32 = 1e-3;

/// The anchors of one path's points, found as the straightening asks for them.
pub(super) struct Anchors<'a> {
    scene: &'a Scene,
    graph: &'a MoveGraph,
    ctl: &'a CharacterController,
    margin: f32,
    points: &'a [Vec3],
    /// The movers' ways no line may cross (`ways.rs`).
    ways: &'a [Way],
    /// Per point: not looked for yet (`None`), or its anchor if it has one.
    memo: Vec<Option<Option<Vec3>>>,
}

impl<'a> Anchors<'a> {
    /// Anchors for `points`, proven for `ctl`'s agent and bodies up to `margin` wider or narrower.
    pub(super) fn new(
        scene: &'a Scene,
        graph: &'a MoveGraph,
        ctl: &'a CharacterController,
        margin: f32,
        points: &'a [Vec3],
    ) -> Self {
        Self {
            scene,
            graph,
            ctl,
            margin,
            points,
            ways: &[],
            memo: vec![None; points.len()],
        }
    }

    /// The same, no line crossing any of `ways` (a mover's way is never walked into).
    pub(super) fn avoiding(self, ways: &'a [Way]) -> Self {
        Self { ways, ..self }
    }

    /// Whether the line from `a` to `b` is proven walked (`line::proven`).
    pub(super) fn proven(&self, a: Vec3, b: Vec3) -> bool {
        line::proven(self.scene, self.graph, self.ctl, self.margin, a, b)
    }

    /// Whether the widest checked body stands clear at `p` on a level floor (a proven line of no length).
    pub(super) fn clear(&self, p: Vec3) -> bool {
        self.proven(p, p)
    }

    /// The anchor of point `k` (see the module): the place nearest it within [`REACH`] cells at its height
    /// (itself first) with room for a body half a cell wider than the widest checked; `last` (the run's end)
    /// only itself, where the widest body stands clear.
    fn anchor(&mut self, k: usize, last: bool) -> Option<Vec3> {
        let p = *self.points.get(k)?;
        if last {
            return self.clear(p).then_some(p);
        }
        if let Some(found) = self.memo[k] {
            return found;
        }
        // Room for half a cell more than the widest body: lines between such anchors round a corner, a cell or
        // two apart, keep clear of it.
        let roomy = self.margin + 0.5 * self.graph.cell();
        let room = |q: Vec3| line::proven(self.scene, self.graph, self.ctl, roomy, q, q);
        let found = if room(p) {
            Some(p)
        } else {
            let reach = REACH * self.graph.cell();
            let mut near: Vec<Vec3> = self
                .graph
                .nodes_near(p, reach, LEVEL)
                .into_iter()
                .map(|n| self.graph.feet(n))
                .collect();
            near.sort_by(|a, b| a.distance_squared(p).total_cmp(&b.distance_squared(p)));
            near.into_iter().find(|&q| room(q))
        };
        self.memo[k] = Some(found);
        found
    }

    /// From `from` (standing for point `at`), the farthest point of `at + 1..=end` whose anchor a proven line
    /// reaches, with that anchor; `None` when none of `at + 1`, `at + 2`, `at + 4`, … (and `end`) is
    /// ([`farthest`]: the lines need not be proven all the way). A point hugging a wall's end where the path
    /// rounds it has no anchor (no room for the roomy body within two cells), but a line from `from` past
    /// the corner to a later point's anchor often is proven.
    pub(super) fn farthest(&mut self, from: Vec3, at: usize, end: usize) -> Option<(usize, Vec3)> {
        if !self.clear(from) {
            return None;
        }
        let ways = self.ways;
        let mut reaches = |k: usize| {
            self.anchor(k, k == end)
                .is_some_and(|q| !ways::crosses(ways, from, q) && self.proven(from, q))
        };
        let first = first_passing(at, end, &mut reaches)?;
        let j = farthest(first - 1, end, reaches);
        Some((j, self.anchor(j, j == end)?))
    }
}

/// The farthest index of `i + 1..=end` that `pass` lets through, found by doubling the reach from `i` (`i + 1`
/// counts as let through) and then halving back: a search, not a scan (`pass` need not hold all the way).
pub(super) fn farthest(i: usize, end: usize, mut pass: impl FnMut(usize) -> bool) -> usize {
    let (mut good, mut reach) = (i + 1, 2);
    let mut bad = None;
    while i + reach <= end {
        if pass(i + reach) {
            good = i + reach;
            reach *= 2;
        } else {
            bad = Some(i + reach);
            break;
        }
    }
    if bad.is_none() && good < end {
        if pass(end) {
            good = end;
        } else {
            bad = Some(end);
        }
    }
    halve(good, bad.unwrap_or(end + 1), &mut pass)
}

/// The first of `i + 1`, `i + 2`, `i + 4`, … up to `end`, then `end` itself, that `pass` lets through.
fn first_passing(i: usize, end: usize, mut pass: impl FnMut(usize) -> bool) -> Option<usize> {
    let mut d = 1;
    while i + d <= end {
        if pass(i + d) {
            return Some(i + d);
        }
        d *= 2;
    }
    (i + d / 2 < end && pass(end)).then_some(end)
}

/// Between `good` (let through) and `bad` (not, or past the end), the last index `pass` lets through, found by
/// halving the gap.
pub(super) fn halve(mut good: usize, mut bad: usize, mut pass: impl FnMut(usize) -> bool) -> usize {
    while bad > good + 1 {
        let mid = (good + bad) / 2;
        if pass(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::line::fixture;

    #[test]
    fn a_point_hugging_a_wall_is_anchored_a_cell_off_it_and_lines_round_the_corner_are_proven() {
        // A 6 m floor and a wall along x = 0 from z = -3 to z = 1: a path from (-1, -2) round the wall's end to
        // (1, -2) passes points hugging the wall's end on either side.
        let (scene, g) = fixture::floor("(id: 2, min: (-0.1, 0.0, -3.0), max: (0.1, 2.5, 1.0))");
        let ctl = CharacterController::default();
        let feet = |x: f32, z: f32| fixture::feet(&g, x, z);
        // The search's points round the wall's end: in the open, hugging the end's corners (a body a skin off
        // the wall), over the end, in the open again.
        let points = [
            feet(-1.0, -2.0),
            feet(-0.45, 1.25),
            feet(0.0, 1.4),
            feet(0.45, 1.25),
            feet(1.0, -2.0),
        ];
        let mut anchors = Anchors::new(&scene, &g, &ctl, 0.05, &points);
        for k in [1, 3] {
            assert!(!anchors.clear(points[k]), "{:?}", points[k]);
            let a = anchors.anchor(k, false).expect("an anchor off the wall");
            assert!(anchors.clear(a));
            assert!(
                a.distance(points[k]) <= 2.0 * g.cell() + 1e-3,
                "{a} for {:?}",
                points[k]
            );
        }
        assert_eq!(anchors.anchor(0, false), Some(points[0]));
        // From a point hugging the wall no line is proven.
        assert_eq!(anchors.farthest(points[1], 1, 4), None);
        // From the start, proven lines from anchor to anchor round the end to the end itself.
        let (mut at, mut from, mut lines) = (0, points[0], 0);
        while at < 4 {
            let (j, q) = anchors.farthest(from, at, 4).expect("a proven line");
            assert!(j > at && anchors.proven(from, q));
            (at, from, lines) = (j, q, lines + 1);
        }
        assert_eq!(from, points[4]);
        assert!(lines <= 4, "{lines} lines");
    }

    #[test]
    fn a_point_with_no_anchor_does_not_stop_a_proven_line_past_it() {
        // An open floor: the search's second point stands for one no anchor is found for (here half a metre up,
        // where no place is), as a point hugging a wall's end in a corner of walls is; the line from the
        // first to the third is proven all the same (before, a proof stopped at the second and bodies were
        // stepped instead).
        let (scene, g) = fixture::floor("");
        let ctl = CharacterController::default();
        let feet = |x: f32, z: f32| fixture::feet(&g, x, z);
        let points = [
            feet(-1.5, -1.5),
            feet(-1.0, -1.0) + Vec3::Y * 0.5,
            feet(0.0, 0.0),
            feet(1.5, 1.5),
            feet(1.5, 2.0) + Vec3::Y * 0.5,
        ];
        let mut anchors = Anchors::new(&scene, &g, &ctl, 0.05, &points);
        assert_eq!(anchors.anchor(1, false), None);
        assert_eq!(anchors.farthest(points[0], 0, 3), Some((3, points[3])));
        // Nothing past the start passes: no line.
        assert_eq!(anchors.farthest(points[0], 0, 1), None);
        // The last point (the run's end) has no anchor: the line goes as far as the one before it.
        assert_eq!(anchors.farthest(points[0], 0, 4), Some((3, points[3])));
    }

    #[test]
    fn the_first_passing_index_is_searched_at_doubling_distances_and_at_the_end() {
        let passing = |i, end, ok: &[usize]| first_passing(i, end, |k| ok.contains(&k));
        assert_eq!(passing(0, 10, &[1, 2]), Some(1));
        assert_eq!(passing(0, 10, &[3, 4, 5]), Some(4));
        assert_eq!(passing(0, 10, &[3, 5, 10]), Some(10));
        assert_eq!(passing(0, 10, &[3, 5, 6, 7]), None);
        assert_eq!(passing(4, 12, &[12]), Some(12));
        // `end` probed once, as a doubling distance or after them.
        let mut asked = Vec::new();
        assert_eq!(
            first_passing(0, 8, |k| {
                asked.push(k);
                false
            }),
            None
        );
        assert_eq!(asked, vec![1, 2, 4, 8]);
        assert_eq!(passing(0, 0, &[0, 1]), None);
    }
}
