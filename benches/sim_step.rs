//! Placeholder replaced by the simulation step benchmark against rapier3d.
fn main() {}
