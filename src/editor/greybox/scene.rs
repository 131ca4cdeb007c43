//! The level's runtime scene kept between revisions: an edit of sectors alone re-cooks only the edited
//! sectors and their neighbours ([`Scene::update_sectors`]) instead of building the whole scene again, which
//! on a 10,000-sector level is the difference between about half a millisecond and a tenth of a second.
//! Anything else (another kind of object changed, movers, one-way sectors, another document) builds it
//! afresh, as [`Scene::build`] does.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::editor::document::{DocId, DocKey, Document};
use crate::level::{Level, ObjectId, SectorObject};
use crate::scene::Scene;
use crate::sector::SectorCook;

/// More sectors changed at once than this and the scene is built afresh: each added or removed object
/// rebuilds the scene's structures, so past a few dozen one build is cheaper.
const MOST_UPDATED: usize = 64;

/// The level's scene at the document's revision, built once per revision and followed incrementally.
#[derive(Default)]
pub struct LiveScene {
    current: Option<(DocKey, Arc<Scene>)>,
    kept: Option<Kept>,
}

/// What the scene was built from: the sectors' cook, each sector as cooked, and the rest of the level.
struct Kept {
    doc: DocId,
    cook: SectorCook,
    sectors: HashMap<ObjectId, SectorObject>,
    /// The level without its sectors (what else goes into the scene), to see that nothing else changed.
    rest: Level,
}

/// What of `level` besides its sectors goes into the scene (compared by [`same_rest`]).
fn rest_of(level: &Level) -> Level {
    Level {
        planes: level.planes.clone(),
        cylinders: level.cylinders.clone(),
        triangles: level.triangles.clone(),
        aabbs: level.aabbs.clone(),
        obbs: level.obbs.clone(),
        walls: level.walls.clone(),
        default_wall_height: level.default_wall_height,
        meshes: level.meshes.clone(),
        triggers: level.triggers.clone(),
        movers: level.movers.clone(),
        ..Level::default()
    }
}

/// Whether the objects the scene is built from, other than sectors, are the same in `a` and `b`.
fn same_rest(a: &Level, b: &Level) -> bool {
    a.planes == b.planes
        && a.cylinders == b.cylinders
        && a.triangles == b.triangles
        && a.aabbs == b.aabbs
        && a.obbs == b.obbs
        && a.walls == b.walls
        && a.default_wall_height.to_bits() == b.default_wall_height.to_bits()
        && a.meshes == b.meshes
        && a.triggers == b.triggers
        && a.movers == b.movers
}

impl LiveScene {
    /// The scene at `doc`'s revision when it was built already (shared, never built here).
    #[must_use]
    pub fn as_ref(&self) -> Option<&(DocKey, Arc<Scene>)> {
        self.current.as_ref()
    }

    /// The scene at `doc`'s revision: kept, followed from the previous revision of the same document, or
    /// built.
    pub fn at(&mut self, doc: &Document) -> Arc<Scene> {
        let key = doc.key();
        if let Some((k, s)) = &self.current
            && *k == key
        {
            return Arc::clone(s);
        }
        let level = doc.level();
        let followed = match (&mut self.current, &mut self.kept) {
            (Some((_, scene)), Some(kept)) if kept.doc == key.id => kept.follow(scene, level),
            _ => false,
        };
        if !followed {
            let (scene, kept) = build(level, key.id);
            self.current = Some((key, Arc::new(scene)));
            self.kept = Some(kept);
        } else if let Some((k, _)) = &mut self.current {
            *k = key;
        }
        self.current
            .as_ref()
            .map_or_else(|| Arc::new(Scene::build(level)), |(_, s)| Arc::clone(s))
    }
}

