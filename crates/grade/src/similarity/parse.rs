//! The light parser: a file's tokens into functions, global declarations
//! and the names the submission declares ([`super::tree`]). It knows the C
//! family's statements and expressions, not their types: a declaration is
//! told from an expression by its shape (`T x`, `T *x`, `T<U> x`, `int
//! x`), a cast by the type inside its parentheses. It never fails: what it
//! does not understand is kept as tokens, a missing `;` or `)` ends what it
//! can, and a stray one is skipped. Nesting deeper than
//! [`super::tree::MAX_DEPTH`] is kept flat, so that the stack it uses is
//! bounded whatever the input.

use super::lex::{Interner, Kind, Kw, Lang, Token};
use super::tree::{At, Declarator, Expr, Function, Lit, Loop, LoopKind, Name, Op, Stmt, MAX_DEPTH};

/// What the parser found in one file.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Its functions, in order.
    pub functions: Vec<Function>,
    /// Its global declarations (and Java fields).
    pub globals: Vec<Stmt>,
    /// The names it declares.
    pub declared: Vec<Name>,
    /// The functions it declares without defining them (prototypes in a
    /// header, an interface's methods).
    pub prototypes: Vec<Name>,
}

/// Parses the tokens of one file, in `lang`; `names` holds their texts.
pub fn parse_file(tokens: &[Token], lang: Lang, names: &Interner) -> Parsed {
    let mut parser = Parser {
        toks: tokens,
        close: matching(tokens),
        lang,
        out: Parsed::default(),
        override_name: names.find(b"Override"),
    };
    parser.items(0, tokens.len(), 0);
    parser.out
}

/// For each opening bracket, the index of its closing one (or the end of
/// the tokens when it has none); for an unmatched closing one, `u32::MAX`
/// (it is skipped). A closing bracket closes the innermost opening one of
/// its kind, and every one opened after it (left unclosed).
fn matching(tokens: &[Token]) -> Vec<u32> {
    let n = tokens.len() as u32;
    let mut close = vec![0u32; tokens.len()];
    let mut stack: Vec<(u32, u8)> = Vec::new();
    let mut open_of_kind = [0usize; 3];
    let kind_of = |t: &Token, open: bool| -> Option<u8> {
        let pairs = [("(", ")"), ("[", "]"), ("{", "}")];
        pairs
            .iter()
            .position(|(o, c)| t.is(if open { o } else { c }))
            .map(|k| k as u8)
    };
    for (i, t) in tokens.iter().enumerate() {
        if let Some(k) = kind_of(t, true) {
            stack.push((i as u32, k));
            open_of_kind[k as usize] += 1;
            close[i] = n;
        } else if let Some(k) = kind_of(t, false) {
            if open_of_kind[k as usize] == 0 {
                close[i] = u32::MAX;
                continue;
            }
            while let Some((j, kind)) = stack.pop() {
                open_of_kind[kind as usize] -= 1;
                close[j as usize] = i as u32;
                if kind == k {
                    break;
                }
            }
        }
    }
    close
}

struct Parser<'a> {
    toks: &'a [Token],
    close: Vec<u32>,
    lang: Lang,
    out: Parsed,
    /// The text `Override`, when some token has it.
    override_name: Option<u32>,
}

/// What a binary operator is: its precedence, and whether it groups to
/// the right.
fn binary(token: &Token, lang: Lang) -> Option<(u8, bool)> {
    match token.kind {
        Kind::Keyword(Kw::Instanceof) => Some((10, false)),
        Kind::Punct(p) => Some(match p.text() {
            "," => (1, false),
            "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>="
            | ">>>=" => (2, true),
            "->" if lang == Lang::Java => (2, true),
            "?" => (3, true),
            "||" => (4, false),
            "&&" => (5, false),
            "|" => (6, false),
            "^" => (7, false),
            "&" => (8, false),
            "==" | "!=" => (9, false),
            "<" | "<=" | ">" | ">=" => (10, false),
            "<<" | ">>" | ">>>" => (11, false),
            "+" | "-" => (12, false),
            "*" | "/" | "%" => (13, false),
            _ => return None,
        }),
        _ => None,
    }
}

/// Whether `op` (of precedence 2) assigns.
fn assigns(token: &Token) -> bool {
    matches!(token.kind, Kind::Punct(p) if p.text().ends_with('=')
        && !matches!(p.text(), "==" | "!=" | "<=" | ">="))
}

