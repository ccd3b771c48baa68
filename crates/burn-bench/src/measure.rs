//! The method: warm-up, then timed runs, each ending with the device synchronised (or the
//! result read), so lazy and asynchronous work is counted; the median and the min–max.

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

/// How many runs to time and the time cap per configuration.
#[derive(Debug, Clone, Copy)]
pub struct Method {
    /// Timed runs wanted (at least [`MIN_RUNS`]).
    pub runs: usize,
    /// Cap on a configuration's time, warm-up included: past it, the runs stop once
    /// [`MIN_RUNS`] are timed.
    pub max_seconds: f64,
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
}

/// Times `run` by [`Method`].
pub fn measure(run: &mut Runner, method: Method) -> Result<Sample, String> {
    let start = Instant::now();
    let warmup_seconds = WARMUP_SECONDS.min(method.max_seconds / 4.0);
    let mut warmup_runs = 0;
    while warmup_runs == 0
        || (warmup_runs < WARMUP_MAX_RUNS && start.elapsed().as_secs_f64() < warmup_seconds)
    {
        drop(run()?);
        warmup_runs += 1;
    }

    let wanted = method.runs.max(MIN_RUNS);
    let mut times = Vec::with_capacity(wanted);
    let mut timed_total = 0.0;
    loop {
        let t0 = Instant::now();
        let output = run()?;
        let t = t0.elapsed().as_secs_f64();
        drop(output);
        times.push(t);
        timed_total += t;

        let n = times.len();
        let enough = n >= wanted && (timed_total >= FILL_SECONDS || n >= MAX_RUNS);
        let over_cap = n >= MIN_RUNS && start.elapsed().as_secs_f64() >= method.max_seconds;
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
        };
        let sample = measure(&mut run, method).unwrap();
        assert_eq!(sample.warmup_runs, 1);
        assert_eq!(sample.times.len(), MIN_RUNS);
        assert!(sample.capped);
    }

    #[test]
    fn an_error_stops_the_measurement() {
        let mut run: Runner = Box::new(|| Err("device lost".into()));
        let method = Method {
            runs: 10,
            max_seconds: 1.0,
        };
        assert_eq!(measure(&mut run, method).unwrap_err(), "device lost");
    }
}
