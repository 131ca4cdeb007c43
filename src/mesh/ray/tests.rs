//! The traversal against the scalar watertight test and brute force, bit for bit.

use super::*;
use crate::generate::SplitMix64;

/// The hits of the scalar watertight test on every triangle slot within `max_t`, as the public hits the
/// traversal would give for them.
fn brute_force(mesh: &TriMesh, ray: &Ray, max_t: f32) -> Vec<MeshHit> {
    let wt = Watertight::new(ray);
    (0..mesh.packets.len() * 4)
        .filter(|&k| mesh.id(k) != u32::MAX)
        .filter_map(|k| {
            let (t, u, v) = wt.intersect(&mesh.slot(k)).filter(|h| h.0 <= max_t)?;
            let slot = u32::try_from(k).unwrap();
            mesh.finish_hit(ray, RawHit::new(slot, t, u, v))
        })
        .collect()
}

fn bits(h: &MeshHit) -> [u32; 7] {
    let n = h.normal.to_array().map(f32::to_bits);
    [
        h.t.to_bits(),
        h.u.to_bits(),
        h.v.to_bits(),
        h.triangle,
        n[0],
        n[1],
        n[2],
    ]
}

/// A 16 x 16 grid of unit squares, two triangles each, with heights from `rng` in -0.5..0.5: shared edges
/// and vertices everywhere.
fn bumpy_grid(rng: &mut SplitMix64) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let w = 17;
    let vertices = (0..w * w)
        .map(|i| Vec3::new((i % w) as f32, rng.range(-0.5, 0.5), (i / w) as f32))
        .collect();
    let mut indices = Vec::new();
    for z in 0..w - 1 {
        for x in 0..w - 1 {
            let (i, w) = ((z * w + x) as u32, w as u32);
            indices.push([i, i + w, i + 1]);
            indices.push([i + 1, i + w, i + w + 1]);
        }
    }
    (vertices, indices)
}

#[test]
fn traversal_equals_the_scalar_test_on_every_triangle_bit_for_bit() {
    // A bumpy 16 x 16 grid (shared edges and vertices everywhere), rays from all around aimed at random
    // points, vertices and edge midpoints, some along axes or grazing, some with a short max_t.
    let mut rng = SplitMix64::new(41);
    let (vertices, indices) = bumpy_grid(&mut rng);
    let mesh = TriMesh::new(vertices.clone(), indices.clone()).unwrap();
    let (mut hits, mut rays, mut ties) = (0, 0, 0);
    for i in 0..6_000u32 {
        let o = Vec3::new(
            rng.range(-4.0, 20.0),
            rng.range(-6.0, 6.0),
            rng.range(-4.0, 20.0),
        );
        let [a, b, _] =
            indices[rng.next_u64() as usize % indices.len()].map(|k| vertices[k as usize]);
        let target = match i % 3 {
            0 => a,
            1 => (a + b) * 0.5,
            _ => Vec3::new(
                rng.range(0.0, 16.0),
                rng.range(-0.5, 0.5),
                rng.range(0.0, 16.0),
            ),
        };
        let mut d = target - o;
        if i % 7 == 0 {
            d.x = 0.0;
        }
        if i % 11 == 0 {
            d.y *= 1e-3;
        }
        if d == Vec3::ZERO {
            continue;
        }
        let ray = Ray::new(o, d);
        let max_t = if i % 5 == 0 {
            rng.range(0.0, 1.0)
        } else {
            f32::INFINITY
        };
        // The nearest t, bit for bit; among triangles at exactly that t the traversal may answer any
        // one, but always with exactly the scalar test's numbers for it.
        let fast = mesh.cast_ray(&ray, max_t);
        let all = brute_force(&mesh, &ray, max_t);
        let nearest = all.iter().map(|h| h.t).min_by(f32::total_cmp);
        assert_eq!(
            fast.map(|h| h.t.to_bits()),
            nearest.map(f32::to_bits),
            "{ray:?}, max_t {max_t}"
        );
        if let Some(fast) = fast {
            assert!(
                all.iter().any(|h| bits(h) == bits(&fast)),
                "{ray:?}, max_t {max_t}: {fast:?} is not the scalar test's answer for its triangle"
            );
            ties += usize::from(all.iter().filter(|h| h.t == fast.t).count() > 1);
        }
        hits += usize::from(fast.is_some());
        rays += 1;
    }
    // The cases are not trivial: many rays hit, many miss, and many hit a shared edge or vertex.
    assert!(hits > rays / 4 && hits < rays * 9 / 10, "{hits} of {rays}");
    assert!(ties > rays / 20, "{ties} ties in {rays} rays");
}

