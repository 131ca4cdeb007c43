//! Reading a large level on every core: the big object lists (walls, triangles, balls, ...) are cut at item
//! boundaries and parsed in parallel, the rest of the document on the calling thread, and the pieces joined
//! in file order, so the result is the level a single parse gives.
//!
//! Only a cheap, conservative scan decides where to cut: it understands strings, line comments and nesting,
//! and gives up (`None`: the caller parses the whole text the ordinary way) at anything it does not need to
//! understand (block comments, raw strings, chars, a key given twice) and at any parse error, so errors keep
//! their exact position and field path from the ordinary parse.

use serde::de::DeserializeOwned;

use super::ron_options;
use super::schema::{
    AabbObject, BallObject, CylinderObject, ObbObject, PlaneObject, TriangleObject, WallObject,
};
use super::{EntityObject, Level, SectorObject};

/// Texts shorter than this are parsed in one piece (threads cost more than they save).
pub(super) const MIN_BYTES: usize = 1 << 20;
/// A list shorter than this is left to the document's own parse.
const MIN_LIST_BYTES: usize = 128 << 10;
/// At most this many pieces per list.
const MAX_PIECES: usize = 8;

/// The lists that are cut, as they are named in the file.
const LISTS: [&str; 9] = [
    "walls",
    "triangles",
    "balls",
    "planes",
    "cylinders",
    "aabbs",
    "obbs",
    "entities",
    "sectors",
];

/// A top-level list found by the scan: its name's index in [`LISTS`], the byte range of its items
/// (inside the brackets) and the item-separating commas.
struct List {
    which: usize,
    inner: std::ops::Range<usize>,
    commas: Vec<usize>,
}

/// What the scan found: the attributes before the document (`#![enable(...)]`), and the lists worth cutting.
struct Layout {
    attributes: std::ops::Range<usize>,
    lists: Vec<List>,
}

/// Parse `text` (a version 1, 2 or 3 level, whose lists are the current ones) with its large lists parsed in
/// parallel; `None` when the text is not one this reader is sure about, or does not parse (the caller then
/// parses it the ordinary way, for the exact error).
pub(super) fn parse<T: DeserializeOwned + Send + Into<Level>>(text: &str) -> Option<Level> {
    let layout = scan(text.as_bytes())?;
    if layout.lists.is_empty() {
        return None;
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_PIECES));
    if threads < 2 {
        return None;
    }
    // The document with every cut list emptied, and each list's pieces.
    let mut rest = String::with_capacity(text.len() / 16);
    let mut at = 0;
    for l in &layout.lists {
        rest.push_str(&text[at..l.inner.start]);
        at = l.inner.end;
    }
    rest.push_str(&text[at..]);
    let attributes = &text[layout.attributes.clone()];
    let pieces: Vec<(usize, String)> = layout
        .lists
        .iter()
        .flat_map(|l| {
            cut(l, threads)
                .into_iter()
                .map(move |r| (l.which, format!("{attributes}[{}]", &text[r])))
        })
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = pieces
            .iter()
            .map(|(which, piece)| s.spawn(move || Piece::parse(*which, piece)))
            .collect();
        let mut level: Level = ron_options().from_str::<T>(&rest).ok()?.into();
        for h in handles {
            h.join().ok()??.append_to(&mut level);
        }
        Some(level)
    })
}

/// The item ranges of `l` cut into about `n` pieces of similar size, at its commas.
fn cut(l: &List, n: usize) -> Vec<std::ops::Range<usize>> {
    let len = l.inner.len();
    let pieces = n.min(l.commas.len() + 1).max(1);
    let mut out = Vec::with_capacity(pieces);
    let mut start = l.inner.start;
    let mut k = 0;
    for p in 1..pieces {
        let target = l.inner.start + len * p / pieces;
        while k < l.commas.len() && l.commas[k] < target {
            k += 1;
        }
        if k >= l.commas.len() {
            break;
        }
        if l.commas[k] > start {
            out.push(start..l.commas[k]);
            start = l.commas[k] + 1;
        }
        k += 1;
    }
    out.push(start..l.inner.end);
    out
}

/// One parsed piece of a list.
enum Piece {
    Walls(Vec<WallObject>),
    Triangles(Vec<TriangleObject>),
    Balls(Vec<BallObject>),
    Planes(Vec<PlaneObject>),
    Cylinders(Vec<CylinderObject>),
    Aabbs(Vec<AabbObject>),
    Obbs(Vec<ObbObject>),
    Entities(Vec<EntityObject>),
    Sectors(Vec<SectorObject>),
}

