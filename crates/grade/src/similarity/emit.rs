//! The normal form as symbols: a tree in canonical form written as the
//! sequence the fingerprints and the tiling read, each symbol with the
//! place it came from. A name of the submission's own is `ID`, whatever it
//! is called; a name it did not declare (`printf`, `Scanner`, `NULL`) is
//! itself, for renaming it is no disguise; a literal is its kind; types,
//! casts and redundant parentheses are gone, and a parenthesis is written
//! where the tree's grouping needs one.

use super::lex::{Interner, Kind, Kw, Token, PUNCTS};
use super::tree::{At, Expr, Lit, LoopKind, Name, Op, Stmt};
use crate::shared::digest::fnv1a;

/// A symbol of the normal form.
pub type Sym = u32;

/// The first symbol after the punctuators' (which are their indices).
const BASE: u32 = PUNCTS.len() as u32;

/// A name of the submission's own.
pub const ID: Sym = BASE;
/// A number.
pub const NUM: Sym = BASE + 1;
/// A string.
pub const STR: Sym = BASE + 2;
/// A character.
pub const CHR: Sym = BASE + 3;
/// `true`.
pub const TRUE: Sym = BASE + 4;
/// `false`.
pub const FALSE: Sym = BASE + 5;
/// `null`.
pub const NULL: Sym = BASE + 6;
/// `this`.
pub const THIS: Sym = BASE + 7;
/// `if`.
pub const IF: Sym = BASE + 8;
/// `else`.
pub const ELSE: Sym = BASE + 9;
/// A loop that tests first (`while`, `for`).
pub const LOOP: Sym = BASE + 10;
/// A loop that tests last (`do`).
pub const DO: Sym = BASE + 11;
/// A loop over a collection.
pub const EACH: Sym = BASE + 12;
/// `switch`.
pub const SWITCH: Sym = BASE + 13;
/// `case`.
pub const CASE: Sym = BASE + 14;
/// `default`.
pub const DEFAULT: Sym = BASE + 15;
/// `return`.
pub const RETURN: Sym = BASE + 16;
/// `break`.
pub const BREAK: Sym = BASE + 17;
/// `continue`.
pub const CONTINUE: Sym = BASE + 18;
/// `goto`.
pub const GOTO: Sym = BASE + 19;
/// `throw`.
pub const THROW: Sym = BASE + 20;
/// `try` (and each of its blocks).
pub const TRY: Sym = BASE + 21;
/// A function's beginning.
pub const FUNC: Sym = BASE + 22;
/// A keyword of another kind (in code kept as tokens), by its kind.
const KEYWORD: Sym = BASE + 32;
/// The first symbol of a foreign name.
const FOREIGN: Sym = 1 << 10;

/// The symbol of the keyword `kw`.
fn keyword(kw: Kw) -> Sym {
    match kw {
        Kw::If => IF,
        Kw::Else => ELSE,
        Kw::For | Kw::While => LOOP,
        Kw::Do => DO,
        Kw::Switch => SWITCH,
        Kw::Case => CASE,
        Kw::Default => DEFAULT,
        Kw::Return => RETURN,
        Kw::Break => BREAK,
        Kw::Continue => CONTINUE,
        Kw::Goto => GOTO,
        Kw::Throw => THROW,
        Kw::Try | Kw::Catch | Kw::Finally => TRY,
        Kw::True => TRUE,
        Kw::False => FALSE,
        Kw::Null => NULL,
        Kw::This | Kw::Super => THIS,
        other => KEYWORD + other as u32,
    }
}

/// How names become symbols: the submission's own ones are all `ID`.
pub struct Namer<'a> {
    /// The texts.
    pub names: &'a Interner,
    /// The submission's own names, sorted.
    pub own: &'a [Name],
}

