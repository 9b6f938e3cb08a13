//! `make bench-solve`: the solver against its targets.
//!
//! - Korf's 100 15-puzzles (`data/korf100.txt`), in `puzzle`'s input
//!   notation with the goal `b 1 2 ... 15`, solved by `./puzzle --batch --solve
//!   --stats --jobs 1`: every length must equal the listed optimum and every
//!   solution must replay; the total search time (tables excluded) and nodes are
//!   summed from the `--stats` lines; the median of five runs is reported.
//! - The same 100 backwards (from `b 1 2 ... 15` to each instance), so that the
//!   goal's blank is in a corner, on an edge or in the centre.
//! - The tables: built from nothing into a fresh cache (wall time, peak memory,
//!   bytes on disk), then loaded.
//! - 5x5: the tables for corner goals built from nothing, then Korf and
//!   Felner's five easiest 24-puzzles (`data/korf24.txt`) by `./puzzle --solve
//!   --shortest --stats` on one search thread and on every core: lengths
//!   checked, solutions replayed, the answers the same bytes for any
//!   `--jobs`; nodes, nodes a second, search time, and the ratio to the
//!   reference's time.
//! - Korf and Felner's 50 by a plain `./puzzle --solve` (the near-shortest
//!   beam) on one thread and on every core: each replayed, the same bytes for
//!   any `--jobs`; the mean length against the listed optimum, the worst
//!   ratio, the time per instance (process included, tables cached). Then
//!   each by `--solve --shortest --time-limit 10` (`BENCH_TIME_LIMIT=S`
//!   changes the limit; `0` skips this part, which takes about nine minutes).
//! - Random 3x3 puzzles per second through the library, one core.
//! - Random 6x6, 7x7 and 10x10 puzzles (random goals, seeds 0 to 49), by
//!   `./puzzle --batch --solve --stats`: the mean length, its ratio to the
//!   mean Manhattan distance (a lower bound), the one the reduction alone
//!   gave before issue 16, and the time per puzzle.
//! - A random 100x100 puzzle with a random goal, end to end: moves per N^3
//!   and time.
//! - DeepCubeA's test states for 6x6 and 7x7 (`benches/deepcubea.txt`,
//!   every tenth of its 500, in two sets: `dev`, tuned on, and `held-out`),
//!   by `./puzzle --batch --solve --stats`: the mean length against
//!   DeepCubeA's on the same states, how many are at least as short, the
//!   time per puzzle. `BENCH_DEEPCUBEA_LIMIT=S` also runs each held-out
//!   state by `--solve --time-limit S` (50 states, S seconds each, a
//!   size).
//!
//! It prints figures; it fails only if a solution is wrong.
//!
//! `BENCH_ONLY=PARTS` (a comma-separated list of `4x4`, `5x5`, `near`,
//! `3x3`, `larger`, `100x100`, `deepcubea`) runs only those parts: `BENCH_ONLY=4x4,5x5`
//! is the search benchmark (Korf's 100 both ways and the five easiest
//! 24-puzzles, about two minutes), and `BENCH_ONLY=5x5 cargo bench --bench
//! solve` with an older `./puzzle` compares two builds on the same harness.
//!
//! `BENCH_ONLY=large` (never run unless named: minutes per instance) solves
//! Korf and Felner's instances `BENCH_LARGE` (default `43`, e.g. `43,35,23`)
//! with `--solve --shortest --large-tables --stats` on every core, the
//! large set built into `bench-out/tables5` if missing: length checked,
//! solution replayed, nodes per iteration and the time printed.

use puzzle::board_adt::{from_letters, Board, Puzzle};
use puzzle::{random_puzzle, GoalShape, SolveOptions, SolveStats, Solver, TableCache};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The reference: hkociemba/FifteenPuzzle, measured on this machine by the issue
/// that set the targets (it cannot be fetched and built here).
const REFERENCE_SEARCH_S: f64 = 0.32;
const REFERENCE_NODES: u64 = 1_950_000;

