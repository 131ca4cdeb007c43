//! Vectors across the boundary between Bevy and Collidoscope: there is none any more.
//!
//! The runtime follows Bevy's `glam` (0.32 for Bevy 0.19), so `bevy::math::Vec3` *is*
//! `collidoscope::glam::Vec3`: a `Transform`'s translation goes straight into a query, and a query's answer
//! straight into a `Transform`. [`ToBevy`] and [`ToCollidoscope`] stay, deprecated, as identities for code
//! written when the two were distinct types.
//!
//! ```
//! use bevy::math::Vec3;
//! use bevy_collidoscope::collidoscope::{glam, shape::Ray};
//! let feet: Vec3 = Vec3::new(1.0, 0.0, 2.0);
//! let same: glam::Vec3 = feet; // one type
//! let _ray = Ray::new(feet, Vec3::NEG_Y);
//! assert_eq!(same, feet);
//! ```

use bevy::math::{Vec2, Vec3};

/// Deprecated: Collidoscope's vectors are Bevy's; this is the identity.
#[deprecated(
    note = "collidoscope::glam is Bevy's glam: the vectors are one type, no conversion is needed"
)]
pub trait ToBevy {
    /// The same type.
    type Bevy;
    /// The value itself.
    fn to_bevy(self) -> Self::Bevy;
}

/// Deprecated: Bevy's vectors are Collidoscope's; this is the identity.
#[deprecated(
    note = "collidoscope::glam is Bevy's glam: the vectors are one type, no conversion is needed"
)]
pub trait ToCollidoscope {
    /// The same type.
    type Collidoscope;
    /// The value itself.
    fn to_collidoscope(self) -> Self::Collidoscope;
}

macro_rules! identity {
    ($($t:ty),*) => {$(
        #[allow(deprecated)]
        impl ToBevy for $t {
            type Bevy = $t;
            fn to_bevy(self) -> $t {
                self
            }
        }

        #[allow(deprecated)]
        impl ToCollidoscope for $t {
            type Collidoscope = $t;
            fn to_collidoscope(self) -> $t {
                self
            }
        }
    )*};
}

identity!(Vec3, Vec2);