impl Namer<'_> {
    /// The symbol of `name`.
    pub fn sym(&self, name: Name) -> Sym {
        if self.is_own(name) {
            ID
        } else {
            foreign(self.names.text(name))
        }
    }

    /// Whether `name` is the submission's own.
    pub fn is_own(&self, name: Name) -> bool {
        self.own.binary_search(&name).is_ok()
    }

    /// Whether `name` is spelt `text`.
    pub fn spelt(&self, name: Name, text: &str) -> bool {
        self.names.text(name) == text.as_bytes()
    }

    /// Whether `name` is spelt as one of `texts`.
    pub fn spelt_in(&self, name: Name, texts: &[&str]) -> bool {
        texts.iter().any(|t| self.spelt(name, t))
    }
}

/// The symbol of a foreign name spelt `text`.
pub fn foreign(text: &[u8]) -> Sym {
    FOREIGN + (fnv1a(text) % u64::from(u32::MAX - FOREIGN)) as u32
}

/// Symbols being written, each with its place.
pub struct Out<'a> {
    /// How names are written.
    pub namer: &'a Namer<'a>,
    /// The symbols.
    pub syms: Vec<Sym>,
    /// Where each came from (none: a key, whose places are not kept).
    pub at: Option<Vec<At>>,
}

/// An operator's precedence when written (higher binds tighter).
fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::Bin(op, ..) => match op {
            Op::Kw(_) => 10,
            Op::P(p) => match p.text() {
                "," => 1,
                "->" => 2,
                "||" => 4,
                "&&" => 5,
                "|" => 6,
                "^" => 7,
                "&" => 8,
                "==" | "!=" => 9,
                "<" | "<=" | ">" | ">=" => 10,
                "<<" | ">>" | ">>>" => 11,
                "+" | "-" => 12,
                _ => 13,
            },
        },
        Expr::Assign(..) => 2,
        Expr::Cond(..) => 3,
        Expr::Unary(..) => 14,
        _ => 15,
    }
}

