//! A submission's sources to its normal form: one sequence of symbols for
//! all its files, each symbol with its file and line.
//!
//! The sources are read as one program: lexed ([`super::lex`]), parsed
//! ([`super::parse`]), then, over the whole program,
//!
//! 1. functions that `main` never reaches (through calls or any mention of
//!    their name) are dead and left out; without a `main`, every function
//!    other files may call (not `static`, not `private`) is an entry;
//! 2. a function called from one place only (not recursive, not the
//!    template's) is inlined there, its `return`s made assignments to what
//!    took its value, so that a function split in two, or two made one,
//!    read the same;
//! 3. each function is rewritten in canonical form ([`super::rewrite`]),
//!    its variables never read left out with their assignments, its
//!    independent statements put in canonical order ([`super::order`]);
//! 4. the functions are written ([`super::emit`]) in the order a walk of
//!    the calls from the entries meets them (entries by their normal
//!    form), after the global variables' values (in canonical order):
//!    the order of the functions in the files is no evidence.

use super::emit::{stmt_key, Namer, Out, Sym, FUNC};
use super::fingerprint::kgram_hashes;
use super::lex::{lex, Interner, Kind, Lang, Lexed};
use super::order::order;
use super::parse::parse_file;
use super::rewrite::{drop_writes, reads, Rewriter};
use super::tree::{At, Expr, Function, Lit, Name, Op, Stmt};
use crate::shared::digest::{fnv1a, fnv1a_more};
use std::collections::HashMap;

/// A function whose body holds more statements than this is not inlined.
const MAX_INLINED: usize = 300;

/// A function called from several places (at most [`MAX_SITES`]) is
/// inlined at each when its body holds at most this many statements:
/// repeated code made a helper reads as the repeated code.
const MAX_SHARED_INLINED: usize = 20;

/// The most places a function inlined at each may be called from.
const MAX_SITES: usize = 4;

/// A function inlined at several places is at most this many symbols
/// written: its copies add at most three times this each (a bound,
/// whatever its statements hold).
const MAX_SHARED_SYMBOLS: usize = 400;

/// A submission in normal form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Normal {
    /// The symbols.
    pub syms: Vec<Sym>,
    /// Where each came from.
    pub at: Vec<At>,
    /// Whether its sources held more tokens than the bound (the rest was
    /// left out).
    pub cut: bool,
    /// The names of the functions it defines, as spelt (for a template:
    /// those functions are never inlined elsewhere).
    pub functions: Vec<Vec<u8>>,
    /// Its words: the hashes of its strings, characters and numbers as
    /// written, each once, sorted.
    pub words: Vec<u64>,
    /// Its surface: the hashes of each [`SHINGLE`] tokens in a row as
    /// written (comments and layout aside, its own names one symbol,
    /// literals by kind), each once, sorted.
    pub shingles: Vec<u64>,
}

/// How many tokens in a row make a shingle of the surface.
pub const SHINGLE: usize = 8;

/// The normal form of the sources `files` (each its language and bytes),
/// of at most `max_tokens` tokens in all; the functions named in
/// `template` are never inlined.
pub fn normal_form(files: &[(Lang, &[u8])], max_tokens: usize, template: &[Vec<u8>]) -> Normal {
    let mut names = Interner::default();
    let mut functions = Vec::new();
    let mut globals = Vec::new();
    let mut declared = Vec::new();
    let mut left = max_tokens;
    let mut cut = false;
    let mut tokens = Vec::new();
    for (i, (lang, bytes)) in files.iter().enumerate() {
        let mut lexed = Lexed::default();
        let file = u16::try_from(i).unwrap_or(u16::MAX);
        lex(bytes, *lang, file, &mut names, &mut lexed, left);
        left -= lexed.tokens.len();
        cut |= lexed.cut;
        let parsed = parse_file(&lexed.tokens, *lang, &names);
        tokens.extend(lexed.tokens);
        functions.extend(parsed.functions);
        globals.extend(parsed.globals);
        declared.extend(parsed.declared);
        declared.extend(lexed.defines);
    }
    // The variable an inlined function's value is put in when it was
    // used inside an expression (a name no source can spell).
    let temp = names.intern(b"<inlined>");
    declared.push(temp);
    declared.sort_unstable();
    declared.dedup();
    let namer = Namer {
        names: &names,
        own: &declared,
    };
    let kept = template_names(template, &names);
    let program = Program::new(functions, &namer, temp);
    let defined = program
        .functions
        .iter()
        .filter_map(|f| f.name)
        .map(|n| names.text(n).to_vec())
        .collect();
    let (syms, at) = program.normalise(globals, &kept);
    // Its words: its literals as written (renaming leaves them).
    let mut words: Vec<u64> = tokens
        .iter()
        .filter_map(|t| {
            let kind = match t.kind {
                Kind::Str => b's',
                Kind::Char => b'c',
                Kind::Number => b'n',
                _ => return None,
            };
            Some(fnv1a_more(fnv1a(&[kind]), names.text(t.text)))
        })
        .collect();
    words.sort_unstable();
    words.dedup();
    // The surface: the tokens as written, own names as one symbol.
    let mut surface = Out::key(&namer);
    surface.tokens(&tokens);
    let mut shingles = kgram_hashes(&surface.syms, SHINGLE);
    shingles.sort_unstable();
    shingles.dedup();
    Normal {
        syms,
        at,
        cut,
        functions: defined,
        words,
        shingles,
    }
}

