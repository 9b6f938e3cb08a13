//! Causes confirmed by experiment, never guessed (issue 42): programs with
//! known faults (`tests/grading/checker.c` built with the macro of each)
//! graded by `puzzle-grade grade` on the repository's fixtures; the report
//! names each real cause, with its evidence, and only those; a program
//! whose failures follow no feature gets none.

use crate::common;

use common::{grader_bin, repo};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `checker.c` built with `flags` into cargo's temporary folder.
fn checker(name: &str, flags: &[&str]) -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("causes-{name}"));
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .args(flags)
        .arg(repo().join("tests/grading/checker.c"))
        .status()
        .expect("cc runs");
    assert!(status.success(), "{name}");
    out
}

/// The `cause` lines of the report of `program` graded on `Tests/` and
/// the fixture folders `more`.
fn causes_with(program: &Path, more: &[&Path]) -> Vec<String> {
    let mut args = vec!["grade", "--time-limit", "10", program.to_str().unwrap()];
    args.extend(more.iter().map(|p| p.to_str().unwrap()));
    let out = common::grade_failing(&repo(), &args);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("cause "))
        .map(String::from)
        .collect()
}

/// The `cause` lines of the report of `program` graded on `Tests/`.
fn causes(program: &Path) -> Vec<String> {
    causes_with(program, &[])
}

/// Whether every line of `lines` has one of `words`, and every word is in
/// some line.
fn exactly(lines: &[String], words: &[&str]) {
    for line in lines {
        assert!(
            words.iter().any(|w| line.contains(w)),
            "unexpected: {line}\n{lines:#?}"
        );
        assert!(line.contains("(confirmed: with "), "{line}");
    }
    for word in words {
        assert!(
            lines.iter().any(|l| l.contains(word)),
            "{word} not named: {lines:#?}"
        );
    }
}

#[test]
fn the_blanks_row_forgotten_is_named_with_its_evidence() {
    let lines = causes(&checker("norow", &["-DNO_ROW_TERM"]));
    exactly(
        &lines,
        &["on boards of an even side the blank's row is not counted"],
    );
    assert!(lines[0].contains("10 of 10 inputs failed so"), "{lines:?}");
    assert!(lines[0].contains("0 of 10)"), "{lines:?}");
}

#[test]
fn a_fixed_line_buffer_is_named_by_its_size_whatever_the_class() {
    let lines = causes(&checker("buffer", &["-DFIXED_BUFFER"]));
    exactly(&lines, &["lines over 1,024 bytes"]);
}

#[test]
fn two_faults_of_reading_are_named_each_and_nothing_they_share_by_chance() {
    let lines = causes(&checker("reading", &["-DISSPACE_BLANKS", "-DWRAP32"]));
    exactly(
        &lines,
        &[
            "a vertical tab, a form feed or a lone carriage return between tokens",
            "a number of 2^32 or more",
        ],
    );
    assert!(!lines.iter().any(|l| l.contains("column")), "{lines:?}");
}

#[test]
fn a_tab_refused_is_named() {
    let lines = causes(&checker("tabs", &["-DREJECT_TABS"]));
    exactly(
        &lines,
        &["a valid input with a tab between tokens is rejected"],
    );
}

#[test]
fn failures_that_follow_no_feature_get_no_cause() {
    let out = Command::new(grader_bin())
        .args(["grade", "--time-limit", "10"])
        .arg(checker("chance", &["-DCOINCIDENCE"]))
        .current_dir(repo())
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = report.lines().filter(|l| l.starts_with("cause ")).collect();
    assert!(!lines.is_empty(), "{report}");
    for line in lines {
        assert!(line.ends_with("no single cause confirmed"), "{line}");
    }
    assert!(report.contains("WRONG VERDICT     Tests/"), "{report}");
}

/// The confirmed `cause` lines of `checker.c` built with `flags`, graded on
/// `Tests/` and the fixture folders `more`.
fn confirmed(name: &str, flags: &[&str], more: &[&Path]) -> Vec<String> {
    causes_with(&checker(name, flags), more)
        .into_iter()
        .filter(|l| !l.ends_with("no single cause confirmed"))
        .collect()
}

/// A program written to have one fault, each cause the grader tries
/// (issue 51): `checker.c` with the macro of that fault is told that cause,
/// with its evidence, and no other (its failures that no cause explains
/// may remain, said to have none).
macro_rules! one_fault_one_cause {
    ($($test:ident: $flags:expr => $words:expr;)*) => {$(
        #[test]
        fn $test() {
            let lines = confirmed(stringify!($test), &$flags, &[]);
            exactly(&lines, &$words);
        }
    )*};
}

