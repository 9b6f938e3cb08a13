//! Marks: a marking scheme (points per part, fixture weights, visibility and
//! time limits by name pattern), read from a plain text file, and the score
//! it gives a graded program.
//!
//! The file (an example with every key: `examples/marking-scheme.txt`):
//!
//! ```text
//! # Points of each part, shared among the fixtures it applies to by weight.
//! [points]
//! verdict = 70       # sol* and unsol*: the right verdict
//! rejection = 20     # bad*: rejected, with a message on stdout
//! exit-status = 5    # every fixture: the status the assignment asks for
//! format = 5         # every fixture: the reference's bytes
//!
//! # Fixtures whose path matches (`*` any run of bytes, `?` one); later
//! # sections win over earlier ones.
//! [fixtures Tests/sol257*]
//! weight = 3
//! visibility = after_due_date   # visible, after_due_date or hidden
//! time-limit = 60               # seconds
//! ```

use super::fixture::{Category, Fixture};
use super::judge::Graded;
use super::judge::{Class, Judgement};
use std::fmt;

/// The parts a fixture's points come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The verdict of a good board.
    Verdict,
    /// The rejection of a bad board, with a message on stdout.
    Rejection,
    /// The exit status.
    ExitStatus,
    /// The bytes of the reference.
    Format,
}

impl Part {
    /// Every part, in the scheme's order.
    pub const ALL: [Part; 4] = [
        Part::Verdict,
        Part::Rejection,
        Part::ExitStatus,
        Part::Format,
    ];

    /// Its key in a scheme file.
    pub fn key(self) -> &'static str {
        match self {
            Part::Verdict => "verdict",
            Part::Rejection => "rejection",
            Part::ExitStatus => "exit-status",
            Part::Format => "format",
        }
    }

    /// Whether it applies to a fixture of `category`.
    pub fn applies_to(self, category: Category) -> bool {
        match self {
            Part::Verdict => category != Category::Bad,
            Part::Rejection => category == Category::Bad,
            Part::ExitStatus | Part::Format => true,
        }
    }

    /// Whether a fixture judged so earns it.
    pub fn earned(self, judgement: &Judgement) -> bool {
        let class = match judgement {
            Judgement::Passed | Judgement::Message(_) => return true,
            Judgement::Noted(class, _) => *class,
        };
        // A run that did not end by itself, or did not run, earns nothing.
        if matches!(
            class,
            Class::Timeout
                | Class::MemoryLimit
                | Class::ProcessLimit
                | Class::Crash
                | Class::NotRun
        ) {
            return false;
        }
        match self {
            Part::Verdict => !matches!(class, Class::WrongVerdict | Class::FalseError),
            Part::Rejection => !matches!(
                class,
                Class::MissedError | Class::ErrorOnStderr | Class::NoMessage
            ),
            Part::ExitStatus => class != Class::WrongExitStatus,
            Part::Format => class == Class::Open,
        }
    }
}

/// Who may see a fixture's result (Gradescope's words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// The student sees it at once.
    Visible,
    /// After the due date.
    AfterDueDate,
    /// Only the marker.
    Hidden,
}

impl Visibility {
    /// Its word in a scheme file and in Gradescope's results.
    pub fn word(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::Hidden => "hidden",
        }
    }
}

/// What a section `[fixtures PATTERN]` sets.
#[derive(Clone, Debug, Default, PartialEq)]
struct Override {
    pattern: String,
    weight: Option<f64>,
    visibility: Option<Visibility>,
    time_limit: Option<u64>,
}

/// A marking scheme.
#[derive(Clone, Debug, PartialEq)]
pub struct Scheme {
    /// Points of each part, in [`Part::ALL`]'s order.
    pub points: [f64; 4],
    overrides: Vec<Override>,
}

impl Default for Scheme {
    /// Verdicts 70, rejections 20, exit status 5, format 5; every fixture
    /// of weight 1, visible, with the grader's time limit.
    fn default() -> Scheme {
        Scheme {
            points: [70.0, 20.0, 5.0, 5.0],
            overrides: Vec::new(),
        }
    }
}

/// A fault in a scheme file: its line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemeError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for SchemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

/// Whether `text` matches `pattern` (`*` any run of bytes, `?` one byte).
pub fn matches(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&b| b == b'*')
}

