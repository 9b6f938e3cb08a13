//! Independent statements in a canonical order. Within a block, two
//! statements depend on each other when one writes what the other reads or
//! writes (a variable by its name, a field by its name, an array by the
//! name it is indexed from, memory through a pointer), when both do input
//! or output, when one calls code that may do anything (a function of the
//! submission's, or one the analysis does not know) and the other touches
//! more than its own function's variables, or when one leaves the block
//! (`return`, a `break` of the loop around, a label). Each statement's
//! level is one more than the highest of those before it that it depends
//! on; the statements are put in the order of their levels, and within a
//! level in the order of their normal forms: any order a copier gives
//! independent statements comes out the same (the first way, the one whose
//! normal form was smallest among those free to go, hung on which of two
//! alike statements came first).

use super::emit::{stmt_key, Namer, Sym};
use super::library::{IO, PURE, PURE_CLASSES};
use super::tree::{Expr, Name, Op, Stmt};

/// Blocks longer than this keep their order (the order's cost grows with
/// the square of a block's length).
const MAX_BLOCK: usize = 400;

/// What a statement does, as far as its order goes.
#[derive(Debug, Default, Clone)]
struct Effects {
    defs: Vec<Name>,
    uses: Vec<Name>,
    io: bool,
    call: bool,
    mem_w: bool,
    mem_r: bool,
    barrier: bool,
    /// A call of `free`: its argument is written.
    free: bool,
}

struct Analysis<'a> {
    namer: &'a Namer<'a>,
    /// The function's variables and parameters, sorted.
    locals: &'a [Name],
}

impl Analysis<'_> {
    fn local(&self, n: Name) -> bool {
        self.locals.binary_search(&n).is_ok()
    }

    /// The effects of writing to `target` (`op` compound: it reads too).
    fn target(&self, target: &Expr, compound: bool, fx: &mut Effects) {
        match target {
            Expr::Name(n, _) => {
                fx.defs.push(*n);
                if compound {
                    fx.uses.push(*n);
                }
                if !self.local(*n) && self.namer.is_own(*n) {
                    fx.mem_w = true;
                }
            }
            Expr::Index(a, i, _) => {
                match &**a {
                    Expr::Name(n, _) => {
                        fx.defs.push(*n);
                        fx.uses.push(*n);
                        if !self.local(*n) {
                            fx.mem_w = true;
                        }
                    }
                    other => {
                        fx.mem_w = true;
                        self.expr(other, fx);
                    }
                }
                self.expr(i, fx);
            }
            Expr::Member(a, field, _) => {
                fx.defs.push(*field);
                fx.uses.push(*field);
                self.expr(a, fx);
            }
            other => {
                fx.mem_w = true;
                self.expr(other, fx);
            }
        }
    }

    fn expr(&self, e: &Expr, fx: &mut Effects) {
        match e {
            Expr::Name(n, _) => {
                fx.uses.push(*n);
                if !self.local(*n) && self.namer.is_own(*n) {
                    fx.mem_r = true;
                }
            }
            Expr::Assign(op, lhs, rhs, _) => {
                self.target(lhs, !op.is("="), fx);
                self.expr(rhs, fx);
            }
            Expr::Post(_, x, _) => self.target(x, true, fx),
            Expr::Unary(op, x, _) if op.is("++") || op.is("--") || op.is("&") => {
                self.target(x, true, fx)
            }
            Expr::Unary(op, x, _) if op.is("*") => {
                fx.mem_r = true;
                self.expr(x, fx);
            }
            // An allocation: what its arguments do.
            Expr::Unary(Op::Kw(super::lex::Kw::New), x, _) => match &**x {
                Expr::Call(_, args, _) => args.iter().for_each(|a| self.expr(a, fx)),
                other => self.expr(other, fx),
            },
            Expr::Unary(Op::Kw(_), x, _) => {
                fx.call = true;
                self.expr(x, fx);
            }
            Expr::Call(f, args, _) => {
                self.call(f, fx);
                if std::mem::take(&mut fx.free) {
                    args.iter().for_each(|a| self.target(a, true, fx));
                } else {
                    args.iter().for_each(|a| self.expr(a, fx));
                }
            }
            Expr::Index(a, i, _) => {
                if !matches!(&**a, Expr::Name(n, _) if self.local(*n)) {
                    fx.mem_r = true;
                }
                self.expr(a, fx);
                self.expr(i, fx);
            }
            Expr::Member(a, field, _) => {
                fx.uses.push(*field);
                self.expr(a, fx);
            }
            Expr::Other(_) => fx.barrier = true,
            _ => e.each_child(&mut |c| self.expr(c, fx)),
        }
    }

    /// The effects of calling `f`.
    fn call(&self, f: &Expr, fx: &mut Effects) {
        match f {
            Expr::Name(n, _) if self.namer.is_own(*n) => fx.call = true,
            Expr::Name(n, _) if self.namer.spelt_in(*n, PURE) => {}
            Expr::Name(n, _) if self.namer.spelt_in(*n, IO) => {
                fx.io = true;
                fx.mem_r = true;
            }
            // `free(p)` writes what `p` names, as `p = ...` would.
            Expr::Name(n, _) if self.namer.spelt(*n, "free") => fx.free = true,
            Expr::Member(receiver, method, _) => {
                let io = self.namer.spelt_in(*method, IO);
                match &**receiver {
                    Expr::Name(r, _) if self.namer.is_own(*r) => {
                        if !self.namer.spelt_in(*method, PURE) {
                            self.target(receiver, true, fx);
                        } else {
                            self.expr(receiver, fx);
                        }
                        fx.io |= io;
                    }
                    Expr::Name(r, _) if self.namer.spelt_in(*r, PURE_CLASSES) => {}
                    Expr::Member(..) | Expr::Name(..) if io => {
                        fx.io = true;
                        fx.mem_r = true;
                    }
                    Expr::Lit(..) => fx.call = true,
                    other => {
                        if !self.namer.spelt_in(*method, PURE) {
                            fx.call = true;
                        }
                        self.expr(other, fx);
                    }
                }
            }
            other => {
                fx.call = true;
                self.expr(other, fx);
            }
        }
    }

    /// The effects of `s`; `nested` when a `break` or `continue` in it
    /// belongs to a loop or switch inside the block being ordered.
    fn stmt(&self, s: &Stmt, nested: bool, fx: &mut Effects) {
        match s {
            Stmt::Expr(e, _) => self.expr(e, fx),
            Stmt::Decl(ds, _) => {
                for d in ds {
                    fx.defs.push(d.name);
                    if let Some(init) = &d.init {
                        self.expr(init, fx);
                    }
                }
            }
            Stmt::Block(stmts, _) => stmts.iter().for_each(|s| self.stmt(s, nested, fx)),
            Stmt::If(c, a, b, _) => {
                self.expr(c, fx);
                self.stmt(a, nested, fx);
                if let Some(b) = b {
                    self.stmt(b, nested, fx);
                }
            }
            Stmt::Loop(l) => {
                l.init.iter().for_each(|s| self.stmt(s, true, fx));
                if let Some(c) = &l.cond {
                    self.expr(c, fx);
                }
                l.step.iter().for_each(|e| self.expr(e, fx));
                self.stmt(&l.body, true, fx);
            }
            Stmt::Switch(e, body, _) => {
                self.expr(e, fx);
                self.stmt(body, true, fx);
            }
            Stmt::Break(_) | Stmt::Continue(_) if nested => {}
            _ => fx.barrier = true,
        }
    }

    fn effects(&self, s: &Stmt) -> Effects {
        let mut fx = Effects::default();
        self.stmt(s, false, &mut fx);
        fx.defs.sort_unstable();
        fx.defs.dedup();
        fx.uses.sort_unstable();
        fx.uses.dedup();
        fx
    }
}