one_fault_one_cause! {
    the_row_from_a_1_based_position: ["-DROW_FROM_ONE"] =>
        ["the blank's row is one too many when the blank is in the last column"];
    the_row_counted_on_odd_sides: ["-DROW_ON_ODD"] =>
        ["the blank's row is counted on boards of an odd side too"];
    the_goal_taken_for_the_standard_one: ["-DGOAL_IGNORED"] =>
        ["the goal is taken to be 1 2 ... b"];
    a_32_bit_counter: ["-O0", "-fwrapv", "-DINT32_COUNTER"] =>
        ["a 32-bit counter overflows there"];
    two_by_two_refused: ["-DREJECT_2X2"] =>
        ["a valid input with 2x2 boards, the smallest the assignment allows (N starts at 2) is rejected"];
    two_by_two_crashes: ["-DCRASH_2X2"] =>
        ["an input with 2x2 boards, the smallest the assignment allows (N starts at 2) crashes it"];
    odd_sides_refused: ["-DREJECT_ODD"] =>
        ["a valid input with a board of an odd side (3x3, 5x5, 7x7) is rejected"];
    other_goals_refused: ["-DREJECT_OTHER_GOAL"] =>
        ["a valid input with a goal other than 1 2 ... b (the goal may be any arrangement) is rejected"];
    runs_of_blanks_refused: ["-DREJECT_BLANK_RUNS"] =>
        ["a valid input with several blanks in a row between tokens is rejected"];
    leading_blanks_refused_apart_from_trailing_ones: ["-DREJECT_LEADING"] =>
        ["a valid input with blanks at the start of a line is rejected"];
    trailing_blanks_refused_apart_from_leading_ones: ["-DREJECT_TRAILING"] =>
        ["a valid input with blanks at the end of a line is rejected"];
    a_final_newline_needed: ["-DNEED_NEWLINE"] =>
        ["a valid input with no newline after the goal line is rejected"];
    a_line_buffer_of_fgets_read_twice: ["-DFGETS=1024"] =>
        ["a valid input with lines over 1,024 bytes"];
    a_line_buffer_of_2048_bytes_is_named_at_its_size: ["-DFGETS=2048"] =>
        ["a valid input with lines over 2,048 bytes"];
    // Every error exits 0 (WRONG EXIT STATUS, yashtamakuwala's): the bad
    // boards it rejects so are still the ordinary ones its wrap is told
    // apart from.
    a_wrap_told_though_every_rejection_exits_0: ["-DWRAP32", "-DERROR_STATUS=0"] =>
        ["a number of 2^32 or more"];
    // Every fixture with trailing blanks has tabs too: the tab explains
    // them first, and the trailing blanks' own experiment (no tab in its
    // inputs) confirms the second fault (wangchongshi's).
    tabs_and_trailing_blanks_both_told: ["-DREJECT_TABS", "-DREJECT_TRAILING"] =>
        ["a valid input with a tab between tokens is rejected", "a valid input with blanks at the end of a line is rejected"];
    a_line_buffer_and_trailing_blanks_each_at_its_own: ["-DFGETS=2048", "-DREJECT_TRAILING"] =>
        ["a valid input with lines over 2,048 bytes", "a valid input with blanks at the end of a line is rejected"];
    every_valid_input_refused: ["-DBLANK_NEVER"] =>
        ["no valid input is accepted: every one is rejected, whatever its side and goal"];
    no_check_at_all: ["-DNO_CHECKS"] =>
        ["no bad input is rejected: every input is given a verdict"];
    a_nul_taken_for_a_blank: ["-DNUL_BLANK"] =>
        ["a NUL byte between tokens is not rejected"];
    digits_read_and_the_rest_ignored: ["-DDIGITS_FIRST"] =>
        ["a number with other characters after its digits"];
    a_minus_sign_skipped: ["-DABS_SIGN"] =>
        ["a negative number is not rejected"];
    zero_taken_for_a_tile: ["-DACCEPT_ZERO"] =>
        ["the number 0, which is no tile is not rejected"];
    no_range_check: ["-DNO_RANGE_CHECK"] =>
        ["a number of N*N or more is not rejected"];
    a_tile_twice: ["-DACCEPT_DUPLICATE"] =>
        ["a tile that occurs twice is not rejected"];
    a_second_blank_taken_for_a_tile: ["-DACCEPT_TWO_BLANKS"] =>
        ["a board with two blanks is not rejected"];
    boards_of_two_sides: ["-DNO_SIZE_CHECK"] =>
        ["a goal whose side is not the start's is not rejected"];
    an_empty_line_taken_for_a_board: ["-DEMPTY_ACCEPTED"] =>
        ["an empty or blank board line is not rejected"];
    a_missing_goal_taken_for_the_standard_one: ["-DGOAL_DEFAULT"] =>
        ["a goal line missing is not rejected"];
    the_blank_stored_as_its_letter: ["-DBLANK_CODE"] =>
        ["a valid input with the tile 98 (98 is the code of the letter b"];
    numbers_of_three_digits_misread: ["-DTHREE_DIGITS"] =>
        ["a valid input with tiles of three digits"];
}

