//! The results: one row per configuration, the table on stdout, and the JSON file.

use crate::machine::{Limits, Machine};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One configuration: a workload's case on one backend.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub workload: &'static str,
    pub title: &'static str,
    pub size: String,
    pub backend: &'static str,
    /// The device's name (e.g. `flex`, `cube<wgpu>`).
    pub device: String,
    /// Whether the device runs on this machine's CPU (Flex, or a software WGPU adapter such as
    /// lavapipe): only then does the CPU's roofline apply.
    pub on_cpu: bool,
    /// Floating-point operations and least bytes moved per run.
    pub flops: f64,
    pub bytes: f64,
    pub warmup_runs: usize,
    /// Rounds whose runs the row holds (fewer than the method's when the command stopped
    /// early or the configuration failed).
    pub rounds: usize,
    /// Timed runs, in seconds, in the order they ran.
    pub times_s: Vec<f64>,
    /// The time cap stopped the runs below the number asked for.
    pub capped: bool,
    pub median_s: Option<f64>,
    pub min_s: Option<f64>,
    pub max_s: Option<f64>,
    /// The figure (from the median) and its unit.
    pub figure: Option<f64>,
    pub unit: &'static str,
    /// The roofline's bound over the median, in percent (`None` off this CPU or without
    /// limits).
    pub roofline_pct: Option<f64>,
    /// Flex's median over this one's, both from this run: above 1, faster than Flex.
    pub speed_vs_flex: Option<f64>,
    /// Share of the CPUs other processes (or the host) took during this configuration's rounds
    /// (their ticks added up), in percent: the machine was not quiet when it is well above 0.
    pub others_pct: Option<f64>,
    pub error: Option<String>,
}

/// A backend of the run and its device, or why it could not run.
#[derive(Debug, Clone, Serialize)]
pub struct BackendEntry {
    pub name: &'static str,
    pub device: Option<String>,
    /// The adapter, in words.
    pub adapter: Option<String>,
    /// Whether it computes on this machine's CPU (the roofline applies).
    pub on_cpu: Option<bool>,
    pub error: Option<String>,
}

/// The method, as run.
#[derive(Debug, Clone, Serialize)]
pub struct MethodEntry {
    pub runs: usize,
    /// Rounds per configuration, interleaved with the other configurations.
    pub rounds: usize,
    pub min_runs: usize,
    pub max_seconds_per_configuration: f64,
    pub sync: &'static str,
}

/// Everything the JSON file holds.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub date: String,
    pub commit: Option<String>,
    /// Tracked files differ from the commit.
    pub dirty: Option<bool>,
    pub command: Vec<String>,
    pub machine: Machine,
    /// The roofline: the best of the passes measured before and after the workloads.
    pub limits: Option<Limits>,
    pub method: MethodEntry,
    pub backends: Vec<BackendEntry>,
    pub results: Vec<Row>,
    /// Share of the CPUs other processes took during the whole run, in percent.
    pub others_pct: Option<f64>,
}

