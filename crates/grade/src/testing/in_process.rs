//! The engine tested in this process, through the fake runner ([`crate::testing::fake`]):
//! grading one program, a folder of submissions with a fake build, and the
//! fuzzer; no real process is started.

use crate::engine::{grade_program, prepare_fixtures, Settings};
use crate::judging::budget::Budget;
use crate::judging::class::Class;
use crate::judging::fixture::Fixture;
use crate::judging::judge::Judgement;
use crate::modes::grade_all::{GradeAll, Select};
use crate::publishing::record::Row;
use crate::testing::fake::{make_puzzle, tools, Call, FakeRunner, Reply, Scratch};
use puzzle_sandbox::{Ending, MemoryLimit, MemoryStop, Runner};
use std::fs;
use std::path::PathBuf;
use std::time::Duration;

/// The repository's `Tests/`.
fn tests_folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../Tests")
}

/// A few fixtures written into `scratch`'s `Tests/`, prepared.
fn few(scratch: &Scratch, files: &[(&str, &[u8])]) -> Vec<Fixture> {
    let dir = scratch.files("Tests", files);
    let mut fixtures = prepare_fixtures(&[dir], false).unwrap();
    for f in &mut fixtures {
        let name = f.path.file_name().unwrap().to_string_lossy();
        f.shown = format!("Tests/{name}");
    }
    fixtures
}

fn classes(graded: &[crate::judging::judge::Graded]) -> Vec<Option<Class>> {
    graded
        .iter()
        .map(|g| match g.judgement {
            Judgement::Noted(class, _) => Some(class),
            _ => None,
        })
        .collect()
}

/// Grades every folder of `subs` with `runner`, into `scratch`'s
/// `grades/`: the rows, and what was written on stdout and heard of.
fn grade_all(
    runner: &dyn Runner,
    settings: &Settings,
    fixtures: &[Fixture],
    scratch: &Scratch,
    formats: &[&str],
) -> (Vec<Row>, Vec<String>) {
    let temp = scratch.join("temp");
    fs::create_dir_all(&temp).unwrap();
    let all = GradeAll {
        runner,
        settings,
        fixtures,
        submissions: scratch.join("subs"),
        grades: scratch.join("grades"),
        temp,
        build_seconds: 5,
        protections: runner.protections(),
        formats: formats
            .iter()
            .map(|f| f.parse().expect("a format"))
            .collect(),
        gradebook: Default::default(),
        fuzz_seconds: None,
        options: Default::default(),
        select: Select::All,
        replace: false,
        shard: None,
        similarity: None,
        stop: &|| false,
        tell: &|_| {},
    };
    let mut heard = Vec::new();
    let graded = all
        .run(&mut Vec::new(), &mut |row| {
            heard.push(row.name.shown().to_string())
        })
        .unwrap();
    (graded.rows, heard)
}

#[test]
fn the_reference_run_in_process_passes_every_fixture_of_tests() {
    let scratch = Scratch::new("reference");
    let fixtures = prepare_fixtures(&[tests_folder()], false).unwrap();
    assert!(fixtures.len() > 80);
    let runner = FakeRunner::new(|call: &Call| Reply::reference(call.stdin));
    let settings = Settings::default();
    let graded = grade_program(
        &runner,
        &scratch.0.join("puzzle"),
        &fixtures,
        &settings,
        &scratch.0,
        &|_| {},
        &settings.budget(),
    )
    .unwrap();
    assert_eq!(graded.len(), fixtures.len());
    for (f, g) in fixtures.iter().zip(&graded) {
        assert!(!g.judgement.fails(true), "{}: {:?}", f.shown, g.judgement);
    }
    assert_eq!(runner.runs_of("puzzle"), fixtures.len());
    let score = settings.scheme.score(&fixtures, &graded);
    assert_eq!((score.total, score.max), (100.0, 100.0));
}

