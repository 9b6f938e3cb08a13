//! The canonical forms: each way of writing the same thing that copiers
//! use to disguise code, made one, within a function.
//!
//! - Expressions: `a > b` is `b < a`, `a >= b` is `b <= a`; the operands
//!   of `+ * & | ^ == != && ||` in a fixed order (by their normal form);
//!   `!` pushed inwards (`!(a < b)` is `b <= a`, `!(a && b)` is `!a ||
//!   !b`); in a condition, `x != 0`, `x != NULL`, `x != '\0'`, `x ==
//!   true` are `x` and `x == 0` is `!x`; `x = x + e` is `x += e`; `*(p +
//!   i)` is `p[i]` and `(*p).f` is `p->f`; casts and unary `+` are gone.
//! - Statements: `i++`, `++i`, `i += 1` and `i = i + 1` alone are one;
//!   `for (a; c; s) S` is `a; while (c) { S s; }`; `for (;;)` and `while
//!   (1)` are one loop without a condition; a declaration is its
//!   assignments (a variable declared without a value is nothing, and
//!   where a declaration stands is no evidence); `if (!c) A else B` is `if
//!   (c) B else A` (the condition with the fewer negations first; the
//!   branch that jumps out first); `if (c) { ... return; } else B` is `if
//!   (c) { ... return; } B`; `if (a) if (b) S` is `if (a && b) S`; a
//!   `switch` whose cases each end in `break` is its `if`-`else` chain;
//!   `x = c ? a : b` and `return c ? a : b` are their `if`s; `a, b;` is
//!   two statements.
//! - Dead code: statements after a `return`, `break`, `continue`,
//!   `throw`, `goto` or `exit()` in their block, `if (0)`, `while (0)`,
//!   statements without an effect (`x;`), and variables declared and never
//!   read, with their assignments (what their values' calls do is kept).

use super::emit::{expr_key, Namer};
use super::library::has_effect;
use super::tree::{At, Expr, Lit, Loop, LoopKind, Name, Op, Stmt};

/// Rewrites the functions of one submission.
pub struct Rewriter<'a> {
    /// How names are written (and spelt).
    pub namer: &'a Namer<'a>,
    /// The variables the function being rewritten declares.
    pub locals: Vec<Name>,
}

/// The operators whose operands may come in any order.
fn commutative(op: Op) -> bool {
    ["+", "*", "&", "|", "^", "==", "!=", "&&", "||"]
        .iter()
        .any(|t| op.is(t))
}

/// `e` with the operands of every chain of `op` in it, in order.
fn flatten(op: Op, e: Expr, into: &mut Vec<Expr>) {
    // A chain leans left: ((a + b) + c) + d; its right operands are
    // gathered walking down, then put back in order.
    let mut rights = Vec::new();
    let mut e = e;
    loop {
        match e {
            Expr::Bin(o, a, b, _) if o == op => {
                rights.push(*b);
                e = *a;
            }
            other => {
                into.push(other);
                break;
            }
        }
    }
    while let Some(b) = rights.pop() {
        match b {
            Expr::Bin(o, ..) if o == op => flatten(op, b, into),
            other => into.push(other),
        }
    }
}

