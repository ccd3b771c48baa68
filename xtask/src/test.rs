//! `cargo xtask test`: every test target built once per feature set, then run.
//!
//! Cargo unifies features over the packages an invocation selects, so two invocations that
//! select differently build the whole stack twice (and burn-flex alone is minutes of codegen).
//! Each [`Group`] therefore uses one selection for its build and its runs: the build is
//! `cargo test --no-run` with no time limit (compiling is slow, never hung); the plain
//! `cargo test` after it (every binary and the doc tests) and each extra run of a binary (the
//! conformance suite on each device) are under a time limit, so a hung backend (WGPU) fails
//! loudly instead of stalling.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::{cargo_with_env, run_with_limit};

/// How long one extra run of a test binary may take before it counts as hung.
const TEST_BINARY_TIMEOUT: Duration = Duration::from_secs(20 * 60);

/// How long a group's plain `cargo test` (every test binary and the doc tests, already built
/// but for the doc tests) may take before it counts as hung.
const GROUP_TIMEOUT: Duration = Duration::from_secs(40 * 60);

/// One run of a test binary, with environment variables and test-name filters.
struct Run {
    /// The package's directory name and the test target's name.
    package: &'static str,
    target: &'static str,
    env: &'static [(&'static str, &'static str)],
    /// Test-name filters (any matching test runs); none: every test.
    filters: &'static [&'static str],
}

/// One build of test targets and the runs of what it built.
struct Group {
    /// What the group checks, for the log.
    name: &'static str,
    /// Package selection and features, the same for the build, the runs and the doc tests.
    selection: &'static [&'static str],
    /// Whether every test binary of the selection and the doc tests run once plainly
    /// (`cargo test`) before the extra runs.
    plain: bool,
    /// Whether the build links LLVM (CubeCL's `cpu`, `cuda`, `rocm`): `cargo xtask llvm` first.
    llvm: bool,
    /// Test binaries run again (after the plain run, if any).
    runs: &'static [Run],
}

/// A run of the conformance binary on the device `BURN_TEST_DEVICE` names in `env`.
const fn conformance(
    env: &'static [(&'static str, &'static str)],
    filters: &'static [&'static str],
) -> Run {
    Run {
        package: "burn-backend-tests",
        target: "conformance",
        env,
        filters,
    }
}

impl Run {
    /// The run in the log: its target and environment (`conformance BURN_TEST_DEVICE=cpu-f32`).
    fn label(&self) -> String {
        let vars: Vec<String> = self.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{} {}", self.target, vars.join(" "))
    }
}

/// The float part of the suite: what the half-precision runs take.
const FLOAT: &[&str] = &["suite::float::"];

/// A run whose device must open (CubeCL's CPU runtime exists on every machine): not skipped.
const REQUIRE_DEVICE: (&str, &str) = ("BURN_REQUIRE_DEVICE", "1");

