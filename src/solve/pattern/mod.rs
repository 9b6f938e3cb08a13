//! Shortest solutions of 4x4 and 5x5 boards by IDA* over additive pattern
//! databases: the 4x4 and 5x5 partitions ([`fifteen`], [`twentyfour`]), any
//! goal onto a canonical one (`goals`), the tables (`tables`) and the search
//! (`ida`).

pub mod fifteen;
pub(crate) mod goals;
pub(crate) mod ida;
pub(crate) mod tables;
pub mod twentyfour;
