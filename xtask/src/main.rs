//! `cargo xtask <task>`: the one local gate, mirroring CI, cheapest checks first.
//!
//! - `check`: rustfmt, clippy with `-D warnings`, the feature combinations that must build, and
//!   ROCm compile-checked against Debian's LLVM 22 (`llvm_rocm.rs`).
//! - `test`:  the workspace tests (unit, doc, book) and the conformance suite on every backend
//!   available on this machine, built once per feature set (`test.rs`), each test binary then
//!   run under a time limit so a hung backend fails loudly instead of stalling.
//! - `ci`:    `check` then `test`.
//! - `bench`: the benchmark (`crates/burn-bench`) in release mode; its options pass through
//!   (`--backend flex|wgpu|cpu|cuda|all`, `--workload W1,W2,...`, `--out PATH`, `--help`). A
//!   backend's feature is built only when it is asked for (the default, `all`, asks for wgpu);
//!   `cpu` and `cuda` install the LLVM SDK first.
//!   `bench --peers` first makes the peers' virtual environment (`benches/peers/run.sh
//!   --install-only`: NumPy, PyTorch, JAX), then measures them in the same run as Flex, each
//!   round of a case beside Flex's (`--live-peers`), and prints Flex beside them as ratios.
//!   `bench --compare A.json B.json` checks that two runs agree (each median within the other's
//!   min–max).
//!   `bench --fusion` runs the fusion report instead (`crates/burn-bench/src/bin/fusion.rs`:
//!   W2 launches and time with and without fusion, the plan-cache hit rate of a training step).
//! - `llvm`:  installs the LLVM SDK that CubeCL's `cpu`, `cuda` and `rocm` runtimes build
//!   against (`llvm.rs`); the tasks that build those features run it first.
//! - `api`:   the public API against Burn 0.23.0-pre.1's, per facade module, and Burn's doc
//!   examples compiled and run against our crates (`api/`, `xtask/README.md`).
//! - `gpu`:   builds the CUDA check's bundle (`gpu.rs`: the suite, the bench and digits with
//!   `cuda`, stripped and packed under 64 MiB with `scripts/gpu/run.sh`) for a machine with an
//!   NVIDIA GPU and no Rust, and dry-runs it here.

mod api;
mod gpu;
mod llvm;
mod llvm_rocm;
mod test;