/// The names of the template's functions, as interned here (those that
/// occur).
fn template_names(template: &[Vec<u8>], names: &Interner) -> Vec<Name> {
    let mut kept: Vec<Name> = template.iter().filter_map(|t| names.find(t)).collect();
    kept.sort_unstable();
    kept
}

/// Library callbacks: a method of one of these names is called by the
/// library, not by the program.
const CALLBACKS: &[&str] = &[
    "toString",
    "equals",
    "hashCode",
    "compareTo",
    "compare",
    "run",
    "actionPerformed",
];

struct Program<'a> {
    namer: &'a Namer<'a>,
    /// The variable of an inlined function's value (see `normal_form`).
    temp: Name,
    /// Every function defined (those of `live` are kept).
    functions: Vec<Function>,
    /// Whether each function is reached from an entry.
    live: Vec<bool>,
    /// Whether each is an entry.
    entry: Vec<bool>,
}

/// Calls `f` with each name `s` mentions (expressions, and tokens kept as
/// they came).
fn each_name_in(s: &Stmt, f: &mut dyn FnMut(Name)) {
    each_expr(s, &mut |e| e.each_name(f));
    if let Stmt::Other(tokens) = s {
        tokens
            .iter()
            .filter(|t| t.kind == super::lex::Kind::Ident)
            .for_each(|t| f(t.text));
    }
}

/// Calls `$f` with each expression of the statement `$s` (an `&Stmt`, or
/// an `&mut Stmt` with `mut`) and, through `$rec`, of the statements in it:
/// one body for both visitors.
macro_rules! statement_exprs {
    ($s:expr, $f:ident, $rec:ident $(, $m:tt)?) => {
        match $s {
            Stmt::Expr(e, _) => $f(e),
            Stmt::Decl(ds, _) => {
                for d in ds {
                    if let Some(e) = & $($m)? d.init {
                        $f(e);
                    }
                }
            }
            Stmt::Block(stmts, _) | Stmt::Try(stmts, _) => {
                for s in stmts {
                    $rec(s, $f);
                }
            }
            Stmt::If(c, a, b, _) => {
                $f(c);
                $rec(a, $f);
                if let Some(b) = b {
                    $rec(b, $f);
                }
            }
            Stmt::Loop(l) => {
                for s in & $($m)? l.init {
                    $rec(s, $f);
                }
                if let Some(c) = & $($m)? l.cond {
                    $f(c);
                }
                for e in & $($m)? l.step {
                    $f(e);
                }
                $rec(& $($m)? l.body, $f);
            }
            Stmt::Switch(e, body, _) => {
                $f(e);
                $rec(body, $f);
            }
            Stmt::Case(Some(e), _) | Stmt::Return(Some(e), _) | Stmt::Throw(Some(e), _) => $f(e),
            _ => {}
        }
    };
}

/// Calls `f` with each expression of `s` and of the statements in it.
pub fn each_expr(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    statement_exprs!(s, f, each_expr);
}

/// Calls `f` with each expression of `s` and of the statements in it, to
/// change it.
fn each_expr_mut(s: &mut Stmt, f: &mut dyn FnMut(&mut Expr)) {
    statement_exprs!(s, f, each_expr_mut, mut);
}

/// `e` with every name `from` of `map` replaced by its expression.
fn substitute(e: &mut Expr, map: &[(Name, Expr)]) {
    if let Expr::Name(n, _) = e {
        if let Some((_, to)) = map.iter().find(|(from, _)| from == n) {
            *e = to.clone();
        }
        return;
    }
    match e {
        Expr::Unary(_, a, _) | Expr::Post(_, a, _) | Expr::Member(a, _, _) => substitute(a, map),
        Expr::Bin(_, a, b, _) | Expr::Assign(_, a, b, _) | Expr::Index(a, b, _) => {
            substitute(a, map);
            substitute(b, map);
        }
        Expr::Cond(a, b, c, _) => {
            substitute(a, map);
            substitute(b, map);
            substitute(c, map);
        }
        Expr::Call(g, args, _) => {
            substitute(g, map);
            args.iter_mut().for_each(|a| substitute(a, map));
        }
        Expr::List(items, _) => items.iter_mut().for_each(|a| substitute(a, map)),
        _ => {}
    }
}

/// The names a block assigns (`x = ...`, `x++`).
fn assigned(body: &[Stmt]) -> Vec<Name> {
    let mut found = Vec::new();
    fn visit(e: &Expr, found: &mut Vec<Name>) {
        match e {
            Expr::Assign(_, lhs, _, _) | Expr::Post(_, lhs, _) => {
                if let Expr::Name(n, _) = **lhs {
                    found.push(n);
                }
            }
            Expr::Unary(op, x, _) if op.is("++") || op.is("--") || op.is("&") => {
                if let Expr::Name(n, _) = **x {
                    found.push(n);
                }
            }
            _ => {}
        }
        e.each_child(&mut |c| visit(c, found));
    }
    for s in body {
        each_expr(s, &mut |e| visit(e, &mut found));
    }
    found
}

