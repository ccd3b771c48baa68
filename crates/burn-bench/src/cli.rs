//! The command line: `burn-bench [--backend flex|wgpu|cpu|cuda|all] [--workload W1,W2,...] ...`.

use crate::backends::BackendChoice;
use crate::workloads::{self, Workload};
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: cargo xtask bench [options]     (or: cargo run --release -p burn-bench [--features wgpu,cpu,cuda] -- [options])

options:
  --backend B        flex, wgpu, cpu (Cube on CubeCL's CPU runtime), cuda, or all (flex and wgpu,
                     the default); a comma list works too, e.g. flex,cpu. Each but flex needs the
                     binary built with the feature of its name, which `cargo xtask bench` does
                     for the backends asked for (after `cargo xtask llvm` for cpu and cuda).
  --workload LIST    comma-separated workload ids, e.g. W1,W2 (default: every workload)
  --runs N           timed runs per configuration (default 10; at least 3)
  --rounds N         measure every configuration in N rounds, interleaved with the others
                     (default 5): the runs and the time cap are shared out between them, so a
                     machine's drift during the command shows in every row's min–max
  --max-seconds S    time cap per configuration, warm-ups included (default 20), shared between
                     the rounds: a round past its share stops once it has timed its share of 3
                     runs (at least one: 5 runs in all with 5 rounds), and the row says so
  --out PATH         where to write the JSON results (default target/bench/results.json)
  --live-peers       also measure NumPy, PyTorch and JAX in this run, each round of a case right
                     beside Flex's (`benches/peers/peers.py --serve` in target/peers-venv or
                     $PEERS_VENV, which `bash benches/peers/run.sh --install-only` makes;
                     `cargo xtask bench --peers` does both), and print Flex beside them
  --peers PATH       print Flex beside the peers of the JSON `bash benches/peers/run.sh` wrote
                     (measured in a run of their own)
  --no-limits        skip measuring the machine's limits (no \"% of roofline\" column)
  --compare A B      compare two results files (two runs of this command): each configuration
                     agrees when each run's median lies in the other's min–max; fails otherwise
  --list             list the workloads and exit
  --help             this text";

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    pub backends: Vec<BackendChoice>,
    pub workloads: Vec<&'static Workload>,
    pub runs: usize,
    pub rounds: usize,
    pub max_seconds: f64,
    pub out: Option<PathBuf>,
    pub limits: bool,
    /// The peers script's JSON, to print beside Flex's rows.
    pub peers: Option<PathBuf>,
    /// Measure the peers in this run, beside Flex (`--live-peers`).
    pub live_peers: bool,
}

/// What the command line asks for.
pub enum Command {
    Run(Options),
    List,
    Help,
    /// Compare two results files.
    Compare(PathBuf, PathBuf),
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut options = Options {
        backends: BackendChoice::ALL.to_vec(),
        workloads: workloads::ALL.iter().collect(),
        runs: 10,
        rounds: 5,
        max_seconds: 20.0,
        out: None,
        limits: true,
        peers: None,
        live_peers: false,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        // `--name=value` and `--name value` both work.
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name.to_string(), Some(value.into())),
            _ => (arg.clone(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs {what}"))
        };
        match name.as_str() {
            "--help" | "-h" => return Ok(Command::Help),
            "--list" => return Ok(Command::List),
            "--compare" => {
                let first = value("two results files")?;
                let second = args
                    .next()
                    .ok_or_else(|| "--compare needs two results files".to_string())?;
                return Ok(Command::Compare(first.into(), second.into()));
            }
            "--no-limits" => options.limits = false,
            "--backend" => {
                options.backends = parse_backends(&value("flex, wgpu, cpu, cuda or all")?)?
            }
            "--workload" => options.workloads = parse_workloads(&value("a list such as W1,W2")?)?,
            "--runs" => {
                let runs = value("a number")?;
                options.runs = runs
                    .parse()
                    .ok()
                    .filter(|&n| n >= 3)
                    .ok_or_else(|| format!("--runs {runs}: expected a whole number >= 3"))?;
            }
            "--rounds" => {
                let rounds = value("a number")?;
                options.rounds =
                    rounds.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        format!("--rounds {rounds}: expected a whole number >= 1")
                    })?;
            }
            "--max-seconds" => {
                let secs = value("a number of seconds")?;
                options.max_seconds = secs
                    .parse()
                    .ok()
                    .filter(|&s: &f64| s > 0.0)
                    .ok_or_else(|| format!("--max-seconds {secs}: expected a positive number"))?;
            }
            "--out" => options.out = Some(PathBuf::from(value("a path")?)),
            "--peers" => options.peers = Some(PathBuf::from(value("a path")?)),
            "--live-peers" => options.live_peers = true,
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        }
    }
    Ok(Command::Run(options))
}

