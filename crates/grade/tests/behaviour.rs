//! Behaviour as evidence of copying (issue 49): a class graded by
//! `grade-all` (which compares it too, unless `--no-similarity`), then
//! compared by `similar --grades`. Two programs that give the same rare wrong answer score a
//! behaviour above 0; two programs right on every fixture score 0 (right
//! answers are no evidence), whatever their code shares.

use crate::common;

use common::grader;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Seven submissions of `tests/grading/checker.c`: two right (`ann`,
/// `amy`), two that forget the blank's row on even boards (`bob`, `bea`:
/// the same wrong verdict on the fixture where the row decides, which
/// no other program gives), three wrong each its own way, and one that
/// does not compile.
const CLASS: [(&str, &str); 8] = [
    ("ann", ""),
    ("amy", ""),
    ("bob", "#define NO_ROW_TERM\n"),
    ("bea", "#define NO_ROW_TERM\n"),
    ("dan", "#define ERRORS_TO_STDERR\n"),
    ("eve", "#define ECHO_FIRST\n"),
    ("gus", "#define ERROR_STATUS 0\n"),
    ("cat", "#define BROKEN\n"),
];

/// `similarity.csv`'s `behaviour` column by pair (`a`, `b` as written).
fn behaviour(csv: &str) -> BTreeMap<(String, String), Option<f64>> {
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("a,b,score,code,behaviour,matched,blocks")
    );
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let name = |i: usize| cells[i].trim_matches('"').to_string();
            ((name(0), name(1)), cells[4].parse().ok())
        })
        .collect()
}

