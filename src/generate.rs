//! Procedural levels for stress tests and benchmarks, deterministic for a given seed.

use glam::{DVec3, Vec2, Vec3};

use crate::level::{BallObject, Level, ObjectId, PlaneObject, WalkerStart, WallObject};

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same level on every platform.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `lo..hi`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Parameters of [`maze`].
#[derive(Clone, Debug)]
pub struct MazeParams {
    /// Exactly this many walls (at least 4: the outer boundary is always closed).
    pub walls: usize,
    /// This many balls.
    pub balls: usize,
    /// Random seed.
    pub seed: u64,
    /// Side of one maze cell, metres.
    pub cell: f32,
}

impl Default for MazeParams {
    fn default() -> Self {
        Self {
            walls: 10_000,
            balls: 1_000,
            seed: 1,
            cell: 2.0,
        }
    }
}

/// A maze on a square grid of cells: a random spanning tree (depth-first) carved through the grid, then
/// further interior walls removed at random until exactly `walls` remain (or added back up to the full grid
/// when more are asked for than a perfect maze has). Unit-length wall segments, a closed outer boundary, a
/// floor plane, and `balls` balls scattered over the cells with horizontal velocities.
#[must_use]
pub fn maze(params: &MazeParams) -> Level {
    let mut rng = SplitMix64::new(params.seed);
    let cell = params.cell.max(0.1);
    let target = params.walls.max(4);
    // A perfect n×n maze has about n² + 2n walls; grow n until the full grid (2n(n+1)) can hold the target.
    let mut n = 1usize;
    while n * n + 2 * n + 1 < target {
        n += 1;
    }
    let mut grid = MazeGrid::carved(n, &mut rng);
    let walls_now = grid.adjust_to(target, &mut rng);
    let half = n as f32 * cell * 0.5;
    let at = |x: usize, y: usize| Vec2::new(x as f32 * cell - half, y as f32 * cell - half);
    let mut next_id = 1u32;
    let mut id = || {
        let i = ObjectId(next_id);
        next_id += 1;
        i
    };
    let walls = grid.walls(cell * 0.05, &at, &mut id);
    let balls = maze_balls(n, cell, params.balls, &at, &mut rng, &mut id);
    let floor = PlaneObject {
        id: id(),
        name: Some("floor".into()),
        normal: Vec3::Y,
        d: 0.0,
        properties: Default::default(),
    };
    let start = at(0, 0) + Vec2::splat(cell * 0.5);
    Level {
        name: format!("maze {n}x{n}, {walls_now} walls, {} balls", params.balls),
        default_wall_height: 2.5,
        walls,
        balls,
        planes: vec![floor],
        walker: Some(WalkerStart {
            position: start,
            facing_deg: 180.0,
            eye_height: 1.7,
            radius: (cell * 0.2).min(0.3),
            height: None,
        }),
        ..Level::default()
    }
}

/// The walls of an n×n maze: horizontal walls (between rows) and vertical walls (between columns), each open
/// or closed. Wall (h, x, y) is horizontal at z = y, spanning x..x+1, for y in 0..=n; vertical at x, y..y+1.
struct MazeGrid {
    n: usize,
    /// `[y * n + x]`
    open_h: Vec<bool>,
    /// `[y * (n + 1) + x]`
    open_v: Vec<bool>,
}

impl MazeGrid {
    /// A perfect maze by randomised depth-first carving.
    fn carved(n: usize, rng: &mut SplitMix64) -> Self {
        let idx = |x: usize, y: usize| y * n + x;
        let mut open_h = vec![false; n * (n + 1)];
        let mut open_v = vec![false; (n + 1) * n];
        let mut visited = vec![false; n * n];
        let mut stack = vec![(0usize, 0usize)];
        visited[0] = true;
        while let Some(&(x, y)) = stack.last() {
            let mut options = [(0usize, 0usize, 0u8); 4];
            let mut k = 0;
            for (ok, nx, ny, dir) in [
                (x > 0, x.wrapping_sub(1), y, 0u8),
                (x + 1 < n, x + 1, y, 1),
                (y > 0, x, y.wrapping_sub(1), 2),
                (y + 1 < n, x, y + 1, 3),
            ] {
                if ok && !visited[idx(nx, ny)] {
                    options[k] = (nx, ny, dir);
                    k += 1;
                }
            }
            if k == 0 {
                stack.pop();
                continue;
            }
            let (nx, ny, dir) = options[rng.below(k)];
            match dir {
                0 => open_v[y * (n + 1) + x] = true,
                1 => open_v[y * (n + 1) + x + 1] = true,
                2 => open_h[y * n + x] = true,
                _ => open_h[(y + 1) * n + x] = true,
            }
            visited[idx(nx, ny)] = true;
            stack.push((nx, ny));
        }
        Self { n, open_h, open_v }
    }

