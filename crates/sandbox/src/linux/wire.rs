//! What the run's processes tell the grader, on the status pipe: how the
//! program ended and the most memory it held, its pid (without a PID
//! namespace), or which step failed and with which `errno`.
//!
//! Every message is four native-endian `i32`s, written by one `write` (a
//! pipe writes up to `PIPE_BUF` bytes at once, so messages never mix). The
//! steps are one enum, [`Step`], that the children write by its code and the
//! grader reads back and names: the number on the wire and the words of the
//! message cannot drift apart.

use super::plan::{rlimit_name, Plan};
use std::ffi::c_int;
use std::io;

/// A step of the run's processes that can fail, in the order they take
/// them. The keeper (the run's init, or its watcher without a PID
/// namespace) joins, sets up and starts the program; the program's own
/// process then prepares itself and executes the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The keeper joins the grading's network namespace.
    JoinNetwork,
    /// The keeper moves the job's descriptors to 0, 1 and 2.
    ArrangeDescriptors,
    /// The keeper's set-up operation of this index in [`Plan::ops`].
    SetUp(u32),
    /// The keeper clones the program's process.
    StartProgram,
    /// The program changes to its work folder.
    ChangeFolder,
    /// The program sets this rlimit.
    SetLimit(u32),
    /// The program drops its capabilities (uid 0 without privilege).
    DropCapabilities,
    /// The program drops its supplementary groups.
    DropGroups,
    /// The program changes to the run's gid.
    ChangeGroup,
    /// The program changes to the run's uid.
    ChangeUser,
    /// The program forbids itself new privileges.
    NoNewPrivileges,
    /// The program installs the system-call filter.
    InstallFilter,
    /// The program restricts itself to its Landlock ruleset.
    RestrictFiles,
    /// The program executes the job's executable.
    Execute,
}

impl Step {
    /// The step as two numbers for the wire: a code and an argument.
    pub fn encode(self) -> [i32; 2] {
        let (code, arg) = match self {
            Step::JoinNetwork => (1, 0),
            Step::ArrangeDescriptors => (2, 0),
            Step::SetUp(i) => (3, i),
            Step::StartProgram => (4, 0),
            Step::ChangeFolder => (5, 0),
            Step::SetLimit(r) => (6, r),
            Step::DropCapabilities => (7, 0),
            Step::DropGroups => (8, 0),
            Step::ChangeGroup => (9, 0),
            Step::ChangeUser => (10, 0),
            Step::NoNewPrivileges => (11, 0),
            Step::Execute => (12, 0),
            Step::InstallFilter => (13, 0),
            Step::RestrictFiles => (14, 0),
        };
        [code, arg as i32]
    }

    /// The step the two numbers of the wire name, if any.
    pub fn decode([code, arg]: [i32; 2]) -> Option<Step> {
        let arg = u32::try_from(arg).ok()?;
        Some(match code {
            1 => Step::JoinNetwork,
            2 => Step::ArrangeDescriptors,
            3 => Step::SetUp(arg),
            4 => Step::StartProgram,
            5 => Step::ChangeFolder,
            6 => Step::SetLimit(arg),
            7 => Step::DropCapabilities,
            8 => Step::DropGroups,
            9 => Step::ChangeGroup,
            10 => Step::ChangeUser,
            11 => Step::NoNewPrivileges,
            12 => Step::Execute,
            13 => Step::InstallFilter,
            14 => Step::RestrictFiles,
            _ => return None,
        })
    }

