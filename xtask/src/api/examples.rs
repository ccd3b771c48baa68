//! Burn 0.23's doc examples compiled and run against our crates: the examples are programs
//! written for Burn by its authors, the truest parity test there is.
//!
//! Each Rust example of a documented item of Burn's facade becomes one module of a scratch
//! crate (`<target>/api/examples-crate`) that depends on our crates under their Burn names, the
//! way rustdoc builds a doctest: hidden `# ` lines kept, the body wrapped in a function unless
//! it defines `main`, returning a `Result` when it ends in `Ok(..)`. Modules that do not compile
//! are taken out one round at a time until the rest builds; each remaining example then runs in
//! its own process (`should_panic` must panic, `no_run` only compiles).

use super::compare::Row;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// How rustdoc treats an example.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Run,
    NoRun,
    ShouldPanic,
    Ignore,
    CompileFail,
}

/// One example: where it comes from and its code with the hidden lines restored.
struct Example {
    item: String,
    group: String,
    mode: Mode,
    code: String,
}

/// Our crates the examples may name, with the features that give Burn's default behaviour.
const DEPENDENCIES: &[(&str, &str)] = &[
    ("burn", "features = [\"train\"]"),
    ("burn-tensor", ""),
    ("burn-core", ""),
    ("burn-nn", ""),
    ("burn-optim", ""),
    ("burn-train", ""),
    ("burn-store", ""),
    ("burn-backend", ""),
    ("burn-std", ""),
    ("burn-dispatch", ""),
    ("burn-autodiff", ""),
];

/// Rounds of taking out the modules that fail before giving up.
const MAX_ROUNDS: usize = 8;

/// Extracts, builds and runs the examples; prints how many compile and pass per group.
pub fn run(rows: &[Row], work: &Path, root: &Path) -> Result<(), String> {
    let examples = extract(rows);
    let dir = work.join("examples-crate");
    let target = work.join("examples-target");
    let runnable: Vec<(usize, &Example)> = examples
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e.mode, Mode::Ignore | Mode::CompileFail))
        .collect();
    let mut included: Vec<usize> = runnable.iter().map(|(i, _)| *i).collect();
    let mut failures: BTreeMap<usize, String> = BTreeMap::new();
    write_crate(&dir, root, &examples, &included)?;
    for round in 1..=MAX_ROUNDS {
        let errors = build(&dir, &target, "check")?;
        if errors.is_empty() {
            break;
        }
        let before = included.len();
        for (index, message) in errors {
            failures.entry(index).or_insert(message);
        }
        included.retain(|i| !failures.contains_key(i));
        eprintln!(
            "    round {round}: {} examples taken out",
            before - included.len()
        );
        if included.len() == before || round == MAX_ROUNDS {
            return Err("the examples crate fails to compile outside any example's module".into());
        }
        write_crate(&dir, root, &examples, &included)?;
    }
    let errors = build(&dir, &target, "build")?;
    if !errors.is_empty() {
        return Err("the examples crate checks but does not build".into());
    }
    let binary = target.join("debug/burn-doc-examples");
    let mut outcome: BTreeMap<usize, Result<(), String>> = BTreeMap::new();
    for &i in &included {
        let result = match examples[i].mode {
            Mode::NoRun => Ok(()),
            mode => run_one(&binary, i, mode == Mode::ShouldPanic),
        };
        outcome.insert(i, result);
    }
    for (i, message) in &failures {
        outcome.insert(*i, Err(format!("does not compile: {message}")));
    }
    print_summary(&examples, &outcome);
    let report = work.join("examples.md");
    std::fs::write(&report, failure_report(&examples, &outcome))
        .map_err(|e| format!("writing {}: {e}", report.display()))?;
    println!(
        "Each example that fails, with the first error: {}",
        report.display()
    );
    Ok(())
}