impl Rewriter<'_> {
    /// Whether `e` is the literal zero, `NULL`, `'\0'` or `false`.
    fn is_zero(&self, e: &Expr) -> bool {
        let text = |t: u32| self.namer.names.text(t);
        match e {
            Expr::Lit(Lit::Number(t), _) => {
                matches!(text(*t), b"0" | b"0L" | b"0.0" | b"0x0" | b"00")
            }
            Expr::Lit(Lit::Char(t), _) => matches!(text(*t), b"'\\0'" | b"'\\x00'" | b"'\\000'"),
            Expr::Lit(Lit::Null | Lit::False, _) => true,
            Expr::Name(n, _) => !self.namer.is_own(*n) && self.namer.spelt(*n, "NULL"),
            _ => false,
        }
    }

    /// Whether `e` is the literal one.
    fn is_one(&self, e: &Expr) -> bool {
        matches!(e, Expr::Lit(Lit::Number(t), _) if matches!(self.namer.names.text(*t), b"1" | b"1L"))
    }

    /// The value of a constant condition.
    fn constant(&self, e: &Expr) -> Option<bool> {
        match e {
            Expr::Lit(Lit::True, _) => Some(true),
            Expr::Lit(Lit::Number(_), _) => Some(!self.is_zero(e)),
            Expr::Lit(Lit::False, _) => Some(false),
            _ => None,
        }
    }

    /// `e` in canonical form.
    pub fn expr(&self, e: Expr) -> Expr {
        match e {
            Expr::Unary(op, a, _) if op.is("!") => self.negate(self.cond(*a)),
            Expr::Unary(op, a, _) if op.is("+") => self.expr(*a),
            Expr::Unary(op, a, at) if op.is("*") => match self.expr(*a) {
                Expr::Bin(plus, p, i, _) if plus.is("+") => Expr::Index(p, i, at),
                a => Expr::Unary(op, Box::new(a), at),
            },
            Expr::Unary(op, a, at) => Expr::Unary(op, Box::new(self.expr(*a)), at),
            Expr::Post(op, a, at) => Expr::Post(op, Box::new(self.expr(*a)), at),
            Expr::Bin(op, a, b, at) => {
                let logical = op.is("&&") || op.is("||");
                let (a, b) = if logical {
                    (self.cond(*a), self.cond(*b))
                } else {
                    (self.expr(*a), self.expr(*b))
                };
                self.binary(op, a, b, at)
            }
            Expr::Assign(op, lhs, rhs, at) => {
                let lhs = self.expr(*lhs);
                let rhs = self.expr(*rhs);
                if op.is("=") {
                    if let Expr::Bin(o, ..) = &rhs {
                        let o = *o;
                        let compound = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
                            .iter()
                            .find(|t| o.is(t));
                        if let Some(text) = compound {
                            if let Some(rest) = self.without_operand(o, rhs.clone(), &lhs) {
                                let op = Op::p(&format!("{text}="));
                                return Expr::Assign(op, Box::new(lhs), Box::new(rest), at);
                            }
                        }
                    }
                }
                Expr::Assign(op, Box::new(lhs), Box::new(rhs), at)
            }
            Expr::Cond(c, a, b, at) => {
                let (c, a, b) = (self.cond(*c), self.expr(*a), self.expr(*b));
                if self.prefer_negated(&c) {
                    Expr::Cond(Box::new(self.negate(c)), Box::new(b), Box::new(a), at)
                } else {
                    Expr::Cond(Box::new(c), Box::new(a), Box::new(b), at)
                }
            }
            Expr::Call(f, args, at) => Expr::Call(
                Box::new(self.expr(*f)),
                args.into_iter().map(|a| self.expr(a)).collect(),
                at,
            ),
            Expr::Index(a, i, at) => {
                Expr::Index(Box::new(self.expr(*a)), Box::new(self.expr(*i)), at)
            }
            Expr::Member(a, field, at) => match self.expr(*a) {
                Expr::Unary(op, p, _) if op.is("*") => Expr::Member(p, field, at),
                a => Expr::Member(Box::new(a), field, at),
            },
            Expr::List(items, at) => {
                Expr::List(items.into_iter().map(|a| self.expr(a)).collect(), at)
            }
            other => other,
        }
    }

    /// `a op b`, both canonical, in canonical form: comparisons turned to
    /// `<` and `<=`, commutative chains in order.
    fn binary(&self, op: Op, a: Expr, b: Expr, at: At) -> Expr {
        if op.is(">") {
            return Expr::Bin(Op::p("<"), Box::new(b), Box::new(a), at);
        }
        if op.is(">=") {
            return Expr::Bin(Op::p("<="), Box::new(b), Box::new(a), at);
        }
        if !commutative(op) {
            return Expr::Bin(op, Box::new(a), Box::new(b), at);
        }
        let mut operands = Vec::new();
        flatten(op, a, &mut operands);
        flatten(op, b, &mut operands);
        self.chain(op, operands, at)
    }

    /// The operands of a commutative `op`, sorted by their normal form and
    /// joined, leaning left.
    fn chain(&self, op: Op, operands: Vec<Expr>, at: At) -> Expr {
        let mut keyed: Vec<(Vec<u32>, Expr)> = operands
            .into_iter()
            .map(|e| (expr_key(self.namer, &e), e))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let mut it = keyed.into_iter().map(|(_, e)| e);
        let first = it.next().unwrap_or(Expr::Other(Vec::new()));
        it.fold(first, |acc, e| {
            Expr::Bin(op, Box::new(acc), Box::new(e), at)
        })
    }

    /// `rhs` (a chain of `op`) without one operand that is `lhs`: `x = x +
    /// e` is `x += e` (for a commutative `op`, `x = e + x` too); none when
    /// `lhs` is not there.
    fn without_operand(&self, op: Op, rhs: Expr, lhs: &Expr) -> Option<Expr> {
        let Expr::Bin(_, a, b, at) = rhs else {
            return None;
        };
        if !commutative(op) {
            return a.same(lhs).then_some(*b);
        }
        let mut operands = Vec::new();
        flatten(op, Expr::Bin(op, a, b, at), &mut operands);
        let i = operands.iter().position(|e| e.same(lhs))?;
        operands.remove(i);
        Some(self.chain(op, operands, at))
    }

    /// `e` as a condition: canonical, with its comparisons to zero, `NULL`
    /// and `true` taken out.
    pub fn cond(&self, e: Expr) -> Expr {
        match self.expr(e) {
            Expr::Bin(op, a, b, at) if op.is("!=") || op.is("==") => {
                let truth = |e: &Expr| matches!(e, Expr::Lit(Lit::True, _));
                let (value, other) = if self.is_zero(&b) || truth(&b) {
                    (*a, *b)
                } else if self.is_zero(&a) || truth(&a) {
                    (*b, *a)
                } else {
                    return Expr::Bin(op, a, b, at);
                };
                // `x != 0` and `x == true` are `x`; `x == 0`, `x != true`: `!x`.
                if op.is("!=") != truth(&other) {
                    value
                } else {
                    self.negate(value)
                }
            }
            e => e,
        }
    }

    /// `!e` in canonical form (`e` canonical).
    pub fn negate(&self, e: Expr) -> Expr {
        match e {
            Expr::Unary(op, a, _) if op.is("!") => *a,
            Expr::Bin(op, a, b, at) => {
                let flip = |t: &str| Expr::Bin(Op::p(t), a.clone(), b.clone(), at);
                match op {
                    _ if op.is("==") => flip("!="),
                    _ if op.is("!=") => flip("=="),
                    _ if op.is("<") => Expr::Bin(Op::p("<="), b, a, at),
                    _ if op.is("<=") => Expr::Bin(Op::p("<"), b, a, at),
                    _ if op.is("&&") || op.is("||") => {
                        let dual = Op::p(if op.is("&&") { "||" } else { "&&" });
                        let mut operands = Vec::new();
                        flatten(op, Expr::Bin(op, a, b, at), &mut operands);
                        let negated = operands.into_iter().map(|e| self.negate(e)).collect();
                        self.chain(dual, negated, at)
                    }
                    _ => Expr::Unary(Op::p("!"), Box::new(Expr::Bin(op, a, b, at)), at),
                }
            }
            Expr::Lit(Lit::True, at) => Expr::Lit(Lit::False, at),
            Expr::Lit(Lit::False, at) => Expr::Lit(Lit::True, at),
            e => {
                let at = e.at();
                Expr::Unary(Op::p("!"), Box::new(e), at)
            }
        }
    }

    /// Whether the negation of the condition `c` is its canonical way
    /// round: fewer negations (`!`, `!=`, `<=`), then the smaller normal
    /// form, so that `c` and `!c` pick the same one.
    fn prefer_negated(&self, c: &Expr) -> bool {
        let n = self.negate(c.clone());
        let (mine, theirs) = (negations(c), negations(&n));
        if mine != theirs {
            return theirs < mine;
        }
        expr_key(self.namer, &n) < expr_key(self.namer, c)
    }

    /// Whether `s` ends the program: `exit(...)`, `abort()`,
    /// `System.exit(...)`.
    fn is_exit(&self, s: &Stmt) -> bool {
        let Stmt::Expr(Expr::Call(f, _, _), _) = s else {
            return false;
        };
        match &**f {
            Expr::Name(n, _) => {
                !self.namer.is_own(*n)
                    && self
                        .namer
                        .spelt_in(*n, &["exit", "abort", "_exit", "_Exit"])
            }
            Expr::Member(r, n, _) => {
                self.namer.spelt(*n, "exit")
                    && matches!(&**r, Expr::Name(s, _) if self.namer.spelt(*s, "System"))
            }
            _ => false,
        }
    }

    /// Whether control never goes past the statements `block`.
    fn ends_in_jump(&self, block: &[Stmt]) -> bool {
        block.last().is_some_and(|s| s.is_jump() || self.is_exit(s))
    }

    /// The statements `stmts` in canonical form, dead ones left out.
    pub fn block(&mut self, stmts: Vec<Stmt>) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            self.stmt_into(s, &mut out);
        }
        // What follows a jump is dead, up to a `case` (which is reached
        // from the switch).
        let mut live = true;
        out.retain(|s| {
            if matches!(s, Stmt::Case(..)) {
                live = true;
            }
            let keep = live;
            if live && (s.is_jump() || self.is_exit(s)) {
                live = false;
            }
            keep
        });
        self.orient_exits(out)
    }

    /// `if (c) { ... jump; } rest` where the rest ends in a jump too is
    /// `if (c) { ... } else { rest }`: oriented as an `if`-`else` is, so
    /// that `if (!c) { B; jump; } A; jump;` reads as `if (c) { A; jump; }
    /// B; jump;`. From the end of the block backwards, so that the rest is
    /// canonical when an `if` before it takes it in.
    fn orient_exits(&self, mut block: Vec<Stmt>) -> Vec<Stmt> {
        if block.iter().any(|s| matches!(s, Stmt::Case(..))) {
            return block;
        }
        let mut i = block.len();
        while i > 1 {
            i -= 1;
            let rest_jumps = self.ends_in_jump(&block[i..]);
            let Stmt::If(c, then, None, _) = &block[i - 1] else {
                continue;
            };
            let then_jumps = match &**then {
                Stmt::Block(b, _) => self.ends_in_jump(b),
                s => self.ends_in_jump(std::slice::from_ref(s)),
            };
            if !(rest_jumps && then_jumps && self.prefer_negated(c)) {
                continue;
            }
            let rest: Vec<Stmt> = block.drain(i..).collect();
            let Some(Stmt::If(c, then, None, at)) = block.pop() else {
                unreachable!("an if")
            };
            block.push(Stmt::If(
                self.negate(c),
                Box::new(Stmt::Block(rest, at)),
                None,
                at,
            ));
            match *then {
                Stmt::Block(b, _) => block.extend(b),
                s => block.push(s),
            }
            // The new `if` is at i - 1: what comes before it is next.
            i -= 1;
        }
        block
    }

    /// The governed statement `s` as a canonical block.
    fn body(&mut self, s: Stmt) -> Vec<Stmt> {
        self.block(vec![s])
    }

    /// Puts the canonical form of `s` (none, one or several statements)
    /// into `out`.
    pub fn stmt_into(&mut self, s: Stmt, out: &mut Vec<Stmt>) {
        match s {
            Stmt::Expr(e, at) => self.expr_stmt(e, at, out),
            Stmt::Decl(ds, _) => {
                for d in ds {
                    self.locals.push(d.name);
                    if let Some(init) = d.init {
                        let name = Expr::Name(d.name, d.at);
                        let assign = Expr::Assign(Op::p("="), Box::new(name), Box::new(init), d.at);
                        self.expr_stmt(assign, d.at, out);
                    }
                }
            }
            Stmt::Block(stmts, _) => {
                for s in stmts {
                    self.stmt_into(s, out);
                }
            }
            Stmt::If(c, then, otherwise, at) => {
                self.if_stmt(c, *then, otherwise.map(|e| *e), at, out)
            }
            Stmt::Loop(l) => self.loop_stmt(l, out),
            Stmt::Switch(subject, body, at) => self.switch_stmt(subject, *body, at, out),
            Stmt::Return(Some(Expr::Cond(c, a, b, _)), at) => {
                let (a, b) = (Stmt::Return(Some(*a), at), Stmt::Return(Some(*b), at));
                self.if_stmt(*c, a, Some(b), at, out);
            }
            Stmt::Return(value, at) => out.push(Stmt::Return(value.map(|v| self.expr(v)), at)),
            Stmt::Throw(value, at) => out.push(Stmt::Throw(value.map(|v| self.expr(v)), at)),
            Stmt::Try(blocks, at) => {
                let blocks = blocks
                    .into_iter()
                    .map(|b| {
                        let at = b.at();
                        Stmt::Block(self.body(b), at)
                    })
                    .collect();
                out.push(Stmt::Try(blocks, at));
            }
            other => out.push(other),
        }
    }

    /// An expression statement.
    fn expr_stmt(&mut self, e: Expr, at: At, out: &mut Vec<Stmt>) {
        match self.expr(e) {
            Expr::Bin(op, a, b, _) if op.is(",") => {
                self.expr_stmt(*a, at, out);
                self.expr_stmt(*b, at, out);
            }
            Expr::Assign(op, lhs, rhs, a) if op.is("=") && matches!(*rhs, Expr::Cond(..)) => {
                let Expr::Cond(c, x, y, _) = *rhs else {
                    unreachable!("a conditional")
                };
                let one = Stmt::Expr(Expr::Assign(op, lhs.clone(), x, a), at);
                let other = Stmt::Expr(Expr::Assign(op, lhs, y, a), at);
                self.if_stmt(*c, one, Some(other), at, out);
            }
            Expr::Assign(op, lhs, rhs, a) if (op.is("+=") || op.is("-=")) && self.is_one(&rhs) => {
                let step = Op::p(if op.is("+=") { "++" } else { "--" });
                out.push(Stmt::Expr(Expr::Post(step, lhs, a), at));
            }
            Expr::Assign(op, lhs, rhs, _) if op.is("=") && lhs.same(&rhs) => {}
            // `f(c ? a : b);` is `if (c) f(a); else f(b);`.
            Expr::Call(f, args, a)
                if args.iter().filter(|x| matches!(x, Expr::Cond(..))).count() == 1 =>
            {
                let i = args
                    .iter()
                    .position(|x| matches!(x, Expr::Cond(..)))
                    .unwrap_or(0);
                let mut one = args.clone();
                let mut other = args;
                let Expr::Cond(c, x, y, _) =
                    std::mem::replace(&mut other[i], Expr::Other(Vec::new()))
                else {
                    unreachable!("a conditional")
                };
                one[i] = *x;
                other[i] = *y;
                let one = Stmt::Expr(Expr::Call(f.clone(), one, a), at);
                let other = Stmt::Expr(Expr::Call(f, other, a), at);
                self.if_stmt(*c, one, Some(other), at, out);
            }
            Expr::Unary(op, x, a) if op.is("++") || op.is("--") => {
                out.push(Stmt::Expr(Expr::Post(op, x, a), at));
            }
            e if !has_effect(self.namer, &e) => {}
            e => out.push(Stmt::Expr(e, at)),
        }
    }

    /// `if (c) then else otherwise`.
    fn if_stmt(
        &mut self,
        c: Expr,
        then: Stmt,
        otherwise: Option<Stmt>,
        at: At,
        out: &mut Vec<Stmt>,
    ) {
        let mut c = self.cond(c);
        match self.constant(&c) {
            Some(true) => return self.stmt_into(then, out),
            Some(false) => {
                if let Some(e) = otherwise {
                    self.stmt_into(e, out);
                }
                return;
            }
            None => {}
        }
        let mut then = self.body(then);
        let mut otherwise = otherwise.map(|e| self.body(e)).unwrap_or_default();
        if then.is_empty() && otherwise.is_empty() {
            if has_effect(self.namer, &c) {
                out.push(Stmt::Expr(c, at));
            }
            return;
        }
        if then.is_empty() {
            c = self.negate(c);
            std::mem::swap(&mut then, &mut otherwise);
        }
        if !otherwise.is_empty() {
            let (t, e) = (self.ends_in_jump(&then), self.ends_in_jump(&otherwise));
            let swap = if t != e { e } else { self.prefer_negated(&c) };
            if swap {
                c = self.negate(c);
                std::mem::swap(&mut then, &mut otherwise);
            }
            if self.ends_in_jump(&then) {
                out.push(Stmt::If(c, Box::new(Stmt::Block(then, at)), None, at));
                out.extend(otherwise);
            } else {
                let e = Stmt::Block(otherwise, at);
                out.push(Stmt::If(
                    c,
                    Box::new(Stmt::Block(then, at)),
                    Some(Box::new(e)),
                    at,
                ));
            }
            return;
        }
        // `if (a) if (b) S` is `if (a && b) S`.
        if then.len() == 1 && matches!(&then[0], Stmt::If(_, _, None, _)) {
            if let Some(Stmt::If(d, inner, None, _)) = then.pop() {
                c = self.binary(Op::p("&&"), c, d, at);
                then = match *inner {
                    Stmt::Block(s, _) => s,
                    s => vec![s],
                };
            }
        }
        out.push(Stmt::If(c, Box::new(Stmt::Block(then, at)), None, at));
    }

    /// `block` in tail position (a loop's body, a function's), `tail`
    /// the jump that goes where its end goes (`continue`, `return;`):
    /// such a jump at its end is dropped, and `if (c) { A; jump; } B` is
    /// `if (c) { A } else { B }`.
    pub fn tails(&mut self, mut block: Vec<Stmt>, tail: &dyn Fn(&Stmt) -> bool) -> Vec<Stmt> {
        while block.last().is_some_and(tail) {
            block.pop();
        }
        let ends = |s: &Stmt| match s {
            Stmt::Block(b, _) => b.last().is_some_and(tail),
            s => tail(s),
        };
        let split = block
            .iter()
            .position(|s| matches!(s, Stmt::If(_, then, None, _) if ends(then)));
        if let Some(i) = split {
            let rest = block.split_off(i + 1);
            if let Some(Stmt::If(c, then, None, at)) = block.pop() {
                let then = match *then {
                    Stmt::Block(b, _) => b,
                    s => vec![s],
                };
                let then = self.tails(then, tail);
                let rest = self.tails(rest, tail);
                let (then, rest) = (Stmt::Block(then, at), Stmt::Block(rest, at));
                self.if_stmt(c, then, Some(rest), at, &mut block);
            }
            return block;
        }
        if let Some(Stmt::If(_, a, Some(b), _)) = block.last_mut() {
            for branch in [a, b] {
                let at = branch.at();
                let stmts = match std::mem::replace(&mut **branch, Stmt::Block(Vec::new(), at)) {
                    Stmt::Block(s, _) => s,
                    s => vec![s],
                };
                **branch = Stmt::Block(self.tails(stmts, tail), at);
            }
        }
        block
    }

    /// A loop: `for` as `while`, its first part before it.
    fn loop_stmt(&mut self, l: Loop, out: &mut Vec<Stmt>) {
        let Loop {
            kind,
            init,
            cond,
            step,
            body,
            at,
        } = l;
        if kind == LoopKind::Each {
            let cond = cond.map(|c| self.expr(c));
            let body = self.body(*body);
            let init = init
                .into_iter()
                .map(|s| match s {
                    Stmt::Decl(ds, at) => Stmt::Decl(
                        ds.into_iter()
                            .map(|mut d| {
                                d.init = None;
                                d
                            })
                            .collect(),
                        at,
                    ),
                    s => s,
                })
                .collect();
            let body = Box::new(Stmt::Block(body, at));
            out.push(Stmt::Loop(Loop {
                kind,
                init,
                cond,
                step: Vec::new(),
                body,
                at,
            }));
            return;
        }
        for s in init {
            self.stmt_into(s, out);
        }
        // `while ((c = next()) != end) S` is `c = next(); while (c != end) { S c = next(); }`.
        let (cond, pulled) = match cond {
            Some(c) if kind != LoopKind::Do => {
                let (c, pulled) = pull_assignment(c);
                (Some(c), pulled)
            }
            c => (c, None),
        };
        if let Some(assign) = &pulled {
            self.expr_stmt(assign.clone(), at, out);
        }
        let cond = cond.map(|c| self.cond(c));
        let constant = cond.as_ref().map_or(Some(true), |c| self.constant(c));
        let mut stmts = vec![*body];
        stmts.extend(step.into_iter().map(|e| Stmt::Expr(e, at)));
        stmts.extend(pulled.map(|e| Stmt::Expr(e, at)));
        if kind == LoopKind::Do && constant == Some(false) {
            // `do { ... } while (0)` runs once.
            for s in stmts {
                self.stmt_into(s, out);
            }
            return;
        }
        if constant == Some(false) {
            return;
        }
        let body = self.block(stmts);
        let body = self.tails(body, &|s| matches!(s, Stmt::Continue(_)));
        let cond = if constant == Some(true) { None } else { cond };
        let kind = if kind == LoopKind::Do {
            LoopKind::Do
        } else {
            LoopKind::While
        };
        let body = Box::new(Stmt::Block(body, at));
        out.push(Stmt::Loop(Loop {
            kind,
            init: Vec::new(),
            cond,
            step: Vec::new(),
            body,
            at,
        }));
    }

    /// A `switch`: its `if`-`else` chain when each case ends in a jump
    /// (none falls through into the next), else itself.
    fn switch_stmt(&mut self, subject: Expr, body: Stmt, at: At, out: &mut Vec<Stmt>) {
        let stmts = match body {
            Stmt::Block(s, _) => s,
            s => vec![s],
        };
        match self.as_chain(&subject, &stmts, at) {
            Some(chain) => self.stmt_into(chain, out),
            None => {
                let subject = self.expr(subject);
                let body = self.block(stmts);
                out.push(Stmt::Switch(subject, Box::new(Stmt::Block(body, at)), at));
            }
        }
    }

    /// The `if`-`else` chain a switch on `subject` with body `stmts` is, if
    /// it is one.
    fn as_chain(&self, subject: &Expr, stmts: &[Stmt], at: At) -> Option<Stmt> {
        // Groups: labels, then statements.
        let mut groups: Vec<(Vec<Option<Expr>>, Vec<Stmt>)> = Vec::new();
        for s in stmts {
            match s {
                Stmt::Case(value, _) => match groups.last_mut() {
                    Some((_, body)) if body.is_empty() => groups.last_mut()?.0.push(value.clone()),
                    _ => groups.push((vec![value.clone()], Vec::new())),
                },
                s => groups.last_mut()?.1.push(s.clone()),
            }
        }
        let last = groups.len().checked_sub(1)?;
        let mut default = None;
        let mut cases = Vec::new();
        for (i, (labels, mut body)) in groups.into_iter().enumerate() {
            let ends = body.last().is_some_and(|s| s.is_jump() || self.is_exit(s));
            if !ends && i != last {
                return None;
            }
            if matches!(body.last(), Some(Stmt::Break(_))) {
                body.pop();
            }
            if body.iter().any(breaks_out) {
                return None;
            }
            if labels.iter().any(Option::is_none) {
                default = Some(body);
            } else {
                cases.push((labels, body));
            }
        }
        let mut chain: Option<Stmt> = default.map(|b| Stmt::Block(b, at));
        for (labels, body) in cases.into_iter().rev() {
            let tests = labels
                .into_iter()
                .flatten()
                .map(|v| Expr::Bin(Op::p("=="), Box::new(subject.clone()), Box::new(v), at));
            let cond = tests.reduce(|a, b| Expr::Bin(Op::p("||"), Box::new(a), Box::new(b), at))?;
            chain = Some(Stmt::If(
                cond,
                Box::new(Stmt::Block(body, at)),
                chain.map(Box::new),
                at,
            ));
        }
        chain
    }
}

