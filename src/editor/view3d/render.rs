//! The 3D preview on the GPU: wgpu through eframe's paint callback.
//!
//! [`Renderer3d`] lives in egui-wgpu's callback resources (installed once by [`install`]). Each frame the
//! preview sends a [`Frame3`]; in [`CallbackTrait::prepare`] it renders the scene into the renderer's *own*
//! colour and depth textures (sized to the panel in physical pixels), and in [`CallbackTrait::paint`] a
//! full-screen triangle copies that colour texture into egui's render pass, which has no depth attachment
//! (egui_kittest's neither, so the same code renders in tests under Mesa's lavapipe).
//!
//! Pipelines: flat-shaded solids (back faces tinted), planes seen from their front only (a room of planes
//! seen from outside shows its inside), instanced spheres (one unit icosphere, one instance
//! per ball), depth-tested lines (grid, trails), translucent triangles laid on surfaces (the reachability
//! overlay's cells, uploaded once per map) and lines drawn over everything (contacts, normals, probe).
//! Colours arrive as sRGB bytes and are lit in linear space; the colour target is `Rgba8UnormSrgb`, and the
//! copy writes gamma or linear values to match egui's target format.

use std::sync::Arc;

use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor, wgpu};
use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::pipelines::{COLOR_FORMAT, DEPTH_FORMAT};
use crate::editor::draw::translucent::Translucent;
use crate::editor::view3d::movers::MovedSolids;
use crate::editor::view3d::scene::{
    LINE_FLOATS, Lines, SOLID_FLOATS, SPHERE_FLOATS, Spheres, StaticScene,
};

const SCENE_SHADER: &str = r"
struct Globals {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    light: vec4<f32>,
    fog: vec4<f32>,
};
@group(0) @binding(0) var<uniform> g: Globals;

fn to_linear(c: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(pow(c.rgb, vec3<f32>(2.2)), c.a);
}

struct Lit {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec4<f32>,
    @location(2) world: vec3<f32>,
};

@vertex
fn vs_solid(@location(0) p: vec3<f32>, @location(1) n: vec3<f32>, @location(2) c: vec4<f32>) -> Lit {
    var o: Lit;
    o.clip = g.view_proj * vec4<f32>(p, 1.0);
    o.normal = n;
    o.color = to_linear(c);
    o.world = p;
    return o;
}

@vertex
fn vs_sphere(@location(0) p: vec3<f32>, @location(1) inst: vec4<f32>, @location(2) c: vec4<f32>) -> Lit {
    var o: Lit;
    let w = inst.xyz + p * inst.w;
    o.clip = g.view_proj * vec4<f32>(w, 1.0);
    o.normal = p;
    o.color = to_linear(c);
    o.world = w;
    return o;
}

@fragment
fn fs_lit(i: Lit, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var n = normalize(i.normal);
    var base = i.color.rgb;
    if !front {
        // Back faces: flipped normal and a magenta tint, so a triangle's back reads at a glance.
        n = -n;
        base = mix(base, vec3<f32>(0.55, 0.05, 0.30), 0.7);
    }
    let l = normalize(g.light.xyz);
    let v = normalize(g.eye.xyz - i.world);
    let diffuse = max(dot(n, l), 0.0);
    let sky = mix(vec3<f32>(0.05, 0.045, 0.04), vec3<f32>(0.16, 0.18, 0.24), 0.5 + 0.5 * n.y);
    let h = normalize(l + v);
    let spec = pow(max(dot(n, h), 0.0), 48.0) * 0.25 * diffuse;
    var rgb = base * (sky + vec3<f32>(diffuse * 0.85)) + vec3<f32>(spec);
    let dist = length(g.eye.xyz - i.world);
    let fog = clamp((dist - g.fog.x) / max(g.fog.y - g.fog.x, 1e-3), 0.0, 0.85);
    rgb = mix(rgb, g.fog.zzz, fog);
    return vec4<f32>(rgb, 1.0);
}

struct Flat {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
};

