//! `--compare A.json B.json`: whether two runs of the benchmark agree. Each configuration both
//! files hold agrees when each run's median lies within the other run's min–max spread; the
//! table gives both medians, their ratio and the verdict. The peers' rows (`--live-peers`) are
//! compared too, but only this project's rows decide the outcome.

use crate::peer_server::FRAMEWORKS;
use serde_json::Value;
use std::path::Path;

/// One configuration of a results file: its label and its timed runs' median, min and max.
struct Timing {
    label: String,
    /// A peer framework's row (NumPy, PyTorch, JAX), not one of this project's backends.
    peer: bool,
    median: f64,
    min: f64,
    max: f64,
}

/// The configurations of the results file at `path` that have timed runs.
fn timings(path: &Path) -> Result<Vec<Timing>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
    let json: Value = serde_json::from_str(&text)
        .map_err(|err| format!("{} is not a results file: {err}", path.display()))?;
    let results = json["results"]
        .as_array()
        .ok_or_else(|| format!("{} has no `results` list", path.display()))?;
    let mut out = Vec::new();
    for entry in results {
        let times: Vec<f64> = entry["times_s"]
            .as_array()
            .map(|t| t.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        if times.is_empty() {
            continue;
        }
        let sample = crate::measure::Sample {
            warmup_runs: 0,
            times,
            capped: false,
        };
        let text = |key: &str| entry[key].as_str().unwrap_or("?").to_string();
        let backend = text("backend");
        out.push(Timing {
            peer: FRAMEWORKS.iter().any(|(name, _)| *name == backend),
            label: format!("{} {} {backend}", text("workload"), text("size")),
            median: sample.median(),
            min: sample.min(),
            max: sample.max(),
        });
    }
    Ok(out)
}

/// Prints the comparison of the runs in `first` and `second`; `Err` when a configuration
/// disagrees or the files share none.
pub fn compare(first: &Path, second: &Path) -> Result<(), String> {
    let (a, b) = (timings(first)?, timings(second)?);
    println!("| configuration | median A | median B | B / A | A's min–max | B's min–max | agree |");
    println!("|---|---|---|---|---|---|---|");
    let mut shared = 0;
    let mut disagree = Vec::new();
    let mut peers_disagree = Vec::new();
    for x in &a {
        let Some(y) = b.iter().find(|y| y.label == x.label) else {
            continue;
        };
        let agree = (x.min..=x.max).contains(&y.median) && (y.min..=y.max).contains(&x.median);
        match (x.peer, agree) {
            (true, false) => peers_disagree.push(x.label.clone()),
            (true, true) => {}
            (false, agree) => {
                shared += 1;
                if !agree {
                    disagree.push(x.label.clone());
                }
            }
        }
        let ms = |s: f64| format!("{:.4} ms", s * 1e3);
        println!(
            "| {} | {} | {} | {:.3} | {}–{} | {}–{} | {} |",
            x.label,
            ms(x.median),
            ms(y.median),
            y.median / x.median,
            ms(x.min),
            ms(x.max),
            ms(y.min),
            ms(y.max),
            if agree { "yes" } else { "NO" }
        );
    }
    let unmatched: Vec<&str> = a
        .iter()
        .filter(|x| !b.iter().any(|y| y.label == x.label))
        .chain(b.iter().filter(|y| !a.iter().any(|x| x.label == y.label)))
        .map(|t| t.label.as_str())
        .collect();
    if !unmatched.is_empty() {
        println!(
            "\nin one file only (or without timed runs in the other): {}",
            unmatched.join(", ")
        );
    }
    if !peers_disagree.is_empty() {
        println!(
            "\npeers (not counted below) that disagree: {}",
            peers_disagree.join(", ")
        );
    }
    if shared == 0 {
        return Err("the two files share no configuration of this project's backends".into());
    }
    if disagree.is_empty() {
        println!("\nall {shared} shared configurations agree within their min–max spreads");
        Ok(())
    } else {
        Err(format!(
            "{} of {shared} configurations disagree: {}",
            disagree.len(),
            disagree.join(", ")
        ))
    }
}