/// How many statements `body` holds, those inside others too.
fn size(body: &[Stmt]) -> usize {
    body.iter()
        .map(|s| {
            1 + match s {
                Stmt::Block(b, _) | Stmt::Try(b, _) => size(b),
                Stmt::If(_, a, b, _) => {
                    size(std::slice::from_ref(a))
                        + b.as_deref().map_or(0, |b| size(std::slice::from_ref(b)))
                }
                Stmt::Loop(l) => size(std::slice::from_ref(&l.body)),
                Stmt::Switch(_, b, _) => size(std::slice::from_ref(b)),
                _ => 0,
            }
        })
        .sum()
}

/// Whether control never goes past `block` by its end: it ends in a
/// `return` (or an `if` whose branches both do).
fn ends_in_return(block: &[Stmt]) -> bool {
    match block.last() {
        Some(Stmt::Return(..)) => true,
        Some(Stmt::Block(b, _)) => ends_in_return(b),
        Some(Stmt::If(_, a, Some(b), _)) => {
            ends_in_return(std::slice::from_ref(a)) && ends_in_return(std::slice::from_ref(b))
        }
        _ => false,
    }
}

/// `block` (an inlined body) with its `return e` made `make(e)`: a `return`
/// in an `if` without `else` takes the rest of the block as its `else`.
fn returns_to(block: Vec<Stmt>, make: &dyn Fn(Expr, At) -> Option<Stmt>) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut rest = block.into_iter();
    while let Some(s) = rest.next() {
        match s {
            Stmt::Return(value, at) => {
                out.extend(value.and_then(|v| make(v, at)));
                return out;
            }
            Stmt::Block(b, _) => {
                let mut b = b;
                b.extend(rest);
                out.extend(returns_to(b, make));
                return out;
            }
            Stmt::If(c, then, None, at) if ends_in_return(std::slice::from_ref(&*then)) => {
                let then = returns_to(vec![*then], make);
                let otherwise = returns_to(rest.collect(), make);
                let otherwise = Some(Box::new(Stmt::Block(otherwise, at)));
                out.push(Stmt::If(c, Box::new(Stmt::Block(then, at)), otherwise, at));
                return out;
            }
            Stmt::If(c, then, Some(otherwise), at) => {
                let both = ends_in_return(std::slice::from_ref(&*then))
                    && ends_in_return(std::slice::from_ref(&*otherwise));
                let then = Box::new(Stmt::Block(returns_to(vec![*then], make), at));
                let otherwise = Box::new(Stmt::Block(returns_to(vec![*otherwise], make), at));
                out.push(Stmt::If(c, then, Some(otherwise), at));
                if both {
                    return out;
                }
            }
            s => out.push(s),
        }
    }
    out
}

