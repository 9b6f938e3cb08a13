//! Work shared among threads, results in order: the same output whatever
//! the number of threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Each thread's stack: the parser and the passes over its trees recurse
/// (to a bounded depth), more than the default's 2 MiB would hold.
const STACK: usize = 64 << 20;

/// `f(i, scratch)` for each `i` of `0..n`, on `jobs` threads (each with a
/// `scratch` of its own), the results in the order of `i`.
pub fn each<R: Send, S: Default>(
    n: usize,
    jobs: usize,
    f: &(dyn Fn(usize, &mut S) -> R + Sync),
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..n).map(|_| None).collect());
    let work = || {
        let mut scratch = S::default();
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            mine.push((i, f(i, &mut scratch)));
        }
        let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
        for (i, r) in mine {
            all[i] = Some(r);
        }
    };
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..jobs.clamp(1, n.max(1)))
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(scope, work)
            })
            .collect();
        for t in threads {
            match t {
                Ok(handle) => {
                    if let Err(panic) = handle.join() {
                        std::panic::resume_unwind(panic);
                    }
                }
                // No thread: this one does the work.
                Err(_) => work(),
            }
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was done"))
        .collect()
}