#[test]
fn one_program_is_judged_fixture_by_fixture_in_order() {
    let scratch = Scratch::new("one-program");
    let fixtures = few(
        &scratch,
        &[
            ("bad_x.inp", b"1 2 3 x\n1 2 3 b\n"),
            ("sol_a.inp", b"1 2 3 b\n1 2 b 3\n"),
            ("unsol_b.inp", b"2 1 3 b\n1 2 3 b\n"),
            ("unsol_c.inp", b"3 2 1 b\n1 2 3 b\n"),
        ],
    );
    // Says 'solvable' to everything, crashes on one board.
    let runner = FakeRunner::new(|call: &Call| {
        if call.stdin.starts_with(b"3 2 1") {
            Reply::ended(Ending::Signalled(11))
        } else {
            Reply::exit(0, "solvable\n")
        }
    });
    let settings = Settings {
        jobs: 3,
        ..Settings::default()
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let graded = grade_program(
        &runner,
        &scratch.0.join("puzzle"),
        &fixtures,
        &settings,
        &scratch.0,
        &|_| {
            done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        },
        &settings.budget(),
    )
    .unwrap();
    assert_eq!(
        classes(&graded),
        [
            Some(Class::MissedError),
            Some(Class::Format),
            Some(Class::WrongVerdict),
            Some(Class::Crash)
        ]
    );
    assert_eq!(done.into_inner(), 4);
    // The runs' outputs are gone from the work folder.
    let left: Vec<_> = fs::read_dir(&scratch.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "Tests")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_folder_of_submissions_is_built_graded_and_marked_in_process() {
    let scratch = Scratch::new("grade-all");
    let fixtures = few(
        &scratch,
        &[
            ("bad_x.inp", b"1 2 3 x\n1 2 3 b\n"),
            ("sol_a.inp", b"1 2 3 b\n1 2 b 3\n"),
            ("unsol_b.inp", b"2 1 3 b\n1 2 3 b\n"),
        ],
    );
    let subs = scratch.join("subs");
    scratch.files(
        "subs/alice",
        &[("Makefile", b"puzzle:\n"), ("puzzle.c", b"")],
    );
    scratch.files("subs/bob", &[("notes.txt", b"nothing to build\n")]);
    scratch.files("subs/carol", &[("puzzle.c", b"")]);
    let path = tools(&scratch.join("bin"), &["make", "cc"]).unwrap();
    // make and cc make an executable; alice's program is the reference,
    // carol's says 'solvable' to everything.
    let runner = FakeRunner::new(|call: &Call| match call.name().as_str() {
        "make" | "cc" => {
            make_puzzle(call.dir().unwrap()).unwrap();
            Reply::exit(0, "")
        }
        "puzzle" if call.folder() == "alice" => Reply::reference(call.stdin),
        "puzzle" => Reply::exit(0, "solvable\n"),
        other => panic!("ran {other}"),
    });
    let settings = Settings {
        path,
        ..Settings::default()
    };
    let (rows, heard) = grade_all(&runner, &settings, &fixtures, &scratch, &["gradescope"]);
    assert_eq!(heard, ["alice", "bob", "carol"]);
    assert!(rows[0].passed());
    assert!(rows[1].marks.is_none());
    assert!(rows[2].marks.is_some() && !rows[2].passed());
    assert_eq!(runner.runs_of("make"), 1);
    assert_eq!(runner.runs_of("cc"), 1);
    // The fixtures' 6 runs, then the experiments on carol's wrong
    // verdicts: an answer that is always 'solvable' follows no feature, so
    // they confirm no cause.
    assert!(runner.runs_of("puzzle") > 6);
    let grades = scratch.join("grades");
    for file in [
        "summary.txt",
        "summary.csv",
        "summary.jsonl",
        "summary-fixtures.csv",
        "alice.txt",
        "alice.feedback.md",
        "alice.gradescope.json",
        "bob.txt",
        "carol.feedback.md",
    ] {
        assert!(grades.join(file).is_file(), "{file}");
    }
    let carol = fs::read_to_string(grades.join("carol.txt")).unwrap();
    assert!(carol.starts_with("sandbox: none"), "{carol}");
    assert!(
        carol.contains("cause             WRONG VERDICT on 1 fixture: no single cause confirmed"),
        "{carol}"
    );
    assert!(
        carol.contains("MISSED ERROR      Tests/bad_x.inp"),
        "{carol}"
    );
    // Not built, and its build printed nothing: the feedback says what the
    // submission holds, and names no log.
    let bob = fs::read_to_string(grades.join("bob.feedback.md")).unwrap();
    assert!(bob.contains("The build printed nothing."), "{bob}");
    assert!(bob.contains("- `notes.txt`"), "{bob}");
    assert!(!bob.contains("make.txt"), "{bob}");
    // The report ends with the score and what each class cost.
    assert!(
        carol.ends_with("score 40 of 100; lost: wrong verdict 36.66, missed error 21.67, format 1.67\n1 passed, 2 failed\n"),
        "{carol}"
    );
    // The submissions are as they were: built in copies.
    assert!(!subs.join("alice/puzzle").exists());
}

#[test]
fn the_fuzzer_finds_and_shrinks_a_wrong_verdict_in_process() {
    let scratch = Scratch::new("fuzz");
    // Right on bad input, 'solvable' to every good one.
    let runner = FakeRunner::new(|call: &Call| {
        let right = Reply::reference(call.stdin);
        if right.ending == Ending::Exited(0) {
            let mut out = right.out.clone();
            let cut = out.len()
                - if out.ends_with(b"unsolvable\n") {
                    11
                } else {
                    9
                };
            out.truncate(cut);
            out.extend_from_slice(b"solvable\n");
            Reply::exit(0, out)
        } else {
            right
        }
    });
    let work = scratch.join("work");
    fs::create_dir_all(&work).unwrap();
    let options = crate::probing::fuzz::Options {
        seed: 1,
        seconds: 1,
        inputs: None,
        into: scratch.join("found"),
        settings: Settings::default(),
        program: scratch.join("puzzle"),
    };
    // Fuzzed with no budget: its own time (or count) ends it.
    let fuzzed = |runner: &dyn Runner, options: &crate::probing::fuzz::Options| {
        let mut transcript = Vec::new();
        let summary = crate::probing::fuzz::fuzz(
            runner,
            options,
            &work,
            &mut transcript,
            &Budget::unlimited(),
        )
        .unwrap();
        (summary, transcript)
    };
    let (summary, transcript) = fuzzed(&runner, &options);
    let text = String::from_utf8(transcript).unwrap();
    assert_eq!(summary.found.len(), 1, "{text}");
    let found = &summary.found[0];
    assert_eq!(found.class, Class::WrongVerdict);
    assert_eq!(
        found.path.file_name().unwrap(),
        "unsol_2x2_wrong_verdict.inp",
        "{text}"
    );
    assert!(found.input.len() <= 20, "{text}");
    assert!(text.contains("1 fault found in"), "{text}");
    // The reference itself yields nothing, on 40 inputs: a count, not a
    // second of fuzzing (a second made 10 inputs or fewer on a fresh clone
    // at load 17, and the test failed).
    let right = FakeRunner::new(|call: &Call| Reply::reference(call.stdin));
    let counted = crate::probing::fuzz::Options {
        seconds: 600,
        inputs: Some(40),
        ..options
    };
    let (summary, _) = fuzzed(&right, &counted);
    assert!(summary.found.is_empty());
    assert_eq!(summary.inputs, 40);
}

#[test]
fn submissions_as_handed_in_are_unpacked_and_their_sources_found() {
    let scratch = Scratch::new("handed-in");
    let fixtures = few(&scratch, &[("sol_a.inp", b"1 2 3 b\n1 2 b 3\n")]);
    let zip = crate::intake::archive::tests::zip(&[
        ("ass1/", b"", 0o040755),
        ("ass1/Makefile", b"puzzle:\n", 0o100644),
        ("ass1/puzzle.c", b"", 0o100644),
    ]);
    let evil = crate::intake::archive::tests::zip(&[("../../x.c", b"", 0o100644)]);
    scratch.files("subs/zipped", &[("submission.zip", &zip)]);
    scratch.files("subs/evil", &[("submission.zip", &evil)]);
    scratch.files(
        "subs/nested",
        &[("ass1/src/puzzle.c", b""), ("README", b"")],
    );
    let path = tools(&scratch.join("bin"), &["make", "cc", "unzip"]).unwrap();
    // unzip unpacks what the archive lists (the fake writes it); make and cc
    // make an executable in the folder they run in; every puzzle is right.
    let runner = FakeRunner::new(|call: &Call| match call.name().as_str() {
        "unzip" => {
            // The archive, read-only, by its path in the build's copy;
            // the unpacking's work folder a fresh one of its own.
            let archive = PathBuf::from(call.args.last().unwrap());
            assert!(archive.ends_with("builds/zipped/submission.zip"));
            assert!(!call.dir().unwrap().starts_with(archive.parent().unwrap()));
            let dir = call.dir().unwrap();
            fs::create_dir_all(dir.join("ass1")).unwrap();
            fs::write(dir.join("ass1/Makefile"), "puzzle:\n").unwrap();
            fs::write(dir.join("ass1/puzzle.c"), "").unwrap();
            Reply::exit(0, "")
        }
        "make" | "cc" => {
            make_puzzle(call.dir().unwrap()).unwrap();
            Reply::exit(0, "")
        }
        "puzzle" => Reply::reference(call.stdin),
        other => panic!("ran {other}"),
    });
    let settings = Settings {
        path,
        ..Settings::default()
    };
    let (rows, _) = grade_all(&runner, &settings, &fixtures, &scratch, &[]);
    let notes: Vec<(&str, bool, &str)> = rows
        .iter()
        .map(|r| (r.name.shown(), r.marks.is_some(), r.note.as_str()))
        .collect();
    assert_eq!(
        notes,
        [
            (
                "evil",
                false,
                "submission.zip not unpacked: a path with '..' (../../x.c)"
            ),
            (
                "nested",
                true,
                "sources in ass1/src/; no Makefile: built with cc -O2 -o puzzle puzzle.c -lm"
            ),
            ("zipped", true, "unpacked submission.zip; sources in ass1/"),
        ]
    );
    assert!(rows[1].passed() && rows[2].passed());
    assert_eq!(runner.runs_of("unzip"), 1);
    // The refused one's feedback says why, and what it holds.
    let evil = fs::read_to_string(scratch.join("grades/evil.feedback.md")).unwrap();
    assert!(evil.contains("a path with '..'"), "{evil}");
    assert!(evil.contains("- `submission.zip`"), "{evil}");
    assert!(evil.contains("The build printed nothing."), "{evil}");
}

/// Every entry under `dir` (links not followed), by its path there.
fn entries_under(dir: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(list) = fs::read_dir(dir) {
        for entry in list.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().unwrap().is_dir() {
                let inner = entries_under(&entry.path());
                found.extend(inner.into_iter().map(|n| format!("{name}/{n}")));
            }
            found.push(name);
        }
    }
    found.sort();
    found
}

#[test]
fn what_an_unpacking_leaves_is_counted_on_disk_and_a_refused_one_leaves_nothing() {
    // Each zip lists one harmless file; the fake unzip, standing for a tool
    // the lister did not foresee, makes something else in its folder: a
    // FIFO and links beside sources, a path of 1,100 bytes, 1,001 files, or
    // 64 MiB until the sandbox stops it.
    let scratch = Scratch::new("unpacked-on-disk");
    let fixtures = few(&scratch, &[("sol_a.inp", b"1 2 3 b\n1 2 b 3\n")]);
    let zip = crate::intake::archive::tests::zip(&[("ass1/puzzle.c", b"", 0o100644)]);
    for name in ["crowd", "deep", "odd", "stopped"] {
        scratch.files(&format!("subs/{name}"), &[("submission.zip", &zip)]);
    }
    let path = tools(&scratch.join("bin"), &["make", "cc", "unzip"]).unwrap();
    let runner = FakeRunner::new(|call: &Call| match call.name().as_str() {
        "unzip" => {
            let dir = call.dir().unwrap();
            let archive = PathBuf::from(call.args.last().unwrap());
            let who = archive.parent().unwrap().file_name().unwrap();
            assert_eq!(call.limits.file_size, 64 << 20);
            let folder = call.limits.folder.expect("a bound on the folder");
            assert_eq!((folder.bytes, folder.entries), (64 << 20, 1000));
            fs::create_dir_all(dir.join("ass1")).unwrap();
            fs::write(dir.join("ass1/puzzle.c"), "").unwrap();
            match who.to_str().unwrap() {
                "odd" => {
                    let fifo = std::process::Command::new("mkfifo")
                        .arg(dir.join("ass1/notes.fifo"))
                        .status()
                        .unwrap();
                    assert!(fifo.success());
                    std::os::unix::fs::symlink("/etc/passwd", dir.join("ass1/link.c")).unwrap();
                    std::os::unix::fs::symlink("/etc", dir.join("etc")).unwrap();
                }
                "deep" => {
                    let deep = dir.join(format!("{}x.c", "d/".repeat(550)));
                    fs::create_dir_all(deep.parent().unwrap()).unwrap();
                    fs::write(deep, "").unwrap();
                }
                "crowd" => {
                    for i in 0..1000 {
                        fs::write(dir.join(format!("ass1/{i}.h")), "").unwrap();
                    }
                }
                _ => return Reply::ended(Ending::Signalled(25)),
            }
            Reply::exit(0, "")
        }
        "make" | "cc" => {
            make_puzzle(call.dir().unwrap()).unwrap();
            Reply::exit(0, "")
        }
        "puzzle" => Reply::reference(call.stdin),
        other => panic!("ran {other}"),
    });
    let settings = Settings {
        path,
        ..Settings::default()
    };
    let (rows, _) = grade_all(&runner, &settings, &fixtures, &scratch, &[]);
    let notes: Vec<(&str, bool, &str)> = rows
        .iter()
        .map(|r| (r.name.shown(), r.marks.is_some(), r.note.as_str()))
        .collect();
    let deep = format!("{}...", "d/".repeat(20));
    assert_eq!(
        notes,
        [
            (
                "crowd",
                false,
                "submission.zip not unpacked: it unpacked to more than 1000 entries"
            ),
            (
                "deep",
                false,
                &*format!("submission.zip not unpacked: a path longer than 1024 bytes ({deep})")
            ),
            (
                "odd",
                true,
                "unpacked submission.zip (left out: ass1/link.c (a symbolic link), \
                 ass1/notes.fifo (a FIFO), etc (a symbolic link)); sources in ass1/; \
                 no Makefile: built with cc -O2 -o puzzle puzzle.c -lm"
            ),
            (
                "stopped",
                false,
                "submission.zip not unpacked: it unpacked to more than 64 MiB"
            ),
        ]
    );
    // Nothing of a refused unpacking reached a build (no make, no cc but
    // odd's), and every fresh folder is gone.
    assert_eq!(runner.runs_of("make") + runner.runs_of("cc"), 1);
    assert_eq!(
        entries_under(&scratch.join("temp/unpack")),
        Vec::<String>::new()
    );
    assert_eq!(
        entries_under(&scratch.join("temp/builds")),
        Vec::<String>::new()
    );
}

#[test]
fn a_submission_folder_over_the_copys_bound_is_not_built() {
    let scratch = Scratch::new("copy-bound");
    let fixtures = few(&scratch, &[("sol_a.inp", b"1 2 3 b\n1 2 b 3\n")]);
    let many: Vec<(String, &[u8])> = (0..10_000).map(|i| (format!("t/{i}"), &b""[..])).collect();
    let many: Vec<(&str, &[u8])> = many.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    scratch.files("subs/many", &many);
    scratch.files("subs/many", &[("puzzle.c", b"")]);
    let path = tools(&scratch.join("bin"), &["make", "cc"]).unwrap();
    let runner = FakeRunner::new(|call: &Call| match call.name().as_str() {
        "puzzle" => Reply::reference(call.stdin),
        other => panic!("ran {other}"),
    });
    let settings = Settings {
        path,
        ..Settings::default()
    };
    let (rows, _) = grade_all(&runner, &settings, &fixtures, &scratch, &[]);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].note,
        "not copied: its folder holds more than 10000 entries"
    );
    assert!(rows[0].marks.is_none());
    let feedback = fs::read_to_string(scratch.join("grades/many.feedback.md")).unwrap();
    assert!(
        feedback.contains("Not built: not copied: its folder holds more than 10000 entries."),
        "{feedback}"
    );
}