/// The examples in the docs of Burn's items, each once (the same docs reach many paths).
fn extract(rows: &[Row]) -> Vec<Example> {
    let mut ordered: Vec<&Row> = rows.iter().collect();
    ordered.sort_by_key(|r| (r.key.split("::").count(), r.key));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for row in ordered {
        for (info, code) in code_blocks(&row.spec.docs) {
            let Some(mode) = mode_of(&info) else { continue };
            if seen.insert(code.clone()) {
                out.push(Example {
                    item: row.key.to_string(),
                    group: row.group.clone(),
                    mode,
                    code,
                });
            }
        }
    }
    out
}

/// The fenced code blocks of a doc comment: (info string, code with hidden lines restored).
fn code_blocks(docs: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String, String)> = None; // (fence, info, code)
    for line in docs.lines() {
        let trimmed = line.trim_start();
        match &mut current {
            None => {
                let fence: String = trimmed
                    .chars()
                    .take_while(|c| *c == '`' || *c == '~')
                    .collect();
                if fence.len() >= 3 && fence.chars().all(|c| c == fence.chars().next().unwrap()) {
                    current = Some((
                        fence.clone(),
                        trimmed[fence.len()..].trim().to_string(),
                        String::new(),
                    ));
                }
            }
            Some((fence, info, code)) => {
                if trimmed.starts_with(fence.as_str())
                    && trimmed.trim_end().chars().all(|c| c == '`' || c == '~')
                {
                    out.push((std::mem::take(info), std::mem::take(code)));
                    current = None;
                } else {
                    code.push_str(&unhide(line));
                    code.push('\n');
                }
            }
        }
    }
    out
}

/// A doctest line with rustdoc's hiding marker removed (`# x` -> `x`, `#` -> ``, `##` -> `#`).
fn unhide(line: &str) -> String {
    let trimmed = line.trim_start();
    if trimmed == "#" {
        String::new()
    } else if let Some(rest) = trimmed.strip_prefix("##") {
        format!("#{rest}")
    } else if let Some(rest) = trimmed.strip_prefix("# ") {
        rest.to_string()
    } else {
        line.to_string()
    }
}

/// How rustdoc treats a block with this info string; `None` for a block that is not Rust.
fn mode_of(info: &str) -> Option<Mode> {
    let tokens: Vec<&str> = info
        .split([',', ' ', '\t'])
        .filter(|t| !t.is_empty())
        .collect();
    let known = [
        "rust",
        "no_run",
        "should_panic",
        "ignore",
        "compile_fail",
        "test_harness",
        "allow_fail",
    ];
    if tokens
        .iter()
        .any(|t| !known.contains(t) && !t.starts_with("edition") && !t.starts_with("ignore-"))
    {
        return None;
    }
    Some(if tokens.contains(&"ignore") {
        Mode::Ignore
    } else if tokens.contains(&"compile_fail") {
        Mode::CompileFail
    } else if tokens.contains(&"should_panic") {
        Mode::ShouldPanic
    } else if tokens.contains(&"no_run") {
        Mode::NoRun
    } else {
        Mode::Run
    })
}

/// The module of one example, as rustdoc would wrap it.
fn module_source(example: &Example) -> String {
    let defines_main = example
        .code
        .lines()
        .any(|l| l.trim_start().starts_with("fn main("));
    let last = example
        .code
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"));
    let returns_result = last.is_some_and(|l| l.starts_with("Ok(") || l.starts_with("Ok::<"));
    let code = &example.code;
    let body = if defines_main {
        format!("{code}\npub fn run() {{ crate::Outcome::check(main()) }}\n")
    } else if returns_result {
        format!(
            "pub fn run() {{ crate::Outcome::check(body()) }}\nfn body() -> Result<(), impl core::fmt::Debug> {{\n{code}\n}}\n"
        )
    } else {
        format!("pub fn run() {{\n{code}\n}}\n")
    };
    format!("// Burn's doc example of `{}`.\n{body}", example.item)
}

