//! Shrinking a failing input to a minimal one, as QuickCheck and Hypothesis
//! do: try smaller inputs, keep each that still fails the same way.
//!
//! "Fails the same way" is the caller's predicate (the fuzzer's: the program
//! is judged with the same class). The shrinker only ever keeps a candidate
//! that is smaller ([`Doc::size`]) and for which the predicate held, so it
//! never returns a case that does not fail, nor a larger one. In order:
//!
//! 1. size-dependent faults: the same recipe at the smallest side with one
//!    line padded with spaces to the longest line's length; when that still
//!    fails, the pad is bisected to the shortest that fails (a fixed line
//!    buffer: a line just past its size);
//! 2. a smaller side: the same recipe, a few variants each side (other
//!    seeds, the other verdict, the blank in another row), every side from
//!    the smallest up to 10, then a bisection on the side (an `int`
//!    counter: the smallest side whose inversions pass 2^31);
//! 3. a plainer layout (single spaces, no tabs, nothing at the line ends,
//!    no CR, a final newline) and the standard goal: first, at the size
//!    found, and again after 1 and 2;
//! 4. on boards of at most a few hundred tokens, edits of the document: fewer lines,
//!    nothing before or after the tokens, single spaces between them, tiles
//!    swapped to where `1 2 ... b` has them, smaller numbers (bisected).

use super::case::{number, standard_token, Doc, Goal, Kind, Recipe};

/// An input of the fuzzer: its recipe, and its document as edited since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// What it was made from (the document may have been edited since).
    pub recipe: Recipe,
    /// The input.
    pub doc: Doc,
}

impl Case {
    /// The case `recipe` makes.
    pub fn new(recipe: Recipe) -> Case {
        Case {
            doc: recipe.render(),
            recipe,
        }
    }

    /// Its bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.doc.render()
    }
}

/// What shrinking gave: the smallest failing case found, and how many times
/// the predicate was asked.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The case.
    pub case: Case,
    /// Calls of the predicate (the tests hold it to the limit).
    #[cfg_attr(not(test), allow(dead_code))]
    pub tries: usize,
}

/// Documents with more tokens than this are not edited token by token (each
/// edit is a run of the program).
const MAX_EDITED_TOKENS: usize = 400;

/// Shrinks `case`, for which `fails` holds, asking `fails` at most `limit`
/// times.
pub fn shrink(case: Case, limit: usize, fails: &mut dyn FnMut(&Case) -> bool) -> Shrunk {
    let mut s = Shrinker {
        fails,
        tries: 0,
        limit,
        current: case,
    };
    s.by_layout();
    s.by_padding();
    s.by_side();
    s.by_layout();
    for _ in 0..4 {
        let before = s.current.doc.size();
        s.by_editing();
        if s.current.doc.size() == before || s.tries >= s.limit {
            break;
        }
    }
    Shrunk {
        case: s.current,
        tries: s.tries,
    }
}

struct Shrinker<'a> {
    fails: &'a mut dyn FnMut(&Case) -> bool,
    tries: usize,
    limit: usize,
    current: Case,
}

