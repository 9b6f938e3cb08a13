//! The plan of one run: everything the child processes need between `clone`
//! and `execve`, made beforehand from the [`Job`] and what the sandbox
//! decided for the run ([`Setting`]), so that the children only make system
//! calls on prepared strings (see `child`).
//!
//! A plan is a list of set-up operations ([`Op`]: the writes that join
//! cgroups and map a user namespace, then the mounts that build the run's
//! file system and pivot into it) for the run's keeper, then what the
//! program's own process does before `execve` (its folder, rlimits, ids,
//! the filter). Building a plan needs no privilege, so it is unit-tested
//! here; running it is `launch`'s.

use super::filter::{self, Arch, Insn};
use super::landlock;
use super::paths::{cstr, cstr_os, Paths, Place, SYSTEM};
use crate::sys;
use crate::sys::{MS_BIND, MS_NODEV, MS_NOEXEC, MS_NOSUID, MS_PRIVATE, MS_RDONLY, MS_REC};
use crate::{Job, Limits};
use std::ffi::{c_int, c_ulong, CString, OsStr, OsString};
use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

/// The devices of the run's `/dev`.
pub const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// What the sandbox decided for one run, beside its job.
#[derive(Debug)]
pub struct Setting {
    /// The run's own namespaces (PID, mount, IPC, UTS, and network unless
    /// `shared_net`): `None` without; `Some(true)` inside a user namespace
    /// of its own (not root).
    pub namespaces: Option<bool>,
    /// The empty folder the run's root tmpfs is mounted on (in its own
    /// mount namespace).
    pub root: PathBuf,
    /// The fresh work folder of a [`Workdir::Scratch`] run: a tmpfs mounted
    /// there (with namespaces), or a folder the sandbox makes (without).
    pub scratch: PathBuf,
    /// The uid and gid the program changes to (as root).
    pub ids: Option<(u32, u32)>,
    /// The `cgroup.procs` files the keeper joins.
    pub cgroup_procs: Vec<CString>,
    /// The cgroups hold the memory and process limits (the rlimits are
    /// then looser).
    pub cgroup_limits: bool,
    /// The grader samples the run's resident memory (no memory cgroup):
    /// the address space is left unlimited.
    pub memory_sampled: bool,
    /// The grading's network namespace, an open descriptor the keeper
    /// joins instead of making one.
    pub shared_net: Option<c_int>,
    /// Our own uid and gid (mapped to 0 in a user namespace).
    pub own_ids: (u32, u32),
    /// Landlock's ABI, and whether `/proc` may be read, for a run without
    /// a mount namespace; `None` for none.
    pub landlock: Option<(u32, bool)>,
    /// The processes of the marker's uid when the sandbox was made, for a
    /// run that shares it (the process rlimit counts them all).
    pub uid_processes: Option<u64>,
}

impl Setting {
    /// What the run is, for the system-call filter.
    pub fn filter_run(&self) -> filter::Run {
        filter::Run {
            own_network: self.namespaces.is_some() && self.shared_net.is_none(),
            shared_uid: self.namespaces.is_none() && self.ids.is_none(),
        }
    }
}

/// One set-up operation of the keeper, in order.
#[derive(Debug, PartialEq, Eq)]
pub enum Op {
    /// Writes `data` to the file `path` (joining a cgroup, a user
    /// namespace's maps).
    Write { path: CString, data: CString },
    /// Makes a folder (one that exists already is fine).
    Mkdir(CString),
    /// Makes an empty file to mount a file on (an existing one is fine).
    Touch(CString),
    /// Makes a symbolic link `link` to `target`.
    Symlink { target: CString, link: CString },
    /// `mount(2)`.
    Mount {
        source: Option<CString>,
        target: CString,
        fstype: Option<CString>,
        flags: c_ulong,
        data: Option<CString>,
    },
    /// Makes this folder (a mount point) the root, and detaches the old one.
    PivotRoot(CString),
    /// An operation whose failure is no failure (the run goes on without it).
    Optional(Box<Op>),
}