impl Parser<'_> {
    fn get(&self, i: usize) -> Option<&Token> {
        self.toks.get(i)
    }

    fn is(&self, i: usize, text: &str) -> bool {
        self.get(i).is_some_and(|t| t.is(text))
    }

    fn is_kw(&self, i: usize, kw: Kw) -> bool {
        self.get(i).is_some_and(|t| t.is_kw(kw))
    }

    fn ident(&self, i: usize) -> bool {
        self.get(i).is_some_and(|t| t.kind == Kind::Ident)
    }

    fn at(&self, i: usize) -> At {
        self.get(i)
            .or(self.toks.last())
            .map(At::of)
            .unwrap_or_default()
    }

    /// The index of the closing bracket of the opening one at `i`, within
    /// `end`.
    fn closing(&self, i: usize, end: usize) -> usize {
        (self.close[i] as usize).min(end)
    }

    /// The index after the token at `i`, or after its group when it opens
    /// one, within `end`.
    fn after(&self, i: usize, end: usize) -> usize {
        match self.get(i) {
            Some(t) if t.is("(") || t.is("[") || t.is("{") => (self.closing(i, end) + 1).min(end),
            _ => (i + 1).min(end.max(i + 1)),
        }
    }

    /// The tokens `i..j`, as an unparsed node.
    fn other(&self, i: usize, j: usize) -> Vec<Token> {
        self.toks[i.min(j)..j.min(self.toks.len())].to_vec()
    }

    /// The first index in `i..end`, outside brackets, whose token `pred`
    /// takes.
    fn find_top(&self, i: usize, end: usize, pred: impl Fn(&Token) -> bool) -> Option<usize> {
        let mut j = i;
        while j < end {
            let t = &self.toks[j];
            if pred(t) {
                return Some(j);
            }
            j = self.after(j, end);
        }
        None
    }

    /// The ranges of `i..end` between its commas outside brackets.
    fn split_commas(&self, i: usize, end: usize) -> Vec<(usize, usize)> {
        let mut parts = Vec::new();
        let mut start = i;
        let mut j = i;
        while j < end {
            if self.toks[j].is(",") {
                parts.push((start, j));
                start = j + 1;
            }
            j = self.after(j, end);
        }
        if start < end || !parts.is_empty() {
            parts.push((start, end));
        }
        parts
    }

    /// Where a `<...>` that begins at `i` ends (the index after its `>`),
    /// if the tokens between make type arguments.
    fn angle(&self, i: usize, end: usize) -> Option<usize> {
        let mut depth = 0i32;
        let mut j = i;
        while j < end && j < i + 64 {
            let t = &self.toks[j];
            match t.kind {
                Kind::Punct(p) => match p.text() {
                    "<" => depth += 1,
                    ">" => depth -= 1,
                    ">>" => depth -= 2,
                    ">>>" => depth -= 3,
                    "," | "." | "?" | "::" | "[" | "]" | "&" | "*" => {}
                    _ => return None,
                },
                Kind::Ident | Kind::Keyword(Kw::Type | Kw::Extends | Kw::Super) => {}
                _ => return None,
            }
            j += 1;
            if depth <= 0 {
                return (depth == 0).then_some(j);
            }
        }
        None
    }

    // ----- top level -----

    /// The items of `i..end`: functions, declarations, classes.
    fn items(&mut self, i: usize, end: usize, depth: u32) {
        let mut p = i;
        let mut overrides = false;
        while p < end {
            let t = self.toks[p];
            if t.is(";") || t.is("}") || t.is(")") || t.is("]") {
                p += 1;
                continue;
            }
            if t.is("@") {
                overrides |= self
                    .get(p + 1)
                    .is_some_and(|n| n.kind == Kind::Ident && Some(n.text) == self.override_name);
                p += 2;
                if self.is(p, "(") {
                    p = self.after(p, end);
                }
                continue;
            }
            if matches!(t.kind, Kind::Keyword(Kw::Import | Kw::Package | Kw::Using)) {
                p = self.find_top(p, end, |t| t.is(";")).map_or(end, |j| j + 1);
                continue;
            }
            if t.is_kw(Kw::Template) && self.is(p + 1, "<") {
                p = self.angle(p + 1, end).unwrap_or(p + 2);
                continue;
            }
            let stop = self
                .find_top(p, end, |t| t.is(";") || t.is("{") || t.is("="))
                .unwrap_or(end);
            if stop >= end || self.toks[stop].is(";") {
                self.declaration_item(p, stop, depth);
                p = stop + 1;
            } else if self.toks[stop].is("=") {
                let semi = self.find_top(stop, end, |t| t.is(";")).unwrap_or(end);
                self.declaration_item(p, semi, depth);
                p = semi + 1;
            } else {
                p = self.braced_item(p, stop, end, depth, overrides);
            }
            overrides = false;
        }
    }

    /// A declaration at the top level or in a class, `i..end` (without its
    /// `;`): a prototype, variables, a typedef, a field.
    fn declaration_item(&mut self, i: usize, end: usize, depth: u32) {
        if i >= end {
            return;
        }
        // A prototype: a name then a parameter list, no value.
        let paren = self.find_top(i, end, |t| t.is("("));
        let assigned = self.find_top(i, end, |t| t.is("=")).is_some();
        if let Some(paren) = paren.filter(|&p| !assigned && p > i && self.ident(p - 1)) {
            let name = self.toks[paren - 1].text;
            self.out.declared.push(name);
            self.out.prototypes.push(name);
            self.params(paren, end);
            return;
        }
        if self.is_kw(i, Kw::Typedef) {
            // The names a typedef makes: the last name before the end, and
            // a struct's tag and fields.
            self.struct_names(i + 1, end, depth);
            if let Some(last) = (i..end).rev().find(|&j| self.ident(j)) {
                self.out.declared.push(self.toks[last].text);
            }
            return;
        }
        let stmt = self.simple(i, end, depth);
        if matches!(stmt, Stmt::Decl(..)) {
            self.out.globals.push(stmt);
        }
        self.struct_names(i, end, depth);
    }

    /// The tag, fields and constants of a `struct`, `union` or `enum` in
    /// `i..end`, declared.
    fn struct_names(&mut self, i: usize, end: usize, depth: u32) {
        let mut j = i;
        while j < end {
            let t = self.toks[j];
            if matches!(t.kind, Kind::Keyword(Kw::Struct | Kw::Union | Kw::Enum)) {
                if self.ident(j + 1) {
                    self.out.declared.push(self.toks[j + 1].text);
                }
                let brace = if self.is(j + 1, "{") { j + 1 } else { j + 2 };
                if self.is(brace, "{") {
                    let c = self.closing(brace, end);
                    if t.is_kw(Kw::Enum) {
                        self.enum_constants(brace + 1, c);
                    } else {
                        self.fields(brace + 1, c, depth);
                    }
                    j = c + 1;
                    continue;
                }
            }
            j += 1;
        }
    }

    /// The constants of an enum's body `i..end`, declared; where they end
    /// (a Java enum's `;`, or `end`).
    fn enum_constants(&mut self, i: usize, end: usize) -> usize {
        let stop = self.find_top(i, end, |t| t.is(";")).unwrap_or(end);
        for (a, _) in self.split_commas(i, stop) {
            if self.ident(a) {
                self.out.declared.push(self.toks[a].text);
            }
        }
        stop
    }

    /// The fields of a struct's body `i..end`, declared.
    fn fields(&mut self, i: usize, end: usize, depth: u32) {
        let mut p = i;
        while p < end {
            let semi = self.find_top(p, end, |t| t.is(";")).unwrap_or(end);
            self.struct_names(p, semi, depth + 1);
            if let Some(k) = self.decl_start(p, semi) {
                for d in self.declarators(k, semi, depth + 1) {
                    self.out.declared.push(d.name);
                }
            }
            p = semi + 1;
        }
    }

    /// An item with a body, `i..brace` its head: a class, a struct, a
    /// function, an initialiser block. Returns where the next begins.
    fn braced_item(
        &mut self,
        i: usize,
        brace: usize,
        end: usize,
        depth: u32,
        overrides: bool,
    ) -> usize {
        let c = self.closing(brace, end);
        let head = i..brace;
        let container = head.clone().find(|&j| match self.toks[j].kind {
            Kind::Keyword(Kw::Class | Kw::Interface | Kw::Namespace) => true,
            Kind::Keyword(Kw::Enum) if self.lang == Lang::Java => true,
            // `struct s {`, not `struct s *f(void) {`.
            Kind::Keyword(Kw::Struct | Kw::Union | Kw::Enum) => {
                brace == j + 1 || brace == j + 2 && self.ident(j + 1)
            }
            _ => false,
        });
        let paren = self.find_top(i, brace, |t| t.is("("));
        if let Some(k) = container.filter(|&k| paren.is_none_or(|p| k < p)) {
            let kw = self.toks[k].kind;
            if let Some(name) = (k + 1..brace).find(|&j| self.ident(j)) {
                self.out.declared.push(self.toks[name].text);
            }
            let nested = depth + 1 > MAX_DEPTH;
            match kw {
                Kind::Keyword(Kw::Struct | Kw::Union) => self.fields(brace + 1, c, depth),
                Kind::Keyword(Kw::Enum) => {
                    let stop = self.enum_constants(brace + 1, c);
                    if self.lang == Lang::Java && !nested {
                        self.items(stop + 1, c, depth + 1);
                    }
                }
                Kind::Keyword(Kw::Interface) if !nested => {
                    let before = self.out.functions.len();
                    self.items(brace + 1, c, depth + 1);
                    // An interface's methods are entries others call.
                    let named: Vec<Name> = self.out.functions[before..]
                        .iter()
                        .filter_map(|f| f.name)
                        .collect();
                    self.out.prototypes.extend(named);
                }
                _ if !nested => self.items(brace + 1, c, depth + 1),
                _ => {}
            }
            // A C struct's variables or typedef'd names after its body.
            let semi = self.find_top(c + 1, end, |t| t.is(";")).unwrap_or(end);
            if matches!(kw, Kind::Keyword(Kw::Struct | Kw::Union | Kw::Enum))
                && self.lang != Lang::Java
            {
                for j in c + 1..semi {
                    if self.ident(j) {
                        self.out.declared.push(self.toks[j].text);
                    }
                }
                return semi + 1;
            }
            return c + 1;
        }
        if let Some(open) = paren {
            let shut = self.closing(open, brace);
            let tail_ok = (shut + 1..brace).all(|j| {
                let t = &self.toks[j];
                matches!(t.kind, Kind::Ident | Kind::Keyword(Kw::Throws | Kw::Type))
                    || t.is(",")
                    || t.is(".")
                    || t.is(":")
                    || t.is("(")
                    || t.is(")")
                    || t.is("::")
            });
            if tail_ok && open > i && self.ident(open - 1) {
                let name = self.toks[open - 1].text;
                let private = head.clone().any(|j| self.is_kw(j, Kw::Private));
                let params = self.params(open, shut);
                self.out.declared.push(name);
                let body = if depth + 1 > MAX_DEPTH {
                    vec![Stmt::Other(self.other(brace, c + 1))]
                } else {
                    self.block_body(brace + 1, c, depth + 1)
                };
                self.out.functions.push(Function {
                    name: Some(name),
                    params,
                    body,
                    private,
                    overrides,
                    at: self.at(open - 1),
                });
                return c + 1;
            }
        }
        // `static { ... }`, `extern "C" { ... }` or a body of unknown kind.
        let only_words = head.clone().all(|j| {
            matches!(
                self.toks[j].kind,
                Kind::Keyword(Kw::Type | Kw::Private) | Kind::Str
            )
        });
        if only_words && depth < MAX_DEPTH {
            if self.lang == Lang::Java || head.is_empty() {
                let body = self.block_body(brace + 1, c, depth + 1);
                self.out.functions.push(Function {
                    name: None,
                    params: Vec::new(),
                    body,
                    private: false,
                    overrides: false,
                    at: self.at(brace),
                });
            } else {
                self.items(brace + 1, c, depth + 1);
            }
        }
        c + 1
    }

    /// The parameters' names of the list whose `(` is at `open`, declared.
    fn params(&mut self, open: usize, end: usize) -> Vec<Name> {
        let shut = self.closing(open, end);
        let mut names = Vec::new();
        for (a, b) in self.split_commas(open + 1, shut) {
            if let Some(j) = (a..b).rev().find(|&j| self.ident(j)) {
                let name = self.toks[j].text;
                names.push(name);
                self.out.declared.push(name);
            }
        }
        names
    }

    // ----- statements -----

    /// The statements of a block's inside, `i..end`.
    fn block_body(&mut self, i: usize, end: usize, depth: u32) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        let mut p = i;
        while p < end {
            let (stmt, next) = self.stmt(p, end, depth);
            if !matches!(&stmt, Stmt::Block(s, _) if s.is_empty()) {
                stmts.push(stmt);
            }
            debug_assert!(next > p);
            p = next.max(p + 1);
        }
        stmts
    }

    /// Where the simple statement that begins at `i` ends: its `;` (the
    /// second value is after it), else before a `}` or a keyword that
    /// begins a statement (a `;` forgotten), else `end`.
    fn simple_end(&self, i: usize, end: usize) -> (usize, usize) {
        let mut j = i;
        while j < end {
            let t = &self.toks[j];
            if t.is(";") {
                return (j, j + 1);
            }
            if j > i
                && (t.is("}")
                    || matches!(
                        t.kind,
                        Kind::Keyword(
                            Kw::If
                                | Kw::For
                                | Kw::While
                                | Kw::Do
                                | Kw::Switch
                                | Kw::Return
                                | Kw::Break
                                | Kw::Continue
                                | Kw::Goto
                                | Kw::Try
                                | Kw::Case
                                | Kw::Else
                        )
                    ))
            {
                return (j, j);
            }
            j = self.after(j, end);
        }
        (end, end)
    }

    /// The statement that begins at `i`, and where the next begins.
    fn stmt(&mut self, i: usize, end: usize, depth: u32) -> (Stmt, usize) {
        let t = self.toks[i];
        let at = At::of(&t);
        if depth > MAX_DEPTH {
            let next = if t.is("{") {
                self.after(i, end)
            } else {
                self.simple_end(i, end).1.max(i + 1)
            };
            return (Stmt::Other(self.other(i, next)), next);
        }
        let paren_after = |p: &Self, j: usize| -> Option<(usize, usize)> {
            p.is(j, "(").then(|| (j + 1, p.closing(j, end)))
        };
        match t.kind {
            Kind::Punct(_) if t.is("{") => {
                let c = self.closing(i, end);
                (
                    Stmt::Block(self.block_body(i + 1, c, depth + 1), at),
                    (c + 1).min(end),
                )
            }
            Kind::Punct(_) if t.is(";") => (Stmt::Block(Vec::new(), at), i + 1),
            Kind::Keyword(Kw::If) => {
                let (cond, next) = match paren_after(self, i + 1) {
                    Some((a, b)) => (self.expr(a, b, depth + 1), b + 1),
                    None => (Expr::Other(Vec::new()), i + 1),
                };
                let (then, mut next) = self.sub_stmt(next, end, depth);
                let mut otherwise = None;
                if self.is_kw(next, Kw::Else) && next < end {
                    let (e, n) = self.sub_stmt(next + 1, end, depth);
                    otherwise = Some(Box::new(e));
                    next = n;
                }
                (Stmt::If(cond, Box::new(then), otherwise, at), next)
            }
            Kind::Keyword(Kw::While) => {
                let (cond, next) = match paren_after(self, i + 1) {
                    Some((a, b)) => (self.opt_expr(a, b, depth + 1), b + 1),
                    None => (None, i + 1),
                };
                let (body, next) = self.sub_stmt(next, end, depth);
                let kind = LoopKind::While;
                let l = Loop {
                    kind,
                    init: Vec::new(),
                    cond,
                    step: Vec::new(),
                    body: Box::new(body),
                    at,
                };
                (Stmt::Loop(l), next)
            }
            Kind::Keyword(Kw::Do) => {
                let (body, mut next) = self.sub_stmt(i + 1, end, depth);
                let mut cond = None;
                if self.is_kw(next, Kw::While) && next < end {
                    if let Some((a, b)) = paren_after(self, next + 1) {
                        cond = self.opt_expr(a, b, depth + 1);
                        next = b + 1;
                    } else {
                        next += 1;
                    }
                    if self.is(next, ";") {
                        next += 1;
                    }
                }
                let l = Loop {
                    kind: LoopKind::Do,
                    init: Vec::new(),
                    cond,
                    step: Vec::new(),
                    body: Box::new(body),
                    at,
                };
                (Stmt::Loop(l), next.min(end))
            }
            Kind::Keyword(Kw::For) => self.for_loop(i, end, depth),
            Kind::Keyword(Kw::Switch) => {
                let (subject, next) = match paren_after(self, i + 1) {
                    Some((a, b)) => (self.expr(a, b, depth + 1), b + 1),
                    None => (Expr::Other(Vec::new()), i + 1),
                };
                let (body, next) = self.sub_stmt(next, end, depth);
                (Stmt::Switch(subject, Box::new(body), at), next)
            }
            Kind::Keyword(Kw::Case | Kw::Default) => {
                let colon = self
                    .find_top(i + 1, end, |t| {
                        t.is(":") || t.is("->") || t.is(";") || t.is("{")
                    })
                    .unwrap_or(end);
                let value = if t.is_kw(Kw::Case) {
                    Some(self.expr(i + 1, colon, depth + 1))
                } else {
                    None
                };
                let next = if self.is(colon, ":") || self.is(colon, "->") {
                    colon + 1
                } else {
                    colon.max(i + 1)
                };
                (Stmt::Case(value, at), next.min(end))
            }
            Kind::Keyword(Kw::Return | Kw::Throw) => {
                let (stop, next) = self.simple_end(i + 1, end);
                let value = self.opt_expr(i + 1, stop, depth + 1);
                let stmt = if t.is_kw(Kw::Return) {
                    Stmt::Return(value, at)
                } else {
                    Stmt::Throw(value, at)
                };
                (stmt, next.max(i + 1))
            }
            Kind::Keyword(Kw::Break | Kw::Continue | Kw::Goto) => {
                let (_, next) = self.simple_end(i + 1, end);
                let stmt = match t.kind {
                    Kind::Keyword(Kw::Break) => Stmt::Break(at),
                    Kind::Keyword(Kw::Continue) => Stmt::Continue(at),
                    _ => Stmt::Goto(at),
                };
                (stmt, next.max(i + 1))
            }
            Kind::Keyword(Kw::Try) => {
                let mut blocks = Vec::new();
                let mut p = i + 1;
                if self.is(p, "(") {
                    // Java's resources: declarations.
                    let c = self.closing(p, end);
                    let mut q = p + 1;
                    while q < c {
                        let semi = self.find_top(q, c, |t| t.is(";")).unwrap_or(c);
                        blocks.push(self.simple(q, semi, depth + 1));
                        q = semi + 1;
                    }
                    p = c + 1;
                }
                while p < end && self.is(p, "{") {
                    let (block, next) = self.stmt(p, end, depth + 1);
                    blocks.push(block);
                    p = next;
                    if self.is_kw(p, Kw::Catch) {
                        p += 1;
                        if self.is(p, "(") {
                            let c = self.closing(p, end);
                            if let Some(j) = (p + 1..c).rev().find(|&j| self.ident(j)) {
                                self.out.declared.push(self.toks[j].text);
                            }
                            p = c + 1;
                        }
                    } else if self.is_kw(p, Kw::Finally) {
                        p += 1;
                    } else {
                        break;
                    }
                }
                (Stmt::Try(blocks, at), p.max(i + 1).min(end.max(i + 1)))
            }
            Kind::Keyword(Kw::Synchronized) if self.is(i + 1, "(") => {
                let c = self.closing(i + 1, end);
                self.sub_stmt(c + 1, end, depth)
            }
            Kind::Keyword(Kw::Else) => (Stmt::Block(Vec::new(), at), i + 1),
            Kind::Keyword(Kw::Class | Kw::Interface) => {
                // A local class: kept as tokens.
                let next = match self.find_top(i, end, |t| t.is("{") || t.is(";")) {
                    Some(b) if self.toks[b].is("{") => self.after(b, end),
                    Some(b) => b + 1,
                    None => end,
                };
                (Stmt::Other(self.other(i, next)), next)
            }
            Kind::Ident if self.is(i + 1, ":") => {
                // A label.
                (Stmt::Block(Vec::new(), at), i + 2)
            }
            Kind::Punct(_) if t.is("}") || t.is(")") || t.is("]") => {
                (Stmt::Block(Vec::new(), at), i + 1)
            }
            _ => {
                let (stop, next) = self.simple_end(i, end);
                let next = next.max(i + 1);
                (self.simple(i, stop.max(i + 1).min(end), depth), next)
            }
        }
    }

    /// The statement a `for`, `if` or `while` governs, from `i` (none
    /// there: an empty one).
    fn sub_stmt(&mut self, i: usize, end: usize, depth: u32) -> (Stmt, usize) {
        if i >= end {
            return (Stmt::Block(Vec::new(), self.at(i)), end.max(i));
        }
        self.stmt(i, end, depth + 1)
    }

    /// A `for` at `i`: three parts, or `T x : xs`.
    fn for_loop(&mut self, i: usize, end: usize, depth: u32) -> (Stmt, usize) {
        let at = self.at(i);
        let mut l = Loop {
            kind: LoopKind::For,
            init: Vec::new(),
            cond: None,
            step: Vec::new(),
            body: Box::new(Stmt::Block(Vec::new(), at)),
            at,
        };
        let mut next = i + 1;
        if self.is(i + 1, "(") {
            let (a, b) = (i + 2, self.closing(i + 1, end));
            next = b + 1;
            let semis: Vec<usize> = {
                let mut found = Vec::new();
                let mut j = a;
                while j < b {
                    if self.toks[j].is(";") {
                        found.push(j);
                    }
                    j = self.after(j, b);
                }
                found
            };
            if semis.len() >= 2 {
                if semis[0] > a {
                    l.init.push(self.simple(a, semis[0], depth + 1));
                }
                l.cond = self.opt_expr(semis[0] + 1, semis[1], depth + 1);
                if let Some(step) = self.opt_expr(semis[1] + 1, b, depth + 1) {
                    l.step = split_comma(step);
                }
            } else if let Some(colon) = self.find_top(a, b, |t| t.is(":")) {
                l.kind = LoopKind::Each;
                if let Some(j) = (a..colon).rev().find(|&j| self.ident(j)) {
                    let name = self.toks[j].text;
                    self.out.declared.push(name);
                    l.init.push(Stmt::Decl(
                        vec![Declarator {
                            name,
                            init: None,
                            at: self.at(j),
                        }],
                        at,
                    ));
                }
                l.cond = self.opt_expr(colon + 1, b, depth + 1);
            } else {
                l.cond = self.opt_expr(a, b, depth + 1);
            }
        }
        let (body, next) = self.sub_stmt(next, end, depth);
        l.body = Box::new(body);
        (Stmt::Loop(l), next)
    }

    /// A simple statement `i..end` (without its `;`): a declaration or an
    /// expression.
    fn simple(&mut self, i: usize, end: usize, depth: u32) -> Stmt {
        let at = self.at(i);
        if let Some(k) = self.decl_start(i, end) {
            let declarators = self.declarators(k, end, depth);
            for d in &declarators {
                self.out.declared.push(d.name);
            }
            return Stmt::Decl(declarators, at);
        }
        Stmt::Expr(self.expr(i, end, depth + 1), at)
    }

    /// Where the declarators of a declaration `i..end` begin, if it is one.
    fn decl_start(&self, i: usize, end: usize) -> Option<usize> {
        let mut j = i;
        let mut typed = false;
        while j < end {
            let t = &self.toks[j];
            match t.kind {
                Kind::Keyword(Kw::Type | Kw::Private) => {
                    typed = true;
                    j += 1;
                }
                Kind::Keyword(Kw::Struct | Kw::Union | Kw::Enum) => {
                    typed = true;
                    j += 1;
                    if self.ident(j) {
                        j += 1;
                    }
                    if self.is(j, "{") {
                        j = self.after(j, end);
                    }
                }
                Kind::Punct(_) if t.is("@") && self.ident(j + 1) => {
                    j += 2;
                    if self.is(j, "(") {
                        j = self.after(j, end);
                    }
                }
                _ => break,
            }
        }
        let brackets = |mut k: usize| {
            while self.is(k, "[") && self.is(k + 1, "]") {
                k += 2;
            }
            k
        };
        j = brackets(j);
        let pointers = |mut k: usize| {
            while k < end
                && (self.is(k, "*")
                    || self.is(k, "&")
                    || self.is(k, "&&")
                    || self.is_kw(k, Kw::Type))
            {
                k += 1;
            }
            k
        };
        if self.ident(j) {
            let mut k = j + 1;
            while k + 1 < end && (self.is(k, "::") || self.is(k, ".")) && self.ident(k + 1) {
                k += 2;
            }
            if self.is(k, "<") {
                if let Some(after) = self.angle(k, end) {
                    k = after;
                }
            }
            k = brackets(k);
            let d = pointers(k);
            if d < end && self.ident(d) && self.declarator_follows(d + 1, end) {
                return Some(k);
            }
            return typed.then_some(j);
        }
        let d = pointers(j);
        (typed && (self.ident(d) || self.is(d, "("))).then_some(j)
    }

    /// Whether what follows a declarator's name at `k` fits one.
    fn declarator_follows(&self, k: usize, end: usize) -> bool {
        k >= end
            || ["=", ";", ",", "[", ":", ")", "("]
                .iter()
                .any(|p| self.is(k, p))
    }

    /// The declarators of `k..end`: `*x = 1, y[3], (*f)(int)`.
    fn declarators(&mut self, k: usize, end: usize, depth: u32) -> Vec<Declarator> {
        let mut found = Vec::new();
        for (a, b) in self.split_commas(k, end) {
            let mut j = a;
            while j < b
                && (self.is(j, "*")
                    || self.is(j, "&")
                    || self.is(j, "&&")
                    || self.is_kw(j, Kw::Type))
            {
                j += 1;
            }
            let name_at = if self.is(j, "(") {
                let c = self.closing(j, b);
                (j + 1..c).find(|&n| self.ident(n))
            } else if self.ident(j) {
                Some(j)
            } else {
                None
            };
            let Some(n) = name_at else { continue };
            let name = self.toks[n].text;
            let at = self.at(n);
            let mut p = self.after(n, b).max(n + 1);
            if self.is(j, "(") {
                p = self.after(j, b);
            }
            let mut init = None;
            while p < b {
                if self.is(p, "=") {
                    init = Some(self.expr(p + 1, b, depth + 1));
                    break;
                }
                if self.is(p, "(") && !self.is(j, "(") && init.is_none() {
                    // C++'s `T x(a, b)`: a value made of its arguments.
                    let c = self.closing(p, b);
                    let args = self.args(p + 1, c, depth + 1);
                    init = Some(Expr::List(args, at));
                }
                p = self.after(p, b);
            }
            found.push(Declarator { name, init, at });
        }
        found
    }

    // ----- expressions -----

    /// The expression `i..end`, if there is one.
    fn opt_expr(&mut self, i: usize, end: usize, depth: u32) -> Option<Expr> {
        (i < end).then(|| self.expr(i, end, depth))
    }

    /// The expression `i..end`; what is left after the longest expression
    /// at its start is kept as tokens after a `,`.
    fn expr(&mut self, i: usize, end: usize, depth: u32) -> Expr {
        if i >= end {
            return Expr::Other(Vec::new());
        }
        let (e, j) = self.binary(i, end, 0, depth);
        if j >= end {
            return e;
        }
        let at = e.at();
        Expr::Bin(
            Op::p(","),
            Box::new(e),
            Box::new(Expr::Other(self.other(j, end))),
            at,
        )
    }

    /// The arguments `i..end` of a call, split at their commas.
    fn args(&mut self, i: usize, end: usize, depth: u32) -> Vec<Expr> {
        self.split_commas(i, end)
            .into_iter()
            .filter(|(a, b)| a < b)
            .map(|(a, b)| self.expr(a, b, depth))
            .collect()
    }

    /// Precedence climbing: operators of precedence `min` and more, from `i`.
    fn binary(&mut self, i: usize, end: usize, min: u8, depth: u32) -> (Expr, usize) {
        if depth > MAX_DEPTH {
            return (Expr::Other(self.other(i, end)), end);
        }
        let (mut left, mut j) = self.unary(i, end, depth + 1);
        let mut chain = 0;
        while j < end {
            let t = self.toks[j];
            let Some((prec, right)) = binary(&t, self.lang) else {
                break;
            };
            if prec < min {
                break;
            }
            chain += 1;
            if depth + chain > MAX_DEPTH {
                let at = left.at();
                let rest = Expr::Other(self.other(j, end));
                return (
                    Expr::Bin(Op::p(","), Box::new(left), Box::new(rest), at),
                    end,
                );
            }
            let at = At::of(&t);
            if t.is("?") {
                let colon = self.ternary_colon(j + 1, end);
                let middle = self.expr(j + 1, colon, depth + 1);
                let (otherwise, k) = self.binary((colon + 1).min(end), end, prec, depth + 1);
                left = Expr::Cond(Box::new(left), Box::new(middle), Box::new(otherwise), at);
                j = k;
                continue;
            }
            let op = match t.kind {
                Kind::Keyword(kw) => Op::Kw(kw),
                Kind::Punct(p) => Op::P(p),
                _ => break,
            };
            let (right_side, k) =
                self.binary(j + 1, end, if right { prec } else { prec + 1 }, depth + 1);
            left = if prec == 2 && assigns(&t) {
                Expr::Assign(op, Box::new(left), Box::new(right_side), at)
            } else {
                Expr::Bin(op, Box::new(left), Box::new(right_side), at)
            };
            j = k.max(j + 1);
        }
        (left, j)
    }

    /// The `:` of a `?` whose middle begins at `i` (nested ones skipped).
    fn ternary_colon(&self, i: usize, end: usize) -> usize {
        let mut open = 0;
        let mut j = i;
        while j < end {
            let t = &self.toks[j];
            if t.is("?") {
                open += 1;
            } else if t.is(":") {
                if open == 0 {
                    return j;
                }
                open -= 1;
            }
            j = self.after(j, end);
        }
        end
    }

    /// Whether the tokens `a..c` inside parentheses make a type (a cast):
    /// type keywords, or names with `*`, `[]` or `<...>` after them, or
    /// one name, qualified or not. A type is short: beyond 64 tokens, no.
    fn is_type(&self, a: usize, c: usize) -> bool {
        if a >= c || c - a > 64 {
            return false;
        }
        let mut keyword = false;
        let mut plain = true;
        for j in a..c {
            let t = &self.toks[j];
            match t.kind {
                Kind::Keyword(Kw::Type | Kw::Struct | Kw::Union | Kw::Enum) => keyword = true,
                Kind::Ident => {}
                Kind::Punct(p) if matches!(p.text(), "." | "::") => {}
                Kind::Punct(p)
                    if matches!(p.text(), "*" | "&" | "[" | "]" | "<" | ">" | "," | "?") =>
                {
                    plain = false
                }
                _ => return false,
            }
        }
        let decorated = self.is(c - 1, "*") || self.is(c - 1, ">") || self.is(c - 1, "]");
        keyword || self.ident(a) && (plain || decorated)
    }

    /// Whether an operand may begin at `j` after a cast; `signs` when the
    /// cast holds a keyword (`(int) -x` is a cast, `(x) - y` is not).
    fn operand_starts(&self, j: usize, end: usize, signs: bool) -> bool {
        if j >= end {
            return false;
        }
        let t = &self.toks[j];
        match t.kind {
            Kind::Ident | Kind::Number | Kind::Str | Kind::Char => true,
            Kind::Keyword(kw) => matches!(
                kw,
                Kw::True | Kw::False | Kw::Null | Kw::This | Kw::Super | Kw::New | Kw::Sizeof
            ),
            Kind::Punct(p) => match p.text() {
                "(" | "!" | "~" => true,
                "-" | "+" | "*" | "&" | "++" | "--" => signs,
                _ => false,
            },
        }
    }

    /// A prefix expression from `i`.
    fn unary(&mut self, i: usize, end: usize, depth: u32) -> (Expr, usize) {
        if i >= end {
            return (Expr::Other(Vec::new()), end);
        }
        if depth > MAX_DEPTH {
            return (Expr::Other(self.other(i, end)), end);
        }
        let t = self.toks[i];
        let at = At::of(&t);
        match t.kind {
            Kind::Punct(p)
                if matches!(
                    p.text(),
                    "-" | "+" | "!" | "~" | "*" | "&" | "++" | "--" | "&&"
                ) =>
            {
                let (operand, j) = self.unary(i + 1, end, depth + 1);
                (Expr::Unary(Op::P(p), Box::new(operand), at), j)
            }
            Kind::Keyword(Kw::Sizeof) => {
                if self.is(i + 1, "(") {
                    let c = self.closing(i + 1, end);
                    if self.is_type(i + 2, c) {
                        let inside = Expr::Other(self.other(i + 2, c));
                        return (
                            Expr::Unary(Op::Kw(Kw::Sizeof), Box::new(inside), at),
                            (c + 1).min(end),
                        );
                    }
                }
                let (operand, j) = self.unary(i + 1, end, depth + 1);
                (Expr::Unary(Op::Kw(Kw::Sizeof), Box::new(operand), at), j)
            }
            Kind::Keyword(Kw::New) => self.new_expr(i, end, depth),
            Kind::Keyword(Kw::Delete) => {
                let mut j = i + 1;
                if self.is(j, "[") {
                    j = self.after(j, end);
                }
                let (operand, j) = self.unary(j, end, depth + 1);
                (Expr::Unary(Op::Kw(Kw::Delete), Box::new(operand), at), j)
            }
            Kind::Punct(_) if t.is("(") => {
                let c = self.closing(i, end);
                let keyword = c - i <= 64 && (i + 1..c).any(|j| self.is_kw(j, Kw::Type));
                if self.is_type(i + 1, c) && self.operand_starts(c + 1, end, keyword) {
                    // A cast is no evidence: its operand is.
                    return self.unary(c + 1, end, depth + 1);
                }
                let inner = self.expr(i + 1, c, depth + 1);
                self.postfix(inner, (c + 1).min(end), end, depth)
            }
            _ => {
                let (e, j) = self.primary(i, end, depth);
                self.postfix(e, j, end, depth)
            }
        }
    }

    /// `new T(args)`, `new T[n]`, `new T[] {...}`, `new T() {...}`.
    fn new_expr(&mut self, i: usize, end: usize, depth: u32) -> (Expr, usize) {
        let at = self.at(i);
        let mut j = i + 1;
        let start = j;
        while j < end {
            let t = &self.toks[j];
            if t.kind == Kind::Ident || t.is_kw(Kw::Type) || t.is(".") || t.is("::") {
                j += 1;
            } else if t.is("<") {
                j = self.angle(j, end).unwrap_or(j + 1);
            } else {
                break;
            }
        }
        let made = (start..j)
            .rev()
            .find(|&k| self.ident(k))
            .map_or(Expr::Other(self.other(start, j)), |k| {
                Expr::Name(self.toks[k].text, self.at(k))
            });
        let mut e = made;
        if self.is(j, "(") {
            let c = self.closing(j, end);
            let args = self.args(j + 1, c, depth + 1);
            e = Expr::Call(Box::new(e), args, at);
            j = (c + 1).min(end);
        }
        while self.is(j, "[") && j < end {
            let c = self.closing(j, end);
            let size = self.expr(j + 1, c, depth + 1);
            e = Expr::Index(Box::new(e), Box::new(size), at);
            j = (c + 1).min(end);
        }
        if self.is(j, "{") && j < end {
            let c = self.closing(j, end);
            let list = self.args(j + 1, c, depth + 1);
            e = Expr::Call(Box::new(e), list, at);
            j = (c + 1).min(end);
        }
        (Expr::Unary(Op::Kw(Kw::New), Box::new(e), at), j.max(i + 1))
    }

    /// A name, a literal, an initialiser list; anything else is kept as
    /// one token.
    fn primary(&mut self, i: usize, end: usize, depth: u32) -> (Expr, usize) {
        let t = self.toks[i];
        let at = At::of(&t);
        let lit = |l: Lit| (Expr::Lit(l, at), i + 1);
        match t.kind {
            Kind::Ident => (Expr::Name(t.text, at), i + 1),
            Kind::Number => lit(Lit::Number(t.text)),
            Kind::Str => {
                let mut j = i + 1;
                while j < end && self.toks[j].kind == Kind::Str {
                    j += 1;
                }
                (Expr::Lit(Lit::Str, at), j)
            }
            Kind::Char => lit(Lit::Char(t.text)),
            Kind::Keyword(Kw::True) => lit(Lit::True),
            Kind::Keyword(Kw::False) => lit(Lit::False),
            Kind::Keyword(Kw::Null) => lit(Lit::Null),
            Kind::Keyword(Kw::This | Kw::Super) => lit(Lit::This),
            Kind::Punct(_) if t.is("{") => {
                let c = self.closing(i, end);
                let items = self.args(i + 1, c, depth + 1);
                (Expr::List(items, at), (c + 1).min(end).max(i + 1))
            }
            _ => (Expr::Other(vec![t]), i + 1),
        }
    }

    /// Calls, indices, members and postfix `++`/`--` after `e`, from `j`.
    fn postfix(&mut self, mut e: Expr, mut j: usize, end: usize, depth: u32) -> (Expr, usize) {
        let mut chain = 0;
        while j < end {
            chain += 1;
            if depth + chain > MAX_DEPTH {
                let at = e.at();
                let rest = Expr::Other(self.other(j, end));
                return (Expr::Bin(Op::p(","), Box::new(e), Box::new(rest), at), end);
            }
            let t = self.toks[j];
            let at = At::of(&t);
            if t.is("(") {
                let c = self.closing(j, end);
                let args = self.args(j + 1, c, depth + 1);
                e = Expr::Call(Box::new(e), args, at);
                j = (c + 1).min(end).max(j + 1);
            } else if t.is("[") {
                let c = self.closing(j, end);
                let index = self.expr(j + 1, c, depth + 1);
                e = Expr::Index(Box::new(e), Box::new(index), at);
                j = (c + 1).min(end).max(j + 1);
            } else if (t.is(".") || t.is("::") || t.is("->") && self.lang != Lang::Java)
                && self.ident(j + 1)
                && j + 1 < end
            {
                e = Expr::Member(Box::new(e), self.toks[j + 1].text, at);
                j += 2;
            } else if t.is("++") || t.is("--") {
                let op = match t.kind {
                    Kind::Punct(p) => Op::P(p),
                    _ => unreachable!("a punctuator"),
                };
                e = Expr::Post(op, Box::new(e), at);
                j += 1;
            } else {
                break;
            }
        }
        (e, j)
    }
}