impl Shrinker<'_> {
    /// Whether `candidate` is smaller than the current case and still fails.
    fn probe(&mut self, candidate: &Case) -> bool {
        if self.tries >= self.limit || candidate.doc.size() >= self.current.doc.size() {
            return false;
        }
        self.tries += 1;
        (self.fails)(candidate)
    }

    /// Keeps `candidate` when it is smaller and still fails.
    fn attempt(&mut self, candidate: Case) -> bool {
        let kept = self.probe(&candidate);
        if kept {
            self.current = candidate;
        }
        kept
    }

    /// A failing variant of the current recipe at `side` (with `pad`
    /// spaces on line `pad.1`, when given), smaller than the current case.
    fn at_side(&mut self, side: usize, pad: Option<(usize, usize)>) -> Option<Case> {
        let variants = match side {
            0..=4 => 10,
            5..=16 => 6,
            _ => 2,
        };
        for k in 0..variants {
            let mut recipe = self.current.recipe.variant(side, k);
            if let Some((pad, line)) = pad {
                recipe.layout.pad = pad;
                recipe.layout.pad_line = line;
            }
            let candidate = Case::new(recipe);
            if self.probe(&candidate) {
                return Some(candidate);
            }
        }
        None
    }

    fn by_padding(&mut self) {
        let min = self.current.recipe.min_side();
        let Some((line, longest)) = (self.current.doc.lines.iter().enumerate())
            .map(|(i, l)| (i, l.len()))
            .max_by_key(|&(i, len)| (len, usize::MAX - i))
        else {
            return;
        };
        if self.current.recipe.side <= min || longest < 256 {
            return;
        }
        if let Some(found) = self.at_side(min, Some((longest, line))) {
            self.current = found;
            self.bisect_pad();
        }
    }

    /// The shortest pad of the current recipe that still fails.
    fn bisect_pad(&mut self) {
        let pad = self.current.recipe.layout.pad as u128;
        self.bisect(pad, |shrinker, mid| {
            let mut recipe = shrinker.current.recipe;
            recipe.layout.pad = mid as usize;
            Case::new(recipe)
        });
    }

    /// The least value below `hi` (the current case's) whose case, as `make`
    /// makes it from the current one, still fails, found by bisection; it
    /// becomes the current case.
    fn bisect(&mut self, hi: u128, make: impl Fn(&Self, u128) -> Case) {
        let (mut lo, mut hi) = (0, hi);
        let mut best = None;
        while lo < hi && self.tries < self.limit {
            let mid = lo + (hi - lo) / 2;
            let candidate = make(self, mid);
            if self.probe(&candidate) {
                hi = mid;
                best = Some(candidate);
            } else {
                lo = mid + 1;
            }
        }
        if let Some(best) = best {
            self.current = best;
        }
    }

    fn by_side(&mut self) {
        let min = self.current.recipe.min_side();
        let side = self.current.recipe.side;
        if side <= min {
            return;
        }
        let top = (min + 8).min(side - 1);
        let mut found = (min..=top).find_map(|s| self.at_side(s, None));
        if found.is_none() && side - 1 > top {
            let (mut lo, mut hi) = (top + 1, side);
            while lo < hi && self.tries < self.limit {
                let mid = lo + (hi - lo) / 2;
                match self.at_side(mid, None) {
                    Some(case) => {
                        hi = mid;
                        found = Some(case);
                    }
                    None => lo = mid + 1,
                }
            }
        }
        if let Some(found) = found {
            self.current = found;
            if self.current.recipe.layout.pad > 0 {
                self.bisect_pad();
            }
        }
    }

    fn by_layout(&mut self) {
        let plainer: [fn(&mut Recipe); 6] = [
            |r| r.layout.final_newline = true,
            |r| r.layout.tabs = false,
            |r| r.layout.edges = false,
            |r| r.layout.crlf = false,
            |r| r.layout.spaces = 1,
            |r| {
                if let Kind::Valid { goal, .. } = &mut r.kind {
                    *goal = Goal::Standard;
                }
            },
        ];
        for change in plainer {
            let mut recipe = self.current.recipe;
            change(&mut recipe);
            if recipe != self.current.recipe {
                self.attempt(Case::new(recipe));
            }
        }
    }

    /// The current case with its document changed by `edit`.
    fn edited(&self, edit: impl FnOnce(&mut Doc)) -> Case {
        let mut case = self.current.clone();
        edit(&mut case.doc);
        case
    }

    fn by_editing(&mut self) {
        let tokens: usize = self.current.doc.lines.iter().map(|l| l.tokens.len()).sum();
        if tokens > MAX_EDITED_TOKENS {
            return;
        }
        for i in (0..self.current.doc.lines.len()).rev() {
            self.attempt(self.edited(|d| {
                d.lines.remove(i);
            }));
        }
        for i in 0..self.current.doc.lines.len() {
            for part in 0..2 {
                if !self.attempt(self.edited(|d| blanks(d, i, part).clear())) {
                    self.attempt(self.edited(|d| {
                        blanks(d, i, part).pop();
                    }));
                    self.attempt(self.edited(|d| {
                        let b = blanks(d, i, part);
                        if !b.is_empty() {
                            b.remove(0);
                        }
                    }));
                }
            }
            for gap in 0..self.current.doc.lines[i].seps.len() {
                if self.current.doc.lines[i].seps[gap] != b" "
                    && !self.attempt(self.edited(|d| d.lines[i].seps[gap] = b" ".to_vec()))
                    && self.current.doc.lines[i].seps[gap].len() > 1
                {
                    self.attempt(self.edited(|d| {
                        d.lines[i].seps[gap].pop();
                    }));
                    self.attempt(self.edited(|d| {
                        d.lines[i].seps[gap].remove(0);
                    }));
                }
            }
        }
        for i in 0..self.current.doc.lines.len() {
            let n = self.current.doc.lines[i].tokens.len();
            for at in 0..n {
                let want = standard_token(at, n);
                let line = &self.current.doc.lines[i];
                if line.tokens[at] == want {
                    continue;
                }
                let swap = (0..n).find(|&j| j != at && line.tokens[j] == want);
                let kept = match swap {
                    Some(j) => self.attempt(self.edited(|d| d.lines[i].tokens.swap(at, j))),
                    None => false,
                };
                if !kept {
                    self.attempt(self.edited(|d| d.lines[i].tokens[at] = want));
                }
            }
        }
        for i in 0..self.current.doc.lines.len() {
            let n = self.current.doc.lines[i].tokens.len() as u128;
            for at in 0..self.current.doc.lines[i].tokens.len() {
                let Some(value) = number(&self.current.doc.lines[i].tokens[at]) else {
                    continue;
                };
                if value < n.max(10) {
                    continue;
                }
                self.bisect(value, |shrinker, mid| {
                    shrinker.edited(|d| d.lines[i].tokens[at] = mid.to_string().into_bytes())
                });
            }
        }
    }
}

