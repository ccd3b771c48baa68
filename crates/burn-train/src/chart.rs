//! The PNG chart of a run: loss (train and valid) and accuracy per epoch, side by side.

use crate::metric::MetricHistory;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// The font of the chart's text (DejaVu Sans Mono, see `assets/FONT-LICENSE`).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .unwrap_or_else(|_| panic!("chart: the embedded font is not a valid TrueType font"));
    });
}

/// A series: its name, colour and points.
type Series<'a> = (&'a str, RGBColor, Vec<(f64, f64)>);

/// Writes `history` as a PNG chart at `path`: loss on the left, accuracy (when recorded)
/// on the right.
pub fn plot_history(history: &MetricHistory, path: &Path) -> Result<(), String> {
    register_font();
    let error = |e: &dyn std::fmt::Display| format!("chart {}: {e}", path.display());
    let root = BitMapBackend::new(path, (1100, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let (left, right) = root.split_horizontally(550);
    let points = |f: &dyn Fn(&crate::EpochMetrics) -> Option<f64>| -> Vec<(f64, f64)> {
        history
            .epochs
            .iter()
            .filter_map(|m| f(m).map(|v| (m.epoch as f64, v)))
            .collect()
    };
    let loss: Vec<Series> = vec![
        ("train", BLUE, points(&|m| Some(m.train_loss))),
        ("valid", RED, points(&|m| Some(m.valid_loss))),
    ];
    panel(&left, "loss", &loss).map_err(|e| error(&e))?;
    let accuracy: Vec<Series> = vec![
        ("train", BLUE, points(&|m| m.train_accuracy)),
        ("valid", RED, points(&|m| m.valid_accuracy)),
    ];
    if accuracy.iter().any(|(_, _, p)| !p.is_empty()) {
        panel(&right, "accuracy (%)", &accuracy).map_err(|e| error(&e))?;
    }
    root.present().map_err(|e| error(&e))
}

/// One panel: the series over the epochs, with a legend.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    series: &[Series],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let all: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|(_, _, p)| p.iter().copied())
        .collect();
    let max_epoch = all.iter().map(|p| p.0).fold(1.0, f64::max);
    let (low, high) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.1), hi.max(p.1))
        });
    let (low, high) = if low.is_finite() {
        (low, high)
    } else {
        (0.0, 1.0)
    };
    let pad = ((high - low) * 0.05).max(1e-6);
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(1.0..max_epoch.max(2.0), (low - pad)..(high + pad))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .x_label_formatter(&|epoch| format!("{}", epoch.round() as i64))
        .label_style(("sans-serif", 14))
        .draw()?;
    for (name, colour, points) in series {
        if points.is_empty() {
            continue;
        }
        let colour = *colour;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 14))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
