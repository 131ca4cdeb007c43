//! The boundary between the runtime's glam (Bevy's, 0.32 while Bevy is 0.19) and the glam of parry3d 0.31 and
//! rapier3d 0.36 (0.33, through glamx): two distinct types with the same layout. `.p()` copies one of ours
//! into parry's, `.ours()` copies it back. Each copy moves the components as they are (no arithmetic, no
//! normalisation), so every comparison against parry gives bit for bit what it gave with one glam.
//!
//! The differential tests use it as a module; the benches include the same file by path.

// The benches include this file and each uses a few of the conversions.
#![allow(dead_code)]

use collidoscope::glam;

/// Our value as parry's.
pub trait ToParry {
    /// The same value in parry's glam.
    type Parry;
    /// An exact component copy into parry's glam.
    fn p(self) -> Self::Parry;
}

/// Parry's value as ours.
pub trait FromParry {
    /// The same value in the runtime's glam.
    type Ours;
    /// An exact component copy into the runtime's glam.
    fn ours(self) -> Self::Ours;
}

/// Both directions for a pair of types that turn into and out of the same array.
macro_rules! boundary {
    ($($ours:ty, $parry:ty, $to:ident, $from:ident;)*) => {$(
        impl ToParry for $ours {
            type Parry = $parry;
            #[inline]
            fn p(self) -> $parry {
                <$parry>::$from(self.$to())
            }
        }

        impl FromParry for $parry {
            type Ours = $ours;
            #[inline]
            fn ours(self) -> $ours {
                <$ours>::$from(self.$to())
            }
        }
    )*};
}

boundary! {
    glam::Vec2, glam_parry::Vec2, to_array, from_array;
    glam::Vec3, glam_parry::Vec3, to_array, from_array;
    glam::Vec3A, glam_parry::Vec3A, to_array, from_array;
    glam::Vec4, glam_parry::Vec4, to_array, from_array;
    glam::Quat, glam_parry::Quat, to_array, from_array;
    glam::DVec3, glam_parry::DVec3, to_array, from_array;
}

impl ToParry for glam::Mat3 {
    type Parry = glam_parry::Mat3;
    #[inline]
    fn p(self) -> glam_parry::Mat3 {
        glam_parry::Mat3::from_cols_array(&self.to_cols_array())
    }
}

impl FromParry for glam_parry::Mat3 {
    type Ours = glam::Mat3;
    #[inline]
    fn ours(self) -> glam::Mat3 {
        glam::Mat3::from_cols_array(&self.to_cols_array())
    }
}

impl<T: ToParry> ToParry for Option<T> {
    type Parry = Option<T::Parry>;
    #[inline]
    fn p(self) -> Self::Parry {
        self.map(ToParry::p)
    }
}

impl<T: FromParry> FromParry for Option<T> {
    type Ours = Option<T::Ours>;
    #[inline]
    fn ours(self) -> Self::Ours {
        self.map(FromParry::ours)
    }
}

impl<A: ToParry, B: ToParry> ToParry for (A, B) {
    type Parry = (A::Parry, B::Parry);
    #[inline]
    fn p(self) -> Self::Parry {
        (self.0.p(), self.1.p())
    }
}

impl<A: FromParry, B: FromParry> FromParry for (A, B) {
    type Ours = (A::Ours, B::Ours);
    #[inline]
    fn ours(self) -> Self::Ours {
        (self.0.ours(), self.1.ours())
    }
}

impl<T: ToParry + Copy, const N: usize> ToParry for [T; N] {
    type Parry = [T::Parry; N];
    #[inline]
    fn p(self) -> Self::Parry {
        self.map(ToParry::p)
    }
}

impl<T: FromParry + Copy, const N: usize> FromParry for [T; N] {
    type Ours = [T::Ours; N];
    #[inline]
    fn ours(self) -> Self::Ours {
        self.map(FromParry::ours)
    }
}

#[cfg(test)]
mod tests {
    // The imports live in the test: the benches include this file without a test harness, which drops it.
    #[test]
    fn copies_are_exact_both_ways() {
        use super::{FromParry, ToParry};
        use collidoscope::glam::{Mat3, Quat, Vec3};
        // Values whose bits would show any arithmetic: a subnormal, a negative zero, an irrational, a NaN.
        let v = Vec3::new(f32::MIN_POSITIVE / 3.0, -0.0, std::f32::consts::PI);
        assert_eq!(
            v.p().ours().to_array().map(f32::to_bits),
            v.to_array().map(f32::to_bits)
        );
        let q = Quat::from_xyzw(0.1, 0.2, 0.3, 0.4); // not unit: a copy must not normalise
        assert_eq!(q.p().ours().to_array(), q.to_array());
        let m = Mat3::from_cols_array(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, f32::NAN]);
        let back = m.p().ours().to_cols_array().map(f32::to_bits);
        assert_eq!(back, m.to_cols_array().map(f32::to_bits));
        assert_eq!(m.p().col(1).to_array(), m.col(1).to_array());
    }
}
