//! How Flex shares work between cores: fork-joins over task indices.
//!
//! A fork-join from an ordinary thread runs on Flex's own team (`team.rs`): the calling thread
//! and `threads() - 1` workers that spin briefly for the next operation instead of sleeping, so
//! back-to-back operations of a few hundred microseconds keep every core. Inside a rayon worker
//! (a user's `ThreadPool::install`, or a task of an outer Flex loop that uses rayon) the same
//! call goes through rayon, whose work stealing handles nesting; inside a fork-join of the team,
//! or while another thread holds it, it runs in order / through rayon.

mod placement;
mod team;

use rayon::prelude::*;

/// Threads a parallel operation is shared between: rayon's (the global pool's size, or the
/// pool the caller runs in), which `RAYON_NUM_THREADS` sets.
pub fn threads() -> usize {
    rayon::current_num_threads()
}

/// Whether the calling thread runs a task of one of the team's fork-joins (as the caller or a
/// worker): work it starts runs in order on it, so a kernel that would hand it to another
/// pool (`gemm`'s rayon threads) should not.
pub fn in_team() -> bool {
    team::inside()
}

/// Runs `task(i)` for every `i` in `0..count`, shared between the cores; returns when all have
/// run. A panic in a task is resumed on the caller once every task has finished.
pub fn for_each(count: usize, task: impl Fn(usize) + Sync) {
    for_each_dyn(count, &task)
}

/// [`for_each`] behind a trait object: the scheduling (and rayon's generic machinery) is
/// compiled once, not once per calling closure, which keeps Flex's build time and code size
/// down; a task is a whole chunk of work, so the indirect call costs nothing measurable.
fn for_each_dyn(count: usize, task: &(dyn Fn(usize) + Sync)) {
    let threads = threads();
    if count <= 1 || threads <= 1 || team::inside() {
        (0..count).for_each(task);
        return;
    }
    if rayon::current_thread_index().is_none() && team::team().try_run(count, threads, task) {
        return;
    }
    (0..count).into_par_iter().for_each(task);
}

/// Runs `task(i, chunk)` for every `chunk`-long piece of `data` (the last may be shorter), in
/// parallel as [`for_each`].
pub fn for_each_chunk_mut<T: Send>(
    data: &mut [T],
    chunk: usize,
    task: impl Fn(usize, &mut [T]) + Sync,
) {
    assert!(chunk > 0, "parallel::for_each_chunk_mut: chunk must be > 0");
    let len = data.len();
    let base = SharedMut(data.as_mut_ptr());
    for_each(len.div_ceil(chunk), |i| {
        let start = i * chunk;
        let piece_len = chunk.min(len - start);
        // SAFETY: pieces `[i·chunk, i·chunk + piece_len)` are disjoint and inside `data`, which
        // is borrowed mutably for the whole call; each index runs once.
        let piece = unsafe { std::slice::from_raw_parts_mut(base.at(start), piece_len) };
        task(i, piece)
    });
}

/// Runs `task(i, a_piece, b_piece)` for the `i`-th pieces of two slices cut into the same number
/// of pieces (`a` into `chunk_a`-long ones, `b` into `chunk_b`-long ones), in parallel as
/// [`for_each`]: two outputs written side by side, such as values and their indices.
pub fn for_each_chunk_pair_mut<A: Send, B: Send>(
    a: &mut [A],
    chunk_a: usize,
    b: &mut [B],
    chunk_b: usize,
    task: impl Fn(usize, &mut [A], &mut [B]) + Sync,
) {
    assert!(
        chunk_a > 0 && chunk_b > 0,
        "parallel::for_each_chunk_pair_mut: chunks must be > 0, got {chunk_a} and {chunk_b}"
    );
    let (len_a, len_b) = (a.len(), b.len());
    let count = len_a.div_ceil(chunk_a);
    assert_eq!(
        count,
        len_b.div_ceil(chunk_b),
        "parallel::for_each_chunk_pair_mut: {len_a} values in pieces of {chunk_a} and {len_b} in \
         pieces of {chunk_b} make different numbers of pieces"
    );
    let (base_a, base_b) = (SharedMut(a.as_mut_ptr()), SharedMut(b.as_mut_ptr()));
    for_each(count, |i| {
        let (start_a, start_b) = (i * chunk_a, i * chunk_b);
        // SAFETY: as in `for_each_chunk_mut`, for each slice: disjoint pieces inside it, each
        // index run once, both slices borrowed mutably for the whole call.
        let (piece_a, piece_b) = unsafe {
            (
                std::slice::from_raw_parts_mut(base_a.at(start_a), chunk_a.min(len_a - start_a)),
                std::slice::from_raw_parts_mut(base_b.at(start_b), chunk_b.min(len_b - start_b)),
            )
        };
        task(i, piece_a, piece_b)
    });
}