impl Op {
    /// What the operation does, for an error message ("mounting tmpfs on
    /// /x/root").
    pub fn describe(&self) -> String {
        let s = |c: &CString| c.to_string_lossy().into_owned();
        match self {
            Op::Write { path, .. } => format!("writing {}", s(path)),
            Op::Mkdir(p) => format!("making folder {}", s(p)),
            Op::Touch(p) => format!("making mount point {}", s(p)),
            Op::Symlink { link, .. } => format!("making link {}", s(link)),
            Op::Mount {
                source,
                target,
                fstype,
                flags,
                ..
            } => {
                if flags & sys::MS_REMOUNT != 0 {
                    format!("remounting {}", s(target))
                } else if flags & sys::MS_PRIVATE != 0 {
                    format!("making the mounts under {} private", s(target))
                } else {
                    let what = source.as_ref().or(fstype.as_ref()).map_or(String::new(), s);
                    format!("mounting {what} on {}", s(target))
                }
            }
            Op::PivotRoot(p) => format!("pivoting the root to {}", s(p)),
            Op::Optional(op) => op.describe(),
        }
    }
}

/// Everything a run needs between `clone` and `execve`, made beforehand.
#[derive(Debug)]
pub struct Plan {
    /// Namespace flags for the keeper's `clone`.
    pub clone_flags: u64,
    /// The keeper's set-up operations.
    pub ops: Vec<Op>,
    /// The program's work folder (as the run sees it).
    pub workdir: CString,
    /// The executable (as the run sees it), its argument vector and
    /// environment.
    pub program: CString,
    pub argv: Vec<CString>,
    pub envp: Vec<CString>,
    /// `(resource, soft, hard)`.
    pub rlimits: Vec<(c_int, u64, u64)>,
    /// The uid and gid to change to (as root).
    pub ids: Option<(u32, u32)>,
    /// The program stays uid 0 (of a user namespace, or root without spare
    /// uids): it must keep no capability through exec, or it could remount
    /// its read-only folders read-write.
    pub drop_caps: bool,
    /// The program's standard input, output and error.
    pub fds: [c_int; 3],
    /// No PID namespace to kill the run with: the keeper is a watcher that
    /// gets the run's orphans (a subreaper) and kills them when the program
    /// has ended; the program has a process group of its own, killed at the
    /// time limit, and dies with the watcher.
    pub own_group: bool,
    /// The grading's network namespace to join (an open descriptor), instead
    /// of a new one a run (`CLONE_NEWNET` is then not among the flags).
    pub shared_net: Option<c_int>,
    /// The system-call filter the program installs before `execve`.
    pub filter: Vec<Insn>,
    /// The Landlock ruleset the program restricts itself to.
    pub landlock: Option<OwnedFd>,
}