/// Whether `BENCH_ONLY` (see the module docs) asks for `part`; all parts
/// without it.
fn wanted(part: &str) -> bool {
    std::env::var("BENCH_ONLY").map_or(true, |only| only.split(',').any(|p| p.trim() == part))
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let puzzle = root.join("puzzle");
    assert!(puzzle.exists(), "run `make` first: ./puzzle is missing");
    let out = root.join("bench-out");
    let cache = out.join("tables");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).expect("cannot create bench-out/tables");

    if wanted("4x4") {
        fifteen(&puzzle, &root, &cache);
    }
    if wanted("5x5") {
        twentyfour(&puzzle, &root, &out);
    }
    if wanted("near") {
        near_shortest(&puzzle, &root, &out.join("tables5"));
    }
    if wanted("3x3") {
        threes(&cache);
    }
    if wanted("larger") {
        larger(&puzzle, &out);
    }
    if wanted("100x100") {
        hundred(&puzzle, &out);
    }
    if wanted("deepcubea") {
        deepcubea(&puzzle, &root, &out);
    }
    // Only when named: it takes minutes an instance.
    if std::env::var("BENCH_ONLY").is_ok_and(|only| only.split(',').any(|p| p.trim() == "large")) {
        large(&puzzle, &root, &out.join("tables5"));
    }
}

