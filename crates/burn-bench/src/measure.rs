//! The method: warm-up, then timed runs, each ending with the device synchronised (or the
//! result read), so lazy and asynchronous work is counted; the median and the min–max.
//!
//! A configuration is measured in several rounds, interleaved with the other configurations
//! (round 1 of every configuration, then round 2, …): a shared machine's speed drifts over
//! minutes (memory bandwidth, the host's other guests), and interleaving spreads that drift over
//! every configuration's runs instead of charging it to whichever ran at the wrong moment, so the
//! min–max of a configuration shows what the machine did during the whole command.

use std::any::Any;
use std::time::Instant;

/// One run of a configuration: launches the work, waits for the device, and returns the
/// result, which is dropped after the clock stops (freeing it is not part of the work).
pub type Runner = Box<dyn FnMut() -> Result<Box<dyn Any>, String>>;

/// Fewest timed runs, even when a configuration is past its time cap.
pub const MIN_RUNS: usize = 3;
/// Fast configurations keep sampling, up to this many runs, until [`FILL_SECONDS`].
const MAX_RUNS: usize = 100;
const FILL_SECONDS: f64 = 1.0;
/// Warm-up: at least one run, then until this much time (or a quarter of the time cap, if
/// less) or [`WARMUP_MAX_RUNS`].
const WARMUP_SECONDS: f64 = 0.5;
const WARMUP_MAX_RUNS: usize = 20;

/// How many runs to time, in how many rounds, and the time cap per configuration.
#[derive(Debug, Clone, Copy)]
pub struct Method {
    /// Timed runs wanted (at least [`MIN_RUNS`]), over all rounds.
    pub runs: usize,
    /// Cap on a configuration's time, warm-up included, over all rounds: past it, the runs stop
    /// once [`MIN_RUNS`] are timed.
    pub max_seconds: f64,
    /// Rounds each configuration is measured in (at least 1); every budget above is shared
    /// out evenly between them.
    pub rounds: usize,
}

impl Method {
    fn rounds(&self) -> usize {
        self.rounds.max(1)
    }

    /// The fewest timed runs of a configuration past its time cap: [`MIN_RUNS`] shared out
    /// between the rounds, each of which times at least one.
    pub fn min_runs(&self) -> usize {
        self.rounds() * MIN_RUNS.div_ceil(self.rounds())
    }
}

/// The timed runs of one configuration.
#[derive(Debug, Clone)]
pub struct Sample {
    pub warmup_runs: usize,
    /// Seconds per timed run, in the order they ran.
    pub times: Vec<f64>,
    /// Whether the time cap cut the runs below [`Method::runs`].
    pub capped: bool,
}

impl Sample {
    fn sorted(&self) -> Vec<f64> {
        let mut times = self.times.clone();
        times.sort_by(f64::total_cmp);
        times
    }

    pub fn median(&self) -> f64 {
        let times = self.sorted();
        let n = times.len();
        if n % 2 == 1 {
            times[n / 2]
        } else {
            (times[n / 2 - 1] + times[n / 2]) / 2.0
        }
    }

    pub fn min(&self) -> f64 {
        self.sorted()[0]
    }

    pub fn max(&self) -> f64 {
        *self.sorted().last().expect("at least one run")
    }

    /// Adds the runs of a later round of the same configuration.
    pub fn absorb(&mut self, round: Sample) {
        self.warmup_runs += round.warmup_runs;
        self.times.extend(round.times);
        self.capped |= round.capped;
    }
}

/// Bytes of stack one level of [`on_shifted_stack`] takes, at least.
const STACK_STEP: usize = 64;
/// Stack depths the timed runs cycle through, spread over a 4 KiB page.
const STACK_SLOTS: usize = 16;

/// Runs `f` with the stack moved down by `slot / slots` of a 4 KiB page (in steps of at least
/// [`STACK_STEP`] bytes): timed run `i` of a round runs at slot `i` of [`STACK_SLOTS`].
///
/// The operating system starts a process's stack at a random offset within a page, and where
/// the stack lies relative to the heap's data moves a tight loop's speed: W7 (1000 dispatches
/// of `x + 1` on 16 values) ran at 17.4–17.8 ns per operation in most processes and at
/// 18.5–18.9 in about one of four, the same in every round, and with address randomization
/// off, at 17.4 ns for every stack offset tried but one (19.0 ns at 3 KiB) — a load that waits
/// on an unrelated store 4 KiB away. One run then measured one layout, and two runs disagreed
/// by 7 % with tight spreads (11 of 28 pairs of eight W7 runs agreed). Cycling the runs through
/// depths across the page measures every configuration over many layouts in one run (the idea
/// of Curtsinger and Berger's Stabilizer): an unlucky layout shows in the min–max instead of
/// moving the median. The clock runs inside `f`, so the descent is not timed.
pub fn on_shifted_stack<R>(slot: usize, slots: usize, f: impl FnOnce() -> R) -> R {
    let slots = slots.max(1);
    let levels = (slot % slots) * (4096 / STACK_STEP) / slots;
    descend(levels, f)
}

