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

use crate::judging::class::{Class, Part};
use crate::judging::fixture::Fixture;
use crate::judging::judge::Graded;
use crate::judging::judge::Judgement;
use crate::shared::error::Refused;

/// Whether a fixture judged `judgement` earns `part` of its points: a
/// pass earns them all, a class what its row does not cost
/// ([`Class::earns`]).
pub fn earns(part: Part, judgement: &Judgement) -> bool {
    match judgement {
        Judgement::Passed | Judgement::Message(_) => true,
        Judgement::Noted(class, _) => class.earns(part),
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

    /// The visibility of the word `word` ([`Visibility::word`]).
    pub fn parse(word: &str) -> Option<Visibility> {
        [
            Visibility::Visible,
            Visibility::AfterDueDate,
            Visibility::Hidden,
        ]
        .into_iter()
        .find(|v| v.word() == word)
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
    /// Points of each part: verdicts, rejections, exit status, format.
    pub points: [f64; 4],
    overrides: Vec<Override>,
}

impl Scheme {
    /// Its parts' points in words, as `--scheme`'s help gives the
    /// default's: `verdicts 70, rejections 20, exit status 5, format 5`.
    pub fn points_in_words(&self) -> String {
        const WORDS: [&str; 4] = ["verdicts", "rejections", "exit status", "format"];
        WORDS
            .iter()
            .zip(self.points)
            .map(|(part, value)| format!("{part} {}", points(value)))
            .collect::<Vec<_>>()
            .join(", ")
    }
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
    pub fn parse(text: &str) -> Result<Scheme, Refused> {
        let mut scheme = Scheme::default();
        let mut section: Option<Option<usize>> = None;
        for (i, raw) in text.lines().enumerate() {
            let err = |why: String| Refused::new(format!("line {}", i + 1), why);
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
            let number = || -> Result<f64, Refused> {
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
                            o.visibility = Some(Visibility::parse(value).ok_or_else(|| {
                                err(format!(
                                    "visibility = {value}: not visible, after_due_date or hidden"
                                ))
                            })?)
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
    ///
    /// Every amount is a whole number of hundredths, the precision reports
    /// show: each part's points are shared among the fixtures it applies to
    /// by weight and rounded by largest remainder (the shares' floors, then
    /// a hundredth more to the largest remainders, the earlier fixture first
    /// on a tie), so that the shares add up to the part's points exactly. A
    /// fixture is worth the sum of its shares and earns those of the parts
    /// it earns; the total and the maximum are the sums of the fixtures', so
    /// that the points shown per fixture add up to the total shown, in
    /// every format.
    pub fn score(&self, fixtures: &[Fixture], graded: &[Graded]) -> Score {
        let counts =
            |f: &Fixture| !matches!(f.allowed, crate::judging::fixture::Allowed::NotGraded(_));
        // Hundredths of each part, fixture by fixture.
        let mut shares = vec![[0u64; 4]; fixtures.len()];
        for (p, part) in Part::ALL.iter().enumerate() {
            let applies: Vec<usize> = (0..fixtures.len())
                .filter(|&i| counts(&fixtures[i]) && part.applies_to(fixtures[i].named))
                .collect();
            let weights: Vec<f64> = applies.iter().map(|&i| self.weight(&fixtures[i])).collect();
            let all: f64 = weights.iter().sum();
            if all <= 0.0 {
                continue;
            }
            let cents = (self.points[p] * 100.0).round() as u64;
            for (k, given) in largest_remainder(cents, &weights, all)
                .into_iter()
                .enumerate()
            {
                shares[applies[k]][p] = given;
            }
        }
        let mut per_fixture = Vec::with_capacity(fixtures.len());
        let (mut total, mut max) = (0u64, 0u64);
        for (i, g) in graded.iter().enumerate().take(fixtures.len()) {
            let (mut earned, mut worth) = (0, 0);
            for (p, part) in Part::ALL.iter().enumerate() {
                worth += shares[i][p];
                if earns(*part, &g.judgement) {
                    earned += shares[i][p];
                }
            }
            total += earned;
            max += worth;
            per_fixture.push((hundredths(earned), hundredths(worth)));
        }
        Score {
            per_fixture,
            total: hundredths(total),
            max: hundredths(max),
        }
    }
}

impl Scheme {
    /// The most a program can score on `fixtures`: every `Score` of
    /// them has this maximum (what a gradebook's "points possible" is).
    pub fn maximum(&self, fixtures: &[Fixture]) -> f64 {
        let passed: Vec<Graded> = fixtures
            .iter()
            .map(|_| Graded {
                judgement: Judgement::Passed,
                time: None,
                flaky: None,
                output: None,
            })
            .collect();
        self.score(fixtures, &passed).max
    }
}

/// `cents` shared by `weights` (of sum `all`): each share's floor, then one
/// more to the largest remainders (the earlier first on a tie).
fn largest_remainder(cents: u64, weights: &[f64], all: f64) -> Vec<u64> {
    let exact: Vec<f64> = weights.iter().map(|w| cents as f64 * w / all).collect();
    let mut given: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
    let mut left = cents.saturating_sub(given.iter().sum());
    let mut order: Vec<usize> = (0..exact.len()).collect();
    let remainder = |k: usize| exact[k] - exact[k].floor();
    order.sort_by(|&a, &b| remainder(b).total_cmp(&remainder(a)).then(a.cmp(&b)));
    for k in order {
        if left == 0 {
            break;
        }
        given[k] += 1;
        left -= 1;
    }
    given
}

/// A whole number of hundredths as points.
fn hundredths(cents: u64) -> f64 {
    cents as f64 / 100.0
}

/// Points as whole hundredths (a [`Score`]'s amounts are).
fn cents(points: f64) -> u64 {
    (points * 100.0).round().max(0.0) as u64
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

impl Score {
    /// The points each class of fault cost, in [`Class::ALL`]'s order, only
    /// the classes that cost something: a fixture's lost points (its maximum
    /// less its points) go to its class. They add up to `max - total`
    /// exactly (every amount is whole hundredths). `graded` is the grading
    /// the score was computed from, fixture by fixture.
    pub fn lost_by_class(&self, graded: &[Graded]) -> Vec<(Class, f64)> {
        self.lost_where(graded.iter().map(|g| &g.judgement), |_| true)
    }

    /// [`Score::lost_by_class`] over the fixtures that `keep` keeps (by
    /// index), judged `judgements`.
    pub fn lost_where<'a>(
        &self,
        judgements: impl Iterator<Item = &'a Judgement>,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<(Class, f64)> {
        let noted = judgements.zip(&self.per_fixture).enumerate().filter_map(
            |(i, (judgement, &(earned, max)))| match judgement {
                Judgement::Noted(class, _) if keep(i) => Some((*class, earned, max)),
                _ => None,
            },
        );
        lost_of(noted)
    }
}

/// What each class of fault cost, from each failing fixture's class, its
/// points and its maximum (`(class, earned, max)`), in [`Class::ALL`]'s
/// order, only the classes that cost something: the arithmetic of
/// [`Score::lost_by_class`], in whole hundredths. A grading's record gives
/// the same from its fixtures' lines (`Record::lost`).
pub fn lost_of(fixtures: impl Iterator<Item = (Class, f64, f64)>) -> Vec<(Class, f64)> {
    let mut lost = [0u64; Class::ALL.len()];
    for (class, earned, max) in fixtures {
        lost[class as usize] += cents(max).saturating_sub(cents(earned));
    }
    Class::ALL
        .into_iter()
        .filter(|c| lost[*c as usize] > 0)
        .map(|c| (c, hundredths(lost[c as usize])))
        .collect()
}

/// Points lost by class in words: `wrong verdict 10.5, missed error 2.3`
/// (`nothing` when none).
pub fn lost_in_words(lost: &[(Class, f64)]) -> String {
    if lost.is_empty() {
        return "nothing".into();
    }
    let words: Vec<String> = lost
        .iter()
        .map(|(class, lost)| format!("{} {}", class.name().to_lowercase(), points(*lost)))
        .collect();
    words.join(", ")
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

    /// The default scheme's points are the code's, as the reference's
    /// Marks section and the example scheme give them.
    #[test]
    fn the_docs_and_the_example_give_the_default_schemes_points() {
        let default = Scheme::default();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let read = |file: &str| std::fs::read_to_string(format!("{root}/{file}")).unwrap();
        let example = Scheme::parse(&read("examples/marking-scheme.txt")).unwrap();
        assert_eq!(example.points, default.points);
        let docs = read("docs/grading-reference.md");
        let from = docs
            .find("Without one:")
            .expect("the Marks section's default");
        let to = from + docs[from..].find("each fixture of weight 1").unwrap();
        let numbers: Vec<f64> = docs[from..to]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(numbers, default.points, "{}", &docs[from..to]);
        assert_eq!(
            default.points_in_words(),
            "verdicts 70, rejections 20, exit status 5, format 5"
        );
    }

    use crate::testing::named_fixture as fixture;

    fn graded(judgement: Judgement) -> Graded {
        Graded {
            judgement,
            time: None,
            flaky: None,
            output: None,
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
        // Half the verdicts (35) and a third of the format (5/3, rounded
        // by largest remainder: 1.67, 1.67, 1.66) are lost.
        assert_eq!(points(score.total), "63.34");
        assert_eq!(points(score.per_fixture[2].0), "1.66");
        assert_eq!(points(score.per_fixture[2].1), "38.32");
        assert_eq!(score.lost_by_class(&wrong), [(Class::WrongVerdict, 36.66)]);
        assert_eq!(scheme.maximum(&fixtures), score.max);
        // Without bad fixtures, rejections' 20 points are nobody's.
        assert_eq!(points(scheme.maximum(&fixtures[1..])), "80");
    }

    /// A fixture the machine's load left NOT GRADED keeps its points: the
    /// score is what passing it would give, and nothing is lost for it;
    /// the same fixture timed out loses them all.
    #[test]
    fn a_fixture_not_graded_for_the_machine_loses_nothing() {
        let fixtures = [fixture("Tests/sol_a"), fixture("Tests/unsol_b")];
        let scheme = Scheme::default();
        let machines = [
            graded(Judgement::Passed),
            graded(Judgement::Noted(
                Class::NotGraded,
                format!("{}: ...", crate::shared::machine::MACHINES),
            )),
        ];
        let score = scheme.score(&fixtures, &machines);
        assert_eq!(points(score.total), points(score.max));
        assert_eq!(score.lost_by_class(&machines), []);
        let timed_out = [
            graded(Judgement::Passed),
            graded(Judgement::Noted(Class::Timeout, String::new())),
        ];
        let score = scheme.score(&fixtures, &timed_out);
        assert_eq!(points(score.per_fixture[1].0), "0");
    }

    /// Whole hundredths of `value` (shown amounts are).
    fn hundredths_of(value: f64) -> i64 {
        (value * 100.0).round() as i64
    }

    #[test]
    fn the_points_shown_per_fixture_add_up_to_the_total_and_the_maximum() {
        // 89 fixtures of three weights and odd points: no share is a whole
        // number of hundredths.
        let mut fixtures = Vec::new();
        let mut graded_ = Vec::new();
        for i in 0..89 {
            let name = match i % 3 {
                0 => format!("Tests/bad_{i}"),
                1 => format!("Tests/sol_{i}"),
                _ => format!("Tests/unsol_{i}"),
            };
            fixtures.push(fixture(&name));
            let judgement = match i % 7 {
                0 => Judgement::Noted(Class::WrongVerdict, String::new()),
                1 => Judgement::Noted(Class::MissedError, String::new()),
                2 => Judgement::Noted(Class::Format, String::new()),
                3 => Judgement::Noted(Class::WrongExitStatus, String::new()),
                4 => Judgement::Noted(Class::Timeout, String::new()),
                _ => Judgement::Passed,
            };
            graded_.push(graded(judgement));
        }
        let scheme = Scheme::parse(
            "[points]\nverdict = 71.3\nrejection = 17.9\nexit-status = 3.3\nformat = 7.5\n\
             [fixtures Tests/sol_1*]\nweight = 2.5\n[fixtures Tests/bad_3*]\nweight = 0.7\n",
        )
        .unwrap();
        let score = scheme.score(&fixtures, &graded_);
        let earned: i64 = score.per_fixture.iter().map(|p| hundredths_of(p.0)).sum();
        let worth: i64 = score.per_fixture.iter().map(|p| hundredths_of(p.1)).sum();
        assert_eq!(earned, hundredths_of(score.total));
        assert_eq!(worth, hundredths_of(score.max));
        assert_eq!(points(score.max), "100");
        // Each amount shown is the amount: whole hundredths.
        for (earned, max) in &score.per_fixture {
            assert_eq!(points(*earned).parse::<f64>().unwrap(), *earned);
            assert!(earned <= max);
        }
        // What each class cost adds up to what was lost.
        let lost = score.lost_by_class(&graded_);
        let classes: Vec<Class> = lost.iter().map(|l| l.0).collect();
        assert_eq!(
            classes,
            [
                Class::WrongVerdict,
                Class::MissedError,
                Class::WrongExitStatus,
                Class::Timeout,
                Class::Format
            ]
        );
        let all_lost: i64 = lost.iter().map(|l| hundredths_of(l.1)).sum();
        assert_eq!(
            all_lost,
            hundredths_of(score.max) - hundredths_of(score.total)
        );
        assert!(lost_in_words(&lost).starts_with("wrong verdict "));
        assert_eq!(lost_in_words(&[]), "nothing");
    }
}