#[test]
fn a_fault_of_large_boards_is_no_line_buffer() {
    // Tiles kept in a byte fail every board from 17x17 on, whose lines are
    // over 1,024 bytes; boards of 16x16 and 15x15 made as long pass: the
    // tiles are named, not a line buffer.
    // (A number past 2^32 kept in a byte is a tile too: its MISSED ERROR
    // is the other cause.)
    let lines: Vec<String> = confirmed("tile-byte", &["-DTILE_BYTE"], &[])
        .into_iter()
        .filter(|l| l.contains("FALSE ERROR"))
        .collect();
    exactly(
        &lines,
        &["a valid input with tiles of 256 and up (past what a byte holds) is rejected"],
    );
    assert!(
        lines[0].contains("with boards of 16x16 and 15x15 made as long by runs of"),
        "{lines:#?}"
    );
}

#[test]
fn a_number_past_64_bits_read_by_atoi_is_named_as_such_never_as_other_characters() {
    // The fixtures' huge numbers come with other faults (no blank, one
    // token); this one has a tile written as fifty 9s alone, which atoi
    // reads as -1. 2^32 + 1, which atoi reads as 1, is the other cause.
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("causes-huge-tile");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("bad_tile_of_fifty_9s.inp"),
        format!("1 2 3 b\n1 2 {} b\n", "9".repeat(50)),
    )
    .unwrap();
    let lines = confirmed("atoi", &["-DATOI"], &[&folder]);
    exactly(
        &lines,
        &[
            "a number of 2^32 or more",
            "a number of 20 digits or more, past what 64 bits hold",
        ],
    );
    let huge = lines.iter().find(|l| l.contains("20 digits")).unwrap();
    assert!(huge.contains("MISSED ERROR on 1 fixture: "), "{huge}");
}

/// Every fixture of the repository's `Tests/`, by name.
fn every_fixture() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("Tests"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".inp"))
        .collect();
    names.sort();
    names
}

/// The suspects no other test has a program for (issue 51): each program,
/// graded with the class by `grade-all` on every fixture, is told its
/// cause in its feedback with what the grader tried (the inputs with the
/// feature that failed, those without it that did not) and the fixtures it
/// explains; a program whose fault no suspect confirms would be told "no
/// single cause" instead.
#[test]
fn each_suspect_has_a_program_told_its_cause_in_the_feedback() {
    let fixtures = every_fixture();
    let names: Vec<&str> = fixtures.iter().map(String::as_str).collect();
    let dir = common::class_folder(
        "causes-feedback",
        &names,
        &[
            ("nonnumber", "#define NON_NUMBER\n"),
            ("noblank", "#define BLANK_AS_NN\n"),
            ("missing", "#define MISSING\n"),
            ("thirdline", "#define THIRD_LINE_CRASH\n"),
        ],
    );
    common::grade_failing(&dir, &["grade-all", "subs", "--time-limit", "10"]);
    let feedback = |name: &str| {
        std::fs::read_to_string(dir.join(format!("grades/{name}.feedback.md"))).unwrap()
    };
    // Each: the cause's words, a fixture it must explain, its class.
    for (name, words, fixture, class) in [
        (
            "nonnumber",
            "a token that is neither a number nor b is not rejected",
            "Tests/bad_non_ascii_digit.inp",
            "MISSED ERROR",
        ),
        (
            "noblank",
            "a board without a blank is not rejected",
            "Tests/bad_no_blank.inp",
            "MISSED ERROR",
        ),
        (
            "missing",
            "a board whose tokens are not N*N is not rejected",
            "Tests/bad_not_square.inp",
            "MISSED ERROR",
        ),
        (
            "thirdline",
            "an input with something after the goal line crashes it",
            "Tests/bad_third_line.inp",
            "CRASH",
        ),
    ] {
        let text = feedback(name);
        let cause = format!("Cause, confirmed by experiment: {words}.\n\nThe grader tried it on your program: with ");
        let at = text
            .find(&cause)
            .unwrap_or_else(|| panic!("{name}: not told '{words}':\n{text}"));
        let (heading, told) = text.split_at(at);
        assert!(
            heading
                .rfind("### ")
                .is_some_and(|h| heading[h..].starts_with(&format!("### {class} on "))),
            "{name}: under {class}:\n{text}"
        );
        // Its evidence: of the inputs with the feature, at least 9 of 10
        // failed; of those without it, at most 1.
        let evidence = told.lines().nth(2).unwrap();
        let failed: usize = evidence
            .split(" of 10 inputs failed so")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: {evidence}"));
        assert!(failed >= 9, "{name}: {evidence}");
        assert!(
            evidence.ends_with(", 0 of 10.") || evidence.ends_with(", 1 of 10."),
            "{name}: {evidence}"
        );
        let explains = told.lines().find(|l| l.starts_with("It explains")).unwrap();
        assert!(
            explains.contains(&format!("`{fixture}`")),
            "{name}: {explains}"
        );
    }
}