/// Calls `f` below `levels` frames of [`STACK_STEP`] bytes each.
#[inline(never)]
fn descend<R>(levels: usize, f: impl FnOnce() -> R) -> R {
    if levels == 0 {
        return f();
    }
    let frame = [0u8; STACK_STEP];
    std::hint::black_box(&frame);
    let result = descend(levels - 1, f);
    // Used after the call, so the frame stays (no tail call).
    std::hint::black_box(&frame);
    result
}

/// Times one round of `run`: its warm-up and its share of the [`Method`]'s timed runs.
pub fn measure(run: &mut Runner, method: Method) -> Result<Sample, String> {
    let rounds = method.rounds();
    let share = |total: usize| total.div_ceil(rounds).max(1);
    let max_seconds = method.max_seconds / rounds as f64;
    let (fill_seconds, max_runs) = (FILL_SECONDS / rounds as f64, share(MAX_RUNS));
    let start = Instant::now();
    let warmup_seconds = WARMUP_SECONDS.min(max_seconds / 4.0);
    let mut warmup_runs = 0;
    while warmup_runs == 0
        || (warmup_runs < WARMUP_MAX_RUNS && start.elapsed().as_secs_f64() < warmup_seconds)
    {
        drop(run()?);
        warmup_runs += 1;
    }

    let (wanted, min_runs) = (share(method.runs.max(MIN_RUNS)), share(MIN_RUNS));
    let mut times = Vec::with_capacity(wanted);
    let mut timed_total = 0.0;
    loop {
        let (t, output) = on_shifted_stack(times.len(), STACK_SLOTS, || {
            let t0 = Instant::now();
            let output = run();
            (t0.elapsed().as_secs_f64(), output)
        });
        drop(output?);
        times.push(t);
        timed_total += t;

        let n = times.len();
        let enough = n >= wanted && (timed_total >= fill_seconds || n >= max_runs);
        let over_cap = n >= min_runs && start.elapsed().as_secs_f64() >= max_seconds;
        if enough || over_cap {
            break;
        }
    }
    Ok(Sample {
        warmup_runs,
        capped: times.len() < wanted,
        times,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(times: &[f64]) -> Sample {
        Sample {
            warmup_runs: 1,
            times: times.to_vec(),
            capped: false,
        }
    }

    #[test]
    fn runs_at_different_stack_depths() {
        let depth = |slot| {
            on_shifted_stack(slot, 5, || {
                let local = 0u8;
                std::hint::black_box(&local) as *const u8 as usize
            })
        };
        let (first, third) = (depth(0), depth(2));
        assert!(
            first >= third + 2 * 4096 / 5 / STACK_STEP * STACK_STEP,
            "slot 2's stack starts {} bytes below slot 0's",
            first as isize - third as isize
        );
        assert_eq!(depth(5), first, "slot 5 of 5 wraps to slot 0's depth");
    }

    #[test]
    fn median_min_max() {
        assert_eq!(sample(&[3.0, 1.0, 2.0]).median(), 2.0);
        assert_eq!(sample(&[4.0, 1.0, 3.0, 2.0]).median(), 2.5);
        assert_eq!(sample(&[4.0, 1.0, 3.0, 2.0]).min(), 1.0);
        assert_eq!(sample(&[4.0, 1.0, 3.0, 2.0]).max(), 4.0);
    }

    #[test]
    fn counts_warmup_and_timed_runs() {
        let mut calls = 0;
        let mut run: Runner = Box::new(move || {
            calls += 1;
            Ok(Box::new(calls))
        });
        let method = Method {
            runs: 10,
            max_seconds: 20.0,
            rounds: 1,
        };
        let sample = measure(&mut run, method).unwrap();
        assert!(sample.warmup_runs >= 1);
        assert!(sample.times.len() >= 10 && sample.times.len() <= MAX_RUNS);
        assert!(!sample.capped);
    }

    #[test]
    fn a_slow_configuration_stops_at_the_cap_with_the_minimum() {
        let mut run: Runner = Box::new(|| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            Ok(Box::new(()))
        });
        let method = Method {
            runs: 10,
            max_seconds: 0.01,
            rounds: 1,
        };
        let sample = measure(&mut run, method).unwrap();
        assert_eq!(sample.warmup_runs, 1);
        assert_eq!(sample.times.len(), MIN_RUNS);
        assert!(sample.capped);
    }

    #[test]
    fn rounds_share_the_runs_and_add_up() {
        let mut run: Runner = Box::new(|| Ok(Box::new(())));
        let method = Method {
            runs: 10,
            max_seconds: 20.0,
            rounds: 3,
        };
        let mut total = measure(&mut run, method).unwrap();
        // Each round times at least its share (4 of 10) and at most its share of the cap.
        assert!(total.times.len() >= 4 && total.times.len() <= MAX_RUNS.div_ceil(3));
        for _ in 1..3 {
            total.absorb(measure(&mut run, method).unwrap());
        }
        assert!(total.times.len() >= 10);
        assert!(total.warmup_runs >= 3);
    }

    #[test]
    fn an_error_stops_the_measurement() {
        let mut run: Runner = Box::new(|| Err("device lost".into()));
        let method = Method {
            runs: 10,
            max_seconds: 1.0,
            rounds: 1,
        };
        assert_eq!(measure(&mut run, method).unwrap_err(), "device lost");
    }
}
