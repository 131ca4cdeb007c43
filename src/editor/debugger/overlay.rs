//! The debugger overlays as one list of world-space marks, drawn by both views.