@vertex
fn vs_line(@location(0) p: vec3<f32>, @location(1) c: vec4<f32>) -> Flat {
    var o: Flat;
    o.clip = g.view_proj * vec4<f32>(p, 1.0);
    o.color = to_linear(c);
    return o;
}

@fragment
fn fs_line(i: Flat) -> @location(0) vec4<f32> {
    return i.color;
}
";

/// What one frame of the preview draws.
pub struct Frame3 {
    /// Projection × view.
    pub view_proj: Mat4,
    /// The eye, for lighting and fog.
    pub eye: Vec3,
    /// Fog start and end distances, metres.
    pub fog: (f32, f32),
    /// The level's static geometry and its generation (uploaded again only when that changes).
    pub statics: (u64, Arc<StaticScene>),
    /// The moved objects where the shown time has them (a small buffer uploaded each frame).
    pub moved: Arc<MovedSolids>,
    /// Balls.
    pub spheres: Spheres,
    /// Depth-tested lines.
    pub lines: Lines,
    /// Lines drawn over everything.
    pub overlay: Lines,
    /// Translucent triangles on the surfaces and their generation (uploaded again only when it changes).
    pub translucent: Option<(u64, Arc<Translucent>)>,
}

/// Background colour (sRGB bytes), also the fog colour.
pub const BACKGROUND: [u8; 3] = [30, 32, 38];

/// The GPU side: pipelines, the offscreen targets and uploaded buffers.
pub struct Renderer3d {
    solid: wgpu::RenderPipeline,
    front_only: wgpu::RenderPipeline,
    sphere: wgpu::RenderPipeline,
    lines: wgpu::RenderPipeline,
    overlay: wgpu::RenderPipeline,
    translucent: wgpu::RenderPipeline,
    blit: wgpu::RenderPipeline,
    blit_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    globals: wgpu::Buffer,
    globals_group: wgpu::BindGroup,
    sphere_mesh: (wgpu::Buffer, wgpu::Buffer, u32),
    target: Option<Target>,
    statics: Option<Statics>,
    dynamic: Dynamic,
    /// The translucent triangles uploaded, with their generation.
    translucent_buffer: Option<(u64, Option<Uploaded>)>,
    max_side: u32,
}

/// A vertex buffer and how many vertices (or instances) it holds.
type Uploaded = (wgpu::Buffer, u32);

/// The uploaded static scene and its generation.
struct Statics {
    generation: u64,
    solids: Option<Uploaded>,
    planes: Option<Uploaded>,
    lines: Option<Uploaded>,
}

struct Target {
    size: [u32; 2],
    _color: wgpu::Texture,
    color_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
    blit_group: wgpu::BindGroup,
}

#[derive(Default)]
struct Dynamic {
    moved_solids: Option<Uploaded>,
    moved_planes: Option<Uploaded>,
    spheres: Option<Uploaded>,
    lines: Option<Uploaded>,
    overlay: Option<Uploaded>,
}

/// Put the 3D renderer into egui-wgpu's callback resources (once; later calls do nothing).
pub fn install(rs: &egui_wgpu::RenderState) {
    let mut r = rs.renderer.write();
    if r.callback_resources.get::<Renderer3d>().is_none() {
        let renderer = Renderer3d::new(&rs.device, rs.target_format);
        r.callback_resources.insert(renderer);
    }
}

