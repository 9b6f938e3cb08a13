//! What a comparison of a class found ([`Comparison`]): the pairs that
//! share code, each with its scores and its matched blocks, each block
//! attributed to its files and lines on both sides (the files that say so
//! are `publishing/similarity.rs`'s).

use super::tree::At;

/// Lines of one file that a block covers.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Lines {
    /// The file, an index in the submission's files ([`Comparison::files`]).
    pub file: u16,
    /// The ranges of lines, first and last, in order.
    pub ranges: Vec<(u32, u32)>,
}

/// Lines closer than this are one range: what lies between is a comment,
/// a blank line or a brace.
const GAP: u32 = 3;

impl Lines {
    /// The lines the places `at` cover, file by file (in the files'
    /// order), each file's as ranges.
    pub fn of(at: &[At]) -> Vec<Lines> {
        let mut places: Vec<At> = at.to_vec();
        places.sort_unstable();
        places.dedup();
        let mut found: Vec<Lines> = Vec::new();
        for p in places {
            match found.last_mut() {
                Some(lines) if lines.file == p.file => match lines.ranges.last_mut() {
                    Some(last) if p.line <= last.1 + GAP => last.1 = last.1.max(p.line),
                    _ => lines.ranges.push((p.line, p.line)),
                },
                _ => found.push(Lines {
                    file: p.file,
                    ranges: vec![(p.line, p.line)],
                }),
            }
        }
        found
    }
}

/// A matched block as found: where it begins in each submission's normal
/// form, its length, and how many submissions of the class hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Match {
    /// Its first symbol in the first submission.
    pub a: u32,
    /// Its first symbol in the second.
    pub b: u32,
    /// How many symbols of the normal form it covers.
    pub tokens: u32,
    /// How many submissions of the class hold it (2 when only these two).
    pub shared_by: u32,
}

/// A matched block as a marker reads it: its files and lines on each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// How many symbols of the normal form it covers.
    pub tokens: u32,
    /// Where it is in the first submission.
    pub a: Vec<Lines>,
    /// Where it is in the second.
    pub b: Vec<Lines>,
    /// How many submissions of the class hold it (2 when only these two).
    pub shared_by: u32,
}

/// A pair of submissions that share code.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The first submission, an index in the class (the one whose name
    /// sorts first).
    pub a: usize,
    /// The second.
    pub b: usize,
    /// The code's evidence, 0 to 1: the share of both submissions'
    /// evidence that matched blocks cover.
    pub code: f64,
    /// The behaviour's evidence, 0 to 1, when a grading gave it.
    pub behaviour: Option<f64>,
    /// The symbols matched (on each side).
    pub matched: usize,
    /// The matched blocks, in the order of the first submission
    /// ([`Comparison::blocks`] says where each is).
    pub matches: Vec<Match>,
}

impl Pair {
    /// The combined score: the code's, and with the behaviour's, the
    /// chance that either evidence is right if each were alone (`1 - (1 -
    /// code) (1 - behaviour)`).
    pub fn score(&self) -> f64 {
        match self.behaviour {
            Some(b) => 1.0 - (1.0 - self.code) * (1.0 - b),
            None => self.code,
        }
    }

    /// The score in thousandths, as the files show it (and sort by).
    pub fn millis(&self) -> u32 {
        thousandths(self.score())
    }

    /// The same pair, its sides the other way round.
    pub fn swap(&mut self) {
        std::mem::swap(&mut self.a, &mut self.b);
        for m in &mut self.matches {
            std::mem::swap(&mut m.a, &mut m.b);
        }
        self.matches.sort();
    }
}

/// `x` (0 to 1) in thousandths, rounded.
fn thousandths(x: f64) -> u32 {
    (x.clamp(0.0, 1.0) * 1000.0).round() as u32
}

/// `x` (0 to 1) as the files write it: three decimals.
pub fn decimal(x: f64) -> String {
    let m = thousandths(x);
    format!("{}.{:03}", m / 1000, m % 1000)
}

/// What comparing a class found.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The submissions' names, in the class's order.
    pub names: Vec<String>,
    /// Each submission's files that were read, in order (a block's
    /// [`Lines::file`] is an index here).
    pub files: Vec<Vec<String>>,
    /// Where each symbol of each submission's normal form came from.
    pub places: Vec<Vec<At>>,
    /// The pairs whose score is above 0 (in thousandths), highest first,
    /// ties by their names.
    pub pairs: Vec<Pair>,
    /// A passage more than this many submissions share was no evidence.
    pub common: usize,
    /// The noise threshold.
    pub k: usize,
    /// The guarantee threshold.
    pub t: usize,
    /// What the marker should know (a submission's sources cut short).
    pub notes: Vec<String>,
}

impl Comparison {
    /// Puts the pairs in their order: score in thousandths, highest
    /// first, ties by their names (`a`'s, then `b`'s).
    pub fn sort_pairs(&mut self) {
        let names = &self.names;
        self.pairs.sort_by(|x, y| {
            y.millis()
                .cmp(&x.millis())
                .then_with(|| names[x.a].cmp(&names[y.a]))
                .then_with(|| names[x.b].cmp(&names[y.b]))
        });
    }

    /// Where `lines` are in submission `s`: `puzzle.c:10-14,20; b.c:3`.
    pub fn where_in(&self, s: usize, lines: &[Lines]) -> String {
        lines
            .iter()
            .map(|l| {
                let file = self.files[s]
                    .get(l.file as usize)
                    .map_or("?", String::as_str);
                let ranges: Vec<String> = l
                    .ranges
                    .iter()
                    .map(|&(a, b)| {
                        if a == b {
                            a.to_string()
                        } else {
                            format!("{a}-{b}")
                        }
                    })
                    .collect();
                format!("{file}:{}", ranges.join(","))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The matched blocks of `pair`, each attributed to its files and
    /// lines on both sides.
    pub fn blocks(&self, pair: &Pair) -> Vec<Block> {
        let lines = |s: usize, from: u32, len: u32| {
            let places = &self.places[s];
            let (from, to) = (from as usize, (from + len) as usize);
            Lines::of(places.get(from..to).unwrap_or(&[]))
        };
        pair.matches
            .iter()
            .map(|m| Block {
                tokens: m.tokens,
                a: lines(pair.a, m.a, m.tokens),
                b: lines(pair.b, m.b, m.tokens),
                shared_by: m.shared_by,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: u16, line: u32) -> At {
        At { file, line }
    }

    #[test]
    fn lines_are_ranges_by_file() {
        let places = [
            at(1, 40),
            at(0, 10),
            at(0, 11),
            at(0, 13),
            at(0, 30),
            at(1, 41),
            at(0, 12),
        ];
        assert_eq!(
            Lines::of(&places),
            [
                Lines {
                    file: 0,
                    ranges: vec![(10, 13), (30, 30)]
                },
                Lines {
                    file: 1,
                    ranges: vec![(40, 41)]
                },
            ]
        );
    }

    #[test]
    fn the_combined_score_takes_both_evidences() {
        let mut p = Pair {
            a: 0,
            b: 1,
            code: 0.5,
            behaviour: None,
            matched: 1,
            matches: Vec::new(),
        };
        assert_eq!(p.millis(), 500);
        p.behaviour = Some(0.5);
        assert_eq!(p.millis(), 750);
        p.behaviour = Some(0.0);
        assert_eq!(p.millis(), 500);
    }
}