/// The thread's traversal stack is reused from ray to ray: every ray leaves it empty (a traversal ends only
/// when its stack is drained), and every answer equals a traversal with a fresh stack, bit for bit. A fan
/// of 2,000 triangles sharing an edge (a deep tree, many pushes) and random rays in turn.
#[test]
fn the_reused_traversal_stack_carries_nothing_from_one_ray_to_the_next() {
    let n = 2_000u32;
    let mut vertices = vec![Vec3::new(-10.0, 10.0, -10.0), Vec3::new(10.0, -10.0, 10.0)];
    vertices.extend((0..n).map(|k| {
        Vec3::new(
            ((k * 37) % 101) as f32 / 50.0 - 1.0,
            -10.0 + 20.0 * (k as f32 + 0.5) / n as f32,
            ((k * 61) % 103) as f32 / 51.5 - 1.0,
        )
    }));
    let indices: Vec<[u32; 3]> = (0..n).map(|k| [0, 1, k + 2]).collect();
    let mesh = TriMesh::new(vertices, indices).unwrap();
    let deep = Ray::new(Vec3::new(-7.0, -26.0, -13.0), Vec3::new(6.0, 26.0, 13.0));
    let mut fresh = Stack::new((0, 0.0));
    let mut rng = SplitMix64::new(3);
    for i in 0..400 {
        let ray = if i % 2 == 0 {
            deep
        } else {
            let o = Vec3::new(
                rng.range(-30.0, 30.0),
                rng.range(-30.0, 30.0),
                rng.range(-30.0, 30.0),
            );
            Ray::new(
                o,
                Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 1.0) - o * 0.05,
            )
        };
        let reused = mesh.cast_ray(&ray, f32::INFINITY);
        fresh.clear();
        let alone = mesh.finish_hit(&ray, mesh.traverse(&ray, f32::INFINITY, &mut fresh));
        assert_eq!(reused.map(|h| bits(&h)), alone.map(|h| bits(&h)), "{ray:?}");
        assert!(TRAVERSAL.with_borrow(|s| s.len == 0 && s.spill.is_empty()));
    }
}

