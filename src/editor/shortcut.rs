//! A command's or a mode's face: its name, the keys that run it (the first one shown) and one line of help,
//! with the `const` helpers that write a shortcut tersely. [`crate::editor::command`] and
//! [`crate::editor::modes`] both describe themselves with it, so it sits under both.

use egui::{Key, KeyboardShortcut, Modifiers};

/// A command's name, shortcuts (the first is the one shown) and help text.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// As menus and buttons show it.
    pub name: &'static str,
    /// The keys that run it; empty when none.
    pub keys: &'static [KeyboardShortcut],
    /// One line for tooltips and the F1 list.
    pub help: &'static str,
}

pub(crate) const fn plain(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}
pub(crate) const fn ctrl(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}
pub(crate) const fn ctrl_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), key)
}
pub(crate) const fn shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::SHIFT, key)
}
pub(crate) const fn alt(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::ALT, key)
}

pub(crate) const fn spec(
    name: &'static str,
    keys: &'static [KeyboardShortcut],
    help: &'static str,
) -> Spec {
    Spec { name, keys, help }
}