    /// What the step does, in words, with what the plan gave it.
    pub fn describe(self, plan: &Plan) -> String {
        let s = |c: &std::ffi::CStr| c.to_string_lossy().into_owned();
        match self {
            Step::JoinNetwork => "joining the grading's network namespace".into(),
            Step::ArrangeDescriptors => "giving the run its standard streams".into(),
            Step::SetUp(i) => match plan.ops.get(i as usize) {
                Some(op) => op.describe(),
                None => format!("set-up operation {i}"),
            },
            Step::StartProgram => "starting the program's process (clone)".into(),
            Step::ChangeFolder => format!("changing to the work folder {}", s(&plan.workdir)),
            Step::SetLimit(r) => {
                let resource = r as c_int;
                match plan.rlimits.iter().find(|l| l.0 == resource) {
                    Some(&(_, soft, hard)) => format!(
                        "setting the resource limit {} to {soft} (hard {hard})",
                        rlimit_name(resource)
                    ),
                    None => format!("setting the resource limit {}", rlimit_name(resource)),
                }
            }
            Step::DropCapabilities => "dropping capabilities".into(),
            Step::DropGroups => "dropping supplementary groups".into(),
            Step::ChangeGroup => match plan.ids {
                Some((_, gid)) => format!("changing to group {gid}"),
                None => "changing group".into(),
            },
            Step::ChangeUser => match plan.ids {
                Some((uid, _)) => format!("changing to user {uid}"),
                None => "changing user".into(),
            },
            Step::NoNewPrivileges => "setting no-new-privileges".into(),
            Step::InstallFilter => "installing the system-call filter".into(),
            Step::RestrictFiles => "restricting the files it may touch (Landlock)".into(),
            Step::Execute => format!("executing {}", s(&plan.program)),
        }
    }

    /// The error a failed step makes: `sandbox: STEP: ERROR`, of the kind
    /// the errno has.
    pub fn error(self, plan: &Plan, errno: i32) -> io::Error {
        let e = io::Error::from_raw_os_error(errno);
        io::Error::new(e.kind(), format!("sandbox: {}: {e}", self.describe(plan)))
    }
}

/// One message of the status pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// The program's wait status (the keeper's last word).
    Status(i32),
    /// The program's pid, as the grader sees it (without a PID namespace,
    /// for the grader to kill its process group at the time limit).
    ProgramPid(i32),
    /// A step failed with this `errno`; the process that wrote it exits.
    Failed { step: Step, errno: i32 },
    /// The high-water marks of resident memory, in KiB, once the program
    /// has ended (written just before its status): the largest of the
    /// keeper's children (the program, with what it waited for and what
    /// the keeper reaped), and the keeper's own. A child's mark counts
    /// its pages before `execve` too, a copy of the keeper's: only a mark
    /// above the keeper's is the program's own. With it, the CPU time of
    /// the keeper's children (the program, and what it and the keeper
    /// waited for), in milliseconds.
    Peak {
        children_kib: i32,
        keeper_kib: i32,
        children_cpu_ms: i32,
    },
}

/// The length of a message on the pipe.
pub const LEN: usize = 16;