impl<'a> Program<'a> {
    fn new(functions: Vec<Function>, namer: &'a Namer<'a>, temp: Name) -> Program<'a> {
        let n = functions.len();
        let mut program = Program {
            namer,
            temp,
            functions,
            live: vec![false; n],
            entry: vec![false; n],
        };
        program.find_live();
        program
    }

    /// The functions of each name.
    fn by_name(&self) -> HashMap<Name, Vec<usize>> {
        let mut map: HashMap<Name, Vec<usize>> = HashMap::new();
        for (i, f) in self.functions.iter().enumerate() {
            if let Some(n) = f.name {
                map.entry(n).or_default().push(i);
            }
        }
        map
    }

    /// Marks the entries and the functions they reach.
    fn find_live(&mut self) {
        let spelt =
            |f: &Function, texts: &[&str]| f.name.is_some_and(|n| self.namer.spelt_in(n, texts));
        let has_main = self.functions.iter().any(|f| spelt(f, &["main"]));
        for (i, f) in self.functions.iter().enumerate() {
            let implicit = f.name.is_none() || f.overrides;
            self.entry[i] = implicit
                || if has_main {
                    spelt(f, &["main"])
                } else {
                    !f.private
                };
        }
        if !self.entry.iter().any(|&e| e) {
            // No entry at all (a file of static functions): all are.
            self.entry.iter_mut().for_each(|e| *e = true);
        }
        let mut live = vec![false; self.functions.len()];
        self.reach(&mut live);
        // A library callback the program does not call itself is an entry
        // too (the library calls it).
        let mut more = false;
        for (i, f) in self.functions.iter().enumerate() {
            if !live[i] && spelt(f, CALLBACKS) {
                self.entry[i] = true;
                more = true;
            }
        }
        if more {
            self.reach(&mut live);
        }
        self.live = live;
    }

    /// Marks in `live` the entries and what they reach.
    fn reach(&self, live: &mut [bool]) {
        let by_name = self.by_name();
        let mut todo: Vec<usize> = (0..self.functions.len())
            .filter(|&i| self.entry[i])
            .collect();
        while let Some(i) = todo.pop() {
            if live[i] {
                continue;
            }
            live[i] = true;
            let mut named = Vec::new();
            for s in &self.functions[i].body {
                each_name_in(s, &mut |n| named.push(n));
            }
            for n in named {
                if let Some(fs) = by_name.get(&n) {
                    todo.extend(fs.iter().filter(|&&j| !live[j]));
                }
            }
        }
    }

    /// The normal form of the live functions, after `globals`; functions
    /// named in `kept` are not inlined.
    fn normalise(mut self, globals: Vec<Stmt>, kept: &[Name]) -> (Vec<Sym>, Vec<At>) {
        let mut functions: Vec<(Function, bool)> = std::mem::take(&mut self.functions)
            .into_iter()
            .zip(&self.live)
            .zip(&self.entry)
            .filter(|((_, live), _)| **live)
            .map(|((f, _), entry)| (f, *entry))
            .collect();
        self.inline(&mut functions, kept);
        let mut rewritten = Vec::with_capacity(functions.len());
        let mut all_reads = Vec::new();
        for (mut f, entry) in functions {
            let mut rw = Rewriter {
                namer: self.namer,
                locals: Vec::new(),
            };
            let returns = |s: &Stmt| matches!(s, Stmt::Return(None, _));
            let body = rw.block(std::mem::take(&mut f.body));
            let mut body = rw.tails(body, &returns);
            let mut locals = std::mem::take(&mut rw.locals);
            locals.sort_unstable();
            locals.dedup();
            // Variables never read, and then those only they read; what
            // is left is canonical again (an `if` may have lost a branch).
            for _ in 0..8 {
                let read = reads(&body);
                let dead =
                    |n: Name| locals.binary_search(&n).is_ok() && read.binary_search(&n).is_err();
                if !drop_writes(&mut body, self.namer, &dead) {
                    break;
                }
                body = rw.block(body);
                body = rw.tails(body, &returns);
            }
            all_reads.extend(reads(&body));
            locals.extend(&f.params);
            locals.sort_unstable();
            locals.dedup();
            order(&mut body, self.namer, &locals);
            rewritten.push((Function { body, ..f }, entry));
        }
        // The globals: their values, those never read left out.
        let mut rw = Rewriter {
            namer: self.namer,
            locals: Vec::new(),
        };
        let mut globals = rw.block(globals);
        all_reads.extend(reads(&globals));
        all_reads.sort_unstable();
        all_reads.dedup();
        let global_names = rw.locals;
        let dead = |n: Name| global_names.contains(&n) && all_reads.binary_search(&n).is_err();
        drop_writes(&mut globals, self.namer, &dead);
        for (f, _) in &mut rewritten {
            drop_writes(&mut f.body, self.namer, &dead);
        }
        let mut keyed: Vec<(Vec<Sym>, Stmt)> = globals
            .into_iter()
            .map(|s| (stmt_key(self.namer, &s), s))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out = Out::new(self.namer);
        for (_, s) in &keyed {
            out.stmt(s);
        }
        for i in self.walk(&rewritten) {
            let f = &rewritten[i].0;
            out.push(FUNC, f.at);
            out.block(&f.body, f.at);
        }
        let at = out.at.take().unwrap_or_default();
        (out.syms, at)
    }

    /// The order the functions are written in: a walk of the calls from
    /// the entries (in the order of their normal forms), each function's
    /// callees in the order its body names them.
    fn walk(&self, functions: &[(Function, bool)]) -> Vec<usize> {
        let mut by_name: HashMap<Name, Vec<usize>> = HashMap::new();
        let keys: Vec<Vec<Sym>> = functions
            .iter()
            .map(|(f, _)| {
                let mut out = Out::key(self.namer);
                out.block(&f.body, f.at);
                out.syms
            })
            .collect();
        for (i, (f, _)) in functions.iter().enumerate() {
            if let Some(n) = f.name {
                by_name.entry(n).or_default().push(i);
            }
        }
        for list in by_name.values_mut() {
            list.sort_by(|&a, &b| keys[a].cmp(&keys[b]).then(a.cmp(&b)));
        }
        let mut roots: Vec<usize> = (0..functions.len()).filter(|&i| functions[i].1).collect();
        let mut others: Vec<usize> = (0..functions.len()).filter(|&i| !functions[i].1).collect();
        roots.sort_by(|&a, &b| keys[a].cmp(&keys[b]).then(a.cmp(&b)));
        others.sort_by(|&a, &b| keys[a].cmp(&keys[b]).then(a.cmp(&b)));
        let mut seen = vec![false; functions.len()];
        let mut order = Vec::with_capacity(functions.len());
        for root in roots.into_iter().chain(others) {
            // Depth first, without recursion: a stack of functions to
            // visit, each function's callees pushed in reverse.
            let mut stack = vec![root];
            while let Some(i) = stack.pop() {
                if seen[i] {
                    continue;
                }
                seen[i] = true;
                order.push(i);
                let mut callees = Vec::new();
                for s in &functions[i].0.body {
                    each_name_in(s, &mut |n| {
                        if let Some(fs) = by_name.get(&n) {
                            callees.extend(fs.iter().copied());
                        }
                    });
                }
                stack.extend(callees.into_iter().rev().filter(|&j| !seen[j]));
            }
        }
        order
    }

    /// Inlines each function called from one place only, and each small
    /// one called from a few (see the module), callees before their
    /// callers: what is inlined does not hang on the functions' names.
    fn inline(&self, functions: &mut Vec<(Function, bool)>, kept: &[Name]) {
        let mut refused: Vec<Name> = Vec::new();
        for _ in 0..functions.len().min(256) {
            // How often each name is called, and mentioned otherwise; and
            // whether a function calls itself.
            let mut calls: HashMap<Name, (usize, usize)> = HashMap::new();
            let mut defined: HashMap<Name, usize> = HashMap::new();
            for (f, _) in functions.iter() {
                if let Some(n) = f.name {
                    *defined.entry(n).or_default() += 1;
                }
            }
            let mut recursive: Vec<Name> = Vec::new();
            let mut named: Vec<Vec<Name>> = Vec::with_capacity(functions.len());
            for (f, _) in functions.iter() {
                let mut mine = Vec::new();
                for s in &f.body {
                    count_calls(s, &mut |n, call| {
                        let entry = calls.entry(n).or_default();
                        if call {
                            entry.0 += 1;
                        } else {
                            entry.1 += 1;
                        }
                        if f.name == Some(n) {
                            recursive.push(n);
                        }
                        mine.push(n);
                    });
                }
                mine.sort_unstable();
                mine.dedup();
                named.push(mine);
            }
            // The functions still to be decided: each may be inlined.
            let open = |f: &Function, entry: bool| {
                f.name.is_some_and(|n| {
                    !entry
                        && defined.get(&n) == Some(&1)
                        && kept.binary_search(&n).is_err()
                        && !refused.contains(&n)
                        && !recursive.contains(&n)
                })
            };
            let undecided: Vec<Name> = functions
                .iter()
                .filter(|(f, entry)| open(f, *entry))
                .filter_map(|(f, _)| f.name)
                .collect();
            // Those whose callees are all decided, the first by name (the
            // order among them changes nothing: none calls another).
            let ready = functions
                .iter()
                .enumerate()
                .filter(|(_, (f, entry))| open(f, *entry))
                .filter(|(i, (f, _))| {
                    named[*i]
                        .iter()
                        .all(|n| Some(*n) == f.name || !undecided.contains(n))
                })
                .min_by_key(|(_, (f, _))| self.namer.names.text(f.name.unwrap_or(0)))
                .map(|(i, _)| i);
            let Some(callee) = ready else {
                // Calls in a circle: none of them is inlined.
                refused.extend(undecided);
                return;
            };
            let g = functions[callee].0.clone();
            let name = g.name.unwrap_or(0);
            let (called, mentioned) = calls.get(&name).copied().unwrap_or_default();
            let small = size(&g.body) <= MAX_SHARED_INLINED && {
                let mut out = Out::key(self.namer);
                out.block(&g.body, g.at);
                out.syms.len() <= MAX_SHARED_SYMBOLS
            };
            let ok = mentioned == 0
                && (called == 1 && size(&g.body) <= MAX_INLINED
                    || (2..=MAX_SITES).contains(&called) && small);
            if !ok {
                refused.push(name);
                continue;
            }
            let mut inlined = 0;
            for (caller, (f, _)) in functions.iter_mut().enumerate() {
                while caller != callee && inlined < called {
                    let body = std::mem::take(&mut f.body);
                    let (body, done) = self.inline_in(body, &g);
                    f.body = body;
                    if !done {
                        break;
                    }
                    inlined += 1;
                }
            }
            if inlined == called {
                functions.remove(callee);
            } else {
                refused.push(name);
            }
        }
    }

    /// `body` with the one call of `g` in it replaced by `g`'s body, if the
    /// call is a statement of its own, a value assigned, a variable's
    /// initial value or a value returned; whether it was.
    fn inline_in(&self, body: Vec<Stmt>, g: &Function) -> (Vec<Stmt>, bool) {
        let mut done = false;
        let out = body
            .into_iter()
            .flat_map(|s| {
                if done {
                    return vec![s];
                }
                let (s, did) = self.inline_stmt(s, g);
                done |= did;
                s
            })
            .collect();
        (out, done)
    }

    fn inline_stmt(&self, s: Stmt, g: &Function) -> (Vec<Stmt>, bool) {
        let name = g.name.unwrap_or(0);
        let is_g = |f: &Expr| match f {
            Expr::Name(n, _) => *n == name,
            Expr::Member(r, n, _) => *n == name && matches!(**r, Expr::Lit(Lit::This, _)),
            _ => false,
        };
        let call_of_g = |e: &Expr| matches!(e, Expr::Call(f, _, _) if is_g(f));
        let args = |e: &Expr| match e {
            Expr::Call(_, args, _) => args.clone(),
            _ => Vec::new(),
        };
        match s {
            Stmt::Expr(e, at) if call_of_g(&e) => {
                let body = self.bound(g, args(&e), at);
                let body = returns_to(body, &|v, at| Some(Stmt::Expr(v, at)));
                (vec![Stmt::Block(body, at)], true)
            }
            Stmt::Expr(Expr::Assign(op, lhs, rhs, a), at) if call_of_g(&rhs) => {
                let body = self.bound(g, args(&rhs), at);
                let make = |v: Expr, at: At| {
                    Some(Stmt::Expr(
                        Expr::Assign(op, lhs.clone(), Box::new(v), a),
                        at,
                    ))
                };
                (vec![Stmt::Block(returns_to(body, &make), at)], true)
            }
            Stmt::Decl(mut ds, at)
                if ds.len() == 1 && ds[0].init.as_ref().is_some_and(call_of_g) =>
            {
                let init = ds[0].init.take().unwrap_or(Expr::Other(Vec::new()));
                let target = Expr::Name(ds[0].name, ds[0].at);
                let body = self.bound(g, args(&init), at);
                let make = |v: Expr, at: At| {
                    Some(Stmt::Expr(
                        Expr::Assign(Op::p("="), Box::new(target.clone()), Box::new(v), at),
                        at,
                    ))
                };
                (
                    vec![Stmt::Decl(ds, at), Stmt::Block(returns_to(body, &make), at)],
                    true,
                )
            }
            Stmt::Return(Some(e), at) if call_of_g(&e) => {
                (vec![Stmt::Block(self.bound(g, args(&e), at), at)], true)
            }
            // The call inside an expression: its value put in a variable
            // first, as one who inlines it by hand writes it.
            Stmt::Expr(mut e, at) if holds_call(&e, &is_g) => {
                let block = self.value_first(g, &mut e, &is_g, at);
                (vec![block, Stmt::Expr(e, at)], true)
            }
            Stmt::Return(Some(mut e), at) if holds_call(&e, &is_g) => {
                let block = self.value_first(g, &mut e, &is_g, at);
                (vec![block, Stmt::Return(Some(e), at)], true)
            }
            Stmt::If(mut c, a, b, at) if holds_call(&c, &is_g) => {
                let block = self.value_first(g, &mut c, &is_g, at);
                (vec![block, Stmt::If(c, a, b, at)], true)
            }
            Stmt::Decl(mut ds, at)
                if ds
                    .iter()
                    .any(|d| d.init.as_ref().is_some_and(|e| holds_call(e, &is_g))) =>
            {
                let mut block = None;
                for d in &mut ds {
                    if let Some(init) = d.init.as_mut().filter(|e| holds_call(e, &is_g)) {
                        block = Some(self.value_first(g, init, &is_g, at));
                        break;
                    }
                }
                (
                    block.into_iter().chain([Stmt::Decl(ds, at)]).collect(),
                    true,
                )
            }
            Stmt::Block(stmts, at) => {
                let (stmts, done) = self.inline_in(stmts, g);
                (vec![Stmt::Block(stmts, at)], done)
            }
            Stmt::If(c, a, b, at) => {
                let (a, mut done) = self.inline_one(*a, g);
                let b = b.map(|b| {
                    if done {
                        *b
                    } else {
                        let (b, d) = self.inline_one(*b, g);
                        done = d;
                        b
                    }
                });
                (vec![Stmt::If(c, Box::new(a), b.map(Box::new), at)], done)
            }
            Stmt::Loop(mut l) => {
                let (body, done) = self.inline_one(*l.body, g);
                l.body = Box::new(body);
                (vec![Stmt::Loop(l)], done)
            }
            Stmt::Switch(e, body, at) => {
                let (body, done) = self.inline_one(*body, g);
                (vec![Stmt::Switch(e, Box::new(body), at)], done)
            }
            other => (vec![other], false),
        }
    }

    /// `g`'s body, for its one call in `e`, its value put in the
    /// variable of inlined values, which takes the call's place in `e`.
    fn value_first(
        &self,
        g: &Function,
        e: &mut Expr,
        is_g: &dyn Fn(&Expr) -> bool,
        at: At,
    ) -> Stmt {
        let temp = Expr::Name(self.temp, at);
        let args = take_call(e, is_g, &temp).unwrap_or_default();
        let body = self.bound(g, args, at);
        let make = |v: Expr, at: At| {
            Some(Stmt::Expr(
                Expr::Assign(Op::p("="), Box::new(temp.clone()), Box::new(v), at),
                at,
            ))
        };
        Stmt::Block(returns_to(body, &make), at)
    }

    fn inline_one(&self, s: Stmt, g: &Function) -> (Stmt, bool) {
        let at = s.at();
        let (mut stmts, done) = self.inline_stmt(s, g);
        let s = if stmts.len() == 1 {
            stmts.pop().unwrap_or(Stmt::Block(Vec::new(), at))
        } else {
            Stmt::Block(stmts, at)
        };
        (s, done)
    }

    /// `g`'s body with its parameters bound to `args`: each replaced by its
    /// argument where the body never assigns it, else assigned it first.
    fn bound(&self, g: &Function, args: Vec<Expr>, at: At) -> Vec<Stmt> {
        let written = assigned(&g.body);
        let mut map = Vec::new();
        let mut first = Vec::new();
        for (p, a) in g.params.iter().zip(args) {
            if written.contains(p) {
                let target = Box::new(Expr::Name(*p, at));
                first.push(Stmt::Expr(
                    Expr::Assign(Op::p("="), target, Box::new(a), at),
                    at,
                ));
            } else {
                map.push((*p, a));
            }
        }
        let mut body = g.body.clone();
        if !map.is_empty() {
            for s in &mut body {
                each_expr_mut(s, &mut |e| substitute(e, &map));
            }
        }
        first.extend(body);
        first
    }
}

