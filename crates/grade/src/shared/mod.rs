//! The ground floor: what every stage of grading shares, and nothing that
//! knows of a stage. A submission's name made safe at the door (`name`:
//! `Name`), a program's output read as a marker reads it (`text`: lines,
//! quotes, where two outputs part, `one_line` for any text from a
//! submission; `markdown`: Markdown's escaper, for any such text the
//! feedback writes), the digest a grading records and shards by (`digest`),
//! the library's errors (`error`: `Refused`, kept apart from the system's
//! I/O errors by `Error`), and the rule that keeps the machine's load out
//! of the marks (`machine`). Every stage may import from here; nothing
//! here imports a stage.

pub(crate) mod digest;
pub(crate) mod error;
pub(crate) mod machine;
pub(crate) mod markdown;
pub(crate) mod name;
pub(crate) mod text;
