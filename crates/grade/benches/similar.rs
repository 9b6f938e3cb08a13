//! `make bench-similar`: `puzzle-grade similar` on a class of 1,000
//! submissions of about 300 lines each, its wall time and peak memory
//! (`/usr/bin/time`), several rounds, with `--jobs 1` and `--jobs 2`; then
//! one late submission compared against the index the class without it
//! kept (`similarity.index`), and whether that gives the same
//! `similarity.csv` as the whole class's comparison.
//!
//! The class is made here, the same from one run to the next (a fixed
//! seed): each submission a C program of random functions from a small
//! grammar (declarations, arithmetic, loops, conditions, calls, output),
//! its own names and messages, so that the idioms of the grammar recur
//! across the class as a real class's do; one in ten is a copy of another
//! one, renamed, its functions reordered and its layout changed. The
//! benchmark checks that each copy was found (or says so), prints the
//! medians, and fails on nothing: it is not a test.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CLASS: usize = 1000;
const ROUNDS: usize = 3;

/// A small, seeded generator (SplitMix64).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const STEMS: &[&str] = &[
    "tile", "board", "count", "size", "row", "col", "blank", "total", "value", "index", "left",
    "right", "line", "token", "parity", "sum", "step", "next", "prev", "goal", "start", "cell",
    "width", "temp", "flag", "seen", "swap", "pos", "len", "buf",
];
const ENDS: &[&str] = &[
    "", "s", "Count", "Num", "_at", "2", "Val", "Idx", "_n", "Max",
];
const WORDS: &[&str] = &[
    "bad", "input", "tile", "board", "missing", "twice", "blank", "size", "error", "line",
    "number", "goal", "start", "wrong", "value", "found", "done", "row", "too", "many",
];

/// One program: its functions' texts (without names fixed) and its
/// variables' names.
struct Program {
    functions: Vec<String>,
}

/// A fresh name of `random`'s making, not among `taken`.
fn name(random: &mut Random, taken: &mut Vec<String>) -> String {
    loop {
        let candidate = format!("{}{}", random.pick(STEMS), random.pick(ENDS));
        if !taken.contains(&candidate) {
            taken.push(candidate.clone());
            return candidate;
        }
    }
}

/// An arithmetic expression over `vars`.
fn expression(random: &mut Random, vars: &[String], depth: usize) -> String {
    if depth == 0 || random.below(3) == 0 {
        return if random.below(3) == 0 {
            (random.below(20)).to_string()
        } else {
            vars[random.below(vars.len())].clone()
        };
    }
    let op = ["+", "-", "*", "/", "%"][random.below(5)];
    format!(
        "{} {op} {}",
        expression(random, vars, depth - 1),
        expression(random, vars, depth - 1)
    )
}

/// A condition over `vars`.
fn condition(random: &mut Random, vars: &[String]) -> String {
    let op = ["<", ">", "==", "!=", "<=", ">="][random.below(6)];
    format!(
        "{} {op} {}",
        expression(random, vars, 1),
        expression(random, vars, 1)
    )
}

/// Statements at `indent`, about `lines` of them.
fn statements(
    random: &mut Random,
    vars: &[String],
    callees: &[String],
    lines: usize,
    indent: usize,
    out: &mut String,
) {
    let pad = "    ".repeat(indent);
    let mut written = 0;
    while written < lines {
        match random.below(if indent < 3 { 7 } else { 4 }) {
            0 | 1 => {
                let v = &vars[random.below(vars.len())];
                let _ = writeln!(out, "{pad}{v} = {};", expression(random, vars, 2));
                written += 1;
            }
            2 => {
                let words: Vec<&str> = (0..3).map(|_| random.pick(WORDS)).collect();
                let v = &vars[random.below(vars.len())];
                let _ = writeln!(out, "{pad}printf(\"{}: %d\\n\", {v});", words.join(" "));
                written += 1;
            }
            3 if !callees.is_empty() => {
                let f = &callees[random.below(callees.len())];
                let v = &vars[random.below(vars.len())];
                let _ = writeln!(
                    out,
                    "{pad}{v} = {f}({}, {});",
                    expression(random, vars, 1),
                    expression(random, vars, 1)
                );
                written += 1;
            }
            4 => {
                let v = &vars[random.below(vars.len())];
                let bound = expression(random, vars, 1);
                let _ = writeln!(out, "{pad}for ({v} = 0; {v} < {bound}; {v}++) {{");
                let inner = 2 + random.below(4);
                statements(random, vars, callees, inner, indent + 1, out);
                let _ = writeln!(out, "{pad}}}");
                written += inner + 2;
            }
            5 => {
                let _ = writeln!(out, "{pad}if ({}) {{", condition(random, vars));
                let inner = 1 + random.below(3);
                statements(random, vars, callees, inner, indent + 1, out);
                if random.below(2) == 0 {
                    let _ = writeln!(out, "{pad}}} else {{");
                    statements(random, vars, callees, inner, indent + 1, out);
                    written += inner;
                }
                let _ = writeln!(out, "{pad}}}");
                written += inner + 2;
            }
            _ => {
                let _ = writeln!(out, "{pad}while ({}) {{", condition(random, vars));
                let inner = 2 + random.below(3);
                statements(random, vars, callees, inner, indent + 1, out);
                let v = &vars[random.below(vars.len())];
                let _ = writeln!(out, "{pad}    {v}--;");
                let _ = writeln!(out, "{pad}}}");
                written += inner + 3;
            }
        }
    }
}

