//! `cargo xtask gpu`: builds, on this machine, the bundle a CUDA check runs on a machine with an
//! NVIDIA GPU but no Rust toolchain, and dry-runs it here.
//!
//! The bundle (`target/gpu-bundle/burn-gpu-bundle.tar.xz`, under 64 MiB) holds the conformance
//! suite's test binary (autodiff suite included) built with `cuda`, the bench and digits built
//! with `cuda` in release mode, each stripped (an LLVM-linked binary is ~270 MB with its symbols),
//! the shared libraries they need beyond the C and C++ runtimes, `scripts/gpu/run.sh` (the steps
//! on the GPU) and `scripts/gpu/torch_w1.py` (PyTorch's W1 on the same GPU). The dry run checks
//! what can be checked without a GPU: the archive's size, each binary's shared-library needs
//! (`ldd`: none missing) and the newest glibc symbol it uses, and that each binary, asked for
//! CUDA on a machine without it, says so and stops cleanly.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What the device machines take in one transfer.
const MAX_BUNDLE_BYTES: u64 = 64 * 1024 * 1024;

/// Libraries every Linux machine with a GPU driver has: not copied into the bundle.
const SYSTEM_LIBRARIES: [&str; 9] = [
    "linux-vdso",
    "libc.so",
    "libm.so",
    "libdl.so",
    "librt.so",
    "libpthread.so",
    "libgcc_s.so",
    "libstdc++.so",
    "ld-linux",
];

/// Builds the bundle, checks it, and dry-runs its binaries here.
pub fn run() -> Result<(), String> {
    crate::llvm::install()?;
    let root = crate::repo_root();
    let suite = built_executables(&[
        "test",
        "-p",
        "burn-backend-tests",
        "--features",
        "cuda",
        "--test",
        "conformance",
        "--no-run",
    ])?;
    let release = built_executables(&[
        "build",
        "--release",
        "-p",
        "burn-bench",
        "-p",
        "digits",
        "--features",
        "burn-bench/cuda,digits/cuda",
        "--bin",
        "burn-bench",
        "--bin",
        "digits",
    ])?;
    let binaries = [
        ("conformance", find(&suite, "conformance")?),
        ("burn-bench", find(&release, "burn-bench")?),
        ("digits", find(&release, "digits")?),
    ];

    let out = root.join("target/gpu-bundle");
    let stage = out.join("stage");
    if stage.exists() {
        std::fs::remove_dir_all(&stage).map_err(|e| format!("cannot clear {stage:?}: {e}"))?;
    }
    for dir in ["bin", "lib"] {
        std::fs::create_dir_all(stage.join(dir))
            .map_err(|e| format!("cannot create {:?}: {e}", stage.join(dir)))?;
    }
    let mut libraries = Vec::new();
    for (name, path) in &binaries {
        let staged = stage.join("bin").join(name);
        run_tool(
            Command::new("strip")
                .arg("--strip-all")
                .arg(path)
                .arg("-o")
                .arg(&staged),
            "strip",
        )?;
        eprintln!(
            "gpu: {name}: {} -> {} stripped",
            mib(file_size(path)?),
            mib(file_size(&staged)?)
        );
        for library in needed_libraries(&staged)? {
            if !libraries.contains(&library) {
                libraries.push(library);
            }
        }
        eprintln!(
            "gpu: {name}: newest glibc symbol {}",
            newest_glibc(&staged)?
        );
    }
    for library in &libraries {
        let name = library.file_name().ok_or("a library path without a name")?;
        std::fs::copy(library, stage.join("lib").join(name))
            .map_err(|e| format!("cannot copy {library:?}: {e}"))?;
        eprintln!("gpu: bundled {}", library.display());
    }
    for file in ["run.sh", "torch_w1.py"] {
        std::fs::copy(root.join("scripts/gpu").join(file), stage.join(file))
            .map_err(|e| format!("cannot copy scripts/gpu/{file}: {e}"))?;
    }
    std::fs::write(stage.join("VERSION"), format!("{}\n", commit(&root)))
        .map_err(|e| format!("cannot write VERSION: {e}"))?;

    let archive = out.join("burn-gpu-bundle.tar.xz");
    // One xz stream with a dictionary larger than the three binaries together, so that the
    // LLVM each of them links is stored about once (80 MiB with xz -9's 64 MiB dictionary,
    // 45 MiB so); unpacking takes about as much memory as the dictionary.
    run_tool(
        Command::new("tar")
            .env("XZ_OPT", "-T1 --lzma2=preset=6,dict=512MiB")
            .arg("-cJf")
            .arg(&archive)
            .arg("-C")
            .arg(&stage)
            .arg("."),
        "tar",
    )?;
    let size = file_size(&archive)?;
    eprintln!("gpu: {} ({})", archive.display(), mib(size));
    if size > MAX_BUNDLE_BYTES {
        return Err(format!(
            "the bundle is {}, over the {} a device machine takes",
            mib(size),
            mib(MAX_BUNDLE_BYTES)
        ));
    }
    dry_run(&stage)?;
    eprintln!(
        "gpu: ready. On a machine with an NVIDIA GPU: tar xJf burn-gpu-bundle.tar.xz -C DIR && \
         DIR/run.sh (results under DIR/results, or $OUT)"
    );
    Ok(())
}