use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let result = match task.as_str() {
        "check" => check(),
        "test" => test::run(),
        "ci" => check().and_then(|()| test::run()),
        "bench" => bench(&std::env::args().skip(2).collect::<Vec<_>>()),
        "llvm" => llvm::install(),
        "gpu" => gpu::run(),
        "api" => api::run(&std::env::args().skip(2).collect::<Vec<_>>()),
        _ => {
            eprintln!("usage: cargo xtask <check|test|ci|llvm|gpu|api|bench [options]>");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask {task}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `cargo` with `args`, failing with the command line when it fails.
fn cargo(args: &[&str]) -> Result<(), String> {
    cargo_with_env(args, &[], None)
}

/// Runs `cargo` with `args` and extra environment variables, under an optional time limit.
fn cargo_with_env(
    args: &[&str],
    env: &[(&str, &str)],
    timeout: Option<Duration>,
) -> Result<(), String> {
    let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    let line = format!("{}cargo {}", vars.concat(), args.join(" "));
    let mut command = Command::new(env!("CARGO"));
    command.args(args).envs(env.iter().copied());
    run_with_limit(command, &line, timeout)
}

/// Runs `cargo ARGS --message-format=json-render-diagnostics` (diagnostics on stderr, printed
/// with its time) and returns its JSON messages (stdout), failing when cargo does.
fn cargo_messages(args: &[&str]) -> Result<String, String> {
    let mut all = args.to_vec();
    all.push("--message-format=json-render-diagnostics");
    let line = format!("cargo {}", all.join(" "));
    eprintln!("==> {line}");
    let start = Instant::now();
    let output = Command::new(env!("CARGO"))
        .args(&all)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start `{line}`: {e}"))?;
    eprintln!("    ({:.1}s)", start.elapsed().as_secs_f64());
    if !output.status.success() {
        return Err(format!("`{line}` failed ({})", output.status));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs `command` (printed as `line`), killing it once it has run past `timeout`.
fn run_with_limit(
    mut command: Command,
    line: &str,
    timeout: Option<Duration>,
) -> Result<(), String> {
    eprintln!("==> {line}");
    let start = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start `{line}`: {e}"))?;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if let Some(limit) = timeout.filter(|limit| start.elapsed() > *limit) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("`{line}` ran past {limit:?} and was killed"));
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    eprintln!("    ({:.1}s)", start.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// The features of the workspace lint with the CubeCL backend on WGPU (Vulkan) compiled in
/// beside Flex: every member's Cube code.
const CUBE_FEATURES: &str =
    "burn/vulkan,burn-backend-tests/wgpu,custom-op/wgpu,burn-bench/wgpu,digits/wgpu";

/// CubeCL's runtimes that link LLVM, for the suite, the bench and digits (`cargo xtask llvm`
/// first).
const LLVM_FEATURES: &str = "burn-backend-tests/cuda,burn-backend-tests/cpu,burn-bench/cuda,\
                             burn-bench/cpu,digits/cuda,digits/cpu";

/// The same with `Cube` = `Fusion<CubeBackend>`.
const FUSION_FEATURES: &str = "burn/fusion,burn-backend-tests/wgpu,burn-backend-tests/fusion,custom-op/fusion,burn-bench/fusion,digits/wgpu";

/// rustfmt, clippy with `-D warnings`, and the feature combinations that must build. Each
/// distinct feature set re-checks the crates whose dependencies' features it changes, so the
/// two lints select the whole workspace (only the crates above `burn-cubecl` differ between
/// them) and the combinations are as few as cover the features users pick.
fn check() -> Result<(), String> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    for features in [CUBE_FEATURES, FUSION_FEATURES] {
        cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--features",
            features,
            "--",
            "-D",
            "warnings",
        ])?;
    }
    // Flex alone, as a user without accelerators builds it (default features: Flex and
    // autodiff), linted: the code only a build without Cube compiles; then without autodiff.
    cargo(&["clippy", "-p", "burn", "--", "-D", "warnings"])?;
    cargo(&[
        "check",
        "-p",
        "burn",
        "--no-default-features",
        "--features",
        "flex",
    ])?;
    // The CubeCL backend on WGPU without the Vulkan/SPIR-V compiler (WGSL only) and without
    // Flex, plain and with fusion.
    for features in ["wgpu,autodiff", "fusion,wgpu,autodiff"] {
        cargo(&[
            "check",
            "-p",
            "burn",
            "--no-default-features",
            "--features",
            features,
        ])?;
    }
    // CubeCL's LLVM-linked runtimes (after `cargo xtask llvm`): the suite, the bench and digits
    // with CUDA and the CPU runtime, linted (nothing is linked: no GPU or CUDA toolkit is needed).
    llvm::install()?;
    cargo(&[
        "clippy",
        "-p",
        "burn-backend-tests",
        "-p",
        "burn-bench",
        "-p",
        "digits",
        "--all-targets",
        "--features",
        LLVM_FEATURES,
        "--",
        "-D",
        "warnings",
    ])?;
    rocm_check()
}

/// ROCm compile-checked: the suite with `rocm` against Debian's LLVM 22 (`llvm_rocm.rs`: the
/// PyPI SDK lacks the lld that cubecl's AMDGPU code needs), in a target folder of its own
/// (`rocm-llvm22` inside the usual one), since one cubecl-llvm build cannot serve two LLVMs.
fn rocm_check() -> Result<(), String> {
    let data = llvm_rocm::install()?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
        .join("rocm-llvm22");
    let (data, target) = (data.to_string_lossy(), target.to_string_lossy());
    cargo_with_env(
        &[
            "check",
            "-p",
            "burn-backend-tests",
            "--tests",
            "--features",
            "burn-backend-tests/rocm",
        ],
        &[("XDG_DATA_HOME", &data), ("CARGO_TARGET_DIR", &target)],
        None,
    )
}

/// `cargo run --release -p burn-bench [--features wgpu] -- <args>`: the feature only when the
/// backends asked for include WGPU (`--backend wgpu`, `all`, or no `--backend`: every one).
fn bench(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--fusion") {
        return cargo(&[
            "run",
            "--release",
            "-p",
            "burn-bench",
            "--features",
            "fusion",
            "--bin",
            "fusion",
        ]);
    }
    // `--peers`: the NumPy / PyTorch / JAX environment first (the script makes it), then the
    // peers measured beside this project in one run.
    let peers = args.iter().any(|a| a == "--peers");
    let args: Vec<String> = args.iter().filter(|a| *a != "--peers").cloned().collect();
    let args = &args[..];
    if peers {
        let status = Command::new("bash")
            .arg(repo_root().join("benches/peers/run.sh"))
            .arg("--install-only")
            .status()
            .map_err(|err| format!("cannot run benches/peers/run.sh: {err}"))?;
        if !status.success() {
            return Err(format!("benches/peers/run.sh failed ({status})"));
        }
    }
    let features = bench_features(args);
    if features.iter().any(|f| LLVM_RUNTIMES.contains(f)) {
        llvm::install()?;
    }
    let features = features.join(",");
    let mut command = vec!["run", "--release", "-p", "burn-bench"];
    if !features.is_empty() {
        command.extend(["--features", &features]);
    }
    command.push("--");
    command.extend(args.iter().map(String::as_str));
    if peers {
        command.push("--live-peers");
    }
    cargo(&command)
}

/// The bench's backends that link LLVM (CubeCL's CPU runtime, CUDA): `cargo xtask llvm` first.
const LLVM_RUNTIMES: [&str; 2] = ["cpu", "cuda"];

/// The bench's features the `--backend` list (default `all`: flex and wgpu) needs: one per
/// backend named other than `flex`.
fn bench_features(args: &[String]) -> Vec<&'static str> {
    if args.iter().any(|a| a == "--compare") {
        return Vec::new();
    }
    let mut list = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--backend" {
            list = args.next().cloned();
        } else if let Some(value) = arg.strip_prefix("--backend=") {
            list = Some(value.to_string());
        }
    }
    let list = list.unwrap_or_else(|| "all".into()).to_ascii_lowercase();
    let named: Vec<&str> = list.split(',').map(str::trim).collect();
    let mut features = Vec::new();
    for feature in ["wgpu", "cpu", "cuda"] {
        if named.contains(&feature) || (feature == "wgpu" && named.contains(&"all")) {
            features.push(feature);
        }
    }
    features
}

/// The repository's root folder, read at run time: `cargo xtask` sets `CARGO_MANIFEST_DIR` to
/// xtask's folder of the checkout it runs in (a binary reused from a shared target folder may
/// have been built in another checkout, so the compile-time value is only the fallback).
pub fn repo_root() -> std::path::PathBuf {
    let xtask = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    xtask
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or(xtask)
}

#[cfg(test)]
mod tests {
    use super::bench_features;

    fn features(args: &[&str]) -> Vec<&'static str> {
        bench_features(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn bench_builds_the_features_of_the_backends_asked_for() {
        assert_eq!(features(&[]), ["wgpu"]);
        assert_eq!(features(&["--backend", "all"]), ["wgpu"]);
        assert_eq!(features(&["--backend=flex,wgpu"]), ["wgpu"]);
        assert!(features(&["--backend", "flex", "--workload", "W1"]).is_empty());
        assert!(features(&["--backend=flex"]).is_empty());
        assert_eq!(features(&["--backend", "flex,CPU"]), ["cpu"]);
        assert_eq!(features(&["--backend", "cuda,all"]), ["wgpu", "cuda"]);
        assert!(features(&["--compare", "a.json", "b.json"]).is_empty());
    }
}