/// A program of about 300 lines.
fn program(random: &mut Random) -> Program {
    let mut taken = Vec::new();
    let mut functions = Vec::new();
    let mut callees: Vec<String> = Vec::new();
    let count = 9 + random.below(3);
    for f in 0..count {
        let fname = if f + 1 == count {
            "main".to_string()
        } else {
            name(random, &mut taken)
        };
        let params: Vec<String> = (0..2).map(|_| name(random, &mut taken)).collect();
        let locals: Vec<String> = (0..3).map(|_| name(random, &mut taken)).collect();
        let vars: Vec<String> = params.iter().chain(&locals).cloned().collect();
        let mut text = if fname == "main" {
            "int main(void) {\n".to_string()
        } else {
            format!("int {fname}(int {}, int {}) {{\n", params[0], params[1])
        };
        if fname == "main" {
            for p in &params {
                let _ = writeln!(text, "    int {p} = {};", random.below(10));
            }
        }
        for l in &locals {
            let _ = writeln!(text, "    int {l} = {};", random.below(10));
        }
        statements(random, &vars, &callees, 14, 1, &mut text);
        let _ = writeln!(text, "    return {};\n}}", vars[random.below(vars.len())]);
        functions.push(text);
        if fname != "main" {
            callees.push(fname);
        }
    }
    Program { functions }
}

/// `text` with every name of `program`'s renamed and its layout changed:
/// a copy's disguise.
fn disguised(random: &mut Random, functions: &[String]) -> String {
    let mut order: Vec<usize> = (0..functions.len()).collect();
    // The functions reordered (main stays last: C wants callees first,
    // so prototypes go first).
    let main = order.pop().unwrap_or(0);
    for i in (1..order.len()).rev() {
        order.swap(i, random.below(i + 1));
    }
    let mut text = String::from("#include <stdio.h>\n/* my own work */\n");
    let heads: Vec<String> = order
        .iter()
        .map(|&i| {
            functions[i]
                .lines()
                .next()
                .unwrap_or("")
                .trim_end_matches(" {")
                .to_string()
                + ";"
        })
        .collect();
    text += &heads.join("\n");
    text.push('\n');
    for i in order.into_iter().chain([main]) {
        for line in functions[i].lines() {
            // Allman braces and two-space indentation.
            let depth = line.len() - line.trim_start().len();
            let body = line.trim_start();
            let pad = " ".repeat(depth / 2);
            match body.strip_suffix(" {") {
                Some(head) => {
                    let _ = writeln!(text, "{pad}{head}\n{pad}{{");
                }
                None => {
                    let _ = writeln!(text, "{pad}{body}");
                }
            }
        }
    }
    // Every name with a suffix of its own.
    let mut renamed = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            let keep = [
                "int", "return", "for", "while", "if", "else", "printf", "main", "void", "include",
                "stdio", "h", "d", "n", "my", "own", "work",
            ];
            if word.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && !keep.contains(&word.as_str())
            {
                out.push_str("my_");
            }
            out.push_str(word);
            word.clear();
        }
    };
    let mut in_string = false;
    for c in text.chars() {
        if c == '"' {
            in_string = !in_string;
        }
        if !in_string && (c.is_ascii_alphanumeric() || c == '_') {
            word.push(c);
        } else {
            flush(&mut word, &mut renamed);
            renamed.push(c);
        }
    }
    flush(&mut word, &mut renamed);
    renamed
}

