//! The 3D preview's cameras: orbit, walk (the level's character, first or third person), the seeds' walker
//! and follow-ball. [`Camera3::ray`] turns a pixel into a world ray for picking and the probe.

use glam::{Mat4, Vec2, Vec3};

use crate::shape::{Aabb, Ray};
use crate::walker::{WalkMode, Walker};

pub use crate::editor::command::CameraMode;

/// The 3D preview's camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera3 {
    /// The mode.
    pub mode: CameraMode,
    /// Orbit target.
    pub target: Vec3,
    /// Orbit yaw, radians about `+y` (0 looks toward `-z`).
    pub yaw: f32,
    /// Orbit pitch, radians (positive looks down).
    pub pitch: f32,
    /// Orbit distance, metres.
    pub distance: f32,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// The walker (walk mode), moved with its collision.
    pub walker: Walker,
    /// Walk-mode look pitch, radians (positive looks down).
    pub look_pitch: f32,
    /// The character as the walk camera sees it (walk mode; its facing is the walker's).
    pub character: CharacterView,
    /// Follow mode: the direction the camera last looked along (kept while the ball stands still).
    pub follow_dir: Vec3,
    /// Near and far planes, metres.
    pub clip: (f32, f32),
}

impl Default for Camera3 {
    fn default() -> Self {
        Self {
            mode: CameraMode::Orbit,
            target: Vec3::ZERO,
            yaw: 0.6,
            pitch: 0.6,
            distance: 20.0,
            fov_y: 55f32.to_radians(),
            walker: Walker {
                position: Vec2::ZERO,
                facing_deg: 0.0,
                eye_height: 1.7,
                radius: 0.3,
                mode: WalkMode::Slide,
            },
            look_pitch: 0.0,
            character: CharacterView::default(),
            follow_dir: Vec3::NEG_Z,
            clip: (0.05, 1000.0),
        }
    }
}

impl Camera3 {
    /// Frame `b` in the orbit camera for a viewport of `aspect` = width / height, and size the clip planes
    /// to it.
    pub fn frame(&mut self, b: &Aabb, aspect: f32) {
        let r = ((b.max - b.min).length() * 0.5).max(1.0);
        self.target = b.center();
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        // The narrower of the two fields of view decides.
        let half = (self.fov_y * 0.5).tan() * aspect.min(1.0);
        self.distance = r / half.atan().sin();
        self.clip = ((r * 1e-3).clamp(0.01, 0.1), (r * 20.0).max(100.0));
    }

    /// The eye and unit forward direction for the current mode. `ball` is the followed ball's centre,
    /// velocity and radius (follow mode; without one the camera stays in orbit).
    #[must_use]
    pub fn eye_forward(&self, ball: Option<(Vec3, Vec3, f32)>) -> (Vec3, Vec3) {
        match (self.mode, ball) {
            (CameraMode::Walk, _) => {
                let f = self.walker.forward();
                let (s, c) = self.look_pitch.sin_cos();
                let look = Vec3::new(f.x * c, -s, f.y * c);
                let ch = &self.character;
                let eye = ch.feet + Vec3::Y * ch.eye_height;
                if ch.third_person {
                    // Behind the body and a little above the head, looking at the chest.
                    let chest = ch.feet + Vec3::Y * (ch.height * 0.75);
                    let back = (ch.height * 2.0).max(2.5);
                    (chest - look * back + Vec3::Y * (ch.height * 0.25), look)
                } else {
                    (eye, look)
                }
            }
            (CameraMode::Walker, _) => {
                let f = self.walker.forward();
                let (s, c) = self.look_pitch.sin_cos();
                (self.walker.eye(), Vec3::new(f.x * c, -s, f.y * c))
            }
            (CameraMode::Follow, Some((center, _, radius))) => {
                let dir = self.follow_dir;
                let back = radius.max(0.1) * 8.0 + 2.0;
                let eye = center - dir * back + Vec3::Y * (radius.max(0.1) * 3.0 + 0.5);
                (eye, (center - eye).normalize_or(dir))
            }
            _ => {
                let f = self.orbit_forward();
                (self.target - f * self.distance, f)
            }
        }
    }

    /// Unit direction from the orbit eye to the target.
    #[must_use]
    pub fn orbit_forward(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(-sy * cp, -sp, -cy * cp)
    }