/// The groups, in order. The first holds everything that builds with the CubeCL backend on
/// WGPU (Vulkan; lavapipe where there is no GPU) compiled in beside Flex: the unit, integration
/// and doc tests of every crate, the conformance and autodiff suites (one binary, run per
/// device and default float dtype), the backend-extension example on both backends. Flex stays
/// the default device, so the crates' own tests run on it as in a default build. The second
/// rebuilds only what changes with `Cube` = `Fusion<CubeBackend>` (feature `fusion`): the
/// suites on Cube, the fusion suite, the example and the book pages (the fusion page among
/// them). The last two link LLVM (CubeCL's CPU runtime) into their few binaries only: the
/// suites, and the example's test, on the CPU runtime; then the suites and the fusion suite with
/// fusion on it.
const GROUPS: &[Group] = &[
    Group {
        name: "workspace, Flex and Cube on WGPU",
        selection: &[
            "--workspace",
            "--features",
            "burn/vulkan,burn-backend-tests/wgpu,custom-op/wgpu",
        ],
        plain: true,
        llvm: false,
        runs: &[
            conformance(&[("BURN_TEST_DEVICE", "flex-f64")], &[]),
            conformance(
                &[("BURN_TEST_DEVICE", "flex-f16")],
                &["suite::float::", "suite::quantization::"],
            ),
            conformance(
                &[("BURN_TEST_DEVICE", "flex-bf16")],
                &["suite::float::", "suite::quantization::"],
            ),
            conformance(&[("BURN_TEST_DEVICE", "cube-f32")], &[]),
            conformance(&[("BURN_TEST_DEVICE", "cube-f16")], FLOAT),
            conformance(&[("BURN_TEST_DEVICE", "cube-f64")], FLOAT),
            // The CubeCL kernels again through the WGSL compiler on WGPU's GL backend, where
            // the machine has a GL driver (skipped, not failed, where it has none: CI requires
            // only Vulkan).
            Run {
                package: "burn-cubecl",
                target: "wgpu",
                env: &[("BURN_WGPU_TEST_API", "gl"), ("BURN_REQUIRE_WGPU", "0")],
                filters: &[],
            },
        ],
    },
    Group {
        name: "Cube = Fusion<CubeBackend>",
        selection: &[
            "-p",
            "burn-backend-tests",
            "-p",
            "custom-op",
            "-p",
            "burn",
            "--features",
            // `burn/train` as in the workspace build: it brings indicatif, whose features on
            // portable-atomic would otherwise differ and rebuild CubeCL.
            "burn/train,burn-backend-tests/wgpu,burn-backend-tests/fusion,custom-op/fusion",
        ],
        plain: true,
        llvm: false,
        runs: &[conformance(&[("BURN_TEST_DEVICE", "cube-f32")], &[])],
    },
    Group {
        name: "Cube on CubeCL's CPU runtime",
        selection: &[
            "-p",
            "burn-backend-tests",
            "-p",
            "custom-op",
            "--features",
            "burn-backend-tests/cpu,custom-op/cpu",
            "--test",
            "conformance",
            "--test",
            "fused",
        ],
        plain: false,
        llvm: true,
        runs: &[
            conformance(&[("BURN_TEST_DEVICE", "cpu-f32"), REQUIRE_DEVICE], &[]),
            conformance(&[("BURN_TEST_DEVICE", "cpu-f64"), REQUIRE_DEVICE], FLOAT),
            conformance(&[("BURN_TEST_DEVICE", "cpu-f16"), REQUIRE_DEVICE], FLOAT),
            conformance(&[("BURN_TEST_DEVICE", "cpu-bf16"), REQUIRE_DEVICE], FLOAT),
            // The backend extension's kernel against the composed ops, on Flex and the CPU
            // runtime.
            Run {
                package: "custom-op",
                target: "fused",
                env: &[],
                filters: &[],
            },
        ],
    },
    Group {
        name: "Cube = Fusion<CubeBackend> on CubeCL's CPU runtime",
        selection: &[
            "-p",
            "burn-backend-tests",
            "--features",
            "burn-backend-tests/cpu,burn-backend-tests/fusion",
            "--test",
            "conformance",
            "--test",
            "cube_fusion",
        ],
        plain: false,
        llvm: true,
        runs: &[
            conformance(&[("BURN_TEST_DEVICE", "cpu-f32"), REQUIRE_DEVICE], &[]),
            Run {
                package: "burn-backend-tests",
                target: "cube_fusion",
                env: &[("BURN_TEST_DEVICE", "cpu-f32"), REQUIRE_DEVICE],
                filters: &[],
            },
        ],
    },
];

/// Builds and runs every group: the build (`cargo test --no-run`, no time limit), then one
/// `cargo test` of the same selection under the limit (every test binary once, plainly, and
/// the doc tests: a separate `--doc` invocation resolved features differently and rebuilt the
/// whole stack), then the group's extra runs. A build
/// failure stops the run; a failing test run does not stop its group's other runs, and the
/// group ends with the list of what failed.
pub fn run() -> Result<(), String> {
    let skips = SkipLog::new();
    let result = run_groups(&skips);
    skips.print_summary();
    result
}

