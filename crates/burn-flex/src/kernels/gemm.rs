//! Matrix products: through the `gemm` crate, and for large f32 ones on AVX-512 CPUs through
//! Flex's own kernel (`gemm_f32_avx512`); how a product is shared between threads.

use super::transpose::transpose;
use crate::element::FloatElement;
use crate::parallel;
use crate::tensor::pool;
use burn_std::ToElement;
use gemm::Parallelism;

/// Work (m·k·n) below which a product runs on one thread.
pub(crate) const PARALLEL_THRESHOLD: usize = 1 << 18;

/// Whether a column-major `rhs` (a transposed view, as in the input gradient `dY·Wᵀ`) is worth
/// copying row-major before the product.
///
/// `gemm` computes a row-major product as its transpose, where `rhs` becomes the left operand;
/// a column-major one is then row-major on the left, which `gemm` packs by gathering down
/// 4 KiB-strided columns that share one cache set. The parallel blocked [`transpose`] makes it
/// row-major first. At `256×1024·(1024×1024)ᵀ` on an AMD Zen 4 host (2 cores), the product took
/// 3.8–3.9 ms gathered against 2.5 ms row-major, and 2.7–3.1 ms with the copy (the copy alone
/// 0.21 ms); W6's step went from 14.9–18.7 to 13.8–16.1 ms (three alternated pairs). A product
/// [`thread_split`] shares out was once left uncopied (each thread then gathers only its own
/// block, all at once; W6 4–6 % faster so on an Intel Sapphire Rapids host); on Zen 4 the
/// gather costs more than the copy either way, and copying each thread's block on its own
/// thread instead gained nothing over the shared copy (ratios to row-major 1.08–1.20 against
/// 1.09–1.16).
fn transposes_rhs_first(m: usize, k: usize, n: usize, rhs_strides: [isize; 2]) -> bool {
    rhs_strides[0] == 1
        && rhs_strides[1] >= k as isize
        && k > 1
        && n > 1
        && m >= 16
        && m * k * n >= PARALLEL_THRESHOLD
}

/// `dst (m×n, row-major, contiguous) = lhs (m×k) · rhs (k×n)` with `gemm`'s own kernel for `T`.
///
/// `lhs_strides` / `rhs_strides` are `[row, column]` strides in elements; the slices must cover
/// every element those strides reach.
#[allow(clippy::too_many_arguments)]
pub fn gemm_native<T: FloatElement>(
    m: usize,
    k: usize,
    n: usize,
    lhs: &[T],
    lhs_strides: [isize; 2],
    rhs: &[T],
    rhs_strides: [isize; 2],
    dst: &mut [T],
) {
    assert_eq!(
        dst.len(),
        m * n,
        "gemm: destination holds {} values, expected {m}×{n}",
        dst.len()
    );
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        dst.fill(T::zero());
        return;
    }
    check_reach(lhs.len(), m, k, lhs_strides, "lhs");
    check_reach(rhs.len(), k, n, rhs_strides, "rhs");
    if transposes_rhs_first(m, k, n, rhs_strides) {
        let mut rows = pool::for_overwrite::<T>(k * n);
        transpose(rhs, n, k, rhs_strides[1] as usize, &mut rows);
        gemm_native(m, k, n, lhs, lhs_strides, &rows, [n as isize, 1], dst);
        pool::give_back(rows);
        return;
    }
    let threads = parallel::threads();
    let split = thread_split(m, k, n, lhs_strides, threads);
    let lhs = SendPtr(lhs.as_ptr().cast_mut());
    let rhs = SendPtr(rhs.as_ptr().cast_mut());
    let dst = SendPtr(dst.as_mut_ptr());
    // SAFETY (every call below): the reach checks above bound every element of the whole
    // product, and each block below is a sub-product of it (its rows or columns, with the same
    // strides); dst is contiguous row-major m×n, and the blocks write disjoint elements of it.
    if let Some(split) = split {
        parallel::for_each(threads, |i| {
            let ([r0, r], [c0, c]) = split.block(i, m, n);
            if c == 0 {
                return;
            }
            let end = r0 + r;
            // Flex's own kernel packs only the right operand, once per block: no bands.
            let band = if own_kernel::<T>(r, k, c) {
                r
            } else {
                ROWS_PER_CALL
            };
            for r0 in (r0..end).step_by(band) {
                let rows = band.min(end - r0);
                let lhs = lhs.at(r0 as isize * lhs_strides[0]);
                let rhs = rhs.at(c0 as isize * rhs_strides[1]);
                let out = dst.at((r0 * n + c0) as isize);
                unsafe {
                    product(
                        rows,
                        k,
                        c,
                        lhs,
                        lhs_strides,
                        rhs,
                        rhs_strides,
                        out,
                        n,
                        false,
                    )
                }
            }
        });
    } else {
        // Inside a task of the team, the other cores already have tasks of their own.
        let parallel = m * k * n >= PARALLEL_THRESHOLD && !parallel::in_team();
        unsafe {
            product(
                m,
                k,
                n,
                lhs.0,
                lhs_strides,
                rhs.0,
                rhs_strides,
                dst.0,
                n,
                parallel,
            )
        }
    }
}

