//! What the light parser makes of a submission: functions of statements
//! of expressions, each node with the place (file and line) it came from.
//! What the parser did not understand is kept as its tokens
//! ([`Expr::Other`], [`Stmt::Other`]): code that does not compile still
//! counts, only less precisely. Every tree is at most [`MAX_DEPTH`] deep
//! in statements and as deep in expressions (deeper code is kept flat, as
//! tokens), so that every pass over it may recurse.

use super::lex::{Kw, Token, P};

/// How deep statements may nest, and expressions: beyond, the parser keeps
/// the tokens flat.
pub const MAX_DEPTH: u32 = 96;

/// A name's text, interned ([`super::lex::Interner`]).
pub type Name = u32;

/// Where a node came from: its file (an index in the submission's files)
/// and its line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct At {
    /// The file.
    pub file: u16,
    /// The line, from 1.
    pub line: u32,
}

impl At {
    /// Where `token` is.
    pub fn of(token: &Token) -> At {
        At {
            file: token.file,
            line: token.line,
        }
    }
}

/// An operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// A punctuator's: `+`, `<<=`, `->`...
    P(P),
    /// A keyword's: `sizeof`, `new`, `delete`, `instanceof`.
    Kw(Kw),
}

impl Op {
    /// The operator spelt `text` (a punctuator).
    pub fn p(text: &str) -> Op {
        Op::P(P::of(text))
    }

    /// Whether it is the punctuator spelt `text`.
    pub fn is(self, text: &str) -> bool {
        matches!(self, Op::P(p) if p.text() == text)
    }
}

/// A literal's kind: its value is no evidence, its kind is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lit {
    /// A number; its text is kept for the rewrites (`i = i + 1` is `i++`).
    Number(u32),
    /// A string.
    Str,
    /// A character, its text interned.
    Char(u32),
    /// `true`.
    True,
    /// `false`.
    False,
    /// `null`, `nullptr`.
    Null,
    /// `this`, `super`.
    This,
}

/// Calls `$f` with each direct subexpression of `$e` (an `&Expr` or an
/// `&mut Expr`: one body for both visitors).
macro_rules! children {
    ($e:expr, $f:ident) => {{
        use Expr::*;
        match $e {
            Name(..) | Lit(..) | Other(_) => {}
            Unary(_, a, _) | Post(_, a, _) | Member(a, _, _) => $f(a),
            Bin(_, a, b, _) | Assign(_, a, b, _) | Index(a, b, _) => {
                $f(a);
                $f(b);
            }
            Cond(a, b, c, _) => {
                $f(a);
                $f(b);
                $f(c);
            }
            Call(g, args, _) => {
                $f(g);
                for a in args {
                    $f(a);
                }
            }
            List(items, _) => {
                for a in items {
                    $f(a);
                }
            }
        }
    }};
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A name.
    Name(Name, At),
    /// A literal.
    Lit(Lit, At),
    /// A prefix operator: `-x`, `!x`, `*p`, `&x`, `++i`, `sizeof x`, `new T(...)`.
    Unary(Op, Box<Expr>, At),
    /// A postfix `++` or `--`.
    Post(Op, Box<Expr>, At),
    /// A binary operator other than an assignment, `,` included.
    Bin(Op, Box<Expr>, Box<Expr>, At),
    /// An assignment, `=` or compound.
    Assign(Op, Box<Expr>, Box<Expr>, At),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>, At),
    /// A call: what is called, and the arguments.
    Call(Box<Expr>, Vec<Expr>, At),
    /// `a[i]`.
    Index(Box<Expr>, Box<Expr>, At),
    /// `a.f`, `a->f`, `a::f`.
    Member(Box<Expr>, Name, At),
    /// `{ a, b }`: an initialiser.
    List(Vec<Expr>, At),
    /// Tokens the parser did not understand.
    Other(Vec<Token>),
}

impl Expr {
    /// Where it came from (the first token's place for [`Expr::Other`]).
    pub fn at(&self) -> At {
        match self {
            Expr::Name(_, at)
            | Expr::Lit(_, at)
            | Expr::Unary(_, _, at)
            | Expr::Post(_, _, at)
            | Expr::Bin(_, _, _, at)
            | Expr::Assign(_, _, _, at)
            | Expr::Cond(_, _, _, at)
            | Expr::Call(_, _, at)
            | Expr::Index(_, _, at)
            | Expr::Member(_, _, at)
            | Expr::List(_, at) => *at,
            Expr::Other(tokens) => tokens.first().map(At::of).unwrap_or_default(),
        }
    }