#[test]
fn a_failure_under_an_address_space_limit_says_so_and_a_resident_one_does_not() {
    // A program that reserves more than it uses fails under an address-space
    // limit ("Memory not allocated."): its line says the limit was one.
    let scratch = Scratch::new("address-space");
    let fixtures = few(&scratch, &[("sol2_a.inp", b"1 2 3 b\n1 2 b 3\n")]);
    let settings = Settings::default();
    let grade = |reply: Reply| {
        let runner = FakeRunner::new(move |_: &Call| reply.clone());
        grade_program(
            &runner,
            &scratch.0.join("puzzle"),
            &fixtures,
            &settings,
            &scratch.0,
            &|_| {},
            &settings.budget(),
        )
        .unwrap()
        .remove(0)
        .judgement
    };
    let failed = Reply::exit(1, "Memory not allocated.\n");
    let Judgement::Noted(Class::FalseError, text) =
        grade(failed.clone().under_address_space_limit())
    else {
        panic!("not a false error");
    };
    assert!(
        text.ends_with(
            "[under an address-space memory limit of 1024 MiB here, not resident memory: a program that reserves more than it uses may fail for the limit alone]"
        ),
        "{text}"
    );
    let Judgement::Noted(Class::FalseError, text) = grade(failed) else {
        panic!("not a false error");
    };
    assert!(!text.contains("address-space"), "{text}");
    // A run that passes says nothing of it.
    let passed = grade(Reply::exit(0, "solvable\n").under_address_space_limit());
    assert!(!passed.fails(false), "{passed:?}");
    assert!(!format!("{passed:?}").contains("address-space"));
}