impl Renderer3d {
    /// Pipelines for egui's output format `target_format` (egui's pass has one sample and no depth).
    #[must_use]
    pub fn new(device: &wgpu::Device, target_format: wgpu::TextureFormat) -> Self {
        let scene = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("collidoscope 3d"),
            source: wgpu::ShaderSource::Wgsl(SCENE_SHADER.into()),
        });
        let (globals_layout, globals, globals_group) = super::pipelines::globals(device);
        let [solid, front_only, sphere, lines, overlay, translucent] =
            super::pipelines::scene_pipelines(device, &scene, &globals_layout);
        let (blit, blit_layout) = super::pipelines::blit_pipeline(device, target_format);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("collidoscope 3d blit"),
            ..wgpu::SamplerDescriptor::default()
        });
        let (sphere_vb, sphere_ib, indices) = super::pipelines::unit_sphere_mesh(device);
        Self {
            solid,
            front_only,
            sphere,
            lines,
            overlay,
            translucent,
            blit,
            blit_layout,
            sampler,
            globals,
            globals_group,
            sphere_mesh: (sphere_vb, sphere_ib, indices),
            target: None,
            statics: None,
            dynamic: Dynamic::default(),
            translucent_buffer: None,
            max_side: device.limits().max_texture_dimension_2d,
        }
    }

    /// Upload the frame: the static buffers when their generation changed, the balls and lines, the globals.
    /// Returns the background colour in linear RGB.
    fn upload_frame(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        frame: &Frame3,
    ) -> [f32; 3] {
        let (generation, statics) = &frame.statics;
        if self
            .statics
            .as_ref()
            .is_none_or(|s| s.generation != *generation)
        {
            self.statics = Some(Statics {
                generation: *generation,
                solids: Self::upload(
                    device,
                    &statics.solids.data,
                    SOLID_FLOATS,
                    "collidoscope 3d solids",
                ),
                planes: Self::upload(
                    device,
                    &statics.planes.data,
                    SOLID_FLOATS,
                    "collidoscope 3d planes",
                ),
                lines: Self::upload(
                    device,
                    &statics.lines.data,
                    LINE_FLOATS,
                    "collidoscope 3d lines",
                ),
            });
        }
        match &frame.translucent {
            Some((generation, t))
                if self
                    .translucent_buffer
                    .as_ref()
                    .is_none_or(|(g, _)| g != generation) =>
            {
                let buffer =
                    Self::upload(device, &t.data, LINE_FLOATS, "collidoscope 3d translucent");
                self.translucent_buffer = Some((*generation, buffer));
            }
            Some(_) => {}
            None => self.translucent_buffer = None,
        }
        self.dynamic = Dynamic {
            moved_solids: Self::upload(
                device,
                &frame.moved.solids.data,
                SOLID_FLOATS,
                "collidoscope 3d moved solids",
            ),
            moved_planes: Self::upload(
                device,
                &frame.moved.planes.data,
                SOLID_FLOATS,
                "collidoscope 3d moved sectors",
            ),
            spheres: Self::upload(
                device,
                &frame.spheres.data,
                SPHERE_FLOATS,
                "collidoscope 3d balls",
            ),
            lines: Self::upload(
                device,
                &frame.lines.data,
                LINE_FLOATS,
                "collidoscope 3d trails",
            ),
            overlay: Self::upload(
                device,
                &frame.overlay.data,
                LINE_FLOATS,
                "collidoscope 3d overlay",
            ),
        };
        let light = Vec3::new(0.45, 0.8, 0.35).normalize();
        let bg = BACKGROUND.map(|c| (f32::from(c) / 255.0).powf(2.2));
        let mut globals = frame.view_proj.to_cols_array().to_vec();
        globals.extend_from_slice(&[frame.eye.x, frame.eye.y, frame.eye.z, 1.0]);
        globals.extend_from_slice(&[light.x, light.y, light.z, 0.0]);
        globals.extend_from_slice(&[frame.fog.0, frame.fog.1, bg[1], 0.0]);
        queue.write_buffer(&self.globals, 0, bytemuck::cast_slice(&globals));
        bg
    }

    fn ensure_target(&mut self, device: &wgpu::Device, size: [u32; 2]) {
        if self.target.as_ref().is_some_and(|t| t.size == size) {
            return;
        }
        let extent = wgpu::Extent3d {
            width: size[0],
            height: size[1],
            depth_or_array_layers: 1,
        };
        let make = |label: &str, format: wgpu::TextureFormat, usage: wgpu::TextureUsages| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let color = make(
            "collidoscope 3d colour",
            COLOR_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let depth = make(
            "collidoscope 3d depth",
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        );
        let color_view = color.create_view(&wgpu::TextureViewDescriptor::default());
        let depth_view = depth.create_view(&wgpu::TextureViewDescriptor::default());
        let blit_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("collidoscope 3d blit"),
            layout: &self.blit_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&color_view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        });
        self.target = Some(Target {
            size,
            _color: color,
            color_view,
            depth_view,
            blit_group,
        });
    }

    fn upload(device: &wgpu::Device, data: &[f32], per: usize, label: &str) -> Option<Uploaded> {
        (data.len() >= per).then(|| {
            let buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data),
                usage: wgpu::BufferUsages::VERTEX,
            });
            (buf, (data.len() / per) as u32)
        })
    }

    /// Render `frame` into the offscreen targets of `size` pixels.
    fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        frame: &Frame3,
        size: [u32; 2],
    ) {
        self.ensure_target(device, size);
        let bg = self.upload_frame(device, queue, frame);

        let Some(target) = &self.target else {
            return;
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("collidoscope 3d"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target.color_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: f64::from(bg[0]),
                        g: f64::from(bg[1]),
                        b: f64::from(bg[2]),
                        a: 1.0,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &target.depth_view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_bind_group(0, &self.globals_group, &[]);
        let statics = self.statics.as_ref();
        draw(
            &mut pass,
            &self.solid,
            statics.and_then(|s| s.solids.as_ref()),
        );
        draw(
            &mut pass,
            &self.front_only,
            statics.and_then(|s| s.planes.as_ref()),
        );
        draw(&mut pass, &self.solid, self.dynamic.moved_solids.as_ref());
        draw(
            &mut pass,
            &self.front_only,
            self.dynamic.moved_planes.as_ref(),
        );
        if let Some((buf, n)) = &self.dynamic.spheres {
            pass.set_pipeline(&self.sphere);
            pass.set_vertex_buffer(0, self.sphere_mesh.0.slice(..));
            pass.set_vertex_buffer(1, buf.slice(..));
            pass.set_index_buffer(self.sphere_mesh.1.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..self.sphere_mesh.2, 0, 0..*n);
        }
        draw(
            &mut pass,
            &self.lines,
            statics.and_then(|s| s.lines.as_ref()),
        );
        draw(&mut pass, &self.lines, self.dynamic.lines.as_ref());
        draw(
            &mut pass,
            &self.translucent,
            self.translucent_buffer
                .as_ref()
                .and_then(|(_, b)| b.as_ref()),
        );
        draw(&mut pass, &self.overlay, self.dynamic.overlay.as_ref());
    }
}

/// Draw every vertex of `buffer` (when there is one) with `pipeline`.
fn draw(
    pass: &mut wgpu::RenderPass<'_>,
    pipeline: &wgpu::RenderPipeline,
    buffer: Option<&Uploaded>,
) {
    if let Some((buf, n)) = buffer {
        pass.set_pipeline(pipeline);
        pass.set_vertex_buffer(0, buf.slice(..));
        pass.draw(0..*n, 0..1);
    }
}

/// The paint callback carrying one frame.
pub struct Callback3d {
    /// What to draw.
    pub frame: Arc<Frame3>,
    /// The panel in points.
    pub rect: egui::Rect,
}

impl Callback3d {
    fn size(&self, pixels_per_point: f32, max_side: u32) -> [u32; 2] {
        let s = self.rect.size() * pixels_per_point;
        [
            (s.x.round() as u32).clamp(1, max_side),
            (s.y.round() as u32).clamp(1, max_side),
        ]
    }
}

impl CallbackTrait for Callback3d {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        screen: &ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(r) = resources.get_mut::<Renderer3d>() {
            let size = self.size(screen.pixels_per_point, r.max_side);
            r.render(device, queue, encoder, &self.frame, size);
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        if let Some(r) = resources.get::<Renderer3d>()
            && let Some(t) = &r.target
        {
            pass.set_pipeline(&r.blit);
            pass.set_bind_group(0, &t.blit_group, &[]);
            pass.draw(0..3, 0..1);
        }
    }
}
