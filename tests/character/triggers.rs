//! `Scene::triggers_at_capsule`: the triggers a character's body is in, exactly (a capsule is the volume a
//! sphere sweeps along its segment), checked against spheres sampled along the segment.

use collidoscope::glam::Vec3;
use collidoscope::level::ObjectId;
use collidoscope::scene::Scene;
use collidoscope::shape::{Capsule, Sphere};
use proptest::prelude::*;

use crate::common::scene;
use crate::guarantees::config;

/// A box, a ball and an L-shaped prism (not convex).
fn triggers() -> Scene {
    scene(
        r#"(version: 2, triggers: [
        (id: 3, name: "box", shape: Aabb((min: (1.0, 0.0, -1.0), max: (2.0, 1.0, 1.0)))),
        (id: 5, name: "ball", shape: Sphere((center: (-1.5, 1.5, 0.5), radius: 0.7))),
        (id: 8, name: "ell", shape: Prism(points: [(-2.0, -3.0), (1.0, -3.0), (1.0, -2.0), (-1.0, -2.0),
            (-1.0, 0.0), (-2.0, 0.0)], bottom: 0.2, top: 1.4)),
    ])"#,
    )
}

#[test]
fn a_standing_body_is_in_what_its_side_or_head_reaches() {
    let s = triggers();
    let body = |x: f32, z: f32, h: f32| Capsule::new(Vec3::new(x, 0.3, z), Vec3::new(x, h, z), 0.3);
    // Its side touches the box's face x = 1 exactly.
    assert_eq!(
        s.triggers_at_capsule(&body(0.7, 0.0, 1.5)),
        vec![ObjectId(3)]
    );
    assert!(s.triggers_at_capsule(&body(0.69, 0.0, 1.5)).is_empty());
    // Under the ball: only a tall body's head reaches it.
    assert!(s.triggers_at_capsule(&body(-1.5, 0.5, 0.4)).is_empty());
    assert_eq!(
        s.triggers_at_capsule(&body(-1.5, 0.5, 1.0)),
        vec![ObjectId(5)]
    );
    // In the ell's notch (outside the polygon, inside its hull): nothing; in its arm, the ell.
    assert!(s.triggers_at_capsule(&body(0.0, -1.0, 1.5)).is_empty());
    assert_eq!(
        s.triggers_at_capsule(&body(-1.5, -1.0, 1.5)),
        vec![ObjectId(8)]
    );
    // Long enough to reach all three, ids ascending.
    let long = Capsule::new(Vec3::new(-1.5, 1.2, -0.3), Vec3::new(1.5, 0.5, 0.0), 0.3);
    assert_eq!(
        s.triggers_at_capsule(&long),
        vec![ObjectId(3), ObjectId(5), ObjectId(8)]
    );
    // Invalid capsules are in nothing.
    let nan = Capsule::new(Vec3::NAN, Vec3::ZERO, 0.3);
    assert!(s.triggers_at_capsule(&nan).is_empty());
}

proptest! {
    #![proptest_config(config(400))]

    /// Exact: a capsule is in a trigger when a sphere sampled along its segment is, and a sphere there grown by
    /// half the samples' spacing is in every trigger the capsule is in; a point capsule is its sphere.
    #[test]
    fn a_capsule_is_in_what_its_swept_sphere_is_in(
        a in (-3.0f32..3.0, -0.5f32..2.5, -3.5f32..1.5),
        d in (-2.0f32..2.0, -2.0f32..2.0, -2.0f32..2.0),
        r in 0.05f32..0.8,
    ) {
        let s = triggers();
        let a = Vec3::new(a.0, a.1, a.2);
        let b = a + Vec3::new(d.0, d.1, d.2);
        let got = s.triggers_at_capsule(&Capsule::new(a, b, r));
        const N: usize = 400;
        let spacing = (b - a).length() / N as f32;
        let mut inner: Vec<ObjectId> = Vec::new();
        let mut outer: Vec<ObjectId> = Vec::new();
        for k in 0..=N {
            let c = a.lerp(b, k as f32 / N as f32);
            inner.extend(s.triggers_at(&Sphere::new(c, r)));
            outer.extend(s.triggers_at(&Sphere::new(c, r + spacing * 0.5 + 1e-4)));
        }
        for v in [&mut inner, &mut outer] {
            v.sort_unstable();
            v.dedup();
        }
        prop_assert!(inner.iter().all(|id| got.contains(id)), "{got:?} misses some of {inner:?}");
        prop_assert!(got.iter().all(|id| outer.contains(id)), "{got:?} has more than {outer:?}");
        prop_assert!(got.windows(2).all(|w| w[0] < w[1]));
        prop_assert_eq!(s.triggers_at_capsule(&Capsule::new(a, a, r)), s.triggers_at(&Sphere::new(a, r)));
    }
}