/// DeepCubeA's states (see the module docs): default `--solve` on each set,
/// and, with `BENCH_DEEPCUBEA_LIMIT`, `--time-limit` on the held-out one.
fn deepcubea(puzzle: &Path, root: &Path, out: &Path) {
    println!();
    println!("== DeepCubeA's 6x6 and 7x7 test states, every tenth (benches/deepcubea.txt)");
    let text =
        std::fs::read_to_string(root.join("benches/deepcubea.txt")).expect("benches/deepcubea.txt");
    let limit: f64 = std::env::var("BENCH_DEEPCUBEA_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0);
    for side in [6usize, 7] {
        for set in ["dev", "held-out"] {
            // (DeepCubeA's length, start, goal) of each state of the set.
            let states: Vec<(usize, String, String)> = text
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
                .filter(|f| f.len() > 4 && f[0] == side.to_string() && f[1] == set)
                .map(|f| {
                    let tiles: Vec<&str> = f[4..]
                        .iter()
                        .map(|&t| if t == "0" { "b" } else { t })
                        .collect();
                    let goal: Vec<String> = (1..side * side)
                        .map(|t| t.to_string())
                        .chain(["b".to_string()])
                        .collect();
                    (f[3].parse().unwrap(), tiles.join(" "), goal.join(" "))
                })
                .collect();
            let mut runs = vec![("default", Vec::<&str>::new())];
            let limit_text = format!("{limit}");
            if limit > 0.0 && set == "held-out" {
                runs.push(("time limit", vec!["--time-limit", &limit_text]));
            }
            for (name, extra) in runs {
                let file = out.join(format!("deepcubea{side}-{set}.txt"));
                let input: String = states
                    .iter()
                    .map(|(_, s, g)| format!("{s}\n{g}\n"))
                    .collect();
                std::fs::write(&file, input).unwrap();
                let started = Instant::now();
                let output = Command::new(puzzle)
                    .args(["--batch", "--solve", "--stats", "--jobs", "1"])
                    .args(&extra)
                    .arg("--cache-dir")
                    .arg(out.join("tables5"))
                    .arg(&file)
                    .stdin(Stdio::null())
                    .output()
                    .expect("cannot run puzzle");
                let wall = started.elapsed();
                assert!(output.status.success());
                let stdout = String::from_utf8(output.stdout).unwrap();
                let lines: Vec<&str> = stdout.lines().collect();
                let (mut moves, mut theirs, mut as_short) = (0, 0, 0);
                for (block, (length, start, goal)) in lines.chunks(5).zip(&states) {
                    let solution = from_letters(block[4].trim_start_matches("solution: ")).unwrap();
                    let mut board =
                        Board::parse(start.as_bytes(), puzzle::board_adt::Role::Start).unwrap();
                    let goal =
                        Board::parse(goal.as_bytes(), puzzle::board_adt::Role::Goal).unwrap();
                    assert!(solution.iter().all(|&m| board.slide(m)) && board == goal);
                    moves += solution.len();
                    theirs += length;
                    as_short += usize::from(solution.len() <= *length);
                }
                let (_, search, _) = stats_of(&String::from_utf8(output.stderr).unwrap());
                let n = states.len() as f64;
                println!(
                    "{side}x{side} {set} ({} states), {name}: mean {:.2} moves against DeepCubeA's \
                     {:.2}, {:.4} times; {as_short} at least as short; {:.3} s a puzzle (search), \
                     {:.1} s in all",
                    states.len(),
                    moves as f64 / n,
                    theirs as f64 / n,
                    moves as f64 / theirs as f64,
                    search.as_secs_f64() / n,
                    wall.as_secs_f64()
                );
            }
        }
    }
}

/// Korf and Felner's instances `BENCH_LARGE` (see the module docs) with the
/// large 5x5 set, on every core.
fn large(puzzle: &Path, root: &Path, cache: &Path) {
    std::fs::create_dir_all(cache).expect("cannot create bench-out/tables5");
    let ids: Vec<u32> = std::env::var("BENCH_LARGE")
        .unwrap_or_else(|_| "43".into())
        .split(',')
        .map(|id| {
            id.trim()
                .parse()
                .expect("BENCH_LARGE lists instance numbers")
        })
        .collect();
    let instances = korf_instances(&root.join("data/korf24.txt"));
    let goal = goal24();
    for id in ids {
        let (_, length, board) = instances
            .iter()
            .find(|(i, _, _)| *i == id)
            .expect("an instance of data/korf24.txt");
        println!();
        println!(
            "== Korf and Felner's #{id} ({length} moves), --shortest --large-tables, every core"
        );
        let file = cache
            .parent()
            .unwrap_or(cache)
            .join(format!("korf24-{id}.txt"));
        std::fs::write(&file, format!("{board}\n{goal}\n")).unwrap();
        let started = Instant::now();
        let output = Command::new(puzzle)
            .args([
                "--solve",
                "--shortest",
                "--large-tables",
                "--stats",
                "--cache-dir",
            ])
            .arg(cache)
            .arg(&file)
            .stdin(Stdio::null())
            .output()
            .expect("cannot run puzzle");
        let wall = started.elapsed();
        assert!(output.status.success(), "instance {id} failed");
        let stdout = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines[3], format!("moves: {length} (shortest)"), "#{id}");
        let moves = from_letters(lines[4].trim_start_matches("solution: ")).unwrap();
        let mut start: Board = board.parse().unwrap();
        let goal_board: Board = goal.parse().unwrap();
        assert!(
            moves.iter().all(|&m| start.slide(m)) && start == goal_board,
            "instance {id} replays"
        );
        let stderr = String::from_utf8(output.stderr).unwrap();
        for line in stderr.lines() {
            if line.contains("iteration bound")
                || line.contains("stats:")
                || line.contains("building")
            {
                println!("{line}");
            }
        }
        let (nodes, search, tables) = stats_of(&stderr);
        println!(
            "#{id}: optimal, replayed; {nodes} nodes; search {:.1} s ({:.2} M nodes/s), tables {:.1} s, wall {:.1} s",
            search.as_secs_f64(),
            nodes as f64 / search.as_secs_f64() / 1e6,
            tables.as_secs_f64(),
            wall.as_secs_f64()
        );
    }
}