/// A run the memory limit stopped says how the limit was measured,
/// whichever level held it: the class is the same; what the run did after
/// (a crash the sampler did not see coming, or its kill) is not in the
/// report, which reads the same at every grading.
#[test]
fn a_run_stopped_by_the_memory_limit_says_how_it_was_measured() {
    let scratch = Scratch::new("memory-stop");
    let fixtures = few(&scratch, &[("sol2_a.inp", b"1 2 3 b\n1 2 b 3\n")]);
    let settings = Settings {
        memory: 64 << 20,
        ..Settings::default()
    };
    let grade = |reply: Reply| {
        let runner = FakeRunner::new(move |_: &Call| reply.clone());
        grade_program(
            &runner,
            &scratch.0.join("puzzle"),
            &fixtures,
            &settings,
            &scratch.0,
            &|_| {},
            &settings.budget(),
        )
        .unwrap()
        .remove(0)
        .judgement
    };
    let stopped = |held, peak, then| {
        grade(
            Reply::memory_stopped(MemoryStop { held, peak, then }).with_err("Segmentation fault\n"),
        )
    };
    assert_eq!(
        stopped(MemoryLimit::Sampled, Some(65 << 20), Some(Ending::Signalled(11))),
        Judgement::Noted(
            Class::MemoryLimit,
            "stopped by the memory limit (64 MiB of resident memory, sampled every 10 ms and at its high-water mark); stderr 'Segmentation fault'".into()
        )
    );
    assert_eq!(
        stopped(MemoryLimit::Cgroup, None, None),
        Judgement::Noted(
            Class::MemoryLimit,
            "stopped by the memory limit (64 MiB of resident memory, held by a memory cgroup); stderr 'Segmentation fault'".into()
        )
    );
    // Under an address-space limit, no word of a false error is added.
    let Judgement::Noted(Class::MemoryLimit, text) = stopped(
        MemoryLimit::AddressSpace,
        Some(63 << 20),
        Some(Ending::Exited(1)),
    ) else {
        panic!("not a memory limit");
    };
    assert_eq!(
        text,
        "stopped by the memory limit (64 MiB of address space (RLIMIT_AS): an allocation refused at it, most likely); stderr 'Segmentation fault'"
    );
}

