//! FNV-1a hashing of exact bits: the world's state hash ([`super::World::state_hash`]) and the trace hashes
//! that pin determinism down (the golden test, the CLI, the editor's comparisons).

use glam::Vec3;

use super::{Contact, ContactEvent, World};

/// FNV-1a, for state and trace hashes.
pub struct Fnv(u64);

impl Fnv {
    /// A fresh hasher.
    #[must_use]
    pub fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    /// Mix in bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// Mix in a u64.
    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    /// Mix in an f32's bits.
    pub fn f32(&mut self, v: f32) {
        self.bytes(&v.to_bits().to_le_bytes());
    }
    /// Mix in a vector's bits.
    pub fn vec3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    /// Mix in a contact event.
    pub fn event(&mut self, e: &ContactEvent) {
        self.f32(e.time);
        self.u64(e.ball.0 as u64);
        match e.other {
            Contact::Ball(b) => self.u64(b.0 as u64),
            Contact::Static(s) => self.u64((s as u64) | (1 << 63)),
        }
        self.vec3(e.point);
        self.vec3(e.normal);
        self.f32(e.restitution);
    }
    /// The hash.
    #[must_use]
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    /// A 64-bit FNV-1a hash of the balls' exact bits, the time and the step count: equal hashes mean
    /// bit-identical states.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.u64(self.steps);
        h.u64(self.time.to_bits());
        for b in &self.balls {
            h.vec3(b.center);
            h.vec3(b.velocity);
            h.f32(b.radius);
            h.f32(b.mass);
            h.f32(b.restitution);
        }
        h.finish()
    }
}
