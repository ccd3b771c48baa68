//! The progress bar of an epoch (indicatif; hidden when stderr is not a terminal).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over the batches of one epoch.
pub(crate) fn epoch_bar(enabled: bool, epoch: usize, epochs: usize, batches: usize) -> ProgressBar {
    if !enabled {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(batches as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30.cyan/blue}] {pos}/{len} batches {msg} ({elapsed})",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_prefix(format!("epoch {epoch}/{epochs}"));
    bar
}
