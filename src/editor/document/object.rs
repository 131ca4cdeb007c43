//! The kinds of level object as one [`Object`] type, and the level's [`Header`] (everything but the
//! objects).

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};

use crate::level::{
    AabbObject, BallObject, CylinderObject, EntityObject, EntityType, Level, MeshObject, ObbObject,
    ObjectId, PlaneObject, Probe, SectorObject, SimulationConfig, TriangleObject, TriggerObject,
    TriggerShape, Value, WalkerStart, WallObject,
};

/// Calls `$m!(Variant, field, Type)` once per kind of level object; keeps the per-kind code in one place.
macro_rules! for_each_kind {
    ($m:ident) => {
        $m! {
            Wall, walls, WallObject;
            Triangle, triangles, TriangleObject;
            Ball, balls, BallObject;
            Plane, planes, PlaneObject;
            Cylinder, cylinders, CylinderObject;
            Aabb, aabbs, AabbObject;
            Obb, obbs, ObbObject;
            Mesh, meshes, MeshObject;
            Sector, sectors, SectorObject;
            Probe, probes, Probe;
            Entity, entities, EntityObject;
            Trigger, triggers, TriggerObject
        }
    };
}

macro_rules! define_kinds {
    ($($variant:ident, $field:ident, $ty:ty);*) => {
        /// The kinds of level objects (one list in [`Level`] each).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $(
                #[doc = concat!("`Level::", stringify!($field), "`.")]
                $variant,
            )*
        }

        impl Kind {
            /// Every kind, in file order.
            pub const ALL: &[Kind] = &[$(Kind::$variant),*];

            /// The field of [`Level`] that holds this kind.
            #[must_use]
            pub fn field(self) -> &'static str {
                match self { $(Kind::$variant => stringify!($field)),* }
            }

            /// How many objects of this kind `level` has.
            #[must_use]
            pub fn count(self, level: &Level) -> usize {
                match self { $(Kind::$variant => level.$field.len()),* }
            }
        }

        /// One level object of any kind, owned.
        #[derive(Clone, Debug, PartialEq)]
        #[allow(missing_docs)]
        pub enum Object {
            $($variant($ty)),*
        }

        impl Object {
            /// Its kind.
            #[must_use]
            pub fn kind(&self) -> Kind {
                match self { $(Object::$variant(_) => Kind::$variant),* }
            }

            /// Its id.
            #[must_use]
            pub fn id(&self) -> ObjectId {
                match self { $(Object::$variant(o) => o.id),* }
            }

            /// Give it another id.
            pub fn set_id(&mut self, id: ObjectId) {
                match self { $(Object::$variant(o) => o.id = id),* }
            }

            /// Its optional name.
            #[must_use]
            pub fn name(&self) -> Option<&str> {
                match self { $(Object::$variant(o) => o.name.as_deref()),* }
            }

            /// Set or clear its name.
            pub fn set_name(&mut self, name: Option<String>) {
                match self { $(Object::$variant(o) => o.name = name),* }
            }

            /// Its free-form properties.
            #[must_use]
            pub fn properties(&self) -> &BTreeMap<String, Value> {
                match self { $(Object::$variant(o) => &o.properties),* }
            }

            /// Its free-form properties, to change.
            pub fn properties_mut(&mut self) -> &mut BTreeMap<String, Value> {
                match self { $(Object::$variant(o) => &mut o.properties),* }
            }

            /// A copy of the object at `index` of `kind` in `level`.
            #[must_use]
            pub fn get(level: &Level, kind: Kind, index: usize) -> Option<Object> {
                match kind { $(Kind::$variant => level.$field.get(index).cloned().map(Object::$variant)),* }
            }

            /// Id of the object at `index` of `kind`.
            pub(crate) fn id_at(level: &Level, kind: Kind, index: usize) -> Option<ObjectId> {
                match kind { $(Kind::$variant => level.$field.get(index).map(|o| o.id)),* }
            }

            pub(crate) fn insert_into(self, level: &mut Level, index: usize) {
                match self {
                    $(Object::$variant(o) => {
                        let i = index.min(level.$field.len());
                        level.$field.insert(i, o);
                    })*
                }
            }

            pub(crate) fn replace_in(self, level: &mut Level, index: usize) {
                match self {
                    $(Object::$variant(o) => {
                        if let Some(slot) = level.$field.get_mut(index) { *slot = o; }
                    })*
                }
            }

            pub(crate) fn remove_from(level: &mut Level, kind: Kind, index: usize) {
                match kind {
                    $(Kind::$variant => {
                        if index < level.$field.len() { level.$field.remove(index); }
                    })*
                }
            }

            /// Every object of `level` in file order.
            pub fn all(level: &Level) -> impl Iterator<Item = Object> + '_ {
                std::iter::empty()
                    $(.chain(level.$field.iter().cloned().map(Object::$variant)))*
            }

            /// Add the object at the end of its kind's list.
            pub fn push_into(self, level: &mut Level) {
                match self { $(Object::$variant(o) => level.$field.push(o)),* }
            }
        }
    };
}

