//! Spurs: a path that goes a little way past a point and comes back over it. A drop (or a move) that landed
//! off its place's feet goes by where it landed, then to the feet (`path.rs`, `unwind`); on a slope the feet
//! may lie below the landing, and the path then goes down to them and back up over the landing. Steering,
//! stateless, cannot tell a body between the two passes from one on the first: on the sector soak's seed 133
//! a slim body went back and forth between the landing and the feet for good. Where the walk from the point
//! before the spur to the point after it is made (the agent's body and ones a little wider and narrower, as a
//! stepped shortcut, `straighten.rs`) and a steered body follows the path without the spur, the spur is cut.

use glam::{Vec2, Vec3};

use super::straighten::{Ground, followed, walked_by_all};
use super::{NavLink, NavPath};

/// How far (metres, horizontally) the way back may pass from the point before the spur: within half a
/// radius, as steering takes a later segment for the one about as near (`steer.rs`).
fn near(ground: &Ground) -> f32 {
    0.5 * ground.ctl.radius
}

/// How long a spur may be (metres, horizontally): a column's diagonal (a landing and its place's feet lie in
/// one column), or a radius.
fn reach(ground: &Ground) -> f32 {
    (ground.map.graph.cell() * std::f32::consts::SQRT_2).max(ground.ctl.radius)
}

/// The offset from `a` to `b`, across.
fn flat(a: Vec3, b: Vec3) -> Vec2 {
    Vec2::new(b.x - a.x, b.z - a.z)
}

/// The horizontal distance from `p` to the segment `a`–`b`.
fn to_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let ab = flat(a, b);
    let t = (flat(a, p).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    (flat(a, p) - ab * t).length()
}

/// Whether the segments `k` (points `k` to `k + 1`) and `k + 1` are a spur: the second turns back against
/// the first, both walks or drops, is no longer than [`reach`], and passes back within [`near`] of point `k`,
/// within a step in height.
fn is_spur(path: &NavPath, k: usize, ground: &Ground) -> bool {
    let pts = &path.points;
    let (Some(&a), Some(&b), Some(&c)) = (pts.get(k), pts.get(k + 1), pts.get(k + 2)) else {
        return false;
    };
    let plain = |i: usize| {
        matches!(
            path.links.get(i),
            Some(NavLink::Walk | NavLink::Drop { .. })
        )
    };
    let step = ground.ctl.max_step + 2.0 * ground.ctl.skin;
    let back = flat(a, b).dot(flat(b, c)) < 0.0;
    // Where the way back passes the point before the spur, at the height of the line there.
    let ab = flat(b, c);
    let t = (flat(b, a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    let y = b.y + (c.y - b.y) * t;
    plain(k)
        && plain(k + 1)
        && back
        && flat(a, b).length() <= reach(ground)
        && to_segment(a, b, c) <= near(ground)
        && (a.y - y).abs() <= step
}

/// `path` with each spur cut where that is walked and followed (see the module).
pub(super) fn cut(mut path: NavPath, ground: &Ground) -> NavPath {
    let mut k = 0;
    while k + 2 < path.points.len() {
        if is_spur(&path, k, ground)
            && let Some(cut) = without(&path, k, ground)
        {
            path = cut;
            continue;
        }
        k += 1;
    }
    path
}

/// `path` with point `k + 1` left out (the spur from point `k`), when the walk from point `k` to point `k + 2`
/// is made and a steered body follows the path from the point before `k` to the point after `k + 2`.
fn without(path: &NavPath, k: usize, ground: &Ground) -> Option<NavPath> {
    let (a, c) = (path.points[k], path.points[k + 2]);
    if !walked_by_all(ground, a, c) {
        return None;
    }
    let mut out = path.clone();
    out.points.remove(k + 1);
    out.links.remove(k + 1);
    out.links[k] = if a.y - c.y > ground.ctl.max_step {
        NavLink::Drop { height: a.y - c.y }
    } else {
        NavLink::Walk
    };
    let (lo, hi) = (k.saturating_sub(1), (k + 2).min(out.points.len() - 1));
    followed(&out.points[lo..=hi], &out.links[lo..hi], ground).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::bake::AgentMap;
    use crate::nav::line::fixture;

    /// A path through `points` (walks), on the fixture's floor.
    fn walk(points: Vec<Vec3>) -> NavPath {
        let links = vec![NavLink::Walk; points.len() - 1];
        NavPath { points, links }
    }

    #[test]
    fn a_short_way_out_and_back_over_a_point_is_cut_and_other_turns_are_kept() {
        let (scene, graph) = fixture::floor("");
        let map = AgentMap::new(graph);
        let ground = Ground {
            scene: &scene,
            map: &map,
            ctl: *map.graph.controller(),
            gravity: Vec3::new(0.0, -9.81, 0.0),
        };
        let at = |x, z| fixture::feet(&map.graph, x, z);
        // Out 0.25 m and back past the start: the spur is cut, the rest kept.
        let spur = walk(vec![
            at(0.0, 0.0),
            at(0.25, 0.0),
            at(-1.5, 0.0),
            at(-1.5, 1.5),
        ]);
        assert!(is_spur(&spur, 0, &ground));
        let cut = cut(spur.clone(), &ground);
        assert_eq!(
            cut.points,
            vec![spur.points[0], spur.points[2], spur.points[3]]
        );
        assert_eq!(cut.links, vec![NavLink::Walk; 2]);
        // A corner (no way back), and a way out longer than a column's diagonal and a radius: kept.
        let corner = walk(vec![at(0.0, 0.0), at(0.25, 0.0), at(0.25, 1.5)]);
        assert!(!is_spur(&corner, 0, &ground));
        assert_eq!(cut_points(&corner, &ground), corner.points);
        let long = walk(vec![at(0.0, 0.0), at(1.0, 0.0), at(-1.5, 0.0)]);
        assert!(!is_spur(&long, 0, &ground));
        assert_eq!(cut_points(&long, &ground), long.points);
        // A way back that passes the start farther than half a radius across: kept.
        let aside = walk(vec![at(0.0, 0.0), at(0.25, 0.25), at(-1.5, 0.25)]);
        assert!(!is_spur(&aside, 0, &ground));
    }

    fn cut_points(path: &NavPath, ground: &Ground) -> Vec<Vec3> {
        cut(path.clone(), ground).points
    }
}