impl Report {
    /// Fills the columns that compare rows: the speed against Flex's row of the same case,
    /// and the fraction of the roofline.
    pub fn compare(&mut self) {
        let limits = self.limits.clone();
        let flex: Vec<(&'static str, String, f64)> = self
            .results
            .iter()
            .filter(|r| r.backend == "flex")
            .filter_map(|r| Some((r.workload, r.size.clone(), r.median_s?)))
            .collect();
        for row in &mut self.results {
            let Some(median) = row.median_s else { continue };
            row.speed_vs_flex = flex
                .iter()
                .find(|(w, s, _)| *w == row.workload && *s == row.size)
                .map(|(_, _, flex_median)| flex_median / median);
            row.roofline_pct = match &limits {
                Some(limits) if row.on_cpu => {
                    Some(100.0 * limits.bound_seconds(row.flops, row.bytes) / median)
                }
                _ => None,
            };
        }
    }

    /// Writes the JSON file, creating its folder.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let json = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(path, json + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The table, as printed.
    pub fn table(&self) -> String {
        let header = [
            "workload",
            "size",
            "backend",
            "median",
            "min–max",
            "runs",
            "figure",
            "% roofline",
            "vs flex",
            "others",
        ];
        let mut lines: Vec<[String; 10]> = Vec::new();
        for row in &self.results {
            let (median, range, figure) = match (row.median_s, row.min_s, row.max_s, row.figure) {
                (Some(median), Some(min), Some(max), Some(figure)) => {
                    let unit = TimeUnit::of(median);
                    (
                        unit.format(median),
                        format!("{}–{}", unit.number(min), unit.format(max)),
                        format!("{} {}", figure_number(figure), row.unit),
                    )
                }
                _ => (
                    "failed".into(),
                    String::new(),
                    row.error.clone().unwrap_or_default(),
                ),
            };
            let runs = if row.times_s.is_empty() {
                String::new()
            } else if row.capped {
                format!("{}*", row.times_s.len())
            } else {
                row.times_s.len().to_string()
            };
            let roofline = match row.roofline_pct {
                Some(pct) => format!("{pct:.1} %"),
                None if row.median_s.is_none() => String::new(),
                None if !row.on_cpu => "n/a (not this CPU)".into(),
                None => "—".into(),
            };
            let vs_flex = match row.speed_vs_flex {
                Some(_) if row.backend == "flex" => "1 (ref)".into(),
                Some(ratio) => format!("{ratio:.3}×"),
                None => String::new(),
            };
            lines.push([
                format!("{} {}", row.workload, row.title),
                row.size.clone(),
                format!("{} ({})", row.backend, row.device),
                median,
                range,
                runs,
                figure,
                roofline,
                vs_flex,
                // Too short a row to read the other processes' share: "—".
                row.others_pct
                    .map_or_else(|| "—".to_string(), |pct| format!("{pct:.0} %")),
            ]);
        }
        let mut widths = header.map(|h| h.chars().count());
        for line in &lines {
            for (width, cell) in widths.iter_mut().zip(line) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let render = |cells: &[String]| -> String {
            let padded: Vec<String> = cells
                .iter()
                .zip(widths)
                .map(|(cell, width)| {
                    let pad = width - cell.chars().count();
                    format!("{cell}{}", " ".repeat(pad))
                })
                .collect();
            format!("| {} |", padded.join(" | "))
        };
        let mut out = vec![render(&header.map(String::from))];
        out.push(format!(
            "|{}|",
            widths
                .iter()
                .map(|w| "-".repeat(w + 2))
                .collect::<Vec<_>>()
                .join("|")
        ));
        out.extend(lines.iter().map(|line| render(line)));
        out.join("\n")
    }
}

/// A time unit chosen for a median, so a row's times read alike.
#[derive(Clone, Copy)]
enum TimeUnit {
    Seconds,
    Millis,
    Micros,
}

impl TimeUnit {
    fn of(seconds: f64) -> Self {
        if seconds >= 1.0 {
            TimeUnit::Seconds
        } else if seconds >= 1e-3 {
            TimeUnit::Millis
        } else {
            TimeUnit::Micros
        }
    }

    fn number(self, seconds: f64) -> String {
        let value = match self {
            TimeUnit::Seconds => seconds,
            TimeUnit::Millis => seconds * 1e3,
            TimeUnit::Micros => seconds * 1e6,
        };
        // Three significant digits or more.
        if value >= 100.0 {
            format!("{value:.0}")
        } else if value >= 10.0 {
            format!("{value:.1}")
        } else {
            format!("{value:.2}")
        }
    }

    fn format(self, seconds: f64) -> String {
        let suffix = match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Millis => "ms",
            TimeUnit::Micros => "µs",
        };
        format!("{} {suffix}", self.number(seconds))
    }
}

/// The workspace's root (where `target/bench/` goes by default).
/// A figure with three significant digits at most (`0.0483`, `8.31`, `245.9`).
pub fn figure_number(value: f64) -> String {
    if value.abs() >= 100.0 {
        format!("{value:.1}")
    } else if value.abs() >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

pub fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::canonicalize(&root).unwrap_or(root)
}

/// `target/bench/results.json` under the workspace's root.
pub fn default_out() -> PathBuf {
    workspace_root().join("target/bench/results.json")
}

/// `git rev-parse HEAD` of the workspace, and whether tracked files differ from it.
pub fn git_commit() -> (Option<String>, Option<bool>) {
    let git = |args: &[&str]| -> Option<String> {
        let output = std::process::Command::new("git")
            .args(args)
            .current_dir(workspace_root())
            .output()
            .ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "HEAD"]);
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty());
    (commit, dirty)
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_819), (2027, 1, 1));
    }

    #[test]
    fn time_units() {
        assert_eq!(TimeUnit::of(2.5).format(2.5), "2.50 s");
        assert_eq!(TimeUnit::of(0.0805).format(0.0805), "80.5 ms");
        assert_eq!(TimeUnit::of(0.000_123).format(0.000_123), "123 µs");
    }
}