/// Bug: through a vertex of this grid the slab test rounded a neighbour's leaf box just past the hit, the
/// leaf was never opened, and the answer's `t` was an ulp above that neighbour's (1065353215 against
/// 1065353214). Boxes within [`REACH`] of the best hit are opened now.
#[test]
fn a_neighbour_whose_box_rounds_past_the_hit_is_still_tested() {
    let n = 16u32;
    let w = n + 1;
    let vertices: Vec<Vec3> = (0..w * w)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            Vec3::new(x as f32, ((x * 7 + y * 13) % 5) as f32 * 0.1, y as f32)
        })
        .collect();
    let mut indices = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let i = y * w + x;
            indices.push([i, i + w, i + 1]);
            indices.push([i + 1, i + w, i + w + 1]);
        }
    }
    let mesh = TriMesh::new(vertices, indices).unwrap();
    let ray = Ray::new(
        Vec3::new(10.454_384, 2.975_349_4, -1.514_516_4),
        Vec3::new(-7.454_384, -2.575_349_3, 7.514_516_4),
    );
    let nearest = brute_force(&mesh, &ray, f32::INFINITY)
        .iter()
        .map(|h| h.t)
        .min_by(f32::total_cmp)
        .unwrap();
    assert_eq!(nearest.to_bits(), 1_065_353_214);
    let hit = mesh.cast_ray(&ray, f32::INFINITY).unwrap();
    assert_eq!(hit.t.to_bits(), nearest.to_bits(), "{hit:?}");
    // And 20,000 more rays like it: from above the grid's side through its vertices and edge midpoints.
    let mut rng = SplitMix64::new(7);
    for i in 0..20_000 {
        let o = Vec3::new(
            rng.range(-2.0, 18.0),
            rng.range(0.5, 4.0),
            rng.range(-2.0, 18.0),
        );
        let (x, y) = (rng.next_u64() % 16, rng.next_u64() % 16);
        let h = |x: u64, y: u64| ((x * 7 + y * 13) % 5) as f32 * 0.1;
        let a = Vec3::new(x as f32, h(x, y), y as f32);
        let b = Vec3::new((x + 1) as f32, h(x + 1, y), y as f32);
        let target = if i % 2 == 0 { a } else { (a + b) * 0.5 };
        let ray = Ray::new(o, target - o);
        let nearest = brute_force(&mesh, &ray, f32::INFINITY)
            .iter()
            .map(|h| h.t)
            .min_by(f32::total_cmp);
        let fast = mesh.cast_ray(&ray, f32::INFINITY).map(|h| h.t);
        assert_eq!(fast.map(f32::to_bits), nearest.map(f32::to_bits), "{ray:?}");
    }
}