/// The 4x4 tables built from nothing into `cache`, then Korf's 100 both ways.
fn fifteen(puzzle: &Path, root: &Path, cache: &Path) {
    println!("== 4x4 tables, built from nothing (both cores)");
    let started = Instant::now();
    let (status, peak) = run_measured(
        Command::new(puzzle)
            .arg("--build-tables=4")
            .arg("--cache-dir")
            .arg(cache),
    );
    assert!(status, "puzzle --build-tables failed");
    let all_bytes = dir_bytes(cache, "");
    let corner_bytes = dir_bytes(cache, "8-") + dir_bytes(cache, "7-00fe");
    println!(
        "all five tables: {:.1} s wall, peak {} MiB; {:.0} MB on disk ({:.0} MB for corner goals)",
        started.elapsed().as_secs_f64(),
        peak.map_or("-".into(), |m| format!("{m:.0}")),
        all_bytes as f64 / 1e6,
        corner_bytes as f64 / 1e6
    );

    let korf = korf_instances(&root.join("data/korf100.txt"));
    let standard = "b 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15".to_string();
    for (name, backwards) in [
        ("Korf's 100, goal b 1 2 ... 15", false),
        ("Korf's 100 backwards (goal blank anywhere)", true),
    ] {
        println!();
        println!("== {name}: one core, tables loaded first");
        let mut input = String::new();
        for (_, _, board) in &korf {
            let (start, goal) = if backwards {
                (&standard, board)
            } else {
                (board, &standard)
            };
            input.push_str(&format!("{start}\n{goal}\n"));
        }
        let mut runs = Vec::new();
        for _ in 0..5 {
            runs.push(solve_batch(puzzle, cache, &input, &korf));
        }
        runs.sort_by_key(|run| run.search);
        let median = &runs[runs.len() / 2];
        println!(
            "lengths: {} of {} optimal; search {:.3} s (runs: {}); {} nodes; table load {:.2} s",
            median.optimal,
            korf.len(),
            median.search.as_secs_f64(),
            runs.iter()
                .map(|r| format!("{:.3}", r.search.as_secs_f64()))
                .collect::<Vec<_>>()
                .join(", "),
            median.nodes,
            median.tables.as_secs_f64(),
        );
        if !backwards {
            println!(
                "reference (hkociemba/FifteenPuzzle, as measured by the issue): {REFERENCE_SEARCH_S} s, \
                 {REFERENCE_NODES} nodes; ratio {:.2} in time, {:.2} in nodes",
                median.search.as_secs_f64() / REFERENCE_SEARCH_S,
                median.nodes as f64 / REFERENCE_NODES as f64
            );
            println!(
                "peak memory solving: {} MiB",
                median.peak.map_or("-".into(), |m| format!("{m:.0}"))
            );
        }
        assert_eq!(median.optimal, korf.len(), "every length must be optimal");
    }
}

/// Random 3x3 puzzles a second, through the library.
fn threes(cache: &Path) {
    println!();
    println!("== random 3x3 puzzles, random goals, one core, through the library");
    let solver = Solver::new(SolveOptions {
        cache: Some(TableCache::new(cache.to_path_buf())),
        ..SolveOptions::default()
    });
    let puzzles: Vec<_> = (0..100_000)
        .map(|seed| random_puzzle(3, true, GoalShape::Random, seed))
        .collect();
    let mut stats = SolveStats::default();
    // Build the three 3x3 tables (one per goal class) first: they are built once
    // a process, in about 30 ms each, and their building is not solving.
    for p in &puzzles[..1000] {
        solver.solve(p, &mut |_| {}, &mut stats).unwrap();
    }
    let (moves, took) = solve_all(&solver, &puzzles);
    println!(
        "{} puzzles in {:.3} s: {:.2} million a second; mean length {:.2}",
        puzzles.len(),
        took.as_secs_f64(),
        puzzles.len() as f64 / took.as_secs_f64() / 1e6,
        moves as f64 / puzzles.len() as f64
    );
}

/// A random 100x100 puzzle end to end.
fn hundred(puzzle: &Path, out: &Path) {
    println!();
    println!("== a random 100x100 puzzle, random goal, end to end (./puzzle -s)");
    let p = random_puzzle(100, true, GoalShape::Random, 100);
    let file = out.join("solve100.txt");
    std::fs::write(&file, format!("{}\n{}\n", p.start(), p.goal())).unwrap();
    let mut times = Vec::new();
    let mut length = 0;
    for _ in 0..5 {
        let started = Instant::now();
        let result = Command::new(puzzle).arg("-s").arg(&file).output().unwrap();
        times.push(started.elapsed());
        let text = String::from_utf8(result.stdout).unwrap();
        let letters = text
            .lines()
            .nth(4)
            .unwrap()
            .trim_start_matches("solution: ");
        let solution = from_letters(letters).unwrap();
        let mut board = p.start().clone();
        assert!(
            solution.iter().all(|&m| board.slide(m)) && &board == p.goal(),
            "100x100 replays"
        );
        length = solution.len();
    }
    times.sort();
    println!(
        "median {:.3} s (target 1 s); {length} moves, {:.3} N^3 (target 2.4; 2.64 before issue 16)",
        times[2].as_secs_f64(),
        length as f64 / 1e6
    );
}