    /// Open or close random interior walls until exactly `target` walls stand (or a bounded number of tries
    /// ran out); answers how many stand.
    fn adjust_to(&mut self, target: usize, rng: &mut SplitMix64) -> usize {
        let n = self.n;
        let closed = |v: &[bool]| v.iter().filter(|o| !**o).count();
        let mut walls_now = closed(&self.open_h) + closed(&self.open_v);
        let interior: Vec<(bool, usize)> = (0..self.open_h.len())
            .filter(|&i| (1..n).contains(&(i / n)))
            .map(|i| (true, i))
            .chain(
                (0..self.open_v.len())
                    .filter(|&i| (1..n).contains(&(i % (n + 1))))
                    .map(|i| (false, i)),
            )
            .collect();
        let mut guard = 0usize;
        while walls_now != target && guard < interior.len() * 64 {
            guard += 1;
            let (is_h, i) = interior[rng.below(interior.len())];
            let slot = if is_h {
                &mut self.open_h[i]
            } else {
                &mut self.open_v[i]
            };
            if walls_now > target && !*slot {
                *slot = true;
                walls_now -= 1;
            } else if walls_now < target && *slot {
                *slot = false;
                walls_now += 1;
            }
        }
        walls_now
    }

    /// The closed walls as level walls (horizontal ones first), corners at `at(x, y)`.
    fn walls(
        &self,
        radius: f32,
        at: &impl Fn(usize, usize) -> Vec2,
        id: &mut impl FnMut() -> ObjectId,
    ) -> Vec<WallObject> {
        let n = self.n;
        let mut wall = |a: Vec2, b: Vec2| WallObject {
            id: id(),
            name: None,
            a,
            b,
            radius,
            height: None,
            properties: Default::default(),
        };
        let mut out = Vec::new();
        for (i, open) in self.open_h.iter().enumerate() {
            if !open {
                let (x, y) = (i % n, i / n);
                out.push(wall(at(x, y), at(x + 1, y)));
            }
        }
        for (i, open) in self.open_v.iter().enumerate() {
            if !open {
                let (x, y) = (i % (n + 1), i / (n + 1));
                out.push(wall(at(x, y), at(x, y + 1)));
            }
        }
        out
    }
}

/// The maze's balls: up to four slots per cell, in a shuffled order of cells, layered when there are more.
fn maze_balls(
    n: usize,
    cell: f32,
    count: usize,
    at: &impl Fn(usize, usize) -> Vec2,
    rng: &mut SplitMix64,
    id: &mut impl FnMut() -> ObjectId,
) -> Vec<BallObject> {
    let ball_r = cell * 0.12;
    let mut cells: Vec<usize> = (0..n * n).collect();
    for i in (1..cells.len()).rev() {
        let j = rng.below(i + 1);
        cells.swap(i, j);
    }
    let slots = [
        Vec2::new(0.3, 0.3),
        Vec2::new(0.7, 0.7),
        Vec2::new(0.7, 0.3),
        Vec2::new(0.3, 0.7),
    ];
    let mut balls = Vec::with_capacity(count);
    for k in 0..count {
        let c = cells[k % cells.len()];
        let slot = slots[(k / cells.len()) % slots.len()];
        let layer = (k / (cells.len() * slots.len())) as f32;
        let (x, y) = (c % n, c / n);
        let p = at(x, y) + slot * cell;
        let angle = rng.range(0.0, std::f32::consts::TAU);
        let speed = rng.range(1.0, 5.0);
        balls.push(BallObject {
            id: id(),
            name: None,
            center: Vec3::new(p.x, ball_r * (1.0 + 2.5 * layer), p.y),
            velocity: Vec3::new(angle.cos() * speed, 0.0, angle.sin() * speed),
            radius: ball_r,
            mass: 1.0,
            restitution: 1.0,
            properties: Default::default(),
        });
    }
    balls
}

