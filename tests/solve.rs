//! `--solve` end to end: every solution is replayed from start to goal, and
//! lengths that must be shortest are checked against breadth-first search.

use assert_cmd::Command;
use puzzle::board_adt::{apply_move, from_letters, Board, Move, Puzzle};
use puzzle::{random_puzzle, GoalShape, SplitMix64};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The binary, with the 4x4 tables built (once for all tests) in a cache kept
/// with the build output, so that tests running at once do not build them twice.
fn puzzle() -> Command {
    static TABLES: Once = Once::new();
    TABLES.call_once(|| {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzle"))
            .arg("--build-tables=4")
            .env("PUZZLE_CACHE_DIR", cache_dir())
            .output()
            .expect("puzzle --build-tables runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
    let mut command = Command::cargo_bin("puzzle").expect("the puzzle binary is built");
    command.env("PUZZLE_CACHE_DIR", cache_dir());
    command
}

/// The 4x4 tables' cache for these tests.
fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("puzzle-cache")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What `puzzle --solve` printed for a solvable puzzle.
struct Answer {
    start: Board,
    goal: Board,
    moves: Vec<Move>,
    shortest: bool,
}

/// Parses the five lines of a solvable answer, checking their form.
fn parse_answer(stdout: &str) -> Answer {
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() >= 5, "five lines: {stdout}");
    let start = lines[0].strip_prefix("start: ").unwrap().parse().unwrap();
    let goal = lines[1]
        .strip_prefix("goal: ")
        .unwrap()
        .parse::<Board>()
        .unwrap();
    assert_eq!(lines[2], "solvable");
    let counted = lines[3].strip_prefix("moves: ").unwrap();
    let (count, label) = counted.split_once(' ').unwrap();
    let shortest = match label {
        "(shortest)" => true,
        "(not proven shortest)" => false,
        other => panic!("unknown label {other}"),
    };
    let letters = lines[4].strip_prefix("solution:").unwrap();
    let letters = letters.strip_prefix(' ').unwrap_or(letters);
    let moves = from_letters(letters).expect("only U, D, L, R");
    assert_eq!(moves.len(), count.parse::<usize>().unwrap());
    Answer {
        start,
        goal,
        moves,
        shortest,
    }
}

/// Replays the moves on the start board; they must all apply and end on the goal.
fn replays(answer: &Answer) {
    let mut board = answer.start.clone();
    for (i, &mv) in answer.moves.iter().enumerate() {
        assert!(board.slide(mv), "move {} ({mv}) does not apply", i + 1);
    }
    assert_eq!(board, answer.goal, "the moves end on the goal");
}

fn solve_file(path: &Path) -> String {
    let mut command = puzzle();
    // 5x5 and larger boards use the 5x5 tables: the small ones here.
    let first = std::fs::read_to_string(path).unwrap_or_default();
    if first
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .count()
        >= 25
    {
        command.env("PUZZLE_TABLES", "small");
    }
    let out = command.arg("--solve").arg(path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", path.display());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_solvable_fixture_gets_a_replayable_solution() {
    let mut dir: Vec<PathBuf> = std::fs::read_dir(root().join("Tests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dir.sort();
    for path in dir {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("sol") {
            let answer = parse_answer(&solve_file(&path));
            replays(&answer);
            assert_eq!(answer.shortest, answer.start.side() <= 4, "{name}");
        } else if name.starts_with("unsol") {
            let out = solve_file(&path);
            assert_eq!(out.lines().count(), 3, "{name}: only the three lines");
            assert!(out.ends_with("\nunsolvable\n"));
        }
    }
}

/// Breadth-first distances from `goal` to every board reachable from it.
fn distances(side: usize, goal: &[u32]) -> HashMap<Vec<u32>, usize> {
    let mut seen = HashMap::new();
    seen.insert(goal.to_vec(), 0);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(cells) = queue.pop_front() {
        let d = seen[&cells];
        let blank = cells.iter().position(|&c| c == 0).unwrap();
        for mv in Move::ALL {
            let mut next = cells.clone();
            let mut b = blank;
            if apply_move(&mut next, side, &mut b, mv) && !seen.contains_key(&next) {
                seen.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    seen
}

fn line(cells: &[u32]) -> String {
    let tokens: Vec<String> = cells
        .iter()
        .map(|&c| if c == 0 { "b".into() } else { c.to_string() })
        .collect();
    tokens.join(" ")
}

/// Solves many puzzles in one `--batch --solve` run; returns the answers.
fn solve_batch(pairs: &[(Vec<u32>, Vec<u32>)]) -> Vec<Answer> {
    let mut input = String::new();
    for (start, goal) in pairs {
        input.push_str(&format!("{}\n{}\n", line(start), line(goal)));
    }
    let out = puzzle()
        .args(["--batch", "--solve"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(5)
        .map(|c| parse_answer(&c.join("\n")))
        .collect()
}

#[test]
fn two_by_two_solutions_are_shortest_for_every_pair() {
    let mut pairs = Vec::new();
    for goal in [[1, 2, 3, 0], [0, 3, 2, 1], [2, 0, 1, 3]] {
        let truth = distances(2, &goal);
        for start in truth.keys() {
            pairs.push((start.clone(), goal.to_vec()));
        }
    }
    for ((start, goal), answer) in pairs.iter().zip(solve_batch(&pairs)) {
        replays(&answer);
        assert!(answer.shortest);
        assert_eq!(answer.moves.len(), distances(2, goal)[start]);
    }
}

#[test]
fn three_by_three_lengths_match_breadth_first_search() {
    let mut rng = SplitMix64::new(33);
    let goals: [[u32; 9]; 3] = [
        [1, 2, 3, 4, 5, 6, 7, 8, 0],
        [1, 2, 3, 4, 0, 5, 6, 7, 8],
        [7, 0, 2, 8, 5, 4, 3, 6, 1],
    ];
    for goal in goals {
        let truth = distances(3, &goal);
        let boards: Vec<&Vec<u32>> = truth.keys().collect();
        let pairs: Vec<(Vec<u32>, Vec<u32>)> = (0..150)
            .map(|_| {
                let start = boards[rng.below(boards.len() as u64) as usize];
                (start.clone(), goal.to_vec())
            })
            .collect();
        for ((start, _), answer) in pairs.iter().zip(solve_batch(&pairs)) {
            replays(&answer);
            assert!(answer.shortest);
            assert_eq!(answer.moves.len(), truth[start], "{}", line(start));
        }
    }
}

#[test]
fn large_boards_get_valid_solutions_against_random_goals() {
    for (side, seed) in [(5, 1), (6, 2), (10, 3), (100, 4)] {
        let p = random_puzzle(side, true, GoalShape::Random, seed);
        let input = format!("{}\n{}\n", p.start(), p.goal());
        let out = puzzle()
            .arg("-s")
            .env("PUZZLE_TABLES", "small")
            .write_stdin(input)
            .output()
            .unwrap();
        let answer = parse_answer(&String::from_utf8(out.stdout).unwrap());
        replays(&answer);
        assert!(!answer.shortest, "{side}x{side} is not proven shortest");
        let (bound, moves) = unproven_line(&String::from_utf8(out.stderr).unwrap(), "");
        assert_eq!(moves, answer.moves.len());
        assert!(bound >= manhattan(side, &answer.start, &answer.goal) && bound < moves);
    }
}

#[test]
fn six_to_ten_give_the_same_answer_for_any_number_of_threads() {
    // The board's images are reduced on several threads and the 5x5 corner's
    // beam splits its levels between them: neither may change the answer.
    for (side, seed) in [(7, 5), (9, 6)] {
        let p = random_puzzle(side, true, GoalShape::Random, seed);
        let input = format!("{}\n{}\n", p.start(), p.goal());
        let outputs: Vec<Vec<u8>> = ["1", "2", "3"]
            .iter()
            .map(|jobs| solved_on_small_tables(&input, jobs).stdout)
            .collect();
        replays(&parse_answer(
            &String::from_utf8(outputs[0].clone()).unwrap(),
        ));
        assert!(
            outputs.iter().all(|o| *o == outputs[0]),
            "{side}x{side}: the answers differ between --jobs 1, 2 and 3"
        );
    }
}

#[test]
fn show_prints_every_board_along_the_path() {
    let out = puzzle()
        .args(["--solve", "--show"])
        .write_stdin("1 2 3 4 5 6 7 8 b\n1 2 3 4 b 5 6 7 8\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let answer = parse_answer(&text);
    replays(&answer);
    let grids = text.split("\n\n").count() - 1;
    assert_eq!(
        grids,
        answer.moves.len() + 1,
        "the start and one board a move"
    );
    assert!(text.ends_with(&format!(
        "move {} {}:\n1 2 3\n4 b 5\n6 7 8\n\n",
        answer.moves.len(),
        answer.moves.last().unwrap()
    )));
}

#[test]
fn batch_answers_in_input_order_and_reports_bad_pairs() {
    let mut input = String::new();
    let mut expected = Vec::new();
    for seed in 0..40 {
        let solvable = seed % 3 != 0;
        let p: Puzzle = random_puzzle(3, solvable, GoalShape::Random, seed);
        input.push_str(&format!("{}\n{}\n\n", p.start(), p.goal()));
        expected.push(p);
        if seed == 20 {
            input.push_str("1 2 3 b\n1 2 3 x\n");
        }
    }
    let out = puzzle()
        .args(["--batch", "--solve", "--jobs", "2"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "one pair is bad");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    for (index, p) in expected.iter().enumerate() {
        assert_eq!(lines.next().unwrap(), format!("start: {}", p.start()));
        assert_eq!(lines.next().unwrap(), format!("goal: {}", p.goal()));
        if p.is_solvable() {
            assert_eq!(lines.next().unwrap(), "solvable");
            lines.next().unwrap();
            lines.next().unwrap();
        } else {
            assert_eq!(lines.next().unwrap(), "unsolvable");
        }
        if index == 20 {
            assert_eq!(
                lines.next().unwrap(),
                "error: pair 22: goal board: token 4 'x' is neither a number nor 'b'"
            );
        }
    }
    assert_eq!(lines.next(), None);
}

#[test]
fn equal_boards_have_an_empty_solution_line() {
    puzzle()
        .arg("--solve")
        .write_stdin("1 2 3 4 5 6 7 8 b\n1 2 3 4 5 6 7 8 b\n")
        .assert()
        .code(0)
        .stdout("start: 1 2 3 4 5 6 7 8 b\ngoal: 1 2 3 4 5 6 7 8 b\nsolvable\nmoves: 0 (shortest)\nsolution:\n");
}

#[test]
fn bad_input_with_solve_is_reported_as_without_it() {
    puzzle()
        .arg("--solve")
        .write_stdin("1 2 3 b\n1 2 3 3\n")
        .assert()
        .code(1)
        .stderr("")
        .stdout("error: goal board: tile 3 appears twice (tokens 3 and 4)\n");
}

/// Korf's instances (id, optimal length, tiles with 0 for the blank); goal
/// `0 1 2 ... 15`.
fn korf_instances() -> Vec<(u32, usize, Vec<u32>)> {
    let text = include_str!("../data/korf100.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let n: Vec<u32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (n[0], n[1] as usize, n[2..].to_vec())
        })
        .collect()
}

/// The 8 symmetries of the 4x4 square, as cell maps.
fn symmetries() -> Vec<[usize; 16]> {
    let mut all = Vec::new();
    for transpose in [false, true] {
        for flip_rows in [false, true] {
            for flip_cols in [false, true] {
                all.push(std::array::from_fn(|cell| {
                    let (mut r, mut c) = (cell / 4, cell % 4);
                    if transpose {
                        (r, c) = (c, r);
                    }
                    if flip_rows {
                        r = 3 - r;
                    }
                    if flip_cols {
                        c = 3 - c;
                    }
                    r * 4 + c
                }));
            }
        }
    }
    all
}

/// `board` seen through a symmetry (`map`) and with its tiles renamed (`names`).
fn transform(board: &[u32], map: &[usize; 16], names: &[u32]) -> Vec<u32> {
    let mut out = vec![0; 16];
    for (cell, &tile) in board.iter().enumerate() {
        out[map[cell]] = names[tile as usize];
    }
    out
}

#[test]
fn korf_instances_keep_their_optimal_length_under_symmetry_and_relabelling() {
    let mut rng = SplitMix64::new(100);
    let chosen = [55, 16, 42, 79, 71, 1, 97];
    let instances: Vec<_> = korf_instances()
        .into_iter()
        .filter(|(id, _, _)| chosen.contains(id))
        .collect();
    assert_eq!(instances.len(), chosen.len());
    let standard: Vec<u32> = (0..16).collect();
    let mut pairs = Vec::new();
    let mut lengths = Vec::new();
    for (index, (_, optimal, tiles)) in instances.iter().enumerate() {
        for map in symmetries().iter().skip(index % 2).step_by(3) {
            let mut names: Vec<u32> = (1..16).collect();
            rng.shuffle(&mut names);
            names.insert(0, 0);
            let start = transform(tiles, map, &names);
            let goal = transform(&standard, map, &names);
            // Both directions: the goal's blank is then in a corner, or wherever
            // the instance has it (an edge or centre cell).
            pairs.push((start.clone(), goal.clone()));
            pairs.push((goal, start));
            lengths.extend([*optimal, *optimal]);
        }
    }
    let answers = solve_batch(&pairs);
    let blank_cells: std::collections::BTreeSet<usize> = pairs
        .iter()
        .map(|(_, goal)| goal.iter().position(|&t| t == 0).unwrap())
        .collect();
    assert!(
        blank_cells.len() >= 8,
        "goals with the blank in many places"
    );
    for ((answer, length), (start, _)) in answers.iter().zip(lengths).zip(&pairs) {
        replays(answer);
        assert!(answer.shortest);
        assert_eq!(answer.moves.len(), length, "{}", line(start));
    }
}

#[test]
fn four_by_four_goals_with_the_blank_anywhere_get_shortest_solutions() {
    // Short scrambles of goals with the blank on every cell, checked against
    // breadth-first search from the goal (depth 14 at most keeps it small).
    let mut rng = SplitMix64::new(4);
    let mut pairs = Vec::new();
    let mut truths = Vec::new();
    for blank in 0..16 {
        let mut goal: Vec<u32> = (1..16).collect();
        rng.shuffle(&mut goal);
        goal.insert(blank, 0);
        let truth = bfs_to_depth(&goal, 14);
        let boards: Vec<&Vec<u32>> = truth.keys().collect();
        for _ in 0..3 {
            let start = boards[rng.below(boards.len() as u64) as usize].clone();
            truths.push(truth[&start]);
            pairs.push((start, goal.clone()));
        }
    }
    for ((answer, truth), _) in solve_batch(&pairs).iter().zip(truths).zip(&pairs) {
        replays(answer);
        assert!(answer.shortest);
        assert_eq!(answer.moves.len(), truth);
    }
}

/// Breadth-first distances from a 4x4 `goal`, up to `depth` moves.
fn bfs_to_depth(goal: &[u32], depth: usize) -> HashMap<Vec<u32>, usize> {
    let mut seen = HashMap::new();
    seen.insert(goal.to_vec(), 0);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(cells) = queue.pop_front() {
        let d = seen[&cells];
        if d == depth {
            continue;
        }
        let blank = cells.iter().position(|&c| c == 0).unwrap();
        for mv in Move::ALL {
            let mut next = cells.clone();
            let mut b = blank;
            if apply_move(&mut next, 4, &mut b, mv) && !seen.contains_key(&next) {
                seen.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    seen
}

#[test]
fn equal_boards_of_any_size_need_no_moves_and_that_is_shortest() {
    for side in [5, 7] {
        let board = (1..side * side)
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ")
            + " b";
        puzzle()
            .arg("--solve")
            .write_stdin(format!("{board}\n{board}\n"))
            .assert()
            .code(0)
            .stdout(format!(
                "start: {board}\ngoal: {board}\nsolvable\nmoves: 0 (shortest)\nsolution:\n"
            ));
    }
}

#[test]
fn a_corrupt_table_cache_is_rebuilt() {
    // A cache of its own, so that the other tests keep theirs intact: a copy
    // of the tables the fixture loads from the tests' cache (built once for
    // all tests; building them here too took a fifth of this file's time).
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("puzzle-cache-corrupt");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = root().join("Tests/sol4_assignment_example.inp");
    let first = puzzle()
        .args(["--solve", "--stats"])
        .arg(&fixture)
        .output()
        .unwrap();
    assert!(first.status.success());
    let stderr = String::from_utf8_lossy(&first.stderr);
    // Each table the fixture loads: its file here, and its name.
    let mut tables: Vec<(PathBuf, String)> = Vec::new();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("puzzle: loading ") else {
            continue;
        };
        let (name, from) = rest.rsplit_once(" from ").unwrap();
        let copy = dir.join(Path::new(from).file_name().unwrap());
        std::fs::copy(from, &copy).unwrap();
        tables.push((copy, name.to_string()));
    }
    tables.sort();
    assert_eq!(tables.len(), 3, "three tables loaded: {stderr}");
    let run = || {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzle"))
            .args(["--solve", "--stats", "--cache-dir"])
            .arg(&dir)
            .arg(&fixture)
            .output()
            .unwrap()
    };
    // The two 7-tile tables are damaged, the 8-tile one kept: rebuilding a
    // 7-tile table takes a second or two, the 8-tile one fifteen. One goes
    // missing (a notice says what is built), the other becomes a FIFO
    // (opening it would block for ever); once rebuilt, it gets a byte
    // flipped (its checksum fails). A cut file is `solve::pattern`'s unit test.
    let (eight, sevens): (Vec<_>, Vec<_>) = tables
        .into_iter()
        .partition(|(f, _)| f.to_string_lossy().contains("fifteen-v2-8-"));
    assert_eq!((eight.len(), sevens.len()), (1, 2), "{stderr}");
    let (fifo_table, missing_table) = (&sevens[0], &sevens[1]);
    std::fs::remove_file(&missing_table.0).unwrap();
    std::fs::remove_file(&fifo_table.0).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(&fifo_table.0)
        .status()
        .is_ok_and(|s| s.success());
    if !fifo {
        std::fs::write(&fifo_table.0, b"no mkfifo here").unwrap();
    }
    // A killed writer's temporary file (no process has this id).
    let name = missing_table.0.file_name().unwrap().to_string_lossy();
    let stale = dir.join(format!(".{name}.tmp-2147483000-1-0"));
    std::fs::write(&stale, b"half a table").unwrap();
    let second = run();
    assert!(second.status.success());
    assert_eq!(second.stdout, first.stdout, "the same shortest solution");
    let stderr = String::from_utf8_lossy(&second.stderr);
    // Before a missing table is built, one line says what, how big, how
    // long and where; stderr is no terminal here, so no percentages follow.
    let notice = stderr
        .lines()
        .find(|l| l.starts_with("puzzle: building "))
        .unwrap_or_default();
    let want = "puzzle: building the tables for 4x4 goals with the blank on an edge cell: \
                1 table, 29 MB, about ";
    assert!(notice.starts_with(want), "{stderr}");
    assert!(
        notice.ends_with(&format!(" s, once; they are kept in {}", dir.display())),
        "{stderr}"
    );
    assert!(!stderr.contains('%'), "{stderr}");
    for (_, table) in &sevens {
        assert!(
            stderr.contains(&format!("puzzle: built {table}, 29 MB, in ")),
            "{table}: {stderr}"
        );
    }
    assert!(
        stderr.contains(&format!("puzzle: loaded {}, 259 MB", eight[0].1)),
        "{stderr}"
    );
    if fifo {
        assert!(
            stderr.contains("(it is a FIFO, not a regular file)"),
            "{stderr}"
        );
    }
    assert!(
        !stale.exists(),
        "the dead writer's temporary file is removed"
    );
    // The rebuilt table damaged in its middle: found by its checksum.
    let mut bytes = std::fs::read(&fifo_table.0).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&fifo_table.0, bytes).unwrap();
    let third = run();
    assert!(third.status.success());
    assert_eq!(third.stdout, first.stdout, "the same shortest solution");
    let stderr = String::from_utf8_lossy(&third.stderr);
    assert!(
        stderr.contains("is unusable (checksum mismatch); rebuilding it")
            && stderr.contains(&format!("puzzle: built {}, 29 MB, in ", fifo_table.1)),
        "{stderr}"
    );
    // Repaired: the fourth run only loads.
    let fourth = run();
    let stderr = String::from_utf8_lossy(&fourth.stderr);
    assert!(
        stderr.contains(&format!("puzzle: loaded {}", eight[0].1)) && !stderr.contains("built"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn jobs_and_time_limit_are_checked_on_the_command_line() {
    let bad: [&[&str]; 8] = [
        &["--large-tables"],
        &["--solve", "--large-tables"],
        &["--time-limit", "5"],
        &["--solve", "--time-limit", "0"],
        &["--solve", "--shortest", "--time-limit", "0"],
        &["--solve", "--shortest", "--time-limit", "soon"],
        &["--jobs", "2"],
        &["--build-tables=6"],
    ];
    for args in bad {
        let out = puzzle().args(args).write_stdin("").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn one_puzzle_takes_jobs_and_a_time_limit() {
    // A 3x3 puzzle never needs the limit; --jobs does not change the answer.
    let input = "8 6 7 2 5 4 3 b 1\n1 2 3 4 5 6 7 8 b\n";
    let mut answers = Vec::new();
    for args in [
        &["--solve", "--jobs", "1"][..],
        &["--solve", "--shortest", "--jobs", "2", "--time-limit", "30"][..],
        &["--solve", "--shortest", "--time-limit=0.5"][..],
    ] {
        let out = puzzle().args(args).write_stdin(input).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        answers.push(String::from_utf8(out.stdout).unwrap());
    }
    assert!(answers[0].contains("moves: 31 (shortest)"));
    assert!(answers.iter().all(|a| *a == answers[0]));
}

#[test]
fn a_six_by_six_answer_replays_is_the_same_for_any_jobs_and_a_time_limit_only_shortens_it() {
    let p = random_puzzle(6, true, GoalShape::Random, 3);
    let input = format!("{}\n{}\n", p.start(), p.goal());
    let one = solved_on_small_tables(&input, "1").stdout;
    let two = solved_on_small_tables(&input, "2").stdout;
    assert_eq!(one, two, "the same bytes for any --jobs");
    let answer = parse_answer(&String::from_utf8(one).unwrap());
    replays(&answer);
    // With a time limit: wider beams and 4x4 windows, never longer.
    let out = puzzle()
        .args(["--solve", "--time-limit", "1"])
        .env("PUZZLE_TABLES", "small")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let limited = parse_answer(&String::from_utf8(out.stdout).unwrap());
    replays(&limited);
    assert!(limited.moves.len() <= answer.moves.len());
    assert!(!limited.shortest);
}

#[test]
fn a_five_by_five_answer_under_a_time_limit_replays_and_is_no_longer() {
    let input = hard_five();
    let plain =
        parse_answer(&String::from_utf8(solved_on_small_tables(&input, "2").stdout).unwrap());
    let out = puzzle()
        .args(["--solve", "--time-limit", "1"])
        .env("PUZZLE_TABLES", "small")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let limited = parse_answer(&String::from_utf8(out.stdout).unwrap());
    replays(&limited);
    assert!(limited.moves.len() <= plain.moves.len());
}

#[test]
fn a_search_out_of_time_prints_the_constructive_solution_and_a_lower_bound() {
    // A random 6x6 board is far beyond the plain search in a fifth of a second.
    let p = random_puzzle(6, true, GoalShape::Random, 8);
    let input = format!("{}\n{}\n", p.start(), p.goal());
    let out = puzzle()
        .args(["--solve", "--shortest", "--time-limit", "0.2"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answer = parse_answer(&String::from_utf8(out.stdout).unwrap());
    replays(&answer);
    assert!(!answer.shortest, "not proven shortest");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let (bound, moves) = unproven_line(&stderr, "time limit reached: ");
    assert_eq!(moves, answer.moves.len());
    assert!(bound > 0 && bound < answer.moves.len(), "{stderr}");
}

/// The lower bound and the length in the line on `stderr` that says how far
/// a solution may be from shortest (after `why`), checking its words.
fn unproven_line(stderr: &str, why: &str) -> (usize, usize) {
    let prefix = format!("puzzle: {why}the shortest solution has at least ");
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("no bound on stderr: {stderr}"));
    let (bound, rest) = line.split_once(" moves; this one has ").unwrap();
    let (moves, rest) = rest.split_once(", at most ").unwrap();
    let (bound, moves): (usize, usize) = (bound.parse().unwrap(), moves.parse().unwrap());
    assert_eq!(rest, format!("{} more", moves - bound), "{line}");
    (bound, moves)
}

/// The Manhattan distance from `start` to `goal`: no solution is shorter.
fn manhattan(side: usize, start: &Board, goal: &Board) -> usize {
    let mut home = vec![0; side * side];
    for (cell, &tile) in goal.cells().iter().enumerate() {
        home[tile as usize] = cell;
    }
    let distance =
        |a: usize, b: usize| (a / side).abs_diff(b / side) + (a % side).abs_diff(b % side);
    start
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &tile)| tile != 0)
        .map(|(cell, &tile)| distance(cell, home[tile as usize]))
        .sum()
}

#[test]
fn five_by_five_gets_a_near_shortest_solution_and_its_bound() {
    // Goals with the blank in each class, starts a known number of moves
    // away: the bound on stderr is at most that number (the shortest is), at
    // least the Manhattan distance; the answer is the same bytes for any
    // number of threads.
    let mut rng = SplitMix64::new(16);
    for blank in [0, 1, 2, 6, 7, 12, 23] {
        let mut goal: Vec<u32> = (1..25).collect();
        rng.shuffle(&mut goal);
        goal.insert(blank, 0);
        let walk = 40 + rng.below(80) as usize;
        let mut start = goal.clone();
        let mut at = blank;
        let mut made = 0;
        while made < walk {
            made += usize::from(apply_move(
                &mut start,
                5,
                &mut at,
                Move::ALL[rng.below(4) as usize],
            ));
        }
        let input = format!("{}\n{}\n", line(&start), line(&goal));
        let mut outputs = Vec::new();
        for jobs in ["1", "2", "3"] {
            outputs.push(solved_on_small_tables(&input, jobs));
        }
        let answer = parse_answer(&String::from_utf8(outputs[0].stdout.clone()).unwrap());
        replays(&answer);
        assert!(
            outputs.iter().all(|o| o.stdout == outputs[0].stdout),
            "goal blank {blank}"
        );
        // Other tests may be building the small tables at the same time.
        let stderr: String = String::from_utf8(outputs[0].stderr.clone())
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("puzzle: buil"))
            .map(|l| format!("{l}\n"))
            .collect();
        if answer.shortest {
            assert_eq!(stderr, "", "a solution proven shortest needs no bound");
            continue;
        }
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        let (bound, moves) = unproven_line(&stderr, "");
        assert_eq!(moves, answer.moves.len());
        assert!(bound <= made.min(moves), "{bound} > {made} or {moves}");
        assert!(bound >= manhattan(5, &answer.start, &answer.goal));
    }
}

/// A 5x5 puzzle that the small tables cannot solve shortest in any
/// reasonable time, as input.
fn hard_five() -> String {
    let p = random_puzzle(5, true, GoalShape::Standard, 21);
    format!("{}\n{}\n", p.start(), p.goal())
}

#[test]
fn a_time_limit_prints_the_best_solution_found_and_its_bound() {
    let input = hard_five();
    let plain = puzzle()
        .arg("--solve")
        .env("PUZZLE_TABLES", "small")
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let plain = parse_answer(&String::from_utf8(plain.stdout).unwrap());
    let out = puzzle()
        .args(["--solve", "--shortest", "--time-limit", "1.5"])
        .env("PUZZLE_TABLES", "small")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answer = parse_answer(&String::from_utf8(out.stdout).unwrap());
    replays(&answer);
    assert!(!answer.shortest);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let (bound, moves) = unproven_line(&stderr, "time limit reached: ");
    assert_eq!(moves, answer.moves.len());
    assert!(bound >= manhattan(5, &answer.start, &answer.goal));
    // The search starts from the answer of a plain --solve, and only keeps
    // shorter ones.
    assert!(
        plain.shortest || moves <= plain.moves.len(),
        "{moves} > {}",
        plain.moves.len()
    );
}

/// Runs `puzzle --solve --shortest` on `input` (small tables), sends it
/// `signal` once its search has begun, and returns its exit status, stdout
/// and stderr.
#[cfg(unix)]
fn signalled(input: &str, signal: &str) -> (Option<i32>, String, String) {
    signalled_times(input, signal, 1)
}

/// [`signalled`], the signal sent `times` times at once (one `kill` command
/// naming the process `times` times, as GNU `timeout` sends it to the
/// process and then to its group).
#[cfg(unix)]
fn signalled_times(input: &str, signal: &str, times: usize) -> (Option<i32>, String, String) {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::Stdio;
    use std::sync::mpsc;
    use std::time::Duration;
    // The 4x4 tables are built for every test of the binary.
    drop(puzzle());
    // SIGINT at its default: a test run from a script's background job
    // starts with it ignored (POSIX), and `puzzle`, as Unix tools do, keeps
    // an ignored SIGINT ignored; the INT cases waited for ever. coreutils'
    // `env --default-signal` (8.31 and later) puts it back.
    let mut child = std::process::Command::new("env")
        .arg("--default-signal=INT")
        .arg(assert_cmd::cargo::cargo_bin("puzzle"))
        .args(["--solve", "--shortest"])
        .env("PUZZLE_CACHE_DIR", cache_dir())
        .env("PUZZLE_TABLES", "small")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        for line in stderr.lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    let mut lines = Vec::new();
    // An iteration's end says the search has begun (and the signal is
    // caught, no longer deadly).
    loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(line) => {
                let begun = line.starts_with("puzzle: search: bound");
                lines.push(line);
                if begun {
                    break;
                }
            }
            Err(_) => {
                let _ = child.kill();
                panic!("no search began: {lines:?}");
            }
        }
    }
    let pid = child.id().to_string();
    let kill = std::process::Command::new("kill")
        .args(["-s", signal])
        .args(std::iter::repeat_n(&pid, times))
        .status()
        .unwrap();
    assert!(kill.success());
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    reader.join().unwrap();
    lines.extend(rx.try_iter());
    (status.code(), stdout, lines.join("\n"))
}

#[cfg(unix)]
#[test]
fn a_signal_stops_the_search_and_prints_the_best_answer() {
    let six = {
        let p = random_puzzle(6, true, GoalShape::Random, 8);
        format!("{}\n{}\n", p.start(), p.goal())
    };
    for (input, signal, code) in [
        (hard_five(), "INT", 130),
        (hard_five(), "TERM", 143),
        (six, "INT", 130),
    ] {
        let (status, stdout, stderr) = signalled(&input, signal);
        assert_eq!(status, Some(code), "{signal}: {stderr}");
        let answer = parse_answer(&stdout);
        replays(&answer);
        assert!(!answer.shortest);
        let (bound, moves) = unproven_line(&stderr, "stopped: ");
        assert_eq!(moves, answer.moves.len());
        assert!(bound >= manhattan(answer.start.side(), &answer.start, &answer.goal));
    }
}

#[cfg(unix)]
#[test]
fn a_signal_repeated_at_once_is_the_same_request() {
    // Before, the second signal killed `puzzle` and the answer was lost.
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let (status, stdout, stderr) = signalled_times(&hard_five(), signal, 3);
        assert_eq!(status, Some(code), "{signal}: {stderr}");
        let answer = parse_answer(&stdout);
        replays(&answer);
        let (_, moves) = unproven_line(&stderr, "stopped: ");
        assert_eq!(moves, answer.moves.len());
    }
}

/// `puzzle --solve --jobs JOBS` on `input` with the small test tables; its
/// status checked to be 0.
fn solved_on_small_tables(input: &str, jobs: &str) -> std::process::Output {
    let out = puzzle()
        .args(["--solve", "--jobs", jobs])
        .env("PUZZLE_TABLES", "small")
        .write_stdin(input.to_owned())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    out
}

#[test]
fn large_tables_go_with_shortest_and_give_the_same_length_on_any_jobs() {
    let out = puzzle()
        .args(["--solve", "--large-tables"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("--large-tables goes with --shortest or --build-tables"),
        "{stderr}"
    );
    let help = puzzle().arg("--help").output().unwrap();
    assert!(String::from_utf8(help.stdout)
        .unwrap()
        .contains("--large-tables"));
    // A start 34 random moves from a corner goal, and from an edge goal (the
    // small test tables cut three ways serve every class).
    let mut rng = SplitMix64::new(0x26);
    for goal_blank in [0, 7] {
        let mut goal: Vec<u32> = (1..25).collect();
        goal.insert(goal_blank, 0);
        let (mut start, mut at, mut made) = (goal.clone(), goal_blank, 0);
        while made < 34 {
            made += usize::from(apply_move(
                &mut start,
                5,
                &mut at,
                Move::ALL[rng.below(4) as usize],
            ));
        }
        let input = format!("{}\n{}\n", line(&start), line(&goal));
        let run = |args: &[&str]| {
            let out = puzzle()
                .args(args)
                .env("PUZZLE_TABLES", "small")
                .write_stdin(input.clone())
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
            let stdout = String::from_utf8(out.stdout).unwrap();
            (stdout, String::from_utf8(out.stderr).unwrap())
        };
        let (standard, _) = run(&["--solve", "--shortest", "--jobs", "1"]);
        let (one, stderr) = run(&[
            "--solve",
            "--shortest",
            "--large-tables",
            "--stats",
            "--jobs",
            "1",
        ]);
        let (two, _) = run(&[
            "--solve",
            "--shortest",
            "--large-tables",
            "--stats",
            "--jobs",
            "2",
        ]);
        let (a, b) = (parse_answer(&standard), parse_answer(&one));
        replays(&b);
        assert!(a.shortest && b.shortest);
        assert_eq!(a.moves.len(), b.moves.len(), "goal blank {goal_blank}");
        assert_eq!(one, two, "the same bytes for any --jobs");
        // What pruned names the three partitionings' groups.
        let pruned = stderr
            .lines()
            .find(|l| l.starts_with("puzzle: pruned: "))
            .expect("a pruned line");
        assert!(
            pruned.contains("; board 3 A ") && pruned.contains("; mirror 3 A "),
            "{pruned}"
        );
    }
}

#[test]
fn stats_of_a_shortest_five_by_five_search_give_each_iteration_and_what_pruned() {
    // A start 30 random moves from the goal: the small tables prove it in a
    // few iterations.
    let mut rng = SplitMix64::new(26);
    let goal: Vec<u32> = (0..25).collect();
    let (mut start, mut at, mut made) = (goal.clone(), 0, 0);
    while made < 30 {
        made += usize::from(apply_move(
            &mut start,
            5,
            &mut at,
            Move::ALL[rng.below(4) as usize],
        ));
    }
    let out = puzzle()
        .args(["--solve", "--shortest", "--stats", "--jobs", "1"])
        .env("PUZZLE_TABLES", "small")
        .write_stdin(format!("{}\n{}\n", line(&start), line(&goal)))
        .output()
        .unwrap();
    assert!(out.status.success());
    let answer = parse_answer(&String::from_utf8(out.stdout).unwrap());
    assert!(answer.shortest);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let field = |line: &str, before: &str, after: &str| -> u64 {
        let rest = &line[line.find(before).unwrap_or_else(|| panic!("{line}")) + before.len()..];
        rest[..rest.find(after).unwrap()].parse().unwrap()
    };
    let total = stderr
        .lines()
        .find(|l| l.starts_with("puzzle: stats: "))
        .map(|l| field(l, "; ", " nodes"))
        .expect("a stats line");
    // One line an iteration, bounds two apart; every one but the last went
    // through its whole tree.
    let iterations: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("puzzle: "))
        .filter(|l| l.starts_with("iteration bound "))
        .collect();
    assert!(!iterations.is_empty(), "{stderr}");
    let bounds: Vec<u64> = iterations.iter().map(|l| field(l, "bound ", ":")).collect();
    assert!(bounds.windows(2).all(|b| b[1] == b[0] + 2), "{stderr}");
    assert!(*bounds.last().unwrap() <= answer.moves.len() as u64);
    let (last, whole) = iterations.split_last().unwrap();
    assert!(whole.iter().all(|l| !l.contains("met a goal")), "{stderr}");
    assert!(
        last.ends_with(", met a goal") || *bounds.last().unwrap() + 2 >= answer.moves.len() as u64,
        "{stderr}"
    );
    let nodes: u64 = iterations.iter().map(|l| field(l, ": ", " nodes")).sum();
    // Then what pruned: the tables of the board and of its mirror image
    // (the small tables: six a group, A to F), and the beams.
    let pruned = stderr
        .lines()
        .find(|l| l.starts_with("puzzle: pruned: "))
        .expect("a pruned line");
    assert!(pruned.contains(" before a read; board A "), "{pruned}");
    assert!(
        pruned.contains(", F ") && pruned.contains("; mirror A "),
        "{pruned}"
    );
    assert!(pruned.contains("; pathmax "), "{pruned}");
    let beams = stderr
        .lines()
        .find(|l| l.starts_with("puzzle: beams: "))
        .expect("a beams line");
    // The nodes of the iterations and the beams' children make the total.
    assert_eq!(
        nodes + field(beams, "beams: ", " children"),
        total,
        "{stderr}"
    );
}

/// `PUZZLE_ASTAR_MB` turns on the A* top of `--shortest` (A*+IDA*): the
/// same length as plain IDA*, the same moves on one and two threads, an
/// `A* top:` line in `--stats`, and its boards among the nodes (none
/// without the variable).
#[test]
fn an_a_star_top_asked_for_gives_a_shortest_solution_and_says_so() {
    let mut rng = SplitMix64::new(2626);
    let goal: Vec<u32> = (0..25).collect();
    let (mut start, mut at, mut made) = (goal.clone(), 0, 0);
    while made < 30 {
        made += usize::from(apply_move(
            &mut start,
            5,
            &mut at,
            Move::ALL[rng.below(4) as usize],
        ));
    }
    let run = |astar_mb: Option<&str>, jobs: &str| {
        let mut command = puzzle();
        command
            .args(["--solve", "--shortest", "--stats", "--jobs", jobs])
            .env("PUZZLE_TABLES", "small")
            .env_remove("PUZZLE_ASTAR_MB");
        if let Some(mb) = astar_mb {
            command.env("PUZZLE_ASTAR_MB", mb);
        }
        let out = command
            .write_stdin(format!("{}\n{}\n", line(&start), line(&goal)))
            .output()
            .unwrap();
        assert!(out.status.success());
        let answer = parse_answer(&String::from_utf8(out.stdout).unwrap());
        replays(&answer);
        assert!(answer.shortest);
        (answer.moves, String::from_utf8(out.stderr).unwrap())
    };
    let (plain, plain_err) = run(None, "1");
    assert!(!plain_err.contains("A* top:"), "{plain_err}");
    let (moves, stderr) = run(Some("64"), "1");
    assert_eq!(moves.len(), plain.len());
    assert_eq!(
        run(Some("64"), "2").0,
        moves,
        "the same moves on two threads"
    );
    let field = |line: &str, before: &str, after: &str| -> u64 {
        let rest = &line[line.find(before).unwrap_or_else(|| panic!("{line}")) + before.len()..];
        rest[..rest.find(after).unwrap()].parse().unwrap()
    };
    let top = stderr
        .lines()
        .find_map(|l| l.strip_prefix("puzzle: A* top: "))
        .unwrap_or_else(|| panic!("an A* line: {stderr}"));
    let expanded = field(top, "", " boards expanded");
    assert!(expanded > 0 && top.contains(" MiB, "), "{top}");
    let total = stderr
        .lines()
        .find(|l| l.starts_with("puzzle: stats: "))
        .map(|l| field(l, "; ", " nodes"))
        .expect("a stats line");
    let iterations: u64 = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("puzzle: iteration bound "))
        .map(|l| field(l, ": ", " nodes"))
        .sum();
    let beams = stderr
        .lines()
        .find_map(|l| l.strip_prefix("puzzle: beams: "))
        .map(|l| field(l, "", " children"))
        .expect("a beams line");
    assert_eq!(expanded + iterations + beams, total, "{stderr}");
}

/// `--build-tables --large-tables` builds the large set ahead of time: the
/// small test tables cut three ways (`PUZZLE_TABLES=small`), into a fresh
/// cache, hold more files than the standard cut, and a `--shortest
/// --large-tables` run then builds nothing (no "building" line on stderr).
#[test]
fn build_tables_with_large_tables_builds_the_large_set_ahead() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("large-build");
    let _ = std::fs::remove_dir_all(&root);
    let count = |dir: &Path| std::fs::read_dir(dir).map_or(0, |d| d.count());
    let build = |dir: &Path, large: bool| {
        let mut command = Command::cargo_bin("puzzle").unwrap();
        command
            .arg("--build-tables=5")
            .env("PUZZLE_TABLES", "small")
            .env("PUZZLE_CACHE_DIR", dir);
        if large {
            command.arg("--large-tables");
        }
        let out = command.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let (standard, large) = (root.join("standard"), root.join("large"));
    build(&standard, false);
    build(&large, true);
    assert!(count(&standard) > 0);
    assert!(
        count(&large) > count(&standard),
        "{} files against {}",
        count(&large),
        count(&standard)
    );
    let goal: Vec<u32> = (0..25).collect();
    let mut start = goal.clone();
    start.swap(0, 1);
    start.swap(1, 6);
    let out = Command::cargo_bin("puzzle")
        .unwrap()
        .args(["--solve", "--shortest", "--large-tables"])
        .env("PUZZLE_TABLES", "small")
        .env("PUZZLE_CACHE_DIR", &large)
        .write_stdin(format!("{}\n{}\n", line(&start), line(&goal)))
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("building"), "{stderr}");
    let answer = parse_answer(&String::from_utf8(out.stdout).unwrap());
    replays(&answer);
    assert_eq!(answer.moves.len(), 2);
    assert!(answer.shortest);
}
