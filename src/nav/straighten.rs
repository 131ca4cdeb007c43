//! Straightening a walking piece of a path: along each run of walking, intermediate points are dropped while
//! the shortcut is walked. First by proof (`pull.rs`): the line from the point reached so far to the farthest
//! anchor of a later point that `line::proven` settles, no body stepped. Where no such line leaves the point,
//! by stepping bodies: the farthest point the cheap sweep (`line::blocked`) lets through is walked (by the
//! agent's body and ones a little wider and narrower, `character::reach::walk`), then halving back from it.
//! Each stepped shortcut is followed by a steered body last, from the point before it to the point after it,
//! and the piece is kept as it was where that body does not arrive; proven lines are not (each is walked, and
//! the rest are the search's own moves, as in the piece kept as it was). No shortcut crosses a mover's way
//! (`ways.rs`).

use glam::{Vec2, Vec3};

use super::bake::AgentMap;
use super::line;
use super::pull::{Anchors, farthest, halve};
use super::ways;
use super::{NavLink, NavPath};
use crate::character::{Body, CharacterController, walks};
use crate::scene::Scene;

/// What straightening checks a shortcut against: the scene, the agent's map and controller, the gravity.
pub(super) struct Ground<'a> {
    pub(super) scene: &'a Scene,
    pub(super) map: &'a AgentMap,
    pub(super) ctl: CharacterController,
    pub(super) gravity: Vec3,
}

/// The bodies a stepped shortcut is walked by: the agent's, one `margin` wider (and as tall as that needs) and
/// one `margin` narrower. A steered body arrives at a point up to a frame's walk aside, and must still get past
/// walls (the wide one) and over pits (the narrow one falls in first) where the test did.
struct Bodies {
    margin: f32,
    fat: CharacterController,
    thin: CharacterController,
}

impl Bodies {
    fn new(ctl: &CharacterController) -> Self {
        let margin = (0.25 * ctl.radius).min(0.05);
        Self {
            margin,
            fat: CharacterController {
                radius: ctl.radius + margin,
                height: ctl.height.max(2.0 * (ctl.radius + margin)),
                ..*ctl
            },
            thin: CharacterController {
                radius: ctl.radius - margin,
                skin: ctl.skin.min(0.5 * (ctl.radius - margin)),
                ..*ctl
            },
        }
    }
}

/// The horizontal distance between two points.
fn flat(a: Vec3, b: Vec3) -> f32 {
    Vec2::new(a.x - b.x, a.z - b.z).length()
}

/// A walking piece straightened, or as it was where a steered body does not follow the straightened one
/// across a stepped shortcut (a step up that carried the body past a point, say, so a shortcut began
/// elsewhere than it was checked from).
pub(super) fn straightened(piece: NavPath, ground: &Ground) -> NavPath {
    if piece.links.is_empty() {
        return piece;
    }
    let mut path = piece.clone();
    let stepped = straighten(&mut path, ground, true).unwrap_or_else(|| {
        // Held up on an anchor off the search's points that no line leaves: without proofs.
        path = piece.clone();
        straighten(&mut path, ground, false).unwrap_or_default()
    });
    if !windows(&stepped, path.points.len())
        .all(|(a, b)| followed(&path.points[a..=b], &path.links[a..b], ground))
    {
        return piece;
    }
    path
}

/// The stretches a steered body is followed along: from the point before each stepped shortcut (segment `s`,
/// points `s` to `s + 1`) to the point after it, stretches that meet or overlap joined. On the ground a body's
/// state is its feet (the step sets its velocity from the wish), and steering reaches each point of a proven
/// line or of the search's own moves exactly, so a body set down at a stretch's first point is the one that
/// walks there.
fn windows(stepped: &[usize], points: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let last = points.saturating_sub(1);
    let mut spans = stepped
        .iter()
        .map(move |&s| (s.saturating_sub(1), (s + 2).min(last)));
    let mut open = spans.next();
    std::iter::from_fn(move || {
        let (mut a, mut b) = open?;
        loop {
            match spans.next() {
                Some((c, d)) if c <= b => {
                    a = a.min(c);
                    b = b.max(d);
                }
                next => {
                    open = next;
                    return Some((a, b));
                }
            }
        }
    })
}

/// Whether a body stepped at 60 Hz with [`NavPath::steer`](super::NavPath::steer) along `points` (joined by
/// `links`) from the first gets within a quarter metre across and a step up or down of the last, in the
/// contract's time.
pub(super) fn followed(points: &[Vec3], links: &[NavLink], ground: &Ground) -> bool {
    let (scene, ctl, gravity) = (ground.scene, &ground.ctl, ground.gravity);
    let (Some(&first), Some(&last)) = (points.first(), points.last()) else {
        return true;
    };
    let path = NavPath {
        points: points.to_vec(),
        links: links.to_vec(),
    };
    let bound = super::walking_seconds(path.length());
    let mut body = Body::new(first);
    body.grounded = true;
    let dt = 1.0 / super::bake::HZ;
    for _ in 0..(bound / dt) as usize {
        let input = path.steer(&body, ctl);
        body.step(ctl, scene, &input, gravity, dt);
        if flat(body.feet, last) <= 0.25
            && (body.feet.y - last.y).abs() <= ctl.max_step
            && body.grounded
        {
            return true;
        }
    }
    false
}

