//! Placeholder replaced by the level load/save benchmark.
fn main() {}
