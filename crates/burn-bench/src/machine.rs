//! The machine: what it is (CPU model, cores) and its limits, measured in plain Rust by the same
//! command: peak f32 FMA throughput on every thread of the rayon pool, and triad memory
//! bandwidth (`a[i] = b[i] + s·c[i]`, STREAM's counting: 12 bytes per element).

use rayon::prelude::*;
use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// What the machine is.
#[derive(Debug, Clone, Serialize)]
pub struct Machine {
    /// `model name` from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical processors (`processor` entries of `/proc/cpuinfo`, else what Rust sees).
    pub logical_cores: usize,
    /// Threads of the rayon pool (Flex's and the limits'; `RAYON_NUM_THREADS` changes it).
    pub threads: usize,
    /// SIMD features detected at run time that the kernels may use.
    pub simd: Vec<&'static str>,
    /// A virtual machine (`hypervisor` in the CPU flags): its cores may share physical cores
    /// with other guests, so its limits can change during a run.
    pub virtual_machine: bool,
}

impl Machine {
    pub fn describe() -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == "model name").then(|| value.trim().to_string())
            })
            .unwrap_or_else(|| format!("unknown ({})", std::env::consts::ARCH));
        let listed = cpuinfo
            .lines()
            .filter(|line| {
                line.split(':')
                    .next()
                    .is_some_and(|k| k.trim() == "processor")
            })
            .count();
        let logical_cores = if listed > 0 {
            listed
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        };
        let virtual_machine = cpuinfo.lines().any(|line| {
            line.split_once(':').is_some_and(|(key, flags)| {
                key.trim() == "flags" && flags.split_whitespace().any(|f| f == "hypervisor")
            })
        });
        Machine {
            cpu,
            logical_cores,
            threads: rayon::current_num_threads(),
            simd: simd_features(),
            virtual_machine,
        }
    }
}

fn simd_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let mut found = Vec::new();
        macro_rules! probe {
            ($($feature:tt),*) => {$(
                if std::is_x86_feature_detected!($feature) {
                    found.push($feature);
                }
            )*};
        }
        probe!("sse4.2", "avx", "avx2", "fma", "avx512f");
        found
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// One measurement of the machine's limits.
#[derive(Debug, Clone, Serialize)]
pub struct LimitsPass {
    /// `before` or `after` the workloads.
    pub when: &'static str,
    /// Peak f32 FMA throughput on every rayon thread at once (best of several tries).
    pub peak_gflops: f64,
    /// The kernel that reached it (e.g. `avx512 (zmm) FMA`).
    pub peak_kernel: String,
    /// Triad bandwidth over arrays far larger than the caches (best of several passes).
    pub triad_gbps: f64,
    /// Seconds this pass took.
    pub seconds: f64,
    /// Share of the CPUs other processes took meanwhile (percent), where known.
    pub others_pct: Option<f64>,
}

impl LimitsPass {
    pub fn measure(when: &'static str) -> Self {
        let start = Instant::now();
        let (peak_gflops, peak_kernel) = peak_fma();
        let triad_gbps = triad(TRIAD_LEN);
        LimitsPass {
            when,
            peak_gflops,
            peak_kernel,
            triad_gbps,
            seconds: start.elapsed().as_secs_f64(),
            others_pct: None,
        }
    }
}

/// The machine's limits: the best of the passes (measured before and after the workloads, so
/// that a machine whose speed changes during the run shows it).
#[derive(Debug, Clone, Serialize)]
pub struct Limits {
    pub peak_gflops: f64,
    pub peak_kernel: String,
    pub triad_gbps: f64,
    /// Elements per triad array (f32).
    pub triad_len: usize,
    pub passes: Vec<LimitsPass>,
}

impl Limits {
    /// The best peak and the best bandwidth over `passes` (at least one).
    pub fn from_passes(passes: Vec<LimitsPass>) -> Self {
        let peak = passes
            .iter()
            .max_by(|a, b| a.peak_gflops.total_cmp(&b.peak_gflops))
            .expect("at least one pass");
        let triad_gbps = passes.iter().map(|p| p.triad_gbps).fold(0.0, f64::max);
        Limits {
            peak_gflops: peak.peak_gflops,
            peak_kernel: peak.peak_kernel.clone(),
            triad_gbps,
            triad_len: TRIAD_LEN,
            passes,
        }
    }

    /// The least time a run of `flops` and `bytes` can take here: the roofline's bound.
    pub fn bound_seconds(&self, flops: f64, bytes: f64) -> f64 {
        (flops / (self.peak_gflops * 1e9)).max(bytes / (self.triad_gbps * 1e9))
    }
}

/// 2^25 f32 = 128 MiB per array, 384 MiB per pass: far beyond any cache.
const TRIAD_LEN: usize = 1 << 25;
/// Tries of each measurement; the best counts (the machine's limit, not its average).
const TRIES: usize = 7;
/// Seconds one FMA try should last.
const FMA_TRY_SECONDS: f64 = 0.2;