/// The 24-puzzle goal `b 1 2 ... 24`.
fn goal24() -> String {
    (0..25)
        .map(|t| {
            if t == 0 {
                "b".to_string()
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Korf and Felner's 50 by a plain `--solve` on one thread and on every core,
/// then by `--shortest --time-limit`, with the 5x5 tables for corner goals
/// cached in `cache`.
fn near_shortest(puzzle: &Path, root: &Path, cache: &Path) {
    let instances = korf_instances(&root.join("data/korf24.txt"));
    let goal = goal24();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let run = |board: &str, args: &[&str]| {
        let started = Instant::now();
        let mut child = Command::new(puzzle)
            .arg("--solve")
            .args(args)
            .arg("--cache-dir")
            .arg(cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot run puzzle");
        use std::io::Write;
        let input = format!("{board}\n{goal}\n");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        (String::from_utf8(output.stdout).unwrap(), started.elapsed())
    };
    let check = |id: u32, board: &str, stdout: &str| -> usize {
        let lines: Vec<&str> = stdout.lines().collect();
        let moves = from_letters(lines[4].trim_start_matches("solution: ")).unwrap();
        let mut start: Board = board.parse().unwrap();
        let goal_board: Board = goal.parse().unwrap();
        assert!(
            moves.iter().all(|&m| start.slide(m)) && start == goal_board,
            "instance {id} replays"
        );
        moves.len()
    };
    let mut first: Vec<String> = Vec::new();
    for jobs in [1, cores] {
        println!();
        println!("== Korf and Felner's 50, plain --solve, --jobs {jobs} (tables cached)");
        // One run first, so that the tables are in the page cache.
        run(&instances[0].2, &["--jobs", "1"]);
        let (mut ratios, mut times) = (Vec::new(), Vec::new());
        for (i, (id, optimum, board)) in instances.iter().enumerate() {
            let (stdout, took) = run(board, &["--jobs", &jobs.to_string()]);
            if jobs == 1 {
                first.push(stdout.clone());
            } else {
                assert_eq!(stdout, first[i], "#{id}: the same answer for any --jobs");
            }
            ratios.push(check(*id, board, &stdout) as f64 / *optimum as f64);
            times.push(took.as_secs_f64());
        }
        summary(
            &ratios,
            &times,
            "target: mean 1.05, none over 1.10, 1 s each on 2 cores",
        );
    }
    let limit = std::env::var("BENCH_TIME_LIMIT").unwrap_or_else(|_| "10".into());
    if limit == "0" {
        return;
    }
    println!();
    println!("== Korf and Felner's 50, --solve --shortest --time-limit {limit}");
    let (mut ratios, mut times) = (Vec::new(), Vec::new());
    for (id, optimum, board) in &instances {
        let (stdout, took) = run(board, &["--shortest", "--time-limit", &limit]);
        let length = check(*id, board, &stdout);
        let label = stdout.lines().nth(3).unwrap_or_default();
        println!("#{id}: {length} moves, optimum {optimum}; {label}");
        ratios.push(length as f64 / *optimum as f64);
        times.push(took.as_secs_f64());
    }
    summary(&ratios, &times, "target: mean 1.02");
}

/// Prints the mean and worst of `ratios` and the mean and largest of `times`.
fn summary(ratios: &[f64], times: &[f64], target: &str) {
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let most = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    println!(
        "mean {:.4} of the optimum, worst {:.3}; {:.2} s an instance on average, {:.2} s the longest ({target})",
        mean(ratios),
        most(ratios),
        mean(times),
        most(times)
    );
}

/// The mean lengths before issue 16 (the reduction to a 3x3 corner, seeds 0
/// to 49, random goals).
const BEFORE: [(usize, f64); 3] = [(6, 308.2), (7, 536.2), (10, 1900.6)];

/// Random 6x6, 7x7 and 10x10 puzzles through `./puzzle --batch --solve
/// --stats`: mean length, its ratio to the mean Manhattan distance and to
/// the lengths before, time per puzzle.
fn larger(puzzle: &Path, out: &Path) {
    println!();
    println!(
        "== random 6x6, 7x7, 10x10 puzzles, random goals, seeds 0-49 (./puzzle --batch --solve)"
    );
    for (side, before) in BEFORE {
        let puzzles: Vec<Puzzle> = (0..50)
            .map(|seed| random_puzzle(side, true, GoalShape::Random, seed))
            .collect();
        let mut input = String::new();
        for p in &puzzles {
            input.push_str(&format!("{}\n{}\n", p.start(), p.goal()));
        }
        let file = out.join(format!("random{side}.txt"));
        std::fs::write(&file, input).unwrap();
        let started = Instant::now();
        let output = Command::new(puzzle)
            .args([
                "--batch",
                "--solve",
                "--stats",
                "--jobs",
                "1",
                "--cache-dir",
            ])
            .arg(out.join("tables5"))
            .arg(&file)
            .stdin(Stdio::null())
            .output()
            .expect("cannot run puzzle");
        let wall = started.elapsed();
        assert!(output.status.success());
        let stdout = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        let (mut moves, mut manhattan) = (0, 0);
        for (block, p) in lines.chunks(5).zip(&puzzles) {
            let solution = from_letters(block[4].trim_start_matches("solution: ")).unwrap();
            let mut board = p.start().clone();
            assert!(solution.iter().all(|&m| board.slide(m)) && &board == p.goal());
            moves += solution.len();
            manhattan += manhattan_distance(side, p.start(), p.goal());
        }
        let (_, search, tables) = stats_of(&String::from_utf8(output.stderr).unwrap());
        let mean = moves as f64 / puzzles.len() as f64;
        println!(
            "{side}x{side}: mean {mean:.1} moves, {:.2} times the Manhattan distance ({:.1}); \
             {:.1}% below the {before} before; {:.3} s a puzzle (search), {:.2} s of tables, \
             {:.1} s in all",
            moves as f64 / manhattan as f64,
            manhattan as f64 / puzzles.len() as f64,
            100.0 * (1.0 - mean / before),
            search.as_secs_f64() / puzzles.len() as f64,
            tables.as_secs_f64(),
            wall.as_secs_f64()
        );
    }
}

/// The tiles' Manhattan distance from `start` to `goal`.
fn manhattan_distance(side: usize, start: &Board, goal: &Board) -> usize {
    let mut home = vec![0; side * side];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        home[tile as usize] = cell;
    }
    start
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &tile)| tile != 0)
        .map(|(cell, &tile)| {
            let h = home[tile as usize];
            (cell / side).abs_diff(h / side) + (cell % side).abs_diff(h % side)
        })
        .sum()
}

/// Solves every puzzle (all solvable) through the library; the total number of
/// moves and the time taken.
fn solve_all(solver: &Solver, puzzles: &[Puzzle]) -> (usize, Duration) {
    let mut stats = SolveStats::default();
    let started = Instant::now();
    let moves = puzzles
        .iter()
        .map(|p| {
            solver
                .solve(p, &mut |_| {}, &mut stats)
                .unwrap()
                .unwrap()
                .moves
                .len()
        })
        .sum();
    (moves, started.elapsed())
}

struct BatchRun {
    optimal: usize,
    search: Duration,
    tables: Duration,
    nodes: u64,
    peak: Option<f64>,
}

/// Solves the batch, checks every answer, sums the statistics.
fn solve_batch(
    puzzle: &Path,
    cache: &Path,
    input: &str,
    korf: &[(u32, usize, String)],
) -> BatchRun {
    let input_file = cache.with_file_name("korf-batch.txt");
    std::fs::write(&input_file, input).unwrap();
    let time = Path::new("/usr/bin/time");
    let mut command = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "peak-kib %M"]).arg(puzzle);
        c
    } else {
        Command::new(puzzle)
    };
    let output = command
        .args([
            "--batch",
            "--solve",
            "--stats",
            "--jobs",
            "1",
            "--cache-dir",
        ])
        .arg(cache)
        .arg(&input_file)
        .stdin(Stdio::null())
        .output()
        .expect("cannot run puzzle");
    assert!(output.status.success(), "the batch failed");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let mut optimal = 0;
    for (block, (id, length, _)) in lines.chunks(5).zip(korf) {
        let start: Board = block[0].trim_start_matches("start: ").parse().unwrap();
        let goal: Board = block[1].trim_start_matches("goal: ").parse().unwrap();
        let moves = from_letters(block[4].trim_start_matches("solution: ")).unwrap();
        let mut board = start;
        assert!(
            moves.iter().all(|&m| board.slide(m)) && board == goal,
            "instance {id} replays"
        );
        if moves.len() == *length {
            optimal += 1;
        } else {
            println!("instance {id}: {} moves, optimum {length}", moves.len());
        }
    }
    let (nodes, search, tables) = stats_of(&stderr);
    let peak = stderr
        .lines()
        .filter_map(|line| line.strip_prefix("peak-kib "))
        .find_map(|kib| kib.trim().parse::<f64>().ok())
        .map(|k| k / 1024.0);
    BatchRun {
        optimal,
        search,
        tables,
        nodes,
        peak,
    }
}

