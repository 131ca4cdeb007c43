//! The top-down view's big meshes on the GPU: wgpu through eframe's paint callback.
//!
//! The level's fills and lines are built into egui meshes once per document, problems, selection, camera and
//! view (`EditorApp::paint_level`); the overlays (a thousand balls and their trails while playing, the hovered
//! object, the probe) once per frame. Handed to egui as shapes, every frame would pay for them again: egui's
//! tessellator checks every index, measures every vertex and copies the whole mesh into its output, and the
//! renderer uploads that output to the GPU (at 100,000 walls, a third of a playing frame). As paint callbacks
//! each [`Layer`] goes to GPU buffers once per build ([`Layer::generation`]) and each frame draws from there:
//! in order with egui's own primitives, under the view's clip rectangle, with egui's own vertex format, colour
//! handling and blending, so the picture is the one egui would have drawn.
//!
//! [`Renderer2d`] lives in egui-wgpu's callback resources (installed once by [`install`], beside the 3D
//! preview's renderer). Without wgpu (tests without a renderer) the view hands egui the meshes as before.

use std::sync::Arc;

use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor, wgpu};
use egui::epaint::{Mesh, Vertex};
use egui::{PaintCallbackInfo, Rect};
use wgpu::util::DeviceExt;

/// egui's vertex shader and its two fragment shaders (gamma and linear targets) for untextured meshes: every
/// vertex of the view's batches samples egui's white texel, so the colour is the vertex colour.
const SHADER: &str = r"
struct Locals {
    screen_size: vec2<f32>,
    _pad: vec2<f32>,
};
@group(0) @binding(0) var<uniform> locals: Locals;

struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
};

fn unpack_color(c: u32) -> vec4<f32> {
    return vec4<f32>(
        f32(c & 255u),
        f32((c >> 8u) & 255u),
        f32((c >> 16u) & 255u),
        f32((c >> 24u) & 255u),
    ) / 255.0;
}

@vertex
fn vs_main(@location(0) pos: vec2<f32>, @location(1) uv: vec2<f32>, @location(2) color: u32) -> Out {
    var o: Out;
    o.position = vec4<f32>(
        2.0 * pos.x / locals.screen_size.x - 1.0,
        1.0 - 2.0 * pos.y / locals.screen_size.y,
        0.0,
        1.0,
    );
    o.color = unpack_color(color);
    return o;
}

fn linear_from_gamma_rgb(srgb: vec3<f32>) -> vec3<f32> {
    let cutoff = srgb < vec3<f32>(0.04045);
    let lower = srgb / vec3<f32>(12.92);
    let higher = pow((srgb + vec3<f32>(0.055)) / vec3<f32>(1.055), vec3<f32>(2.4));
    return select(higher, lower, cutoff);
}

@fragment
fn fs_gamma(i: Out) -> @location(0) vec4<f32> {
    return i.color;
}

@fragment
fn fs_linear(i: Out) -> @location(0) vec4<f32> {
    return vec4<f32>(linear_from_gamma_rgb(i.color.rgb), i.color.a);
}
";

/// The layers the view draws through wgpu, bottom to top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The level's objects, rebuilt when the document, selection or camera change.
    Level = 0,
    /// The hovered object and the overlays, rebuilt every frame.
    Overlays = 1,
}

/// A new build number: never reused within a run, so an upload is never mistaken for another's.
pub(crate) fn next_generation() -> u64 {
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// One layer's two meshes as built, with the build's number: a new number means new buffers.
#[derive(Clone)]
pub(crate) struct Layer {
    /// The build's number (from [`next_generation`]).
    pub(crate) generation: u64,
    /// Filled shapes, drawn first.
    pub(crate) fills: Arc<Mesh>,
    /// Outlines, over the fills.
    pub(crate) lines: Arc<Mesh>,
}

/// One mesh in GPU buffers.
struct GpuMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    count: u32,
}

impl GpuMesh {
    /// `mesh` on the GPU, written into `old`'s buffers when they are big enough (the overlays are rebuilt
    /// every frame), else into new ones; `None` for a mesh with nothing to draw.
    fn upload(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        old: Option<Self>,
        mesh: &Mesh,
    ) -> Option<Self> {
        let count = u32::try_from(mesh.indices.len()).ok()?;
        if count == 0 || mesh.vertices.is_empty() {
            return old.map(|o| Self { count: 0, ..o });
        }
        let vertex_bytes: &[u8] = bytemuck::cast_slice::<Vertex, u8>(&mesh.vertices);
        let index_bytes: &[u8] = bytemuck::cast_slice::<u32, u8>(&mesh.indices);
        if let Some(o) = old
            && o.vertices.size() >= vertex_bytes.len() as u64
            && o.indices.size() >= index_bytes.len() as u64
        {
            queue.write_buffer(&o.vertices, 0, vertex_bytes);
            queue.write_buffer(&o.indices, 0, index_bytes);
            return Some(Self { count, ..o });
        }
        let buffer = |label, contents, usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage: usage | wgpu::BufferUsages::COPY_DST,
            })
        };
        Some(Self {
            vertices: buffer(
                "collidoscope 2d vertices",
                vertex_bytes,
                wgpu::BufferUsages::VERTEX,
            ),
            indices: buffer(
                "collidoscope 2d indices",
                index_bytes,
                wgpu::BufferUsages::INDEX,
            ),
            count,
        })
    }

    fn draw(&self, pass: &mut wgpu::RenderPass<'static>) {
        if self.count == 0 {
            return;
        }
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.count, 0, 0..1);
    }
}