/// The condition `c` without the assignment its first operand makes
/// (`(x = e) != end` is `x != end`), and that assignment, if there is one.
fn pull_assignment(c: Expr) -> (Expr, Option<Expr>) {
    match c {
        Expr::Assign(op, lhs, rhs, at) if op.is("=") => {
            let target = (*lhs).clone();
            (target, Some(Expr::Assign(op, lhs, rhs, at)))
        }
        Expr::Bin(op, a, b, at) if !op.is(",") => {
            let (a, pulled) = pull_assignment(*a);
            (Expr::Bin(op, Box::new(a), b, at), pulled)
        }
        other => (other, None),
    }
}

/// Whether `s` holds a `break` that leaves the switch it is in (not one of
/// a loop or switch inside it).
fn breaks_out(s: &Stmt) -> bool {
    match s {
        Stmt::Break(_) => true,
        Stmt::Block(stmts, _) | Stmt::Try(stmts, _) => stmts.iter().any(breaks_out),
        Stmt::If(_, a, b, _) => breaks_out(a) || b.as_deref().is_some_and(breaks_out),
        _ => false,
    }
}

/// How many negations the condition `c` holds: `!`, `!=`, `<=`.
fn negations(c: &Expr) -> usize {
    let own = match c {
        Expr::Unary(op, ..) if op.is("!") => 1,
        Expr::Bin(op, ..) if op.is("!=") || op.is("<=") => 1,
        _ => 0,
    };
    let mut inner = 0;
    if let Expr::Bin(op, ..) = c {
        if op.is("&&") || op.is("||") {
            c.each_child(&mut |e| inner += negations(e));
        }
    }
    own + inner
}

