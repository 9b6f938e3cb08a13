//! A memory and a pids control group for each run, so that the memory and
//! process limits are told apart from crashes: the kernel counts the out-of-
//! memory kills and the refused forks of the group; and, where the cpu
//! controller can be had, a cpu group that gives the run one core (a CFS
//! quota of one period a period), so that `--jobs N` means N cores and a
//! run's time does not depend on the threads it starts.
//!
//! cgroup v2 is used when its hierarchy has both the memory and the pids
//! controllers for us, else the v1 hierarchies (`memory`, `pids`, and `cpu`
//! where there is one) mounted on their own. Groups are made under the
//! cgroup this process is in, named `puzzle-grade.PID.N`, and removed when
//! the run ends.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Where per-run groups can be made: found once, by [`Hierarchy::find`].
#[derive(Debug)]
pub struct Hierarchy {
    kind: Kind,
    /// Whether the runs' groups get one core each (the cpu controller), or
    /// why not.
    cpu: Result<(), String>,
}

#[derive(Debug)]
enum Kind {
    /// One folder holds the controllers.
    V2(PathBuf),
    /// The parent folders of the memory, the pids and the cpu groups.
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpu: Option<PathBuf>,
    },
}

/// The CFS period and the quota of one core in it, in microseconds.
const PERIOD_US: u64 = 100_000;

/// The groups of one run.
#[derive(Debug)]
pub struct Groups {
    kind: GroupsKind,
    /// The `cgroup.procs` files a process writes `0` to, to join.
    pub procs: Vec<CString>,
}

#[derive(Debug)]
enum GroupsKind {
    V2(PathBuf),
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpu: Option<PathBuf>,
    },
}

/// What the kernel counted for a run's groups.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Processes killed by the out-of-memory killer for the memory limit.
    pub oom_kills: u64,
    /// Times a charge hit the memory limit (v1 `memory.failcnt`, v2 `max`).
    pub memory_hits: u64,
    /// Forks refused by the pids limit.
    pub fork_refusals: u64,
    /// The most memory the group held, in bytes (v2 `memory.peak`, v1
    /// `memory.max_usage_in_bytes`), where the kernel shows it.
    pub memory_peak: Option<u64>,
}