impl Scheme {
    /// Reads a scheme: `[points]` and `[fixtures PATTERN]` sections of
    /// `key = value` lines; `#` starts a comment; blank lines are skipped.
    pub fn parse(text: &str) -> Result<Scheme, SchemeError> {
        let mut scheme = Scheme::default();
        let mut section: Option<Option<usize>> = None;
        for (i, raw) in text.lines().enumerate() {
            let err = |what: String| SchemeError { line: i + 1, what };
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let inner = inner.trim();
                if inner == "points" {
                    section = Some(None);
                } else if let Some(pattern) = inner.strip_prefix("fixtures") {
                    let pattern = pattern.trim().trim_matches('"');
                    if pattern.is_empty() {
                        return Err(err(
                            "[fixtures] needs a pattern: [fixtures Tests/sol*]".into()
                        ));
                    }
                    scheme.overrides.push(Override {
                        pattern: pattern.into(),
                        ..Override::default()
                    });
                    section = Some(Some(scheme.overrides.len() - 1));
                } else {
                    return Err(err(format!(
                        "unknown section [{inner}] (there are [points] and [fixtures PATTERN])"
                    )));
                }
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(err(format!("'{line}' is not 'key = value'")));
            };
            let (key, value) = (key.trim(), value.trim());
            let number = || -> Result<f64, SchemeError> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| err(format!("{key} = {value}: not a number of 0 or more")))
            };
            match section {
                None => return Err(err(format!("'{key}' before any section"))),
                Some(None) => {
                    let Some(part) = Part::ALL.iter().position(|p| p.key() == key) else {
                        return Err(err(format!(
                            "unknown part '{key}' (verdict, rejection, exit-status, format)"
                        )));
                    };
                    scheme.points[part] = number()?;
                }
                Some(Some(at)) => {
                    let o = &mut scheme.overrides[at];
                    match key {
                        "weight" => o.weight = Some(number()?),
                        "time-limit" => {
                            let seconds = value.parse::<u64>().ok().filter(|&s| s >= 1);
                            o.time_limit = Some(seconds.ok_or_else(|| {
                                err(format!(
                                    "time-limit = {value}: not a whole number of seconds"
                                ))
                            })?);
                        }
                        "visibility" => {
                            o.visibility = Some(match value {
                                "visible" => Visibility::Visible,
                                "after_due_date" => Visibility::AfterDueDate,
                                "hidden" => Visibility::Hidden,
                                _ => {
                                    return Err(err(format!(
                                    "visibility = {value}: not visible, after_due_date or hidden"
                                )))
                                }
                            })
                        }
                        _ => {
                            return Err(err(format!(
                                "unknown key '{key}' (weight, visibility, time-limit)"
                            )))
                        }
                    }
                }
            }
        }
        Ok(scheme)
    }

    /// The last value an override matching `fixture` sets with `get`.
    fn setting<T>(&self, fixture: &Fixture, get: impl Fn(&Override) -> Option<T>) -> Option<T> {
        self.overrides
            .iter()
            .rev()
            .filter(|o| matches(&o.pattern, &fixture.shown))
            .find_map(get)
    }

    /// A fixture's weight (1 unless set).
    pub fn weight(&self, fixture: &Fixture) -> f64 {
        self.setting(fixture, |o| o.weight).unwrap_or(1.0)
    }

    /// Who may see a fixture's result.
    pub fn visibility(&self, fixture: &Fixture) -> Visibility {
        self.setting(fixture, |o| o.visibility)
            .unwrap_or(Visibility::Visible)
    }

    /// A fixture's own time limit in seconds, if the scheme sets one.
    pub fn time_limit(&self, fixture: &Fixture) -> Option<u64> {
        self.setting(fixture, |o| o.time_limit)
    }

    /// Each fixture's points and maximum, and the total score and maximum,
    /// for a program graded so. A fixture that was not graded (misnamed)
    /// counts for nothing.
    pub fn score(&self, fixtures: &[Fixture], graded: &[Graded]) -> Score {
        let counts = |f: &Fixture| !matches!(f.allowed, super::fixture::Allowed::NotGraded(_));
        let mut totals = [0.0; 4];
        for f in fixtures.iter().filter(|f| counts(f)) {
            for (i, part) in Part::ALL.iter().enumerate() {
                if part.applies_to(f.named) {
                    totals[i] += self.weight(f);
                }
            }
        }
        let mut per_fixture = Vec::with_capacity(fixtures.len());
        for (f, g) in fixtures.iter().zip(graded) {
            let (mut points, mut max) = (0.0, 0.0);
            if counts(f) {
                for (i, part) in Part::ALL.iter().enumerate() {
                    if part.applies_to(f.named) && totals[i] > 0.0 {
                        let share = self.points[i] * self.weight(f) / totals[i];
                        max += share;
                        if part.earned(&g.judgement) {
                            points += share;
                        }
                    }
                }
            }
            per_fixture.push((points, max));
        }
        let total = per_fixture.iter().map(|p| p.0).sum();
        let max = per_fixture.iter().map(|p| p.1).sum();
        Score {
            per_fixture,
            total,
            max,
        }
    }
}

