//! Integer matrix products: `i8 · i8` summed in `i32`, then scaled into `f32`.
//!
//! `out[i][j] = (Σ_k a[i][k] · b[k][j]) · row_scale[i] · col_scale[j]`: the product of two
//! symmetric quantized matrices whose scales are constant along `k` (per tensor, per row of
//! `a`, per column of `b`). The sums are exact (`|a|, |b| ≤ 128`, so `k` up to 2^17 cannot
//! overflow `i32`); only the final scaling rounds.
//!
//! Kernels, chosen at run time:
//! - **AVX-512 VNNI** (`vpdpbusd`: 64 `u8 × i8` products summed into 16 `i32` lanes per
//!   instruction). `b` is packed once into panels of 16 columns × 4 consecutive `k` (one
//!   512-bit register per step of 4 in `k`); `a` is offset by +128 into `u8` rows, and the
//!   offset is taken back out with the column sums of `b` (`Σ (a+128)·b = Σ a·b + 128·Σ b`).
//!   A tile of 8 rows × 32 columns keeps 16 accumulators in registers; a task's rows meet one
//!   panel pair after another (the pair stays in cache); rows are split across threads when
//!   the work is large.
//! - **AVX2** (`vpmaddwd`: 16 `i16 × i16` products summed in pairs into 8 `i32` lanes): `b`
//!   packed into panels of 8 columns × 2 consecutive `k`, widened to `i16`; a tile of 4 rows ×
//!   16 columns.
//! - **Portable**: a row of `i32` sums updated by `a[i][k] · b[k][·]`, which the compiler
//!   vectorizes for the widest instruction set (`simd::vectorized`).

/// Work (m·k·n) below which a product runs on one thread.
const PARALLEL_THRESHOLD: usize = 1 << 18;

/// The operands and epilogue of one integer product.
pub struct Int8Product<'a> {
    /// Rows of `a` and of the result.
    pub m: usize,
    /// Columns of `a`, rows of `b`.
    pub k: usize,
    /// Columns of `b` and of the result.
    pub n: usize,
    /// `a`, row-major `m × k`.
    pub a: &'a [i8],
    /// `b` (`k × n`), packed for the kernel that runs the product.
    pub b: &'a PackedRhs,
    /// One scale per row of `a` (length `m`), or one for all (length 1).
    pub row_scales: &'a [f32],
    /// One scale per column of `b` (length `n`), or one for all (length 1).
    pub col_scales: &'a [f32],
}

impl Int8Product<'_> {
    fn check(&self) {
        let (m, k, n) = (self.m, self.k, self.n);
        assert_eq!(
            self.a.len(),
            m * k,
            "int8 matmul: lhs holds {} values, expected {m}×{k}",
            self.a.len()
        );
        assert!(
            self.b.k == k && self.b.n == n,
            "int8 matmul: rhs is {}×{}, expected {k}×{n}",
            self.b.k,
            self.b.n
        );
        assert!(
            matches!(self.row_scales.len(), 1) || self.row_scales.len() == m,
            "int8 matmul: expected 1 or {m} row scales, got {}",
            self.row_scales.len()
        );
        assert!(
            matches!(self.col_scales.len(), 1) || self.col_scales.len() == n,
            "int8 matmul: expected 1 or {n} column scales, got {}",
            self.col_scales.len()
        );
        assert!(
            k < 1 << 17,
            "int8 matmul: k = {k} could overflow the i32 sums (limit 2^17)"
        );
    }

    fn row_scale(&self, i: usize) -> f32 {
        self.row_scales[if self.row_scales.len() == 1 { 0 } else { i }]
    }

    fn col_scale(&self, j: usize) -> f32 {
        self.col_scales[if self.col_scales.len() == 1 { 0 } else { j }]
    }
}

/// The kernel families, for tests that force one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int8Kernel {
    /// The portable loop.
    Portable,
    /// AVX-512 VNNI.
    Vnni,
    /// AVX2.
    Avx2,
}

/// The fastest kernel this CPU runs.
pub fn best_kernel() -> Int8Kernel {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512vnni")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512f")
    {
        return Int8Kernel::Vnni;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        return Int8Kernel::Avx2;
    }
    Int8Kernel::Portable
}

/// The right operand of integer products, packed once for one kernel (a weight used by many
/// products is packed once: see `Derived` on the quantized tensor).
pub struct PackedRhs {
    kernel: Int8Kernel,
    k: usize,
    n: usize,
    /// Portable: `b` row-major. VNNI: panel `p`, step `q` holds `b[4q + t][16p + c]` at
    /// `(p · steps + q) · 64 + 4c + t`, zero beyond `k` and `n`. AVX2: `i16` values as
    /// `avx2::pack` lays them out, as little-endian bytes.
    data: Vec<i8>,
    /// Steps of 4 (VNNI) or 2 (AVX2) along `k`.
    steps: usize,
    /// Panels of 16 (VNNI) or 8 (AVX2) columns.
    panels: usize,
    /// `Σ_k b[k][j]` per (padded) column: the correction of the +128 offset of `a` (VNNI).
    col_sums: Vec<i32>,
}

