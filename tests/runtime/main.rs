//! The runtime's integration tests in one test binary (each file was its own binary, each linked with the
//! whole crate: one link instead of nine keeps CI short). Run one group with `cargo test --test runtime
//! hand_worked::`, one test by its name as usual.

mod capsule_differential;
mod capsule_invariants;
mod capsule_referee;
mod capsule_regressions;
mod gltf;
mod hand_worked;
mod invariants;
mod level_mutation;
mod level_obj;
mod levels;
mod mesh;
mod movers;
mod parry_differential;
mod parry_glam;
mod robustness;
mod scalar_reference;
mod sector_seams;
mod sectors;
mod seed_defects;