fn run_groups(skips: &SkipLog) -> Result<(), String> {
    let log = skips.path.to_string_lossy().into_owned();
    let log_env = [("BURN_TEST_SKIP_LOG", log.as_str())];
    for group in GROUPS {
        eprintln!("=== {}", group.name);
        // Without the LLVM SDK (no PyPI, no pip) the group cannot build: skipped, and said.
        // CI installs it first with `cargo xtask llvm`, where a failure is fatal.
        if group.llvm
            && let Err(err) = crate::llvm::install()
        {
            skips.add(
                group.name,
                &format!("skipped every run: no LLVM SDK ({err})"),
            );
            eprintln!("==> skipped: {} (no LLVM SDK: {err})", group.name);
            continue;
        }
        let binaries = build(group)?;
        let mut failures = Vec::new();
        if group.plain {
            let mut all: Vec<&str> = vec!["test"];
            all.extend(group.selection);
            all.push("--no-fail-fast");
            failures.extend(cargo_with_env(&all, &log_env, Some(GROUP_TIMEOUT)).err());
            skips.collect(&format!("{}: cargo test", group.name));
        }
        for run in group.runs {
            let binary = binaries
                .iter()
                .find(|b| b.package_dir.ends_with(run.package) && b.target == run.target)
                .ok_or_else(|| {
                    let (package, target) = (run.package, run.target);
                    format!("{}: no test binary {package}/{target}", group.name)
                })?;
            let mut env = run.env.to_vec();
            env.extend(log_env);
            failures.extend(run_binary(binary, &env, run.filters).err());
            skips.collect(&run.label());
        }
        if !failures.is_empty() {
            return Err(format!(
                "{}: {} failed:\n  {}",
                group.name,
                failures.len(),
                failures.join("\n  ")
            ));
        }
    }
    Ok(())
}

/// What the test runs skipped for want of a device capability: each test appends a line
/// `skipped <what>: <why>` to the file `BURN_TEST_SKIP_LOG` names (burn-backend-tests'
/// `skip`), read back after each run and summed up at the end.
struct SkipLog {
    path: PathBuf,
    /// Per run: its label and the lines it appended.
    runs: std::cell::RefCell<Vec<(String, Vec<String>)>>,
}

impl SkipLog {
    fn new() -> Self {
        let path =
            std::env::temp_dir().join(format!("burn-xtask-skips-{}.log", std::process::id()));
        let _ = std::fs::remove_file(&path);
        Self {
            path,
            runs: Default::default(),
        }
    }

    /// Files what was appended since the last call under `label`, and empties the log.
    fn collect(&self, label: &str) {
        let text = std::fs::read_to_string(&self.path).unwrap_or_default();
        let _ = std::fs::remove_file(&self.path);
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if !lines.is_empty() {
            self.runs.borrow_mut().push((label.to_string(), lines));
        }
    }

    /// Files one line under `label` directly (a whole group xtask itself could not run).
    fn add(&self, label: &str, line: &str) {
        self.runs
            .borrow_mut()
            .push((label.to_string(), vec![line.to_string()]));
    }