/// Korf and Felner's five easiest 24-puzzles, in the order of the issue.
const EASIEST_FIVE: [u32; 5] = [38, 40, 25, 32, 44];

/// clausecker/24puzzle (catalogue `reinefeld-t`, one search thread) on the
/// same machine, as the issue measured it: seconds for each of the five.
const REFERENCE_24: [(u32, f64); 5] = [(38, 3.8), (40, 3.65), (25, 20.0), (32, 29.0), (44, 42.0)];

/// The 5x5 part: the corner goal's tables built from nothing, then Korf and
/// Felner's five easiest instances on one thread and on every core, each
/// replayed and checked against its known length, the answers on every core
/// byte for byte those of one thread.
fn twentyfour(puzzle: &Path, root: &Path, out: &Path) {
    let cache = out.join("tables5");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).expect("cannot create bench-out/tables5");
    let instances: Vec<(u32, usize, String)> = korf_instances(&root.join("data/korf24.txt"))
        .into_iter()
        .filter(|(id, _, _)| EASIEST_FIVE.contains(id))
        .collect();
    let goal = goal24();

    println!();
    println!("== 5x5 tables for corner goals, built from nothing (both cores)");
    // A puzzle two moves from the goal: the run is all table building.
    let easy = "1 6 2 3 4 b 5 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24";
    let file = out.join("easy24.txt");
    std::fs::write(&file, format!("{easy}\n{goal}\n")).unwrap();
    let started = Instant::now();
    let (status, peak) = run_measured(
        Command::new(puzzle)
            .args(["--solve", "--shortest", "--cache-dir"])
            .arg(&cache)
            .arg(&file),
    );
    assert!(status, "building the 5x5 tables failed");
    println!(
        "4 tables: {:.1} s wall, peak {} MiB; {:.0} MB on disk (target: 120 s, 6 GB peak, 2.5 GB)",
        started.elapsed().as_secs_f64(),
        peak.map_or("-".into(), |m| format!("{m:.0}")),
        dir_bytes(&cache, "") as f64 / 1e6
    );

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The solution lines of the one-thread run: every other run must print
    // the same bytes.
    let mut first_answers: Vec<String> = Vec::new();
    for jobs in [1, cores] {
        println!();
        println!("== Korf and Felner's five easiest 24-puzzles, {jobs} search thread(s)");
        let (mut total, mut total_nodes) = (Duration::ZERO, 0);
        for (id, length, board) in &instances {
            let file = out.join(format!("korf24-{id}.txt"));
            std::fs::write(&file, format!("{board}\n{goal}\n")).unwrap();
            let output = Command::new(puzzle)
                .args(["--solve", "--shortest", "--stats", "--jobs"])
                .arg(jobs.to_string())
                .arg("--cache-dir")
                .arg(&cache)
                .arg(&file)
                .stdin(Stdio::null())
                .output()
                .expect("cannot run puzzle");
            assert!(output.status.success(), "instance {id} failed");
            let stdout = String::from_utf8(output.stdout).unwrap();
            if jobs == 1 {
                first_answers.push(stdout.clone());
            } else {
                let i = instances.iter().position(|(j, _, _)| j == id).unwrap();
                assert_eq!(
                    stdout, first_answers[i],
                    "#{id}: same answer for any --jobs"
                );
            }
            let lines: Vec<&str> = stdout.lines().collect();
            assert_eq!(lines[3], format!("moves: {length} (shortest)"), "#{id}");
            let moves = from_letters(lines[4].trim_start_matches("solution: ")).unwrap();
            let mut start: Board = board.parse().unwrap();
            let goal_board: Board = goal.parse().unwrap();
            assert!(
                moves.iter().all(|&m| start.slide(m)) && start == goal_board,
                "instance {id} replays"
            );
            let (nodes, search, _) = stats_of(&String::from_utf8(output.stderr).unwrap());
            total += search;
            total_nodes += nodes;
            let reference = REFERENCE_24.iter().find(|(r, _)| r == id).unwrap().1;
            println!(
                "#{id}: {length} moves, optimal, replayed; {nodes} nodes; search {:.2} s; \
                 {:.2} M nodes/s; reference {reference} s, ratio {:.2}",
                search.as_secs_f64(),
                nodes as f64 / search.as_secs_f64() / 1e6,
                search.as_secs_f64() / reference
            );
        }
        let reference: f64 = REFERENCE_24.iter().map(|(_, s)| s).sum();
        println!(
            "all five: search {:.1} s, {total_nodes} nodes, {:.2} M nodes/s; reference {reference:.0} s, \
             ratio {:.2} (target 0.25)",
            total.as_secs_f64(),
            total_nodes as f64 / total.as_secs_f64() / 1e6,
            total.as_secs_f64() / reference
        );
    }
}