/// A ray built to stress the slab test: origins on the planes of `mesh`'s node boxes (a parallel ray there
/// gives `0 * inf = NaN`), directions with zero, negative-zero, tiny and huge components.
fn slab_stress_ray(mesh: &TriMesh, rng: &mut SplitMix64) -> Ray {
    let n = &mesh.wide[rng.next_u64() as usize % mesh.wide.len()];
    let (lo, hi) = n.lane(rng.next_u64() as usize % usize::from(n.len));
    let pick = |rng: &mut SplitMix64, axis: usize| match rng.next_u64() % 4 {
        0 => lo[axis],
        1 => hi[axis],
        _ => rng.range(lo[axis] - 2.0, hi[axis] + 2.0),
    };
    let origin = Vec3::new(pick(rng, 0), pick(rng, 1), pick(rng, 2));
    let mut dir = Vec3::new(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    for axis in 0..3 {
        match rng.next_u64() % 8 {
            0 => dir[axis] = 0.0,
            1 => dir[axis] = -0.0,
            2 => dir[axis] *= 1e-30,
            3 => dir[axis] *= 1e30,
            _ => {}
        }
    }
    if dir == Vec3::ZERO {
        dir.x = 1.0;
    }
    Ray::new(origin, dir)
}

/// Meshes for the node-test comparisons: the bumpy grid of shared edges, a soup of random triangles (a
/// deep, overlapping tree) and, in the repository, the bunny.
fn node_test_meshes() -> Vec<TriMesh> {
    let mut rng = SplitMix64::new(7);
    let (grid, grid_indices) = bumpy_grid(&mut rng);
    let soup: Vec<Vec3> = (0..3 * 3_000)
        .map(|_| {
            Vec3::new(
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
            )
        })
        .collect();
    let soup_indices = (0..3_000u32)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    let mut meshes = vec![
        TriMesh::new(grid, grid_indices).unwrap(),
        TriMesh::new(soup, soup_indices).unwrap(),
    ];
    // The bunny is test data of the repository, left out of the published crate.
    let bunny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bunny.obj");
    if std::path::Path::new(bunny).exists() {
        meshes.push(TriMesh::from_obj(std::path::Path::new(bunny)).expect("the bunny loads"));
    }
    meshes
}

/// The 256-bit node test gives the two four-lane groups' bits exactly: the same lanes entered and every
/// lane's entry distance bit for bit (NaN lanes included), on every node of three meshes against rays
/// built to stress it, with limits from 0 to infinity.
#[test]
fn the_eight_lane_node_test_equals_the_two_groups_of_four() {
    #[cfg(target_arch = "x86_64")]
    {
        let Some(avx2) = Avx2::detect() else {
            eprintln!("no AVX2 on this CPU: the eight-lane node test is never used here");
            return;
        };
        let mut rng = SplitMix64::new(11);
        let (mut compared, mut entered, mut nan) = (0usize, 0usize, 0usize);
        for mesh in node_test_meshes() {
            for _ in 0..400 {
                let ray = slab_stress_ray(&mesh, &mut rng);
                let slabs = Slabs::new(&ray);
                let best_t = match rng.next_u64() % 4 {
                    0 => 0.0,
                    1 => f32::INFINITY,
                    _ => rng.range(0.0, 200.0),
                };
                for n in mesh.wide.iter() {
                    let four = Baseline.enter(&slabs, n, best_t);
                    let eight = avx2.enter(&slabs, n, best_t);
                    assert_eq!(four.0, eight.0, "{ray:?}, best_t {best_t}");
                    assert_eq!(
                        four.1.map(f32::to_bits),
                        eight.1.map(f32::to_bits),
                        "{ray:?}, best_t {best_t}"
                    );
                    // Unused lanes are never entered, even holding a box that every ray crosses (they
                    // hold the empty box; the used-lane mask is the second line of defence).
                    let mut everything = *n;
                    for k in usize::from(n.len)..WIDTH {
                        everything.set_lane(k, [-1e30; 3], [1e30; 3]);
                    }
                    let (four_all, eight_all) = (
                        Baseline.enter(&slabs, &everything, best_t),
                        avx2.enter(&slabs, &everything, best_t),
                    );
                    assert_eq!((four_all.0, eight_all.0), (four.0, four.0), "{ray:?}");
                    compared += 1;
                    entered += four.0.count_ones() as usize;
                    // Lanes where a slab distance is `0 * inf` (a parallel ray on a plane).
                    let inverse = ray.dir.recip();
                    nan += (0..usize::from(n.len))
                        .filter(|&k| {
                            let (lo, hi) = n.lane(k);
                            ((lo - ray.origin) * inverse).is_nan()
                                || ((hi - ray.origin) * inverse).is_nan()
                        })
                        .count();
                }
            }
        }
        // Not trivial: many lanes entered, and many slabs a parallel ray's origin lies on.
        assert!(
            compared > 100_000 && entered > compared / 4,
            "{compared} nodes, {entered} lanes"
        );
        assert!(nan > 100, "{nan} NaN lanes");
        eprintln!("{compared} nodes, {entered} lanes entered, {nan} NaN lanes");
    }
}

/// The traversal compiled for AVX2 and the baseline one give the same raw hit, bit for bit (slot, `t`, `u`,
/// `v`), on the same rays; the baseline one is what a CPU without AVX2 runs (on such a CPU `traverse`
/// takes the baseline too, and this compares it with itself).
#[test]
fn both_traversals_answer_the_same_bits() {
    let mut rng = SplitMix64::new(13);
    let mut stack = Stack::new((0, 0.0));
    let (mut rays, mut hits) = (0usize, 0usize);
    for mesh in node_test_meshes() {
        for i in 0..3_000 {
            let ray = slab_stress_ray(&mesh, &mut rng);
            let max_t = if i % 3 == 0 {
                rng.range(0.0, 100.0)
            } else {
                f32::INFINITY
            };
            stack.clear();
            let baseline = mesh.traverse_with(Baseline, &ray, max_t, &mut stack);
            stack.clear();
            let chosen = mesh.traverse(&ray, max_t, &mut stack);
            assert_eq!(baseline, chosen, "{ray:?}, max_t {max_t}");
            rays += 1;
            hits += usize::from(baseline.parts().0 != u32::MAX);
        }
    }
    assert!(hits > rays / 10 && hits < rays * 9 / 10, "{hits} of {rays}");
}
