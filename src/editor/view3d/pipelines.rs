//! The 3D preview's wgpu objects, made once: the globals buffer, the scene's pipelines (solids, front-only
//! planes, sphere instances, depth-tested and overlay lines), the blit pipeline into egui's pass and the unit
//! sphere the balls scale.

use eframe::egui_wgpu::wgpu;
use wgpu::util::DeviceExt;

use super::scene::{LINE_FLOATS, SOLID_FLOATS, SPHERE_FLOATS};

/// The uniform buffer every scene pipeline reads (view-projection, eye, fog), with its layout and group.
pub(super) fn globals(
    device: &wgpu::Device,
) -> (wgpu::BindGroupLayout, wgpu::Buffer, wgpu::BindGroup) {
    uniform(
        device,
        "collidoscope 3d globals",
        112,
        wgpu::ShaderStages::VERTEX_FRAGMENT,
    )
}

/// A uniform buffer of `size` bytes at binding 0 of group 0, seen by the `visibility` stages, with its layout
/// and bind group (the 3D preview's globals, the top-down view's screen size).
pub(crate) fn uniform(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    visibility: wgpu::ShaderStages,
) -> (wgpu::BindGroupLayout, wgpu::Buffer, wgpu::BindGroup) {
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: buffer.as_entire_binding(),
        }],
    });
    (layout, buffer, group)
}

/// The scene's pipelines: solids (both sides), planes (front only), sphere instances, depth-tested lines,
/// lines over everything, and translucent triangles (depth-tested, writing no depth).
pub(super) fn scene_pipelines(
    device: &wgpu::Device,
    scene: &wgpu::ShaderModule,
    globals_layout: &wgpu::BindGroupLayout,
) -> [wgpu::RenderPipeline; 6] {
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("collidoscope 3d"),
        bind_group_layouts: &[Some(globals_layout)],
        immediate_size: 0,
    });
    let [solid, front_only, sphere] = solid_pipelines(device, &layout, scene);
    let [lines, overlay, translucent] = line_pipelines(device, &layout, scene);
    [solid, front_only, sphere, lines, overlay, translucent]
}

/// Depth testing (and writing) for a pipeline.
fn depth(write: bool, compare: wgpu::CompareFunction) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: wgpu::StencilState::default(),
        bias: wgpu::DepthBiasState::default(),
    }
}

/// Lit solids (both sides), planes (front only) and sphere instances.
fn solid_pipelines(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    scene: &wgpu::ShaderModule,
) -> [wgpu::RenderPipeline; 3] {
    use wgpu::VertexFormat as F;
    let solid_attrs = attrs([F::Float32x3, F::Float32x3, F::Unorm8x4], 0);
    let unit_attrs = attrs([F::Float32x3], 0);
    let inst_attrs = attrs([F::Float32x4, F::Unorm8x4], 1);
    let float = std::mem::size_of::<f32>() as u64;
    let solid_layout = [Some(wgpu::VertexBufferLayout {
        array_stride: SOLID_FLOATS as u64 * float,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &solid_attrs,
    })];
    let solid = scene_pipeline(
        device,
        layout,
        scene,
        &PipelineSpec {
            label: "collidoscope 3d solids",
            vs: "vs_solid",
            fs: "fs_lit",
            buffers: &solid_layout,
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: None,
            depth_stencil: depth(true, wgpu::CompareFunction::Less),
        },
    );
    let front_only = scene_pipeline(
        device,
        layout,
        scene,
        &PipelineSpec {
            label: "collidoscope 3d planes",
            vs: "vs_solid",
            fs: "fs_lit",
            buffers: &solid_layout,
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: Some(wgpu::Face::Back),
            depth_stencil: depth(true, wgpu::CompareFunction::Less),
        },
    );
    let sphere = scene_pipeline(
        device,
        layout,
        scene,
        &PipelineSpec {
            label: "collidoscope 3d spheres",
            vs: "vs_sphere",
            fs: "fs_lit",
            buffers: &[
                Some(wgpu::VertexBufferLayout {
                    array_stride: 3 * float,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &unit_attrs,
                }),
                Some(wgpu::VertexBufferLayout {
                    array_stride: SPHERE_FLOATS as u64 * float,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: &inst_attrs,
                }),
            ],
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: None,
            depth_stencil: depth(true, wgpu::CompareFunction::Less),
        },
    );
    [solid, front_only, sphere]
}

/// Lines tested against depth, lines drawn over everything, and unlit translucent triangles in the lines'
/// vertex layout (tested against depth without writing it, so what lies under them still shows).
fn line_pipelines(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    scene: &wgpu::ShaderModule,
) -> [wgpu::RenderPipeline; 3] {
    use wgpu::VertexFormat as F;
    let float = std::mem::size_of::<f32>() as u64;
    let line_attrs = attrs([F::Float32x3, F::Unorm8x4], 0);
    let line_layout = [Some(wgpu::VertexBufferLayout {
        array_stride: LINE_FLOATS as u64 * float,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &line_attrs,
    })];
    let lines = scene_pipeline(
        device,
        layout,
        scene,
        &PipelineSpec {
            label: "collidoscope 3d lines",
            vs: "vs_line",
            fs: "fs_line",
            buffers: &line_layout,
            topology: wgpu::PrimitiveTopology::LineList,
            cull_mode: None,
            depth_stencil: depth(true, wgpu::CompareFunction::LessEqual),
        },
    );
    let overlay = scene_pipeline(
        device,
        layout,
        scene,
        &PipelineSpec {
            label: "collidoscope 3d overlay",
            vs: "vs_line",
            fs: "fs_line",
            buffers: &line_layout,
            topology: wgpu::PrimitiveTopology::LineList,
            cull_mode: None,
            depth_stencil: depth(false, wgpu::CompareFunction::Always),
        },
    );
    let translucent = scene_pipeline(
        device,
        layout,
        scene,
        &PipelineSpec {
            label: "collidoscope 3d translucent",
            vs: "vs_line",
            fs: "fs_line",
            buffers: &line_layout,
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: None,
            depth_stencil: depth(false, wgpu::CompareFunction::LessEqual),
        },
    );
    [lines, overlay, translucent]
}

