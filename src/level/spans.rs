//! Where a field path (`walls[3].radius`, `entities[0].fields.team`, `simulation.dt`) is in a level's RON
//! text: a light scanner that skips values without parsing them (strings, comments and nesting aware), used
//! only when validation has found problems, so reading a clean level costs nothing.

/// The level's source text, kept by [`super::Level::from_ron_str`] so problems can be given a line and column.
/// It is metadata, not content: two levels compare equal whatever their sources.
#[derive(Clone, Default)]
pub struct Source(pub(super) Option<std::sync::Arc<str>>);

impl PartialEq for Source {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The same for every level, so Debug output compares contents only (as PartialEq does).
        f.write_str("Source(..)")
    }
}

impl Source {
    /// No source (a level built in code, or edited past recognition).
    #[must_use]
    pub fn none() -> Self {
        Self(None)
    }

    /// Whether the level came from text.
    #[must_use]
    pub fn is_some(&self) -> bool {
        self.0.is_some()
    }
}

struct Scan<'a> {
    b: &'a [u8],
}

impl Scan<'_> {
    /// Skip blanks and comments from `i`.
    fn ws(&self, mut i: usize) -> usize {
        let b = self.b;
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'/') {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            } else if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'*') {
                let mut depth = 1;
                i += 2;
                while i < b.len() && depth > 0 {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
            } else if b.get(i) == Some(&b'#') {
                // `#![enable(...)]` attributes before the value.
                while i < b.len() && b[i] != b']' {
                    i += 1;
                }
                i += 1;
            } else {
                return i;
            }
        }
    }

    /// The end of the string starting at `i` (a quote, or `r#"` raw string).
    fn string_end(&self, mut i: usize) -> usize {
        let b = self.b;
        if b[i] == b'r' {
            let mut hashes = 0;
            i += 1;
            while b.get(i) == Some(&b'#') {
                hashes += 1;
                i += 1;
            }
            i += 1; // the opening quote
            while i < b.len() {
                if b[i] == b'"'
                    && b[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&c| c == b'#')
                        .count()
                        == hashes
                {
                    return i + 1 + hashes;
                }
                i += 1;
            }
            return i;
        }
        let quote = b[i];
        i += 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                c if c == quote => return i + 1,
                _ => i += 1,
            }
        }
        i
    }

    /// The end of the value starting at `i` (anything up to the next `,` or closing bracket at this depth).
    fn value_end(&self, mut i: usize) -> usize {
        let b = self.b;
        let mut depth = 0usize;
        while i < b.len() {
            i = self.ws(i);
            let Some(&c) = b.get(i) else { break };
            match c {
                b'"' | b'\'' => i = self.string_end(i),
                b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) => i = self.string_end(i),
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    i += 1;
                }
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return i;
                    }
                    depth -= 1;
                    i += 1;
                }
                b',' if depth == 0 => return i,
                _ => i += 1,
            }
        }
        i
    }

    /// Inside a value at `i`: past an enum or struct name and into its brackets, as deep as `(` repeats
    /// (`Aabb((min: ..))` or `Some((..))`). Returns the position just inside, and the bracket.
    fn enter(&self, mut i: usize) -> Option<(usize, u8)> {
        let b = self.b;
        i = self.ws(i);
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            i += 1;
        }
        i = self.ws(i);
        let open = *b.get(i)?;
        if !matches!(open, b'(' | b'[' | b'{') {
            return None;
        }
        let inner = self.ws(i + 1);
        if open == b'(' && b.get(inner) == Some(&b'(') {
            return self.enter(inner);
        }
        Some((i + 1, open))
    }

    /// The `n`-th element of the list whose contents start at `i`.
    fn element(&self, mut i: usize, n: usize) -> Option<usize> {
        for _ in 0..n {
            i = self.value_end(self.ws(i));
            if self.b.get(i) != Some(&b',') {
                return None;
            }
            i += 1;
        }
        i = self.ws(i);
        (!matches!(self.b.get(i), Some(b')' | b']' | b'}') | None)).then_some(i)
    }

    /// The field `name` (`name:` in a struct, `"name":` in a map) among the entries starting at `i`:
    /// the position of its name and of its value.
    fn field(&self, mut i: usize, name: &str) -> Option<(usize, usize)> {
        let b = self.b;
        loop {
            i = self.ws(i);
            let start = i;
            let key_end = match b.get(i)? {
                b'"' => self.string_end(i),
                c if c.is_ascii_alphabetic() || *c == b'_' => {
                    let mut j = i;
                    while b
                        .get(j)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                    {
                        j += 1;
                    }
                    j
                }
                _ => return None,
            };
            let key = std::str::from_utf8(&b[start..key_end])
                .ok()?
                .trim_matches('"');
            let colon = self.ws(key_end);
            if b.get(colon) != Some(&b':') {
                return None;
            }
            let value = self.ws(colon + 1);
            if key == name {
                return Some((start, value));
            }
            i = self.value_end(value);
            if b.get(i) != Some(&b',') {
                return None;
            }
            i += 1;
        }
    }
}