/// `a, b, c` as its parts (a `for`'s steps).
pub fn split_comma(e: Expr) -> Vec<Expr> {
    let mut parts = Vec::new();
    let mut rest = e;
    // A comma chain leans left: (a, b), c.
    let mut tail = Vec::new();
    loop {
        match rest {
            Expr::Bin(op, a, b, _) if op.is(",") => {
                tail.push(*b);
                rest = *a;
            }
            other => {
                parts.push(other);
                break;
            }
        }
    }
    parts.extend(tail.into_iter().rev());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::lex::{lex, Lexed};

    fn parsed(text: &str, lang: Lang) -> (Parsed, Interner) {
        let mut names = Interner::default();
        let mut out = Lexed::default();
        lex(text.as_bytes(), lang, 0, &mut names, &mut out, usize::MAX);
        (parse_file(&out.tokens, lang, &names), names)
    }

    fn name(names: &Interner, n: Name) -> String {
        String::from_utf8_lossy(names.text(n)).into_owned()
    }

    #[test]
    fn functions_parameters_and_prototypes() {
        let (p, names) = parsed(
            "#include <stdio.h>\ntypedef struct board *Board;\nstatic int helper(Board b, int n);\nint helper(Board b, int n) { return n + 1; }\nint main(void) { int x = helper(0, 2); return x; }\n",
            Lang::C,
        );
        let fs: Vec<String> = p
            .functions
            .iter()
            .map(|f| name(&names, f.name.unwrap()))
            .collect();
        assert_eq!(fs, ["helper", "main"]);
        assert_eq!(p.functions[0].params.len(), 2);
        // `void` is no parameter's name.
        assert!(p.functions[1].params.is_empty());
        assert!(p.prototypes.iter().any(|&n| name(&names, n) == "helper"));
        for word in ["Board", "board", "b", "n", "x", "helper", "main"] {
            assert!(
                p.declared.iter().any(|&n| name(&names, n) == word),
                "{word}"
            );
        }
        assert!(matches!(
            &p.functions[1].body[0],
            Stmt::Decl(d, _) if d.len() == 1 && matches!(d[0].init, Some(Expr::Call(..)))
        ));
    }

    #[test]
    fn statements_of_every_kind() {
        let (p, _) = parsed(
            "void f(int n) { int i; for (i = 0; i < n; i++) { if (i % 2) continue; else break; }\n\
             while (n) n--; do { n++; } while (n < 3); switch (n) { case 1: n = 2; break; default: ; }\n\
             return; }",
            Lang::C,
        );
        let body = &p.functions[0].body;
        assert!(matches!(body[0], Stmt::Decl(..)));
        assert!(
            matches!(&body[1], Stmt::Loop(l) if l.kind == LoopKind::For && l.init.len() == 1 && l.cond.is_some() && l.step.len() == 1)
        );
        assert!(matches!(&body[2], Stmt::Loop(l) if l.kind == LoopKind::While));
        assert!(matches!(&body[3], Stmt::Loop(l) if l.kind == LoopKind::Do && l.cond.is_some()));
        assert!(matches!(&body[4], Stmt::Switch(..)));
        assert!(matches!(&body[5], Stmt::Return(None, _)));
        assert_eq!(body.len(), 6);
    }

    #[test]
    fn declarations_are_told_from_expressions() {
        let (p, _) = parsed(
            "void f() { Board b = newBoard(); Board *p; int *q = 0, r[3]; a = b * c; x * y; List<Integer> xs = g(); unsigned long long big; puts(s); }",
            Lang::C,
        );
        let kinds: Vec<&str> = p.functions[0]
            .body
            .iter()
            .map(|s| match s {
                Stmt::Decl(d, _) => {
                    if d.len() == 2 {
                        "decl2"
                    } else {
                        "decl"
                    }
                }
                Stmt::Expr(..) => "expr",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            ["decl", "decl", "decl2", "expr", "decl", "decl", "decl", "expr"]
        );
    }

    #[test]
    fn casts_are_dropped_and_precedence_kept() {
        let (p, _) = parsed(
            "void f() { x = (int) y + (Board) malloc(n) * 2; z = (a) - b; }",
            Lang::C,
        );
        let Stmt::Expr(Expr::Assign(_, _, rhs, _), _) = &p.functions[0].body[0] else {
            panic!()
        };
        let Expr::Bin(op, left, right, _) = &**rhs else {
            panic!("{rhs:?}")
        };
        assert!(op.is("+"));
        assert!(matches!(**left, Expr::Name(..)));
        assert!(
            matches!(&**right, Expr::Bin(op, l, _, _) if op.is("*") && matches!(**l, Expr::Call(..)))
        );
        let Stmt::Expr(Expr::Assign(_, _, rhs, _), _) = &p.functions[0].body[1] else {
            panic!()
        };
        assert!(matches!(&**rhs, Expr::Bin(op, ..) if op.is("-")));
    }

    #[test]
    fn java_classes_methods_and_fields() {
        let (p, names) = parsed(
            "import java.util.*;\npublic class Main {\n  private static int count = 0;\n  @Override public String toString() { return \"x\"; }\n  public static void main(String[] args) {\n    Scanner sc = new Scanner(System.in);\n    for (String s : args) { count += s.length(); }\n    List<Integer> xs = new ArrayList<>();\n  }\n  private void helper() throws IOException { }\n}\n",
            Lang::Java,
        );
        let fs: Vec<String> = p
            .functions
            .iter()
            .map(|f| name(&names, f.name.unwrap()))
            .collect();
        assert_eq!(fs, ["toString", "main", "helper"]);
        assert!(p.functions[0].overrides);
        assert!(!p.functions[1].overrides);
        assert!(p.functions[2].private);
        assert_eq!(p.globals.len(), 1);
        let main = &p.functions[1].body;
        assert!(
            matches!(&main[0], Stmt::Decl(d, _) if matches!(d[0].init, Some(Expr::Unary(Op::Kw(Kw::New), ..))))
        );
        assert!(matches!(&main[1], Stmt::Loop(l) if l.kind == LoopKind::Each));
        assert!(matches!(&main[2], Stmt::Decl(..)));
    }

    #[test]
    fn broken_code_is_read_as_far_as_it_goes() {
        // A missing ';', a missing ')', stray closers, an unclosed body.
        let (p, _) = parsed(
            "int f(int a) { int x = a\n if (x > 0 { return 1; } ) ) ] return 0;\nint g() { while (1) { g(",
            Lang::C,
        );
        assert!(!p.functions.is_empty());
        let (p, _) = parsed("}}}} ((( ]]] int main() { return 0; }", Lang::C);
        assert!(p.functions.len() <= 1);
    }

    #[test]
    fn deep_nesting_is_kept_flat_beyond_the_bound() {
        let deep = format!(
            "int f() {{ x = {}1{}; {} y; {} }}",
            "(".repeat(100_000),
            ")".repeat(100_000),
            "{".repeat(50_000),
            "}".repeat(50_000)
        );
        let (p, _) = parsed(&deep, Lang::C);
        assert_eq!(p.functions.len(), 1);
        let long = format!("int f() {{ x = 1{}; }}", " + 1".repeat(200_000));
        let (p, _) = parsed(&long, Lang::C);
        assert_eq!(p.functions.len(), 1);
        let unary = format!("int f() {{ x = {}1; }}", "-".repeat(200_000));
        let (p, _) = parsed(&unary, Lang::C);
        assert_eq!(p.functions.len(), 1);
    }
}
