//! `--solve` end to end: every solution is replayed from start to goal, and
//! lengths that must be shortest are checked against breadth-first search.

use assert_cmd::Command;
use puzzle::board_adt::{Board, Puzzle};
use puzzle::generate::{random_puzzle, GoalShape, SplitMix64};
use puzzle::solve::moves::{apply_move, from_letters, Move};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

fn puzzle() -> Command {
    let mut command = Command::cargo_bin("puzzle").expect("the puzzle binary is built");
    command.env("PUZZLE_CACHE_DIR", cache_dir());
    command
}

/// The tables the 4x4 solver builds, kept with the build output.
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
    let out = puzzle().arg("--solve").arg(path).output().unwrap();
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
        let out = puzzle().arg("-s").write_stdin(input).output().unwrap();
        let answer = parse_answer(&String::from_utf8(out.stdout).unwrap());
        replays(&answer);
        assert!(!answer.shortest, "{side}x{side} is not proven shortest");
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
                "error: goal board: token 4 'x' is neither a number nor 'b'"
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