/// How a large product is shared between threads: each runs `gemm` alone on its block of rows
/// or of columns of the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    /// Blocks of this many rows.
    Rows(usize),
    /// Blocks of this many columns.
    Cols(usize),
}

impl Split {
    /// Block `i`'s `[first, count]` rows and columns of an `m×n` result (empty past the end).
    fn block(self, i: usize, m: usize, n: usize) -> ([usize; 2], [usize; 2]) {
        let part = |size: usize, len: usize| {
            let first = (i * size).min(len);
            [first, size.min(len - first)]
        };
        match self {
            Split::Rows(rows) => (part(rows, m), [0, n]),
            Split::Cols(cols) => ([0, m], part(cols, n)),
        }
    }
}

/// Work (m·k·n) from which a product is split between threads by [`thread_split`]: every
/// product worth threads, so that each runs on [`parallel`]'s team rather than on `gemm`'s
/// rayon tasks (at n = 256, 150 µs per thread, rayon's idle workers lost a core for whole rounds).
const SPLIT_WORK: usize = PARALLEL_THRESHOLD;

/// The fewest rows or columns a thread's block may have.
const MIN_BLOCK: usize = 64;

/// The most rows of the result one `gemm` call of a split product computes; a taller block is
/// computed in bands of this many rows.
///
/// `gemm` computes a row-major product as its transpose, so `lhs`'s rows become the columns of
/// its right operand, which it packs `kc` (512 on AVX2) deep and keeps in L3 while it streams
/// the other operand's panels past them: 4 MiB per thread for 2048 rows, against the 16 MiB
/// L3 a virtual machine shares with its neighbours. On a Zen 2 host one thread's
/// 2048×2048·2048×1024 block ran at 73–80 GFLOP/s in one call and 84–85 in two bands of 1024
/// rows (512-row bands 81–85, 256-row ones 76–81).
const ROWS_PER_CALL: usize = 1024;

/// The split of a large product between 2–4 threads, or `None` to let `gemm` share it.
///
/// `gemm`'s own threads divide the columns of its micro-kernel's right operand and each packs
/// the whole left panel, so with a few threads most of the packing is done twice. Splitting the
/// result instead gives each thread its own operand blocks to pack: by columns when `lhs` is
/// row-major, by rows when it is column-major (a transposed view, as in the weight gradient
/// `Xᵀ·dY`, whose packing is a gather). On 2 cores this took the products of W6 from 204–207
/// to 213–218 GFLOP/s; with more threads the blocks would get thin, so `gemm` keeps those.
fn thread_split(
    m: usize,
    k: usize,
    n: usize,
    lhs_strides: [isize; 2],
    threads: usize,
) -> Option<Split> {
    if !(2..=4).contains(&threads) || m.saturating_mul(k).saturating_mul(n) < SPLIT_WORK {
        return None;
    }
    if lhs_strides[0] == 1 && lhs_strides[1] != 1 {
        let rows = m.div_ceil(threads);
        (rows >= MIN_BLOCK).then_some(Split::Rows(rows))
    } else {
        // Whole 64-byte lines of each row per block.
        let cols = n.div_ceil(threads).next_multiple_of(16);
        (cols >= MIN_BLOCK && cols < n).then_some(Split::Cols(cols))
    }
}

/// An operand or destination pointer shared by the threads of a split product: they read the
/// operands and write disjoint blocks of the destination.
#[derive(Clone, Copy)]
struct SendPtr<T>(*mut T);

// SAFETY: see `SendPtr`: shared reads, disjoint writes (`gemm_native`).
unsafe impl<T> Send for SendPtr<T> {}
unsafe impl<T> Sync for SendPtr<T> {}

impl<T> SendPtr<T> {
    fn at(self, offset: isize) -> *mut T {
        self.0.wrapping_offset(offset)
    }
}

/// Whether one thread's `m×k · k×n` product of `T` runs on Flex's own kernel
/// (`gemm_f32_avx512`: `f32` on a CPU with AVX-512F, a wide product) rather than on `gemm`'s.
fn own_kernel<T: FloatElement>(m: usize, k: usize, n: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()
            && super::gemm_f32_avx512::suits(m, k, n)
            && super::gemm_f32_avx512::runs_here()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (m, k, n);
        false
    }
}