/// Drop intermediate points along each run of walking (see the module), by proven lines first when `proofs`.
/// Answers the segments (of the straightened path) that are stepped shortcuts, or `None` when a proven line
/// ended on an anchor off the search's points from which neither a line nor a walk to the next point leaves.
fn straighten(path: &mut NavPath, ground: &Ground, proofs: bool) -> Option<Vec<usize>> {
    let ctl = &ground.ctl;
    let bodies = Bodies::new(ctl);
    let (points, links) = (&path.points, &path.links);
    let mut anchors = Anchors::new(ground.scene, &ground.map.graph, ctl, bodies.margin, points)
        .avoiding(&ground.map.ways);
    let mut out_points = vec![points[0]];
    let mut out_links = Vec::new();
    let (mut i, mut from, mut stepped) = (0, points[0], Vec::new());
    while i + 1 < points.len() {
        if links[i] != NavLink::Walk {
            out_links.push(links[i]);
            out_points.push(points[i + 1]);
            i += 1;
            from = points[i];
            continue;
        }
        // The run of walking from `i`: points i..=end.
        let mut end = i + 1;
        while end < links.len() && links[end] == NavLink::Walk {
            end += 1;
        }
        let proven = if proofs {
            anchors.farthest(from, i, end)
        } else {
            None
        };
        let (next, at) = match proven {
            Some((j, q)) => (j, q),
            None => {
                let (j, shortcut) = walk_step(ground, &bodies, points, (from, i), end)?;
                if shortcut {
                    stepped.push(out_links.len());
                }
                (j, points[j])
            }
        };
        out_links.push(NavLink::Walk);
        out_points.push(at);
        (i, from) = (next, at);
    }
    path.points = out_points;
    path.links = out_links;
    Some(stepped)
}

/// Whether the walk from `a` to `b` is made, on the ground all the way, by the agent's body and by ones a little
/// wider and narrower (`Bodies`), each ending within a step of `b`'s height.
fn walked_by(ground: &Ground, bodies: &Bodies, a: Vec3, b: Vec3) -> bool {
    [&bodies.fat, &bodies.thin, &ground.ctl]
        .into_iter()
        .all(|c| {
            walks(ground.scene, c, ground.gravity, a, b, true)
                .is_some_and(|f| (f.y - b.y).abs() <= c.max_step + 2.0 * c.skin)
        })
}

/// [`walked_by`] the agent's bodies.
pub(super) fn walked_by_all(ground: &Ground, a: Vec3, b: Vec3) -> bool {
    walked_by(ground, &Bodies::new(&ground.ctl), a, b)
}

/// From `from` (standing for point `i`), the farthest point of the run `i + 1..=end` a stepped shortcut walks
/// to: the farthest the cheap sweep (`line::blocked`) does not turn down, walked first; where it is not walked,
/// halving back from it with the walk (a walk that succeeds costs its whole length three times over, so short
/// ones on the way out are not walked for nothing). With whether a shortcut was taken (more than the search's
/// own move from point `i`); `None` when `from` is not point `i` and not even the next point is walked to.
fn walk_step(
    ground: &Ground,
    bodies: &Bodies,
    points: &[Vec3],
    (from, i): (Vec3, usize),
    end: usize,
) -> Option<(usize, bool)> {
    let (scene, ctl) = (ground.scene, &ground.ctl);
    let margin = bodies.margin;
    let ways = &ground.map.ways;
    let ok = |j: usize| {
        let b = points[j];
        if ways::crosses(ways, from, b) {
            return false;
        }
        if line::proven(scene, &ground.map.graph, ctl, margin, from, b) {
            return true;
        }
        !line::blocked(scene, ctl, margin, from, b) && walked_by(ground, bodies, from, b)
    };
    let top = farthest(i, end, |j| {
        !ways::crosses(ways, from, points[j]) && !line::blocked(scene, ctl, margin, from, points[j])
    });
    let good = if top > i + 1 && ok(top) {
        top
    } else {
        halve(i + 1, top, &ok)
    };
    let own = from == points[i];
    if !own && good == i + 1 && !ok(i + 1) {
        return None;
    }
    Some((good, good > i + 1 || !own))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stretches_followed_span_a_point_either_side_of_each_stepped_shortcut_joined_where_they_meet()
     {
        let spans = |stepped: &[usize], points| windows(stepped, points).collect::<Vec<_>>();
        assert_eq!(spans(&[], 10), vec![]);
        assert_eq!(spans(&[0], 10), vec![(0, 2)]);
        assert_eq!(spans(&[4], 10), vec![(3, 6)]);
        assert_eq!(spans(&[8], 10), vec![(7, 9)]);
        // Segments 2 and 4 share points 3 and 4: one stretch; segment 8 on its own.
        assert_eq!(spans(&[2, 4, 8], 10), vec![(1, 6), (7, 9)]);
        // Touching at a point (6): joined.
        assert_eq!(spans(&[2, 5], 10), vec![(1, 7)]);
        assert_eq!(spans(&[0], 2), vec![(0, 1)]);
    }
}
