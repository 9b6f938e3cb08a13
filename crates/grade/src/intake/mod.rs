//! Taking a submission in, as a marker would (its name is made safe at
//! the door by `shared::name`): its folder copied and its files walked
//! without following a link or opening anything but a regular file
//! (`folder`), its archives listed (`archive`) and unpacked in the sandbox
//! into a fresh folder each (`unpack`), its sources found and its program
//! built in the copy (`build`).

pub(crate) mod archive;
pub(crate) mod build;
pub(crate) mod folder;
pub(crate) mod unpack;