impl Piece {
    fn parse(which: usize, text: &str) -> Option<Piece> {
        fn p<T: DeserializeOwned>(text: &str) -> Option<Vec<T>> {
            ron_options().from_str(text).ok()
        }
        Some(match which {
            0 => Piece::Walls(p(text)?),
            1 => Piece::Triangles(p(text)?),
            2 => Piece::Balls(p(text)?),
            3 => Piece::Planes(p(text)?),
            4 => Piece::Cylinders(p(text)?),
            5 => Piece::Aabbs(p(text)?),
            6 => Piece::Obbs(p(text)?),
            7 => Piece::Entities(p(text)?),
            _ => Piece::Sectors(p(text)?),
        })
    }

    fn append_to(self, level: &mut Level) {
        match self {
            Piece::Walls(v) => level.walls.extend(v),
            Piece::Triangles(v) => level.triangles.extend(v),
            Piece::Balls(v) => level.balls.extend(v),
            Piece::Planes(v) => level.planes.extend(v),
            Piece::Cylinders(v) => level.cylinders.extend(v),
            Piece::Aabbs(v) => level.aabbs.extend(v),
            Piece::Obbs(v) => level.obbs.extend(v),
            Piece::Entities(v) => level.entities.extend(v),
            Piece::Sectors(v) => level.sectors.extend(v),
        }
    }
}

/// Skip white space and line comments from `i`; `None` at a block comment (not handled here).
fn skip_blank(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_whitespace() => i += 1,
            Some(b'/') => match b.get(i + 1) {
                Some(b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => return None,
            },
            _ => return Some(i),
        }
    }
}

