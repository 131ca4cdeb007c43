//! Mutation test of the level loader: 100,000 random byte and token mutations of the four small sample levels
//! (seeded SplitMix64, so every run is the same) go through `Level::from_ron_str`, and every level that still
//! parses through `validate`, `bounds` and a canonical round trip. Nothing may panic, every parse error must
//! carry a position inside the text, and the whole run must stay bounded in time (the slowest single case is
//! printed; run with `--nocapture` to see it).
//!
//! Mutations (1 to 4 per case): flip a byte to a random byte, overwrite a byte with an ASCII character, delete
//! a span, duplicate a span, swap two tokens, delete a token, and insert a token from a dictionary of awkward
//! inputs (`(`, `[`, `,`, `NaN`, `inf`, huge and negative numbers, long strings, other versions, comments,
//! raw strings, extension attributes, deep nesting...). Byte mutations that break UTF-8 are repaired with
//! `String::from_utf8_lossy`, because `from_ron_str` takes `&str` (the loader's UTF-8 check is covered by the
//! bad-level corpus).
#![allow(clippy::unwrap_used)]

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use collidoscope::level::{Level, LevelError};

const CASES: usize = 100_000;
/// Upper bound on the whole run in the test profile.
const TOTAL_LIMIT: Duration = Duration::from_secs(60);
/// Upper bound on one case (a parse of a ~2 KB text, plus validation and a round trip).
const CASE_LIMIT: Duration = Duration::from_millis(500);

const SAMPLES: [&str; 5] = [
    "house",
    "triangle_walk",
    "magic_room",
    "cookbook_gallery",
    "courtyard",
];

struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Token boundaries: runs of identifier/number characters, runs of blanks, and single other characters.
fn tokens(bytes: &[u8]) -> Vec<(usize, usize)> {
    let class = |b: u8| {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-' || b == b'+' {
            0
        } else if b.is_ascii_whitespace() {
            1
        } else {
            2
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = class(bytes[i]);
        let mut j = i + 1;
        if c != 2 {
            while j < bytes.len() && class(bytes[j]) == c {
                j += 1;
            }
        }
        out.push((i, j));
        i = j;
    }
    out
}

