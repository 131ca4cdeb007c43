//! The light scan that finds a level's `version: N` before the full parse (comments, strings and nesting
//! skipped, no allocation), so the reader knows which layout to parse.

/// Find `version: N` among the top-level struct's fields with a light scan (comments, strings and nesting
/// skipped, no allocation): `(N, line, column)` of the `version` key, columns in characters. `None` when there
/// is no such field at the top level or its value is not a plain integer.
pub(super) fn peek_version(text: &str) -> Option<(u64, usize, usize)> {
    let mut s = Scan {
        b: text.as_bytes(),
        i: 0,
        line: 1,
        line_start: 0,
    };
    let mut depth = 0i64;
    while s.i < s.b.len() {
        let before = s.i;
        s.skip_trivia();
        if s.i != before {
            continue;
        }
        let c = s.b[s.i];
        match c {
            b'"' => s.skip_string(),
            b'r' if matches!(s.b.get(s.i + 1), Some(b'#' | b'"'))
                && (s.i == 0 || !is_ident(s.b[s.i - 1])) =>
            {
                s.skip_raw_string();
            }
            b'\'' => {
                // A char literal: 'x' or '\x'.
                s.i += if s.b.get(s.i + 1) == Some(&b'\\') {
                    4
                } else {
                    3
                };
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                s.i += 1;
            }
            b')' | b']' | b'}' => {
                depth -= 1;
                s.i += 1;
            }
            c if is_ident(c) => {
                let start = s.i;
                while s.i < s.b.len() && is_ident(s.b[s.i]) {
                    s.i += 1;
                }
                if depth == 1
                    && &s.b[start..s.i] == b"version"
                    && (start == 0 || !is_ident(s.b[start - 1]))
                {
                    let col = text
                        .get(s.line_start..start)
                        .map_or(start - s.line_start, |t| t.chars().count())
                        + 1;
                    let key_line = s.line;
                    match s.version_value(text) {
                        VersionValue::NotAField => continue,
                        VersionValue::Bad => return None,
                        VersionValue::Number(v) => return Some((v, key_line, col)),
                    }
                }
            }
            _ => s.i += 1,
        }
    }
    None
}

/// A byte of an identifier.
fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// What follows a `version` key.
enum VersionValue {
    /// No `:`: not a field.
    NotAField,
    /// A value that is not a plain integer.
    Bad,
    /// The version.
    Number(u64),
}

/// The light scanner of [`peek_version`]: a position and its line.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    line_start: usize,
}

impl Scan<'_> {
    /// Count a newline at `at`.
    fn newline(&mut self, at: usize) {
        self.line += 1;
        self.line_start = at + 1;
    }

    /// Skip whitespace and comments (RON block comments nest).
    fn skip_trivia(&mut self) {
        let b = self.b;
        loop {
            match (b.get(self.i), b.get(self.i + 1)) {
                (Some(b'\n'), _) => {
                    self.newline(self.i);
                    self.i += 1;
                }
                (Some(c), _) if c.is_ascii_whitespace() => self.i += 1,
                (Some(b'/'), Some(b'/')) => {
                    while self.i < b.len() && b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => self.skip_block_comment(),
                _ => return,
            }
        }
    }

    /// Skip a block comment, nested ones included.
    fn skip_block_comment(&mut self) {
        let b = self.b;
        let mut nest = 0usize;
        while self.i < b.len() {
            if b[self.i] == b'/' && b.get(self.i + 1) == Some(&b'*') {
                nest += 1;
                self.i += 2;
            } else if b[self.i] == b'*' && b.get(self.i + 1) == Some(&b'/') {
                nest -= 1;
                self.i += 2;
                if nest == 0 {
                    break;
                }
            } else {
                if b[self.i] == b'\n' {
                    self.newline(self.i);
                }
                self.i += 1;
            }
        }
    }

    /// Skip a quoted string (escapes included).
    fn skip_string(&mut self) {
        let b = self.b;
        self.i += 1;
        while self.i < b.len() && b[self.i] != b'"' {
            if b[self.i] == b'\\' {
                self.i += 1;
            } else if b[self.i] == b'\n' {
                self.newline(self.i);
            }
            self.i += 1;
        }
        self.i += 1;
    }

    /// Skip a raw string `r#"…"#`: to the closing quote followed by as many hashes.
    fn skip_raw_string(&mut self) {
        let b = self.b;
        let mut j = self.i + 1;
        let mut hashes = 0;
        while b.get(j) == Some(&b'#') {
            hashes += 1;
            j += 1;
        }
        if b.get(j) != Some(&b'"') {
            self.i += 1;
            return;
        }
        j += 1;
        while j < b.len() {
            if b[j] == b'"'
                && b[j + 1..]
                    .iter()
                    .take(hashes)
                    .filter(|&&h| h == b'#')
                    .count()
                    == hashes
            {
                j += 1 + hashes;
                break;
            }
            if b[j] == b'\n' {
                self.newline(j);
            }
            j += 1;
        }
        self.i = j;
    }

    /// After a `version` key: its `: N`.
    fn version_value(&mut self, text: &str) -> VersionValue {
        let b = self.b;
        let saved = (self.i, self.line, self.line_start);
        self.skip_trivia();
        let mut j = self.i;
        if b.get(j) != Some(&b':') {
            // Not a field: the scan goes on from the key (the trivia after it is counted once, there).
            (self.i, self.line, self.line_start) = saved;
            return VersionValue::NotAField;
        }
        self.i = j + 1;
        self.skip_trivia();
        j = self.i;
        let digits_start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == digits_start || b.get(j).is_some_and(|&c| is_ident(c) || c == b'.') {
            return VersionValue::Bad;
        }
        match text.get(digits_start..j).and_then(|d| d.parse().ok()) {
            Some(v) => VersionValue::Number(v),
            None => VersionValue::Bad,
        }
    }
}