#[test]
fn a_cap_on_timeouts_leaves_the_largest_fixtures_not_run() {
    let scratch = Scratch::new("max-timeouts");
    let fixtures = few(
        &scratch,
        &[
            ("sol2_a.inp", b"1 2 3 b\n1 2 b 3\n"),
            ("sol3_b.inp", b"1 2 3 4 5 6 7 8 b\n1 2 3 4 5 6 7 b 8\n"),
            ("unsol2_c.inp", b"2 1 3 b\n1 2 3 b\n"),
        ],
    );
    let settings = Settings {
        max_timeouts: Some(1),
        jobs: 1,
        ..Settings::default()
    };
    let runner = FakeRunner::new(|_: &Call| Reply::ended(Ending::TimedOut));
    let graded = grade_program(
        &runner,
        &scratch.0.join("puzzle"),
        &fixtures,
        &settings,
        &scratch.0,
        &|_| {},
        &settings.budget(),
    )
    .unwrap();
    // The smallest (the 2x2 boards) ran first: one timed out, the rest not
    // run; no run confirmed the timeout either (the cap counts every run).
    let shown: Vec<(&str, Option<Class>)> = fixtures
        .iter()
        .map(|f| f.shown.as_str())
        .zip(classes(&graded))
        .collect();
    assert_eq!(
        shown,
        [
            ("Tests/sol2_a.inp", Some(Class::Timeout)),
            ("Tests/sol3_b.inp", Some(Class::NotRun)),
            ("Tests/unsol2_c.inp", Some(Class::NotRun)),
        ]
    );
    assert_eq!(runner.runs_of("puzzle"), 1);
}

/// Grades `runner`'s program on two solvable fixtures with `settings`.
fn flaky_grading(
    runner: &FakeRunner<impl Fn(&Call) -> Reply + Sync>,
    settings: &Settings,
    name: &str,
) -> Vec<crate::judging::judge::Graded> {
    grading_until(runner, settings, name, &settings.budget())
}

/// [`flaky_grading`] in `budget`.
fn grading_until(
    runner: &FakeRunner<impl Fn(&Call) -> Reply + Sync>,
    settings: &Settings,
    name: &str,
    budget: &Budget,
) -> Vec<crate::judging::judge::Graded> {
    let scratch = Scratch::new(name);
    let fixtures = few(
        &scratch,
        &[
            ("sol_a.inp", b"1 2 3 b\n1 2 b 3\n"),
            ("sol_b.inp", b"1 2 3 b\n1 b 3 2\n"),
        ],
    );
    grade_program(
        runner,
        &scratch.0.join("puzzle"),
        &fixtures,
        settings,
        &scratch.0,
        &|_| {},
        budget,
    )
    .unwrap()
}