/// The scene of `level` and what it was built from.
fn build(level: &Level, doc: DocId) -> (Scene, Kept) {
    let scene = Scene::build(level);
    let kept = Kept {
        doc,
        cook: if level.movers.is_empty() {
            level.cook_sectors()
        } else {
            // Followed never (movers change the cooking): no need to cook twice.
            SectorCook::default()
        },
        sectors: level.sectors.iter().map(|s| (s.id, s.clone())).collect(),
        rest: rest_of(level),
    };
    (scene, kept)
}

/// What changed in `level`'s sectors since `kept` (each sector by id as it was): the sectors added or
/// changed and the ids removed, in one pass over the level's sectors; `None` when an id repeats (no cook
/// can follow that) or more than `most` changed (a fresh build is cheaper). The one comparison the scene
/// and the kept cook both make.
fn sector_changes<'a>(
    kept: &HashMap<ObjectId, SectorObject>,
    level: &'a Level,
    most: usize,
) -> Option<(Vec<&'a SectorObject>, Vec<ObjectId>)> {
    let mut seen: HashSet<ObjectId> = HashSet::with_capacity(level.sectors.len());
    let mut changed: Vec<&SectorObject> = Vec::new();
    for s in &level.sectors {
        if !seen.insert(s.id) {
            return None;
        }
        if kept.get(&s.id) != Some(s) {
            changed.push(s);
            if changed.len() > most {
                return None;
            }
        }
    }
    // Every id seen is kept or among the changed: the count says whether any kept one is gone, so the
    // removed are looked for only when some are.
    let still = level.sectors.len() - changed.iter().filter(|s| !kept.contains_key(&s.id)).count();
    let removed: Vec<ObjectId> = if still == kept.len() {
        Vec::new()
    } else {
        kept.keys()
            .filter(|id| !seen.contains(id))
            .copied()
            .collect()
    };
    (changed.len() + removed.len() <= most).then_some((changed, removed))
}

impl Kept {
    /// Bring `scene` (built from what this keeps) to `level` when only plain sectors changed; `false` when
    /// it must be built afresh (nothing is changed then).
    fn follow(&mut self, scene: &mut Arc<Scene>, level: &Level) -> bool {
        if !level.movers.is_empty() || !same_rest(&self.rest, level) {
            return false;
        }
        let Some((changed, removed)) = sector_changes(&self.sectors, level, MOST_UPDATED) else {
            return false;
        };
        // A one-way flag is kept per scene entry: a one-way sector changed, added or removed is built afresh.
        let one_way = changed
            .iter()
            .any(|s| s.one_way || self.sectors.get(&s.id).is_some_and(|o| o.one_way))
            || removed
                .iter()
                .any(|id| self.sectors.get(id).is_some_and(|o| o.one_way));
        if one_way {
            return false;
        }
        let edited: Vec<ObjectId> = changed
            .iter()
            .map(|s| s.id)
            .chain(removed.iter().copied())
            .collect();
        if !edited.is_empty() {
            Arc::make_mut(scene).update_sectors(&mut self.cook, level, &edited);
        }
        for s in changed {
            self.sectors.insert(s.id, s.clone());
        }
        for id in &removed {
            self.sectors.remove(id);
        }
        true
    }
}

/// A level's sectors cooked, kept to follow the next level asked for by re-cooking only what changed.
struct KeptCook {
    cook: SectorCook,
    sectors: HashMap<ObjectId, SectorObject>,
}

impl KeptCook {
    fn new(level: &Level) -> Self {
        Self {
            cook: level.cook_sectors(),
            sectors: level.sectors.iter().map(|s| (s.id, s.clone())).collect(),
        }
    }

    /// Follow `level` (re-cook the sectors added, removed or changed and their neighbours); `false` when a
    /// fresh cook is the better (most sectors changed) or the only (a repeated id) way.
    fn follow(&mut self, level: &Level) -> bool {
        let most = MOST_UPDATED.max(level.sectors.len() / 4);
        let Some((changed, removed)) = sector_changes(&self.sectors, level, most) else {
            return false;
        };
        if changed.is_empty() && removed.is_empty() {
            return true;
        }
        let changes = changed
            .iter()
            .map(|s| (s.id, Some(s.geom())))
            .chain(removed.iter().map(|id| (*id, None)));
        self.cook.update(changes);
        for s in changed {
            self.sectors.insert(s.id, s.clone());
        }
        for id in &removed {
            self.sectors.remove(id);
        }
        true
    }
}