/// What `--backend` takes, for its errors.
const EXPECTED_BACKENDS: &str = "expected flex, wgpu, cpu, cuda or all";

fn parse_backends(list: &str) -> Result<Vec<BackendChoice>, String> {
    let mut chosen = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let more: Vec<BackendChoice> = if name.eq_ignore_ascii_case("all") {
            BackendChoice::ALL.to_vec()
        } else {
            vec![
                BackendChoice::from_name(name)
                    .ok_or_else(|| format!("--backend {name}: {EXPECTED_BACKENDS}"))?,
            ]
        };
        for backend in more {
            if !chosen.contains(&backend) {
                chosen.push(backend);
            }
        }
    }
    if chosen.is_empty() {
        return Err(format!("--backend: {EXPECTED_BACKENDS}"));
    }
    Ok(chosen)
}

fn parse_workloads(list: &str) -> Result<Vec<&'static Workload>, String> {
    let mut chosen: Vec<&'static Workload> = Vec::new();
    for id in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let workload = workloads::ALL
            .iter()
            .find(|w| w.id.eq_ignore_ascii_case(id))
            .ok_or_else(|| {
                let known: Vec<&str> = workloads::ALL.iter().map(|w| w.id).collect();
                format!(
                    "--workload {id}: unknown (implemented: {})",
                    known.join(", ")
                )
            })?;
        if !chosen.iter().any(|w| w.id == workload.id) {
            chosen.push(workload);
        }
    }
    if chosen.is_empty() {
        return Err("--workload: expected a list such as W1,W2".into());
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Options, String> {
        match parse(args.iter().map(|s| s.to_string()))? {
            Command::Run(options) => Ok(options),
            _ => Err("not a run".into()),
        }
    }

    #[test]
    fn defaults_run_everything() {
        let options = run(&[]).unwrap();
        assert_eq!(options.backends, BackendChoice::ALL.to_vec());
        assert_eq!(options.workloads.len(), workloads::ALL.len());
        assert_eq!(options.runs, 10);
        assert_eq!(options.rounds, 5);
    }

    #[test]
    fn lists_and_forms() {
        let options = run(&["--backend=flex", "--workload", "w2,W1,W2", "--runs", "5"]).unwrap();
        assert_eq!(options.backends, vec![BackendChoice::Flex]);
        let ids: Vec<&str> = options.workloads.iter().map(|w| w.id).collect();
        assert_eq!(ids, ["W2", "W1"]);
        assert_eq!(options.runs, 5);
        assert!(!options.live_peers);
        assert!(run(&["--live-peers"]).unwrap().live_peers);
        let options = run(&["--backend", "flex,CPU,all"]).unwrap();
        assert_eq!(
            options.backends,
            vec![BackendChoice::Flex, BackendChoice::Cpu, BackendChoice::Wgpu]
        );
        assert_eq!(
            run(&["--backend=cuda"]).unwrap().backends,
            vec![BackendChoice::Cuda]
        );
    }

    #[test]
    fn rejects_what_it_does_not_know() {
        assert!(run(&["--backend", "rocm"]).is_err());
        assert!(run(&["--workload", "W9"]).is_err());
        assert!(run(&["--runs", "2"]).is_err());
        assert!(run(&["--rounds", "0"]).is_err());
        assert_eq!(run(&["--rounds", "1"]).unwrap().rounds, 1);
        assert!(run(&["--frobnicate"]).is_err());
    }
}