impl Hierarchy {
    /// The hierarchy this process can make groups in, tried by making and
    /// removing one; `Err` says why there is none.
    pub fn find(probe_name: &str) -> Result<Hierarchy, String> {
        let cgroup = fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("/proc/self/cgroup: {e}"))?;
        let mountinfo = fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("/proc/self/mountinfo: {e}"))?;
        let mut why = Vec::new();
        let candidates = [
            v2_hierarchy(&cgroup, &mountinfo),
            v1_hierarchy(&cgroup, &mountinfo),
        ];
        for candidate in candidates {
            match candidate {
                Ok(mut h) => match h.create(probe_name, 1 << 30, 8) {
                    Ok(groups) => {
                        groups.remove();
                        h.remove_stale();
                        return Ok(h);
                    }
                    // Without the cpu group, if that is what failed.
                    Err(e) if h.cpu.is_ok() => {
                        h.cpu = Err(format!("making a cpu group: {e}"));
                        h.without_cpu();
                        match h.create(probe_name, 1 << 30, 8) {
                            Ok(groups) => {
                                groups.remove();
                                h.remove_stale();
                                return Ok(h);
                            }
                            Err(e) => why.push(format!("{}: {e}", h.describe())),
                        }
                    }
                    Err(e) => why.push(format!("{}: {e}", h.describe())),
                },
                Err(e) => why.push(e),
            }
        }
        Err(why.join("; "))
    }

    /// Stops making cpu groups.
    fn without_cpu(&mut self) {
        if let Kind::V1 { cpu, .. } = &mut self.kind {
            *cpu = None;
        }
    }

    /// Whether the runs get one core each, or why not.
    pub fn cpu(&self) -> Result<(), &str> {
        self.cpu.as_ref().map(|_| ()).map_err(|s| s.as_str())
    }

    /// Removes the groups that graders which were killed left behind
    /// (`puzzle-grade.PID.N` of a process that is gone, and empty).
    fn remove_stale(&self) {
        let parents = match &self.kind {
            Kind::V2(dir) => vec![dir],
            Kind::V1 { memory, pids, cpu } => [Some(memory), Some(pids), cpu.as_ref()]
                .into_iter()
                .flatten()
                .collect(),
        };
        for parent in parents {
            let Ok(entries) = fs::read_dir(parent) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let pid = name
                    .to_str()
                    .and_then(|n| n.strip_prefix("puzzle-grade."))
                    .and_then(|rest| rest.split('.').next())
                    .and_then(|pid| pid.parse::<u32>().ok());
                if let Some(pid) = pid {
                    if !Path::new(&format!("/proc/{pid}")).exists() {
                        // A group with processes in it is not removed.
                        let _ = fs::remove_dir(entry.path());
                    }
                }
            }
        }
    }

    /// `cgroup v2` or `cgroup v1`.
    pub fn describe(&self) -> &'static str {
        match self.kind {
            Kind::V2(_) => "cgroup v2",
            Kind::V1 { .. } => "cgroup v1",
        }
    }

    /// Makes the groups of one run, with their limits: `memory` bytes,
    /// `processes` tasks, and one core where the cpu controller is ours.
    pub fn create(&self, name: &str, memory: u64, processes: u64) -> io::Result<Groups> {
        let one_core = format!("{PERIOD_US} {PERIOD_US}");
        match &self.kind {
            Kind::V2(parent) => {
                let dir = parent.join(name);
                fs::create_dir(&dir)?;
                let groups = Groups {
                    procs: vec![procs_file(&dir)],
                    kind: GroupsKind::V2(dir.clone()),
                };
                fs::write(dir.join("memory.max"), memory.to_string())?;
                let _ = fs::write(dir.join("memory.swap.max"), "0");
                fs::write(dir.join("pids.max"), processes.to_string())?;
                if self.cpu.is_ok() {
                    fs::write(dir.join("cpu.max"), one_core)?;
                }
                Ok(groups)
            }
            Kind::V1 {
                memory: mparent,
                pids: pparent,
                cpu: cparent,
            } => {
                let mdir = mparent.join(name);
                let pdir = pparent.join(name);
                let cdir = cparent.as_ref().map(|c| c.join(name));
                fs::create_dir(&mdir)?;
                if let Err(e) = fs::create_dir(&pdir) {
                    let _ = fs::remove_dir(&mdir);
                    return Err(e);
                }
                if let Some(cdir) = &cdir {
                    if let Err(e) = fs::create_dir(cdir) {
                        let _ = fs::remove_dir(&mdir);
                        let _ = fs::remove_dir(&pdir);
                        return Err(e);
                    }
                }
                let mut procs = vec![procs_file(&mdir), procs_file(&pdir)];
                procs.extend(cdir.as_deref().map(procs_file));
                let groups = Groups {
                    procs,
                    kind: GroupsKind::V1 {
                        memory: mdir.clone(),
                        pids: pdir.clone(),
                        cpu: cdir.clone(),
                    },
                };
                fs::write(mdir.join("memory.limit_in_bytes"), memory.to_string())?;
                // Without swap accounting the file is absent: nothing to cap.
                let _ = fs::write(mdir.join("memory.memsw.limit_in_bytes"), memory.to_string());
                fs::write(pdir.join("pids.max"), processes.to_string())?;
                if let Some(cdir) = &cdir {
                    fs::write(cdir.join("cpu.cfs_period_us"), PERIOD_US.to_string())?;
                    fs::write(cdir.join("cpu.cfs_quota_us"), PERIOD_US.to_string())?;
                }
                Ok(groups)
            }
        }
    }
}

