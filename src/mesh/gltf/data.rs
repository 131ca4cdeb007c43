//! Reading a glTF document's bytes: accessors checked against the bytes present, `data:` URIs (base64) and
//! `%` escapes in URIs.

use std::borrow::Cow;

use ::gltf::json;
use glam::Vec3;
use json::validation::Checked;

use super::GltfError;

/// Where an accessor's elements are: the bytes from the first element's start, the stride, the count, the
/// component type and the components per element, all checked against the bytes present.
struct Elements<'b> {
    bytes: &'b [u8],
    stride: usize,
    count: usize,
    component: json::accessor::ComponentType,
    normalized: bool,
}

fn elements<'b>(
    root: &json::Root,
    buffers: &'b [Cow<'_, [u8]>],
    a: usize,
    want: json::accessor::Type,
) -> Result<Elements<'b>, GltfError> {
    let fail = |message: String| GltfError::Accessor {
        accessor: a,
        message,
    };
    let acc = root
        .accessors
        .get(a)
        .ok_or_else(|| fail("does not exist".into()))?;
    if acc.sparse.is_some() {
        return Err(fail("sparse accessors are not supported".into()));
    }
    if acc.type_ != Checked::Valid(want) {
        return Err(fail(format!("is not {want:?}")));
    }
    let Checked::Valid(json::accessor::GenericComponentType(component)) = acc.component_type else {
        return Err(fail("has an unknown component type".into()));
    };
    let view_index = acc.buffer_view.ok_or_else(|| {
        fail("has no buffer view (compressed by an extension? not supported)".into())
    })?;
    let view = root.get(view_index).ok_or_else(|| {
        fail(format!(
            "its buffer view {} does not exist",
            view_index.value()
        ))
    })?;
    let buffer = buffers
        .get(view.buffer.value())
        .ok_or_else(|| fail(format!("its buffer {} does not exist", view.buffer.value())))?;
    let n = match want {
        json::accessor::Type::Vec3 => 3u64,
        _ => 1,
    };
    let element = component.size() as u64 * n;
    let stride = view.byte_stride.map_or(element, |s| s.0 as u64);
    if stride < element {
        return Err(fail(format!(
            "stride {stride} is less than the element's {element} bytes"
        )));
    }
    let view_start = view.byte_offset.map_or(0, |o| o.0);
    let view_end = view_start.checked_add(view.byte_length.0);
    if view_end.is_none_or(|e| e > buffer.len() as u64) {
        return Err(fail(format!(
            "its buffer view {} reaches past its buffer's {} bytes",
            view_index.value(),
            buffer.len()
        )));
    }
    let count = acc.count.0;
    let start = view_start.checked_add(acc.byte_offset.map_or(0, |o| o.0));
    let need = count.checked_sub(1).map_or(Some(0), |last| {
        last.checked_mul(stride)?.checked_add(element)
    });
    let end = start.zip(need).and_then(|(s, n)| s.checked_add(n));
    match (start, end, view_end) {
        (Some(start), Some(end), Some(view_end)) if end <= view_end => Ok(Elements {
            // In range: end <= view_end <= buffer.len(), checked above.
            bytes: &buffer[start as usize..end as usize],
            stride: stride as usize,
            count: count as usize,
            component,
            normalized: acc.normalized,
        }),
        _ => Err(fail(format!(
            "{count} elements reach past its buffer view ({} bytes)",
            view.byte_length.0
        ))),
    }
}

/// Component `i` (counted from `at`) as a number, with glTF's normalisation for integer types.
fn component(e: &Elements<'_>, at: usize, i: usize) -> f32 {
    use json::accessor::ComponentType as C;
    let size = e.component.size();
    let b = &e.bytes[at + i * size..at + (i + 1) * size];
    let (raw, max) = match e.component {
        C::I8 => (f32::from(b[0] as i8), 127.0),
        C::U8 => (f32::from(b[0]), 255.0),
        C::I16 => (f32::from(i16::from_le_bytes([b[0], b[1]])), 32767.0),
        C::U16 => (f32::from(u16::from_le_bytes([b[0], b[1]])), 65535.0),
        C::U32 => (
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
            u32::MAX as f32,
        ),
        C::F32 => return f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    };
    if e.normalized {
        (raw / max).max(-1.0)
    } else {
        raw
    }
}

pub(super) fn read_positions(
    root: &json::Root,
    buffers: &[Cow<'_, [u8]>],
    a: usize,
    max: usize,
) -> Result<Vec<Vec3>, GltfError> {
    let e = elements(root, buffers, a, json::accessor::Type::Vec3)?;
    if e.count > max {
        return Err(GltfError::TooManyTriangles);
    }
    let out: Vec<Vec3> = (0..e.count)
        .map(|k| {
            let at = k * e.stride;
            Vec3::new(
                component(&e, at, 0),
                component(&e, at, 1),
                component(&e, at, 2),
            )
        })
        .collect();
    if let Some(index) = out.iter().position(|v| !v.is_finite()) {
        return Err(GltfError::Accessor {
            accessor: a,
            message: format!("position {index} is not finite"),
        });
    }
    Ok(out)
}

pub(super) fn read_indices(
    root: &json::Root,
    buffers: &[Cow<'_, [u8]>],
    a: usize,
    max: usize,
) -> Result<Vec<u32>, GltfError> {
    let e = elements(root, buffers, a, json::accessor::Type::Scalar)?;
    if e.count > max {
        return Err(GltfError::TooManyTriangles);
    }
    use json::accessor::ComponentType as C;
    if !matches!(e.component, C::U8 | C::U16 | C::U32) {
        return Err(GltfError::Accessor {
            accessor: a,
            message: "indices must be unsigned integers".into(),
        });
    }
    Ok((0..e.count)
        .map(|k| {
            let b = &e.bytes[k * e.stride..];
            match e.component {
                C::U8 => u32::from(b[0]),
                C::U16 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            }
        })
        .collect())
}

/// The bytes of a `data:` URI with base64 content.
pub(super) fn decode_data_uri(uri: &str) -> Result<Vec<u8>, String> {
    let Some((_, data)) = uri.split_once(";base64,") else {
        return Err("only base64 data URIs are supported".into());
    };
    base64_decode(data).ok_or_else(|| "the data URI is not valid base64".into())
}

/// Standard base64 (padding optional, whitespace not allowed).
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// A URI with its `%XX` escapes decoded (invalid escapes kept as written).
pub(super) fn percent_decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).and_then(|&c| hex(c)),
                b.get(i + 2).and_then(|&c| hex(c)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_known_text() {
        assert_eq!(base64_decode("aGVsbG8=").as_deref(), Some(&b"hello"[..]));
        assert_eq!(base64_decode("aGVsbG8").as_deref(), Some(&b"hello"[..]));
        assert_eq!(
            base64_decode("AAECAw==").as_deref(),
            Some(&[0u8, 1, 2, 3][..])
        );
        assert_eq!(base64_decode("a b"), None);
    }

    #[test]
    fn percent_escapes_decode() {
        assert_eq!(percent_decode("my%20mesh.bin"), "my mesh.bin");
        assert_eq!(percent_decode("bad%zz"), "bad%zz");
        assert_eq!(percent_decode("end%2"), "end%2");
    }
}