/// Builds the plan of `job` under `setting`.
pub fn build(setting: &Setting, job: &Job) -> io::Result<Plan> {
    let paths = Paths::of(job, &setting.scratch)?;
    let workdir = &paths.workdir.at;
    let mut ops = Vec::new();
    let isolated = setting.namespaces.is_some();
    let mut clone_flags = 0;
    if setting.namespaces == Some(true) {
        clone_flags |= sys::CLONE_NEWUSER;
        let (uid, gid) = setting.own_ids;
        for (file, data) in [
            ("/proc/self/setgroups", "deny".to_string()),
            ("/proc/self/uid_map", format!("0 {uid} 1")),
            ("/proc/self/gid_map", format!("0 {gid} 1")),
        ] {
            ops.push(Op::Write {
                path: cstr(file)?,
                data: cstr(&data)?,
            });
        }
    }
    for procs in &setting.cgroup_procs {
        ops.push(Op::Write {
            path: procs.clone(),
            data: cstr("0")?,
        });
    }
    if isolated {
        clone_flags |= NS_FLAGS;
        if setting.shared_net.is_some() {
            clone_flags &= !sys::CLONE_NEWNET;
        }
        mount_ops(&mut ops, &setting.root, &job.limits, &paths, setting.ids)?;
    }
    let resident = setting.cgroup_limits || setting.memory_sampled;
    let mut rlimits = rlimits(&job.limits, setting.cgroup_limits, resident);
    for (resource, soft, hard) in &mut rlimits {
        *hard = (*hard).min(sys::hard_limit(*resource));
        *soft = (*soft).min(*hard);
    }
    if setting.ids.is_none() && (setting.uid_processes.is_some() || !isolated) {
        // Without a uid of its own the process count includes the marker's
        // own processes: the limit is counted from theirs (or left alone).
        match setting.uid_processes {
            Some(before) => {
                for (resource, soft, hard) in &mut rlimits {
                    if *resource == sys::RLIMIT_NPROC {
                        *hard = hard.saturating_add(before).min(sys::hard_limit(*resource));
                        *soft = *hard;
                    }
                }
            }
            None => rlimits.retain(|r| r.0 != sys::RLIMIT_NPROC),
        }
    }
    let mut argv = vec![cstr_os(job.program.as_os_str())?];
    for a in &job.args {
        argv.push(cstr_os(a)?);
    }
    let var = |name: &str, value: &OsStr| {
        let mut v = OsString::from(name);
        v.push(value);
        cstr_os(&v)
    };
    let envp = vec![
        var("PATH=", &job.path)?,
        var("HOME=", workdir.as_os_str())?,
        var("TMPDIR=", workdir.as_os_str())?,
        cstr("LANG=C")?,
    ];
    use std::os::unix::io::AsRawFd;
    Ok(Plan {
        clone_flags,
        ops,
        workdir: cstr_os(workdir.as_os_str())?,
        program: cstr_os(paths.program.at.as_os_str())?,
        argv,
        envp,
        rlimits,
        ids: setting.ids,
        // uid 0 of a user namespace, or root without a uid for the run.
        drop_caps: setting.ids.is_none() && (isolated || setting.own_ids.0 == 0),
        fds: [
            job.stdin.as_raw_fd(),
            job.stdout.as_raw_fd(),
            job.stderr.as_raw_fd(),
        ],
        own_group: !isolated,
        shared_net: setting.shared_net.filter(|_| isolated),
        filter: filter::compile(Arch::HOST, setting.filter_run()),
        landlock: match setting.landlock {
            Some((abi, proc)) => Some(landlock::ruleset(abi, &paths, proc)?),
            None => None,
        },
    })
}

/// The namespaces of every run with namespaces (network unless shared).
pub const NS_FLAGS: u64 = sys::CLONE_NEWPID
    | sys::CLONE_NEWNS
    | sys::CLONE_NEWNET
    | sys::CLONE_NEWIPC
    | sys::CLONE_NEWUTS;

/// The operations that build the run's file system under `root` and pivot
/// into it: a fresh root with the system folders, `/dev`, `/proc`, `/tmp`
/// and `/dev/shm`, then the job's own paths.
fn mount_ops(
    ops: &mut Vec<Op>,
    root: &Path,
    limits: &Limits,
    paths: &Paths,
    ids: Option<(u32, u32)>,
) -> io::Result<()> {
    let mut mounts = Mounts { ops, root };
    mounts.fresh_root()?;
    let system = mounts.system()?;
    mounts.dev()?;
    mounts.proc()?;
    let size = limits.file_size.saturating_mul(2).max(1 << 20);
    mounts.tmp(size)?;
    mounts.places(paths, ids, size, system)?;
    mounts.pivot()
}

/// The mount operations of a run, added to `ops` in order, the run's file
/// system built under `root`.
struct Mounts<'a> {
    ops: &'a mut Vec<Op>,
    root: &'a Path,
}

/// A tmpfs mounted on `target` with `flags` and the options `data`.
fn tmpfs(target: &Path, flags: c_ulong, data: String) -> io::Result<Op> {
    Ok(Op::Mount {
        source: Some(cstr("tmpfs")?),
        target: cstr_os(target.as_os_str())?,
        fstype: Some(cstr("tmpfs")?),
        flags,
        data: Some(cstr(&data)?),
    })
}

