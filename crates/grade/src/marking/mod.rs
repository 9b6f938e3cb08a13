//! Marking: the scheme and the score it gives (`marks`), the cause a
//! class's failing fixtures share (`cause`), a program's report and counts
//! (`report`) and the student's feedback (`feedback`).

pub(crate) mod cause;
pub(crate) mod feedback;
pub(crate) mod marks;
pub(crate) mod report;