/// What differs between the scene's pipelines.
struct PipelineSpec<'a> {
    label: &'a str,
    vs: &'a str,
    fs: &'a str,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    topology: wgpu::PrimitiveTopology,
    cull_mode: Option<wgpu::Face>,
    depth_stencil: wgpu::DepthStencilState,
}

/// One pipeline of the scene shader into the offscreen colour target (alpha blended).
fn scene_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    scene: &wgpu::ShaderModule,
    spec: &PipelineSpec<'_>,
) -> wgpu::RenderPipeline {
    let color_target = [Some(wgpu::ColorTargetState {
        format: COLOR_FORMAT,
        blend: Some(wgpu::BlendState::ALPHA_BLENDING),
        write_mask: wgpu::ColorWrites::ALL,
    })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(spec.label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: scene,
            entry_point: Some(spec.vs),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: spec.buffers,
        },
        primitive: wgpu::PrimitiveState {
            topology: spec.topology,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: spec.cull_mode,
            ..wgpu::PrimitiveState::default()
        },
        depth_stencil: Some(spec.depth_stencil.clone()),
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: scene,
            entry_point: Some(spec.fs),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &color_target,
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// The pipeline that copies the offscreen colour target into egui's pass, with its bind group layout.
pub(super) fn blit_pipeline(
    device: &wgpu::Device,
    target_format: wgpu::TextureFormat,
) -> (wgpu::RenderPipeline, wgpu::BindGroupLayout) {
    let blit_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("collidoscope 3d blit"),
        source: wgpu::ShaderSource::Wgsl(BLIT_SHADER.into()),
    });
    let blit_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("collidoscope 3d blit"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    });
    let blit_pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("collidoscope 3d blit"),
        bind_group_layouts: &[Some(&blit_layout)],
        immediate_size: 0,
    });
    let blit = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("collidoscope 3d blit"),
        layout: Some(&blit_pipeline_layout),
        vertex: wgpu::VertexState {
            module: &blit_shader,
            entry_point: Some("vs_blit"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &blit_shader,
            entry_point: Some(if target_format.is_srgb() {
                "fs_linear"
            } else {
                "fs_gamma"
            }),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: target_format,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    });
    (blit, blit_layout)
}

/// The unit sphere every ball instance scales: vertex buffer, index buffer, index count.
pub(super) fn unit_sphere_mesh(device: &wgpu::Device) -> (wgpu::Buffer, wgpu::Buffer, u32) {
    let (verts, indices) = crate::editor::view3d::scene::unit_sphere(2);
    let flat: Vec<f32> = verts.iter().flat_map(|v| v.to_array()).collect();
    let sphere_vb = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("collidoscope 3d unit sphere"),
        contents: bytemuck::cast_slice(&flat),
        usage: wgpu::BufferUsages::VERTEX,
    });
    let sphere_ib = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("collidoscope 3d unit sphere"),
        contents: bytemuck::cast_slice(&indices),
        usage: wgpu::BufferUsages::INDEX,
    });
    (sphere_vb, sphere_ib, indices.len() as u32)
}

/// Format of the offscreen colour target.
pub(super) const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
/// Format of the offscreen depth target.
pub(super) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

pub(super) const BLIT_SHADER: &str = r"
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;

struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_blit(@builtin(vertex_index) k: u32) -> Out {
    let uv = vec2<f32>(f32((k << 1u) & 2u), f32(k & 2u));
    var o: Out;
    o.clip = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    o.uv = uv;
    return o;
}

@fragment
fn fs_linear(i: Out) -> @location(0) vec4<f32> {
    return textureSample(src, smp, i.uv);
}

fn gamma(x: f32) -> f32 {
    if x <= 0.0031308 {
        return 12.92 * x;
    }
    return 1.055 * pow(x, 1.0 / 2.4) - 0.055;
}

@fragment
fn fs_gamma(i: Out) -> @location(0) vec4<f32> {
    let c = textureSample(src, smp, i.uv);
    return vec4<f32>(gamma(c.r), gamma(c.g), gamma(c.b), c.a);
}
";

/// Vertex attributes of `formats`, packed in order from shader location `first`.
pub(super) fn attrs<const N: usize>(
    formats: [wgpu::VertexFormat; N],
    first: u32,
) -> [wgpu::VertexAttribute; N] {
    let mut offset = 0;
    let mut out = [wgpu::VertexAttribute {
        format: wgpu::VertexFormat::Float32,
        offset: 0,
        shader_location: 0,
    }; N];
    for (k, f) in formats.into_iter().enumerate() {
        out[k] = wgpu::VertexAttribute {
            format: f,
            offset,
            shader_location: first + k as u32,
        };
        offset += f.size();
    }
    out
}