impl Message {
    /// The message as bytes, ready for one `write` (no allocation: the
    /// children write it between `clone` and `execve`).
    pub fn encode(self) -> [u8; LEN] {
        let words = match self {
            Message::Status(st) => [1, st, 0, 0],
            Message::ProgramPid(pid) => [2, pid, 0, 0],
            Message::Peak {
                children_kib,
                keeper_kib,
                children_cpu_ms,
            } => [4, children_kib, keeper_kib, children_cpu_ms],
            Message::Failed { step, errno } => {
                let [code, arg] = step.encode();
                [3, code, arg, errno]
            }
        };
        let mut bytes = [0u8; LEN];
        for (chunk, w) in bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&w.to_ne_bytes());
        }
        bytes
    }

    /// The message of 16 bytes, if they are one.
    pub fn decode(bytes: &[u8; LEN]) -> Option<Message> {
        let w = |i: usize| i32::from_ne_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Some(match w(0) {
            1 => Message::Status(w(4)),
            2 => Message::ProgramPid(w(4)),
            3 => Message::Failed {
                step: Step::decode([w(4), w(8)])?,
                errno: w(12),
            },
            4 => Message::Peak {
                children_kib: w(4),
                keeper_kib: w(8),
                children_cpu_ms: w(12),
            },
            _ => return None,
        })
    }

    /// Every message in `bytes` (what the pipe held), in order; a torn or
    /// unknown one is left out.
    pub fn decode_all(bytes: &[u8]) -> Vec<Message> {
        bytes
            .chunks_exact(LEN)
            .filter_map(|c| c.try_into().ok().and_then(Message::decode))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linux::paths::cstr;
    use crate::linux::plan::Op;
    use crate::sys;

    const STEPS: [Step; 14] = [
        Step::JoinNetwork,
        Step::ArrangeDescriptors,
        Step::SetUp(17),
        Step::StartProgram,
        Step::ChangeFolder,
        Step::SetLimit(sys::RLIMIT_NPROC as u32),
        Step::DropCapabilities,
        Step::DropGroups,
        Step::ChangeGroup,
        Step::ChangeUser,
        Step::NoNewPrivileges,
        Step::InstallFilter,
        Step::RestrictFiles,
        Step::Execute,
    ];

    fn plan() -> Plan {
        Plan {
            clone_flags: 0,
            ops: vec![Op::Mkdir(cstr("/r/tmp").unwrap())],
            workdir: cstr("/w").unwrap(),
            program: cstr("/p/puzzle").unwrap(),
            argv: Vec::new(),
            envp: Vec::new(),
            rlimits: vec![(sys::RLIMIT_NPROC, 65, 65)],
            ids: Some((1_500_000_003, 1_500_000_003)),
            drop_caps: false,
            fds: [0, 1, 2],
            own_group: false,
            shared_net: None,
            filter: Vec::new(),
            landlock: None,
        }
    }

    #[test]
    fn every_step_survives_the_wire() {
        for step in STEPS {
            assert_eq!(Step::decode(step.encode()), Some(step));
            let message = Message::Failed { step, errno: 11 };
            assert_eq!(Message::decode(&message.encode()), Some(message));
        }
        for message in [
            Message::Status(9),
            Message::ProgramPid(4242),
            Message::Peak {
                children_kib: 66_660,
                keeper_kib: 1_516,
                children_cpu_ms: 2_750,
            },
        ] {
            assert_eq!(Message::decode(&message.encode()), Some(message));
        }
    }

    #[test]
    fn unknown_codes_and_torn_messages_are_left_out() {
        assert_eq!(Step::decode([99, 0]), None);
        assert_eq!(Step::decode([3, -1]), None);
        let mut bytes = Message::Status(0).encode().to_vec();
        bytes.extend_from_slice(&[9u8; LEN]);
        bytes.extend_from_slice(&Message::ProgramPid(7).encode()[..5]);
        assert_eq!(Message::decode_all(&bytes), [Message::Status(0)]);
    }

    #[test]
    fn every_step_has_its_own_words() {
        let plan = plan();
        let words: Vec<String> = STEPS.iter().map(|s| s.describe(&plan)).collect();
        for (i, w) in words.iter().enumerate() {
            assert!(!words[..i].contains(w), "{w} twice");
        }
    }

    /// A failed clone of the program is not "executing the program".
    #[test]
    fn failed_steps_say_what_failed_and_why() {
        let plan = plan();
        let text = |step: Step, errno| step.error(&plan, errno).to_string();
        assert_eq!(
            text(Step::StartProgram, 11),
            "sandbox: starting the program's process (clone): Resource temporarily unavailable (os error 11)"
        );
        assert_eq!(
            text(Step::Execute, 2),
            "sandbox: executing /p/puzzle: No such file or directory (os error 2)"
        );
        assert_eq!(
            text(Step::SetUp(0), 1),
            "sandbox: making folder /r/tmp: Operation not permitted (os error 1)"
        );
        assert_eq!(
            text(Step::SetLimit(sys::RLIMIT_NPROC as u32), 1),
            "sandbox: setting the resource limit RLIMIT_NPROC to 65 (hard 65): Operation not permitted (os error 1)"
        );
        assert_eq!(
            text(Step::ChangeUser, 22),
            "sandbox: changing to user 1500000003: Invalid argument (os error 22)"
        );
        assert_eq!(
            Step::Execute.error(&plan, 2).kind(),
            io::ErrorKind::NotFound
        );
    }
}
