//! Feedback a student can act on: a submission's faults grouped by class,
//! with the cause the fixtures share where they show one (all on boards of
//! an even side, all with lines over 1,024 bytes, all past 2^31 inversions,
//! all on large boards), each group's smallest fixture with the expected
//! output, what the program did, and for a wrong verdict the parity rule at
//! work (`./puzzle --explain`); format differences after; what does not
//! count labelled so. Written as Markdown.

use super::fixture::Fixture;
use super::judge::{Class, Judgement};
use super::marks::{points, Visibility};
use super::text::lines;
use puzzle::input::read_puzzle;
use std::fmt::Write as _;

/// How many lines of a list of differences or messages the feedback shows.
const SHOWN: usize = 10;

/// What a fixture's bytes show about it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// The side of its start board, when its first line is a square of tokens.
    pub side: Option<usize>,
    /// Its longest line, in bytes.
    pub longest_line: usize,
    /// The inversions of its start board, when it is a valid puzzle.
    pub inversions: Option<u64>,
}

impl Shape {
    /// The shape of `bytes`.
    pub fn of(bytes: &[u8]) -> Shape {
        let all = lines(bytes);
        let longest_line = all.iter().map(|l| l.len()).max().unwrap_or(0);
        let first = all.iter().find(|l| super::text::has_text(l));
        let side = first.and_then(|l| {
            let tokens = l
                .split(|b| matches!(b, b' ' | b'\t' | b'\r'))
                .filter(|t| !t.is_empty())
                .count();
            let side = (tokens as f64).sqrt().round() as usize;
            (side >= 2 && side * side == tokens).then_some(side)
        });
        let inversions = read_puzzle(bytes)
            .ok()
            .map(|p| puzzle::board_adt::Disorder::of(p.start(), 0).tile_sum());
        Shape {
            side,
            longest_line,
            inversions,
        }
    }
}

/// The cause a group of fixtures of one class shares, in words, if any: a
/// wrong verdict on boards past 2^31 inversions (one is enough: only such
/// boards show it); with two fixtures or more, a wrong verdict on boards of
/// an even side only, a fault on lines over 1, 4 or 64 KiB only, timeouts on
/// boards of 100x100 or more only.
pub fn shared_cause(class: Class, shapes: &[Shape]) -> Option<String> {
    if shapes.is_empty() {
        return None;
    }
    let all = |test: &dyn Fn(&Shape) -> bool| shapes.iter().all(test);
    if class == Class::WrongVerdict && all(&|s| s.inversions.is_some_and(|i| i >= 1 << 31)) {
        return Some(
            "all have 2^31 inversions or more: a 32-bit counter overflows there (count in a \
             64-bit or unsigned type, or keep only the parity)"
                .into(),
        );
    }
    if shapes.len() < 2 {
        return None;
    }
    if class == Class::WrongVerdict && all(&|s| s.side.is_some_and(|n| n % 2 == 0)) {
        return Some(
            "all are boards of an even side: there the blank's row counts too (the \
             tutorial's rule: disorder plus the blank's row, for both boards)"
                .into(),
        );
    }
    let shortest_longest = shapes.iter().map(|s| s.longest_line).min().unwrap_or(0);
    let line_faults = [
        Class::WrongVerdict,
        Class::MissedError,
        Class::FalseError,
        Class::Crash,
    ];
    if line_faults.contains(&class) {
        if let Some(limit) = [65536, 4096, 1024]
            .into_iter()
            .find(|&l| shortest_longest > l)
        {
            return Some(format!(
                "all have lines over {} bytes: a fixed-size line buffer cuts them (read \
                 token by token, or grow the buffer)",
                group_digits(limit)
            ));
        }
    }
    if class == Class::Timeout {
        let least = shapes.iter().map(|s| s.side.unwrap_or(0)).min();
        if let Some(side) = least.filter(|&n| n >= 100) {
            return Some(format!(
                "all are boards of {side}x{side} or larger: count the inversions in \
                 O(n log n) (merge sort, or a Fenwick tree), not pair by pair"
            ));
        }
    }
    None
}