for_each_kind!(define_kinds);

impl Kind {
    /// A singular noun for messages: "wall", "ball", …
    #[must_use]
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Wall => "wall",
            Kind::Triangle => "triangle",
            Kind::Ball => "ball",
            Kind::Plane => "plane",
            Kind::Cylinder => "cylinder",
            Kind::Aabb => "box (AABB)",
            Kind::Obb => "box (OBB)",
            Kind::Mesh => "mesh",
            Kind::Sector => "sector",
            Kind::Probe => "probe",
            Kind::Entity => "entity",
            Kind::Trigger => "trigger",
        }
    }
}

/// Move a top-down point `(x, z)` by `d`.
pub(crate) fn shift3(p: &mut Vec3, d: Vec2) {
    p.x += d.x;
    p.z += d.y;
}

impl Object {
    /// A short description for lists: `wall #3 "south"`.
    #[must_use]
    pub fn label(&self) -> String {
        match self.name() {
            Some(n) => format!("{} {} \"{n}\"", self.kind().noun(), self.id()),
            None => format!("{} {}", self.kind().noun(), self.id()),
        }
    }

    /// Whether moving it in the top-down view changes it. A mesh loaded from an OBJ file cannot move (its
    /// geometry is the file's), and a horizontal plane has no top-down position.
    #[must_use]
    pub fn is_movable(&self) -> bool {
        match self {
            Object::Mesh(m) => m.obj.is_none(),
            Object::Plane(p) => p.normal.x != 0.0 || p.normal.z != 0.0,
            _ => true,
        }
    }

    /// Move it by `d` metres on the floor (`d = (dx, dz)`). Objects that cannot move are left as they are.
    pub fn translate(&mut self, d: Vec2) {
        if !self.is_movable() {
            return;
        }
        match self {
            Object::Wall(w) => {
                w.a += d;
                w.b += d;
            }
            Object::Triangle(t) => {
                for p in [&mut t.a, &mut t.b, &mut t.c] {
                    shift3(p, d);
                }
            }
            Object::Ball(b) => shift3(&mut b.center, d),
            // Points p on the plane satisfy n·p = d; moved points p + m satisfy n·p' = d + n·m.
            Object::Plane(p) => p.d += p.normal.x * d.x + p.normal.z * d.y,
            Object::Cylinder(c) => {
                shift3(&mut c.a, d);
                shift3(&mut c.b, d);
            }
            Object::Aabb(b) => {
                shift3(&mut b.min, d);
                shift3(&mut b.max, d);
            }
            Object::Obb(b) => shift3(&mut b.center, d),
            Object::Mesh(m) => m.vertices.iter_mut().for_each(|v| shift3(v, d)),
            Object::Sector(s) => {
                for p in s.outline.iter_mut().chain(s.holes.iter_mut().flatten()) {
                    *p += d;
                }
            }
            Object::Probe(p) => shift3(&mut p.origin, d),
            Object::Entity(e) => shift3(&mut e.position, d),
            Object::Trigger(t) => match &mut t.shape {
                TriggerShape::Aabb(b) => {
                    shift3(&mut b.min, d);
                    shift3(&mut b.max, d);
                }
                TriggerShape::Sphere(s) => shift3(&mut s.center, d),
                TriggerShape::Prism { points, .. } => points.iter_mut().for_each(|p| *p += d),
            },
        }
    }
}

/// The level's settings that are not objects: what the Level panel edits, and what the walker tool moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// Level name.
    pub name: String,
    /// Free text.
    pub description: String,
    /// Height of walls without their own.
    pub default_wall_height: f32,
    /// The walker's start.
    pub walker: Option<WalkerStart>,
    /// The level's character (player size and limits).
    pub character: Option<crate::character::CharacterController>,
    /// Gravity and time step.
    pub simulation: SimulationConfig,
    /// The game's entity types (what the Entity types panel edits).
    pub entity_types: Vec<EntityType>,
    /// The level's movers (what the Mover tool and the inspector's mover section edit).
    pub movers: Vec<crate::level::MoverObject>,
}

impl Header {
    /// The header of `level`.
    #[must_use]
    pub fn of(level: &Level) -> Self {
        Self {
            name: level.name.clone(),
            description: level.description.clone(),
            default_wall_height: level.default_wall_height,
            walker: level.walker.clone(),
            character: level.character,
            simulation: level.simulation.clone(),
            entity_types: level.entity_types.clone(),
            movers: level.movers.clone(),
        }
    }

    pub(crate) fn write_to(&self, level: &mut Level) {
        level.name.clone_from(&self.name);
        level.description.clone_from(&self.description);
        level.default_wall_height = self.default_wall_height;
        level.walker.clone_from(&self.walker);
        level.character = self.character;
        level.simulation = self.simulation.clone();
        level.entity_types.clone_from(&self.entity_types);
        level.movers.clone_from(&self.movers);
    }
}