impl Mounts<'_> {
    /// Where the run sees `p` (an absolute path) before the pivot: under the root.
    fn under(&self, p: &Path) -> PathBuf {
        self.root.join(p.strip_prefix("/").unwrap_or(p))
    }

    /// Makes the folder `p` (under the root).
    fn mkdir(&mut self, p: &Path) -> io::Result<()> {
        let op = Op::Mkdir(cstr_os(self.under(p).as_os_str())?);
        self.ops.push(op);
        Ok(())
    }

    /// The mounts made private (none reaches the host), then a tmpfs on the root.
    fn fresh_root(&mut self) -> io::Result<()> {
        self.ops.push(Op::Mount {
            source: None,
            target: cstr("/")?,
            fstype: None,
            flags: MS_REC | MS_PRIVATE,
            data: None,
        });
        self.ops.push(tmpfs(
            self.root,
            MS_NOSUID | MS_NODEV,
            "mode=755,size=1m".into(),
        )?);
        Ok(())
    }

    /// The system folders that exist, bound read-only (or their symbolic
    /// links copied); the folders and links, which the run then sees.
    fn system(&mut self) -> io::Result<Vec<PathBuf>> {
        let mut system = Vec::new();
        for dir in SYSTEM {
            let Ok(meta) = fs::symlink_metadata(dir) else {
                continue;
            };
            system.push(PathBuf::from(dir));
            let at = self.under(Path::new(dir));
            if meta.file_type().is_symlink() {
                self.ops.push(Op::Symlink {
                    target: cstr_os(fs::read_link(dir)?.as_os_str())?,
                    link: cstr_os(at.as_os_str())?,
                });
            } else if meta.is_dir() {
                self.ops.push(Op::Mkdir(cstr_os(at.as_os_str())?));
                bind(self.ops, Path::new(dir), &at, true)?;
            }
        }
        Ok(system)
    }

    /// A fresh `/dev`: a tmpfs, the [`DEVICES`] the host has bound on
    /// files, and the links to the standard descriptors.
    fn dev(&mut self) -> io::Result<()> {
        let dev = Path::new("/dev");
        self.mkdir(dev)?;
        self.ops.push(tmpfs(
            &self.under(dev),
            MS_NOSUID | MS_NOEXEC,
            "mode=755,size=64k".into(),
        )?);
        for d in DEVICES {
            let host = dev.join(d);
            if host.exists() {
                let target = cstr_os(self.under(&host).as_os_str())?;
                self.ops.push(Op::Touch(target.clone()));
                self.ops.push(Op::Mount {
                    source: Some(cstr_os(host.as_os_str())?),
                    target,
                    fstype: None,
                    flags: MS_BIND,
                    data: None,
                });
            }
        }
        for (link, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            self.ops.push(Op::Symlink {
                target: cstr(target)?,
                link: cstr_os(self.under(&dev.join(link)).as_os_str())?,
            });
        }
        Ok(())
    }

    /// A /proc of the run's own PID namespace (its processes only), read-
    /// only: sanitizers and some libraries read it. Where the kernel
    /// refuses it (in a user namespace under a masked /proc), none.
    fn proc(&mut self) -> io::Result<()> {
        let proc = Path::new("/proc");
        self.mkdir(proc)?;
        self.ops.push(Op::Optional(Box::new(Op::Mount {
            source: Some(cstr("proc")?),
            target: cstr_os(self.under(proc).as_os_str())?,
            fstype: Some(cstr("proc")?),
            flags: MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
            // The keeper's command line (the grader's) is not the run's to read.
            data: Some(cstr("hidepid=2")?),
        })));
        Ok(())
    }

    /// A `/tmp` of `size` bytes, and POSIX shared memory (shm_open,
    /// sem_open) of the run's own, not the host's: nothing of it reaches
    /// another run, or outlives this one.
    fn tmp(&mut self, size: u64) -> io::Result<()> {
        let tmp = Path::new("/tmp");
        self.mkdir(tmp)?;
        self.ops.push(tmpfs(
            &self.under(tmp),
            MS_NOSUID | MS_NODEV,
            format!("mode=1777,size={size}"),
        )?);
        let shm = Path::new("/dev/shm");
        self.mkdir(shm)?;
        self.ops.push(tmpfs(
            &self.under(shm),
            MS_NOSUID | MS_NODEV | MS_NOEXEC,
            format!("mode=1777,size={size}"),
        )?);
        Ok(())
    }

    /// The job's own paths, parents before children, each at the path the
    /// job named; one already `visible` read-only through an earlier one
    /// (or a system folder) is not bound again. A scratch work folder is a
    /// tmpfs of `size` bytes owned by `ids`.
    fn places(
        &mut self,
        paths: &Paths,
        ids: Option<(u32, u32)>,
        size: u64,
        mut visible: Vec<PathBuf>,
    ) -> io::Result<()> {
        let mut made: Vec<PathBuf> = Vec::new();
        for (place, access) in places_in_order(paths) {
            let path = &place.at;
            if access == Access::ReadOnly && visible.iter().any(|v| path.starts_with(v)) {
                continue;
            }
            let target = self.under(path);
            self.parents(path, &mut made)?;
            let is_dir = access != Access::ReadOnly || place.from.is_dir();
            self.ops.push(if is_dir {
                Op::Mkdir(cstr_os(target.as_os_str())?)
            } else {
                Op::Touch(cstr_os(target.as_os_str())?)
            });
            made.push(target.clone());
            match access {
                Access::ReadOnly => {
                    bind(self.ops, &place.from, &target, true)?;
                    visible.push(path.clone());
                }
                Access::ReadWrite => bind(self.ops, &place.from, &target, false)?,
                Access::Scratch => {
                    let (uid, gid) = ids.unwrap_or((0, 0));
                    self.ops.push(tmpfs(
                        &target,
                        MS_NOSUID | MS_NODEV,
                        format!("mode=700,uid={uid},gid={gid},size={size}"),
                    )?);
                }
            }
        }
        Ok(())
    }

    /// Makes the parent folders of `path` (under the root) not yet `made`.
    fn parents(&mut self, path: &Path, made: &mut Vec<PathBuf>) -> io::Result<()> {
        let mut prefix = self.root.to_path_buf();
        let parent = path.parent().unwrap_or(Path::new("/"));
        for part in parent.components().skip(1) {
            prefix.push(part);
            if !made.contains(&prefix) {
                made.push(prefix.clone());
                self.ops.push(Op::Mkdir(cstr_os(prefix.as_os_str())?));
            }
        }
        Ok(())
    }

    /// The pivot into the root, then the root remounted read-only.
    fn pivot(&mut self) -> io::Result<()> {
        let root = cstr_os(self.root.as_os_str())?;
        self.ops.push(Op::PivotRoot(root));
        self.ops.push(Op::Mount {
            source: None,
            target: cstr("/")?,
            fstype: None,
            flags: sys::MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
            data: None,
        });
        Ok(())
    }
}

