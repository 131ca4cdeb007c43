//! # Collidoscope
//!
//! A collision-detection runtime in `f32` and [`glam`]: every technique of the project's five source texts
//! (Maurice's walk test and Möller–Trumbore, the Game Physics Cookbook's overlap / SAT / raycast / linetest /
//! closest-point tests, the CodeProject top-down walls, NeHe's moving-sphere times of impact), done exactly and
//! robustly.
//!
//! - [`shape`]: plain data (`Ray`, `Segment`, `Sphere`, `Aabb`, `Obb`, `Plane`, `Triangle`, `Cylinder`, `Wall`,
//!   `Interval`).
//! - [`query`]: pure functions, one module per family, each documenting its boundary, inside-origin and
//!   degenerate-input conventions; trace values (`SlabTrace`, `SatReport`) show their workings.
//! - [`walls`]: top-down wall segments with a collision distance and `move_and_slide`.
//! - [`sim`]: the earliest-collision event loop (balls, statics, responses, snapshots); [`bvh`] its static
//!   acceleration structure.
//! - [`walker`]: the first-person walker (Stop / Slide / Ghost) against walls and triangles.
//! - [`mesh`]: triangle meshes with a binned-SAH BVH and watertight ray casts.
//! - [`level`]: the versioned RON level format, validation and atomic saving, hot reload
//!   ([`level::LevelWatcher`]); [`generate`]: stress levels.
//! - [`scene`]: a whole level as a game queries it (ray casts, sweeps, overlaps, sliding), each answer naming
//!   the object; [`record`]: the flight recorder a game keeps running, its file format and the live link to
//!   the editor; [`trigger`]: trigger volumes (enter and leave times of moving spheres).
//!
//! ```
//! use collidoscope::glam::Vec3;
//! use collidoscope::shape::{Ray, Sphere};
//! use collidoscope::query::{ray::ray_sphere, sweep::sphere_sphere};
//!
//! // A ray from the origin along +z meets a sphere of radius 2 at z = 10 on its near side, z = 8.
//! let ball = Sphere::new(Vec3::new(0.0, 0.0, 10.0), 2.0);
//! let hit = ray_sphere(&Ray::new(Vec3::ZERO, Vec3::Z), &ball, f32::INFINITY).unwrap();
//! assert_eq!(hit.t, 8.0);
//!
//! // Two balls closing at 16 m/s over an 8 m gap touch half-way through a 1 s step.
//! let a = Sphere::new(Vec3::ZERO, 1.0);
//! let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 1.0);
//! let toi = sphere_sphere(&a, Vec3::new(8.0, 0.0, 0.0), &b, Vec3::new(-8.0, 0.0, 0.0)).unwrap();
//! assert_eq!(toi.t, 0.5);
//! ```

#![cfg_attr(test, allow(clippy::unwrap_used))]

pub use glam;

pub mod bvh;
pub mod character;
#[cfg(feature = "editor")]
pub mod editor;
pub mod generate;
mod id;
pub mod level;
pub mod mesh;
pub mod mover;
pub mod nav;
mod pages;
pub mod query;
pub mod record;
pub mod scene;
pub mod sector;
pub mod shape;
pub mod sim;
mod statics;
pub mod trigger;
pub mod walker;
pub mod walls;

/// The README's examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