impl PackedRhs {
    /// `b` (`k × n`, row-major) packed for the fastest kernel.
    pub fn new(b: &[i8], k: usize, n: usize) -> Self {
        Self::for_kernel(best_kernel(), b, k, n)
    }

    /// `b` packed for `kernel`.
    ///
    /// # Panics
    ///
    /// When the kernel does not run on this CPU or `b` does not hold `k × n` values.
    pub fn for_kernel(kernel: Int8Kernel, b: &[i8], k: usize, n: usize) -> Self {
        assert_eq!(
            b.len(),
            k * n,
            "int8 matmul: rhs holds {} values, expected {k}×{n}",
            b.len()
        );
        match kernel {
            Int8Kernel::Portable => Self {
                kernel,
                k,
                n,
                data: b.to_vec(),
                steps: 0,
                panels: 0,
                col_sums: Vec::new(),
            },
            Int8Kernel::Vnni => {
                assert_eq!(
                    best_kernel(),
                    Int8Kernel::Vnni,
                    "int8 matmul: this CPU has no AVX-512 VNNI"
                );
                #[cfg(target_arch = "x86_64")]
                return vnni::pack(b, k, n);
                #[cfg(not(target_arch = "x86_64"))]
                unreachable!()
            }
            Int8Kernel::Avx2 => {
                #[cfg(target_arch = "x86_64")]
                {
                    assert!(
                        std::arch::is_x86_feature_detected!("avx2"),
                        "int8 matmul: this CPU has no AVX2"
                    );
                    avx2::pack(b, k, n)
                }
                #[cfg(not(target_arch = "x86_64"))]
                unreachable!("int8 matmul: no AVX2 off x86-64")
            }
        }
    }
}

/// `out (m × n, row-major) = a · b · scales`, with the kernel `b` was packed for.
///
/// # Panics
///
/// When the operands do not match their sizes.
pub fn int8_matmul(product: &Int8Product<'_>, out: &mut [f32]) {
    product.check();
    let (m, n) = (product.m, product.n);
    assert_eq!(
        out.len(),
        m * n,
        "int8 matmul: output holds {} values, expected {m}×{n}",
        out.len()
    );
    if m == 0 || n == 0 {
        return;
    }
    match product.b.kernel {
        Int8Kernel::Portable => portable(product, out),
        Int8Kernel::Vnni => {
            #[cfg(target_arch = "x86_64")]
            vnni::matmul(product, out);
        }
        Int8Kernel::Avx2 => {
            #[cfg(target_arch = "x86_64")]
            avx2::matmul(product, out);
        }
    }
}

/// Row-parallel driver: `rows(first_row, out_rows)` fills whole rows of `out`.
fn by_rows(
    product: &Int8Product<'_>,
    out: &mut [f32],
    rows_per_task: usize,
    rows: impl Fn(usize, &mut [f32]) + Sync,
) {
    let n = product.n;
    if product.m * product.k * n < PARALLEL_THRESHOLD {
        rows(0, out);
        return;
    }
    crate::parallel::for_each_chunk_mut(out, rows_per_task * n, |task, chunk| {
        rows(task * rows_per_task, chunk)
    });
}

/// One register tile of a packed kernel: its rows of `a` (packed), the first of its panels and
/// how many (1 or 2), its first row and live rows, and those rows of the output.
struct TileJob<'a, A> {
    a_tile: &'a [A],
    panel: usize,
    panels: usize,
    first_row: usize,
    live: usize,
    out_rows: &'a mut [f32],
}

/// The driver the packed kernels share: each task of 64 rows packs its rows of `a` once
/// (`convert` per value, `pad` to whole steps of `width` and whole tiles of `mr` rows), then
/// meets `b`'s panels two at a time, each pair against every tile of the task (the pair stays
/// in cache), and `tile` computes and stores one tile.
fn packed_tiles<A: Copy + Send + Sync>(
    p: &Int8Product<'_>,
    out: &mut [f32],
    (mr, width): (usize, usize),
    (pad, convert): (A, fn(i8) -> A),
    tile: impl Fn(TileJob<'_, A>) + Sync,
) {
    // 64 rows per task: several register tiles, enough work to amortize a task.
    by_rows(p, out, 64, |first, chunk| {
        let rows = chunk.len() / p.n;
        let tiles = rows.div_ceil(mr);
        let mut a_pack = vec![pad; tiles * mr * width];
        for r in 0..rows {
            let i = first + r;
            let src = &p.a[i * p.k..(i + 1) * p.k];
            for (dst, &v) in a_pack[r * width..r * width + p.k].iter_mut().zip(src) {
                *dst = convert(v);
            }
        }
        let mut panel = 0;
        while panel < p.b.panels {
            let panels = (p.b.panels - panel).min(2);
            for t in 0..tiles {
                let live = mr.min(rows - t * mr);
                tile(TileJob {
                    a_tile: &a_pack[t * mr * width..(t + 1) * mr * width],
                    panel,
                    panels,
                    first_row: first + t * mr,
                    live,
                    out_rows: &mut chunk[t * mr * p.n..(t * mr + live) * p.n],
                });
            }
            panel += panels;
        }
    });
}

/// Writes a tile's sums (`sums`, one slice per row, `panel_width` columns per panel), less
/// `offset(j)` in column `j` with wrapping arithmetic, and scaled, into its live rows and
/// columns.
fn store_tile<'s, A>(
    p: &Int8Product<'_>,
    job: TileJob<'_, A>,
    panel_width: usize,
    sums: impl Iterator<Item = &'s [i32]>,
    offset: impl Fn(usize) -> i32,
) {
    let col0 = job.panel * panel_width;
    let cols = (job.panels * panel_width).min(p.n - col0);
    for (r, row) in sums.enumerate().take(job.live) {
        let rs = p.row_scale(job.first_row + r);
        let out = &mut job.out_rows[r * p.n + col0..r * p.n + col0 + cols];
        for (c, o) in out.iter_mut().enumerate() {
            let j = col0 + c;
            *o = row[c].wrapping_sub(offset(j)) as f32 * rs * p.col_scale(j);
        }
    }
}

