//! The flight recorder.