/// The end of the string literal starting at `i` (on its opening quote): the index after its closing quote.
fn skip_string(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Find the attributes and the large top-level lists of a level document; `None` for anything unusual.
fn scan(b: &[u8]) -> Option<Layout> {
    let mut i = skip_attributes(b)?;
    let attributes = 0..i;
    // An optional struct name, then the document's parenthesis.
    while i < b.len() && is_ident(b[i]) {
        i += 1;
    }
    i = skip_blank(b, i)?;
    if b.get(i) != Some(&b'(') {
        return None;
    }
    scan_fields(b, i, attributes)
}

/// Where the document starts: after the attributes, `#![...]` blocks before it (and the blanks around them).
fn skip_attributes(b: &[u8]) -> Option<usize> {
    let mut i = skip_blank(b, 0)?;
    while b[i..].starts_with(b"#![") {
        let mut depth = 0usize;
        loop {
            match *b.get(i)? {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                b'"' => {
                    i = skip_string(b, i)?;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        i = skip_blank(b, i)?;
    }
    Some(i)
}

/// The large top-level lists of the document whose parenthesis is at `i` (after the `attributes`); `None` for
/// anything unusual.
fn scan_fields(b: &[u8], mut i: usize, attributes: std::ops::Range<usize>) -> Option<Layout> {
    let mut keys = std::collections::HashSet::new();
    let mut lists = Vec::new();
    let mut depth = 1usize;
    let mut expect_key = true;
    i += 1;
    // Inside a top-level list being cut: (its index in LISTS, where its items start, its commas).
    let mut open: Option<(usize, usize, Vec<usize>)> = None;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                i = skip_string(b, i)?;
                continue;
            }
            b'/' => {
                i = skip_blank(b, i)?;
                continue;
            }
            // Chars and raw strings are not scanned: the ordinary parse reads such a file.
            b'\'' => return None,
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !is_ident(b[i - 1])) =>
            {
                return None;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 1
                    && let Some((which, start, commas)) = open.take()
                    && i - start >= MIN_LIST_BYTES
                {
                    lists.push(List {
                        which,
                        inner: start..i,
                        commas,
                    });
                }
                if depth == 0 {
                    return Some(Layout { attributes, lists });
                }
            }
            b',' => {
                if depth == 1 {
                    expect_key = true;
                } else if depth == 2
                    && let Some((_, _, commas)) = &mut open
                {
                    commas.push(i);
                }
            }
            c if depth == 1 && expect_key && (c.is_ascii_alphabetic() || c == b'_') => {
                let (key, value) = read_key(b, i, &mut keys)?;
                i = value;
                expect_key = false;
                if let Some(which) = LISTS.iter().position(|l| l.as_bytes() == key)
                    && b.get(i) == Some(&b'[')
                {
                    depth += 1;
                    open = Some((which, i + 1, Vec::new()));
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The top-level key at `i` and where its value starts; `None` for a key given twice (the ordinary parse names
/// the error) or without its colon.
fn read_key<'b>(
    b: &'b [u8],
    mut i: usize,
    keys: &mut std::collections::HashSet<&'b [u8]>,
) -> Option<(&'b [u8], usize)> {
    let start = i;
    while i < b.len() && is_ident(b[i]) {
        i += 1;
    }
    let key = &b[start..i];
    if !keys.insert(key) {
        return None;
    }
    i = skip_blank(b, i)?;
    if b.get(i) != Some(&b':') {
        return None;
    }
    Some((key, skip_blank(b, i + 1)?))
}

/// Renders a range of one list's items (see [`render_items`]).
type Render<'a> = dyn Fn(std::ops::Range<usize>) -> Option<String> + Sync + 'a;

/// A list worth writing on several threads: at least this many items.
const MIN_WRITE_ITEMS: usize = 20_000;

/// Write `level` as [`Level::to_ron_string`] does, its large lists rendered on every core: the document is
/// written with each large list cut to its first item, and the rest of each list, rendered in pieces with
/// the same settings one level shallower and indented, goes in after that item's line. `None` (the caller
/// writes it in one piece) when no list is large, there is one core, or the first item's line does not come
/// out exactly as the pieces render it.
pub(super) fn write(level: &Level, config: &ron::ser::PrettyConfig) -> Option<String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_PIECES));
    if threads < 2 {
        return None;
    }
    let mut doc = super::layout::LevelRef::from(level);
    // (name in the file, the items after the first, rendered later)
    let mut rest: Vec<(&str, Box<Render<'_>>, usize)> = Vec::new();
    macro_rules! cut_list {
        ($($name:literal => $field:ident),*) => {$(
            let items = &level.$field[..];
            if items.len() >= MIN_WRITE_ITEMS {
                doc.$field = &items[..1];
                let render = move |r: std::ops::Range<usize>| render_items(&items[r], config);
                rest.push(($name, Box::new(render), items.len()));
            }
        )*};
    }
    cut_list!("walls" => walls, "triangles" => triangles, "balls" => balls, "planes" => planes,
        "cylinders" => cylinders, "aabbs" => aabbs, "obbs" => obbs, "entities" => entities,
        "sectors" => sectors);
    if rest.is_empty() {
        return None;
    }
    let text = ron::ser::to_string_pretty(&doc, config.clone()).ok()?;
    // Render every list's items in pieces, all lists' pieces at once.
    let jobs: Vec<(usize, std::ops::Range<usize>)> = rest
        .iter()
        .enumerate()
        .flat_map(|(k, (_, _, n))| {
            let n = *n;
            (0..threads).map(move |p| (k, n * p / threads..n * (p + 1) / threads))
        })
        .collect();
    let rendered: Vec<Option<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|(k, r)| {
                let render = &rest[*k].1;
                let r = r.clone();
                s.spawn(move || render(r))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    let mut out = String::with_capacity(
        text.len() + rendered.iter().flatten().map(String::len).sum::<usize>(),
    );
    let mut at = 0;
    for (k, (name, _, _)) in rest.iter().enumerate() {
        let key = format!("\n    {name}: [\n");
        let start = at + text[at..].find(&key)? + key.len();
        let first_end = start + text[start..].find('\n')? + 1;
        let pieces: Vec<&Option<String>> = jobs
            .iter()
            .zip(&rendered)
            .filter(|((j, _), _)| *j == k)
            .map(|(_, r)| r)
            .collect();
        let all: Vec<&str> = pieces.iter().map(|p| p.as_deref()).collect::<Option<_>>()?;
        // The first item as the document wrote it must be what the pieces render for it.
        let first_line = all.first()?.split_inclusive('\n').next()?;
        if first_line != &text[start..first_end] {
            return None;
        }
        out.push_str(&text[at..start]);
        for p in all {
            out.push_str(p);
        }
        at = first_end;
    }
    out.push_str(&text[at..]);
    out.push('\n');
    Some(out)
}

/// Items as they stand inside a list of the written document: one per line, eight spaces in, each followed
/// by a comma.
fn render_items<T: serde::Serialize>(
    items: &[T],
    config: &ron::ser::PrettyConfig,
) -> Option<String> {
    if items.is_empty() {
        return Some(String::new());
    }
    let depth = config.depth_limit.checked_sub(1)?;
    let shallower = config.clone().depth_limit(depth);
    let text = ron::ser::to_string_pretty(items, shallower).ok()?;
    // Skip the extension header the serializer writes first, then the list's brackets.
    let body = text.rsplit_once("[\n")?.1.strip_suffix(']')?;
    let mut out = String::with_capacity(body.len() + body.len() / 8);
    for line in body.split_inclusive('\n') {
        out.push_str("    ");
        out.push_str(line);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::layout::LevelV2;

    fn big_level() -> String {
        let mut l = crate::generate::maze(&crate::generate::MazeParams {
            walls: 20_000,
            balls: 3_000,
            ..crate::generate::MazeParams::default()
        });
        l.entity_types = vec![crate::level::EntityType {
            name: "spawn".into(),
            color: None,
            min_count: None,
            max_count: None,
            must_reach: false,
            fields: Vec::new(),
        }];
        for i in 0..3000 {
            l.entities.push(EntityObject {
                id: crate::level::ObjectId(900_000 + i),
                name: Some(format!("e, \"{i}\" (with brackets] and commas,)")),
                entity_type: "spawn".into(),
                position: glam::Vec3::new(i as f32, 0.0, 0.0),
                yaw_deg: 0.0,
                fields: Default::default(),
                properties: Default::default(),
            });
        }
        l.to_ron_string()
    }

    #[test]
    fn pieces_join_into_the_level_one_parse_gives() {
        let text = big_level();
        assert!(text.len() >= MIN_BYTES);
        let whole: Level = ron_options().from_str::<LevelV2>(&text).unwrap().into();
        let layout = scan(text.as_bytes()).unwrap();
        assert!(layout.lists.len() >= 2, "walls and balls are cut");
        let fast = parse::<LevelV2>(&text).unwrap();
        assert_eq!(fast, whole);
        // Cut points fall between items whatever the piece count.
        for l in &layout.lists {
            for n in 1..=9 {
                let ranges = cut(l, n);
                assert_eq!(ranges.first().unwrap().start, l.inner.start);
                assert_eq!(ranges.last().unwrap().end, l.inner.end);
                for w in ranges.windows(2) {
                    assert_eq!(&text[w[0].end..w[1].start], ",");
                }
            }
        }
    }

    #[test]
    fn anything_unusual_is_left_to_the_ordinary_parse() {
        let text = big_level();
        let cases = [
            // A key given twice.
            text.replacen("walls: [", "walls: [], walls: [", 1),
            // A block comment, a char, a raw string.
            text.replacen("walls: [", "/* c */ walls: [", 1),
            text.replacen("name: \"", "name: r\"", 1),
            // A broken item in the middle of the walls.
            {
                let mid = text.len() / 3;
                let at = mid + text[mid..].find("radius: ").unwrap();
                format!("{}radius: \"x\"{}", &text[..at], &text[at + 8..])
            },
            // Unbalanced.
            text[..text.len() - 2].to_owned(),
        ];
        for (k, t) in cases.iter().enumerate() {
            assert!(parse::<LevelV2>(t).is_none(), "case {k}");
        }
    }

    #[test]
    fn an_error_in_a_large_file_keeps_its_position_and_path() {
        let text = big_level();
        let mid = text.len() / 3;
        let at = mid + text[mid..].find("radius: ").unwrap();
        let broken = format!("{}radius: \"x\"{}", &text[..at], &text[at + 8..]);
        let line = text[..at].matches('\n').count() + 1;
        match Level::from_ron_str(&broken) {
            Err(crate::level::LevelError::Parse { line: l, field, .. }) => {
                assert_eq!(l, line);
                assert!(
                    field.starts_with("walls[") && field.ends_with("].radius"),
                    "{field}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// The level written in one piece (what `to_ron_string` does without threads).
    fn one_piece(l: &Level) -> String {
        let mut s = ron::ser::to_string_pretty(
            &crate::level::layout::LevelRef::from(l),
            super::super::pretty_config(),
        )
        .unwrap();
        s.push('\n');
        s
    }

    #[test]
    fn written_in_pieces_is_byte_for_byte_written_in_one() {
        let mut l = Level::from_ron_str(&big_level()).unwrap();
        // Above the threshold in walls, balls and entities; names with quotes, brackets, commas, newlines.
        assert!(l.walls.len() >= MIN_WRITE_ITEMS);
        while l.balls.len() < MIN_WRITE_ITEMS {
            let mut b = l.balls[l.balls.len() % 7].clone();
            b.id = crate::level::ObjectId(2_000_000 + l.balls.len() as u32);
            b.name = Some("line\nbreak [x], (y)".into());
            l.balls.push(b);
        }
        while l.entities.len() < MIN_WRITE_ITEMS {
            let mut e = l.entities[0].clone();
            e.id = crate::level::ObjectId(3_000_000 + l.entities.len() as u32);
            e.yaw_deg = l.entities.len() as f32 * 0.37;
            l.entities.push(e);
        }
        let fast = write(&l, &super::super::pretty_config()).expect("written in pieces");
        assert_eq!(fast, one_piece(&l));
        assert_eq!(l.to_ron_string(), fast);
        assert_eq!(Level::from_ron_str(&fast).unwrap(), l);
        // Small levels are written in one piece.
        let small = Level::from_ron_str(include_str!("../../levels/courtyard.ron")).unwrap();
        assert!(write(&small, &super::super::pretty_config()).is_none());
        assert_eq!(small.to_ron_string(), one_piece(&small));
    }
}
