//! The peers beside this project: NumPy, PyTorch and JAX on the CPU put next to the Flex rows of
//! this run, each as the ratio of the peer's median to Flex's (above 1: Flex is faster). Their
//! figures come from this run's peer rows (`--live-peers`, see `peer_server.rs`) or from the
//! JSON that `bash benches/peers/run.sh` writes (`--peers PATH`, measured in another run).

use crate::peer_server::FRAMEWORKS;
use crate::report::{Row, figure_number};
use serde_json::Value;
use std::path::Path;

/// Where the peers' figures were measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// In this run, each round right beside Flex's round of the same case.
    Live,
    /// By the peers script, in a run of its own before this one.
    File,
}

/// One peer's median and figure for one case.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerFigure {
    pub framework: String,
    /// `"<id> <size>"`, as the workloads name their cases.
    pub case: String,
    pub median_s: f64,
    pub figure: f64,
}

/// The peer rows of this run.
pub fn from_rows(rows: &[Row]) -> Vec<PeerFigure> {
    rows.iter()
        .filter(|r| FRAMEWORKS.iter().any(|(name, _)| *name == r.backend))
        .filter_map(|r| {
            Some(PeerFigure {
                framework: r.backend.to_string(),
                case: format!("{} {}", r.workload, r.size),
                median_s: r.median_s?,
                figure: r.figure?,
            })
        })
        .collect()
}

/// The figures of the peers script's JSON at `path`.
pub fn from_file(path: &Path) -> Result<Vec<PeerFigure>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| format!("peers: cannot read {}: {err}", path.display()))?;
    let json: Value = serde_json::from_str(&text).map_err(|err| {
        format!(
            "peers: {} is not the peers script's JSON: {err}",
            path.display()
        )
    })?;
    let frameworks = json
        .get("frameworks")
        .and_then(Value::as_object)
        .ok_or_else(|| format!("peers: {} has no `frameworks`", path.display()))?;
    let mut out = Vec::new();
    for (framework, cases) in frameworks {
        for (case, entry) in cases.as_object().into_iter().flatten() {
            let (Some(median_s), Some(figure)) = (
                entry.get("median_s").and_then(Value::as_f64),
                entry.get("figure").and_then(Value::as_f64),
            ) else {
                continue;
            };
            out.push(PeerFigure {
                framework: framework.clone(),
                case: case.clone(),
                median_s,
                figure,
            });
        }
    }
    Ok(out)
}

/// The side-by-side table of the Flex rows of `rows` and the peers' `figures`.
pub fn table(rows: &[Row], figures: &[PeerFigure], source: Source) -> String {
    let mut out = String::from("| workload | size | flex |");
    for (name, _) in FRAMEWORKS {
        out.push_str(&format!(" {name} | flex vs {name} |"));
    }
    out.push_str("\n|---|---|---|");
    out.push_str(&"---|---|".repeat(FRAMEWORKS.len()));
    out.push('\n');
    for row in rows.iter().filter(|r| r.backend == "flex") {
        let (Some(median), Some(figure)) = (row.median_s, row.figure) else {
            continue;
        };
        let key = format!("{} {}", row.workload, row.size);
        out.push_str(&format!(
            "| {} | {} | {} {} |",
            row.workload,
            row.size,
            figure_number(figure),
            row.unit
        ));
        for (name, _) in FRAMEWORKS {
            let peer = figures
                .iter()
                .find(|p| p.framework == name && p.case == key);
            out.push_str(&match peer {
                Some(p) => format!(
                    " {} {} | {:.2}× |",
                    figure_number(p.figure),
                    row.unit,
                    p.median_s / median
                ),
                None => " – | – |".into(),
            });
        }
        out.push('\n');
    }
    out.push_str(match source {
        Source::Live => {
            "\nflex vs X = X's median over Flex's (above 1: Flex is faster); the peers measured in \
             this run by `benches/peers/peers.py --serve`, each round of a case right beside \
             Flex's, with the same method (rounds, warm-up, runs, time cap)."
        }
        Source::File => {
            "\nflex vs X = X's median over Flex's (above 1: Flex is faster); the peers measured by \
             `bash benches/peers/run.sh` in a run of their own before this one, with the same \
             method in one round (`--live-peers` measures them beside Flex instead)."
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(backend: &'static str, median_s: f64) -> Row {
        Row {
            workload: "W3",
            title: "sum",
            size: "[4096, 4096]".into(),
            backend,
            device: String::new(),
            on_cpu: true,
            flops: 0.0,
            bytes: 64.0e6,
            warmup_runs: 1,
            rounds: 1,
            times_s: vec![median_s],
            capped: false,
            median_s: Some(median_s),
            min_s: Some(median_s),
            max_s: Some(median_s),
            figure: Some(64.0e6 / median_s / 1e9),
            unit: "GB/s",
            roofline_pct: None,
            speed_vs_flex: None,
            others_pct: None,
            error: None,
        }
    }

    #[test]
    fn live_rows_give_the_ratio_beside_flex() {
        let rows = [row("flex", 0.001), row("torch", 0.002), row("wgpu", 0.004)];
        let figures = from_rows(&rows);
        assert_eq!(figures.len(), 1);
        assert_eq!(figures[0].case, "W3 [4096, 4096]");
        let text = table(&rows, &figures, Source::Live);
        let line = text.lines().nth(2).unwrap();
        assert!(line.contains("| 2.00× |"), "{line}");
        // No NumPy or JAX row: their cells are empty.
        assert_eq!(line.matches("– | – |").count(), 2, "{line}");
    }

    #[test]
    fn a_peers_file_is_read() {
        let path = std::env::temp_dir().join(format!("peers-{}.json", std::process::id()));
        std::fs::write(
            &path,
            r#"{"frameworks": {"jax": {"W3 [4096, 4096]": {"median_s": 0.003, "figure": 21.3}}}}"#,
        )
        .unwrap();
        let figures = from_file(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            figures,
            [PeerFigure {
                framework: "jax".into(),
                case: "W3 [4096, 4096]".into(),
                median_s: 0.003,
                figure: 21.3,
            }]
        );
        let text = table(&[row("flex", 0.001)], &figures, Source::File);
        assert!(text.lines().nth(2).unwrap().contains("| 3.00× |"));
        assert!(from_file(Path::new("/nonexistent/peers.json")).is_err());
    }
}
