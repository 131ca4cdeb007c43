//! Vectors across the boundary between Bevy's `glam` and Collidoscope's.
//!
//! Bevy 0.19 builds on `glam 0.32`; Collidoscope on `glam 0.33` (the major `parry3d` uses, see the runtime's
//! ARCHITECTURE). Two majors are two distinct types, so the plugin converts at its edge: everything that is
//! Bevy's own (a `Transform`, a `CharacterBody`'s velocity) is Bevy's `Vec3`; everything the runtime answers or
//! takes (the queries of [`LevelScene`](crate::LevelScene), `Ray`, `Sphere`, `SceneHit`) is Collidoscope's. The
//! copies are three floats; `to_bevy()` and `to_collidoscope()` spell them.
//!
//! ```
//! use bevy::math::Vec3;
//! use bevy_collidoscope::{ToBevy, ToCollidoscope, collidoscope::glam};
//! let feet = Vec3::new(1.0, 0.0, 2.0);
//! let c: glam::Vec3 = feet.to_collidoscope();
//! assert_eq!(c.to_bevy(), feet);
//! ```

/// Collidoscope's vectors as Bevy's.
pub trait ToBevy {
    /// Bevy's type of the same shape.
    type Bevy;
    /// The same components in Bevy's type.
    fn to_bevy(self) -> Self::Bevy;
}

/// Bevy's vectors as Collidoscope's.
pub trait ToCollidoscope {
    /// Collidoscope's type of the same shape.
    type Collidoscope;
    /// The same components in Collidoscope's type.
    fn to_collidoscope(self) -> Self::Collidoscope;
}

impl ToBevy for collidoscope::glam::Vec3 {
    type Bevy = bevy::math::Vec3;
    fn to_bevy(self) -> bevy::math::Vec3 {
        bevy::math::Vec3::new(self.x, self.y, self.z)
    }
}

impl ToBevy for collidoscope::glam::Vec2 {
    type Bevy = bevy::math::Vec2;
    fn to_bevy(self) -> bevy::math::Vec2 {
        bevy::math::Vec2::new(self.x, self.y)
    }
}

impl ToCollidoscope for bevy::math::Vec3 {
    type Collidoscope = collidoscope::glam::Vec3;
    fn to_collidoscope(self) -> collidoscope::glam::Vec3 {
        collidoscope::glam::Vec3::new(self.x, self.y, self.z)
    }
}

impl ToCollidoscope for bevy::math::Vec2 {
    type Collidoscope = collidoscope::glam::Vec2;
    fn to_collidoscope(self) -> collidoscope::glam::Vec2 {
        collidoscope::glam::Vec2::new(self.x, self.y)
    }
}