impl Groups {
    /// The counters of the run's groups (zero where a file cannot be read).
    pub fn counters(&self) -> Counters {
        match &self.kind {
            GroupsKind::V2(dir) => {
                let memory = read(&dir.join("memory.events"));
                Counters {
                    oom_kills: keyed(&memory, "oom_kill"),
                    memory_hits: keyed(&memory, "max"),
                    fork_refusals: keyed(&read(&dir.join("pids.events")), "max"),
                    memory_peak: read(&dir.join("memory.peak")).trim().parse().ok(),
                }
            }
            GroupsKind::V1 { memory, pids, .. } => Counters {
                oom_kills: keyed(&read(&memory.join("memory.oom_control")), "oom_kill"),
                memory_hits: read(&memory.join("memory.failcnt"))
                    .trim()
                    .parse()
                    .unwrap_or(0),
                fork_refusals: keyed(&read(&pids.join("pids.events")), "max"),
                memory_peak: read(&memory.join("memory.max_usage_in_bytes"))
                    .trim()
                    .parse()
                    .ok(),
            },
        }
    }

    /// The processes still in the run's groups.
    pub fn members(&self) -> Vec<i32> {
        let dir = match &self.kind {
            GroupsKind::V2(dir) => dir,
            GroupsKind::V1 { pids, .. } => pids,
        };
        read(&dir.join("cgroup.procs"))
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Removes the groups (empty by now: the run's processes are gone). A
    /// group whose last process is still being torn down is retried briefly.
    pub fn remove(self) {
        let dirs = match self.kind {
            GroupsKind::V2(dir) => vec![dir],
            GroupsKind::V1 { memory, pids, cpu } => [Some(memory), Some(pids), cpu]
                .into_iter()
                .flatten()
                .collect(),
        };
        for dir in dirs {
            for _ in 0..200 {
                match fs::remove_dir(&dir) {
                    Err(e) if e.raw_os_error() == Some(16) => {
                        std::thread::sleep(std::time::Duration::from_millis(1))
                    }
                    _ => break,
                }
            }
        }
    }
}

fn procs_file(dir: &Path) -> CString {
    // A path from /proc/self/mountinfo and our own name: no NUL in it.
    CString::new(dir.join("cgroup.procs").as_os_str().as_bytes()).unwrap_or_default()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}

/// The number after `key` in a flat keyed file (`oom_kill 3`), or 0.
fn keyed(text: &str, key: &str) -> u64 {
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0)
}

/// This process's cgroup path in the hierarchy whose `/proc/self/cgroup`
/// line matches `controllers` (`""` for v2, or a controller name).
fn own_path<'a>(cgroup: &'a str, v2: bool, controller: &str) -> Option<&'a str> {
    cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (id, list, path) = (parts.next()?, parts.next()?, parts.next()?);
        let matches = if v2 {
            id == "0" && list.is_empty()
        } else {
            list.split(',').any(|c| c == controller)
        };
        matches.then_some(path)
    })
}

/// Where a cgroup file system is mounted: the mount point of the first
/// `mountinfo` line of type `fstype` (with `option` among its super options,
/// when given) whose root is `/`.
fn mount_point(mountinfo: &str, fstype: &str, option: Option<&str>) -> Option<PathBuf> {
    mountinfo.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let fields: Vec<&str> = left.split(' ').collect();
        let rfields: Vec<&str> = right.split(' ').collect();
        let (root, point) = (fields.get(3)?, fields.get(4)?);
        let (ty, opts) = (rfields.first()?, rfields.get(2).copied().unwrap_or(""));
        let ok =
            *ty == fstype && *root == "/" && option.is_none_or(|o| opts.split(',').any(|x| x == o));
        ok.then(|| PathBuf::from(unescape(point)))
    })
}

