//! Marks that are never the machine's (issue 51, item 4): a program that
//! needs most of its time limit in CPU gets the same marks graded alone and
//! beside busy threads on every core (its waits for a core made up), and
//! `grade-all` says when the machine was busy. The sandbox's side, at every
//! level, is `sandbox.rs`'s `a_busy_program_beside_hogs_has_its_time_at_every_level`;
//! the rule's (a run still starved is run again, then NOT GRADED, the
//! machine's) the engine's own tests.

use crate::common;

use common::{grader_bin, Hogs, Scratch};
use std::fs;
use std::process::{Command, Output};

/// `tests/grading/checker.c` that first uses `cpu_ms` of CPU time: a right
/// program that computes for most of its limit.
fn busy_checker(cpu_ms: u32) -> String {
    let checker = fs::read_to_string(common::repo().join("tests/grading/checker.c")).unwrap();
    format!(
        "#define main checker_main\n{checker}\n#undef main\n#include <time.h>\n\
         int main(void) {{\n    struct timespec t;\n    volatile unsigned long x = 0;\n    \
         do {{\n        for (int i = 0; i < 100000; i++)\n            x++;\n        \
         clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);\n    }} while (t.tv_sec * 1000 + t.tv_nsec / 1000000 < {cpu_ms});\n    \
         return checker_main();\n}}\n"
    )
}

/// `grade-all subs --timeout 2 --jobs 2 --grades GRADES` in `dir`.
fn grade_all(dir: &Scratch, grades: &str) -> Output {
    Command::new(grader_bin())
        .args(["grade-all", "subs", "--time-limit", "2", "--jobs", "2"])
        .args(["--grades", grades])
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The row of `summary.csv` of `grades`, from the score on.
fn marks(dir: &Scratch, grades: &str) -> String {
    let csv = fs::read_to_string(dir.join(grades).join("summary.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let score = header.iter().position(|h| *h == "score").unwrap();
    format!(
        "passed {} failed {} score {} of {}",
        row[2],
        row[3],
        row[score],
        row[score + 1]
    )
}

/// A program that needs 1.2 s of CPU a fixture under a limit of 2 s,
/// graded alone and beside two busy threads a core (it then gets about two
/// fifths of a core, and three seconds on the clock a fixture): the same
/// marks, every fixture passed. Before its waits were made up, the loaded
/// grading timed out on both fixtures, confirmed, and lost every point.
/// (On a machine busy enough to give it less than a quarter of a core, the
/// rule leaves a fixture NOT GRADED, the machine's, its points kept: the
/// same marks still, and never a TIMEOUT.)
#[test]
fn a_program_that_needs_most_of_its_limit_gets_the_same_marks_beside_hogs() {
    let _alone = common::load_alone();
    let dir = Scratch::new("load-same-marks")
        .with_fixtures(&["sol4_assignment_example.inp", "unsol2_tiles_swapped.inp"]);
    let sub = dir.join("subs/busy");
    fs::create_dir_all(&sub).unwrap();
    fs::write(sub.join("puzzle.c"), busy_checker(1200)).unwrap();

    let alone = grade_all(&dir, "alone");
    let alone_said = String::from_utf8_lossy(&alone.stderr);
    if alone_said.contains("NOT GRADED, the machine's") {
        // Busy enough without the hogs (the suite's own load) to leave a
        // fixture the machine's twice: there is no "alone" to compare with.
        common::skip_busy(&format!(
            "load-same-marks: the machine is too busy to grade alone ({})",
            alone_said
                .lines()
                .find(|l| l.contains("the machine is busy"))
                .unwrap_or("")
        ));
        return;
    }
    assert_eq!(
        alone.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&alone.stderr)
    );
    let hogs = Hogs::start(2);
    let beside = grade_all(&dir, "beside");
    drop(hogs);
    let said = String::from_utf8_lossy(&beside.stderr);
    assert_eq!(marks(&dir, "alone"), "passed 2 failed 0 score 80 of 80");
    let report = |grades: &str| fs::read_to_string(dir.join(grades).join("busy.txt")).unwrap();
    let (alone, beside_report) = (report("alone"), report("beside"));
    // A report line of `class` (not the table's row of counts).
    let lines_of = |class: &str| -> Vec<String> {
        beside_report
            .lines()
            .filter(|l| l.starts_with(class) && l.contains(": "))
            .map(str::to_string)
            .collect()
    };
    let not_graded = lines_of("NOT GRADED ");
    if !not_graded.is_empty() {
        // A machine so busy (the test suite's own load beside the hogs)
        // that a run got less than a quarter of a core twice: the fixture
        // is the machine's, its points kept; never a TIMEOUT.
        for line in &not_graded {
            assert!(
                line.contains(": the machine's, not the program's: "),
                "{line}"
            );
        }
        assert!(
            beside_report.contains("\nscore 80 of 80; lost: nothing\n"),
            "{beside_report}"
        );
    } else {
        assert_eq!(beside.status.code(), Some(0), "{said}");
        assert_eq!(marks(&dir, "beside"), marks(&dir, "alone"));
        // The reports differ in their times alone.
        assert_eq!(common::masked(&beside_report), common::masked(&alone));
    }
    assert_eq!(
        lines_of("TIMEOUT "),
        Vec::<String>::new(),
        "{beside_report}"
    );
    // Where the kernel counts the machine's waits, the end of the loaded
    // grading says how busy it was.
    if std::path::Path::new("/proc/pressure/cpu").exists() {
        assert!(
            said.contains("puzzle-grade grade-all: the machine at the end: load ")
                && said.contains("% of the grading's time"),
            "{said}"
        );
    }
}