/// The job's paths with how the run may use them, sorted by path (parents
/// first), each path once (the work folder, if also read-only, as the work
/// folder).
fn places_in_order(paths: &Paths) -> Vec<(&Place, Access)> {
    let mut places: Vec<(&Place, Access)> = paths
        .read_only
        .iter()
        .chain([&paths.program])
        .map(|p| (p, Access::ReadOnly))
        .collect();
    places.push((
        &paths.workdir,
        if paths.scratch {
            Access::Scratch
        } else {
            Access::ReadWrite
        },
    ));
    places.sort_by(|a, b| (&a.0.at, a.1).cmp(&(&b.0.at, b.1)));
    places.dedup_by(|b, a| a.0.at == b.0.at);
    places
}

/// How the run may use one of the job's paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Access {
    /// Read only, bound.
    ReadOnly,
    /// Read and written, bound (a build's folder).
    ReadWrite,
    /// A fresh tmpfs, the work folder of a scratch run.
    Scratch,
}

/// A bind mount of `source` on `target`, then its remount with our flags
/// (and those the source's file system has, which a user namespace may not
/// drop).
fn bind(ops: &mut Vec<Op>, source: &Path, target: &Path, read_only: bool) -> io::Result<()> {
    let src = cstr_os(source.as_os_str())?;
    let locked = sys::locked_mount_flags(&src);
    let mut flags = sys::MS_REMOUNT | sys::MS_BIND | sys::MS_NOSUID | sys::MS_NODEV | locked;
    if read_only {
        flags |= sys::MS_RDONLY;
    }
    ops.push(Op::Mount {
        source: Some(src),
        target: cstr_os(target.as_os_str())?,
        fstype: None,
        flags: sys::MS_BIND,
        data: None,
    });
    ops.push(Op::Mount {
        source: None,
        target: cstr_os(target.as_os_str())?,
        fstype: None,
        flags,
        data: None,
    });
    Ok(())
}

