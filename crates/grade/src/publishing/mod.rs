//! Publishing: a graded submission's record (`record`), the grades folder
//! and its own files (`grades`), what changed from one grading to another
//! and why (`changes`), the grading's summaries (`summaries`), the
//! platforms' formats (`formats`), the marker's roster (`roster`) and the
//! gradebook files made with it (`gradebook`), the class page (`page`) and
//! the feedback's page (`html`), the options a grading records
//! (`options`), the files of a comparison of the class's code
//! (`similarity`), and the JSON they are written in (`json`).

pub(crate) mod changes;
pub(crate) mod formats;
pub(crate) mod gradebook;
pub(crate) mod grades;
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod options;
pub(crate) mod page;
pub(crate) mod record;
pub(crate) mod roster;
pub(crate) mod similarity;
pub(crate) mod summaries;