fn group_digits(n: usize) -> String {
    let text = n.to_string();
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Up to `n` lines of `text`, each cut at 100 characters, indented as code.
fn excerpt(text: &[u8], n: usize) -> String {
    let mut out = String::new();
    let all = lines(text);
    for line in all.iter().take(n) {
        let shown = super::text::shown(&line[..line.len().min(100)]);
        let _ = writeln!(
            out,
            "    {shown}{}",
            if line.len() > 100 { "..." } else { "" }
        );
    }
    if all.len() > n {
        let _ = writeln!(out, "    ...");
    }
    if all.is_empty() {
        out.push_str("    (nothing)\n");
    }
    out
}

/// The feedback file of a graded submission: `fixtures` with `judgements`
/// and each fixture's `(points, max)`; `visibility` hides what the marker
/// keeps back; `bytes` reads a fixture.
pub fn feedback(
    name: &str,
    fixtures: &[Fixture],
    judgements: &[&Judgement],
    score: Option<(f64, f64)>,
    visibility: &dyn Fn(&Fixture) -> Visibility,
    bytes: &dyn Fn(&Fixture) -> Vec<u8>,
) -> String {
    let mut out = format!("# Feedback for {name}\n\n");
    if let Some((total, max)) = score {
        let _ = writeln!(out, "Score: **{} of {}**.\n", points(total), points(max));
    }
    let shown = |f: &Fixture| visibility(f) == Visibility::Visible;
    let mut any_fault = false;
    for class in Class::ALL {
        if matches!(class, Class::Format | Class::Open) {
            continue;
        }
        let group: Vec<usize> = (0..fixtures.len())
            .filter(|&i| matches!(judgements[i], Judgement::Noted(c, _) if *c == class))
            .collect();
        if group.is_empty() {
            continue;
        }
        if !any_fault {
            out.push_str("## Faults (each costs marks)\n\n");
            any_fault = true;
        }
        let _ = writeln!(
            out,
            "### {} on {} fixture{}\n",
            class.name(),
            group.len(),
            if group.len() == 1 { "" } else { "s" }
        );
        let shapes: Vec<Shape> = group
            .iter()
            .map(|&i| Shape::of(&bytes(&fixtures[i])))
            .collect();
        if let Some(cause) = shared_cause(class, &shapes) {
            let _ = writeln!(out, "Likely cause: {cause}.\n");
        }
        let visible: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&i| shown(&fixtures[i]))
            .collect();
        let hidden = group.len() - visible.len();
        if let Some(&smallest) = visible.iter().min_by_key(|&&i| fixtures[i].size) {
            let f = &fixtures[smallest];
            let _ = writeln!(out, "The smallest: `{}` ({} bytes).\n", f.shown, f.size);
            let input = bytes(f);
            let _ = writeln!(out, "Its input:\n\n{}", excerpt(&input, 4));
            let _ = writeln!(
                out,
                "Expected (the reference's output):\n\n{}",
                excerpt(&f.expected, 3)
            );
            if let Judgement::Noted(_, text) = judgements[smallest] {
                let _ = writeln!(out, "What your program did: {text}\n");
            }
            if class == Class::WrongVerdict {
                if let Ok(puzzle) = read_puzzle(&input[..]) {
                    let mut why = Vec::new();
                    if puzzle::write_explanation(&mut why, &puzzle).is_ok() {
                        let _ = writeln!(
                            out,
                            "Why (`./puzzle --explain`: the parity rule at work):\n\n{}",
                            excerpt(&why, 20)
                        );
                    }
                }
            }
            let others: Vec<&str> = visible
                .iter()
                .filter(|&&i| i != smallest)
                .map(|&i| fixtures[i].shown.as_str())
                .collect();
            if !others.is_empty() {
                let _ = writeln!(out, "Also: {}.\n", others.join(", "));
            }
        }
        if hidden > 0 {
            let _ = writeln!(
                out,
                "And {hidden} hidden fixture{}.\n",
                if hidden == 1 { "" } else { "s" }
            );
        }
    }
    if !any_fault {
        out.push_str(
            "## Faults\n\nNone: every fixture got the answer the assignment asks for.\n\n",
        );
    }
    let mut section = |title: &str, class: Class, note: &str| {
        let lines: Vec<String> = (0..fixtures.len())
            .filter(|&i| shown(&fixtures[i]))
            .filter_map(|i| match judgements[i] {
                Judgement::Noted(c, text) if *c == class => {
                    Some(format!("- `{}`: {text}\n", fixtures[i].shown))
                }
                _ => None,
            })
            .collect();
        if !lines.is_empty() {
            let _ = writeln!(out, "## {title}\n\n{note}\n");
            let more = lines.len().saturating_sub(SHOWN);
            out.extend(lines.into_iter().take(SHOWN));
            if more > 0 {
                let _ = writeln!(out, "- and {more} more (the report lists them all)");
            }
            out.push('\n');
        }
    };
    section(
        "Format differences",
        Class::Format,
        "The right decision, said differently from the reference. These do not cost \
         marks for the decision, only the format part (if the scheme gives it points).",
    );
    section(
        "Open questions (not counted)",
        Class::Open,
        "Inputs the assignment leaves open: either answer is accepted.",
    );
    let messages: Vec<String> = (0..fixtures.len())
        .filter(|&i| shown(&fixtures[i]))
        .filter_map(|i| match judgements[i] {
            Judgement::Message(text) => Some(format!("- `{}`: {text}\n", fixtures[i].shown)),
            _ => None,
        })
        .collect();
    if !messages.is_empty() {
        let more = messages.len().saturating_sub(SHOWN);
        let mut messages: Vec<String> = messages.into_iter().take(SHOWN).collect();
        if more > 0 {
            messages.push(format!("- and {more} more (the report lists them all)\n"));
        }
        out.push_str(
            "## Your error messages (not counted)\n\nBad input rejected as required; the \
             words are for the marker to judge (the assignment asks for a brief, \
             informative message).\n\n",
        );
        out.extend(messages);
        out.push('\n');
    }
    out.push_str(
        "See the README's table of classic bugs (docs/grading.md, \"The fixtures that \
         catch real faults\") and run `./puzzle --explain < FILE` on any fixture.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_sees_the_side_the_lines_and_the_inversions() {
        let s = Shape::of(b"2 1 3 b\n1 2 3 b\n");
        assert_eq!(s.side, Some(2));
        assert_eq!(s.longest_line, 7);
        assert_eq!(s.inversions, Some(1));
        assert_eq!(Shape::of(b"1 2 3\n").side, None);
    }

    #[test]
    fn a_cause_is_named_only_when_every_fixture_shows_it() {
        let even = Shape {
            side: Some(4),
            longest_line: 40,
            inversions: Some(3),
        };
        let odd = Shape {
            side: Some(3),
            longest_line: 20,
            inversions: Some(2),
        };
        let long = Shape {
            side: Some(30),
            longest_line: 2000,
            inversions: Some(9),
        };
        assert!(shared_cause(Class::WrongVerdict, &[even, even])
            .unwrap()
            .starts_with("all are boards of an even side"));
        assert_eq!(shared_cause(Class::WrongVerdict, &[even, odd]), None);
        assert!(shared_cause(Class::FalseError, &[long, long])
            .unwrap()
            .starts_with("all have lines over 1,024 bytes"));
        assert_eq!(shared_cause(Class::FalseError, &[long]), None);
        assert_eq!(shared_cause(Class::Format, &[long, long]), None);
        let huge = Shape {
            side: Some(257),
            longest_line: 400_000,
            inversions: Some(1 << 31),
        };
        assert!(shared_cause(Class::WrongVerdict, &[huge])
            .unwrap()
            .contains("32-bit counter"));
    }
}