/// `dst (m×n, row stride dst_rs, unit column stride) = lhs · rhs`: on one thread through
/// Flex's own kernel where [`own_kernel`] says so, else through `gemm::gemm`.
///
/// # Safety
/// Every element the strides reach from the three pointers must be valid, and no other thread
/// may access the destination's elements meanwhile.
#[allow(clippy::too_many_arguments)]
unsafe fn product<T: FloatElement>(
    m: usize,
    k: usize,
    n: usize,
    lhs: *mut T,
    lhs_strides: [isize; 2],
    rhs: *mut T,
    rhs_strides: [isize; 2],
    dst: *mut T,
    dst_rs: usize,
    parallel: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if !parallel && own_kernel::<T>(m, k, n) {
        // SAFETY: the caller's contract; `own_kernel` checked that T is f32 and that AVX-512F
        // runs.
        unsafe {
            super::gemm_f32_avx512::product(
                m,
                k,
                n,
                lhs.cast_const().cast(),
                lhs_strides,
                rhs.cast_const().cast(),
                rhs_strides,
                dst.cast(),
                dst_rs,
            );
        }
        return;
    }
    let parallelism = if parallel {
        Parallelism::Rayon(0)
    } else {
        Parallelism::None
    };
    // SAFETY: the caller's contract.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst,
            1,
            dst_rs as isize,
            false,
            lhs,
            lhs_strides[1],
            lhs_strides[0],
            rhs,
            rhs_strides[1],
            rhs_strides[0],
            T::zero(),
            T::one(),
            false,
            false,
            false,
            parallelism,
        );
    }
}

/// The same product for element types `gemm` has no kernel for: converts to `f32`, multiplies,
/// and rounds back.
#[allow(clippy::too_many_arguments)]
pub fn gemm_via_f32<T: FloatElement>(
    m: usize,
    k: usize,
    n: usize,
    lhs: &[T],
    lhs_strides: [isize; 2],
    rhs: &[T],
    rhs_strides: [isize; 2],
    dst: &mut [T],
) {
    let lhs32: Vec<f32> = lhs.iter().map(|v| ToElement::to_f32(v)).collect();
    let rhs32: Vec<f32> = rhs.iter().map(|v| ToElement::to_f32(v)).collect();
    let mut dst32 = vec![0f32; m * n];
    gemm_native(
        m,
        k,
        n,
        &lhs32,
        lhs_strides,
        &rhs32,
        rhs_strides,
        &mut dst32,
    );
    for (d, s) in dst.iter_mut().zip(dst32) {
        *d = T::from(s).unwrap_or(T::nan());
    }
}