/// Nodes, search time and table time summed over the `--stats` lines of `stderr`.
fn stats_of(stderr: &str) -> (u64, Duration, Duration) {
    let (mut nodes, mut search, mut tables) = (0, Duration::ZERO, Duration::ZERO);
    for line in stderr.lines() {
        let Some(stats) = line.split("stats: ").nth(1) else {
            continue;
        };
        for part in stats.split("; ") {
            if let Some(n) = part.strip_suffix(" nodes") {
                nodes += n.parse::<u64>().unwrap();
            } else if let Some(s) = part.strip_prefix("search ") {
                search += Duration::from_secs_f64(s.trim_end_matches(" s").parse().unwrap());
            } else if let Some(s) = part.strip_prefix("tables ") {
                tables += Duration::from_secs_f64(s.trim_end_matches(" s").parse().unwrap());
            }
        }
    }
    (nodes, search, tables)
}

/// Korf's instances: id, optimal length, the board in `puzzle`'s notation.
fn korf_instances(path: &Path) -> Vec<(u32, usize, String)> {
    let text = std::fs::read_to_string(path).expect("data/korf100.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let n: Vec<&str> = l.split_whitespace().collect();
            let board: Vec<&str> = n[2..]
                .iter()
                .map(|&t| if t == "0" { "b" } else { t })
                .collect();
            (
                n[0].parse().unwrap(),
                n[1].parse().unwrap(),
                board.join(" "),
            )
        })
        .collect()
}

/// Runs `command` (under `/usr/bin/time` when it exists); success and peak MiB.
fn run_measured(command: &mut Command) -> (bool, Option<f64>) {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return (command.status().map(|s| s.success()).unwrap_or(false), None);
    }
    let program = command.get_program().to_owned();
    let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
    let output = Command::new(time)
        .args(["-f", "peak-kib %M"])
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .output()
        .expect("cannot run /usr/bin/time");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("peak-kib "))
        .next_back()
        .and_then(|k| k.trim().parse::<f64>().ok())
        .map(|k| k / 1024.0);
    (output.status.success(), peak)
}

/// Bytes of the files in `dir` whose names contain `part`.
fn dir_bytes(dir: &Path, part: &str) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().contains(part))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}