/// `f(i, chunk)` for every `chunk`-long piece of `data`, in parallel as [`for_each`]; the
/// results in order.
pub fn map_chunks<T: Sync, R: Send>(
    data: &[T],
    chunk: usize,
    f: impl Fn(usize, &[T]) -> R + Sync,
) -> Vec<R> {
    assert!(chunk > 0, "parallel::map_chunks: chunk must be > 0");
    let mut results: Vec<Option<R>> = (0..data.len().div_ceil(chunk)).map(|_| None).collect();
    for_each_chunk_mut(&mut results, 1, |i, slot| {
        let start = i * chunk;
        slot[0] = Some(f(i, &data[start..(start + chunk).min(data.len())]));
    });
    results
        .into_iter()
        .map(|r| r.expect("every task ran"))
        .collect()
}

/// A mutable base pointer shared by tasks that write disjoint parts of one slice.
struct SharedMut<T>(*mut T);

impl<T> Clone for SharedMut<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SharedMut<T> {}

// SAFETY: only used for disjoint writes (see `for_each_chunk_mut`).
unsafe impl<T: Send> Send for SharedMut<T> {}
unsafe impl<T: Send> Sync for SharedMut<T> {}

impl<T> SharedMut<T> {
    fn at(self, offset: usize) -> *mut T {
        self.0.wrapping_add(offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_index_runs_once() {
        for count in [0, 1, 2, 3, 17, 1000] {
            let hits: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
            for_each(count, |i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(
                hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
                "count {count}"
            );
        }
    }

    #[test]
    fn chunks_cover_the_slice_in_order() {
        let mut data = vec![0usize; 1001];
        for_each_chunk_mut(&mut data, 64, |i, piece| {
            for (j, v) in piece.iter_mut().enumerate() {
                *v = i * 64 + j;
            }
        });
        assert!(data.iter().enumerate().all(|(i, &v)| v == i));
        let sums = map_chunks(&data, 100, |_, c| c.iter().sum::<usize>());
        assert_eq!(sums.len(), 11);
        assert_eq!(sums.iter().sum::<usize>(), 1000 * 1001 / 2);
        assert_eq!(sums[10], 1000);
    }

    #[test]
    fn paired_chunks_line_up() {
        let (mut values, mut index) = (vec![0usize; 10], vec![0usize; 5]);
        for_each_chunk_pair_mut(&mut values, 4, &mut index, 2, |i, v, x| {
            v.iter_mut().for_each(|v| *v = i);
            x.iter_mut().for_each(|x| *x = 10 + i);
        });
        assert_eq!(values, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
        assert_eq!(index, [10, 10, 11, 11, 12]);
        let uneven = std::panic::catch_unwind(|| {
            for_each_chunk_pair_mut(&mut [0; 10], 5, &mut [0; 10], 2, |_, _, _| {})
        });
        assert!(uneven.is_err());
    }

    #[test]
    fn nested_and_concurrent_callers_finish() {
        let total = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| {
                    for _ in 0..200 {
                        for_each(4, |_| {
                            for_each(3, |_| {
                                total.fetch_add(1, Ordering::Relaxed);
                            })
                        });
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::Relaxed), 3 * 200 * 4 * 3);
        let inside_rayon = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| map_chunks(&[1, 2, 3, 4, 5], 2, |_, c| c.len()));
        assert_eq!(inside_rayon, vec![2, 2, 1]);
    }

    /// Runs `task` on the team itself, with at least one worker (waiting while a concurrent
    /// test holds it, which would send `for_each` through rayon).
    fn on_team(count: usize, task: impl Fn(usize) + Sync) {
        while !team::team().try_run(count, threads().max(2), &task) {
            std::thread::yield_now();
        }
    }

    #[test]
    fn the_team_runs_every_task_once_nested_ones_in_order_and_recovers_from_a_panic() {
        for round in 0..200 {
            let count = 1 + round % 37;
            let hits: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
            on_team(count, |i| {
                assert!(in_team());
                let nested = AtomicUsize::new(0);
                for_each(5, |_| {
                    nested.fetch_add(1, Ordering::Relaxed);
                });
                hits[i].fetch_add(nested.load(Ordering::Relaxed), Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 5));
            if round % 50 == 0 {
                // Let the workers park: the next job must wake them.
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        assert!(!in_team());
        let caught = std::panic::catch_unwind(|| on_team(16, |i| assert_ne!(i, 9, "task 9")));
        assert!(caught.is_err());
        let ran = AtomicUsize::new(0);
        on_team(16, |_| {
            ran.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(ran.load(Ordering::Relaxed), 16);
    }

    #[test]
    fn a_task_panic_reaches_the_caller_and_the_team_recovers() {
        let caught = std::panic::catch_unwind(|| {
            for_each(64, |i| {
                if i == 40 {
                    panic!("task 40 failed");
                }
            })
        });
        let message = caught.unwrap_err();
        assert_eq!(message.downcast_ref::<&str>(), Some(&"task 40 failed"));
        let ran = AtomicUsize::new(0);
        for_each(64, |_| {
            ran.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(ran.load(Ordering::Relaxed), 64);
    }
}