fn check_reach(len: usize, rows: usize, cols: usize, strides: [isize; 2], name: &str) {
    assert!(
        strides[0] >= 0 && strides[1] >= 0,
        "gemm: {name} strides {strides:?} must be non-negative"
    );
    let last = (rows - 1) as isize * strides[0] + (cols - 1) as isize * strides[1];
    assert!(
        (last as usize) < len,
        "gemm: {name} of {rows}×{cols} with strides {strides:?} reaches past its {len} values"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::bf16;

    fn naive(m: usize, k: usize, n: usize, a: &[f64], b: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                out[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        out
    }

    #[test]
    fn matches_naive_product_including_transposed_operand() {
        let (m, k, n) = (5, 7, 3);
        let a: Vec<f64> = (0..m * k).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.11).cos()).collect();
        let expected = naive(m, k, n, &a, &b);
        let mut out = vec![0.0; m * n];
        gemm_native(m, k, n, &a, [k as isize, 1], &b, [n as isize, 1], &mut out);
        for (o, e) in out.iter().zip(&expected) {
            assert!((o - e).abs() < 1e-12);
        }
        // b stored transposed (n×k), read with swapped strides.
        let bt: Vec<f64> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        gemm_native(m, k, n, &a, [k as isize, 1], &bt, [1, k as isize], &mut out);
        for (o, e) in out.iter().zip(&expected) {
            assert!((o - e).abs() < 1e-12);
        }
        let a16: Vec<bf16> = a.iter().map(|&v| bf16::from_f64(v)).collect();
        let b16: Vec<bf16> = b.iter().map(|&v| bf16::from_f64(v)).collect();
        let mut out16 = vec![bf16::ZERO; m * n];
        gemm_via_f32(
            m,
            k,
            n,
            &a16,
            [k as isize, 1],
            &b16,
            [n as isize, 1],
            &mut out16,
        );
        for (o, e) in out16.iter().zip(&expected) {
            assert!((o.to_f64() - e).abs() < 0.05);
        }
    }

    #[test]
    fn column_major_rhs_taken_through_the_transpose_matches() {
        // Large enough to take the transpose-first path, with a column stride past k.
        let (m, k, n, ld) = (40, 90, 80, 97);
        assert!(transposes_rhs_first(m, k, n, [1, ld as isize]));
        let a: Vec<f64> = (0..m * k).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.11).cos()).collect();
        let expected = naive(m, k, n, &a, &b);
        let mut bt = vec![f64::NAN; n * ld];
        for p in 0..k {
            for j in 0..n {
                bt[j * ld + p] = b[p * n + j];
            }
        }
        let mut out = vec![0.0; m * n];
        gemm_native(
            m,
            k,
            n,
            &a,
            [k as isize, 1],
            &bt,
            [1, ld as isize],
            &mut out,
        );
        for (o, e) in out.iter().zip(&expected) {
            assert!((o - e).abs() < 1e-11, "{o} vs {e}");
        }
    }

    #[test]
    fn products_split_between_threads_match() {
        // Large enough to split; odd sizes so the last block is short.
        let (m, k, n) = (290, 401, 300);
        assert_eq!(
            thread_split(m, k, n, [k as isize, 1], 2),
            Some(Split::Cols(160))
        );
        assert_eq!(
            thread_split(m, k, n, [1, m as isize], 2),
            Some(Split::Rows(145))
        );
        assert_eq!(thread_split(m, k, n, [k as isize, 1], 8), None);
        assert_eq!(thread_split(64, 64, 64, [64, 1], 2), None);
        check_split_product(m, k, n);
        // Blocks taller than `ROWS_PER_CALL`, computed in bands (by columns: 2100 rows per
        // thread; by rows: 1050).
        check_split_product(2 * ROWS_PER_CALL + 52, 40, 150);
    }

    /// f32 products large enough for Flex's own kernel on an AVX-512 CPU (`gemm`'s elsewhere),
    /// split by columns and by rows, every operand row- and column-major, against f64.
    #[test]
    fn f32_products_split_between_threads_match() {
        let (m, k, n): (usize, usize, usize) = (290, 401, 300);
        assert!(
            m * k * n.div_ceil(2) >= 1 << 24,
            "each thread's block takes Flex's kernel"
        );
        let a: Vec<f64> = (0..m * k).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.11).cos()).collect();
        let expected = naive(m, k, n, &a, &b);
        let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
        let b32: Vec<f32> = b.iter().map(|&v| v as f32).collect();
        let at: Vec<f32> = (0..k * m).map(|i| a32[(i % m) * k + i / m]).collect();
        let bt: Vec<f32> = (0..n * k).map(|i| b32[(i % k) * n + i / k]).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for (lhs, strides) in [(&a32, [k as isize, 1]), (&at, [1, m as isize])] {
            for (rhs, rhs_strides) in [(&b32, [n as isize, 1]), (&bt, [1, k as isize])] {
                let mut out = vec![f32::NAN; m * n];
                pool.install(|| gemm_native(m, k, n, lhs, strides, rhs, rhs_strides, &mut out));
                for (i, (o, e)) in out.iter().zip(&expected).enumerate() {
                    assert!(
                        (*o as f64 - e).abs() < 2e-4,
                        "lhs strides {strides:?}, rhs strides {rhs_strides:?}: element {i} \
                         {o} against {e}"
                    );
                }
            }
        }
    }

    /// The product of `m×k` and `k×n` operands, every operand row- and column-major, on two
    /// threads, against [`naive`].
    fn check_split_product(m: usize, k: usize, n: usize) {
        let a: Vec<f64> = (0..m * k).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.11).cos()).collect();
        let expected = naive(m, k, n, &a, &b);
        let at: Vec<f64> = (0..k * m).map(|i| a[(i % m) * k + i / m]).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        // b also as a column-major view (read in place by each thread, not copied first).
        let bt: Vec<f64> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        for (lhs, strides) in [(&a, [k as isize, 1]), (&at, [1, m as isize])] {
            for (rhs, rhs_strides) in [(&b, [n as isize, 1]), (&bt, [1, k as isize])] {
                let mut out = vec![f64::NAN; m * n];
                pool.install(|| gemm_native(m, k, n, lhs, strides, rhs, rhs_strides, &mut out));
                for (o, e) in out.iter().zip(&expected) {
                    assert!(
                        (o - e).abs() < 1e-10,
                        "{strides:?} {rhs_strides:?}: {o} vs {e}"
                    );
                }
            }
        }
    }
}
