//! The sandbox on Linux: namespaces, an unprivileged uid, rlimits and
//! cgroups, each where the system allows it.

mod cgroup;
mod ns;

use crate::sys;
use crate::{Ending, Job, Limits, Outcome, Runner, Workdir};
use cgroup::{Counters, Groups, Hierarchy};
use ns::{Plan, Raw, Step};
use std::ffi::{CString, OsStr, OsString};
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

/// The first uid (and gid) given to runs when the sandbox runs as root: far
/// above any real account. Run `s` of the process with id `p` gets
/// `BASE_ID + p * SLOTS + s`, so that concurrent runs, of this process and
/// of others, never share one.
const BASE_ID: u32 = 1_500_000_000;

/// Runs at once per process, each with its own uid.
const SLOTS: u32 = 128;

/// The system folders a run sees, read-only, where they exist.
const SYSTEM: [&str; 6] = ["/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc"];

/// The devices of the run's `/dev`.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// Runs jobs; made once, used from every grading thread.
pub struct Sandbox {
    scratch_root: PathBuf,
    /// The empty folder each run's root tmpfs is mounted on (in the run's
    /// own mount namespace, so that one folder serves every run).
    root: PathBuf,
    namespaces: Namespaces,
    cgroups: Result<Hierarchy, String>,
    /// The first uid of this process's runs, when root; or why there is
    /// none.
    ids: Result<u32, String>,
    /// One empty network namespace (no interface up) that every run of this
    /// sandbox joins, when root: making and tearing down one a run costs
    /// about half a run's set-up. Runs at once could reach each other
    /// through it (abstract sockets), never the marker's network.
    shared_net: Option<std::os::fd::OwnedFd>,
}

/// The slots in use (one bit each), process-wide: every sandbox of the
/// process shares the uids and cgroup names.
static SLOTS_USED: Mutex<u128> = Mutex::new(0);
static SLOT_FREED: Condvar = Condvar::new();
/// Numbers runs (cgroup and scratch folder names), process-wide.
static NEXT: AtomicU64 = AtomicU64::new(0);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Namespaces {
    /// All of them, as root.
    Full,
    /// All of them inside a user namespace (not root).
    User,
    /// None: why.
    None(String),
}

const NS_FLAGS: u64 = sys::CLONE_NEWPID
    | sys::CLONE_NEWNS
    | sys::CLONE_NEWNET
    | sys::CLONE_NEWIPC
    | sys::CLONE_NEWUTS;

