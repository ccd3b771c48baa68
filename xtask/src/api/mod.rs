//! `cargo xtask api`: the public API of our `burn` facade against Burn 0.23.0-pre.1's, the
//! specification (see `README.md` beside this file for how it counts and what it cannot see).
//!
//! 1. A scratch crate outside the repository (`<target>/api/spec-crate`) depends on the
//!    published `burn = "=0.23.0-pre.1"`; `cargo doc` writes rustdoc JSON for it and the crates
//!    it re-exports, and the same is done for ours (`rustdoc.rs`).
//! 2. Both facades are walked from their root into an inventory of public items with their
//!    normalized signatures (`inventory.rs`, `render.rs`), Cargo features added.
//! 3. The inventories are compared per facade module (`compare.rs`); every item that is missing
//!    or different must be named in `crates/burn/API_DIFFERENCES.md`, else the task fails.
//! 4. The doc examples of Burn's items are compiled and run against our crates (`examples.rs`).
//! 5. Our tests of `crates/burn/tests` and the digits and custom-op examples are compiled
//!    against the published Burn (`published.rs`).

mod compare;
mod examples;
mod inventory;
mod published;
mod render;
mod rustdoc;

use compare::Status;
use inventory::{Entry, Inventory};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The published release that is the specification.
pub const SPEC_VERSION: &str = "0.23.0-pre.1";

/// The features the specification is read with (every module of the facade present).
const SPEC_FEATURES: &[&str] = &[
    "train",
    "store",
    "pytorch",
    "dataset",
    "sqlite",
    "vision",
    "extension",
    "flex",
];

/// Burn's crates whose items the facade re-exports (rustdoc JSON is generated for each).
const SPEC_CRATES: &[&str] = &[
    "burn",
    "burn-core",
    "burn-tensor",
    "burn-nn",
    "burn-optim",
    "burn-train",
    "burn-store",
    "burn-dataset",
    "burn-backend",
    "burn-std",
    "burn-dispatch",
    "burn-derive",
    "burn-autodiff",
    "burn-backend-extension",
    "cubecl-zspace",
    "cubecl-common",
];

/// Ours (the same roles; `burn-data` is our `burn-dataset`).
const OUR_CRATES: &[&str] = &[
    "burn",
    "burn-core",
    "burn-tensor",
    "burn-nn",
    "burn-optim",
    "burn-train",
    "burn-store",
    "burn-data",
    "burn-backend",
    "burn-std",
    "burn-dispatch",
    "burn-derive",
    "burn-autodiff",
    "burn-backend-extension",
];

/// Runs the inventory. `--report PATH` writes the full list elsewhere than
/// `<target>/api/report.md`; `--no-examples` skips the doc examples, `--no-published` the
/// check of our programs against the published Burn.
pub fn run(args: &[String]) -> Result<(), String> {
    let root = repo_root();
    let work = target_dir().join("api");
    let report_path = option(args, "--report")
        .map(PathBuf::from)
        .unwrap_or_else(|| work.join("report.md"));

    let spec_crate = prepare_spec_crate(&work)?;
    let spec_doc = rustdoc_json(
        &spec_crate,
        &work.join("spec-target"),
        SPEC_CRATES,
        &[],
        None,
    )?;
    let our_features: Vec<&str> = SPEC_FEATURES
        .iter()
        .copied()
        .filter(|f| features_of(&root, "burn", None).is_ok_and(|all| all.iter().any(|a| a == f)))
        .collect();
    let our_doc = rustdoc_json(
        &root,
        &work.join("ours-target"),
        OUR_CRATES,
        &our_features,
        Some("burn"),
    )?;

    let (mut spec, aliases) = inventory::collect(&rustdoc::Docs::load(&spec_doc)?, "burn", false)?;
    let (mut ours, _) = inventory::collect(&rustdoc::Docs::load(&our_doc)?, "burn", true)?;
    add_features(
        &mut spec,
        &features_of(&spec_crate, "burn", Some(SPEC_VERSION))?,
    );
    add_features(&mut ours, &features_of(&root, "burn", None)?);

    let differences = root.join("crates/burn/API_DIFFERENCES.md");
    let listed = compare::backticked(&std::fs::read_to_string(&differences).unwrap_or_default());
    let rows = compare::compare(&spec, &aliases, &ours, &listed);
    std::fs::write(&report_path, compare::report(&rows))
        .map_err(|e| format!("writing {}: {e}", report_path.display()))?;
    println!(
        "\nBurn {SPEC_VERSION}'s public items, and how many exist here at the same path with the same signature:\n"
    );
    println!("{}", compare::table(&rows));
    println!(
        "Every item that differs or is missing, with both signatures: {}",
        report_path.display()
    );

    if !args.iter().any(|a| a == "--no-examples") {
        examples::run(&rows, &work, &root)?;
    }
    if !args.iter().any(|a| a == "--no-published") {
        published::run(&work, &root)?;
    }

    let unlisted = rows
        .iter()
        .filter(|r| r.status != Status::Same && !r.listed)
        .count();
    if unlisted > 0 {
        return Err(format!(
            "{unlisted} of Burn's items are missing or different here and not listed in {}",
            differences.display()
        ));
    }
    Ok(())
}