/// `puzzle-grade ARGS...` in `dir`, which succeeds.
fn succeeds(dir: &Path, args: &[&str]) {
    let out = grader(dir, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `grade-all subs` into `grades` with `args`: its output.
fn graded_with(dir: &Path, args: &[&str]) -> std::process::Output {
    let base = [
        "grade-all",
        "subs",
        "--time-limit",
        "5",
        "--jobs",
        "2",
        "--grades",
        "grades",
    ];
    let out = grader(dir, &[&base[..], args].concat());
    assert!(
        matches!(out.status.code(), Some(0 | 1 | 3)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn a_shared_rare_wrong_answer_is_evidence_and_right_answers_are_none() {
    let dir = common::class_folder("behaviour-class", &common::FIVE_FIXTURES, &CLASS);
    graded_with(&dir, &[]);
    // Every fixture's line records what its run did.
    let jsonl = fs::read_to_string(dir.join("grades/summary.jsonl")).unwrap();
    assert!(
        jsonl
            .lines()
            .filter(|l| l.contains("\"ann\""))
            .all(|l| l.matches("\"output_fnv1a\": \"").count() == 5),
        "{jsonl}"
    );
    succeeds(
        &dir,
        &["similar", "subs", "--out", "sim", "--grades", "grades"],
    );
    let found = behaviour(&fs::read_to_string(dir.join("sim/similarity.csv")).unwrap());
    let of = |a: &str, b: &str| found.get(&(a.to_string(), b.to_string())).copied();
    let shared = of("bea", "bob").flatten().unwrap_or(0.0);
    assert!(shared > 0.0, "{found:?}");
    // Both right on every fixture: listed for their code, behaviour 0.
    assert_eq!(of("amy", "ann"), Some(Some(0.0)), "{found:?}");
    // Wrong each its own way: no evidence either.
    assert_eq!(of("dan", "eve").flatten().unwrap_or(0.0), 0.0, "{found:?}");
    // grade-all made the same comparison into its grades folder.
    assert_eq!(
        fs::read_to_string(dir.join("grades/similarity.csv")).unwrap(),
        fs::read_to_string(dir.join("sim/similarity.csv")).unwrap()
    );
    // The class page's section: the distribution, the pairs worth a look
    // linked to their pages, the groups (the class is one program's
    // variants: all linked).
    let index = fs::read_to_string(dir.join("grades/index.html")).unwrap();
    let section = &index[index.find("<section id=\"similarity\">").expect(&index)..];
    assert!(
        section.contains("<caption>Pairs by score</caption>"),
        "{section}"
    );
    assert!(
        section.contains("<h3>Groups of three or more</h3>\n<p>Submissions linked"),
        "{section}"
    );
    assert!(section.contains("<li>amy, ann, bea, bob"), "{section}");
    assert!(
        section.contains("href=\"similarity/bea%2Bbob.html\""),
        "{section}"
    );
    assert!(index.ends_with("</section>\n</main>\n</body>\n</html>\n"));
    assert!(index.contains("<a href=\"#similarity\">Similarity</a></nav>"));
    // The page of bea and bob shows the rare wrong answer they share:
    // how many gave it and the right one, and what each wrote.
    let page = fs::read_to_string(dir.join("grades/similarity/bea+bob.html")).unwrap();
    let answers = &page[page.find("<h2>Wrong answers they share</h2>").expect(&page)..];
    // The fixture only they two of the seven that ran it got wrong so;
    // ann and amy (at least) right.
    assert!(
        answers.contains("<td class=\"n\">2 of 7</td>") && answers.contains("WRONG VERDICT: "),
        "{answers}"
    );
    assert!(answers.contains(" of 7</td><td class=\"n\">"), "{answers}");
    assert!(
        answers.matches("<small>stdout:</small> <code").count() >= 2,
        "{answers}"
    );
    // Every writer of the class page keeps the section while the grades
    // folder has similarity.csv: gradebook, --only, and similar writing
    // into the grading.
    let section_of = |dir: &Path| {
        let index = fs::read_to_string(dir.join("grades/index.html")).unwrap();
        index
            .find("<section id=\"similarity\">")
            .map(|at| index[at..].to_string())
    };
    let before = section_of(&dir).unwrap();
    fs::write(dir.join("roster.csv"), "folder,id,name\nann,z1,Ann\n").unwrap();
    succeeds(&dir, &["gradebook", "grades", "--roster", "roster.csv"]);
    assert_eq!(section_of(&dir).as_ref(), Some(&before));
    graded_with(&dir, &["--only", "gus"]);
    assert_eq!(section_of(&dir).as_ref(), Some(&before));
    succeeds(
        &dir,
        &["similar", "subs", "--out", "grades", "--grades", "grades"],
    );
    assert_eq!(section_of(&dir).as_ref(), Some(&before));
    // Without similarity.csv, no section, whoever writes the page.
    fs::remove_file(dir.join("grades/similarity.csv")).unwrap();
    succeeds(&dir, &["gradebook", "grades", "--roster", "roster.csv"]);
    assert_eq!(section_of(&dir), None);
    // A late submission graded alone (--only): compared against the index
    // the grading kept, the class not read again, and the same files as a
    // comparison of the whole class with the grading.
    let prelude = "#define NO_ROW_TERM\n/* hal's own copy */\n";
    common::submissions_in(&dir.join("subs"), &[("hal", prelude)]);
    let out = graded_with(&dir, &["--only", "hal"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "similarity: {} submissions compared ({} as kept in similarity.index: not read again), ",
            CLASS.len() + 1,
            CLASS.len()
        )),
        "{stderr}"
    );
    succeeds(
        &dir,
        &["similar", "subs", "--out", "whole", "--grades", "grades"],
    );
    for file in [
        "similarity.csv",
        "similarity-blocks.csv",
        "similarity.index",
    ] {
        assert_eq!(
            fs::read(dir.join("grades").join(file)).unwrap(),
            fs::read(dir.join("whole").join(file)).unwrap(),
            "{file}"
        );
    }
    let late = behaviour(&fs::read_to_string(dir.join("grades/similarity.csv")).unwrap());
    assert!(
        late.get(&("bob".to_string(), "hal".to_string()))
            .copied()
            .flatten()
            .unwrap_or(0.0)
            > 0.0,
        "{late:?}"
    );
    // Without the grading, the behaviour is empty.
    succeeds(&dir, &["similar", "subs", "--out", "code"]);
    let code = behaviour(&fs::read_to_string(dir.join("code/similarity.csv")).unwrap());
    assert!(code.values().all(Option::is_none), "{code:?}");
    // --no-similarity: none.
    fs::remove_dir_all(dir.join("grades")).unwrap();
    graded_with(&dir, &["--no-similarity"]);
    assert!(dir.join("grades/summary.jsonl").exists());
    assert!(!dir.join("grades/similarity.csv").exists());
    let index = fs::read_to_string(dir.join("grades/index.html")).unwrap();
    assert!(!index.contains("id=\"similarity\""));
}