/// One step of a field path.
enum Step<'p> {
    Field(&'p str),
    Index(usize),
}

fn steps(path: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (name, rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
        if !name.is_empty() {
            out.push(Step::Field(name));
        }
        for idx in rest.split('[') {
            if let Ok(n) = idx.trim_end_matches(']').parse() {
                out.push(Step::Index(n));
            }
        }
    }
    out
}

/// 1-based line and column of byte `at`.
fn line_col(text: &str, at: usize) -> (u32, u32) {
    let before = &text.as_bytes()[..at.min(text.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line as u32, col as u32)
}

/// A 1-based (line, column).
pub(super) type LineCol = (u32, u32);
/// A byte range of the text.
pub(super) type Range = (usize, usize);

/// Where the deepest existing part of `path` is in `text`, and the byte range of the list element the path
/// starts with (`walls[3]`), if any, so the caller can check it is still the same object.
pub(super) fn locate(text: &str, path: &str) -> Option<(LineCol, Option<Range>)> {
    let scan = Scan { b: text.as_bytes() };
    let (mut inside, _) = scan.enter(scan.ws(0))?;
    let mut found: Option<usize> = None;
    let mut element: Option<Range> = None;
    let mut value_at: Option<usize> = None;
    for (k, step) in steps(path).into_iter().enumerate() {
        if let Some(v) = value_at {
            inside = match scan.enter(v) {
                Some((i, _)) => i,
                None => break,
            };
        }
        match step {
            Step::Field(name) => {
                let Some((name_at, v)) = scan.field(inside, name) else {
                    break;
                };
                found = Some(name_at);
                value_at = Some(v);
            }
            Step::Index(n) => {
                let Some(at) = scan.element(inside, n) else {
                    break;
                };
                if k == 1 {
                    element = Some((at, scan.value_end(at)));
                }
                found = Some(at);
                value_at = Some(at);
            }
        }
    }
    found.map(|at| (line_col(text, at), element))
}

/// Whether the object written at `range` of `text` has this id (`id: N` among its first fields).
pub(super) fn element_has_id(text: &str, range: (usize, usize), id: u32) -> bool {
    let scan = Scan { b: text.as_bytes() };
    let Some((inside, _)) = scan.enter(range.0) else {
        return false;
    };
    match scan.field(inside, "id") {
        Some((_, v)) => {
            let end = scan.value_end(v);
            text[v..end].trim().parse::<u32>() == Ok(id)
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#![enable(implicit_some)]
(
    version: 2, // a comment with walls: [
    name: \"a (tricky) name, with: colons\",
    walls: [
        (id: 1, a: (0.0, 0.0), b: (1.0, 0.0), radius: 0.5),
        (id: 2, a: (0.0, 0.0), b: (1.0, 0.0), radius: -1.0),
    ],
    simulation: (gravity: (0.0, -9.81, 0.0), dt: 0.0),
    entities: [(id: 5, entity_type: \"spawn\", position: (0.0, 0.0, 0.0), fields: {\"team\": Enum(\"green\")})],
    triggers: [(id: 6, shape: Aabb((min: (1.0, 0.0, 0.0), max: (0.0, 1.0, 1.0))))],
)
";

    #[test]
    fn paths_are_found_at_their_field() {
        let at = |p: &str| locate(TEXT, p).map(|(lc, _)| lc);
        assert_eq!(at("walls[1].radius"), Some((7, 47)));
        assert_eq!(at("walls[1]"), Some((7, 9)));
        assert_eq!(at("simulation.dt"), Some((9, 46)));
        assert_eq!(at("entities[0].fields.team"), Some((10, 82)));
        assert_eq!(at("triggers[0].shape.min"), Some((11, 37)));
        assert_eq!(at("name"), Some((4, 5)));
        // A path that goes further than the text: its deepest existing part.
        assert_eq!(at("walls[1].nothing"), Some((7, 9)));
        assert_eq!(at("walls[9]"), Some((5, 5)));
        let (_, el) = locate(TEXT, "walls[1].radius").unwrap();
        assert!(element_has_id(TEXT, el.unwrap(), 2));
        assert!(!element_has_id(TEXT, el.unwrap(), 1));
    }
}