/// What a function's statements read: every name but those only assigned
/// (`x = e`, `x += e`, `x++;`), sorted.
pub fn reads(body: &[Stmt]) -> Vec<Name> {
    let mut found = Vec::new();
    for s in body {
        stmt_reads(s, &mut found);
    }
    found.sort_unstable();
    found.dedup();
    found
}

fn stmt_reads(s: &Stmt, into: &mut Vec<Name>) {
    match s {
        Stmt::Expr(Expr::Post(_, x, _), _) | Stmt::Expr(Expr::Unary(_, x, _), _)
            if matches!(**x, Expr::Name(..)) => {}
        Stmt::Expr(e, _) => expr_reads(e, into),
        Stmt::Decl(ds, _) => ds
            .iter()
            .flat_map(|d| &d.init)
            .for_each(|e| expr_reads(e, into)),
        Stmt::Block(stmts, _) | Stmt::Try(stmts, _) => {
            stmts.iter().for_each(|s| stmt_reads(s, into))
        }
        Stmt::If(c, a, b, _) => {
            expr_reads(c, into);
            stmt_reads(a, into);
            if let Some(b) = b {
                stmt_reads(b, into);
            }
        }
        Stmt::Loop(l) => {
            l.init.iter().for_each(|s| stmt_reads(s, into));
            if let Some(c) = &l.cond {
                expr_reads(c, into);
            }
            l.step.iter().for_each(|e| expr_reads(e, into));
            stmt_reads(&l.body, into);
        }
        Stmt::Switch(e, body, _) => {
            expr_reads(e, into);
            stmt_reads(body, into);
        }
        Stmt::Case(Some(e), _) | Stmt::Return(Some(e), _) | Stmt::Throw(Some(e), _) => {
            expr_reads(e, into)
        }
        Stmt::Other(tokens) => tokens
            .iter()
            .filter(|t| t.kind == super::lex::Kind::Ident)
            .for_each(|t| into.push(t.text)),
        _ => {}
    }
}

