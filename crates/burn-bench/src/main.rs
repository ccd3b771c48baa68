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
mod configuration;
mod load;
mod machine;
mod measure;
mod peer_server;
mod peers;
mod report;
mod workloads;

use cli::{Command, Options};
use configuration::{Measured, NOISY_PCT, Target, others_note, round_order};
use load::CpuMeter;

/// The longest a round waits for the CPUs to settle (with peers) before it starts.
const SETTLE_MAX: Duration = Duration::from_secs(2);
/// Waits longer than this are reported.
const SETTLE_WINDOW_REPORTED: Duration = Duration::from_millis(60);
use machine::{Limits, LimitsPass, Machine};
use measure::Method;
use peer_server::{FRAMEWORKS, PeerServer};
use report::{BackendEntry, MethodEntry, Report};
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
    // The peers' imports and inputs take seconds of CPU: done before anything is measured.
    let mut peer_server = if options.live_peers {
        eprintln!("starting the peers script (NumPy, PyTorch, JAX)…");
        watchdog_arm("starting the peers script");
        let server = PeerServer::start();
        watchdog_disarm();
        let server = server?;
        for (name, why) in &server.skipped {
            eprintln!("peer {name}: skipped: {why}");
        }
        Some(server)
    } else {
        None
    };
    let peer_devices: Vec<(&'static str, String)> = peer_server
        .iter()
        .flat_map(|server| {
            FRAMEWORKS.iter().filter_map(|(name, words)| {
                let version = server.versions.get(*name)?;
                Some((*name, format!("{words} {version}, CPU")))
            })
        })
        .collect();

    let mut passes = Vec::new();
    if options.limits {
        if peer_server.is_some() {
            load::settle(cpus, SETTLE_MAX);
        }
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

    // Every configuration, measured in `rounds` interleaved rounds (see `measure.rs`); the
    // peers of a case right beside its backends.
    for (name, device) in &peer_devices {
        report.backends.push(BackendEntry {
            name,
            device: Some(device.clone()),
            adapter: Some("the peers script (benches/peers/peers.py --serve)".into()),
            on_cpu: Some(true),
            error: None,
        });
    }
    let configurations: Vec<(&Workload, Rc<Case>, Target)> = options
        .workloads
        .iter()
        .flat_map(|&workload| {
            (workload.cases)()
                .into_iter()
                .map(move |case| (workload, Rc::new(case)))
        })
        .flat_map(|(workload, case)| {
            let key = format!("{} {}", workload.id, case.info.size);
            let backends = backends
                .iter()
                .map(|(choice, opened)| Target::Backend(*choice, opened));
            let peers = peer_devices
                .iter()
                .filter(|(name, _)| peer_server.as_ref().is_some_and(|p| p.has(name, &key)))
                .map(|(name, device)| Target::Peer { name, device });
            let case = case.clone();
            backends
                .chain(peers)
                .map(move |target| (workload, case.clone(), target))
                .collect::<Vec<_>>()
        })
        .collect();
    let case_of: Vec<usize> = configurations
        .iter()
        .map(|(_, case, _)| Rc::as_ptr(case) as usize)
        .collect();
    let mut measured: Vec<Measured> = configurations.iter().map(|_| Measured::default()).collect();
    for round in 0..method.rounds.max(1) {
        if method.rounds > 1 {
            eprintln!("round {} of {}", round + 1, method.rounds);
        }
        for i in round_order(&case_of, round) {
            let (workload, case, target) = &configurations[i];
            if measured[i].error.is_some() {
                continue;
            }
            // With peers, a quiet start: no peer's threads still spinning from its round.
            if peer_server.is_some() {
                let waited = load::settle(cpus, SETTLE_MAX).unwrap_or_default();
                if waited > SETTLE_WINDOW_REPORTED {
                    eprintln!(
                        "(waited {:.2} s for the CPUs to settle)",
                        waited.as_secs_f64()
                    );
                }
            }
            measured[i].round(workload, case, *target, peer_server.as_mut(), method, cpus);
            measured[i].rounds_done = round + 1;
            report.results = configurations
                .iter()
                .zip(&measured)
                .filter(|(_, m)| m.started())
                .map(|((workload, case, target), m)| m.row(workload, case, *target, method))
                .collect();
            // Partial results survive a later hang or abort.
            report.compare();
            report.write(&out)?;
        }
    }
    drop(peer_server);

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
    let peer_figures = match &options.peers {
        Some(path) => Some((peers::from_file(path)?, peers::Source::File)),
        None if options.live_peers => {
            Some((peers::from_rows(&report.results), peers::Source::Live))
        }
        None => None,
    };
    if let Some((figures, source)) = peer_figures {
        println!("{}", peers::table(&report.results, &figures, source));
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

pub(crate) fn watchdog_arm(label: &str) {
    let start = PROCESS_START.get_or_init(Instant::now);
    *RUNNING.lock().unwrap_or_else(|e| e.into_inner()) = label.to_string();
    let deadline = start.elapsed() + hang_limit();
    DEADLINE_MS.store(deadline.as_millis().max(1) as u64, Ordering::SeqCst);
}

pub(crate) fn watchdog_disarm() {
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
                         or peer framework hang?). BURN_BENCH_HANG_SECS changes the limit.",
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
