//! Tests (or parts of tests) that cannot run for want of a device capability: each is said,
//! never silently passed.
//!
//! A skip is one line on the process's standard error, written past the test harness's output
//! capture (`skipped <what>: <why>`), and one line appended to the file
//! `BURN_TEST_SKIP_LOG` names, when set, so that `cargo xtask test` can sum up what every run
//! skipped. Rust's test harness has no run-time "ignored" state, so a skipping test returns
//! early and counts as passed; the line is what tells the two apart.

use burn::tensor::{DType, Device};
use std::io::Write;

/// Says that `what` was skipped and `why`, on standard error and in the skip log.
pub fn skip(what: &str, why: &str) {
    let line = format!("skipped {what}: {why}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
    if let Some(path) = std::env::var_os("BURN_TEST_SKIP_LOG") {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path);
        match file {
            // One `write_all` of one line: appends of concurrent tests do not interleave.
            Ok(mut file) => {
                let _ = file.write_all(line.as_bytes());
            }
            Err(err) => {
                let message = format!("cannot append to BURN_TEST_SKIP_LOG={path:?}: {err}\n");
                let _ = std::io::stderr().write_all(message.as_bytes());
            }
        }
    }
}

/// Whether `device` supports every dtype of `dtypes`; when it does not, `what` is reported
/// skipped (see [`skip`]) with the dtypes it lacks, and the caller leaves it out.
///
/// ```
/// # use burn::tensor::{DType, Device};
/// let device = Device::flex();
/// if burn_backend_tests::supports(&device, &[DType::F64], "f64 sums") {
///     // ... the part of the test that needs f64
/// }
/// ```
pub fn supports(device: &Device, dtypes: &[DType], what: &str) -> bool {
    let missing: Vec<String> = dtypes
        .iter()
        .filter(|dtype| !device.supports_dtype(**dtype))
        .map(|dtype| dtype.to_string())
        .collect();
    if missing.is_empty() {
        return true;
    }
    skip(
        what,
        &format!("{device:?} does not support {}", missing.join(", ")),
    );
    false
}