fn dictionary() -> Vec<Vec<u8>> {
    let mut d: Vec<Vec<u8>> = [
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        "\"",
        "'",
        "NaN",
        "inf",
        "-inf",
        "+inf",
        "-NaN",
        "1e39",
        "-1e39",
        "1e999",
        "-1e-999",
        "3.4028236e38",
        "1e-46",
        "-0.0",
        "0x10",
        "0b101",
        "1_000",
        "99999999999999999999999999999999",
        "4294967295",
        "4294967296",
        "-1",
        "-9223372036854775809",
        "18446744073709551616",
        "0.",
        ".5",
        "1.2.3",
        "--1",
        "true",
        "None",
        "Some(",
        "Some(1.0)",
        "()",
        "version: 0,",
        "version: 1,",
        "version: 2,",
        "version: 4294967296,",
        "version: NaN,",
        "walls: [],",
        "balls: [(id: 1)],",
        "id: 0,",
        "name: \"x\",",
        "#![enable(implicit_some)]",
        "#![enable(unwrap_newtypes)]",
        "#![enable(unwrap_variant_newtypes)]",
        "#![enable(nonsense)]",
        "#!",
        "/*",
        "*/",
        "//",
        "// comment\n",
        "/* nested /* comment */ */",
        "r#\"raw\"#",
        "r#\"",
        "b\"bytes\"",
        "'c'",
        "'\\u{1F680}'",
        "\"\\u{110000}\"",
        "\"\\x\"",
        "\\",
        "\u{0}",
        "é",
        "🚀",
        "\u{FEFF}",
        "\r\n",
        "\t",
        "MetresYUp",
        "Feet",
        "Level",
        "Level(",
        "WallObject(",
        "struct",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    d.push(format!("\"{}\"", "a".repeat(10_000)).into_bytes());
    d.push(format!("\"{}\"", "\\n".repeat(2_000)).into_bytes());
    d.push("9".repeat(5_000).into_bytes());
    d.push(format!("0.{}1", "0".repeat(5_000)).into_bytes());
    d.push("[".repeat(200).into_bytes());
    d.push("(".repeat(200).into_bytes());
    d.push(format!("{}{}", "[".repeat(100), "]".repeat(100)).into_bytes());
    d.push("(0.0, 0.0, 0.0), ".repeat(500).into_bytes());
    d
}

fn mutate(rng: &mut SplitMix64, text: &mut Vec<u8>, dict: &[Vec<u8>]) {
    if text.is_empty() {
        text.extend_from_slice(&dict[rng.below(dict.len())]);
        return;
    }
    let len = text.len();
    let span = |rng: &mut SplitMix64| {
        let a = rng.below(len);
        let max = if rng.below(4) == 0 { 400 } else { 12 };
        let n = 1 + rng.below((len - a).min(max));
        (a, a + n)
    };
    match rng.below(8) {
        0 => {
            let i = rng.below(len);
            text[i] = rng.next_u64() as u8;
        }
        1 => {
            let i = rng.below(len);
            const ASCII: &[u8] = b" ()[],:.-+0123456789eEaNn\"'/#!_\n";
            text[i] = ASCII[rng.below(ASCII.len())];
        }
        2 => {
            let (a, b) = span(rng);
            text.drain(a..b);
        }
        3 => {
            let (a, b) = span(rng);
            let copy = text[a..b].to_vec();
            let at = rng.below(len + 1);
            text.splice(at..at, copy);
        }
        4 => {
            // Swap two tokens.
            let toks = tokens(text);
            let (x, y) = (toks[rng.below(toks.len())], toks[rng.below(toks.len())]);
            let (first, second) = if x.0 <= y.0 { (x, y) } else { (y, x) };
            if first.1 <= second.0 {
                let mut out = Vec::with_capacity(len);
                out.extend_from_slice(&text[..first.0]);
                out.extend_from_slice(&text[second.0..second.1]);
                out.extend_from_slice(&text[first.1..second.0]);
                out.extend_from_slice(&text[first.0..first.1]);
                out.extend_from_slice(&text[second.1..]);
                *text = out;
            }
        }
        5 => {
            // Delete a token.
            let toks = tokens(text);
            let (a, b) = toks[rng.below(toks.len())];
            text.drain(a..b);
        }
        6 => {
            // Replace a token with a dictionary entry.
            let toks = tokens(text);
            let (a, b) = toks[rng.below(toks.len())];
            text.splice(a..b, dict[rng.below(dict.len())].iter().copied());
        }
        _ => {
            // Insert a dictionary entry at a token boundary (or anywhere, one time in four).
            let at = if rng.below(4) == 0 {
                rng.below(len + 1)
            } else {
                let toks = tokens(text);
                toks[rng.below(toks.len())].0
            };
            text.splice(at..at, dict[rng.below(dict.len())].iter().copied());
        }
    }
}

/// Everything the loader does with one text; returns a description of a broken invariant, if any.
fn exercise(text: &str) -> Result<bool, String> {
    match Level::from_ron_str(text) {
        Ok(level) => {
            let _ = level.validate();
            let _ = level.is_valid();
            let _ = level.bounds();
            let _ = level.next_id();
            // Whatever parsed must serialise to canonical text that parses back to the same canonical text
            // (compared as text, since NaN != NaN).
            let canonical = level.to_ron_string();
            let again = Level::from_ron_str(&canonical)
                .map_err(|e| format!("canonical text does not parse: {e}\n{canonical}"))?;
            if again.to_ron_string() != canonical {
                return Err(format!("canonical text is not stable:\n{canonical}"));
            }
            Ok(true)
        }
        Err(LevelError::Parse {
            file,
            line,
            col,
            ref message,
            ..
        }) => {
            let lines = text.split('\n').count();
            if file.is_some() || line == 0 || col == 0 || line > lines || message.is_empty() {
                return Err(format!(
                    "bad parse error position {line}:{col} (text has {lines} lines) or message {message:?}"
                ));
            }
            Ok(false)
        }
        Err(LevelError::TooLarge { .. }) => Ok(false),
        Err(e) => Err(format!("unexpected error kind from from_ron_str: {e:?}")),
    }
}

#[test]
fn one_hundred_thousand_mutations() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels");
    let originals: Vec<Vec<u8>> = SAMPLES
        .iter()
        .map(|n| std::fs::read(root.join(format!("{n}.ron"))).unwrap())
        .collect();
    let dict = dictionary();
    let mut rng = SplitMix64(0x00C0_111D_05C0_9E03);
    let start = Instant::now();
    let mut slowest = (Duration::ZERO, 0usize, String::new());
    let (mut parsed, mut failed) = (0usize, 0usize);
    let mut broken = Vec::new();
    for case in 0..CASES {
        let mut bytes = originals[case % originals.len()].clone();
        for _ in 0..=rng.below(4) {
            mutate(&mut rng, &mut bytes, &dict);
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let t0 = Instant::now();
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| exercise(&text)));
        let took = t0.elapsed();
        if took > slowest.0 {
            slowest = (took, case, text.clone());
        }
        match outcome {
            Ok(Ok(true)) => parsed += 1,
            Ok(Ok(false)) => failed += 1,
            Ok(Err(why)) => broken.push(format!("case {case}: {why}\n--- input ---\n{text}\n---")),
            Err(_) => {
                let dump = std::env::temp_dir().join(format!("level_mutation_panic_{case}.ron"));
                let _ = std::fs::write(&dump, &text);
                broken.push(format!(
                    "case {case}: PANIC (input written to {})",
                    dump.display()
                ));
            }
        }
        if broken.len() >= 5 {
            break;
        }
    }
    let total = start.elapsed();
    println!(
        "{CASES} mutations in {total:?}: {parsed} still parse, {failed} refused; slowest case #{} took {:?} \
         ({} bytes)",
        slowest.1,
        slowest.0,
        slowest.2.len()
    );
    assert!(broken.is_empty(), "{}", broken.join("\n\n"));
    assert!(
        parsed > CASES / 50 && failed > CASES / 2,
        "mutations too weak or too strong: {parsed} parse, {failed} refused"
    );
    assert!(
        slowest.0 < CASE_LIMIT,
        "case #{} took {:?}:\n{}",
        slowest.1,
        slowest.0,
        slowest.2
    );
    assert!(total < TOTAL_LIMIT, "the run took {total:?}");
}
