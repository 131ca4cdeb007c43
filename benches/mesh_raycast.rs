//! Mesh ray-cast benchmark against parry3d and Embree (being written).
fn main() {}
