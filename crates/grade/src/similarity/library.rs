//! What the analysis knows of the libraries' functions: which only
//! compute from their arguments, which read or write a stream, which end
//! the program. A call to anything else of the library may do anything.

use super::emit::Namer;
use super::tree::Expr;

/// Library functions (and methods) that only compute from their
/// arguments, or allocate.
pub const PURE: &[&str] = &[
    "strlen",
    "strcmp",
    "strncmp",
    "strchr",
    "strrchr",
    "strstr",
    "strspn",
    "strcspn",
    "isdigit",
    "isalpha",
    "isspace",
    "isalnum",
    "isupper",
    "islower",
    "isprint",
    "ispunct",
    "toupper",
    "tolower",
    "abs",
    "labs",
    "llabs",
    "fabs",
    "sqrt",
    "pow",
    "floor",
    "ceil",
    "atoi",
    "atol",
    "atoll",
    "atof",
    "strtol",
    "strtoul",
    "strtoll",
    "strtoull",
    "strtod",
    "malloc",
    "calloc",
    "realloc",
    "strdup",
    "min",
    "max",
    "length",
    "size",
    "charAt",
    "equals",
    "compareTo",
    "substring",
    "indexOf",
    "parseInt",
    "parseLong",
    "parseDouble",
    "valueOf",
    "isDigit",
    "isLetter",
    "isWhitespace",
    "toString",
    "trim",
    "strip",
    "split",
    "get",
    "contains",
    "containsKey",
    "isEmpty",
    "isBlank",
    "format",
    "matches",
    "toCharArray",
    "getOrDefault",
];

/// Library functions that read or write a stream.
pub const IO: &[&str] = &[
    "printf",
    "fprintf",
    "puts",
    "fputs",
    "putchar",
    "fputc",
    "putc",
    "getchar",
    "getc",
    "fgetc",
    "fgets",
    "gets",
    "scanf",
    "fscanf",
    "getline",
    "read",
    "write",
    "perror",
    "fflush",
    "fopen",
    "fclose",
    "fread",
    "fwrite",
    "ungetc",
    "print",
    "println",
    "next",
    "nextInt",
    "nextLine",
    "nextDouble",
    "nextLong",
    "hasNext",
    "hasNextInt",
    "hasNextLine",
    "readLine",
];

/// Foreign classes whose methods compute from their arguments.
pub const PURE_CLASSES: &[&str] = &[
    "Math",
    "Integer",
    "Long",
    "Double",
    "String",
    "Character",
    "Boolean",
];

/// Whether calling `f` only computes (a pure library function, a pure
/// method, a method of a pure class), given its receiver has no effect.
pub fn pure_call(namer: &Namer, f: &Expr) -> bool {
    match f {
        Expr::Name(n, _) => !namer.is_own(*n) && namer.spelt_in(*n, PURE),
        Expr::Member(receiver, method, _) => match &**receiver {
            Expr::Name(r, _) if !namer.is_own(*r) && namer.spelt_in(*r, PURE_CLASSES) => true,
            _ => namer.spelt_in(*method, PURE) && !has_effect(namer, receiver),
        },
        _ => false,
    }
}

/// Whether evaluating `e` may do something: assign, call what is not
/// pure, make an object of the submission's own class.
pub fn has_effect(namer: &Namer, e: &Expr) -> bool {
    match e {
        Expr::Assign(..) | Expr::Post(..) | Expr::Other(_) => true,
        Expr::Call(f, args, _) => !pure_call(namer, f) || args.iter().any(|a| has_effect(namer, a)),
        Expr::Unary(op, _, _) if op.is("++") || op.is("--") => true,
        Expr::Unary(super::tree::Op::Kw(super::lex::Kw::New), a, _) => match &**a {
            // A constructor of the submission's own may do anything.
            Expr::Call(f, args, _) => {
                matches!(**f, Expr::Name(n, _) if namer.is_own(n))
                    || args.iter().any(|x| has_effect(namer, x))
            }
            other => has_effect(namer, other),
        },
        Expr::Unary(super::tree::Op::Kw(super::lex::Kw::Delete), ..) => true,
        _ => {
            let mut any = false;
            e.each_child(&mut |c| any |= has_effect(namer, c));
            any
        }
    }
}