    /// Whether it is the same expression as `other`, wherever each came
    /// from (names compared by their text).
    pub fn same(&self, other: &Expr) -> bool {
        use Expr::*;
        match (self, other) {
            (Name(a, _), Name(b, _)) => a == b,
            (Lit(a, _), Lit(b, _)) => a == b,
            (Unary(o, a, _), Unary(p, b, _)) | (Post(o, a, _), Post(p, b, _)) => {
                o == p && a.same(b)
            }
            (Bin(o, a, x, _), Bin(p, b, y, _)) | (Assign(o, a, x, _), Assign(p, b, y, _)) => {
                o == p && a.same(b) && x.same(y)
            }
            (Cond(a, b, c, _), Cond(x, y, z, _)) => a.same(x) && b.same(y) && c.same(z),
            (Call(f, a, _), Call(g, b, _)) => {
                f.same(g) && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
            }
            (Index(a, i, _), Index(b, j, _)) => a.same(b) && i.same(j),
            (Member(a, f, _), Member(b, g, _)) => f == g && a.same(b),
            (List(a, _), List(b, _)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
            }
            (Other(a), Other(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| x.kind == y.kind && x.text == y.text)
            }
            _ => false,
        }
    }

    /// Calls `f` with each of its direct subexpressions, in order.
    pub fn each_child<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        children!(self, f);
    }

    /// Calls `f` with each of its direct subexpressions, to change them.
    pub fn each_child_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        children!(self, f);
    }

    /// Each name it holds, `Other`'s too, with `f` (in order).
    pub fn each_name(&self, f: &mut dyn FnMut(Name)) {
        match self {
            Expr::Name(name, _) => f(*name),
            Expr::Member(a, field, _) => {
                a.each_name(f);
                f(*field);
            }
            Expr::Other(tokens) => tokens
                .iter()
                .filter(|t| t.kind == super::lex::Kind::Ident)
                .for_each(|t| f(t.text)),
            _ => self.each_child(&mut |c| c.each_name(f)),
        }
    }
}

/// One name a declaration declares, with its initial value.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// The name.
    pub name: Name,
    /// Its initial value.
    pub init: Option<Expr>,
    /// Where the name is.
    pub at: At,
}

/// A loop's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// `while (c) S`, and `for` once rewritten.
    While,
    /// `do S while (c);`.
    Do,
    /// `for (init; c; step) S`, as parsed.
    For,
    /// `for (T x : xs) S`.
    Each,
}

/// A loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// Its kind.
    pub kind: LoopKind,
    /// A `for`'s first part (declarations or expressions); for a `for
    /// (T x : xs)`, the declaration of `x`.
    pub init: Vec<Stmt>,
    /// The condition (none: forever); for `for (T x : xs)`, `xs`.
    pub cond: Option<Expr>,
    /// A `for`'s third part.
    pub step: Vec<Expr>,
    /// The body.
    pub body: Box<Stmt>,
    /// Where its keyword is.
    pub at: At,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// An expression as a statement.
    Expr(Expr, At),
    /// A declaration of variables (their types are no evidence).
    Decl(Vec<Declarator>, At),
    /// `{ ... }`.
    Block(Vec<Stmt>, At),
    /// `if (c) S else T`.
    If(Expr, Box<Stmt>, Option<Box<Stmt>>, At),
    /// A loop.
    Loop(Loop),
    /// `switch (e) S`.
    Switch(Expr, Box<Stmt>, At),
    /// `case e:` (none: `default:`).
    Case(Option<Expr>, At),
    /// `return e;`.
    Return(Option<Expr>, At),
    /// `break;`.
    Break(At),
    /// `continue;`.
    Continue(At),
    /// `goto l;`.
    Goto(At),
    /// `throw e;`.
    Throw(Option<Expr>, At),
    /// `try S catch... finally...`: the blocks in order.
    Try(Vec<Stmt>, At),
    /// Tokens the parser did not understand.
    Other(Vec<Token>),
}

impl Stmt {
    /// Where it came from.
    pub fn at(&self) -> At {
        match self {
            Stmt::Expr(_, at)
            | Stmt::Decl(_, at)
            | Stmt::Block(_, at)
            | Stmt::If(_, _, _, at)
            | Stmt::Switch(_, _, at)
            | Stmt::Case(_, at)
            | Stmt::Return(_, at)
            | Stmt::Break(at)
            | Stmt::Continue(at)
            | Stmt::Goto(at)
            | Stmt::Throw(_, at)
            | Stmt::Try(_, at) => *at,
            Stmt::Loop(l) => l.at,
            Stmt::Other(tokens) => tokens.first().map(At::of).unwrap_or_default(),
        }
    }

    /// Whether control never goes past it: `return`, `break`, `continue`,
    /// `goto`, `throw`.
    pub fn is_jump(&self) -> bool {
        matches!(
            self,
            Stmt::Return(..) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Goto(_) | Stmt::Throw(..)
        )
    }
}

/// A function (a method, a constructor).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Its name (none: an initialiser block, which always runs).
    pub name: Option<Name>,
    /// Its parameters' names.
    pub params: Vec<Name>,
    /// Its body's statements.
    pub body: Vec<Stmt>,
    /// Whether other files cannot call it: `static` in C, `private` in Java.
    pub private: bool,
    /// Whether it overrides a method (`@Override`): called by the library.
    pub overrides: bool,
    /// Where its name is.
    pub at: At,
}
