//! What a map holds, for those that draw it (the editor's overlay, `collidoscope reach --png`): its grid, each
//! column's places lowest first (floor 0, 1, … of that column) with whether each is reached and, when not, its
//! region, and the regions with their blockers ([`ReachMap::unreachable_places`]). Read from the map as built,
//! so a drawing never works the columns out again.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use super::{NONE, ReachMap};

/// The grid of columns a map's places were found on.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReachGrid {
    /// The `(x, z)` corner of column `(0, 0)`.
    pub origin: Vec2,
    /// The cell's side, metres.
    pub cell: f32,
    /// Columns along x (`i` in `0..nx`).
    pub nx: usize,
    /// Columns along z (`k` in `0..nz`).
    pub nz: usize,
}

impl ReachGrid {
    /// The `(x, z)` corner opposite [`ReachGrid::origin`].
    #[must_use]
    pub fn far(&self) -> Vec2 {
        self.origin + Vec2::new(self.nx as f32, self.nz as f32) * self.cell
    }

    /// The column `(i, k)` whose cell holds floor point `p` (`(x, z)`), if it is inside the grid.
    #[must_use]
    pub fn cell_of(&self, p: Vec2) -> Option<(usize, usize)> {
        let q = (p - self.origin) / self.cell;
        if !(q.x >= 0.0 && q.y >= 0.0) {
            return None;
        }
        let (i, k) = (q.x as usize, q.y as usize);
        (i < self.nx && k < self.nz).then_some((i, k))
    }

    /// The `(x, z)` centre of column `(i, k)`, under which its places were looked for.
    #[must_use]
    pub fn center(&self, i: usize, k: usize) -> Vec2 {
        self.origin + (Vec2::new(i as f32, k as f32) + 0.5) * self.cell
    }
}

/// A place to stand, as a map holds it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReachPlace {
    /// Where the feet rest: a skin over the ground under the column's centre, or, where the body does not fit
    /// there, nudged up to a cell along the ground to where it does (so possibly in the next column's cell).
    pub feet: Vec3,
    /// The ground's height under the feet.
    pub ground: f32,
    /// The ground's unit normal under the feet.
    pub normal: Vec3,
    /// Whether it is reached from the start: a move landed on it, or within a cell and a step of it.
    pub reached: bool,
    /// For a place not reached, its region: an index into [`ReachMap::unreachable_places`], whose blocker
    /// keeps it out.
    pub region: Option<usize>,
}

impl ReachMap {
    /// The grid the places were found on (`None` for a map that could not be built).
    #[must_use]
    pub fn grid(&self) -> Option<ReachGrid> {
        self.grid.map(|g| ReachGrid {
            origin: g.min,
            cell: g.cell,
            nx: g.nx,
            nz: g.nz,
        })
    }

    /// The places of column `(i, k)`, lowest first: the `n`-th is on the column's floor `n`, as
    /// [`ReachMap::floors`] counts them. Empty outside the grid.
    pub fn column(&self, i: usize, k: usize) -> impl DoubleEndedIterator<Item = ReachPlace> + '_ {
        let range = match self.grid {
            Some(g) if i < g.nx && k < g.nz => self.in_column(k * g.nx + i),
            _ => 0..0,
        };
        // Kept from the top down (the order the scan meets them in).
        range.rev().map(|j| self.place(j))
    }

    /// Every column's places: `((i, k), places lowest first)`, row by row, the columns without any left out.
    pub fn columns(&self) -> impl Iterator<Item = ((usize, usize), Vec<ReachPlace>)> + '_ {
        let (nx, nz) = self.grid.map_or((0, 0), |g| (g.nx, g.nz));
        (0..nz)
            .flat_map(move |k| (0..nx).map(move |i| (i, k)))
            .filter(move |&(i, k)| !self.in_column(k * nx + i).is_empty())
            .map(move |(i, k)| ((i, k), self.column(i, k).collect()))
    }

    /// Place `j` as the map shows it.
    fn place(&self, j: usize) -> ReachPlace {
        let s = &self.spots[j];
        let region = self.region[j];
        ReachPlace {
            feet: s.feet,
            ground: s.ground,
            normal: s.normal,
            reached: self.parent[j] != NONE,
            region: (region != NONE).then_some(region as usize),
        }
    }
}

impl ReachMap {
    /// The points where the map's answers break their contract, checked at every place and half a cell off it
    /// each way along its ground (between places): a point that can be stood on must be reachable or have a
    /// blocker, and never both; a place must be reachable exactly when it is marked reached. Empty for a sound map; for tests and for a sweep over a level (five points a
    /// place, each a few look-ups: about a second for 150,000 places).
    #[must_use]
    pub fn self_check(&self) -> Vec<Vec3> {
        let half = self.cell() * 0.5;
        let mut out = Vec::new();
        for (j, s) in self.spots.iter().enumerate() {
            if self.reachable(s.feet) != (self.parent[j] != NONE) {
                out.push(s.feet);
            }
            let n = s.normal;
            // Along the ground's plane, a point half a cell away keeps its height above the ground.
            let off = |dx: f32, dz: f32| {
                s.feet + Vec3::new(dx, -(n.x * dx + n.z * dz) / n.y.max(1e-3), dz)
            };
            for p in [
                s.feet,
                off(half, 0.0),
                off(-half, 0.0),
                off(0.0, half),
                off(0.0, -half),
            ] {
                if self.can_stand(p) && self.reachable(p) == self.blocker(p).is_some() {
                    out.push(p);
                }
            }
        }
        out
    }
}
