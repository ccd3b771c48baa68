//! A configuration (a workload's case on one target) and what its rounds measured: a target is
//! one of this project's backends, or a peer framework in the peers script (`--live-peers`).

use crate::backends::{BackendChoice, Opened};
use crate::load::{CpuMeter, Ticks};
use crate::measure::{self, MIN_RUNS, Method, Sample};
use crate::peer_server::PeerServer;
use crate::report::Row;
use crate::workloads::{Case, Workload};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// Above this share of the CPUs taken by other processes, a measurement is flagged.
pub const NOISY_PCT: f64 = 10.0;

/// What a configuration runs on.
#[derive(Clone, Copy)]
pub enum Target<'a> {
    /// One of this project's backends, on its device.
    Backend(BackendChoice, &'a Opened),
    /// A framework of the peers script (`numpy`, `torch`, `jax`), measured by the script.
    Peer {
        name: &'static str,
        /// The framework in words, with its version (`PyTorch 2.9.1`).
        device: &'a str,
    },
}

impl Target<'_> {
    /// The backend column: `flex`, `wgpu`, `numpy`, `torch`, `jax`.
    pub fn name(&self) -> &'static str {
        match self {
            Target::Backend(choice, _) => choice.name(),
            Target::Peer { name, .. } => name,
        }
    }

    fn device(&self) -> String {
        match self {
            Target::Backend(_, opened) => opened.device.to_string(),
            Target::Peer { device, .. } => device.to_string(),
        }
    }

    fn on_cpu(&self) -> bool {
        match self {
            Target::Backend(_, opened) => opened.on_cpu,
            Target::Peer { .. } => true,
        }
    }
}

/// What the rounds of one configuration measured so far.
#[derive(Default)]
pub struct Measured {
    sample: Option<Sample>,
    /// The first failure (an error or a panic); the configuration's later rounds are skipped.
    pub error: Option<String>,
    /// The CPU ticks of its rounds and those other processes took.
    ticks: Ticks,
    /// Rounds run so far (the row says so when the command stopped before the last).
    pub rounds_done: usize,
}

impl Measured {
    /// Whether a row can be made: a round ran or failed.
    pub fn started(&self) -> bool {
        self.sample.is_some() || self.error.is_some()
    }

    /// One round: setup and measure on a backend, or the peers script's round of the case (an
    /// error or a panic becomes the configuration's error, so the others still run).
    pub fn round(
        &mut self,
        workload: &Workload,
        case: &Case,
        target: Target,
        peers: Option<&mut PeerServer>,
        method: Method,
        cpus: usize,
    ) {
        let label = format!("{} {} on {}", workload.id, case.info.size, target.name());
        eprintln!("{label}…");
        crate::watchdog_arm(&label);
        let started = Instant::now();
        let helper = peers.as_ref().map(|p| p.pid());
        let meter = CpuMeter::read_with(helper.filter(|_| matches!(target, Target::Peer { .. })));
        let outcome = match target {
            Target::Backend(_, opened) => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let mut runner = (case.setup)(&opened.device)?;
                    measure::measure(&mut runner, method)
                }))
                .unwrap_or_else(|payload| Err(format!("panicked: {}", panic_message(&*payload))));
                opened.device.memory_cleanup();
                outcome
            }
            Target::Peer { name, .. } => match peers {
                Some(server) => {
                    server.round(name, &format!("{} {}", workload.id, case.info.size), method)
                }
                None => Err("the peers script is not running".into()),
            },
        };
        let ticks = meter.and_then(|m| m.ticks_since(cpus));
        let others_pct = ticks.and_then(Ticks::percent);
        crate::watchdog_disarm();
        if let Some(ticks) = ticks {
            self.ticks = self.ticks.add(ticks);
        }
        match outcome {
            Ok(round) => {
                let median = round.median();
                eprintln!(
                    "  median {:.3} ms over {} runs{} ({:.1} {}), {:.1} s{}",
                    median * 1e3,
                    round.times.len(),
                    if round.capped { ", capped" } else { "" },
                    case.info.figure.value(&case.info, median),
                    case.info.figure.unit(),
                    started.elapsed().as_secs_f64(),
                    others_note(others_pct)
                );
                match &mut self.sample {
                    Some(sample) => sample.absorb(round),
                    None => self.sample = Some(round),
                }
            }
            Err(message) => {
                eprintln!("  FAILED: {message}");
                self.error = Some(message);
            }
        }
    }

    /// The report's row: every round's runs together.
    pub fn row(&self, workload: &Workload, case: &Case, target: Target, method: Method) -> Row {
        let info = &case.info;
        let mut row = Row {
            workload: workload.id,
            title: workload.title,
            size: info.size.clone(),
            backend: target.name(),
            device: target.device(),
            on_cpu: target.on_cpu(),
            flops: info.flops,
            bytes: info.bytes,
            warmup_runs: 0,
            rounds: self.rounds_done,
            times_s: Vec::new(),
            capped: false,
            median_s: None,
            min_s: None,
            max_s: None,
            figure: None,
            unit: info.figure.unit(),
            roofline_pct: None,
            speed_vs_flex: None,
            others_pct: self.ticks.percent(),
            error: self.error.clone(),
        };
        if let (Some(sample), None) = (&self.sample, &self.error) {
            let median = sample.median();
            row.warmup_runs = sample.warmup_runs;
            // Fewer runs than asked for in all: the time cap cut the rounds short.
            row.capped = sample.capped && sample.times.len() < method.runs.max(MIN_RUNS);
            row.median_s = Some(median);
            row.min_s = Some(sample.min());
            row.max_s = Some(sample.max());
            row.figure = Some(info.figure.value(info, median));
            row.times_s = sample.times.clone();
        }
        row
    }
}

/// The order of the configurations in round `round`: those of one case stay together (so
/// that the peers run right beside Flex), and within a case the order flips every other round,
/// so that no target always runs right after the previous case's work.
pub fn round_order(cases: &[usize], round: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(cases.len());
    let mut start = 0;
    while start < cases.len() {
        let end = start
            + cases[start..]
                .iter()
                .take_while(|&&c| c == cases[start])
                .count();
        if round % 2 == 1 {
            order.extend((start..end).rev());
        } else {
            order.extend(start..end);
        }
        start = end;
    }
    order
}

/// A note for a round taken while other processes took a large share of the CPUs.
pub fn others_note(others_pct: Option<f64>) -> String {
    match others_pct {
        Some(pct) if pct > NOISY_PCT => format!(" (other processes took {pct:.0} % of the CPUs)"),
        _ => String::new(),
    }
}

/// The message of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

#[cfg(test)]
mod tests {
    use super::round_order;

    #[test]
    fn rounds_keep_a_case_together_and_flip_its_order() {
        let cases = [0, 0, 0, 1, 2, 2];
        assert_eq!(round_order(&cases, 0), [0, 1, 2, 3, 4, 5]);
        assert_eq!(round_order(&cases, 1), [2, 1, 0, 3, 5, 4]);
        assert_eq!(round_order(&cases, 2), [0, 1, 2, 3, 4, 5]);
        assert!(round_order(&[], 1).is_empty());
    }
}