/// The repository's root folder.
fn repo_root() -> PathBuf {
    crate::repo_root()
}

/// `CARGO_TARGET_DIR`, or the repository's `target`.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
}

/// The value after `name` in `args`.
fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// Writes the scratch crate that depends on the published Burn (once) and returns its folder.
/// Its lock file holds `systemstat` at 0.2.7: 0.2.8 made a type `!Sync`, and burn-train
/// 0.23.0-pre.1's `CpuTemperature` metric no longer compiles with it.
fn prepare_spec_crate(work: &Path) -> Result<PathBuf, String> {
    let dir = work.join("spec-crate");
    std::fs::create_dir_all(dir.join("src"))
        .map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let features: Vec<String> = SPEC_FEATURES.iter().map(|f| format!("\"{f}\"")).collect();
    let manifest = format!(
        "[package]\nname = \"burn-spec\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nburn = {{ version = \"={SPEC_VERSION}\", features = [{}] }}\n\n[workspace]\n",
        features.join(", ")
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    write_if_changed(&dir.join("src/main.rs"), "fn main() {}\n")?;
    pin_systemstat(&dir)?;
    Ok(dir)
}

/// Gives the scratch workspace at `dir` a lock file holding `systemstat` at 0.2.7 (see
/// [`prepare_spec_crate`]), unless it has one already.
fn pin_systemstat(dir: &Path) -> Result<(), String> {
    let lock = std::fs::read_to_string(dir.join("Cargo.lock")).unwrap_or_default();
    if lock.contains("name = \"systemstat\"\nversion = \"0.2.7\"") {
        return Ok(());
    }
    run_command(
        Command::new(env!("CARGO"))
            .arg("generate-lockfile")
            .current_dir(dir),
    )?;
    run_command(
        Command::new(env!("CARGO"))
            .args(["update", "-p", "systemstat", "--precise", "0.2.7"])
            .current_dir(dir),
    )
}

/// Writes `text` to `path` unless it already holds it (so cargo sees no change).
fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(())
}

/// `cargo doc --no-deps` with rustdoc's JSON output for `crates`, run in `dir`; returns the
/// folder of the JSON files. Stable rustdoc writes JSON under `RUSTC_BOOTSTRAP=1`.
fn rustdoc_json(
    dir: &Path,
    target: &Path,
    crates: &[&str],
    features: &[&str],
    facade: Option<&str>,
) -> Result<PathBuf, String> {
    let mut command = Command::new(env!("CARGO"));
    command.arg("doc").arg("--no-deps").current_dir(dir);
    for c in crates {
        command.args(["-p", c]);
    }
    if let Some(facade) = facade.filter(|_| !features.is_empty()) {
        let list: Vec<String> = features.iter().map(|f| format!("{facade}/{f}")).collect();
        command.args(["--features", &list.join(",")]);
    }
    command
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
        .env("CARGO_TARGET_DIR", target);
    run_command(&mut command)?;
    Ok(target.join("doc"))
}

/// The Cargo features of package `name` (of `version` if given) in the workspace at `dir`.
fn features_of(dir: &Path, name: &str, version: Option<&str>) -> Result<Vec<String>, String> {
    let mut command = Command::new(env!("CARGO"));
    command
        .args(["metadata", "--format-version", "1"])
        .current_dir(dir);
    if version.is_none() {
        command.arg("--no-deps");
    }
    let output = command
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata in {} failed: {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let json: Value = serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    let package = render::list(&json["packages"])
        .iter()
        .find(|p| p["name"] == name && version.is_none_or(|v| p["version"] == v))
        .ok_or_else(|| format!("no package `{name}` in {}", dir.display()))?;
    Ok(package["features"]
        .as_object()
        .map(|f| f.keys().cloned().collect())
        .unwrap_or_default())
}

/// Adds the facade's Cargo features to an inventory, as `burn[feature]`.
fn add_features(inventory: &mut Inventory, features: &[String]) {
    for f in features.iter().filter(|f| !f.starts_with("dep:")) {
        let entry = Entry {
            kind: "feature".into(),
            sig: "feature".into(),
            docs: String::new(),
        };
        inventory.insert(format!("burn[{f}]"), entry);
    }
}

/// Runs a command to completion, failing with its line when it fails.
fn run_command(command: &mut Command) -> Result<(), String> {
    let line = format!("{command:?}");
    eprintln!("==> {line}");
    let status = command
        .status()
        .map_err(|e| format!("cannot start {line}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{line} failed ({status})"))
    }
}
