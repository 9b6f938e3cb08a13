//! The lenient verdict reader: what a program decided, whatever its words.

use crate::shared::text::lines;

/// What a program's output says about a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `solvable`.
    Solvable,
    /// `unsolvable`.
    Unsolvable,
}

impl Verdict {
    /// The word.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Solvable => "solvable",
            Verdict::Unsolvable => "unsolvable",
        }
    }
}

/// A verdict and where it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Said {
    /// The verdict.
    pub verdict: Verdict,
    /// The line it was read from (from 1).
    pub line: usize,
    /// Whether that line is the word itself, byte for byte; if not, it was
    /// read leniently (`Solvable.`, `solvavle`, `The puzzle is solvable`,
    /// glued to an echoed board), and a report shows the line.
    pub plain: bool,
}

/// The verdict in `out`: the last line that reads `solvable` or
/// `unsolvable`, with case, surrounding blanks and a final `.` or `!`
/// ignored. A word one typo away from one of them and not from the other
/// (`solvavle`, `Unsolveable`) counts, and so do `The puzzle is solvable`,
/// `result: unsolvable`, `is not solvable` and a verdict glued to the end of
/// a goal line (`goal: 1 b 3 2solvable`, from a program that echoes a goal
/// line without its newline); a line that says `error` or `invalid` does
/// not. `None` when no line reads as a verdict; else the verdict and where
/// it was read.
pub fn find_verdict(out: &[u8]) -> Option<Said> {
    let mut said = None;
    for (i, line) in lines(out).into_iter().enumerate() {
        if let Some(verdict) = line_verdict(line) {
            said = Some(Said {
                verdict,
                line: i + 1,
                plain: line == verdict.word().as_bytes(),
            });
        }
    }
    said
}

/// The verdict stuck to the end of an echoed board, when that is the last
/// line with text of `out`: `goal: 1 2 3 bxxxxsolvable` (a program that
/// echoed a board, printed the verdict without a newline between, and so
/// accepted the board), whatever comes before the word. Only for a run that
/// exited with 0: a rejection may well echo a board that ends in the word.
/// A line that says `error` or `invalid` is no verdict; nor is a message that
/// only mentions the word without echoing a board (`cannot tell if solvable`).
pub fn find_stuck_verdict(out: &[u8]) -> Option<Said> {
    let all = lines(out);
    let (i, line) = all
        .iter()
        .enumerate()
        .rev()
        .find(|(_, l)| crate::shared::text::has_text(l))?;
    if !crate::shared::text::echoes_a_board(line) {
        return None;
    }
    let mut s: Vec<u8> = line
        .iter()
        .filter(|&&b| b != b'\r')
        .map(u8::to_ascii_lowercase)
        .collect();
    while matches!(s.last(), Some(b' ' | b'\t' | b'.' | b'!')) {
        s.pop();
    }
    let contains = |word: &[u8]| s.windows(word.len()).any(|w| w == word);
    if contains(b"error") || contains(b"invalid") || !s.ends_with(b"solvable") {
        return None;
    }
    Some(Said {
        verdict: by_suffix(&s),
        line: i + 1,
        plain: false,
    })
}

