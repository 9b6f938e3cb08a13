//! Similarity between submissions: who may have copied, with the code as
//! evidence (and, once a grading's outcomes are given, the behaviour:
//! [`behaviour`]). A stage of its own: it takes each submission's sources
//! (paths and bytes) to their normal form ([`normalise`]), then the class
//! as their forms ([`Form`]: a name, its files, its normal form) and the
//! template's ([`template_form`]), and returns the pairs that share code,
//! each with its score and its matched blocks ([`compare`]); it reads no
//! file and knows nothing of how the sources were found (`modes/similar.rs`
//! takes them in, and keeps the forms in an index: [`kept`]).
//!
//! The way, for each submission: its C-family sources read as one
//! program, lexed, parsed and rewritten in a normal form that undoes the
//! usual disguises ([`program`]). Then for the class: each normal form's
//! k-grams hashed and winnowed ([`fingerprint`]), the fingerprints counted, the
//! template's and those of more than `common` submissions taken out of the
//! evidence, the pairs that share enough of the rest found from the index
//! ([`index`]), and each such pair aligned by greedy string tiling
//! ([`tiling`]) for its matched blocks and its score: the share of both
//! submissions' evidence that the tiles cover, each symbol weighed by its
//! rarity in the class, from 0 (nothing shared but the template and the
//! class's common code) to 1 (the same program).
//!
//! The decisions, and the disguises it undoes and those it does not, are
//! in `docs/similarity.md`.

pub(crate) mod behaviour;
mod emit;
mod fingerprint;
mod index;
pub mod kept;
mod lex;
mod library;
mod order;
mod parse;
mod program;
pub(crate) mod report;
mod rewrite;
mod tiling;
mod tree;
mod words;
mod work;

use fingerprint::kgram_hashes;
use index::{candidates, document_counts, exclude, Prints};
use lex::Lang;
use program::normal_form;
pub use program::Normal;
use report::{Comparison, Match, Pair};
use tiling::{tile, Side};
#[cfg(test)]
pub(crate) use tree::At;
use words::Words;
pub(crate) use work::each;

/// One source file: its path in the submission and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Its path from the submission's top, `/` between folders.
    pub path: String,
    /// Its bytes, whatever they are.
    pub bytes: Vec<u8>,
}

/// How submissions are compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The noise threshold: the shortest stretch of the normal form that
    /// counts as a match, in symbols.
    pub k: usize,
    /// The guarantee threshold: every match at least this long shares a
    /// fingerprint, and so makes its pair a candidate.
    pub t: usize,
    /// A passage that more than this many submissions share is no
    /// evidence (none: [`default_common`]).
    pub common: Option<usize>,
    /// Threads.
    pub jobs: usize,
    /// The most tokens read of one submission (the rest is left out, and
    /// a note says so).
    pub max_tokens: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            k: 12,
            t: 20,
            common: None,
            jobs: 1,
            max_tokens: MAX_TOKENS,
        }
    }
}

/// The most tokens read of one submission: a program of 300 lines has
/// about 2,000; a hundred times that is no student's.
pub const MAX_TOKENS: usize = 200_000;

/// How many submissions may share a passage before it is the class's, no
/// evidence: nine in ten of the class, and at least 10 (MOSS's default
/// `-m`). Code nearly everyone has is the course's (starter code not given
/// as the template, the idiom the assignment asks for); a passage a large
/// share of the class has may still be one original copied many times.
pub fn default_common(class: usize) -> usize {
    (class * 9 / 10).max(10)
}

/// Whether a file named `path` is a source of the C family (`.c .h .cc
/// .cpp .hpp .java`, whatever the case of its suffix): the files compared.
pub fn is_source(path: &str) -> bool {
    Lang::of_path(path).is_some()
}

/// The sources of the C family among `sources`, each with its language,
/// in the order given.
fn family(sources: &[Source]) -> Vec<(Lang, &[u8])> {
    sources
        .iter()
        .filter_map(|s| Lang::of_path(&s.path).map(|lang| (lang, s.bytes.as_slice())))
        .collect()
}

/// A submission on its way to the comparison: its name (as the grading's
/// tables show it), the files of it that were read, and their normal form
/// (what the index kept in a grades folder holds of it, [`kept`], so that
/// it need not be normalised again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// Its name, as the grading's tables show it.
    pub name: String,
    /// Its source files of the C family, in the order read.
    pub files: Vec<String>,
    /// Their normal form.
    pub normal: Normal,
}

/// The normal form of the template's sources: its functions are never
/// inlined into a submission, its code is no evidence.
pub fn template_form(template: &[Source], settings: &Settings) -> Normal {
    normal_form(&family(template), settings.max_tokens, &[])
}

/// The normal form of a submission's `sources` (those of the C family),
/// the functions of `template` ([`template_form`]) never inlined.
pub fn normalise(sources: &[Source], template: &Normal, settings: &Settings) -> Normal {
    normal_form(&family(sources), settings.max_tokens, &template.functions)
}