/// Writes the crate with the modules of `included`.
fn write_crate(
    dir: &Path,
    root: &Path,
    examples: &[Example],
    included: &[usize],
) -> Result<(), String> {
    let src = dir.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).map_err(|e| format!("creating {}: {e}", src.display()))?;
    let mut manifest = String::from(
        "[package]\nname = \"burn-doc-examples\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n",
    );
    for (name, extra) in DEPENDENCIES {
        let path = root.join("crates").join(name);
        let sep = if extra.is_empty() { "" } else { ", " };
        let _ = writeln!(
            manifest,
            "{name} = {{ path = \"{}\"{sep}{extra} }}",
            path.display()
        );
    }
    manifest.push_str("\n[workspace]\n\n[profile.dev]\nopt-level = 1\ndebug = false\n");
    super::write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    let mut main = String::from(
        "#![allow(warnings)]\n//! Burn 0.23's doc examples (generated by `cargo xtask api`).\n\n",
    );
    for &i in included {
        let _ = writeln!(main, "mod ex_{i:04};");
        std::fs::write(
            src.join(format!("ex_{i:04}.rs")),
            module_source(&examples[i]),
        )
        .map_err(|e| e.to_string())?;
    }
    main.push_str(
        "\n/// What an example's `main` returns: nothing, or a `Result` that must be `Ok`.\n\
         pub trait Outcome { fn check(self); }\n\
         impl Outcome for () { fn check(self) {} }\n\
         impl<T, E: core::fmt::Debug> Outcome for Result<T, E> { fn check(self) { self.unwrap(); } }\n\n\
         fn main() {\n    let which: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).expect(\"example number\");\n    match which {\n",
    );
    for &i in included {
        let _ = writeln!(main, "        {i} => ex_{i:04}::run(),");
    }
    main.push_str("        _ => panic!(\"no example {which}\"),\n    }\n}\n");
    std::fs::write(src.join("main.rs"), main).map_err(|e| e.to_string())
}