thread_local! {
    /// The last level's sectors cooked on this thread (see [`with_cooked_sectors`]).
    static KEPT_COOK: RefCell<Option<KeptCook>> = const { RefCell::new(None) };
}

/// `f` with `level`'s sectors cooked as [`Level::cook_sectors`] cooks them, from the cook kept by the last
/// call on this thread when only some sectors changed since (the 3D preview's solids after a one-sector edit
/// of a 10,000-sector level: a re-cook of the neighbourhood instead of the whole level).
pub fn with_cooked_sectors<R>(level: &Level, f: impl FnOnce(&SectorCook) -> R) -> R {
    KEPT_COOK.with(|cell| {
        let mut kept = cell.borrow_mut();
        let followed = kept.as_mut().is_some_and(|k| k.follow(level));
        if !followed {
            *kept = None;
            let fresh = KeptCook::new(level);
            *kept = Some(fresh);
        }
        match kept.as_ref() {
            Some(k) => f(&k.cook),
            None => f(&level.cook_sectors()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::sector::new_sector;
    use crate::editor::document::{Edit, Object};
    use crate::shape::Ray;
    use glam::{Vec2, Vec3};

    fn rooms(n: u32) -> Level {
        let sectors = (0..n)
            .map(|i| {
                let x = (i % 8) as f32 * 2.0;
                let z = (i / 8) as f32 * 2.0;
                let outline = vec![
                    Vec2::new(x, z),
                    Vec2::new(x + 2.0, z),
                    Vec2::new(x + 2.0, z + 2.0),
                    Vec2::new(x, z + 2.0),
                ];
                let mut s = new_sector(outline, (i % 3) as f32 * 0.2, 3.0 + (i % 2) as f32 * 0.3);
                s.id = ObjectId(i + 1);
                s
            })
            .collect();
        Level {
            sectors,
            ..Level::default()
        }
    }

    #[test]
    fn one_pass_finds_the_sectors_added_changed_and_removed() {
        let level = rooms(6);
        let kept: HashMap<ObjectId, SectorObject> =
            level.sectors.iter().map(|s| (s.id, s.clone())).collect();
        let ids = |v: &[&SectorObject]| v.iter().map(|s| s.id.0).collect::<Vec<_>>();
        let (c, r) = sector_changes(&kept, &level, 8).unwrap_or_else(|| panic!("followed"));
        assert!(c.is_empty() && r.is_empty());
        // One raised, one removed, one added in its place (as many sectors as before).
        let mut edited = level.clone();
        edited.sectors[1].floor.height += 0.5;
        edited.sectors.remove(3);
        let mut added = level.sectors[0].clone();
        added.id = ObjectId(99);
        edited.sectors.push(added);
        let (c, r) = sector_changes(&kept, &edited, 8).unwrap_or_else(|| panic!("followed"));
        assert_eq!((ids(&c), r), (vec![2, 99], vec![ObjectId(4)]));
        // More changes than allowed, or a repeated id: no following.
        assert!(sector_changes(&kept, &edited, 2).is_none());
        edited.sectors[5].id = ObjectId(1);
        assert!(sector_changes(&kept, &edited, 8).is_none());
    }

    /// Rays down, up and sideways over the whole level: the same answers from both scenes.
    fn same_answers(a: &Scene, b: &Scene) {
        for i in 0..40 {
            for j in 0..20 {
                let (x, z) = (i as f32 * 0.43 + 0.01, j as f32 * 0.41 + 0.02);
                for ray in [
                    Ray::new(Vec3::new(x, 10.0, z), Vec3::NEG_Y),
                    Ray::new(Vec3::new(x, -5.0, z), Vec3::Y),
                    Ray::new(Vec3::new(-1.0, 0.1 + j as f32 * 0.15, z), Vec3::X),
                ] {
                    let (ha, hb) = (a.cast_ray(&ray, 100.0), b.cast_ray(&ray, 100.0));
                    assert_eq!(
                        ha.map(|h| (h.object, h.t.to_bits())),
                        hb.map(|h| (h.object, h.t.to_bits())),
                        "{ray:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_followed_scene_answers_as_a_fresh_build_and_is_not_rebuilt() {
        let mut doc = Document::new(rooms(24), None);
        let mut live = LiveScene::default();
        let first = live.at(&doc);
        // The same revision: the same scene.
        assert!(Arc::ptr_eq(&first, &live.at(&doc)));
        drop(first);
        // Raise one floor, remove one sector, add one: each followed.
        let mut s = doc.level().sectors[9].clone();
        s.floor.height = 0.35;
        doc.apply(
            "raise",
            Edit {
                replace: vec![Object::Sector(s)],
                ..Edit::default()
            },
        );
        same_answers(&live.at(&doc), &Scene::build(doc.level()));
        doc.apply(
            "remove",
            Edit {
                remove: vec![ObjectId(5)],
                ..Edit::default()
            },
        );
        same_answers(&live.at(&doc), &Scene::build(doc.level()));
        let far = new_sector(
            vec![
                Vec2::new(20.0, 0.0),
                Vec2::new(22.0, 0.0),
                Vec2::new(22.0, 2.0),
                Vec2::new(20.0, 2.0),
            ],
            0.5,
            3.0,
        );
        doc.apply(
            "add",
            Edit {
                add: vec![Object::Sector(far)],
                ..Edit::default()
            },
        );
        same_answers(&live.at(&doc), &Scene::build(doc.level()));
        // Undo all three: back to the first level's answers.
        for _ in 0..3 {
            doc.undo();
        }
        same_answers(&live.at(&doc), &Scene::build(doc.level()));
    }

    #[test]
    fn another_kind_of_object_or_another_document_builds_afresh() {
        let mut doc = Document::new(rooms(8), None);
        let mut live = LiveScene::default();
        let _ = live.at(&doc);
        let b = crate::level::AabbObject {
            id: ObjectId(0),
            name: None,
            min: Vec3::new(1.0, 0.0, 1.0),
            max: Vec3::new(1.5, 1.0, 1.5),
            one_way: false,
            properties: Default::default(),
        };
        doc.apply(
            "box",
            Edit {
                add: vec![Object::Aabb(b)],
                ..Edit::default()
            },
        );
        same_answers(&live.at(&doc), &Scene::build(doc.level()));
        let other = Document::new(rooms(3), None);
        same_answers(&live.at(&other), &Scene::build(other.level()));
    }

    #[test]
    fn kept_sector_cooks_follow_edits_as_fresh_cooks() {
        let mut level = rooms(16);
        let fresh = |l: &Level| -> Vec<_> { l.cook_sectors().into_cooked() };
        let kept = |l: &Level| with_cooked_sectors(l, |c| c.sectors().cloned().collect::<Vec<_>>());
        let sorted = |mut v: Vec<crate::sector::CookedSector>| {
            v.sort_by_key(|c| c.id);
            v
        };
        assert_eq!(sorted(kept(&level)), sorted(fresh(&level)));
        level.sectors[6].floor.height = 0.45;
        assert_eq!(sorted(kept(&level)), sorted(fresh(&level)));
        level.sectors.remove(3);
        assert_eq!(sorted(kept(&level)), sorted(fresh(&level)));
        let other = rooms(5);
        assert_eq!(sorted(kept(&other)), sorted(fresh(&other)));
    }
}