/// Compares every submission of `class` (each its name, files and
/// [`normalise`]d sources, or as the index kept them) with every other,
/// `template`'s code ([`template_form`]) no evidence (see the module): the
/// pairs that share code, highest score first (ties by their names), and
/// what the marker should know.
pub fn compare(class: &[Form], template: &Normal, settings: &Settings) -> Comparison {
    let (k, t) = (settings.k.max(1), settings.t.max(settings.k.max(1)));
    let w = t - k + 1;
    let jobs = settings.jobs.max(1);
    let mut template_grams = kgram_hashes(&template.syms, k);
    template_grams.sort_unstable();
    template_grams.dedup();
    let normals: Vec<&Normal> = class.iter().map(|f| &f.normal).collect();
    let mut prints: Vec<Prints> = work::each(class.len(), jobs, &|i, _: &mut ()| {
        Prints::new(kgram_hashes(&normals[i].syms, k), w, &template_grams)
    });
    let mut notes = Vec::new();
    for form in class {
        if form.normal.cut {
            notes.push(format!(
                "{}: its sources hold more than {} tokens: those after were not compared",
                form.name, settings.max_tokens
            ));
        }
    }
    let common = settings
        .common
        .unwrap_or_else(|| default_common(class.len()));
    let words = Words::new(
        normals.iter().map(|n| n.words.as_slice()),
        &template.words,
        common,
    );
    let surface = Words::new(
        normals.iter().map(|n| n.shingles.as_slice()),
        &template.shingles,
        common,
    );
    let counts = document_counts(&prints);
    for (p, n) in prints.iter_mut().zip(&normals) {
        exclude(
            p,
            n.syms.len(),
            k,
            &template_grams,
            &counts,
            (common, class.len()),
        );
    }
    let pairs = candidates(&prints, k, &counts, common, jobs);
    let aligned: Vec<Option<Pair>> = work::each(pairs.len(), jobs, &|p, _: &mut ()| {
        let (i, j) = (pairs[p].0 as usize, pairs[p].1 as usize);
        align(i, j, &normals, &prints, k, &counts, [&words, &surface])
    });
    let mut found: Vec<Pair> = aligned.into_iter().flatten().collect();
    for pair in &mut found {
        if class[pair.b].name < class[pair.a].name {
            pair.swap();
        }
    }
    let mut comparison = Comparison {
        names: class.iter().map(|f| f.name.clone()).collect(),
        places: normals.iter().map(|n| n.at.clone()).collect(),
        files: class.iter().map(|f| f.files.clone()).collect(),
        pairs: found.into_iter().filter(|p| p.millis() > 0).collect(),
        common,
        k,
        t,
        notes,
    };
    comparison.sort_pairs();
    comparison
}

/// How much the normal form's tiles weigh in the code's score: the
/// structure, what the disguises do not change.
const STRUCTURE: f64 = 0.5;

/// How much the surface weighs (the tokens as written, own names aside):
/// what a copy that was not restructured keeps and independent authors
/// write each their own way (`for` or `while`, `i++` or `i += 1`).
const SURFACE: f64 = 0.25;

/// How much the program's words weigh ([`words`]).
const WORDS: f64 = 0.25;

/// The pair `i`, `j` aligned: its tiles as blocks, its score; none when no
/// tile was laid.
fn align(
    i: usize,
    j: usize,
    normals: &[&Normal],
    prints: &[Prints],
    k: usize,
    counts: &index::Counts,
    [words, surface]: [&Words; 2],
) -> Option<Pair> {
    let side = |d: usize| Side {
        syms: &normals[d].syms,
        excluded: &prints[d].excluded,
        grams: &prints[d].grams,
        hashes: &prints[d].hashes,
    };
    let tiles = tile(&side(i), &side(j), k);
    if tiles.is_empty() {
        return None;
    }
    let matched: u64 = tiles.iter().map(|t| u64::from(t.len)).sum();
    // The share of both sides' evidence the tiles cover, each symbol by
    // its rarity: a block half the class holds is weaker evidence than
    // one only these two do.
    let weight = prints[i].weight + prints[j].weight;
    let sum = |w: &[f32]| w.iter().map(|&x| f64::from(x)).sum::<f64>();
    let covered: f64 = tiles
        .iter()
        .map(|t| {
            let (a, b, len) = (t.a as usize, t.b as usize, t.len as usize);
            sum(&prints[i].weights[a..a + len]) + sum(&prints[j].weights[b..b + len])
        })
        .sum();
    let structure = if weight > 0.0 {
        (covered / weight).min(1.0)
    } else {
        0.0
    };
    let (a, b) = (normals[i], normals[j]);
    let code = STRUCTURE * structure
        + SURFACE * surface.share(&a.shingles, &b.shingles)
        + WORDS * words.share(&a.words, &b.words);
    let prints_i = &prints[i].prints;
    let mut matches: Vec<Match> = tiles
        .iter()
        .map(|t| {
            // How many submissions hold the block: the most of its
            // fingerprints' (sorted by place) that lie wholly inside it.
            let first = prints_i.partition_point(|p| p.pos < t.a);
            let held = prints_i[first..]
                .iter()
                .take_while(|p| p.pos as usize + k <= (t.a + t.len) as usize)
                .filter_map(|p| counts.get(&p.hash))
                .max()
                .copied()
                .unwrap_or(2);
            Match {
                a: t.a,
                b: t.b,
                tokens: t.len,
                shared_by: held.max(2),
            }
        })
        .collect();
    matches.sort();
    Some(Pair {
        a: i,
        b: j,
        code: code.clamp(0.0, 1.0),
        behaviour: None,
        matched: matched as usize,
        matches,
    })
}