#[test]
fn a_timeout_every_second_run_is_flaky_and_marked_as_the_runs_that_finished() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let calls = AtomicUsize::new(0);
    // Odd calls time out; even ones answer.
    let runner = FakeRunner::new(|call: &Call| {
        if calls.fetch_add(1, Ordering::SeqCst).is_multiple_of(2) {
            Reply::ended(Ending::TimedOut)
        } else {
            Reply::reference(call.stdin)
        }
    });
    let settings = Settings {
        jobs: 1,
        ..Settings::default()
    };
    let graded = flaky_grading(&runner, &settings, "flaky-timeout");
    for g in &graded {
        assert_eq!(g.judgement, Judgement::Passed, "{g:?}");
        let flaky = g.flaky.as_deref().unwrap();
        assert!(
            flaky
                .starts_with("TIMEOUT in run 1, passed in run 2; marked as the runs that finished"),
            "{flaky}"
        );
    }
    assert_eq!(runner.runs_of("puzzle"), 4);
    // Without confirmation the first run stands.
    calls.store(0, Ordering::SeqCst);
    let settings = Settings {
        jobs: 1,
        confirm: 0,
        ..Settings::default()
    };
    let graded = flaky_grading(&runner, &settings, "flaky-unconfirmed");
    assert!(matches!(
        graded[0].judgement,
        Judgement::Noted(Class::Timeout, _)
    ));
    assert!(graded.iter().all(|g| g.flaky.is_none()));
}

#[test]
fn a_verdict_that_changes_every_run_is_flaky_and_marked_as_its_worst() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let calls = AtomicUsize::new(0);
    let runner = FakeRunner::new(|_: &Call| {
        let n = calls.fetch_add(1, Ordering::SeqCst);
        Reply::exit(
            0,
            if n.is_multiple_of(2) {
                "solvable\n"
            } else {
                "unsolvable\n"
            },
        )
    });
    // One run: no way to tell; three: the runs disagree.
    let once = Settings {
        jobs: 1,
        ..Settings::default()
    };
    assert!(flaky_grading(&runner, &once, "flaky-once")
        .iter()
        .all(|g| g.flaky.is_none()));
    let thrice = Settings {
        jobs: 1,
        repeat: 3,
        ..Settings::default()
    };
    let graded = flaky_grading(&runner, &thrice, "flaky-thrice");
    for g in &graded {
        assert!(
            matches!(g.judgement, Judgement::Noted(Class::WrongVerdict, _)),
            "{g:?}"
        );
        let flaky = g.flaky.as_deref().unwrap();
        assert!(flaky.contains("WRONG VERDICT in run"), "{flaky}");
        assert!(flaky.ends_with("marked as its worst run: a program whose outcome changes from run to run is at fault"), "{flaky}");
    }
}

#[test]
fn a_program_that_always_times_out_is_confirmed_three_times_then_believed() {
    let runner = FakeRunner::new(|_: &Call| Reply::ended(Ending::TimedOut));
    let scratch = Scratch::new("always-hangs");
    let files: Vec<(String, Vec<u8>)> = (0..6)
        .map(|i| (format!("sol_{i}.inp"), b"1 2 3 b\n1 2 b 3\n".to_vec()))
        .collect();
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let fixtures = few(&scratch, &refs);
    let settings = Settings {
        jobs: 1,
        ..Settings::default()
    };
    let graded = grade_program(
        &runner,
        &scratch.0.join("puzzle"),
        &fixtures,
        &settings,
        &scratch.0,
        &|_| {},
        &settings.budget(),
    )
    .unwrap();
    assert!(graded
        .iter()
        .all(|g| matches!(g.judgement, Judgement::Noted(Class::Timeout, _)) && g.flaky.is_none()));
    // Six fixtures; the first three confirmed by a second run each.
    assert_eq!(runner.runs_of("puzzle"), 6 + 3);
}

/// One run the fake program made: when it began (after the grading did),
/// its time limit, and whether its input was a fixture's.
#[derive(Debug)]
struct Seen {
    at: std::time::Duration,
    wall: std::time::Duration,
    fixture: bool,
}

/// The program `act` (told whether its input is one of the fixtures
/// `files`) graded and marked as `grade` and `grade-all` do
/// ([`crate::modes::grade::Grade::mark`]) with `settings`, fuzzed `fuzz`
/// seconds, its budget starting with it: each run it made, what it was
/// marked, and how long it all took.
fn marked_runs(
    name: &str,
    files: &[(&str, &[u8])],
    settings: &Settings,
    fuzz: Option<u64>,
    act: impl Fn(&Call, bool) -> Reply + Sync,
) -> (
    Vec<Seen>,
    crate::modes::grade::GradedProgram,
    std::time::Duration,
) {
    let scratch = Scratch::new(name);
    let fixtures = few(&scratch, files);
    let work = scratch.join("work");
    fs::create_dir_all(&work).unwrap();
    let began = std::time::Instant::now();
    let seen = std::sync::Mutex::new(Vec::new());
    let runner = FakeRunner::new(|call: &Call| {
        let fixture = files.iter().any(|(_, bytes)| *bytes == call.stdin);
        seen.lock().unwrap().push(Seen {
            at: began.elapsed(),
            wall: call.limits.wall,
            fixture,
        });
        act(call, fixture)
    });
    let marked = crate::modes::grade::Grade {
        runner: &runner,
        program: &scratch.join("puzzle"),
        settings,
        fixtures: &fixtures,
        work: &work,
        fuzz_seconds: fuzz,
        fuzz_into: &scratch.join("found"),
        deadline: settings.budget.map(|b| began + b),
        done: &|_| {},
    }
    .mark()
    .unwrap();
    (seen.into_inner().unwrap(), marked, began.elapsed())
}

