//! The team: the calling thread and Flex's worker threads sharing one fork-join at a time.
//!
//! Workers wait for work by spinning on a counter (with the CPU's pause hint, never yielding)
//! for [`SPIN`] after their last task, then park. The caller takes tasks too and waits for the
//! last ones by spinning. Rayon's idle workers instead yield to the OS about 32 times and then
//! sleep: on the 2-vCPU VMs this project is measured on, a thread that yields while another
//! yields on the other vCPU ends up sharing one vCPU with it, and a product of 150 µs per thread
//! then ran on one core (300 µs) for whole benchmark rounds. Spinning without yielding kept both.
//! A worker woken on its caller's CPU moves to another one ([`placement`]).

use super::placement;
use std::any::Any;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long a worker spins for new work after its last task before it parks. Long enough to
/// cover the gap between the operations of a step (microseconds), short enough that an idle
/// program gives its cores back at once.
const SPIN: Duration = Duration::from_millis(2);

/// Pause hints between two clock reads while spinning.
const SPINS_PER_CHECK: u32 = 256;

/// How long the caller spins for the workers' last tasks before it also yields to the OS (only
/// reached when a worker was descheduled, on an oversubscribed machine).
const CALLER_SPIN: Duration = Duration::from_millis(1);

/// One fork-join: `count` tasks, claimed by index.
struct Job<'a> {
    task: &'a (dyn Fn(usize) + Sync),
    count: usize,
    /// The next unclaimed task.
    next: AtomicUsize,
    /// Tasks finished (or panicked).
    done: AtomicUsize,
    /// The first panic of a task, resumed on the caller.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

impl Job<'_> {
    /// Claims and runs tasks until none is left.
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, SeqCst);
            if i >= self.count {
                return;
            }
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| (self.task)(i))) {
                let mut first = self.panic.lock().unwrap_or_else(PoisonError::into_inner);
                first.get_or_insert(payload);
            }
            self.done.fetch_add(1, SeqCst);
        }
    }
}

/// A worker as the caller sees it.
struct Worker {
    thread: Thread,
    /// Set while the worker is parked (or about to be).
    parked: Arc<AtomicBool>,
}

/// State shared between the caller and the workers.
struct Shared {
    /// Bumped for every fork-join; workers watch it.
    generation: AtomicUsize,
    /// The current job (type-erased, on the caller's stack), or null.
    job: AtomicPtr<()>,
    /// Workers between reading `job` and leaving it; the caller waits for none before its job
    /// goes out of scope.
    inside: AtomicUsize,
    /// The CPU the caller of the current fork-join runs on (`usize::MAX`: unknown); a worker
    /// woken on it moves elsewhere ([`placement`]).
    caller_cpu: AtomicUsize,
}

/// Flex's workers, started on first use; one caller at a time.
pub(super) struct Team {
    shared: Arc<Shared>,
    workers: Mutex<Vec<Worker>>,
    /// Held by the thread whose fork-join runs on the team.
    busy: AtomicBool,
}

thread_local! {
    /// Whether this thread is a worker, or a caller inside a fork-join: nested fork-joins run
    /// their tasks in order on the thread.
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// The process's team.
pub(super) fn team() -> &'static Team {
    static TEAM: OnceLock<Team> = OnceLock::new();
    TEAM.get_or_init(|| Team {
        shared: Arc::new(Shared {
            generation: AtomicUsize::new(0),
            job: AtomicPtr::new(ptr::null_mut()),
            inside: AtomicUsize::new(0),
            caller_cpu: AtomicUsize::new(usize::MAX),
        }),
        workers: Mutex::new(Vec::new()),
        busy: AtomicBool::new(false),
    })
}

/// Whether the calling thread is already inside a team's fork-join (as caller or worker).
pub(super) fn inside() -> bool {
    INSIDE.with(Cell::get)
}

impl Team {
    /// Runs `task(i)` for every `i < count` on the caller and `threads - 1` workers, or returns
    /// `false` without running anything when another thread holds the team.
    pub(super) fn try_run(
        &self,
        count: usize,
        threads: usize,
        task: &(dyn Fn(usize) + Sync),
    ) -> bool {
        if self
            .busy
            .compare_exchange(false, true, SeqCst, SeqCst)
            .is_err()
        {
            return false;
        }
        let result = {
            let _release = Release(&self.busy);
            self.grow(threads.saturating_sub(1));
            self.fork_join(count, task)
        };
        if let Err(payload) = result {
            resume_unwind(payload);
        }
        true
    }