/// Whether `e` holds a call that `is_g` takes.
fn holds_call(e: &Expr, is_g: &dyn Fn(&Expr) -> bool) -> bool {
    if let Expr::Call(f, _, _) = e {
        if is_g(f) {
            return true;
        }
    }
    let mut found = false;
    e.each_child(&mut |c| found = found || holds_call(c, is_g));
    found
}

/// Replaces the first call in `e` that `is_g` takes by `by`; its
/// arguments, if there was one.
fn take_call(e: &mut Expr, is_g: &dyn Fn(&Expr) -> bool, by: &Expr) -> Option<Vec<Expr>> {
    if let Expr::Call(f, args, _) = e {
        if is_g(f) {
            let args = std::mem::take(args);
            *e = by.clone();
            return Some(args);
        }
    }
    let mut found = None;
    e.each_child_mut(&mut |c| {
        if found.is_none() {
            found = take_call(c, is_g, by);
        }
    });
    found
}

/// Calls `f` with each name `s` calls (`true`) or mentions otherwise
/// (`false`): `g(x)` and `this.g(x)` call `g`.
fn count_calls(s: &Stmt, f: &mut dyn FnMut(Name, bool)) {
    fn visit(e: &Expr, f: &mut dyn FnMut(Name, bool)) {
        match e {
            Expr::Call(callee, args, _) => {
                match &**callee {
                    Expr::Name(n, _) => f(*n, true),
                    Expr::Member(r, n, _) if matches!(**r, Expr::Lit(Lit::This, _)) => f(*n, true),
                    other => visit(other, f),
                }
                args.iter().for_each(|a| visit(a, f));
            }
            Expr::Name(n, _) => f(*n, false),
            Expr::Member(a, n, _) => {
                visit(a, f);
                f(*n, false);
            }
            Expr::Other(_) => e.each_name(&mut |n| f(n, false)),
            _ => e.each_child(&mut |c| visit(c, f)),
        }
    }
    each_expr(s, &mut |e| visit(e, f));
    if let Stmt::Other(tokens) = s {
        tokens
            .iter()
            .filter(|t| t.kind == super::lex::Kind::Ident)
            .for_each(|t| f(t.text, false));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The normal form of C sources.
    fn normal(files: &[&str]) -> Vec<Sym> {
        let files: Vec<(Lang, &[u8])> = files.iter().map(|f| (Lang::C, f.as_bytes())).collect();
        normal_form(&files, usize::MAX, &[]).syms
    }

    #[track_caller]
    fn same(a: &str, b: &str) {
        assert_eq!(normal(&[a]), normal(&[b]), "\n{a}\n---\n{b}");
    }

    #[track_caller]
    fn differ(a: &str, b: &str) {
        assert_ne!(normal(&[a]), normal(&[b]), "\n{a}\n---\n{b}");
    }

    #[test]
    fn loops_and_increments_are_one() {
        same(
            "int main() { int i, s = 0; for (i = 0; i < 10; i++) s += i; return s; }",
            "int main() { int s = 0; int i = 0; while (10 > i) { s = s + i; i = i + 1; } return s; }",
        );
        same(
            "int main() { int n = 3; for (;;) { if (n == 0) break; --n; } return n; }",
            "int main() { int n = 3; while (1) { if (!n) break; n -= 1; } return n; }",
        );
        differ(
            "int main() { int i, s = 0; for (i = 0; i < 10; i++) s += i; return s; }",
            "int main() { int i, s = 0; for (i = 0; i < 10; i++) s *= i; return s; }",
        );
    }

    #[test]
    fn negated_conditions_and_switches_are_one() {
        same(
            "int f(int a, int b) { if (a < b) return a; else return b; } int main() { return f(1, 2) + f(2, 1); }",
            "int f(int x, int y) { if (x >= y) { return y; } return x; } int main() { return f(1, 2) + f(2, 1); }",
        );
        same(
            "int g(int c) { int r; switch (c) { case 1: r = 5; break; case 2: case 3: r = 7; break; default: r = 0; } return r; } int main() { return g(1) + g(2); }",
            "int g(int c) { int r; if (c == 1) r = 5; else if (c == 3 || c == 2) r = 7; else r = 0; return r; } int main() { return g(1) + g(2); }",
        );
        same(
            "int main(int n) { int x = n > 0 ? 1 : 2; return x; }",
            "int main(int n) { int x; if (n <= 0) x = 2; else x = 1; return x; }",
        );
    }

    #[test]
    fn dead_code_is_left_out() {
        same(
            "int main() { int a = 1; return a; }",
            "static int unused(int q) { return q * 2; } int main() { int a = 1; int junk = 5; junk++; if (0) { a = 3; } return a; a = 4; }",
        );
    }

    #[test]
    fn independent_statements_and_functions_take_one_order() {
        same(
            "int f(int x) { return x + 1; } int g(int y) { return y * 2; } int main() { int a = 1; int b = 2; printf(\"%d\", f(a) + g(b)); printf(\"%d\", f(b) + g(a)); return 0; }",
            "int g(int y) { return y * 2; } int f(int x) { return x + 1; } int main() { int b = 2; int a = 1; printf(\"%d\", f(a) + g(b)); printf(\"%d\", f(b) + g(a)); return 0; }",
        );
        // Output keeps its order.
        differ(
            "int main() { printf(\"a\"); puts(\"b\"); return 0; }",
            "int main() { puts(\"b\"); printf(\"a\"); return 0; }",
        );
    }

    #[test]
    fn a_function_split_or_inlined_reads_the_same() {
        same(
            "int main() { int n = 5; int s = 0; while (n > 0) { s += n; n--; } printf(\"%d\", s); return 0; }",
            "int total(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; } int main() { int n = 5; int s = total(n); printf(\"%d\", s); return 0; }",
        );
    }

    /// The disguises the normal form does not undo: each pair is the same
    /// program, and their normal forms differ (docs/similarity.md says so;
    /// the tiles still match what the disguise left alone).
    #[test]
    fn the_limits_recursion_temporaries_duplicated_inlining() {
        // Recursion for a loop.
        differ(
            "int f(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; } int main() { return f(4); }",
            "int f(int n) { if (n <= 0) return 0; return n + f(n - 1); } int main() { return f(4); }",
        );
        // A subexpression through a variable of its own.
        differ(
            "int main(int a, int b) { int x = a * b + 7; return x; }",
            "int main(int a, int b) { int t = a * b; int x = t + 7; return x; }",
        );
        // A function called from more places than MAX_SITES, inlined at
        // each: it is kept a function (five copies of it are not).
        differ(
            "int sq(int v) { return v * v; } int main(int a) { return sq(a) + sq(a + 1) + sq(a + 2) + sq(a + 3) + sq(a + 4); }",
            "int main(int a) { int b = a + 1, c = a + 2, d = a + 3, e = a + 4; return a * a + b * b + c * c + d * d + e * e; }",
        );
    }

    #[test]
    fn repeated_code_made_a_helper_reads_as_the_repeated_code() {
        // A function called twice, inlined at both calls.
        same(
            "int sq(int v) { return v * v; } int main(int a, int b) { int x = sq(a); int y = sq(b); return x - y; }",
            "int main(int a, int b) { int x = a * a; int y = b * b; return x - y; }",
        );
        // Two printing loops made one function, called for each.
        same(
            "void show(char *label, int *t, int n) { int i; printf(\"%s: \", label); for (i = 0; i < n; i++) printf(\"%d \", t[i]); printf(\"\\n\"); } int main(int n, int *s, int *g) { show(\"start\", s, n); show(\"goal\", g, n); return 0; }",
            "int main(int n, int *s, int *g) { int i; printf(\"%s: \", \"start\"); for (i = 0; i < n; i++) printf(\"%d \", s[i]); printf(\"\\n\"); printf(\"%s: \", \"goal\"); i = 0; while (i < n) { printf(\"%d \", g[i]); i++; } printf(\"\\n\"); return 0; }",
        );
        // Which helper is inlined first does not hang on its name: the
        // same program with its helpers renamed reads the same.
        same(
            "int aa(int v) { return v + 1; } int bb(int v) { return aa(v) * aa(v + 2); } int main(int x) { return bb(x) - bb(x * 3); }",
            "int zz(int v) { return v + 1; } int cc(int v) { return zz(v) * zz(v + 2); } int main(int x) { return cc(x) - cc(x * 3); }",
        );
    }

    #[test]
    fn the_limits_output_calls_of_ones_own_and_moved_exit_tests() {
        // Output split or merged.
        differ(
            "int main() { printf(\"start: \"); printf(\"%d\\n\", 1); return 0; }",
            "int main() { printf(\"start: %d\\n\", 1); return 0; }",
        );
        // Two calls of the program's own functions swapped: what they do
        // is not known, so their order stays.
        differ(
            "void put(int *p) { free(p); } int main() { int *a = malloc(8); put(a); put(a + 1); return 0; }",
            "void put(int *p) { free(p); } int main() { int *a = malloc(8); put(a + 1); put(a); return 0; }",
        );
        // A loop's `break` made part of its condition.
        differ(
            "int main(int n, int *a) { int k; for (k = 0; k < n; k++) if (a[k] == 0) break; return k; }",
            "int main(int n, int *a) { int k = 0; while (k < n && a[k] != 0) k++; return k; }",
        );
    }

    #[test]
    fn the_limits_a_chain_of_thresholds_turned_round() {
        // The same bands tested from the top and from the bottom: a
        // different decision tree (equal only because the thresholds are
        // in order).
        differ(
            "char *band(int m) { if (m >= 85) return \"HD\"; else if (m >= 50) return \"PS\"; else return \"FL\"; } int main(int m) { puts(band(m)); return 0; }",
            "char *band(int m) { if (m < 50) return \"FL\"; if (m < 85) return \"PS\"; return \"HD\"; } int main(int m) { puts(band(m)); return 0; }",
        );
    }

    #[test]
    fn the_limits_a_loop_over_a_collection_for_one_over_its_indices() {
        let java = |text: &str| normal_form(&[(Lang::Java, text.as_bytes())], usize::MAX, &[]).syms;
        assert_ne!(
            java("class A { public static void main(String[] a) { int s = 0; for (String x : a) { s += x.length(); } System.out.println(s); } }"),
            java("class A { public static void main(String[] a) { int s = 0; for (int i = 0; i < a.length; i++) { s += a[i].length(); } System.out.println(s); } }"),
        );
    }

    #[test]
    fn template_functions_are_not_inlined() {
        let files = [(
            Lang::C,
            &b"int helper(int x) { return x + 1; } int main() { return helper(2); }"[..],
        )];
        let plain = normal_form(&files, usize::MAX, &[]);
        let kept = normal_form(&files, usize::MAX, &[b"helper".to_vec()]);
        assert_ne!(plain.syms, kept.syms);
        assert_eq!(kept.syms.iter().filter(|&&s| s == FUNC).count(), 2);
        assert_eq!(plain.syms.iter().filter(|&&s| s == FUNC).count(), 1);
    }
}
