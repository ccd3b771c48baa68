//! `cargo xtask bench`: the workloads of the performance issue through the public API, on the
//! chosen backends, beside the machine's own limits. Prints a table and writes JSON.
//!
//! Method (see `measure.rs`): every configuration in rounds (5 by default) interleaved with the
//! other configurations; each round makes the inputs outside the clock, warms up and times its
//! share of at least 10 runs (fewer when a configuration passes its time cap, marked `*`, but
//! at least one per round), each ending with `device.sync()`; the median and the min–max of all
//! runs.

mod backends;
mod cli;
mod compare;
mod load;
mod machine;
mod measure;
mod peers;
mod report;
mod workloads;

use backends::{BackendChoice, Opened};
use cli::{Command, Options};
use load::{CpuMeter, Ticks};
use machine::{Limits, LimitsPass, Machine};
use measure::{MIN_RUNS, Method};
use report::{BackendEntry, MethodEntry, Report, Row};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use workloads::{Case, Workload};

fn main() -> ExitCode {
    let options = match cli::parse(std::env::args().skip(1)) {
        Ok(Command::Run(options)) => options,
        Ok(Command::Compare(first, second)) => {
            return match compare::compare(&first, &second) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("burn-bench: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        Ok(Command::Help) => {
            println!("{}", cli::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(Command::List) => {
            for workload in workloads::ALL {
                let sizes: Vec<String> = (workload.cases)()
                    .into_iter()
                    .map(|c| c.info.size)
                    .collect();
                println!(
                    "{}  {}  [{}]",
                    workload.id,
                    workload.title,
                    sizes.join(", ")
                );
            }
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("burn-bench: {message}");
            return ExitCode::from(2);
        }
    };
    match run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("burn-bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: Options) -> Result<(), String> {
    name_rayon_threads();
    install_guards();

    let out = options.out.clone().unwrap_or_else(report::default_out);
    let whole_run = CpuMeter::read();
    let machine = Machine::describe();
    let cpus = machine.logical_cores;
    eprintln!(
        "machine: {}, {} logical cores, {} rayon threads",
        machine.cpu, machine.logical_cores, machine.threads
    );
    let mut passes = Vec::new();
    if options.limits {
        passes.push(measure_limits("before", cpus));
    } else {
        eprintln!("machine limits skipped (--no-limits): no \"% of roofline\" column");
    }

    let mut backends = Vec::new();
    let mut entries = Vec::new();
    for choice in &options.backends {
        match choice.open() {
            Ok(opened) => {
                eprintln!(
                    "backend {}: {} on {}",
                    choice.name(),
                    opened.device,
                    opened.adapter
                );
                entries.push(BackendEntry {
                    name: choice.name(),
                    device: Some(opened.device.to_string()),
                    adapter: Some(opened.adapter.clone()),
                    on_cpu: Some(opened.on_cpu),
                    error: None,
                });
                backends.push((*choice, opened));
            }
            Err(reason) => {
                eprintln!("backend {}: skipped: {reason}", choice.name());
                entries.push(BackendEntry {
                    name: choice.name(),
                    device: None,
                    adapter: None,
                    on_cpu: None,
                    error: Some(reason),
                });
            }
        }
    }

    let (commit, dirty) = report::git_commit();
    let method = Method {
        runs: options.runs,
        max_seconds: options.max_seconds,
        rounds: options.rounds,
    };
    let mut report = Report {
        date: report::utc_now(),
        commit,
        dirty,
        command: std::env::args().collect(),
        machine,
        limits: (!passes.is_empty()).then(|| Limits::from_passes(passes.clone())),
        method: MethodEntry {
            runs: method.runs,
            rounds: method.rounds,
            min_runs: method.min_runs(),
            max_seconds_per_configuration: method.max_seconds,
            sync: "each timed run ends with device.sync(); inputs are made and synchronised \
                   outside the clock; outputs are dropped after it stops",
        },
        backends: entries,
        results: Vec::new(),
        others_pct: None,
    };

    // Every configuration, measured in `rounds` interleaved rounds (see `measure.rs`).
    let configurations: Vec<(&Workload, Rc<Case>, BackendChoice, &Opened)> = options
        .workloads
        .iter()
        .flat_map(|&workload| {
            (workload.cases)()
                .into_iter()
                .map(move |case| (workload, Rc::new(case)))
        })
        .flat_map(|(workload, case)| {
            backends
                .iter()
                .map(move |(choice, opened)| (workload, case.clone(), *choice, opened))
        })
        .collect();
    let mut measured: Vec<Measured> = configurations.iter().map(|_| Measured::default()).collect();
    for round in 0..method.rounds.max(1) {
        if method.rounds > 1 {
            eprintln!("round {} of {}", round + 1, method.rounds);
        }
        for (i, (workload, case, choice, opened)) in configurations.iter().enumerate() {
            if measured[i].error.is_some() {
                continue;
            }
            measured[i].round(workload, case, *choice, opened, method, cpus);
            measured[i].rounds_done = round + 1;
            report.results = configurations
                .iter()
                .zip(&measured)
                .filter(|(_, m)| m.sample.is_some() || m.error.is_some())
                .map(|((workload, case, choice, opened), m)| {
                    m.row(workload, case, *choice, opened, method)
                })
                .collect();
            // Partial results survive a later hang or abort.
            report.compare();
            report.write(&out)?;
        }
    }

    if options.limits {
        passes.push(measure_limits("after", cpus));
        report.limits = Some(Limits::from_passes(passes));
        report.compare();
    }
    report.others_pct = whole_run.and_then(|m| m.others_percent_since(cpus));
    report.write(&out)?;

    println!();
    println!("{}", report.table());
    println!();
    if let Some(path) = &options.peers {
        println!("{}", peers::table(&report.results, path)?);
        println!();
    }
    let m = &report.machine;
    match &report.limits {
        Some(l) => {
            println!(
                "machine: {}, {} logical cores, {} threads{}; roofline: peak f32 FMA {:.1} GFLOP/s \
                 ({}), triad {:.1} GB/s (the best of the passes below).",
                m.cpu,
                m.logical_cores,
                m.threads,
                if m.virtual_machine {
                    ", virtual machine"
                } else {
                    ""
                },
                l.peak_gflops,
                l.peak_kernel,
                l.triad_gbps
            );
            for pass in &l.passes {
                println!(
                    "  limits {}: peak {:.1} GFLOP/s, triad {:.1} GB/s{}",
                    pass.when,
                    pass.peak_gflops,
                    pass.triad_gbps,
                    pass.others_pct
                        .map(|pct| format!(" (others {pct:.0} %)"))
                        .unwrap_or_default()
                );
            }
        }
        None => println!(
            "machine: {}, {} logical cores, {} threads; limits not measured (--no-limits).",
            m.cpu, m.logical_cores, m.threads
        ),
    }
    println!(
        "method: {} interleaved round(s) per configuration, each a warm-up and its share of >= {} \
         timed runs, each run ending with device.sync(); the median of all runs (min–max beside \
         it); `*` = fewer runs (>= {}) because the configuration passed its {} s cap.",
        method.rounds,
        method.runs,
        method.min_runs(),
        method.max_seconds
    );
    println!(
        "% roofline = the least time the machine's limits allow (max of flops/peak, bytes/triad) \
         over the median; vs flex = Flex's median over this row's, both from this run; others = \
         the share of the CPUs other processes (or the host) took during the row."
    );
    let noisy: Vec<f64> = report
        .results
        .iter()
        .filter_map(|r| r.others_pct)
        .chain(
            report
                .limits
                .iter()
                .flat_map(|l| l.passes.iter().filter_map(|p| p.others_pct)),
        )
        .filter(|&pct| pct > NOISY_PCT)
        .collect();
    if !noisy.is_empty() {
        println!(
            "warning: other processes took more than {NOISY_PCT} % of the CPUs during {} of the \
             measurements (up to {:.0} %): those figures are not this machine's; rerun when it \
             is quiet.",
            noisy.len(),
            noisy.iter().copied().fold(0.0, f64::max)
        );
    }
    println!(
        "commit {}{}, {}; results written to {}",
        report.commit.as_deref().unwrap_or("unknown"),
        if report.dirty == Some(true) {
            " (dirty)"
        } else {
            ""
        },
        report.date,
        std::fs::canonicalize(&out).unwrap_or(out.clone()).display()
    );

    let unavailable = report.backends.iter().filter(|b| b.error.is_some()).count();
    let failed = report.results.iter().filter(|r| r.error.is_some()).count();
    if unavailable + failed > 0 {
        return Err(format!(
            "{failed} configuration(s) failed and {unavailable} backend(s) could not run; see above"
        ));
    }
    Ok(())
}

/// What the rounds of one configuration measured so far.
#[derive(Default)]
struct Measured {
    sample: Option<measure::Sample>,
    /// The first failure (an error or a panic); the configuration's later rounds are skipped.
    error: Option<String>,
    /// The CPU ticks of its rounds and those other processes took.
    ticks: Ticks,
    /// Rounds run so far (the row says so when the command stopped before the last).
    rounds_done: usize,
}

impl Measured {
    /// One round: setup, measure (an error or a panic becomes the configuration's error, so
    /// the other configurations still run).
    fn round(
        &mut self,
        workload: &Workload,
        case: &Case,
        choice: BackendChoice,
        opened: &Opened,
        method: Method,
        cpus: usize,
    ) {
        let device = &opened.device;
        let label = format!("{} {} on {}", workload.id, case.info.size, choice.name());
        eprintln!("{label}…");
        watchdog_arm(&label);
        let started = Instant::now();
        let meter = CpuMeter::read();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let mut runner = (case.setup)(device)?;
            measure::measure(&mut runner, method)
        }))
        .unwrap_or_else(|payload| Err(format!("panicked: {}", panic_message(&*payload))));
        let ticks = meter.and_then(|m| m.ticks_since(cpus));
        let others_pct = ticks.and_then(Ticks::percent);
        device.memory_cleanup();
        watchdog_disarm();
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
    fn row(
        &self,
        workload: &Workload,
        case: &Case,
        choice: BackendChoice,
        opened: &Opened,
        method: Method,
    ) -> Row {
        let info = &case.info;
        let mut row = Row {
            workload: workload.id,
            title: workload.title,
            size: info.size.clone(),
            backend: choice.name(),
            device: opened.device.to_string(),
            on_cpu: opened.on_cpu,
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

/// Above this share of the CPUs taken by other processes, a measurement is flagged.
const NOISY_PCT: f64 = 10.0;

fn others_note(others_pct: Option<f64>) -> String {
    match others_pct {
        Some(pct) if pct > NOISY_PCT => format!(" (other processes took {pct:.0} % of the CPUs)"),
        _ => String::new(),
    }
}

/// One pass over the machine's limits, reported on stderr.
fn measure_limits(when: &'static str, cpus: usize) -> LimitsPass {
    eprintln!("measuring the machine's limits ({when} the workloads: peak f32 FMA, triad)…");
    let meter = CpuMeter::read();
    let mut pass = LimitsPass::measure(when);
    pass.others_pct = meter.and_then(|m| m.others_percent_since(cpus));
    eprintln!(
        "  peak {:.1} GFLOP/s ({}), triad {:.1} GB/s ({:.1} s){}",
        pass.peak_gflops,
        pass.peak_kernel,
        pass.triad_gbps,
        pass.seconds,
        others_note(pass.others_pct)
    );
    pass
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// Names rayon's threads so the panic guard below can tell them from runtime-internal ones.
fn name_rayon_threads() {
    // Fails only if the pool already exists, which is then used as it is.
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("rayon-{i}"))
        .build_global();
}

/// How long one configuration may run before the process counts as hung
/// (`BURN_BENCH_HANG_SECS`, default 600).
fn hang_limit() -> Duration {
    let secs = std::env::var("BURN_BENCH_HANG_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    Duration::from_secs(secs)
}

static PROCESS_START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
/// Milliseconds since [`PROCESS_START`] after which the running configuration is hung; 0: none.
static DEADLINE_MS: AtomicU64 = AtomicU64::new(0);
static RUNNING: Mutex<String> = Mutex::new(String::new());

fn watchdog_arm(label: &str) {
    let start = PROCESS_START.get_or_init(Instant::now);
    *RUNNING.lock().unwrap_or_else(|e| e.into_inner()) = label.to_string();
    let deadline = start.elapsed() + hang_limit();
    DEADLINE_MS.store(deadline.as_millis().max(1) as u64, Ordering::SeqCst);
}

fn watchdog_disarm() {
    DEADLINE_MS.store(0, Ordering::SeqCst);
}

/// WGPU on a software adapter can panic in an internal thread and then wait forever for it
/// (DESIGN.md, "Machines"). Guards: abort when a thread without a name panics, and abort when
/// one configuration runs past [`hang_limit`]; results so far are already in the JSON file.
fn install_guards() {
    let start = *PROCESS_START.get_or_init(Instant::now);
    let limit = hang_limit();
    std::thread::Builder::new()
        .name("burn-bench-watchdog".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(500));
                let deadline = DEADLINE_MS.load(Ordering::SeqCst);
                if deadline != 0 && start.elapsed().as_millis() as u64 > deadline {
                    let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    eprintln!(
                        "\nburn-bench: {running} still running after {} s; aborting (a WGPU \
                         hang?). BURN_BENCH_HANG_SECS changes the limit.",
                        limit.as_secs()
                    );
                    std::process::abort();
                }
            }
        })
        .expect("spawn the watchdog thread");

    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default_hook(info);
        if std::thread::current().name().is_none() {
            eprintln!(
                "burn-bench: a runtime-internal thread panicked (see above); aborting instead of \
                 waiting for results it will never deliver"
            );
            std::process::abort();
        }
    }));
}