impl Sandbox {
    /// A sandbox whose scratch folders (when no mount namespace can be
    /// had) and root mount point go under `scratch_root`, which it makes.
    /// It finds out once which protections the system allows.
    pub fn new(scratch_root: PathBuf) -> Sandbox {
        let root = scratch_root.join("root");
        let made = fs::create_dir_all(&root);
        // SAFETY: geteuid cannot fail.
        let is_root = unsafe { sys::geteuid() } == 0;
        // As root, the namespaces themselves; else (or when a container
        // refuses them to root) inside a user namespace of our own.
        let namespaces = match made {
            Err(e) => Namespaces::None(format!("{}: {e}", root.display())),
            Ok(()) if is_root && probe(NS_FLAGS).is_ok() => Namespaces::Full,
            Ok(()) => match probe(NS_FLAGS | sys::CLONE_NEWUSER) {
                Ok(()) => Namespaces::User,
                Err(e) => Namespaces::None(format!("user namespace: {e}")),
            },
        };
        let probe_name = format!(
            "puzzle-grade.{}.probe{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let cgroups = Hierarchy::find(&probe_name);
        let base = BASE_ID + (std::process::id() % (1 << 22)) * SLOTS;
        let ids = if !is_root {
            Err("not root: the marker's own".into())
        } else if namespaces == Namespaces::User {
            Err("only a user namespace: the runs keep uid 0, without capabilities".into())
        } else if !uids_mapped(base, SLOTS) {
            Err(format!(
                "uids {base} to {} are not mapped in this user namespace: the runs keep uid 0, without capabilities",
                base + SLOTS - 1
            ))
        } else {
            Ok(base)
        };
        let shared_net = if namespaces == Namespaces::Full {
            empty_network()
        } else {
            None
        };
        Sandbox {
            scratch_root,
            root,
            namespaces,
            cgroups,
            ids,
            shared_net,
        }
    }

    fn run_in_slot(&self, job: Job, slot: u32) -> io::Result<Outcome> {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = format!("puzzle-grade.{}.{n}", std::process::id());
        let ids = self
            .ids
            .as_ref()
            .ok()
            .map(|base| (base + slot, base + slot));
        let isolated = !matches!(self.namespaces, Namespaces::None(_));
        let (workdir, scratch) = match &job.workdir {
            Workdir::Folder(dir) => (Place::of(dir)?, false),
            Workdir::Scratch => {
                let dir = self.scratch_root.join(format!("run{n}"));
                let at = absolute(&dir);
                (
                    Place {
                        from: at.clone(),
                        at,
                    },
                    true,
                )
            }
        };
        let paths = Paths {
            program: Place::of(&job.program)?,
            read_only: job
                .read_only
                .iter()
                .map(|p| Place::of(p))
                .collect::<io::Result<Vec<_>>>()?,
            workdir,
            scratch,
        };
        let workdir = &paths.workdir.from;
        if scratch && !isolated {
            fs::create_dir(workdir)?;
            if let Some((uid, gid)) = ids {
                std::os::unix::fs::lchown(workdir, Some(uid), Some(gid))?;
            }
        }
        let groups = match &self.cgroups {
            Ok(h) => {
                // The pids limit counts init too; the rlimit (one more) is
                // then never the one that refuses a fork first.
                h.create(&name, job.limits.memory, job.limits.processes + 1)
                    .ok()
            }
            Err(_) => None,
        };
        let lent = match (&job.workdir, ids) {
            (Workdir::Folder(_), Some((uid, gid))) => Some(Lent::lend(workdir, uid, gid)),
            _ => None,
        };
        let plan = self.plan(&job, &paths, ids, &groups);
        let result = plan.and_then(|plan| ns::run(&plan, job.limits.wall));
        let counters = match &groups {
            Some(g) => {
                if !isolated {
                    kill_members(g);
                }
                g.counters()
            }
            None => Counters::default(),
        };
        if let Some(g) = groups {
            g.remove();
        }
        if let Some(lent) = lent {
            lent.give_back();
        }
        if scratch && !isolated {
            let _ = fs::remove_dir_all(workdir);
        }
        let (raw, elapsed) = result?;
        Ok(Outcome {
            ending: classify(raw, counters),
            elapsed,
        })
    }

    fn plan(
        &self,
        job: &Job,
        paths: &Paths,
        ids: Option<(u32, u32)>,
        groups: &Option<Groups>,
    ) -> io::Result<Plan> {
        let workdir = &paths.workdir.at;
        let mut steps = Vec::new();
        let isolated = !matches!(self.namespaces, Namespaces::None(_));
        let mut clone_flags = 0;
        if self.namespaces == Namespaces::User {
            clone_flags |= sys::CLONE_NEWUSER;
            // SAFETY: these cannot fail.
            let (uid, gid) = unsafe { (sys::geteuid(), sys::getegid()) };
            for (file, data) in [
                ("/proc/self/setgroups", "deny".to_string()),
                ("/proc/self/uid_map", format!("0 {uid} 1")),
                ("/proc/self/gid_map", format!("0 {gid} 1")),
            ] {
                steps.push(Step::Write {
                    path: cstr(file)?,
                    data: cstr(&data)?,
                });
            }
        }
        if let Some(g) = groups {
            for procs in &g.procs {
                steps.push(Step::Write {
                    path: procs.clone(),
                    data: cstr("0")?,
                });
            }
        }
        if isolated {
            clone_flags |= NS_FLAGS;
            if self.shared_net.is_some() {
                clone_flags &= !sys::CLONE_NEWNET;
            }
            self.mount_steps(&mut steps, job, paths, ids)?;
        }
        let mut rlimits = rlimits(&job.limits, groups.is_some());
        for (resource, soft, hard) in &mut rlimits {
            *hard = (*hard).min(sys::hard_limit(*resource));
            *soft = (*soft).min(*hard);
        }
        if !isolated {
            // Without a uid of its own the process count would include the
            // marker's own processes.
            rlimits.retain(|r| r.0 != sys::RLIMIT_NPROC || ids.is_some());
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
        Ok(Plan {
            clone_flags,
            steps,
            workdir: cstr_os(workdir.as_os_str())?,
            program: cstr_os(paths.program.at.as_os_str())?,
            argv,
            envp,
            rlimits,
            ids,
            drop_caps: isolated && ids.is_none(),
            fds: [
                job.stdin.as_raw_fd(),
                job.stdout.as_raw_fd(),
                job.stderr.as_raw_fd(),
            ],
            own_group: !isolated,
            shared_net: match (&self.shared_net, isolated) {
                (Some(fd), true) => fd.as_raw_fd(),
                _ => -1,
            },
        })
    }

    /// The steps that build the run's file system under [`Sandbox::root`]
    /// and pivot into it.
    fn mount_steps(
        &self,
        steps: &mut Vec<Step>,
        job: &Job,
        paths: &Paths,
        ids: Option<(u32, u32)>,
    ) -> io::Result<()> {
        use sys::{MS_BIND, MS_NODEV, MS_NOEXEC, MS_NOSUID, MS_PRIVATE, MS_RDONLY, MS_REC};
        let root = &self.root;
        let under = |p: &Path| root.join(p.strip_prefix("/").unwrap_or(p));
        let tmpfs = |target: &Path, flags, data: String| -> io::Result<Step> {
            Ok(Step::Mount {
                source: Some(cstr("tmpfs")?),
                target: cstr_os(target.as_os_str())?,
                fstype: Some(cstr("tmpfs")?),
                flags,
                data: Some(cstr(&data)?),
            })
        };
        steps.push(Step::Mount {
            source: None,
            target: cstr("/")?,
            fstype: None,
            flags: MS_REC | MS_PRIVATE,
            data: None,
        });
        steps.push(tmpfs(
            root,
            MS_NOSUID | MS_NODEV,
            "mode=755,size=1m".into(),
        )?);
        let mut system = Vec::new();
        for dir in SYSTEM {
            let Ok(meta) = fs::symlink_metadata(dir) else {
                continue;
            };
            system.push(PathBuf::from(dir));
            if meta.file_type().is_symlink() {
                steps.push(Step::Symlink {
                    target: cstr_os(fs::read_link(dir)?.as_os_str())?,
                    link: cstr_os(under(Path::new(dir)).as_os_str())?,
                });
            } else if meta.is_dir() {
                steps.push(Step::Mkdir(cstr_os(under(Path::new(dir)).as_os_str())?));
                bind(steps, Path::new(dir), &under(Path::new(dir)), true)?;
            }
        }
        let dev = Path::new("/dev");
        steps.push(Step::Mkdir(cstr_os(under(dev).as_os_str())?));
        steps.push(tmpfs(
            &under(dev),
            MS_NOSUID | MS_NOEXEC,
            "mode=755,size=64k".into(),
        )?);
        for d in DEVICES {
            let host = dev.join(d);
            if host.exists() {
                steps.push(Step::Touch(cstr_os(under(&host).as_os_str())?));
                steps.push(Step::Mount {
                    source: Some(cstr_os(host.as_os_str())?),
                    target: cstr_os(under(&host).as_os_str())?,
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
            steps.push(Step::Symlink {
                target: cstr(target)?,
                link: cstr_os(under(&dev.join(link)).as_os_str())?,
            });
        }
        // A /proc of the run's own PID namespace (its processes only), read-
        // only: sanitizers and some libraries read it. Where the kernel
        // refuses it (in a user namespace under a masked /proc), none.
        let proc = Path::new("/proc");
        steps.push(Step::Mkdir(cstr_os(under(proc).as_os_str())?));
        steps.push(Step::Optional(Box::new(Step::Mount {
            source: Some(cstr("proc")?),
            target: cstr_os(under(proc).as_os_str())?,
            fstype: Some(cstr("proc")?),
            flags: MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
            // Init's command line (the grader's) is not the run's to read.
            data: Some(cstr("hidepid=2")?),
        })));
        let size = job.limits.file_size.saturating_mul(2).max(1 << 20);
        let tmp = Path::new("/tmp");
        steps.push(Step::Mkdir(cstr_os(under(tmp).as_os_str())?));
        steps.push(tmpfs(
            &under(tmp),
            MS_NOSUID | MS_NODEV,
            format!("mode=1777,size={size}"),
        )?);
        // The job's own paths, parents before children, each at the path the
        // job named; one already visible read-only through an earlier one
        // (or a system folder) is not bound again.
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
        let mut made: Vec<PathBuf> = Vec::new();
        let mut visible: Vec<PathBuf> = system;
        for (place, access) in places {
            let path = &place.at;
            if access == Access::ReadOnly && visible.iter().any(|v| path.starts_with(v)) {
                continue;
            }
            let target = under(path);
            let mut prefix = root.clone();
            let parent = path.parent().unwrap_or(Path::new("/"));
            for part in parent.components().skip(1) {
                prefix.push(part);
                if !made.contains(&prefix) {
                    made.push(prefix.clone());
                    steps.push(Step::Mkdir(cstr_os(prefix.as_os_str())?));
                }
            }
            let is_dir = access != Access::ReadOnly || place.from.is_dir();
            steps.push(if is_dir {
                Step::Mkdir(cstr_os(target.as_os_str())?)
            } else {
                Step::Touch(cstr_os(target.as_os_str())?)
            });
            made.push(target.clone());
            match access {
                Access::ReadOnly => {
                    bind(steps, &place.from, &target, true)?;
                    visible.push(path.clone());
                }
                Access::ReadWrite => bind(steps, &place.from, &target, false)?,
                Access::Scratch => {
                    let (uid, gid) = ids.unwrap_or((0, 0));
                    steps.push(tmpfs(
                        &target,
                        MS_NOSUID | MS_NODEV,
                        format!("mode=700,uid={uid},gid={gid},size={size}"),
                    )?);
                }
            }
        }
        steps.push(Step::PivotRoot(cstr_os(root.as_os_str())?));
        steps.push(Step::Mount {
            source: None,
            target: cstr("/")?,
            fstype: None,
            flags: sys::MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
            data: None,
        });
        Ok(())
    }
}

/// A path of the job: `at` where the run sees it (the path the job named,
/// made absolute), `from` what it is on this machine (symbolic links
/// resolved).
#[derive(Debug)]
struct Place {
    at: PathBuf,
    from: PathBuf,
}

impl Place {
    fn of(path: &Path) -> io::Result<Place> {
        Ok(Place {
            at: absolute(path),
            from: canonical(path)?,
        })
    }
}

/// The paths of one run.
#[derive(Debug)]
struct Paths {
    program: Place,
    read_only: Vec<Place>,
    workdir: Place,
    /// The work folder is a fresh tmpfs (or, without a mount namespace, a
    /// fresh folder), not the job's.
    scratch: bool,
}

/// `path` from the root, without `.` or `..` (taken lexically).
fn absolute(path: &Path) -> PathBuf {
    let joined = std::env::current_dir().unwrap_or_default().join(path);
    let mut out = PathBuf::from("/");
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(p) => out.push(p),
            _ => {}
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Access {
    ReadOnly,
    ReadWrite,
    Scratch,
}

/// A bind mount of `source` on `target`, then its remount with our flags
/// (and those the source's file system has, which a user namespace may not
/// drop).
fn bind(steps: &mut Vec<Step>, source: &Path, target: &Path, read_only: bool) -> io::Result<()> {
    let src = cstr_os(source.as_os_str())?;
    let locked = sys::locked_mount_flags(&src);
    let mut flags = sys::MS_REMOUNT | sys::MS_BIND | sys::MS_NOSUID | sys::MS_NODEV | locked;
    if read_only {
        flags |= sys::MS_RDONLY;
    }
    steps.push(Step::Mount {
        source: Some(src),
        target: cstr_os(target.as_os_str())?,
        fstype: None,
        flags: sys::MS_BIND,
        data: None,
    });
    steps.push(Step::Mount {
        source: None,
        target: cstr_os(target.as_os_str())?,
        fstype: None,
        flags,
        data: None,
    });
    Ok(())
}

/// The rlimits of a run. With cgroups (`cgroups`), the memory cgroup holds
/// the memory limit: it counts what the run really uses and kills it at the
/// limit, so the address space is left unlimited (a refused allocation would
/// be a crash, not told from others, and a program built with
/// `-fsanitize=address` reserves terabytes it never uses); and the pids
/// cgroup, not the rlimit (one more), is the one that refuses a fork first.
fn rlimits(limits: &Limits, cgroups: bool) -> Vec<(i32, u64, u64)> {
    let address_space = if cgroups { u64::MAX } else { limits.memory };
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

/// How a run ended, from its wait status and its cgroups' counters: a run
/// that did not exit 0 and had a process killed by the out-of-memory killer,
/// else a fork refused, else a charge refused at the memory limit, was
/// stopped by that limit; else it ended as its status says (SIGXCPU is the
/// time limit).
fn classify(raw: Raw, counters: Counters) -> Ending {
    let plain = match raw {
        Raw::TimedOut => Ending::TimedOut,
        Raw::Status(st) => match (sys::exit_code(st), sys::term_signal(st)) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(sys::SIGXCPU)) => Ending::TimedOut,
            (None, Some(sig)) => Ending::Signalled(sig),
            (None, None) => Ending::Exited(-1),
        },
    };
    if plain == Ending::Exited(0) {
        // It met a limit, perhaps, but coped: graded on what it printed.
        plain
    } else if counters.oom_kills > 0 {
        Ending::MemoryLimit
    } else if counters.fork_refusals > 0 {
        Ending::ProcessLimit
    } else if counters.memory_hits > 0 {
        Ending::MemoryLimit
    } else {
        plain
    }
}

/// Kills every process in the run's cgroup (when there is no PID namespace
/// to do it), until none is left.
fn kill_members(groups: &Groups) {
    for _ in 0..1000 {
        let members = groups.members();
        if members.is_empty() {
            return;
        }
        for pid in members {
            // SAFETY: kill has no memory effects.
            unsafe { sys::kill(pid, sys::SIGKILL) };
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// A work folder lent to a run's uid (as root): everything in it is given
/// to the run's uid, and back to the folder's owner when the run ends.
struct Lent {
    dir: PathBuf,
    owner: (u32, u32),
}

impl Lent {
    fn lend(dir: &Path, uid: u32, gid: u32) -> Lent {
        let owner = fs::metadata(dir).map_or((0, 0), |m| (m.uid(), m.gid()));
        chown_tree(dir, uid, gid);
        Lent {
            dir: dir.to_path_buf(),
            owner,
        }
    }

    fn give_back(self) {
        chown_tree(&self.dir, self.owner.0, self.owner.1);
    }
}

fn chown_tree(dir: &Path, uid: u32, gid: u32) {
    let _ = std::os::unix::fs::lchown(dir, Some(uid), Some(gid));
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let path = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => chown_tree(&path, uid, gid),
                _ => {
                    let _ = std::os::unix::fs::lchown(&path, Some(uid), Some(gid));
                }
            }
        }
    }
}

/// A new, empty network namespace, held by an open descriptor (made in a
/// thread of its own: a thread's network namespace is its own to change).
/// None where it cannot be made or joined (a container may forbid `setns`):
/// then each run makes its own.
fn empty_network() -> Option<std::os::fd::OwnedFd> {
    use std::os::fd::AsRawFd;
    let net = std::thread::spawn(|| {
        // SAFETY: it changes only this short-lived thread's namespace.
        if unsafe { sys::unshare(sys::CLONE_NEWNET as std::ffi::c_int) } != 0 {
            return None;
        }
        fs::File::open("/proc/thread-self/ns/net")
            .ok()
            .map(std::os::fd::OwnedFd::from)
    })
    .join()
    .ok()
    .flatten()?;
    let fd = net.as_raw_fd();
    // Joined once by another short-lived thread, as each run's init will.
    let joins = std::thread::spawn(move || {
        // SAFETY: it changes only this short-lived thread's namespace.
        unsafe { sys::setns(fd, sys::CLONE_NEWNET as std::ffi::c_int) == 0 }
    })
    .join()
    .unwrap_or(false);
    joins.then_some(net)
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

fn canonical(path: &Path) -> io::Result<PathBuf> {
    fs::canonicalize(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

fn cstr(s: &str) -> io::Result<CString> {
    cstr_os(OsStr::new(s))
}

fn cstr_os<S: AsRef<OsStr> + ?Sized>(s: &S) -> io::Result<CString> {
    CString::new(s.as_ref().as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{:?}: a NUL byte in a path or argument", s.as_ref()),
        )
    })
}

fn take_slot() -> u32 {
    let mut used = SLOTS_USED.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let free = (!*used).trailing_zeros();
        if free < SLOTS {
            *used |= 1 << free;
            return free;
        }
        used = SLOT_FREED.wait(used).unwrap_or_else(|e| e.into_inner());
    }
}

fn free_slot(slot: u32) {
    let mut used = SLOTS_USED.lock().unwrap_or_else(|e| e.into_inner());
    *used &= !(1 << slot);
    SLOT_FREED.notify_one();
}

/// Whether uids (and gids) `first` to `first + count - 1` exist in this
/// process's user namespace (in the first, every uid does).
fn uids_mapped(first: u32, count: u32) -> bool {
    ["/proc/self/uid_map", "/proc/self/gid_map"]
        .iter()
        .all(|f| fs::read_to_string(f).is_ok_and(|m| map_covers(&m, first, count)))
}

/// Whether one line of a `uid_map` (`inside outside count`) holds all of
/// `first` to `first + count - 1`.
fn map_covers(map: &str, first: u32, count: u32) -> bool {
    map.lines().any(|line| {
        let f: Vec<u64> = line
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        f.len() == 3
            && f[0] <= u64::from(first)
            && u64::from(first) + u64::from(count) <= f[0] + f[2]
    })
}

impl Runner for Sandbox {
    fn run(&self, job: Job) -> io::Result<Outcome> {
        let slot = take_slot();
        let result = self.run_in_slot(job, slot);
        free_slot(slot);
        result
    }

    fn protections(&self) -> String {
        let mut on = Vec::new();
        let mut off = Vec::new();
        match &self.namespaces {
            Namespaces::Full | Namespaces::User => {
                if self.shared_net.is_some() {
                    on.push("own PID, mount, IPC and UTS namespaces (only the system folders, read-only, the run's own files and its own /proc visible)".to_string());
                    on.push("no network (one empty network namespace for the grading's runs)".to_string());
                } else {
                    on.push("own PID, mount, network, IPC and UTS namespaces (only the system folders, read-only, the run's own files and its own /proc visible)".to_string());
                }
                if self.namespaces == Namespaces::User {
                    on.push("a user namespace".into());
                }
            }
            Namespaces::None(why) => {
                off.push(format!("namespaces ({why}): the run sees the whole file system and the network; what it leaves running is killed at the end"))
            }
        }
        match &self.ids {
            Ok(base) => on.push(format!(
                "uid and gid {base} and up (one a run), no supplementary groups, no new privileges"
            )),
            Err(why) => off.push(format!("an unprivileged uid ({why})")),
        }
        on.push(if self.cgroups.is_ok() {
            "limits: processes, file size, open files, CPU time, no core files".into()
        } else {
            "limits: address space, processes, file size, open files, CPU time, no core files"
                .into()
        });
        match &self.cgroups {
            Ok(h) => on.push(format!(
                "cgroups: memory (the memory limit), pids ({})",
                h.describe()
            )),
            Err(why) => off.push(format!(
                "cgroups ({why}): the memory and process limits are rlimits only, and not told from crashes"
            )),
        }
        let mut line = format!("sandbox: {}", on.join("; "));
        if !off.is_empty() {
            line.push_str(&format!("; not available: {}", off.join("; ")));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::time::Duration;

    fn limits() -> Limits {
        Limits {
            wall: Duration::from_millis(2500),
            memory: 1 << 30,
            processes: 64,
            file_size: 64 << 20,
            open_files: 64,
        }
    }

    #[test]
    fn cpu_limit_is_a_second_above_the_wall_clock() {
        let r = rlimits(&limits(), false);
        assert!(r.contains(&(sys::RLIMIT_CPU, 4, 5)));
        assert!(r.contains(&(sys::RLIMIT_AS, 1 << 30, 1 << 30)));
        assert!(r.contains(&(sys::RLIMIT_NPROC, 64, 64)));
    }

    #[test]
    fn cgroups_make_the_rlimits_looser_than_the_groups() {
        let r = rlimits(&limits(), true);
        assert!(r.contains(&(sys::RLIMIT_AS, u64::MAX, u64::MAX)));
        assert!(r.contains(&(sys::RLIMIT_NPROC, 65, 65)));
    }

    /// Eight threads share one sandbox, as the engine's do: every run ends
    /// as its program said, and each gets its own output.
    #[test]
    fn runs_from_many_threads_at_once_end_as_their_programs_say() {
        let scratch = std::env::temp_dir().join(format!("threads.{}", std::process::id()));
        let sandbox = Sandbox::new(scratch.clone());
        std::thread::scope(|s| {
            for t in 0..8 {
                let sandbox = &sandbox;
                let scratch = &scratch;
                s.spawn(move || {
                    for i in 0..6 {
                        let out = scratch.join(format!("out{t}.{i}"));
                        let code = (t * 10 + i) % 7;
                        let outcome = sandbox
                            .run(Job {
                                program: "/bin/sh".into(),
                                args: vec![
                                    "-c".into(),
                                    format!("echo {t}.{i}; exit {code}").into(),
                                ],
                                path: "/usr/bin:/bin".into(),
                                read_only: Vec::new(),
                                workdir: Workdir::Scratch,
                                stdin: File::open("/dev/null").unwrap(),
                                stdout: File::create(&out).unwrap(),
                                stderr: File::create("/dev/null").unwrap(),
                                limits: limits(),
                            })
                            .unwrap();
                        assert_eq!(outcome.ending, Ending::Exited(code));
                        assert_eq!(fs::read_to_string(&out).unwrap(), format!("{t}.{i}\n"));
                    }
                });
            }
        });
        let _ = fs::remove_dir_all(scratch);
    }

    #[test]
    fn absolute_paths_are_lexical() {
        assert_eq!(absolute(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(absolute(Path::new("/../x")), PathBuf::from("/x"));
        assert!(absolute(Path::new("rel")).ends_with("rel"));
    }

    #[test]
    fn reads_which_uids_a_user_namespace_maps() {
        let init = "         0          0 4294967295\n";
        assert!(map_covers(init, BASE_ID, SLOTS));
        let container = "0 100000 65536\n";
        assert!(map_covers(container, 1000, 128));
        assert!(!map_covers(container, BASE_ID, SLOTS));
        assert!(!map_covers("", 0, 1));
    }

    #[test]
    fn classifies_by_status_and_counters() {
        let none = Counters::default();
        let oom = Counters {
            oom_kills: 1,
            ..none
        };
        let forks = Counters {
            fork_refusals: 3,
            ..none
        };
        assert_eq!(classify(Raw::Status(0), none), Ending::Exited(0));
        assert_eq!(classify(Raw::Status(2 << 8), none), Ending::Exited(2));
        assert_eq!(classify(Raw::Status(11), none), Ending::Signalled(11));
        assert_eq!(classify(Raw::Status(24), none), Ending::TimedOut);
        assert_eq!(classify(Raw::TimedOut, none), Ending::TimedOut);
        assert_eq!(classify(Raw::Status(9), oom), Ending::MemoryLimit);
        assert_eq!(classify(Raw::Status(1 << 8), forks), Ending::ProcessLimit);
        assert_eq!(classify(Raw::TimedOut, forks), Ending::ProcessLimit);
        // A program that met a limit and coped is not stopped by it.
        assert_eq!(classify(Raw::Status(0), forks), Ending::Exited(0));
        assert_eq!(classify(Raw::Status(0), oom), Ending::Exited(0));
    }
}

/// The sandbox's cost: `cargo test --release --bin puzzle-grade -- --ignored
/// --nocapture overhead` runs `/bin/true` 200 times plainly and 200 times in
/// the sandbox, and prints both times.
#[cfg(test)]
mod overhead {
    use super::*;
    use std::fs::File;
    use std::process::Command;
    use std::time::{Duration, Instant};

    /// CPU time of this process and its reaped children so far, from
    /// `/proc/self/stat` (user, system, children's user and system).
    fn cpu() -> Duration {
        let stat = fs::read_to_string("/proc/self/stat").unwrap();
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let ticks: u64 = after
            .split(' ')
            .skip(11)
            .take(4)
            .map(|t| t.parse::<u64>().unwrap())
            .sum();
        Duration::from_millis(ticks * 10)
    }

    #[test]
    #[ignore = "a measurement, not a test"]
    fn overhead() {
        const RUNS: u32 = 200;
        let (began, cpu0) = (Instant::now(), cpu());
        for _ in 0..RUNS {
            Command::new("/bin/true").status().unwrap();
        }
        let (plain, plain_cpu) = (began.elapsed(), cpu() - cpu0);
        let scratch = std::env::temp_dir().join(format!("overhead.{}", std::process::id()));
        let sandbox = Sandbox::new(scratch.clone());
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), "{}", sandbox.protections());
        let null = || File::open("/dev/null").unwrap();
        let (began, cpu0) = (Instant::now(), cpu());
        for _ in 0..RUNS {
            let outcome = sandbox
                .run(Job {
                    program: "/bin/true".into(),
                    args: Vec::new(),
                    path: "/usr/bin:/bin".into(),
                    read_only: Vec::new(),
                    workdir: Workdir::Scratch,
                    stdin: null(),
                    stdout: File::create("/dev/null").unwrap(),
                    stderr: File::create("/dev/null").unwrap(),
                    limits: Limits {
                        wall: Duration::from_secs(10),
                        memory: 1 << 30,
                        processes: 64,
                        file_size: 64 << 20,
                        open_files: 64,
                    },
                })
                .unwrap();
            assert_eq!(outcome.ending, Ending::Exited(0));
        }
        let (sandboxed, sandboxed_cpu) = (began.elapsed(), cpu() - cpu0);
        let _ = fs::remove_dir_all(scratch);
        let ms = |d: Duration| d.as_secs_f64() * 1000.0 / f64::from(RUNS);
        let _ = writeln!(
            std::io::stdout(),
            "{RUNS} runs of /bin/true: plain {:.2} ms a run ({:.2} ms CPU), sandboxed {:.2} ms a run ({:.2} ms CPU)",
            ms(plain),
            ms(plain_cpu),
            ms(sandboxed),
            ms(sandboxed_cpu)
        );
    }
}
