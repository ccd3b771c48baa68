//! The workloads, one file each, listed once in [`ALL`].
//!
//! A workload is a list of cases (sizes); a case knows the work one run does (floating-point
//! operations, the bytes it must move at least) and makes a [`Runner`] on a device: the inputs
//! are created and synchronised once, outside the clock; each run launches the work and ends
//! with `device.sync()` (or by reading the result).

mod c1_capture;
mod q8_linear;
mod w1_matmul;
mod w2_elementwise;
mod w3_sum;
mod w4_softmax;
mod w5_conv;
mod w6_mlp_step;
mod w7_dispatch;

use crate::measure::Runner;
use burn::tensor::Device;

/// Every implemented workload, in the table's order. Adding one is a file and an entry here.
pub static ALL: &[Workload] = &[
    w1_matmul::W1,
    w2_elementwise::W2,
    w3_sum::W3,
    w4_softmax::W4,
    w5_conv::W5,
    w6_mlp_step::W6,
    w7_dispatch::W7,
    q8_linear::Q8,
    c1_capture::C1,
];

/// A workload of the performance issue.
#[derive(Debug)]
pub struct Workload {
    /// `W1`, `W2`, …
    pub id: &'static str,
    /// What it computes, for the table's header and the JSON.
    pub title: &'static str,
    /// Its cases, in the table's order.
    pub cases: fn() -> Vec<Case>,
}

/// The figure a case reports beside its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// `flops / median`, in GFLOP/s.
    GflopPerSec,
    /// `bytes / median`, in GB/s (effective bandwidth: the bytes the work must move).
    GbPerSec,
    /// The median itself, in ms (one run is one step of the workload).
    MsPerRun,
    /// The median divided by the run's number of operations, in µs.
    UsPerOp(u32),
}

impl Figure {
    pub fn unit(self) -> &'static str {
        match self {
            Figure::GflopPerSec => "GFLOP/s",
            Figure::GbPerSec => "GB/s",
            Figure::MsPerRun => "ms",
            Figure::UsPerOp(_) => "µs/op",
        }
    }

    /// The figure of a case run in `seconds`.
    pub fn value(self, case: &CaseInfo, seconds: f64) -> f64 {
        match self {
            Figure::GflopPerSec => case.flops / seconds / 1e9,
            Figure::GbPerSec => case.bytes / seconds / 1e9,
            Figure::MsPerRun => seconds * 1e3,
            Figure::UsPerOp(ops) => seconds * 1e6 / f64::from(ops),
        }
    }
}

/// What a case is, without its setup.
#[derive(Debug, Clone)]
pub struct CaseInfo {
    /// The size as printed, e.g. `n=1024`.
    pub size: String,
    pub figure: Figure,
    /// Floating-point operations of one run (the compute roof; GFLOP/s).
    pub flops: f64,
    /// Bytes one run must read and write at least (the memory roof; GB/s).
    pub bytes: f64,
}

/// Creates a case's inputs on the device (synchronised, outside the clock) and returns its run.
pub type Setup = Box<dyn Fn(&Device) -> Result<Runner, String>>;

/// One size of a workload.
pub struct Case {
    pub info: CaseInfo,
    pub setup: Setup,
}

/// Seed of every workload's random inputs.
pub const SEED: u64 = 42;

/// Waits for the device's queued work; a deferred execution error becomes the case's error.
pub fn sync(device: &Device) -> Result<(), String> {
    device
        .sync()
        .map_err(|err| format!("device.sync() failed: {err}"))
}