/// A kernel of independent FMA chains: `run(iterations)`, floating-point operations per
/// iteration, and its name.
struct FmaKernel {
    name: &'static str,
    flops_per_iteration: f64,
    run: fn(u64),
}

fn fma_kernels() -> Vec<FmaKernel> {
    let mut kernels = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            kernels.push(FmaKernel {
                name: "avx512 (zmm) FMA",
                flops_per_iteration: (x86::CHAINS * 16 * 2) as f64,
                run: x86::fma_zmm_checked,
            });
        }
        if std::is_x86_feature_detected!("avx") && std::is_x86_feature_detected!("fma") {
            kernels.push(FmaKernel {
                name: "avx2 (ymm) FMA",
                flops_per_iteration: (x86::CHAINS * 8 * 2) as f64,
                run: x86::fma_ymm_checked,
            });
        }
    }
    kernels.push(FmaKernel {
        name: "portable mul+add (no SIMD FMA kernel for this CPU)",
        flops_per_iteration: (PORTABLE_CHAINS * PORTABLE_LANES * 2) as f64,
        run: portable_mul_add,
    });
    kernels
}

/// The best FMA throughput (GFLOP/s) over the kernels this CPU runs, and the kernel's name.
fn peak_fma() -> (f64, String) {
    let threads = rayon::current_num_threads() as f64;
    let mut best = (0.0, String::new());
    for kernel in fma_kernels() {
        // Calibrate on one thread: iterations for about FMA_TRY_SECONDS.
        let probe = 1u64 << 16;
        (kernel.run)(probe);
        let t0 = Instant::now();
        (kernel.run)(probe);
        let per_iteration = t0.elapsed().as_secs_f64().max(1e-9) / probe as f64;
        let iterations = ((FMA_TRY_SECONDS / per_iteration) as u64).max(probe);
        let mut gflops: f64 = 0.0;
        for _ in 0..TRIES {
            let t0 = Instant::now();
            rayon::broadcast(|_| (kernel.run)(iterations));
            let seconds = t0.elapsed().as_secs_f64();
            let flops = threads * iterations as f64 * kernel.flops_per_iteration;
            gflops = gflops.max(flops / seconds / 1e9);
        }
        if gflops > best.0 {
            best = (gflops, kernel.name.to_string());
        }
    }
    best
}

const PORTABLE_CHAINS: usize = 8;
const PORTABLE_LANES: usize = 8;

/// Independent multiply-add chains the compiler can vectorize for the baseline target.
fn portable_mul_add(iterations: u64) {
    let mut acc = [[0.0f32; PORTABLE_LANES]; PORTABLE_CHAINS];
    let (m, a) = (black_box(0.999_999f32), black_box(1e-7f32));
    for _ in 0..iterations {
        for chain in acc.iter_mut() {
            for x in chain.iter_mut() {
                *x = *x * m + a;
            }
        }
    }
    black_box(acc);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::asm;

    /// Independent accumulator chains per iteration: enough to cover the FMA latency (4–5
    /// cycles) on two FMA ports.
    pub const CHAINS: usize = 12;

    /// `iterations` × 12 FMAs on 512-bit registers (zmm0–11 += zmm12 · zmm13, all zero so no
    /// value ever becomes denormal).
    pub fn fma_zmm_checked(iterations: u64) {
        assert!(std::is_x86_feature_detected!("avx512f"));
        // SAFETY: the CPU has AVX-512F (checked above); the asm touches only registers, all
        // declared clobbered by the C ABI, and ends with `vzeroupper`.
        unsafe {
            asm!(
                "vxorps xmm0, xmm0, xmm0",
                "vxorps xmm1, xmm1, xmm1",
                "vxorps xmm2, xmm2, xmm2",
                "vxorps xmm3, xmm3, xmm3",
                "vxorps xmm4, xmm4, xmm4",
                "vxorps xmm5, xmm5, xmm5",
                "vxorps xmm6, xmm6, xmm6",
                "vxorps xmm7, xmm7, xmm7",
                "vxorps xmm8, xmm8, xmm8",
                "vxorps xmm9, xmm9, xmm9",
                "vxorps xmm10, xmm10, xmm10",
                "vxorps xmm11, xmm11, xmm11",
                "vxorps xmm12, xmm12, xmm12",
                "vxorps xmm13, xmm13, xmm13",
                "2:",
                "vfmadd231ps zmm0, zmm12, zmm13",
                "vfmadd231ps zmm1, zmm12, zmm13",
                "vfmadd231ps zmm2, zmm12, zmm13",
                "vfmadd231ps zmm3, zmm12, zmm13",
                "vfmadd231ps zmm4, zmm12, zmm13",
                "vfmadd231ps zmm5, zmm12, zmm13",
                "vfmadd231ps zmm6, zmm12, zmm13",
                "vfmadd231ps zmm7, zmm12, zmm13",
                "vfmadd231ps zmm8, zmm12, zmm13",
                "vfmadd231ps zmm9, zmm12, zmm13",
                "vfmadd231ps zmm10, zmm12, zmm13",
                "vfmadd231ps zmm11, zmm12, zmm13",
                "dec rcx",
                "jnz 2b",
                "vzeroupper",
                inout("rcx") iterations.max(1) => _,
                clobber_abi("C"),
                options(nostack, nomem),
            );
        }
    }

    /// [`fma_zmm_checked`] on 256-bit registers (AVX2 + FMA3).
    pub fn fma_ymm_checked(iterations: u64) {
        assert!(std::is_x86_feature_detected!("avx") && std::is_x86_feature_detected!("fma"));
        // SAFETY: the CPU has AVX and FMA (checked above); as in `fma_zmm_checked`.
        unsafe {
            asm!(
                "vxorps xmm0, xmm0, xmm0",
                "vxorps xmm1, xmm1, xmm1",
                "vxorps xmm2, xmm2, xmm2",
                "vxorps xmm3, xmm3, xmm3",
                "vxorps xmm4, xmm4, xmm4",
                "vxorps xmm5, xmm5, xmm5",
                "vxorps xmm6, xmm6, xmm6",
                "vxorps xmm7, xmm7, xmm7",
                "vxorps xmm8, xmm8, xmm8",
                "vxorps xmm9, xmm9, xmm9",
                "vxorps xmm10, xmm10, xmm10",
                "vxorps xmm11, xmm11, xmm11",
                "vxorps xmm12, xmm12, xmm12",
                "vxorps xmm13, xmm13, xmm13",
                "2:",
                "vfmadd231ps ymm0, ymm12, ymm13",
                "vfmadd231ps ymm1, ymm12, ymm13",
                "vfmadd231ps ymm2, ymm12, ymm13",
                "vfmadd231ps ymm3, ymm12, ymm13",
                "vfmadd231ps ymm4, ymm12, ymm13",
                "vfmadd231ps ymm5, ymm12, ymm13",
                "vfmadd231ps ymm6, ymm12, ymm13",
                "vfmadd231ps ymm7, ymm12, ymm13",
                "vfmadd231ps ymm8, ymm12, ymm13",
                "vfmadd231ps ymm9, ymm12, ymm13",
                "vfmadd231ps ymm10, ymm12, ymm13",
                "vfmadd231ps ymm11, ymm12, ymm13",
                "dec rcx",
                "jnz 2b",
                "vzeroupper",
                inout("rcx") iterations.max(1) => _,
                clobber_abi("C"),
                options(nostack, nomem),
            );
        }
    }
}

