//! What the debugger's analysis tabs compute and show: the probe ray against every object ([`probe`]), the
//! separating-axis report of two boxes ([`sat`]) and the seed texts' method variants side by side
//! ([`compare`]). Each computes through the runtime's public queries and trace values.

pub mod compare;
pub mod probe;
pub mod sat;