/// The blanks before (`part` 0) or after (1) the tokens of line `i`.
fn blanks(doc: &mut Doc, i: usize, part: usize) -> &mut Vec<u8> {
    let line = &mut doc.lines[i];
    if part == 0 {
        &mut line.lead
    } else {
        &mut line.trail
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probing::case::{Blank, Fault, Layout};
    use puzzle::mix;

    fn case(kind: Kind, side: usize, seed: u64, layout: Layout) -> Case {
        Case::new(Recipe {
            kind,
            side,
            seed,
            layout,
        })
    }

    fn valid(solvable: bool) -> Kind {
        Kind::Valid {
            solvable,
            goal: Goal::Random,
            blank: Blank::Row(1),
        }
    }

    fn fancy() -> Layout {
        Layout {
            spaces: 3,
            tabs: true,
            edges: true,
            crlf: false,
            final_newline: true,
            pad: 0,
            pad_line: 0,
        }
    }

    fn hash(bytes: &[u8]) -> u64 {
        bytes.iter().fold(7, |h, &b| mix(h ^ u64::from(b)))
    }

    #[test]
    fn never_returns_a_case_that_passes_nor_a_larger_one() {
        let kinds = [
            valid(true),
            valid(false),
            Kind::Bad {
                fault: Fault::Duplicate,
                board: 0,
                plain: false,
            },
            Kind::Bad {
                fault: Fault::OutOfRange,
                board: 1,
                plain: false,
            },
            Kind::Bad {
                fault: Fault::NonNumber,
                board: 0,
                plain: false,
            },
        ];
        for (n, kind) in kinds.into_iter().enumerate() {
            for seed in 0..6 {
                let original = case(kind, 3 + seed as usize, seed, fancy());
                let first = original.bytes();
                // An arbitrary predicate: the original, and one input in three.
                let mut fails = |c: &Case| {
                    let bytes = c.bytes();
                    bytes == first || hash(&bytes) % 3 == n as u64 % 3
                };
                let shrunk = shrink(original.clone(), 200, &mut fails);
                assert!(fails(&shrunk.case), "{kind:?} seed {seed}");
                assert!(shrunk.case.doc.size() <= original.doc.size());
                assert!(shrunk.tries <= 200);
            }
        }
    }

    #[test]
    fn a_fault_of_even_sides_shrinks_to_a_2x2_board() {
        let mut fails = |c: &Case| c.doc.side() >= 2 && c.doc.side().is_multiple_of(2);
        let shrunk = shrink(case(valid(true), 12, 5, fancy()), 500, &mut fails);
        let doc = &shrunk.case.doc;
        assert_eq!(doc.side(), 2);
        // Nothing but the tokens, single spaces and tiles in place.
        assert_eq!(doc.render(), b"1 2 3 b\n");
    }

    #[test]
    fn a_line_buffer_fault_shrinks_to_the_shortest_line_that_overflows() {
        // A program that reads lines into 1,024 bytes: 1,023 and a newline.
        let mut fails = |c: &Case| c.doc.lines.iter().any(|l| l.len() >= 1023);
        let shrunk = shrink(case(valid(false), 40, 1, Layout::PLAIN), 500, &mut fails);
        let doc = &shrunk.case.doc;
        assert_eq!(doc.side(), 2);
        assert_eq!(doc.lines.iter().map(|l| l.len()).max(), Some(1023));
    }

    #[test]
    fn a_counter_fault_shrinks_to_the_smallest_side_that_shows_it() {
        // Past 1,000 inversions: a reversed board of 48 tiles (side 7) has 1,128.
        let inversions = |c: &Case| {
            let Some(line) = c.doc.lines.first() else {
                return 0;
            };
            let tiles: Vec<u128> = line.tokens.iter().filter_map(|t| number(t)).collect();
            let mut count = 0;
            for i in 0..tiles.len() {
                count += tiles[i + 1..].iter().filter(|&&t| t < tiles[i]).count();
            }
            count
        };
        let mut fails = |c: &Case| inversions(c) > 1000;
        let reversed = Kind::Reversed { solvable: true };
        let shrunk = shrink(case(reversed, 30, 1, Layout::PLAIN), 500, &mut fails);
        assert_eq!(shrunk.case.doc.side(), 7);
        assert!(inversions(&shrunk.case) > 1000);
    }

    #[test]
    fn a_tab_fault_shrinks_to_one_tab_on_a_2x2_board() {
        let mut fails = |c: &Case| c.bytes().contains(&b'\t');
        let shrunk = shrink(case(valid(true), 9, 2, fancy()), 500, &mut fails);
        let bytes = shrunk.case.bytes();
        assert_eq!(shrunk.case.doc.side(), 2);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\t').count(), 1);
        assert_eq!(bytes.len(), 8, "{:?}", String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn a_large_number_shrinks_to_the_smallest_that_fails() {
        let kind = Kind::Bad {
            fault: Fault::Huge,
            board: 0,
            plain: false,
        };
        // Fails while some token is 4096 or more.
        let mut fails = |c: &Case| {
            c.doc
                .lines
                .iter()
                .flat_map(|l| &l.tokens)
                .any(|t| t.len() > 20 || number(t).is_some_and(|v| v >= 4096))
        };
        let shrunk = shrink(case(kind, 5, 3, Layout::PLAIN), 500, &mut fails);
        let tokens: Vec<&Vec<u8>> = shrunk
            .case
            .doc
            .lines
            .iter()
            .flat_map(|l| &l.tokens)
            .collect();
        assert!(tokens.iter().any(|t| t.as_slice() == b"4096"), "{tokens:?}");
        assert_eq!(shrunk.case.doc.side(), 2);
    }

    #[test]
    fn the_limit_bounds_the_tries() {
        let mut calls = 0;
        let mut fails = |_: &Case| {
            calls += 1;
            true
        };
        let shrunk = shrink(case(valid(true), 20, 2, fancy()), 7, &mut fails);
        assert_eq!(shrunk.tries, 7);
        assert_eq!(calls, 7);
    }
}
