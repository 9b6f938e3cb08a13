//! What the system allows the sandbox, found once when it is made: the
//! namespaces, a uid of each run's own, cgroups, Landlock; and so which
//! [`Level`]s can be had, and why not.

use super::cgroup::Hierarchy;
use super::ids;
use super::plan::NS_FLAGS;
use crate::sys;
use crate::Level;
use std::fs;
use std::io;

/// What the system allows, each with why not.
#[derive(Debug)]
pub struct Found {
    /// The runs' own namespaces: `Ok(false)` as root, `Ok(true)` inside a
    /// user namespace of their own.
    pub namespaces: Result<bool, String>,
    /// The first of the runs' own uids (root with `CAP_SETUID`, `CAP_SETGID`
    /// and `CAP_CHOWN`, and the uids mapped).
    pub ids: Result<u32, String>,
    /// Where the runs' cgroups are made.
    pub cgroups: Result<Hierarchy, String>,
    /// The Landlock ABI.
    pub landlock: Result<u32, String>,
    /// This process runs as uid 0.
    pub is_root: bool,
}

/// `CAP_CHOWN`, `CAP_SETGID`, `CAP_SETUID`: what giving each run a uid of
/// its own needs.
const ID_CAPS: [(u32, &str); 3] = [(0, "CAP_CHOWN"), (6, "CAP_SETGID"), (7, "CAP_SETUID")];

impl Found {
    /// Finds out what the system allows; the namespaces are tried with a
    /// clone (`can_mount`: the folder the runs' roots are mounted on exists).
    pub fn probe(can_mount: io::Result<()>, cgroup_probe: &str) -> Found {
        // SAFETY: geteuid cannot fail.
        let is_root = unsafe { sys::geteuid() } == 0;
        // As root, the namespaces themselves; else (or when a container
        // refuses them to root) inside a user namespace of our own.
        let namespaces = match can_mount {
            Err(e) => Err(e.to_string()),
            Ok(()) if is_root && probe(NS_FLAGS).is_ok() => Ok(false),
            Ok(()) => match probe(NS_FLAGS | sys::CLONE_NEWUSER) {
                Ok(()) => Ok(true),
                Err(e) => Err(format!("user namespace: {e}")),
            },
        };
        let base = ids::base();
        let ids = if !is_root {
            Err("not root: the marker's own".into())
        } else if let Some(missing) = missing_caps() {
            Err(format!("root without {missing}"))
        } else if !ids::uids_mapped(base, ids::SLOTS) {
            Err(format!(
                "uids {base} to {} are not mapped in this user namespace",
                base + ids::SLOTS - 1
            ))
        } else {
            Ok(base)
        };
        Found {
            namespaces,
            ids,
            cgroups: Hierarchy::find(cgroup_probe),
            landlock: super::landlock::abi(),
            is_root,
        }
    }

    /// Whether `level` can be had here, or why not.
    pub fn allows(&self, level: Level) -> Result<(), String> {
        match level {
            Level::Namespaces => self.namespaces.as_ref().map(|_| ()).map_err(Clone::clone),
            Level::Uid => self.ids.as_ref().map(|_| ()).map_err(Clone::clone),
            Level::Minimal => Ok(()),
        }
    }

    /// The most the system allows.
    pub fn best(&self) -> Level {
        Level::ALL
            .into_iter()
            .find(|l| self.allows(*l).is_ok())
            .unwrap_or(Level::Minimal)
    }
}

/// The capabilities of [`ID_CAPS`] this process lacks, by name, or `None`.
fn missing_caps() -> Option<String> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let effective = status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())?;
    let missing: Vec<&str> = ID_CAPS
        .iter()
        .filter(|(bit, _)| effective & (1 << bit) == 0)
        .map(|(_, name)| *name)
        .collect();
    (!missing.is_empty()).then(|| missing.join(", "))
}

/// Tries a clone with `flags` (a child that exits at once).
fn probe(flags: u64) -> io::Result<()> {
    // SAFETY: a fork-like clone whose child only calls _exit.
    let pid = unsafe { sys::syscall(sys::nr::CLONE, flags | sys::SIGCHLD as u64, 0, 0, 0, 0) };
    if pid == 0 {
        // SAFETY: leaving the child at once.
        unsafe { sys::_exit(0) };
    }
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut status = 0;
    // SAFETY: waiting for our own child.
    unsafe { sys::waitpid(pid as i32, &mut status, 0) };
    Ok(())
}

/// How many processes have `uid` as their real uid now (from `/proc`).
pub fn processes_of(uid: u32) -> u64 {
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    let wanted = uid.to_string();
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            fs::read_to_string(e.path().join("status")).is_ok_and(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("Uid:"))
                    .and_then(|ids| ids.split_whitespace().next().map(|real| real == wanted))
                    .unwrap_or(false)
            })
        })
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(namespaces: Result<bool, String>, ids: Result<u32, String>) -> Found {
        Found {
            namespaces,
            ids,
            cgroups: Err("none".into()),
            landlock: Err("none".into()),
            is_root: true,
        }
    }

    #[test]
    fn the_best_level_is_the_first_allowed() {
        let all = found(Ok(false), Ok(7));
        assert_eq!(all.best(), Level::Namespaces);
        let container = found(Err("user namespace: EPERM".into()), Ok(7));
        assert_eq!(container.best(), Level::Uid);
        assert_eq!(
            container.allows(Level::Namespaces),
            Err("user namespace: EPERM".into())
        );
        let laptop = found(Err("no".into()), Err("not root".into()));
        assert_eq!(laptop.best(), Level::Minimal);
        assert_eq!(laptop.allows(Level::Minimal), Ok(()));
    }

    #[test]
    fn this_process_is_counted_among_its_uids() {
        // SAFETY: getuid cannot fail.
        let uid = unsafe { sys::getuid() };
        assert!(processes_of(uid) >= 1);
    }
}
