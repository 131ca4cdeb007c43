//! The example game (its own code, included as a module), run headless: its recording replays.