/// A layer's build on the GPU: its generation, fills and lines.
type Uploaded = (u64, Option<GpuMesh>, Option<GpuMesh>);

/// The pipeline and the uploaded layers, kept in egui-wgpu's callback resources.
pub struct Renderer2d {
    pipeline: wgpu::RenderPipeline,
    locals: wgpu::Buffer,
    locals_group: wgpu::BindGroup,
    /// Each [`Slot`]'s upload.
    uploaded: [Option<Uploaded>; 2],
}

/// Put the 2D level renderer into `rs`'s callback resources (once).
pub fn install(rs: &egui_wgpu::RenderState) {
    let mut r = rs.renderer.write();
    if r.callback_resources.get::<Renderer2d>().is_none() {
        let renderer = Renderer2d::new(&rs.device, rs.target_format);
        r.callback_resources.insert(renderer);
    }
}

impl Renderer2d {
    /// The pipeline for egui's output format `target_format` (one sample, no depth, premultiplied alpha).
    #[must_use]
    pub fn new(device: &wgpu::Device, target_format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("collidoscope 2d level"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let (layout, locals, locals_group) = crate::editor::view3d::pipelines::uniform(
            device,
            "collidoscope 2d locals",
            16,
            wgpu::ShaderStages::VERTEX,
        );
        let pipeline = pipeline(device, &module, &layout, target_format);
        Self {
            pipeline,
            locals,
            locals_group,
            uploaded: [None, None],
        }
    }

    /// Upload `layer` into `slot` unless it is the generation already there.
    fn upload(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, slot: Slot, layer: &Layer) {
        let uploaded = &mut self.uploaded[slot as usize];
        if uploaded.as_ref().map(|u| u.0) == Some(layer.generation) {
            return;
        }
        let (old_fills, old_lines) = uploaded.take().map_or((None, None), |u| (u.1, u.2));
        *uploaded = Some((
            layer.generation,
            GpuMesh::upload(device, queue, old_fills, &layer.fills),
            GpuMesh::upload(device, queue, old_lines, &layer.lines),
        ));
    }
}

/// egui's own pipeline state for meshes: positions in points, sRGBA bytes, premultiplied blending.
fn pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    layout: &wgpu::BindGroupLayout,
    target_format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("collidoscope 2d level"),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    let attributes = wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Uint32];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("collidoscope 2d level"),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_main"),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<Vertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            })],
            compilation_options: wgpu::PipelineCompilationOptions::default(),
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: None,
            ..wgpu::PrimitiveState::default()
        },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(if target_format.is_srgb() {
                "fs_linear"
            } else {
                "fs_gamma"
            }),
            targets: &[Some(wgpu::ColorTargetState {
                format: target_format,
                blend: Some(wgpu::BlendState {
                    color: wgpu::BlendComponent {
                        src_factor: wgpu::BlendFactor::One,
                        dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                        operation: wgpu::BlendOperation::Add,
                    },
                    alpha: wgpu::BlendComponent {
                        src_factor: wgpu::BlendFactor::OneMinusDstAlpha,
                        dst_factor: wgpu::BlendFactor::One,
                        operation: wgpu::BlendOperation::Add,
                    },
                }),
                write_mask: wgpu::ColorWrites::ALL,
            })],
            compilation_options: wgpu::PipelineCompilationOptions::default(),
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// This frame's draw of one layer.
struct LayerCallback(Slot, Layer);

impl CallbackTrait for LayerCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        screen: &ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(r) = resources.get_mut::<Renderer2d>() {
            r.upload(device, queue, self.0, &self.1);
            let ppp = screen.pixels_per_point;
            let size = [
                screen.size_in_pixels[0] as f32 / ppp,
                screen.size_in_pixels[1] as f32 / ppp,
                0.0,
                0.0,
            ];
            queue.write_buffer(&r.locals, 0, bytemuck::cast_slice(&size));
        }
        Vec::new()
    }

    fn paint(
        &self,
        info: PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(r) = resources.get::<Renderer2d>() else {
            return;
        };
        let Some((generation, fills, lines)) = &r.uploaded[self.0 as usize] else {
            return;
        };
        if *generation != self.1.generation {
            return;
        }
        // The whole screen as the viewport, as egui draws its meshes (vertices are in screen points); the
        // scissor egui set for the view's clip rectangle still applies.
        let [w, h] = info.screen_size_px;
        pass.set_viewport(0.0, 0.0, w as f32, h as f32, 0.0, 1.0);
        pass.set_pipeline(&r.pipeline);
        pass.set_bind_group(0, &r.locals_group, &[]);
        for mesh in [fills, lines].into_iter().flatten() {
            mesh.draw(pass);
        }
    }
}

/// The paint callback that draws `layer` into `slot` in `rect` (the top-down view's rectangle).
pub(crate) fn layer_callback(rect: Rect, slot: Slot, layer: Layer) -> egui::PaintCallback {
    egui_wgpu::Callback::new_paint_callback(rect, LayerCallback(slot, layer))
}
