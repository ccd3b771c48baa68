//! Our Burn-dialect programs compiled against the published Burn: the tests of
//! `crates/burn/tests` and the `digits` and `custom-op` examples are copied into a scratch
//! workspace (`<target>/api/published`) whose `burn` is `=0.23.0-pre.1` from crates.io, and
//! checked there (`cargo check`, no run). A program that compiles against both Burn and our
//! crates is written in Burn 0.23's dialect, not ours.

use super::{SPEC_VERSION, pin_systemstat, run_command, write_if_changed};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The published Burn's features each program is checked with (our crates' defaults have
/// no counterpart there: Flex is a feature of Burn).
const TEST_FEATURES: &str = r#""flex", "extension""#;
const DIGITS_FEATURES: &str = r#""flex", "train""#;
const CUSTOM_OP_FEATURES: &str = r#""flex", "extension""#;

/// One program checked against the published Burn.
struct Program {
    /// Where its sources are copied from, relative to the repository.
    source: &'static str,
    /// The name it is reported under (a test file's stem, or the example's package).
    name: String,
}

/// Writes the scratch workspace, checks it, and prints which programs compile.
pub fn run(work: &Path, root: &Path) -> Result<(), String> {
    let dir = work.join("published");
    let tests = dir.join("burn-tests");
    std::fs::create_dir_all(tests.join("tests"))
        .and_then(|_| std::fs::create_dir_all(tests.join("src")))
        .map_err(|e| format!("creating {}: {e}", tests.display()))?;
    write_if_changed(
        &dir.join("Cargo.toml"),
        "[workspace]\nmembers = [\"burn-tests\", \"digits\", \"custom-op\"]\nresolver = \"3\"\n",
    )?;
    write_if_changed(
        &tests.join("Cargo.toml"),
        &manifest("burn-tests", TEST_FEATURES, ""),
    )?;
    write_if_changed(&tests.join("src/lib.rs"), "")?;
    let mut programs = Vec::new();
    for entry in read_dir(&root.join("crates/burn/tests"))? {
        if entry.extension().is_some_and(|e| e == "rs") {
            let file = entry.file_name().expect("a file").to_owned();
            copy(&entry, &tests.join("tests").join(&file))?;
            programs.push(Program {
                source: "crates/burn/tests",
                name: file.to_string_lossy().trim_end_matches(".rs").to_string(),
            });
        }
    }
    for (name, features, extra) in [
        ("digits", DIGITS_FEATURES, "flate2 = \"1\"\n"),
        ("custom-op", CUSTOM_OP_FEATURES, ""),
    ] {
        let to = dir.join(name);
        copy_tree(
            &root.join("examples").join(name).join("src"),
            &to.join("src"),
        )?;
        let data = root.join("examples").join(name).join("data");
        if data.exists() {
            copy_tree(&data, &to.join("data"))?;
        }
        write_if_changed(&to.join("Cargo.toml"), &manifest(name, features, extra))?;
        programs.push(Program {
            source: "examples",
            name: name.to_string(),
        });
    }

    pin_systemstat(&dir)?;
    println!("\n==> cargo check (our programs against the published burn {SPEC_VERSION})");
    let errors = check(&dir, &work.join("published-target"))?;
    println!(
        "\nOur Burn-dialect programs, compiled against the published burn = \"={SPEC_VERSION}\":\n"
    );
    println!("| program                                  | compiles | first error");
    println!("|------------------------------------------|----------|------------");
    let mut compiling = 0;
    for program in &programs {
        let label = format!("{}/{}", program.source, program.name);
        match errors.get(&program.name) {
            None => {
                compiling += 1;
                println!("| {label:<40} | yes      |");
            }
            Some(error) => println!("| {label:<40} | no       | {error}"),
        }
    }
    println!(
        "| all                                      | {compiling}/{}      |",
        programs.len()
    );
    Ok(())
}

/// The manifest of a scratch package over the published Burn.
fn manifest(name: &str, features: &str, extra: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nburn = {{ version = \"={SPEC_VERSION}\", features = [{features}] }}\n{extra}"
    )
}

/// `cargo check --all-targets` in `dir`; the first error of each target that fails, keyed by
/// the target's name (a test file's stem, or the package of an example).
fn check(dir: &Path, target: &Path) -> Result<BTreeMap<String, String>, String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "check",
            "--workspace",
            "--all-targets",
            "--keep-going",
            "--message-format=json",
        ])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cargo check in {}: {e}", dir.display()))?;
    let mut errors = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-message" || message["message"]["level"] != "error" {
            continue;
        }
        let name = match message["target"]["kind"][0].as_str() {
            Some("test") => message["target"]["name"].as_str(),
            _ => message["package_id"]
                .as_str()
                .and_then(|id| ["digits", "custom-op"].into_iter().find(|p| id.contains(p))),
        };
        let Some(name) = name else { continue };
        let text = message["message"]["message"].as_str().unwrap_or("?");
        errors
            .entry(name.to_string())
            .or_insert_with(|| text.lines().next().unwrap_or("?").to_string());
    }
    if !output.status.success() && errors.is_empty() {
        // A failure no target explains (the registry, the lock file): show cargo's own words.
        run_command(
            Command::new(env!("CARGO"))
                .args(["check", "--workspace", "--all-targets"])
                .env("CARGO_TARGET_DIR", target)
                .current_dir(dir),
        )?;
    }
    Ok(errors)
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("reading {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    Ok(entries)
}

/// Copies `from` to `to` unless `to` holds the same bytes (so cargo sees no change).
fn copy(from: &Path, to: &Path) -> Result<(), String> {
    let bytes = std::fs::read(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    if std::fs::read(to).ok().as_deref() != Some(&bytes[..]) {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("creating {}: {e}", parent.display()))?;
        }
        std::fs::write(to, bytes).map_err(|e| format!("writing {}: {e}", to.display()))?;
    }
    Ok(())
}

/// Copies the files under `from` to `to`, recursively.
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    for entry in read_dir(from)? {
        let target = to.join(entry.file_name().expect("a file"));
        if entry.is_dir() {
            copy_tree(&entry, &target)?;
        } else {
            copy(&entry, &target)?;
        }
    }
    Ok(())
}