/// Undoes mountinfo's octal escapes (`\040` for a space).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = b
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        if let (b'\\', Some(d)) = (b[i], octal) {
            let v = d.iter().fold(0u32, |v, c| v * 8 + u32::from(c - b'0'));
            out.push(v as u8);
            i += 4;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn v2_hierarchy(cgroup: &str, mountinfo: &str) -> Result<Hierarchy, String> {
    let root = mount_point(mountinfo, "cgroup2", None).ok_or("cgroup v2: not mounted")?;
    let own = own_path(cgroup, true, "").ok_or("cgroup v2: not in /proc/self/cgroup")?;
    let dir = root.join(own.trim_start_matches('/'));
    let controllers = read(&dir.join("cgroup.controllers"));
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    if !has("memory") || !has("pids") {
        return Err(format!(
            "cgroup v2: no memory and pids controllers in {}",
            dir.display()
        ));
    }
    let subtree = read(&dir.join("cgroup.subtree_control"));
    let on = |c: &str| subtree.split_whitespace().any(|x| x == c);
    if !on("memory") || !on("pids") {
        fs::write(dir.join("cgroup.subtree_control"), "+memory +pids")
            .map_err(|e| format!("cgroup v2: enabling memory and pids: {e}"))?;
    }
    let cpu = if !has("cpu") {
        Err(format!("cgroup v2: no cpu controller in {}", dir.display()))
    } else if on("cpu") {
        Ok(())
    } else {
        fs::write(dir.join("cgroup.subtree_control"), "+cpu")
            .map_err(|e| format!("cgroup v2: enabling cpu: {e}"))
    };
    Ok(Hierarchy {
        kind: Kind::V2(dir),
        cpu,
    })
}

fn v1_hierarchy(cgroup: &str, mountinfo: &str) -> Result<Hierarchy, String> {
    let find = |c: &str| -> Result<PathBuf, String> {
        let root = mount_point(mountinfo, "cgroup", Some(c))
            .ok_or_else(|| format!("cgroup v1: no {c} hierarchy"))?;
        let own = own_path(cgroup, false, c).unwrap_or("/");
        Ok(root.join(own.trim_start_matches('/')))
    };
    let cpu = find("cpu");
    Ok(Hierarchy {
        cpu: cpu.as_ref().map(|_| ()).map_err(Clone::clone),
        kind: Kind::V1 {
            memory: find("memory")?,
            pids: find("pids")?,
            cpu: cpu.ok(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CGROUP: &str = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/ab\n0::/\n";
    const MOUNTINFO: &str = "\
30 25 0:26 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n\
31 25 0:27 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n\
32 25 0:28 / /sys/fs/cgroup/pids rw,nosuid - cgroup cgroup rw,pids\n\
33 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct\n";

    #[test]
    fn finds_own_v1_groups() {
        assert_eq!(own_path(CGROUP, false, "memory"), Some("/process_api/ab"));
        assert_eq!(own_path(CGROUP, false, "pids"), Some("/"));
        assert_eq!(own_path(CGROUP, true, ""), Some("/"));
        assert_eq!(
            mount_point(MOUNTINFO, "cgroup", Some("pids")),
            Some(PathBuf::from("/sys/fs/cgroup/pids"))
        );
        assert_eq!(
            mount_point(MOUNTINFO, "cgroup2", None),
            Some(PathBuf::from("/sys/fs/cgroup/unified"))
        );
        assert_eq!(
            mount_point(MOUNTINFO, "cgroup", Some("cpu")),
            Some(PathBuf::from("/sys/fs/cgroup/cpu,cpuacct"))
        );
        assert_eq!(mount_point(MOUNTINFO, "cgroup", Some("cpuset")), None);
    }

    #[test]
    fn reads_keyed_counters() {
        let oom = "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n";
        assert_eq!(keyed(oom, "oom_kill"), 2);
        assert_eq!(keyed("max 5\n", "max"), 5);
        assert_eq!(keyed("", "max"), 0);
    }

    #[test]
    fn unescapes_mount_points() {
        assert_eq!(unescape("/a\\040b"), "/a b");
        assert_eq!(unescape("/plain"), "/plain");
    }
}