/// Every run of `seen` began within `budget`, and was given no more time
/// than was left of it then (a quarter of a second for the machine).
fn all_within(seen: &[Seen], budget: std::time::Duration) {
    let slack = std::time::Duration::from_millis(250);
    for run in seen {
        assert!(
            run.at < budget + slack && run.at + run.wall <= budget + slack,
            "{run:?} past a budget of {budget:?}: {seen:?}"
        );
    }
}

/// Small fixtures the experiments have a cause to try on.
const FOUR: [(&str, &[u8]); 4] = [
    ("sol2_a.inp", b"1 2 3 b\n1 2 b 3\n"),
    ("unsol2_b.inp", b"2 1 3 b\n1 2 3 b\n"),
    ("sol3_c.inp", b"1 2 3 4 5 6 7 8 b\n1 2 3 4 5 6 7 b 8\n"),
    ("unsol3_d.inp", b"2 1 3 4 5 6 7 8 b\n1 2 3 4 5 6 7 8 b\n"),
];

/// The reference's answer with its verdict turned round.
fn wrong_verdict(stdin: &[u8]) -> Reply {
    let right = Reply::reference(stdin);
    let out = String::from_utf8_lossy(&right.out);
    let turned = if out.ends_with("unsolvable\n") {
        out.replace("unsolvable\n", "solvable\n")
    } else {
        out.replace("solvable\n", "unsolvable\n")
    };
    Reply::exit(0, turned)
}

/// The program graded and marked in a budget of 2 s (and `settings`),
/// fuzzed `fuzz` seconds: on the fixtures it answers as `on_fixtures` says,
/// at once; on any other input (the experiments', the fuzzer's) it hangs.
/// Every run began within the budget and was given no more than was left
/// of it, it all took little more, and the time of every run is the
/// report's (and the row's). What it was marked.
fn held_by_the_budget(
    name: &str,
    settings: Settings,
    fuzz: Option<u64>,
    on_fixtures: fn(&[u8]) -> Reply,
) -> crate::modes::grade::GradedProgram {
    let budget = std::time::Duration::from_secs(2);
    let settings = Settings {
        jobs: 1,
        budget: Some(budget),
        ..settings
    };
    let (seen, marked, took) = marked_runs(name, &FOUR, &settings, fuzz, |call, fixture| {
        if fixture {
            on_fixtures(call.stdin)
        } else {
            answer_after(call, std::time::Duration::from_secs(60))
        }
    });
    assert!(seen.iter().any(|r| !r.fixture), "no input made: {seen:?}");
    all_within(&seen, budget);
    let slack = std::time::Duration::from_millis(1500);
    assert!(took < budget + slack, "{took:?}");
    assert!(
        marked.counts.total >= std::time::Duration::from_millis(1500),
        "{:?}",
        marked.counts.total
    );
    marked
}

#[test]
fn the_experiments_runs_are_cut_to_the_budget_and_counted_in_its_time() {
    // Wrong on every fixture: the experiments try causes, and hang.
    let marked = held_by_the_budget(
        "budget-experiments",
        Settings::default(),
        None,
        wrong_verdict,
    );
    assert!(marked.causes.confirmed.is_empty());
}

#[test]
fn the_fuzzings_runs_are_cut_to_the_budget_and_it_says_why_it_stopped() {
    // Right on every fixture: no experiment; the fuzzing hangs.
    let marked = held_by_the_budget(
        "budget-fuzz",
        Settings::default(),
        Some(30),
        Reply::reference,
    );
    assert_eq!(marked.fuzzed, Some(0));
    let report = String::from_utf8_lossy(&marked.report);
    let stopped = "; stopped: the submission's time budget (2 s, --budget) was spent)";
    assert!(report.contains(stopped), "{report}");
}

#[test]
fn after_k_timeouts_of_any_run_no_other_starts() {
    // No budget of time; a cap of two timeouts, which the experiments'
    // runs reach: then neither they nor the fuzzing run again.
    let settings = Settings {
        jobs: 1,
        timeout: Some(1),
        max_timeouts: Some(2),
        ..Settings::default()
    };
    let (seen, marked, _) =
        marked_runs("budget-cap", &FOUR, &settings, Some(30), |call, fixture| {
            if fixture {
                wrong_verdict(call.stdin)
            } else {
                answer_after(call, std::time::Duration::from_secs(60))
            }
        });
    let probes = seen.iter().filter(|r| !r.fixture).count();
    assert_eq!(probes, 2, "{seen:?}");
    assert_eq!(marked.fuzzed, None);
    assert!(marked.counts.total >= std::time::Duration::from_secs(2));
}

/// `fixtures` graded with `settings` by a program that answers right after
/// `need` a run: the results, and how many runs it made.
fn graded_after(
    scratch: &Scratch,
    fixtures: &[Fixture],
    settings: &Settings,
    need: std::time::Duration,
) -> (Vec<crate::judging::judge::Graded>, usize) {
    let runner = FakeRunner::new(|call: &Call| answer_after(call, need));
    let graded = grade_program(
        &runner,
        &scratch.0.join("puzzle"),
        fixtures,
        settings,
        &scratch.0,
        &|_| {},
        &settings.budget(),
    )
    .unwrap();
    (graded, runner.runs_of("puzzle"))
}