    /// The workers (a panic elsewhere while they were locked leaves them usable).
    fn workers(&self) -> MutexGuard<'_, Vec<Worker>> {
        self.workers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts workers until there are `wanted`, or until the OS refuses one (the team then
    /// runs with those it has).
    fn grow(&self, wanted: usize) {
        let mut workers = self.workers();
        while workers.len() < wanted {
            let parked = Arc::new(AtomicBool::new(false));
            let shared = self.shared.clone();
            let flag = parked.clone();
            // Read here, not in the thread: a job published before the thread starts is then
            // still new to it.
            let seen = shared.generation.load(SeqCst);
            let spawned = std::thread::Builder::new()
                .name(format!("flex-worker-{}", workers.len() + 1))
                .spawn(move || worker_loop(&shared, &flag, seen));
            let Ok(handle) = spawned else { return };
            workers.push(Worker {
                thread: handle.thread().clone(),
                parked,
            });
        }
    }

    /// Publishes the job, works on it, waits for its tasks and for every worker to leave it.
    fn fork_join(
        &self,
        count: usize,
        task: &(dyn Fn(usize) + Sync),
    ) -> Result<(), Box<dyn Any + Send>> {
        let job = Job {
            task,
            count,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            panic: Mutex::new(None),
        };
        let shared = &self.shared;
        // Nothing between publishing the job and waiting for the workers to leave it can panic
        // (the job lives on this stack).
        let workers = self.workers();
        shared
            .job
            .store((&job as *const Job).cast_mut().cast(), SeqCst);
        let cpu = placement::current_cpu().unwrap_or(usize::MAX);
        shared.caller_cpu.store(cpu, SeqCst);
        shared.generation.fetch_add(1, SeqCst);
        for worker in workers.iter() {
            if worker.parked.load(SeqCst) {
                worker.thread.unpark();
            }
        }
        drop(workers);
        INSIDE.with(|c| c.set(true));
        job.work();
        INSIDE.with(|c| c.set(false));
        wait_until(|| job.done.load(SeqCst) == count);
        shared.job.store(ptr::null_mut(), SeqCst);
        wait_until(|| shared.inside.load(SeqCst) == 0);
        match job
            .panic
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            Some(payload) => Err(payload),
            None => Ok(()),
        }
    }
}

/// Clears the team's busy flag when dropped (also when a task's panic unwinds).
struct Release<'a>(&'a AtomicBool);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.0.store(false, SeqCst);
    }
}

/// Spins until `ready`, then yields between checks.
fn wait_until(ready: impl Fn() -> bool) {
    let start = Instant::now();
    let mut spins = 0u32;
    while !ready() {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(SPINS_PER_CHECK) && start.elapsed() > CALLER_SPIN {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

/// A worker: waits for a new generation, works on its job, repeats.
fn worker_loop(shared: &Shared, parked: &AtomicBool, mut seen: usize) {
    INSIDE.with(|c| c.set(true));
    loop {
        seen = wait_for_generation(shared, parked, seen);
        let caller_cpu = shared.caller_cpu.load(SeqCst);
        if caller_cpu != usize::MAX && placement::current_cpu() == Some(caller_cpu) {
            placement::move_off(caller_cpu);
        }
        shared.inside.fetch_add(1, SeqCst);
        let job = shared.job.load(SeqCst).cast::<Job>().cast_const();
        if !job.is_null() {
            // SAFETY: the caller keeps its job alive until `inside` is back to zero, and it
            // clears `job` before waiting, so a non-null pointer read after entering is live.
            unsafe { &*job }.work();
        }
        shared.inside.fetch_sub(1, SeqCst);
    }
}

/// Spins (then parks) until the generation differs from `seen`; returns the new one.
fn wait_for_generation(shared: &Shared, parked: &AtomicBool, seen: usize) -> usize {
    let mut start = Instant::now();
    let mut spins = 0u32;
    loop {
        let now = shared.generation.load(SeqCst);
        if now != seen {
            return now;
        }
        spins = spins.wrapping_add(1);
        if !spins.is_multiple_of(SPINS_PER_CHECK) {
            std::hint::spin_loop();
        } else if start.elapsed() > SPIN {
            parked.store(true, SeqCst);
            // Either the caller's new generation is seen here, or the caller sees `parked`
            // and unparks (an unpark before the park makes it return at once).
            if shared.generation.load(SeqCst) == seen {
                std::thread::park();
            }
            parked.store(false, SeqCst);
            start = Instant::now();
        }
    }
}