/// Whether two sorted lists share a name.
fn meet(a: &[Name], b: &[Name]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Whether statements with effects `a` and `b` must keep their order.
fn depend(a: &Effects, b: &Effects) -> bool {
    let memory = |x: &Effects| x.mem_r || x.mem_w || x.io || x.call;
    a.barrier
        || b.barrier
        || meet(&a.defs, &b.defs)
        || meet(&a.defs, &b.uses)
        || meet(&a.uses, &b.defs)
        || a.call && memory(b)
        || b.call && memory(a)
        || a.io && b.io
        || a.mem_w && (b.mem_w || b.mem_r)
        || b.mem_w && a.mem_r
}

/// Puts the independent statements of `block`, and of every block in it,
/// in canonical order; `locals` are the function's variables and
/// parameters (sorted).
pub fn order(block: &mut Vec<Stmt>, namer: &Namer, locals: &[Name]) {
    let analysis = Analysis { namer, locals };
    order_block(block, &analysis);
}

fn order_block(block: &mut Vec<Stmt>, analysis: &Analysis) {
    for s in block.iter_mut() {
        order_inside(s, analysis);
    }
    let n = block.len();
    if !(2..=MAX_BLOCK).contains(&n) {
        return;
    }
    let effects: Vec<Effects> = block.iter().map(|s| analysis.effects(s)).collect();
    let keys: Vec<Vec<Sym>> = block.iter().map(|s| stmt_key(analysis.namer, s)).collect();
    // Each statement's level: one more than the highest of the earlier
    // ones it depends on (0 when none). The dependences are the same
    // whatever order a copier gave independent statements, and so are
    // the levels.
    let mut level = vec![0usize; n];
    for j in 0..n {
        for i in 0..j {
            if depend(&effects[i], &effects[j]) {
                level[j] = level[j].max(level[i] + 1);
            }
        }
    }
    // By level, then by normal form; the earlier one among equals.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        level[a]
            .cmp(&level[b])
            .then_with(|| keys[a].cmp(&keys[b]))
            .then(a.cmp(&b))
    });
    let mut slots: Vec<Option<Stmt>> = block.drain(..).map(Some).collect();
    block.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// Orders the blocks inside `s`.
fn order_inside(s: &mut Stmt, analysis: &Analysis) {
    match s {
        Stmt::Block(stmts, _) => order_block(stmts, analysis),
        // A try's blocks keep their order; each is ordered inside.
        Stmt::Try(blocks, _) => blocks.iter_mut().for_each(|b| order_inside(b, analysis)),
        Stmt::If(_, a, b, _) => {
            order_inside(a, analysis);
            if let Some(b) = b {
                order_inside(b, analysis);
            }
        }
        Stmt::Loop(l) => order_inside(&mut l.body, analysis),
        Stmt::Switch(_, body, _) => order_inside(body, analysis),
        _ => {}
    }
}