#[test]
fn a_run_the_budget_cuts_is_left_out_of_its_fixtures_runs() {
    // Three runs a fixture, each 0.7 s, in a budget of 1 s: the first
    // fixture passed once, its second run cut (it says nothing of the
    // program: no FLAKY, no NOT RUN); the second fixture had no run.
    let scratch = Scratch::new("budget-repeat");
    let fixtures = few(&scratch, &FOUR[2..]);
    let settings = Settings {
        jobs: 1,
        repeat: 3,
        budget: Some(std::time::Duration::from_secs(1)),
        ..Settings::default()
    };
    let (graded, runs) = graded_after(
        &scratch,
        &fixtures,
        &settings,
        std::time::Duration::from_millis(700),
    );
    assert_eq!(graded[0].judgement, Judgement::Passed, "{graded:?}");
    assert_eq!(graded[0].flaky, None);
    assert!(matches!(
        graded[1].judgement,
        Judgement::Noted(Class::NotRun, _)
    ));
    assert_eq!(runs, 2);

    // A timeout's confirmation cut by the budget: left out, the timeout
    // stands as it was (not NOT RUN, not FLAKY).
    let settings = Settings {
        jobs: 1,
        timeout: Some(1),
        budget: Some(std::time::Duration::from_millis(1500)),
        ..Settings::default()
    };
    let (graded, runs) = graded_after(
        &scratch,
        &fixtures[..1],
        &settings,
        std::time::Duration::from_secs(60),
    );
    assert!(
        matches!(graded[0].judgement, Judgement::Noted(Class::Timeout, _)),
        "{graded:?}"
    );
    assert_eq!(graded[0].flaky, None);
    assert_eq!(runs, 2);
}

/// A run of the reference's answer that takes `need`.
fn answer_after(call: &Call, need: std::time::Duration) -> Reply {
    Reply::taking(call, need, Reply::reference(call.stdin))
}

/// A run stopped at its limit before it had its time is the machine's: it
/// is run again once the machine is quieter, and when that run is starved
/// too, the fixture is NOT GRADED, the machine's, its points kept; a run
/// that had its time, its waits made up, is a TIMEOUT.
#[test]
fn a_run_starved_of_its_time_is_run_again_then_left_not_graded_the_machines() {
    let settings = Settings {
        jobs: 1,
        ..Settings::default()
    };
    let starved = FakeRunner::new(|call: &Call| Reply::starved(call.limits));
    let graded = flaky_grading(&starved, &settings, "starved");
    for g in &graded {
        let Judgement::Noted(Class::NotGraded, text) = &g.judgement else {
            panic!("{g:?}");
        };
        assert!(
            text.starts_with("the machine's, not the program's: stopped at its time limit (11 s) before it had its time: 2.20 s of its own time, 41.80 s waiting for a core, 44.00 s on the clock; then, after "),
            "{text}"
        );
        assert!(
            text.contains(" s waiting for a quieter machine, 2.20 s of its own time, "),
            "{text}"
        );
        assert!(
            text.ends_with("no marks lost: grade it again on a quieter machine"),
            "{text}"
        );
        assert!(g.flaky.is_none());
    }
    // Each fixture run twice, and no confirmation of a TIMEOUT.
    assert_eq!(starved.runs_of("puzzle"), 4);
    let scratch = Scratch::new("starved-score");
    let fixtures = few(&scratch, &[("sol_a.inp", b"1 2 3 b\n1 2 b 3\n")]);
    let score = settings.scheme.score(&fixtures, &graded[..1]);
    assert_eq!(score.total, score.max);

    // Starved once, then its time: judged on the run that had it.
    use std::sync::atomic::{AtomicUsize, Ordering};
    let calls = AtomicUsize::new(0);
    let once = FakeRunner::new(|call: &Call| {
        if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            Reply::starved(call.limits)
        } else {
            Reply::reference(call.stdin)
        }
    });
    let graded = flaky_grading(&once, &settings, "starved-once");
    assert!(graded
        .iter()
        .all(|g| g.judgement == Judgement::Passed && g.flaky.is_none()));
    assert_eq!(once.runs_of("puzzle"), 3);

    // Its waits made up, it had its time: a TIMEOUT, confirmed as ever.
    let made_up = FakeRunner::new(|call: &Call| Reply::timed_out_made_up(call.limits));
    let graded = flaky_grading(&made_up, &settings, "made-up");
    assert!(graded
        .iter()
        .all(|g| matches!(g.judgement, Judgement::Noted(Class::Timeout, _))));
    assert_eq!(made_up.runs_of("puzzle"), 4);
}

/// Every run of a fixture has its waits for a core made up, three limits
/// more, and no more than the budget leaves.
#[test]
fn every_run_may_make_up_its_waits_within_the_budget() {
    let seen = std::sync::Mutex::new(Vec::new());
    let runner = FakeRunner::new(|call: &Call| {
        seen.lock()
            .unwrap()
            .push((call.limits.wall, call.limits.make_up));
        Reply::reference(call.stdin)
    });
    let settings = Settings {
        jobs: 1,
        timeout: Some(2),
        ..Settings::default()
    };
    flaky_grading(&runner, &settings, "made-up-limits");
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    assert!(seen.iter().all(
        |&(wall, make_up)| wall == Duration::from_secs(2) && make_up == Duration::from_secs(6)
    ));
    // A budget that ends in 5 s: no run may go past it.
    let runner = FakeRunner::new(|call: &Call| {
        assert!(call.limits.wall + call.limits.make_up <= Duration::from_secs(5));
        Reply::reference(call.stdin)
    });
    let five = Duration::from_secs(5);
    let budget = Budget::new(Some(five), None);
    let graded = grading_until(&runner, &settings, "made-up-budget", &budget);
    assert_eq!(graded[0].judgement, Judgement::Passed);
}