    /// Follow the ball's velocity when it moves (so the camera stays behind it).
    pub fn track(&mut self, velocity: Vec3) {
        if velocity.length_squared() > 1e-6 && velocity.is_finite() {
            let target = velocity.normalize();
            self.follow_dir = (self.follow_dir * 0.85 + target * 0.15).normalize_or(target);
        }
    }

    /// The view matrix (right-handed, `y` up).
    #[must_use]
    pub fn view(&self, ball: Option<(Vec3, Vec3, f32)>) -> Mat4 {
        let (eye, f) = self.eye_forward(ball);
        let up = if f.cross(Vec3::Y).length_squared() < 1e-8 {
            Vec3::NEG_Z
        } else {
            Vec3::Y
        };
        Mat4::look_to_rh(eye, f, up)
    }

    /// The projection matrix for a viewport of `aspect` = width / height (depth 0..1, as wgpu wants).
    #[must_use]
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        Mat4::perspective_rh(self.fov_y, aspect, self.clip.0, self.clip.1)
    }

    /// The world ray through the point `uv` of the viewport (`(0, 0)` top-left, `(1, 1)` bottom-right).
    #[must_use]
    pub fn ray(&self, uv: Vec2, aspect: f32, ball: Option<(Vec3, Vec3, f32)>) -> Option<Ray> {
        let inv = (self.projection(aspect) * self.view(ball)).inverse();
        let ndc = Vec2::new(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
        let near = inv.project_point3(ndc.extend(0.0));
        let far = inv.project_point3(ndc.extend(1.0));
        let dir = (far - near).normalize_or_zero();
        (dir != Vec3::ZERO && near.is_finite()).then(|| Ray::new(near, dir))
    }

    /// Orbit: rotate by a pointer drag of `delta` pixels.
    pub fn orbit_by(&mut self, delta: Vec2) {
        self.yaw -= delta.x * 0.008;
        self.pitch = (self.pitch + delta.y * 0.008).clamp(-1.55, 1.55);
    }

    /// Orbit: zoom by `factor` (> 1 moves closer).
    pub fn zoom_by(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance / factor).clamp(0.2, self.clip.1 * 0.5);
        }
    }

    /// Orbit: pan the target by a pointer drag of `delta` pixels in a viewport `height` pixels tall.
    pub fn pan_by(&mut self, delta: Vec2, height: f32) {
        let f = self.orbit_forward();
        let right = f.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(f);
        let per_px = 2.0 * self.distance * (self.fov_y * 0.5).tan() / height.max(1.0);
        self.target += (-right * delta.x + up * delta.y) * per_px;
    }

    /// Walk: turn and look by a pointer drag of `delta` pixels.
    pub fn look_by(&mut self, delta: Vec2) {
        self.walker.facing_deg = (self.walker.facing_deg - delta.x * 0.25).rem_euclid(360.0);
        self.look_pitch = (self.look_pitch + delta.y * 0.004).clamp(-1.4, 1.4);
    }
}

/// The character as the walk camera follows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterView {
    /// Feet position.
    pub feet: Vec3,
    /// Eye height above the feet, metres.
    pub eye_height: f32,
    /// Feet to the top of the head, metres.
    pub height: f32,
    /// Seen from behind (F4) instead of from its eyes.
    pub third_person: bool,
}

impl Default for CharacterView {
    fn default() -> Self {
        Self {
            feet: Vec3::ZERO,
            eye_height: 1.7,
            height: 1.8,
            third_person: false,
        }
    }
}

/// The eye height of a character `height` tall with `radius`: a tenth of a metre under the top of its head,
/// never under the middle of its capsule.
#[must_use]
pub fn eye_height(height: f32, radius: f32) -> f32 {
    (height - 0.1).max(height * 0.5).max(radius)
}

/// The walker's floor motion for the held keys: `forward` and `right` in −1..1, `speed` m/s, `dt` s.
#[must_use]
pub fn walk_motion(walker: &Walker, forward: f32, right: f32, speed: f32, dt: f32) -> Vec2 {
    let m = walker.forward() * forward + walker.right() * right;
    let m = m.normalize_or_zero();
    m * speed * dt.clamp(0.0, 0.1)
}