impl<'a> Out<'a> {
    /// A writer of symbols with their places.
    pub fn new(namer: &'a Namer<'a>) -> Out<'a> {
        Out {
            namer,
            syms: Vec::new(),
            at: Some(Vec::new()),
        }
    }

    /// A writer of a key: symbols only.
    pub fn key(namer: &'a Namer<'a>) -> Out<'a> {
        Out {
            namer,
            syms: Vec::new(),
            at: None,
        }
    }

    /// Writes `sym`, from `at`.
    pub fn push(&mut self, sym: Sym, at: At) {
        self.syms.push(sym);
        if let Some(places) = &mut self.at {
            places.push(at);
        }
    }

    fn punct(&mut self, text: &str, at: At) {
        self.push(Op::p(text).sym(), at);
    }

    /// Writes tokens kept as they came, each by its kind.
    pub fn tokens(&mut self, tokens: &[Token]) {
        for t in tokens {
            let sym = match t.kind {
                Kind::Ident => self.namer.sym(t.text),
                Kind::Keyword(kw) => keyword(kw),
                Kind::Number => NUM,
                Kind::Str => STR,
                Kind::Char => CHR,
                Kind::Punct(p) => u32::from(p.0),
            };
            self.push(sym, At::of(t));
        }
    }

    /// Writes the expression `e`.
    pub fn expr(&mut self, e: &Expr) {
        let at = e.at();
        match e {
            Expr::Name(name, at) => self.push(self.namer.sym(*name), *at),
            Expr::Lit(lit, at) => {
                let sym = match lit {
                    Lit::Number(_) => NUM,
                    Lit::Str => STR,
                    Lit::Char(_) => CHR,
                    Lit::True => TRUE,
                    Lit::False => FALSE,
                    Lit::Null => NULL,
                    Lit::This => THIS,
                };
                self.push(sym, *at);
            }
            Expr::Unary(op, a, _) => {
                self.push(op.sym(), at);
                self.operand(a, 14);
            }
            Expr::Post(op, a, _) => {
                self.operand(a, 15);
                self.push(op.sym(), at);
            }
            Expr::Bin(op, a, b, _) | Expr::Assign(op, a, b, _) => {
                let mine = precedence(e);
                // Left-grouping operators take their left operand at their
                // own level, assignments their right one.
                let assign = matches!(e, Expr::Assign(..));
                self.operand(a, if assign { mine + 1 } else { mine });
                self.push(op.sym(), at);
                self.operand(b, if assign { mine } else { mine + 1 });
            }
            Expr::Cond(c, a, b, _) => {
                self.operand(c, 4);
                self.punct("?", at);
                self.expr(a);
                self.punct(":", at);
                self.operand(b, 3);
            }
            Expr::Call(f, args, _) => {
                self.operand(f, 15);
                self.punct("(", at);
                self.list(args, at);
                self.punct(")", at);
            }
            Expr::Index(a, i, _) => {
                self.operand(a, 15);
                self.punct("[", at);
                self.expr(i);
                self.punct("]", at);
            }
            Expr::Member(a, field, _) => {
                self.operand(a, 15);
                self.punct(".", at);
                self.push(self.namer.sym(*field), at);
            }
            Expr::List(items, _) => {
                self.punct("{", at);
                self.list(items, at);
                self.punct("}", at);
            }
            Expr::Other(tokens) => self.tokens(tokens),
        }
    }

    /// `e` as an operand that needs at least precedence `level`.
    fn operand(&mut self, e: &Expr, level: u8) {
        if precedence(e) < level {
            let at = e.at();
            self.punct("(", at);
            self.expr(e);
            self.punct(")", at);
        } else {
            self.expr(e);
        }
    }

    fn list(&mut self, items: &[Expr], at: At) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.punct(",", at);
            }
            self.expr(item);
        }
    }

    /// Writes the statement `s`.
    pub fn stmt(&mut self, s: &Stmt) {
        let at = s.at();
        match s {
            Stmt::Expr(e, _) => {
                self.expr(e);
                self.punct(";", at);
            }
            Stmt::Decl(ds, _) => {
                for d in ds {
                    self.push(ID, d.at);
                    if let Some(init) = &d.init {
                        self.punct("=", d.at);
                        self.expr(init);
                    }
                    self.punct(";", d.at);
                }
            }
            Stmt::Block(stmts, _) => self.block(stmts, at),
            Stmt::If(c, then, otherwise, _) => {
                self.push(IF, at);
                self.expr(c);
                self.body(then);
                if let Some(e) = otherwise {
                    self.push(ELSE, at);
                    self.body(e);
                }
            }
            Stmt::Loop(l) => {
                match l.kind {
                    LoopKind::Do => {
                        self.push(DO, at);
                        self.body(&l.body);
                        if let Some(c) = &l.cond {
                            self.expr(c);
                        }
                        return;
                    }
                    LoopKind::Each => {
                        self.push(EACH, at);
                        for s in &l.init {
                            self.stmt(s);
                        }
                    }
                    LoopKind::While | LoopKind::For => {
                        self.push(LOOP, at);
                        for s in &l.init {
                            self.stmt(s);
                        }
                    }
                }
                if let Some(c) = &l.cond {
                    self.expr(c);
                }
                self.punct("{", at);
                self.stmt(&l.body);
                for step in &l.step {
                    self.expr(step);
                    self.punct(";", at);
                }
                self.punct("}", at);
            }
            Stmt::Switch(e, body, _) => {
                self.push(SWITCH, at);
                self.expr(e);
                self.body(body);
            }
            Stmt::Case(value, _) => match value {
                Some(v) => {
                    self.push(CASE, at);
                    self.expr(v);
                    self.punct(":", at);
                }
                None => {
                    self.push(DEFAULT, at);
                    self.punct(":", at);
                }
            },
            Stmt::Return(value, _) | Stmt::Throw(value, _) => {
                self.push(
                    if matches!(s, Stmt::Return(..)) {
                        RETURN
                    } else {
                        THROW
                    },
                    at,
                );
                if let Some(v) = value {
                    self.expr(v);
                }
                self.punct(";", at);
            }
            Stmt::Break(_) => self.push(BREAK, at),
            Stmt::Continue(_) => self.push(CONTINUE, at),
            Stmt::Goto(_) => self.push(GOTO, at),
            Stmt::Try(blocks, _) => {
                for b in blocks {
                    self.push(TRY, at);
                    self.body(b);
                }
            }
            Stmt::Other(tokens) => self.tokens(tokens),
        }
    }

    /// A governed statement, always in braces.
    fn body(&mut self, s: &Stmt) {
        match s {
            Stmt::Block(stmts, at) => self.block(stmts, *at),
            other => self.block(std::slice::from_ref(other), other.at()),
        }
    }

    /// `{ stmts }`.
    pub fn block(&mut self, stmts: &[Stmt], at: At) {
        self.punct("{", at);
        for s in stmts {
            self.stmt(s);
        }
        self.punct("}", at);
    }
}