/// Runs the staged binaries as `run.sh` would, on this machine without CUDA: each must stop
/// with a message that names the missing device, not crash.
fn dry_run(stage: &Path) -> Result<(), String> {
    let bin = stage.join("bin");
    let checks = [
        // Without BURN_REQUIRE_DEVICE the suite skips the whole run and passes.
        DryRun {
            name: "conformance",
            args: &["suite::float::matmul"],
            env: &[("BURN_TEST_DEVICE", "cuda-f32")],
            succeeds: true,
        },
        // With it (as run.sh sets it), the run fails, naming the device.
        DryRun {
            name: "conformance",
            args: &["suite::float::matmul"],
            env: &[
                ("BURN_TEST_DEVICE", "cuda-f32"),
                ("BURN_REQUIRE_DEVICE", "1"),
            ],
            succeeds: false,
        },
        DryRun {
            name: "burn-bench",
            args: &["--backend", "cuda", "--workload", "W1", "--no-limits"],
            env: &[],
            succeeds: false,
        },
        DryRun {
            name: "digits",
            args: &["--device", "cuda", "--epochs", "1"],
            env: &[],
            succeeds: false,
        },
    ];
    for DryRun {
        name,
        args,
        env,
        succeeds,
    } in checks
    {
        let output = Command::new(bin.join(name))
            .args(args)
            .envs(env.iter().copied())
            .env("LD_LIBRARY_PATH", stage.join("lib"))
            .current_dir(stage)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run the bundled {name}: {e}"))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let says_cuda = text.to_ascii_lowercase().contains("cuda");
        let crashed = output.status.code().is_none() || text.contains("SIGSEGV");
        let line = text
            .lines()
            .rfind(|l| l.to_ascii_lowercase().contains("cuda"))
            .unwrap_or("")
            .trim();
        let vars: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
        let label = format!("{}{name} {}", vars.concat(), args.join(" "));
        if crashed || output.status.success() != succeeds || !says_cuda {
            return Err(format!(
                "dry run `{label}`: expected {} with a message naming CUDA, got {} \
                 ({}):\n{text}",
                if succeeds {
                    "success"
                } else {
                    "a clean failure"
                },
                output.status,
                if says_cuda {
                    "names CUDA"
                } else {
                    "no word of CUDA"
                },
            ));
        }
        eprintln!("gpu: dry run `{label}`: {} — {line}", output.status);
    }
    Ok(())
}

/// One bundled binary run without a GPU, and whether it should exit successfully.
struct DryRun {
    name: &'static str,
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    succeeds: bool,
}

/// `cargo ARGS`: the executables it built, by target name.
fn built_executables(args: &[&str]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut executables = Vec::new();
    for text in crate::cargo_messages(args)?.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(text) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        if let (Some(name), Some(executable)) = (
            message["target"]["name"].as_str(),
            message["executable"].as_str(),
        ) {
            executables.push((name.to_string(), PathBuf::from(executable)));
        }
    }
    Ok(executables)
}

fn find(executables: &[(String, PathBuf)], name: &str) -> Result<PathBuf, String> {
    executables
        .iter()
        .find(|(target, _)| target == name)
        .map(|(_, path)| path.clone())
        .ok_or_else(|| format!("the build made no executable `{name}`"))
}

/// The shared libraries `binary` needs beyond the system's own (`SYSTEM_LIBRARIES`), as `ldd`
/// resolves them here. A library `ldd` cannot find is an error.
fn needed_libraries(binary: &Path) -> Result<Vec<PathBuf>, String> {
    let text = tool_output(Command::new("ldd").arg(binary), "ldd")?;
    let mut libraries = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.contains("not found") {
            return Err(format!("{}: ldd: {line}", binary.display()));
        }
        let name = line.split_whitespace().next().unwrap_or("");
        if SYSTEM_LIBRARIES.iter().any(|s| name.starts_with(s)) {
            continue;
        }
        if let Some(path) = line.split("=> ").nth(1).and_then(|r| r.split(' ').next()) {
            libraries.push(PathBuf::from(path));
        }
    }
    Ok(libraries)
}

/// The newest `GLIBC_x.y` symbol version `binary` imports: the oldest glibc it runs with.
fn newest_glibc(binary: &Path) -> Result<String, String> {
    let text = tool_output(Command::new("objdump").arg("-T").arg(binary), "objdump")?;
    let mut versions: Vec<Vec<u32>> = text
        .split_whitespace()
        .filter_map(|word| word.trim_start_matches('(').strip_prefix("GLIBC_"))
        .map(|v| v.trim_end_matches(')'))
        .map(|v| v.split('.').filter_map(|n| n.parse().ok()).collect())
        .collect();
    versions.sort();
    Ok(versions.last().map_or_else(
        || "none".into(),
        |v| {
            let parts: Vec<String> = v.iter().map(u32::to_string).collect();
            format!("GLIBC_{}", parts.join("."))
        },
    ))
}

fn commit(root: &Path) -> String {
    Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "unknown commit".into(),
            |o| String::from_utf8_lossy(&o.stdout).trim().to_string(),
        )
}

fn run_tool(command: &mut Command, name: &str) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {name}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{name} failed ({status})"))
    }
}

fn tool_output(command: &mut Command, name: &str) -> Result<String, String> {
    let output = command
        .output()
        .map_err(|e| format!("cannot run {name}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{name} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn file_size(path: &Path) -> Result<u64, String> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| format!("cannot stat {}: {e}", path.display()))
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

#[cfg(test)]
mod tests {
    use super::SYSTEM_LIBRARIES;

    #[test]
    fn the_c_runtime_is_not_bundled() {
        for name in ["libc.so.6", "libstdc++.so.6", "ld-linux-x86-64.so.2"] {
            assert!(
                SYSTEM_LIBRARIES.iter().any(|s| name.starts_with(s)),
                "{name}"
            );
        }
        assert!(
            !SYSTEM_LIBRARIES
                .iter()
                .any(|s| "libzstd.so.1".starts_with(s))
        );
    }
}