/// Best triad bandwidth (GB/s) over `len`-element f32 arrays, on every rayon thread.
fn triad(len: usize) -> f64 {
    const CHUNK: usize = 1 << 16;
    let mut a = vec![0.0f32; len];
    let mut b = vec![0.0f32; len];
    let mut c = vec![0.0f32; len];
    // First touch in parallel, as the passes will (page faults stay out of the timed passes).
    a.par_chunks_mut(CHUNK)
        .zip(b.par_chunks_mut(CHUNK))
        .zip(c.par_chunks_mut(CHUNK))
        .for_each(|((a, b), c)| {
            a.fill(0.0);
            b.fill(1.0);
            c.fill(2.0);
        });
    let s = black_box(3.0f32);
    let mut best = f64::INFINITY;
    for _ in 0..TRIES + 1 {
        let t0 = Instant::now();
        a.par_chunks_mut(CHUNK)
            .zip(b.par_chunks(CHUNK))
            .zip(c.par_chunks(CHUNK))
            .for_each(|((a, b), c)| {
                for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                    *a = b + s * c;
                }
            });
        best = best.min(t0.elapsed().as_secs_f64());
        black_box(&mut a);
    }
    assert!(a.iter().step_by(4099).all(|&x| x == 7.0), "triad result");
    (3 * 4 * len) as f64 / best / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_this_machine() {
        let machine = Machine::describe();
        assert!(!machine.cpu.is_empty());
        assert!(machine.logical_cores >= 1 && machine.threads >= 1);
    }

    #[test]
    fn every_fma_kernel_runs() {
        for kernel in fma_kernels() {
            (kernel.run)(1000);
        }
    }

    #[test]
    fn triad_measures_a_bandwidth() {
        assert!(triad(1 << 16) > 0.0);
    }

    #[test]
    fn roofline_bound_is_the_slower_roof() {
        let pass = |when, peak_gflops, triad_gbps| LimitsPass {
            when,
            peak_gflops,
            peak_kernel: String::new(),
            triad_gbps,
            seconds: 0.0,
            others_pct: None,
        };
        let limits =
            Limits::from_passes(vec![pass("before", 100.0, 5.0), pass("after", 50.0, 10.0)]);
        assert_eq!((limits.peak_gflops, limits.triad_gbps), (100.0, 10.0));
        assert_eq!(limits.bound_seconds(100e9, 1e9), 1.0);
        assert_eq!(limits.bound_seconds(1e9, 100e9), 10.0);
    }
}