impl Op {
    /// Its symbol.
    pub fn sym(self) -> Sym {
        match self {
            Op::P(p) => u32::from(p.0),
            Op::Kw(kw) => keyword(kw),
        }
    }
}

/// The key of a statement: its symbols, without places (to sort by).
pub fn stmt_key(namer: &Namer, s: &Stmt) -> Vec<Sym> {
    let mut out = Out::key(namer);
    out.stmt(s);
    out.syms
}

/// The key of an expression.
pub fn expr_key(namer: &Namer, e: &Expr) -> Vec<Sym> {
    let mut out = Out::key(namer);
    out.expr(e);
    out.syms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::lex::{lex, Lang, Lexed};
    use crate::similarity::parse::parse_file;

    fn symbols(text: &str) -> Vec<Sym> {
        let mut names = Interner::default();
        let mut lexed = Lexed::default();
        lex(
            text.as_bytes(),
            Lang::C,
            0,
            &mut names,
            &mut lexed,
            usize::MAX,
        );
        let mut parsed = parse_file(&lexed.tokens, Lang::C, &names);
        parsed.declared.sort_unstable();
        parsed.declared.dedup();
        let namer = Namer {
            names: &names,
            own: &parsed.declared,
        };
        let mut out = Out::new(&namer);
        for f in &parsed.functions {
            out.block(&f.body, f.at);
        }
        out.syms
    }

    #[test]
    fn names_literals_layout_and_parentheses_do_not_show() {
        let a = symbols(
            "int f(int n) { int total = (n * 2) + 1; printf(\"%d\", total); return total; }",
        );
        let b = symbols("int g(int count)\n{\n    int sum = count*2 + 7; /* x */\n    printf(\"sum=%d\\n\", (sum));\n    return (sum);\n}");
        assert_eq!(a, b);
        // A parenthesis the grouping needs is kept; a foreign name is itself.
        let c = symbols(
            "int f(int n) { int total = n * (2 + 1); printf(\"%d\", total); return total; }",
        );
        assert_ne!(a, c);
        let d =
            symbols("int f(int n) { int total = (n * 2) + 1; puts(\"%d\", total); return total; }");
        assert_ne!(a, d);
    }

    #[test]
    fn each_symbol_has_its_place() {
        let mut names = Interner::default();
        let mut lexed = Lexed::default();
        lex(
            b"int f() {\n  return 1;\n}\n",
            Lang::C,
            7,
            &mut names,
            &mut lexed,
            usize::MAX,
        );
        let parsed = parse_file(&lexed.tokens, Lang::C, &names);
        let namer = Namer {
            names: &names,
            own: &[],
        };
        let mut out = Out::new(&namer);
        out.stmt(&parsed.functions[0].body[0]);
        assert_eq!(out.syms, [RETURN, NUM, Op::p(";").sym()]);
        let places = out.at.unwrap();
        assert!(places.iter().all(|a| a.file == 7 && a.line == 2));
    }
}