/// A procedural terrain: a heightfield over a square grid of about `triangles` triangles (two per cell), with
/// rolling hills and seeded bumps, spanning `-size/2..size/2` in x and z. Returns the vertices and triangles
/// (front faces up).
#[must_use]
pub fn terrain(triangles: usize, size: f32, seed: u64) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let cells = ((triangles.max(2) as f64 / 2.0).sqrt().ceil() as usize).max(1);
    let n = cells + 1;
    let mut rng = SplitMix64::new(seed);
    let phases: Vec<f32> = (0..8)
        .map(|_| rng.range(0.0, std::f32::consts::TAU))
        .collect();
    let step = size / cells as f32;
    let half = size * 0.5;
    let mut vertices = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            let (x, z) = (i as f32 * step - half, j as f32 * step - half);
            let (u, v) = (x / size, z / size);
            let h = 0.08 * size * ((6.0 * u + phases[0]).sin() * (5.0 * v + phases[1]).cos())
                + 0.03 * size * ((17.0 * u + phases[2]).sin() + (13.0 * v + phases[3]).sin())
                + 0.004 * size * ((91.0 * u + 37.0 * v + phases[4]).sin())
                + 0.002 * size * rng.range(-1.0, 1.0);
            vertices.push(Vec3::new(x, h, z));
        }
    }
    let mut indices = Vec::with_capacity(cells * cells * 2);
    for j in 0..cells as u32 {
        for i in 0..cells as u32 {
            let a = j * n as u32 + i;
            let (b, c, d) = (a + 1, a + n as u32, a + n as u32 + 1);
            // (c - a) × (b - a) points up (+y).
            indices.push([a, c, b]);
            indices.push([b, c, d]);
        }
    }
    (vertices, indices)
}

/// An icosphere: the icosahedron, each triangle split into four `subdivisions` times, projected on the sphere
/// of `radius` around `center`: closed, vertices shared, outward front faces (`10·4ⁿ + 2` vertices,
/// `20·4ⁿ` triangles). Computed in f64 and rounded once, so shared vertices are bit-identical.
#[must_use]
pub fn icosphere(subdivisions: u32, center: Vec3, radius: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let t = (1.0 + 5.0f64.sqrt()) / 2.0;
    let mut unit: Vec<DVec3> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| DVec3::new(x, y, z).normalize())
    .collect();
    let mut faces: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..subdivisions {
        let mut midpoints: std::collections::HashMap<(u32, u32), u32> =
            std::collections::HashMap::new();
        let mut mid = |a: u32, b: u32, unit: &mut Vec<DVec3>| {
            *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                unit.push(((unit[a as usize] + unit[b as usize]) * 0.5).normalize());
                (unit.len() - 1) as u32
            })
        };
        let mut next = Vec::with_capacity(faces.len() * 4);
        for [a, b, c] in faces {
            let ab = mid(a, b, &mut unit);
            let bc = mid(b, c, &mut unit);
            let ca = mid(c, a, &mut unit);
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        faces = next;
    }
    let vertices = unit
        .iter()
        .map(|u| center + (*u * f64::from(radius)).as_vec3())
        .collect();
    (vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maze_has_exactly_the_walls_asked_for_and_validates() {
        for walls in [4, 50, 333, 2_000] {
            let level = maze(&MazeParams {
                walls,
                balls: 40,
                seed: 7,
                cell: 2.0,
            });
            assert_eq!(level.walls.len(), walls);
            assert_eq!(level.balls.len(), 40);
            let errors: Vec<_> = level
                .validate()
                .into_iter()
                .filter(|p| p.severity == crate::level::Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{errors:?}");
        }
    }

    #[test]
    fn terrain_has_about_the_triangles_asked_for_facing_up() {
        let (v, t) = terrain(20_000, 100.0, 3);
        assert!((20_000..20_600).contains(&t.len()), "{}", t.len());
        for tri in t.iter().take(50) {
            let [a, b, c] = tri.map(|i| v[i as usize]);
            assert!((b - a).cross(c - a).y > 0.0);
        }
    }

    #[test]
    fn same_seed_same_maze() {
        let p = MazeParams {
            walls: 500,
            balls: 10,
            seed: 3,
            cell: 1.0,
        };
        assert_eq!(maze(&p), maze(&p));
    }
}
