//! Keeping a worker off its caller's CPU.
//!
//! When the caller wakes a parked worker, the OS may queue the worker on the caller's own CPU
//! while another CPU sits idle, and it leaves two busy threads together for a long time (it
//! does not move a thread that ran in the last half millisecond): on a 2-vCPU Zen 5 virtual
//! machine, a loop of 256³ products resumed after a 60 ms pause ran at one core's speed for
//! whole rounds of 40 products (125 against 64 µs) in 16–23 rounds of 40, the caller doing
//! every task while the worker waited behind it. A worker that finds itself on the caller's
//! CPU moves: it narrows its CPU affinity to exclude that CPU, which migrates it at once, and
//! then restores the affinity it had (the move stays; the OS may place it anywhere later).

/// The CPU the calling thread runs on, where the OS says.
pub(super) fn current_cpu() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: no arguments; returns -1 on failure.
        let cpu = unsafe { libc::sched_getcpu() };
        usize::try_from(cpu).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Moves the calling thread off `cpu` to another CPU it may run on, keeping its affinity as
/// it was; does nothing when `cpu` is the only one (or where the OS does not say).
pub(super) fn move_off(cpu: usize) {
    #[cfg(target_os = "linux")]
    {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: a zeroed cpu_set_t is an empty set; the calls read and write one set of
        // `size` bytes for the calling thread (pid 0).
        unsafe {
            let mut allowed: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, size, &mut allowed) != 0
                || cpu >= libc::CPU_SETSIZE as usize
                || !libc::CPU_ISSET(cpu, &allowed)
            {
                return;
            }
            let mut elsewhere = allowed;
            libc::CPU_CLR(cpu, &mut elsewhere);
            if libc::CPU_COUNT(&elsewhere) == 0 {
                return;
            }
            if libc::sched_setaffinity(0, size, &elsewhere) == 0 {
                libc::sched_setaffinity(0, size, &allowed);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_off_a_cpu_and_keeps_the_affinity() {
        let (Some(cpu), Some(cpus)) = (current_cpu(), std::thread::available_parallelism().ok())
        else {
            return;
        };
        if cpus.get() > 1 {
            // Moved (the OS may move it back later, but not between these two calls unless it
            // preempts the thread, which a loaded test machine can do: a few tries).
            let moved = (0..5).any(|_| {
                move_off(cpu);
                current_cpu() != Some(cpu)
            });
            assert!(moved, "still on CPU {cpu} after moving off it five times");
        } else {
            move_off(cpu);
        }
        assert_eq!(
            std::thread::available_parallelism().ok(),
            Some(cpus),
            "the affinity is restored"
        );
    }
}
