use super::layout::{STACK, Stack};
use super::ray::nearest_first;
use super::*;
use crate::query::ray::ray_triangle;
use crate::shape::Ray;

fn grid_mesh(n: usize) -> TriMesh {
    let mut v = Vec::new();
    let mut idx = Vec::new();
    for y in 0..=n {
        for x in 0..=n {
            let h = ((x * 7 + y * 13) % 5) as f32 * 0.1;
            v.push(Vec3::new(x as f32, h, y as f32));
        }
    }
    let w = (n + 1) as u32;
    for y in 0..n as u32 {
        for x in 0..n as u32 {
            let i = y * w + x;
            idx.push([i, i + w, i + 1]);
            idx.push([i + 1, i + w, i + w + 1]);
        }
    }
    TriMesh::new(v, idx).unwrap()
}

#[test]
fn nearest_first_orders_only_the_set_lanes_and_keeps_ties_in_lane_order() {
    let nears = [5.0, 1.0, 9.0, 1.0, 0.0, 3.0, 7.0, 2.0];
    let (order, len) = nearest_first(0b1010_1110, &nears);
    assert_eq!(&order[..len], &[1, 3, 7, 5, 2]);
    assert_eq!(nearest_first(0, &nears).1, 0);
    let (order, len) = nearest_first(0xff, &nears);
    assert_eq!(&order[..len], &[4, 1, 3, 7, 5, 0, 6, 2]);
}

#[test]
fn nearest_first_equals_a_sort_on_random_masks_and_distances() {
    // Every input of zeros and ones on all eight lanes, then random masks with distances drawn from a few
    // values, so ties (kept in lane order) are common.
    for pattern in 0..256u32 {
        let nears: [f32; 8] = std::array::from_fn(|l| (pattern >> l & 1) as f32);
        let (order, len) = nearest_first(0xff, &nears);
        let zeros = (0..8u8).filter(|&l| pattern >> l & 1 == 0);
        let ones = (0..8u8).filter(|&l| pattern >> l & 1 == 1);
        assert_eq!(len, 8);
        assert_eq!(
            order.to_vec(),
            zeros.chain(ones).collect::<Vec<_>>(),
            "{pattern:08b}"
        );
    }
    let mut rng = crate::generate::SplitMix64::new(11);
    for _ in 0..20_000 {
        let bits = (rng.next_u64() & 0xff) as u32;
        let nears: [f32; 8] = std::array::from_fn(|_| (rng.next_u64() % 5) as f32 * 0.25);
        let mut expected: Vec<u8> = (0..8u8).filter(|&l| bits >> l & 1 == 1).collect();
        expected.sort_by(|&a, &b| {
            nears[a as usize]
                .total_cmp(&nears[b as usize])
                .then(a.cmp(&b))
        });
        let (order, len) = nearest_first(bits, &nears);
        assert_eq!(
            &order[..len],
            &expected[..],
            "bits {bits:08b}, nears {nears:?}"
        );
    }
}

#[test]
fn bvh_matches_brute_force() {
    let mesh = grid_mesh(20);
    mesh.assert_well_formed();
    let mut rng = crate::generate::SplitMix64::new(5);
    for _ in 0..2_000 {
        let o = Vec3::new(
            rng.range(-5.0, 25.0),
            rng.range(-3.0, 5.0),
            rng.range(-5.0, 25.0),
        );
        let target = Vec3::new(
            rng.range(0.0, 20.0),
            rng.range(0.0, 0.5),
            rng.range(0.0, 20.0),
        );
        let ray = Ray::new(o, target - o);
        let brute = (0..mesh.triangle_count() as u32)
            .filter_map(|i| ray_triangle(&ray, &mesh.triangle(i).unwrap(), 10.0).map(|h| h.t))
            .fold(None, |acc: Option<f32>, t| {
                Some(acc.map_or(t, |a| a.min(t)))
            });
        let fast = mesh.cast_ray(&ray, 10.0).map(|h| h.t);
        match (brute, fast) {
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-4 * (1.0 + a), "{a} vs {b}"),
            (None, None) => {}
            other => panic!("mismatch {other:?} for {ray:?}"),
        }
    }
}

#[test]
fn stack_spills_past_its_inline_entries_and_stays_last_in_first_out() {
    let mut stack = Stack::new(0u32);
    assert_eq!(stack.pop(), None);
    // Fill past the inline part, pop some (into the inline part again), push again.
    for i in 0..(STACK as u32 + 40) {
        stack.push(i);
    }
    for i in (STACK as u32 - 10..STACK as u32 + 40).rev() {
        assert_eq!(stack.pop(), Some(i));
    }
    for i in 1000..1100 {
        stack.push(i);
    }
    for i in (1000..1100).rev() {
        assert_eq!(stack.pop(), Some(i));
    }
    for i in (0..STACK as u32 - 10).rev() {
        assert_eq!(stack.pop(), Some(i));
    }
    assert_eq!(stack.pop(), None);
    // Cleared with entries inline and spilled: empty, and it fills again from the bottom.
    for i in 0..(STACK as u32 + 5) {
        stack.push(i);
    }
    stack.clear();
    assert_eq!(stack.pop(), None);
    stack.push(7);
    assert_eq!((stack.pop(), stack.pop()), (Some(7), None));
}

#[test]
fn errors() {
    assert_eq!(TriMesh::new(vec![], vec![]).unwrap_err(), MeshError::Empty);
    assert!(matches!(
        TriMesh::new(vec![Vec3::ZERO], vec![[0, 0, 1]]),
        Err(MeshError::IndexOutOfRange { index: 1, .. })
    ));
    assert_eq!(
        TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 0, 1]]).unwrap_err(),
        MeshError::AllDegenerate(1)
    );
}