fn by_suffix(s: &[u8]) -> Verdict {
    if s.ends_with(b"unsolvable") {
        Verdict::Unsolvable
    } else {
        Verdict::Solvable
    }
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn line_verdict(line: &[u8]) -> Option<Verdict> {
    let mut s: Vec<u8> = line
        .iter()
        .filter(|&&b| b != b'\r')
        .map(u8::to_ascii_lowercase)
        .collect();
    let lead = s.iter().take_while(|&&b| is_blank(b)).count();
    s.drain(..lead);
    while matches!(s.last(), Some(b' ' | b'\t' | b'.' | b'!')) {
        s.pop();
    }
    let contains = |word: &[u8]| s.windows(word.len()).any(|w| w == word);
    if contains(b"error") || contains(b"invalid") {
        return None;
    }
    if s == b"solvable" {
        return Some(Verdict::Solvable);
    }
    if s == b"unsolvable" {
        return Some(Verdict::Unsolvable);
    }
    if negated(&s) {
        return Some(Verdict::Unsolvable);
    }
    if stated(&s) || glued_to_goal(&s) {
        return Some(by_suffix(&s));
    }
    if (7..=11).contains(&s.len()) && s.iter().all(u8::is_ascii_lowercase) {
        let sol = near(&s, b"solvable");
        let unsol = near(&s, b"unsolvable");
        if sol && !unsol {
            return Some(Verdict::Solvable);
        }
        if unsol && !sol {
            return Some(Verdict::Unsolvable);
        }
    }
    None
}

/// `(^|[ \t])(not|isn.t)[ \t]+solvable$`
fn negated(s: &[u8]) -> bool {
    let Some(rest) = s.strip_suffix(b"solvable") else {
        return false;
    };
    let blanks = rest.iter().rev().take_while(|&&b| is_blank(b)).count();
    if blanks == 0 {
        return false;
    }
    let rest = &rest[..rest.len() - blanks];
    let word_start =
        |word_len: usize| rest.len() == word_len || is_blank(rest[rest.len() - word_len - 1]);
    (rest.ends_with(b"not") && word_start(3))
        || (rest.len() >= 5
            && rest[rest.len() - 5..rest.len() - 2] == *b"isn"
            && rest[rest.len() - 1] == b't'
            && word_start(5))
}

/// `((^|[ \t])is|:)[ \t]*(un)?solvable$`
fn stated(s: &[u8]) -> bool {
    let Some(rest) = s.strip_suffix(b"solvable") else {
        return false;
    };
    let rest = rest.strip_suffix(b"un").unwrap_or(rest);
    let blanks = rest.iter().rev().take_while(|&&b| is_blank(b)).count();
    let rest = &rest[..rest.len() - blanks];
    rest.ends_with(b":")
        || (rest.ends_with(b"is") && (rest.len() == 2 || is_blank(rest[rest.len() - 3])))
}

/// `^goal[ \t]*:.*[0-9b](un)?solvable$`
fn glued_to_goal(s: &[u8]) -> bool {
    let Some(after) = s.strip_prefix(b"goal") else {
        return false;
    };
    let blanks = after.iter().take_while(|&&b| is_blank(b)).count();
    let Some(body) = after[blanks..].strip_prefix(b":") else {
        return false;
    };
    let Some(rest) = body.strip_suffix(b"solvable") else {
        return false;
    };
    let glued = |rest: &[u8]| matches!(rest.last(), Some(b'0'..=b'9' | b'b'));
    glued(rest) || rest.strip_suffix(b"un").is_some_and(glued)
}

/// Whether the optimal string alignment distance of `a` and `b` is at most 1
/// (one letter added, dropped, changed, or two swapped).
fn near(a: &[u8], b: &[u8]) -> bool {
    let (la, lb) = (a.len(), b.len());
    if la.abs_diff(lb) > 1 {
        return false;
    }
    let mut d = vec![vec![0usize; lb + 1]; la + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=la {
        for j in 1..=lb {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            best = best.min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[la][lb] <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    fn read(text: &str) -> Option<Verdict> {
        find_verdict(text.as_bytes()).map(|said| said.verdict)
    }

    #[test]
    fn the_plain_words_in_any_case_with_blanks_and_a_stop() {
        assert_eq!(read("start: 1\ngoal: 1\nsolvable\n"), Some(Solvable));
        assert_eq!(read("  UNSOLVABLE!\r\n"), Some(Unsolvable));
        assert_eq!(read("solvable.\n"), Some(Solvable));
        assert_eq!(read(""), None);
    }

    #[test]
    fn sentences_and_typos() {
        assert_eq!(read("The puzzle is Solvable.\n"), Some(Solvable));
        assert_eq!(read("The puzzle is unsolvable\n"), Some(Unsolvable));
        assert_eq!(read("Result: unsolvable\n"), Some(Unsolvable));
        assert_eq!(read("it is not solvable\n"), Some(Unsolvable));
        assert_eq!(read("it isn't solvable\n"), Some(Unsolvable));
        assert_eq!(read("solvavle\n"), Some(Solvable));
        assert_eq!(read("Unsolveable\n"), Some(Unsolvable));
        assert_eq!(read("goal: 1 2 3 bsolvable\n"), Some(Solvable));
        assert_eq!(read("goal: 1 2 3 bunsolvable\n"), Some(Unsolvable));
        assert_eq!(read("thisis solvable\n"), None);
        assert_eq!(read("notsolvable\n"), None);
    }

    #[test]
    fn errors_are_never_verdicts_and_the_last_verdict_counts() {
        assert_eq!(read("error: unsolvable\n"), None);
        assert_eq!(read("Invalid: solvable\n"), None);
        assert_eq!(read("solvable\nunsolvable\n"), Some(Unsolvable));
        assert_eq!(read("unsolvable\nsolvable"), Some(Solvable));
    }

    #[test]
    fn the_line_of_a_verdict_and_whether_it_is_the_word_itself() {
        let said = find_verdict(b"start: 1\ngoal: 1\nsolvable\n").unwrap();
        assert_eq!((said.line, said.plain), (3, true));
        let said = find_verdict(b"a\nSolvavle.\n").unwrap();
        assert_eq!((said.verdict, said.line, said.plain), (Solvable, 2, false));
    }

    #[test]
    fn a_verdict_stuck_to_an_echoed_board_on_the_last_line() {
        let stuck = |text: &str| find_stuck_verdict(text.as_bytes()).map(|s| s.verdict);
        let long = format!("start: 1 2 3 b\ngoal: 1 2 3 b{}solvable", "x".repeat(5000));
        assert_eq!(read(&long), None);
        assert_eq!(stuck(&long), Some(Solvable));
        assert_eq!(stuck("goal: 1 2 3 bxxunsolvable\n\n"), Some(Unsolvable));
        assert_eq!(find_stuck_verdict(long.as_bytes()).unwrap().line, 2);
        // A message that only mentions the word is no verdict.
        assert_eq!(stuck("cannot tell if solvable\n"), None);
        assert_eq!(stuck("goal: 1 2 3 bx\ncannot tell if solvable\n"), None);
        assert_eq!(stuck("goal: 1 2 3 bx: error, not solvable\n"), None);
        assert_eq!(stuck("goal: 1 2 3 bxsolvable\nerror\n"), None);
    }

    #[test]
    fn near_is_one_edit() {
        assert!(near(b"solvavle", b"solvable"));
        assert!(near(b"oslvable", b"solvable"));
        assert!(near(b"solvabl", b"solvable"));
        assert!(!near(b"slovabel", b"solvable"));
    }
}
