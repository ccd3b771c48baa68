//! The peers beside this project: the figures of `benches/peers` (NumPy, PyTorch, JAX on the
//! CPU, written to `target/bench/peers.json` by `bash benches/peers/run.sh`) put next to the
//! Flex rows of this run, each as the ratio of the peer's median to Flex's (above 1: Flex is
//! faster).

use crate::report::{Row, figure_number};
use serde_json::Value;
use std::path::Path;

/// The frameworks the peers script measures, in the table's order.
const FRAMEWORKS: [&str; 3] = ["numpy", "torch", "jax"];

/// The side-by-side table of `rows` (Flex's) and the peers in `path`.
pub fn table(rows: &[Row], path: &Path) -> Result<String, String> {
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
        .ok_or_else(|| format!("peers: {} has no `frameworks`", path.display()))?;
    let mut out = String::from("| workload | size | flex |");
    for name in FRAMEWORKS {
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
        for name in FRAMEWORKS {
            let peer = frameworks.get(name).and_then(|f| f.get(&key));
            let cell = peer.and_then(|p| {
                let peer_median = p.get("median_s")?.as_f64()?;
                let peer_figure = p.get("figure")?.as_f64()?;
                Some(format!(
                    " {} {} | {:.2}× |",
                    figure_number(peer_figure),
                    row.unit,
                    peer_median / median
                ))
            });
            out.push_str(&cell.unwrap_or_else(|| " – | – |".into()));
        }
        out.push('\n');
    }
    out.push_str(
        "\nflex vs X = X's median over Flex's (above 1: Flex is faster); peers measured by \
         `bash benches/peers/run.sh` just before this run, same protocol (warm-up, median of 10).",
    );
    Ok(out)
}
