//! Autosave: a recovery copy of a changed level every 30 s, offered back at the next start.

use std::path::{Path, PathBuf};

use crate::editor::app::*;
use crate::level::{Level, atomic_write};

impl EditorApp {
    pub(crate) fn recovery_files(&self) -> Option<(PathBuf, PathBuf)> {
        let dir = self.session.opts.recovery_dir.as_ref()?;
        Some((dir.join("recovery.ron"), dir.join("recovery.path")))
    }

    pub(crate) fn offer_recovery(&mut self) {
        let Some((level_file, path_file)) = self.recovery_files() else {
            return;
        };
        let Ok(text) = std::fs::read_to_string(&level_file) else {
            return;
        };
        let age = std::fs::metadata(&level_file)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .map_or_else(String::new, |d| format!("{} min ago", d.as_secs() / 60));
        match Level::from_ron_str(&text) {
            Ok(level) => {
                let original = std::fs::read_to_string(&path_file)
                    .ok()
                    .filter(|s| !s.is_empty())
                    .map(PathBuf::from);
                self.session.dialog = Some(Dialog::Recover {
                    level: Box::new(level),
                    original,
                    age,
                });
            }
            Err(e) => {
                self.status = format!("the recovery file {} is damaged: {e}", level_file.display());
            }
        }
    }

    pub(crate) fn clear_recovery(&mut self) {
        if let Some((a, b)) = self.recovery_files() {
            let _ = std::fs::remove_file(a);
            let _ = std::fs::remove_file(b);
        }
        self.session.autosaved = None;
    }

    /// Write the recovery file now when the level has unsaved changes not yet autosaved.
    pub fn autosave(&mut self) {
        if !self.doc.is_dirty() || self.session.autosaved == Some(self.doc.key()) {
            return;
        }
        let Some((level_file, path_file)) = self.recovery_files() else {
            return;
        };
        let result = std::fs::create_dir_all(level_file.parent().unwrap_or(Path::new(".")))
            .map_err(|e| e.to_string())
            .and_then(|()| {
                atomic_write(&level_file, self.doc.level().to_ron_string().as_bytes())
                    .map_err(|e| e.to_string())
            })
            .and_then(|()| {
                let original = self
                    .doc
                    .path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                atomic_write(&path_file, original.as_bytes()).map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => self.session.autosaved = Some(self.doc.key()),
            Err(e) => self.status = format!("autosave failed: {e}"),
        }
    }
}