/// What a scheme gives a graded program.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// Each fixture's points and maximum.
    pub per_fixture: Vec<(f64, f64)>,
    /// The total.
    pub total: f64,
    /// The most it could have been.
    pub max: f64,
}

/// Points as a report shows them: at most two decimals, no trailing zeros.
pub fn points(value: f64) -> String {
    let text = format!("{:.2}", (value * 100.0).round() / 100.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text.is_empty() || text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Allowed;
    use std::path::PathBuf;

    fn fixture(shown: &str) -> Fixture {
        let named = Category::of_name(shown.rsplit('/').next().unwrap());
        Fixture {
            shown: shown.into(),
            path: PathBuf::from(shown),
            size: 1,
            named,
            allowed: Allowed::Only(named),
            choices: Vec::new(),
            expected: Vec::new(),
        }
    }

    fn graded(judgement: Judgement) -> Graded {
        Graded {
            judgement,
            time: None,
        }
    }

    #[test]
    fn patterns_match_with_stars_and_question_marks() {
        assert!(matches("Tests/sol*", "Tests/sol4_x.inp"));
        assert!(matches("*_x.inp", "Tests/sol4_x.inp"));
        assert!(matches("Tests/sol?_x*", "Tests/sol4_x.inp"));
        assert!(!matches("Tests/unsol*", "Tests/sol4_x.inp"));
        assert!(matches("*", ""));
    }

    #[test]
    fn a_scheme_file_is_read_with_its_faults_named_by_line() {
        let scheme = Scheme::parse(
            "# marks\n[points]\nverdict = 60 # the verdict\nformat=15\n\n[fixtures Tests/sol2*]\nweight = 2\nvisibility = hidden\ntime-limit = 30\n",
        )
        .unwrap();
        assert_eq!(scheme.points, [60.0, 20.0, 5.0, 15.0]);
        let f = fixture("Tests/sol257.inp");
        assert_eq!(scheme.weight(&f), 2.0);
        assert_eq!(scheme.visibility(&f), Visibility::Hidden);
        assert_eq!(scheme.time_limit(&f), Some(30));
        assert_eq!(scheme.weight(&fixture("Tests/sol3.inp")), 1.0);
        let error = |text: &str| Scheme::parse(text).unwrap_err().to_string();
        assert_eq!(
            error("[points]\nverdicts = 1\n"),
            "line 2: unknown part 'verdicts' (verdict, rejection, exit-status, format)"
        );
        assert_eq!(
            error("\nweight = 1\n"),
            "line 2: 'weight' before any section"
        );
        assert_eq!(
            error("[fixtures x]\nvisibility = never\n"),
            "line 2: visibility = never: not visible, after_due_date or hidden"
        );
        assert_eq!(
            error("[points]\nformat = -1\n"),
            "line 2: format = -1: not a number of 0 or more"
        );
    }

    #[test]
    fn the_default_scheme_shares_100_points_and_a_wrong_verdict_loses_its_share() {
        let fixtures = [
            fixture("Tests/bad_a"),
            fixture("Tests/sol_b"),
            fixture("Tests/unsol_c"),
        ];
        let all_right = [
            graded(Judgement::Message("x".into())),
            graded(Judgement::Passed),
            graded(Judgement::Passed),
        ];
        let scheme = Scheme::default();
        let score = scheme.score(&fixtures, &all_right);
        assert_eq!(points(score.total), "100");
        assert_eq!(points(score.max), "100");
        let wrong = [
            graded(Judgement::Message("x".into())),
            graded(Judgement::Passed),
            graded(Judgement::Noted(Class::WrongVerdict, String::new())),
        ];
        let score = scheme.score(&fixtures, &wrong);
        // Half the verdicts (35) and a third of the format (5/3) are lost.
        assert_eq!(points(score.total), "63.33");
        assert_eq!(points(score.per_fixture[2].0), "1.67");
        assert_eq!(points(score.per_fixture[2].1), "38.33");
    }
}
