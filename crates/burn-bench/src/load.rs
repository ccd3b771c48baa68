//! How busy the other processes kept the CPUs while something was measured: the benchmark
//! shares its machine, and a figure taken while a compiler ran beside it is not the machine's.
//! Read from `/proc/stat` (all CPUs) and `/proc/self/stat` (this process, WGPU's threads
//! included; with [`CpuMeter::read_with`], also a helper process measured on its behalf, such
//! as the peers script); `None` where these files do not exist.

use std::time::{Duration, Instant};

/// The fewest ticks (of all CPUs together, 100 per CPU-second) an interval must span for its
/// share of other processes to mean something.
pub const MIN_TICKS: f64 = 100.0;

/// A reading of the CPU counters.
#[derive(Debug, Clone, Copy)]
pub struct CpuMeter {
    at: Instant,
    /// Busy ticks of every CPU (user, nice, system, irq, softirq, steal).
    all_busy: u64,
    /// User and system ticks of this process (and of the helper of [`CpuMeter::read_with`]).
    own: u64,
    /// The helper whose ticks count as this process's.
    helper: Option<u32>,
}

/// User and system ticks of the process whose `stat` file is at `path`.
fn process_ticks(path: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name (which may hold spaces, inside parentheses).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 of `rest`.
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

impl CpuMeter {
    pub fn read() -> Option<Self> {
        Self::read_with(None)
    }

    /// A reading that counts the process `helper` (when given) as part of this one: the
    /// measurement runs there.
    pub fn read_with(helper: Option<u32>) -> Option<Self> {
        let at = Instant::now();
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let cpu = stat.lines().find(|l| l.starts_with("cpu "))?;
        let ticks: Vec<u64> = cpu
            .split_whitespace()
            .skip(1)
            .filter_map(|t| t.parse().ok())
            .collect();
        // user nice system idle iowait irq softirq steal (guest time is inside user).
        let field = |i: usize| ticks.get(i).copied().unwrap_or(0);
        let all_busy = field(0) + field(1) + field(2) + field(5) + field(6) + field(7);
        let mut own = process_ticks("/proc/self/stat")?;
        if let Some(pid) = helper {
            own += process_ticks(&format!("/proc/{pid}/stat"))?;
        }
        Some(CpuMeter {
            at,
            all_busy,
            own,
            helper,
        })
    }

    /// Percent of all the CPUs' time since `self` that other processes (or the host, as steal)
    /// took: 0 on a quiet machine, 100 when every CPU ran something else all along. `None` for
    /// intervals under [`MIN_TICKS`] ticks of all CPUs together: the counters advance in whole
    /// ticks, sampled apart for the machine and the process, so a short interval reads as noise
    /// (a 0.1 s row on 2 CPUs read 78 %).
    pub fn others_percent_since(self, cpus: usize) -> Option<f64> {
        self.ticks_since(cpus)?.percent()
    }

    /// The ticks of all the CPUs since `self` and those other processes took, to add up over
    /// several intervals (the rounds of one configuration).
    pub fn ticks_since(self, cpus: usize) -> Option<Ticks> {
        let now = Self::read_with(self.helper)?;
        // USER_HZ is 100 on Linux for these counters.
        let all = now.at.duration_since(self.at).as_secs_f64() * 100.0 * cpus.max(1) as f64;
        let others = now.all_busy.saturating_sub(self.all_busy) as f64
            - now.own.saturating_sub(self.own) as f64;
        Some(Ticks { all, others })
    }
}

/// The window [`settle`] watches the CPUs over.
const SETTLE_WINDOW: Duration = Duration::from_millis(50);

/// Waits, up to `max`, until other processes leave the CPUs idle over one [`SETTLE_WINDOW`]
/// (under 5 % of it, at least one tick): the threads of a peer framework spin for tens of
/// milliseconds after its round (OpenBLAS, OpenMP) and would take a core from the measurement
/// that follows (a 256 matmul ran at half speed right after NumPy's round). Returns how long
/// it waited, or `None` where `/proc` cannot be read.
pub fn settle(cpus: usize, max: Duration) -> Option<Duration> {
    let start = Instant::now();
    loop {
        let meter = CpuMeter::read()?;
        std::thread::sleep(SETTLE_WINDOW);
        let ticks = meter.ticks_since(cpus)?;
        // Quiet: under 5 % of the window on all CPUs, and never less than the one tick the
        // counters' granularity can show.
        if ticks.others <= (0.05 * ticks.all).max(1.0) || start.elapsed() >= max {
            return Some(start.elapsed());
        }
    }
}

/// Ticks of all the CPUs over one or more intervals, and those other processes took.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ticks {
    pub all: f64,
    pub others: f64,
}

impl Ticks {
    /// The intervals of `self` and `other` together.
    pub fn add(self, other: Ticks) -> Ticks {
        Ticks {
            all: self.all + other.all,
            others: self.others + other.others,
        }
    }

    /// The others' share in percent, or `None` under [`MIN_TICKS`] ticks in all (see
    /// [`CpuMeter::others_percent_since`]).
    pub fn percent(self) -> Option<f64> {
        (self.all >= MIN_TICKS).then(|| (100.0 * self.others / self.all).clamp(0.0, 100.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_percentage_on_linux() {
        let Some(meter) = CpuMeter::read() else {
            return;
        };
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let pct = meter.others_percent_since(1).expect("a reading");
        assert!((0.0..=100.0).contains(&pct));
        // Too short an interval to tell.
        let meter = CpuMeter::read().expect("read above");
        assert_eq!(meter.others_percent_since(1), None);
    }
}
