//! The step debugger: the recording of the simulation ([`model`], no egui), its panel of controls, events
//! and plots ([`panel`]), and the overlays it draws over the views ([`overlay`]).

pub mod model;
pub mod overlay;
pub mod panel;