    /// Prints each run's skips: how many, and each distinct line once with its count.
    fn print_summary(&self) {
        let runs = self.runs.borrow();
        if runs.is_empty() {
            eprintln!("=== skipped: nothing");
            return;
        }
        eprintln!("=== skipped (a capability the device lacks):");
        for (label, lines) in runs.iter() {
            eprintln!("  {label}: {} skipped", lines.len());
            let mut distinct: Vec<(&String, usize)> = Vec::new();
            for line in lines {
                match distinct.iter_mut().find(|(l, _)| *l == line) {
                    Some((_, count)) => *count += 1,
                    None => distinct.push((line, 1)),
                }
            }
            for (line, count) in distinct {
                let times = if count > 1 {
                    format!(" (×{count})")
                } else {
                    String::new()
                };
                eprintln!("    {line}{times}");
            }
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A test executable cargo built, and where cargo would run it from.
struct TestBinary {
    /// `lib`, `bin`, `test`, ... and the target's name, for the log.
    kind: String,
    target: String,
    /// The package's directory: the working directory and `CARGO_MANIFEST_DIR` of the run.
    package_dir: PathBuf,
    executable: PathBuf,
}

/// `cargo test --no-run` for the group, returning the executables it built (fresh or not).
fn build(group: &Group) -> Result<Vec<TestBinary>, String> {
    let mut args: Vec<&str> = vec!["test"];
    args.extend(group.selection);
    args.push("--no-run");
    let binaries = test_binaries(&crate::cargo_messages(&args)?)?;
    if binaries.is_empty() {
        return Err(format!("`cargo {}` built no test binary", args.join(" ")));
    }
    Ok(binaries)
}

/// The test executables among cargo's JSON messages.
fn test_binaries(messages: &str) -> Result<Vec<TestBinary>, String> {
    let mut binaries = Vec::new();
    for line in messages.lines().filter(|l| l.starts_with('{')) {
        let message: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("cargo printed bad JSON ({e}): {line}"))?;
        if message["reason"] != "compiler-artifact" || message["profile"]["test"] != true {
            continue;
        }
        let Some(executable) = message["executable"].as_str() else {
            continue;
        };
        let manifest = message["manifest_path"]
            .as_str()
            .ok_or_else(|| format!("an artifact without manifest_path: {line}"))?;
        let text = |v: &serde_json::Value| v.as_str().unwrap_or("?").to_string();
        binaries.push(TestBinary {
            kind: text(&message["target"]["kind"][0]),
            target: text(&message["target"]["name"]),
            package_dir: Path::new(manifest)
                .parent()
                .ok_or_else(|| format!("a manifest path without a parent: {manifest}"))?
                .to_path_buf(),
            executable: PathBuf::from(executable),
        });
    }
    Ok(binaries)
}

/// Runs one test executable from its package's directory, as `cargo test` would.
fn run_binary(binary: &TestBinary, env: &[(&str, &str)], filters: &[&str]) -> Result<(), String> {
    let package = binary
        .package_dir
        .file_name()
        .map_or_else(|| "?".into(), |n| n.to_string_lossy());
    let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    let line = format!(
        "{}{package} {} {} {}({})",
        vars.concat(),
        binary.kind,
        binary.target,
        filters.iter().map(|f| format!("{f} ")).collect::<String>(),
        binary.executable.display()
    );
    let mut command = Command::new(&binary.executable);
    command
        .args(filters)
        .current_dir(&binary.package_dir)
        .env("CARGO", env!("CARGO"))
        .env("CARGO_MANIFEST_DIR", &binary.package_dir)
        .envs(env.iter().copied());
    run_with_limit(command, &line, Some(TEST_BINARY_TIMEOUT))
}

#[cfg(test)]
mod tests {
    use super::test_binaries;

    #[test]
    fn test_executables_are_read_from_cargo_messages() {
        let messages = concat!(
            "{\"reason\":\"compiler-artifact\",\"manifest_path\":\"/w/crates/a/Cargo.toml\",",
            "\"target\":{\"kind\":[\"test\"],\"name\":\"suite\"},\"profile\":{\"test\":true},",
            "\"executable\":\"/t/debug/deps/suite-1\",\"fresh\":true}\n",
            "{\"reason\":\"compiler-artifact\",\"manifest_path\":\"/w/crates/a/Cargo.toml\",",
            "\"target\":{\"kind\":[\"lib\"],\"name\":\"a\"},\"profile\":{\"test\":false},",
            "\"executable\":null,\"fresh\":true}\n",
            "{\"reason\":\"build-finished\",\"success\":true}\n",
        );
        let binaries = test_binaries(messages).unwrap();
        assert_eq!(binaries.len(), 1);
        assert_eq!(binaries[0].kind, "test");
        assert_eq!(binaries[0].target, "suite");
        assert_eq!(binaries[0].package_dir.to_str(), Some("/w/crates/a"));
        assert_eq!(
            binaries[0].executable.to_str(),
            Some("/t/debug/deps/suite-1")
        );
        assert!(test_binaries("{not json").is_err());
    }
}