fn portable(p: &Int8Product<'_>, out: &mut [f32]) {
    let (k, n) = (p.k, p.n);
    by_rows(p, out, 16, |first, chunk| {
        crate::simd::vectorized(|| {
            let mut sums = vec![0i32; n];
            for (r, out_row) in chunk.chunks_exact_mut(n).enumerate() {
                let i = first + r;
                sums.fill(0);
                for (kk, &a) in p.a[i * k..(i + 1) * k].iter().enumerate() {
                    let a = a as i32;
                    let b_row = &p.b.data[kk * n..(kk + 1) * n];
                    for (s, &b) in sums.iter_mut().zip(b_row) {
                        *s += a * b as i32;
                    }
                }
                let rs = p.row_scale(i);
                for (j, (o, &s)) in out_row.iter_mut().zip(&sums).enumerate() {
                    *o = s as f32 * rs * p.col_scale(j);
                }
            }
        })
    });
}

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod vnni;

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(p: &Int8Product<'_>, b: &[i8]) -> Vec<f32> {
        let mut out = vec![0.0; p.m * p.n];
        for i in 0..p.m {
            for j in 0..p.n {
                let s: i64 = (0..p.k)
                    .map(|kk| p.a[i * p.k + kk] as i64 * b[kk * p.n + j] as i64)
                    .sum();
                out[i * p.n + j] = (s as i32) as f32 * p.row_scale(i) * p.col_scale(j);
            }
        }
        out
    }

    fn values(len: usize, seed: u64, lo: i32, hi: i32) -> Vec<i8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (lo + (state % (hi - lo + 1) as u64) as i32) as i8
            })
            .collect()
    }

    fn check(kernel: Int8Kernel, m: usize, k: usize, n: usize, per_row: bool) {
        let a = values(m * k, (m * 31 + k) as u64, -128, 127);
        let b = values(k * n, (k * 17 + n) as u64, -127, 127);
        let row_scales: Vec<f32> = if per_row {
            (0..m).map(|i| 0.5 + i as f32 * 0.25).collect()
        } else {
            vec![0.5]
        };
        let col_scales: Vec<f32> = (0..n).map(|j| 0.01 * (j % 7 + 1) as f32).collect();
        let packed = PackedRhs::for_kernel(kernel, &b, k, n);
        let p = Int8Product {
            m,
            k,
            n,
            a: &a,
            b: &packed,
            row_scales: &row_scales,
            col_scales: &col_scales,
        };
        let mut out = vec![f32::NAN; m * n];
        int8_matmul(&p, &mut out);
        // The sums are exact and the scaling is the same sequence of f32 products: equal bits.
        assert_eq!(out, reference(&p, &b), "{kernel:?} {m}x{k}x{n}");
    }

    #[test]
    fn portable_kernel_is_exact() {
        for (m, k, n) in [
            (1, 1, 1),
            (3, 5, 7),
            (17, 64, 33),
            (64, 130, 40),
            (300, 77, 129),
        ] {
            check(Int8Kernel::Portable, m, k, n, m % 2 == 1);
        }
    }

    /// The shapes the vector kernels are checked on: tails of rows, of `k` and of columns.
    const SHAPES: [(usize, usize, usize); 9] = [
        (1, 1, 1),
        (3, 5, 7),
        (4, 4, 16),
        (5, 63, 17),
        (17, 64, 33),
        (64, 130, 40),
        (300, 77, 129),
        (129, 1024, 48),
        (70, 3, 9),
    ];

    #[test]
    fn avx2_kernel_is_exact() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            for (m, k, n) in SHAPES {
                check(Int8Kernel::Avx2, m, k, n, m % 2 == 1);
            }
            return;
        }
        eprintln!("skipped: this CPU has no AVX2");
    }

    #[test]
    fn vnni_kernel_is_exact() {
        if best_kernel() != Int8Kernel::Vnni {
            eprintln!("skipped: this CPU has no AVX-512 VNNI");
            return;
        }
        for (m, k, n) in SHAPES {
            check(Int8Kernel::Vnni, m, k, n, m % 2 == 1);
        }
    }
}