/// `cargo check|build` of the examples crate; the first error of each failing example module.
fn build(dir: &Path, target: &Path, how: &str) -> Result<Vec<(usize, String)>, String> {
    eprintln!("==> cargo {how} (doc examples crate, {})", dir.display());
    let start = Instant::now();
    let output = Command::new(env!("CARGO"))
        .args([how, "--message-format=json"])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cargo {how}: {e}"))?;
    eprintln!("    ({:.1}s)", start.elapsed().as_secs_f64());
    let mut errors: BTreeMap<usize, String> = BTreeMap::new();
    let mut unattributed = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-message" || message["message"]["level"] != "error" {
            continue;
        }
        let text = message["message"]["message"]
            .as_str()
            .unwrap_or("?")
            .to_string();
        let module = super::render::list(&message["message"]["spans"])
            .iter()
            .filter_map(|s| s["file_name"].as_str())
            .find_map(|f| {
                f.strip_prefix("src/ex_")?
                    .strip_suffix(".rs")?
                    .parse::<usize>()
                    .ok()
            });
        match module {
            Some(i) => {
                errors.entry(i).or_insert(text);
            }
            None if text.starts_with("aborting") || text.contains("previous error") => {}
            None => unattributed.push(text),
        }
    }
    if !output.status.success() && errors.is_empty() {
        return Err(format!(
            "cargo {how} of the examples crate failed outside any example: {}\n{}",
            unattributed.join("; "),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(errors.into_iter().collect())
}

/// Runs example `i` in its own process (10 s limit); `should_panic` examples must panic.
fn run_one(binary: &Path, i: usize, should_panic: bool) -> Result<(), String> {
    let mut child = Command::new(binary)
        .arg(i.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            return Err("ran past 10 s".into());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
    }
    let panicked = stderr.contains("panicked");
    match (status.success(), should_panic) {
        (true, false) => Ok(()),
        (false, true) if panicked => Ok(()),
        (true, true) => Err("should panic but returned".into()),
        _ => Err(stderr.lines().find(|l| l.contains("panicked")).map_or_else(
            || format!("failed ({status})"),
            |_| {
                stderr
                    .lines()
                    .skip_while(|l| !l.contains("panicked"))
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            },
        )),
    }
}

/// Per group: examples, compiled, passed (ignored and compile_fail blocks counted apart).
fn print_summary(examples: &[Example], outcome: &BTreeMap<usize, Result<(), String>>) {
    let mut groups: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for (i, e) in examples.iter().enumerate() {
        let c = groups.entry(&e.group).or_default();
        match outcome.get(&i) {
            None => c[3] += 1,
            Some(result) => {
                c[0] += 1;
                let compiled = !matches!(result, Err(m) if m.starts_with("does not compile"));
                c[1] += usize::from(compiled);
                c[2] += usize::from(result.is_ok());
            }
        }
    }
    println!(
        "\nBurn {}'s doc examples, compiled and run against our crates:\n",
        super::SPEC_VERSION
    );
    println!(
        "| {:<28} | {:>8} | {:>8} | {:>6} | {:>7} | {:>14} |",
        "module", "examples", "compile", "pass", "% pass", "ignore/c_fail"
    );
    println!(
        "|{:-<30}|{:->10}|{:->10}|{:->8}|{:->9}|{:->16}|",
        "", "", "", "", "", ""
    );
    let mut total = [0usize; 4];
    for (name, c) in &groups {
        println!("{}", summary_line(name, c));
        for (t, v) in total.iter_mut().zip(c) {
            *t += v;
        }
    }
    println!("{}", summary_line("all", &total));
}

fn summary_line(name: &str, c: &[usize; 4]) -> String {
    let pct = if c[0] == 0 {
        100.0
    } else {
        100.0 * c[2] as f64 / c[0] as f64
    };
    format!(
        "| {name:<28} | {:>8} | {:>8} | {:>6} | {pct:>6.1}% | {:>14} |",
        c[0], c[1], c[2], c[3]
    )
}

/// Every failing example with its first error and its code.
fn failure_report(examples: &[Example], outcome: &BTreeMap<usize, Result<(), String>>) -> String {
    let mut out = String::from("# Burn 0.23's doc examples that fail against our crates\n");
    for (i, result) in outcome {
        if let Err(message) = result {
            let e = &examples[*i];
            let _ = write!(
                out,
                "\n## ex_{i:04}: `{}` ({})\n\n{message}\n\n```rust\n{}```\n",
                e.item, e.group, e.code
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_hidden_lines_and_skip_other_languages() {
        let docs = "Text\n\n```rust\n# use a::B;\nlet x = 1;\n```\n\n```toml\n[x]\n```\n\n```no_run\nfoo();\n```";
        let blocks = code_blocks(docs);
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0].1, "use a::B;\nlet x = 1;\n");
        assert_eq!(mode_of(&blocks[0].0), Some(Mode::Run));
        assert_eq!(mode_of(&blocks[1].0), None);
        assert_eq!(mode_of(&blocks[2].0), Some(Mode::NoRun));
        assert_eq!(mode_of("rust,should_panic"), Some(Mode::ShouldPanic));
        assert_eq!(mode_of("ignore"), Some(Mode::Ignore));
    }

    #[test]
    fn an_example_is_wrapped_as_rustdoc_does() {
        let plain = Example {
            item: "i".into(),
            group: "g".into(),
            mode: Mode::Run,
            code: "let x = 1;\n".into(),
        };
        assert!(module_source(&plain).contains("pub fn run() {\nlet x = 1;"));
        let result = Example {
            code: "f()?;\nOk::<(), E>(())\n".into(),
            ..plain
        };
        assert!(module_source(&result).contains("fn body() -> Result<(), impl core::fmt::Debug>"));
        let main = Example {
            code: "fn main() {}\n".into(),
            ..result
        };
        assert!(module_source(&main).contains("crate::Outcome::check(main())"));
    }
}