/// Writes the class into `dir`: a folder a submission, `puzzle.c` in each;
/// returns the pairs that are copies.
fn write_class(dir: &Path) -> Vec<(String, String)> {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).expect("the class's folder");
    let mut random = Random(0x5eed_1e55);
    let mut programs: Vec<(String, Vec<String>)> = Vec::new();
    let mut copies = Vec::new();
    let mut lines = 0;
    for s in 0..CLASS {
        let name = format!("s{s:04}");
        let text = if s % 10 == 9 {
            let (of, functions) = &programs[random.below(programs.len())];
            copies.push((of.clone(), name.clone()));
            disguised(&mut random, functions)
        } else {
            let p = program(&mut random);
            let mut text = String::from("#include <stdio.h>\n\n");
            for f in &p.functions {
                text += f;
                text.push('\n');
            }
            programs.push((name.clone(), p.functions));
            text
        };
        lines += text.lines().count();
        fs::create_dir_all(dir.join(&name)).expect("a submission's folder");
        fs::write(dir.join(&name).join("puzzle.c"), text).expect("a source");
    }
    println!(
        "the class: {CLASS} submissions, {} lines each on average, {} copies",
        lines / CLASS,
        copies.len()
    );
    copies
}

/// One run of `puzzle-grade similar`: its wall time and peak memory (KiB,
/// from `/usr/bin/time`, when it is there).
fn run(grader: &Path, class: &Path, out: &Path, jobs: &str) -> (Duration, Option<u64>) {
    let time = Path::new("/usr/bin/time");
    let mut command = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "%M"]).arg(grader);
        c
    } else {
        Command::new(grader)
    };
    command
        .args(["similar", "--jobs", jobs, "--out"])
        .arg(out)
        .arg(class)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let began = Instant::now();
    let done = command.output().expect("puzzle-grade runs");
    let took = began.elapsed();
    let stderr = String::from_utf8_lossy(&done.stderr);
    let peak = stderr.lines().last().and_then(|l| l.trim().parse().ok());
    (took, peak)
}

fn median<T: Ord + Copy>(mut values: Vec<T>) -> T {
    values.sort();
    values[values.len() / 2]
}

/// The median of `times`, and each, in words.
fn summary(times: &[Duration]) -> String {
    format!(
        "median of {} runs {:.2} s (runs {})",
        times.len(),
        median(times.to_vec()).as_secs_f64(),
        times
            .iter()
            .map(|t| format!("{:.2}", t.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let grader = root.join("puzzle-grade");
    assert!(
        grader.exists(),
        "run `make` first: ./puzzle-grade is missing"
    );
    let dir = root.join("bench-out/similar");
    let class = dir.join("class");
    let out = dir.join("out");
    let copies = write_class(&class);
    // The whole class, each run in a fresh out folder (no index kept).
    for jobs in ["1", "2"] {
        let mut times = Vec::new();
        let mut peaks = Vec::new();
        for _ in 0..ROUNDS {
            let _ = fs::remove_dir_all(&out);
            let (took, peak) = run(&grader, &class, &out, jobs);
            times.push(took);
            peaks.extend(peak);
        }
        let peak = if peaks.is_empty() {
            "(no /usr/bin/time)".to_string()
        } else {
            format!("{} MiB", median(peaks) / 1024)
        };
        println!(
            "whole class, --jobs {jobs}: {}, peak memory {peak}",
            summary(&times)
        );
    }
    let csv = fs::read_to_string(out.join("similarity.csv")).unwrap_or_default();
    let found = copies
        .iter()
        .filter(|(a, b)| csv.contains(&format!("\"{a}\",\"{b}\"")))
        .count();
    let lines = csv.lines().count().saturating_sub(1);
    println!(
        "{found} of {} copies found among {lines} pairs listed",
        copies.len()
    );
    // A late submission (the last, a copy of another): the class without
    // it compared once (its index kept), then each round the index of
    // those put back and the class compared again with it.
    let last = format!("s{:04}", CLASS - 1);
    let late = dir.join("late");
    let _ = fs::remove_dir_all(&late);
    fs::rename(class.join(&last), &late).expect("the late one moved aside");
    let _ = fs::remove_dir_all(&out);
    run(&grader, &class, &out, "2");
    let kept = dir.join("index-without-the-late-one");
    fs::copy(out.join("similarity.index"), &kept).expect("the index kept");
    fs::rename(&late, class.join(&last)).expect("the late one back");
    let mut times = Vec::new();
    let mut peaks = Vec::new();
    for _ in 0..ROUNDS {
        fs::copy(&kept, out.join("similarity.index")).expect("the index put back");
        let (took, peak) = run(&grader, &class, &out, "2");
        times.push(took);
        peaks.extend(peak);
    }
    let same = fs::read_to_string(out.join("similarity.csv")).unwrap_or_default() == csv;
    println!(
        "one late submission against the index of {} kept, --jobs 2: {}, peak memory {}; similarity.csv {} the whole class's",
        CLASS - 1,
        summary(&times),
        peaks.into_iter().max().map_or("?".into(), |p| format!("{} MiB", p / 1024)),
        if same { "the same bytes as" } else { "DIFFERS from" }
    );
}