/// The names `e` reads: an assignment's target name is not read (its
/// parts, in `a[i] = e`, are).
fn expr_reads(e: &Expr, into: &mut Vec<Name>) {
    match e {
        Expr::Assign(_, lhs, rhs, _) => {
            if !matches!(**lhs, Expr::Name(..)) {
                lhs.each_name(&mut |n| into.push(n));
            }
            expr_reads(rhs, into);
        }
        Expr::Name(n, _) => into.push(*n),
        Expr::Member(a, f, _) => {
            expr_reads(a, into);
            into.push(*f);
        }
        Expr::Other(_) => e.each_name(&mut |n| into.push(n)),
        _ => e.each_child(&mut |c| expr_reads(c, into)),
    }
}

/// Leaves out of `body` the assignments to the variables `dead` says are
/// never read (what the assigned values' calls do is kept); whether it
/// left any out.
pub fn drop_writes(body: &mut Vec<Stmt>, namer: &Namer, dead: &dyn Fn(Name) -> bool) -> bool {
    let mut changed = false;
    let mut i = 0;
    while i < body.len() {
        let replace: Option<Option<Stmt>> = match &mut body[i] {
            Stmt::Expr(Expr::Assign(_, lhs, rhs, _), at) => match **lhs {
                Expr::Name(n, _) if dead(n) => {
                    Some(has_effect(namer, rhs).then(|| Stmt::Expr((**rhs).clone(), *at)))
                }
                _ => None,
            },
            Stmt::Expr(Expr::Post(_, x, _), _) | Stmt::Expr(Expr::Unary(_, x, _), _) => match **x {
                Expr::Name(n, _) if dead(n) => Some(None),
                _ => None,
            },
            Stmt::Block(stmts, _) | Stmt::Try(stmts, _) => {
                changed |= drop_writes(stmts, namer, dead);
                None
            }
            Stmt::If(_, a, b, _) => {
                changed |= drop_in(a, namer, dead);
                if let Some(b) = b {
                    changed |= drop_in(b, namer, dead);
                }
                None
            }
            Stmt::Loop(l) => {
                changed |= drop_in(&mut l.body, namer, dead);
                None
            }
            Stmt::Switch(_, b, _) => {
                changed |= drop_in(b, namer, dead);
                None
            }
            _ => None,
        };
        match replace {
            Some(Some(s)) => {
                body[i] = s;
                changed = true;
                i += 1;
            }
            Some(None) => {
                body.remove(i);
                changed = true;
            }
            None => i += 1,
        }
    }
    changed
}

fn drop_in(s: &mut Stmt, namer: &Namer, dead: &dyn Fn(Name) -> bool) -> bool {
    match s {
        Stmt::Block(stmts, _) => drop_writes(stmts, namer, dead),
        other => {
            let mut one = vec![std::mem::replace(
                other,
                Stmt::Block(Vec::new(), At::default()),
            )];
            let changed = drop_writes(&mut one, namer, dead);
            *other = match one.len() {
                1 => one.pop().unwrap_or(Stmt::Block(Vec::new(), At::default())),
                _ => Stmt::Block(one, At::default()),
            };
            changed
        }
    }
}