/// The rlimits of a run. Where the memory limit is resident (`resident`:
/// a memory cgroup, or the grader's sampler, counts what the run really
/// uses and stops it at the limit) the address space is left unlimited: a
/// refused allocation would be a crash, not told from others, and a program
/// built with `-fsanitize=address` reserves terabytes it never uses. With
/// cgroups (`cgroups`) the pids cgroup, not the rlimit (one more), is the
/// one that refuses a fork first.
pub fn rlimits(limits: &Limits, cgroups: bool, resident: bool) -> Vec<(c_int, u64, u64)> {
    let address_space = if resident { u64::MAX } else { limits.memory };
    let cpu = limits.wall.as_secs() + 1 + u64::from(limits.wall.subsec_nanos() > 0);
    let processes = limits.processes + u64::from(cgroups);
    vec![
        (sys::RLIMIT_AS, address_space, address_space),
        (sys::RLIMIT_NPROC, processes, processes),
        (sys::RLIMIT_FSIZE, limits.file_size, limits.file_size),
        (sys::RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (sys::RLIMIT_CORE, 0, 0),
        (sys::RLIMIT_CPU, cpu, cpu + 1),
    ]
}

/// The name of an rlimit, for messages.
pub fn rlimit_name(resource: c_int) -> &'static str {
    match resource {
        sys::RLIMIT_CPU => "RLIMIT_CPU",
        sys::RLIMIT_FSIZE => "RLIMIT_FSIZE",
        sys::RLIMIT_CORE => "RLIMIT_CORE",
        sys::RLIMIT_NPROC => "RLIMIT_NPROC",
        sys::RLIMIT_NOFILE => "RLIMIT_NOFILE",
        sys::RLIMIT_AS => "RLIMIT_AS",
        _ => "an rlimit",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linux::paths::absolute;
    use crate::Workdir;
    use std::fs::File;
    use std::time::Duration;

    fn limits() -> Limits {
        Limits {
            wall: Duration::from_millis(2500),
            make_up: Duration::ZERO,
            memory: 1 << 30,
            processes: 64,
            file_size: 64 << 20,
            open_files: 64,
            folder: None,
        }
    }

    fn job(workdir: Workdir, read_only: Vec<PathBuf>) -> Job {
        Job {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), "true".into()],
            path: "/usr/bin:/bin".into(),
            read_only,
            workdir,
            stdin: File::open("/dev/null").unwrap(),
            stdout: File::create("/dev/null").unwrap(),
            stderr: File::create("/dev/null").unwrap(),
            limits: limits(),
        }
    }

    fn setting(namespaces: Option<bool>) -> Setting {
        Setting {
            namespaces,
            root: "/g/root".into(),
            scratch: "/g/run7".into(),
            ids: None,
            cgroup_procs: vec![cstr("/sys/fs/cgroup/x/cgroup.procs").unwrap()],
            cgroup_limits: true,
            memory_sampled: false,
            shared_net: None,
            own_ids: (1000, 1000),
            landlock: None,
            uid_processes: None,
        }
    }

    fn described(plan: &Plan) -> Vec<String> {
        plan.ops.iter().map(Op::describe).collect()
    }

    #[test]
    fn cpu_limit_is_a_second_above_the_wall_clock() {
        let r = rlimits(&limits(), false, false);
        assert!(r.contains(&(sys::RLIMIT_CPU, 4, 5)));
        assert!(r.contains(&(sys::RLIMIT_AS, 1 << 30, 1 << 30)));
        assert!(r.contains(&(sys::RLIMIT_NPROC, 64, 64)));
    }

    #[test]
    fn cgroups_make_the_rlimits_looser_than_the_groups() {
        let r = rlimits(&limits(), true, true);
        assert!(r.contains(&(sys::RLIMIT_AS, u64::MAX, u64::MAX)));
        assert!(r.contains(&(sys::RLIMIT_NPROC, 65, 65)));
    }

    /// Sampled by the grader, the memory limit is resident as a cgroup's:
    /// the address space is left unlimited.
    #[test]
    fn a_sampled_memory_limit_leaves_the_address_space_alone() {
        let r = rlimits(&limits(), false, true);
        assert!(r.contains(&(sys::RLIMIT_AS, u64::MAX, u64::MAX)));
        assert!(r.contains(&(sys::RLIMIT_NPROC, 64, 64)));
        let mut s = setting(None);
        s.cgroup_limits = false;
        s.memory_sampled = true;
        let plan = build(&s, &job(Workdir::Scratch, vec![])).unwrap();
        let hard = sys::hard_limit(sys::RLIMIT_AS);
        assert!(plan.rlimits.contains(&(sys::RLIMIT_AS, hard, hard)));
    }

    #[test]
    fn absolute_paths_are_lexical() {
        assert_eq!(absolute(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(absolute(Path::new("/../x")), PathBuf::from("/x"));
        assert!(absolute(Path::new("rel")).ends_with("rel"));
    }

    /// A scratch run with namespaces: a tmpfs root, the system folders
    /// bound read-only, a fresh /dev, /proc, /tmp and work folder, then the
    /// pivot and the root made read-only; the environment names the work
    /// folder.
    #[test]
    fn a_scratch_run_gets_a_fresh_root_with_the_system_folders() {
        let plan = build(&setting(Some(false)), &job(Workdir::Scratch, vec![])).unwrap();
        assert_eq!(plan.clone_flags, NS_FLAGS);
        let ops = described(&plan);
        assert_eq!(ops[0], "writing /sys/fs/cgroup/x/cgroup.procs");
        assert_eq!(ops[1], "making the mounts under / private");
        assert_eq!(ops[2], "mounting tmpfs on /g/root");
        assert!(ops.contains(&"mounting /usr on /g/root/usr".to_string()));
        assert!(ops.contains(&"remounting /g/root/usr".to_string()));
        assert!(ops.contains(&"mounting tmpfs on /g/root/dev".to_string()));
        assert!(ops.contains(&"mounting /dev/null on /g/root/dev/null".to_string()));
        assert!(ops.contains(&"mounting proc on /g/root/proc".to_string()));
        assert!(ops.contains(&"mounting tmpfs on /g/root/tmp".to_string()));
        assert!(ops.contains(&"mounting tmpfs on /g/root/dev/shm".to_string()));
        assert!(ops.contains(&"mounting tmpfs on /g/root/g/run7".to_string()));
        // /bin/sh is under a system folder: not bound again.
        assert!(!ops.iter().any(|o| o.contains("/g/root/bin/sh")));
        assert_eq!(ops[ops.len() - 2], "pivoting the root to /g/root");
        assert_eq!(ops[ops.len() - 1], "remounting /");
        assert!(matches!(
            plan.ops.iter().find(|o| o.describe().contains("proc on")),
            Some(Op::Optional(_))
        ));
        let env: Vec<_> = plan.envp.iter().map(|e| e.to_str().unwrap()).collect();
        assert_eq!(
            env,
            [
                "PATH=/usr/bin:/bin",
                "HOME=/g/run7",
                "TMPDIR=/g/run7",
                "LANG=C"
            ]
        );
        assert_eq!(plan.workdir.to_str(), Ok("/g/run7"));
        assert!(plan.drop_caps && !plan.own_group);
    }

    /// A build's folder is bound read-write at its own path; a read-only
    /// path outside the system folders is bound read-only, its parents made.
    #[test]
    fn a_builds_folder_is_bound_read_write_and_extras_read_only() {
        let dir = std::env::temp_dir().join(format!("plan-test.{}", std::process::id()));
        let extra = dir.join("shims");
        fs::create_dir_all(&extra).unwrap();
        let work = dir.join("copy");
        fs::create_dir_all(&work).unwrap();
        let plan = build(
            &setting(Some(false)),
            &job(Workdir::Folder(work.clone()), vec![extra.clone()]),
        )
        .unwrap();
        let _ = fs::remove_dir_all(&dir);
        let ops = described(&plan);
        let under = |p: &Path| format!("/g/root{}", p.display());
        let mount_of = |p: &Path| format!("mounting {} on {}", p.display(), under(p));
        let extra_at = ops.iter().position(|o| *o == mount_of(&extra)).unwrap();
        let work_at = ops.iter().position(|o| *o == mount_of(&work)).unwrap();
        assert!(ops.contains(&format!("making folder {}", under(&dir))));
        let remount = |i: usize| match &plan.ops[i + 1] {
            Op::Mount { flags, .. } => *flags,
            other => panic!("{other:?}"),
        };
        assert_ne!(remount(extra_at) & sys::MS_RDONLY, 0);
        assert_eq!(remount(work_at) & sys::MS_RDONLY, 0);
    }

    /// A user namespace (not root) maps our ids to 0 before anything else.
    #[test]
    fn a_user_namespace_is_mapped_first() {
        let plan = build(&setting(Some(true)), &job(Workdir::Scratch, vec![])).unwrap();
        assert_eq!(plan.clone_flags, NS_FLAGS | sys::CLONE_NEWUSER);
        let ops = &plan.ops;
        assert_eq!(
            ops[..3],
            [
                Op::Write {
                    path: cstr("/proc/self/setgroups").unwrap(),
                    data: cstr("deny").unwrap()
                },
                Op::Write {
                    path: cstr("/proc/self/uid_map").unwrap(),
                    data: cstr("0 1000 1").unwrap()
                },
                Op::Write {
                    path: cstr("/proc/self/gid_map").unwrap(),
                    data: cstr("0 1000 1").unwrap()
                },
            ]
        );
    }

    /// Without namespaces: no mounts, the program's own process group, the
    /// paths as they are, and no process rlimit without a uid of its own.
    #[test]
    fn without_namespaces_the_plan_mounts_nothing() {
        let mut s = setting(None);
        s.cgroup_procs.clear();
        s.cgroup_limits = false;
        s.shared_net = Some(7);
        let plan = build(&s, &job(Workdir::Scratch, vec![])).unwrap();
        assert_eq!(plan.clone_flags, 0);
        assert!(plan.ops.is_empty());
        assert!(plan.own_group && !plan.drop_caps);
        assert_eq!(plan.shared_net, None);
        assert!(!plan.rlimits.iter().any(|r| r.0 == sys::RLIMIT_NPROC));
        assert!(plan.rlimits.contains(&(sys::RLIMIT_AS, 1 << 30, 1 << 30)));
        // Sharing the marker's uid, the process limit counts from theirs.
        s.uid_processes = Some(40);
        let plan = build(&s, &job(Workdir::Scratch, vec![])).unwrap();
        let nproc = 104.min(sys::hard_limit(sys::RLIMIT_NPROC));
        assert!(plan.rlimits.contains(&(sys::RLIMIT_NPROC, nproc, nproc)));
    }

    /// Root without a uid for the run keeps no capability; the marker's
    /// own uid has none to drop.
    #[test]
    fn root_without_a_uid_for_the_run_drops_its_capabilities() {
        let mut s = setting(None);
        s.own_ids = (0, 0);
        assert!(build(&s, &job(Workdir::Scratch, vec![])).unwrap().drop_caps);
        s.ids = Some((1_500_000_000, 1_500_000_000));
        assert!(!build(&s, &job(Workdir::Scratch, vec![])).unwrap().drop_caps);
        assert!(
            !build(&setting(None), &job(Workdir::Scratch, vec![]))
                .unwrap()
                .drop_caps
        );
    }

    #[test]
    fn a_shared_network_is_joined_not_made() {
        let mut s = setting(Some(false));
        s.shared_net = Some(7);
        let plan = build(&s, &job(Workdir::Scratch, vec![])).unwrap();
        assert_eq!(plan.clone_flags & sys::CLONE_NEWNET, 0);
        assert_eq!(plan.shared_net, Some(7));
        assert!(!s.filter_run().own_network);
    }

    /// The filter knows the run: its own network (AF_UNIX allowed), or
    /// the marker's uid without a PID namespace (signals to groups denied).
    #[test]
    fn the_filter_follows_the_runs_namespaces_and_uid() {
        let own = setting(Some(false)).filter_run();
        assert!(own.own_network && !own.shared_uid);
        let minimal = setting(None).filter_run();
        assert!(!minimal.own_network && minimal.shared_uid);
        let mut uid = setting(None);
        uid.ids = Some((1_500_000_000, 1_500_000_000));
        assert!(!uid.filter_run().shared_uid);
        let plan = build(&setting(None), &job(Workdir::Scratch, vec![])).unwrap();
        assert_eq!(plan.filter, filter::compile(Arch::HOST, minimal));
    }

    #[test]
    fn a_nul_byte_in_an_argument_is_refused_by_name() {
        let mut j = job(Workdir::Scratch, vec![]);
        j.args = vec!["a\0b".into()];
        let e = build(&setting(None), &j).unwrap_err();
        assert_eq!(e.to_string(), "\"a\\0b\": a NUL byte in a path or argument");
    }
}
