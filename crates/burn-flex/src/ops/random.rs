//! Random tensors from a counter-based generator: Philox4x32-10 (Salmon et al., "Parallel
//! random numbers: as easy as 1, 2, 3", SC 2011), the generator of cuRAND and of PyTorch's
//! CUDA backend.
//!
//! Block `b` of random bits is `philox(key = seed, counter = b)`: four 32-bit words that depend
//! on nothing else. A call reserves the blocks it needs from the device's running counter, so
//! every value of a tensor is a function of the seed, the call's place in the sequence and the
//! value's index: a tensor is filled in parallel and vectorized, with the same values for any
//! number of threads, and the same calls after the same [`seed`] give the same tensors.
//!
//! `f32` tensors take one word per value (24 bits of a uniform, as PyTorch does); two normal
//! values come from the Box–Muller transform of two words (the vectorized `ln`, `sin` and `cos` of
//! [`crate::simd`]). Other dtypes take one block per value: 53 bits for a uniform, two uniforms
//! for a normal value.

// The lockstep loops index several arrays by the same lane number: that is the shape the
// compiler turns into one vector instruction per step.
#![allow(clippy::needless_range_loop)]

use super::map::PAR_THRESHOLD;
use crate::parallel;
use crate::simd::{self, vectorized};
use crate::tensor::{Aligned, FlexTensor, Storable, pool};
use burn_std::{DType, Distribution, Shape};
use std::sync::Mutex;

/// Seed of the random generator until [`seed`] is called.
const DEFAULT_SEED: u64 = 0x5EED_F1E8_2026_0001;

/// The generator's key (the seed) and the next block no call has used.
struct State {
    key: u64,
    next_block: u64,
}

static STATE: Mutex<State> = Mutex::new(State {
    key: DEFAULT_SEED,
    next_block: 0,
});

/// Reseeds the device's random generator: the calls that follow see the sequence they saw
/// after the last `seed` with the same value.
pub fn seed(seed: u64) {
    *STATE.lock().unwrap_or_else(|e| e.into_inner()) = State {
        key: seed,
        next_block: 0,
    };
}

/// Reserves `blocks` blocks of the running sequence: the key and the first block.
fn reserve(blocks: u64) -> (u64, u64) {
    let mut state = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let first = state.next_block;
    state.next_block = first.wrapping_add(blocks);
    (state.key, first)
}

/// A tensor of `dtype` sampled from `distribution` with the device's random generator.
pub fn random(shape: impl Into<Shape>, distribution: Distribution, dtype: DType) -> FlexTensor {
    let shape = shape.into();
    let n = shape.num_elements();
    if dtype == DType::F32 {
        let (key, first) = reserve((n.div_ceil(BATCH) * LANES) as u64);
        return FlexTensor::from_aligned(fill_f32(n, distribution, key, first), shape);
    }
    let (key, first) = reserve(n as u64);
    with_elem!(dtype, E => FlexTensor::from_aligned(fill_generic::<E>(n, distribution, key, first), shape))
}

const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// Blocks computed side by side: one 512-bit vector of counters.
const LANES: usize = 16;

/// The 4 words of `philox4x32-10` for the counters `counter` (one per lane), in lockstep so
/// the rounds vectorize: `words[w][j]` is word `w` of lane `j`.
#[inline(always)]
fn philox_lanes(counter: [[u32; LANES]; 4], key: u64) -> [[u32; LANES]; 4] {
    let [mut c0, mut c1, mut c2, mut c3] = counter;
    let (mut k0, mut k1) = (key as u32, (key >> 32) as u32);
    for round in 0..10 {
        if round > 0 {
            k0 = k0.wrapping_add(W0);
            k1 = k1.wrapping_add(W1);
        }
        for j in 0..LANES {
            let p0 = u64::from(M0) * u64::from(c0[j]);
            let p1 = u64::from(M1) * u64::from(c2[j]);
            let next = [
                (p1 >> 32) as u32 ^ c1[j] ^ k0,
                p1 as u32,
                (p0 >> 32) as u32 ^ c3[j] ^ k1,
                p0 as u32,
            ];
            [c0[j], c1[j], c2[j], c3[j]] = next;
        }
    }
    [c0, c1, c2, c3]
}

/// The words of the `LANES` consecutive blocks from `block`, with `attempt` in the counter's
/// third word (a fresh draw for a value that was rejected).
#[inline(always)]
fn blocks_from(block: u64, key: u64, attempt: u32) -> [[u32; LANES]; 4] {
    let mut counter = [[0u32; LANES]; 4];
    for j in 0..LANES {
        let b = block.wrapping_add(j as u64);
        counter[0][j] = b as u32;
        counter[1][j] = (b >> 32) as u32;
        counter[2][j] = attempt;
    }
    philox_lanes(counter, key)
}

/// A uniform `f32` in `[0, 1)` from the top 24 bits of a word (every value exact).
#[inline(always)]
fn unit_f32(word: u32) -> f32 {
    (word >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// Values per task of the fill: a multiple of `4 · LANES`, so every task starts on a batch.
const TASK_VALUES: usize = 1 << 14;

/// Values of one batch: the 4 words of [`LANES`] consecutive blocks.
const BATCH: usize = 4 * LANES;

/// `n` values of `distribution` as `f32`. Value `i` is word `(i % BATCH) / LANES` of block
/// `first + LANES · (i / BATCH) + i % LANES`: a batch's values are its blocks' first words, then
/// their second words…, which is the order the lockstep rounds leave them in.
fn fill_f32(n: usize, distribution: Distribution, key: u64, first: u64) -> Aligned<f32> {
    let mut out = pool::aligned_for_overwrite::<f32>(n);
    let task = |i: usize, dst: &mut [f32]| {
        let block = first.wrapping_add((i * TASK_VALUES / BATCH * LANES) as u64);
        vectorized(
            #[inline(always)]
            || fill_f32_from(dst, distribution, key, block),
        )
    };
    if n >= PAR_THRESHOLD && parallel::threads() > 1 {
        parallel::for_each_chunk_mut(&mut out, TASK_VALUES, task);
    } else {
        task(0, &mut out);
    }
    out
}

/// [`fill_f32`] for one task's values, from block `block`.
#[inline(always)]
fn fill_f32_from(dst: &mut [f32], distribution: Distribution, key: u64, block: u64) {
    let mut chunks = dst.chunks_exact_mut(BATCH);
    let mut block = block;
    for chunk in &mut chunks {
        let out: &mut [f32; BATCH] = chunk.try_into().expect("a whole batch");
        batch_f32(&blocks_from(block, key, 0), distribution, out);
        block = block.wrapping_add(LANES as u64);
    }
    let tail = chunks.into_remainder();
    if !tail.is_empty() {
        let mut values = [0f32; BATCH];
        batch_f32(&blocks_from(block, key, 0), distribution, &mut values);
        tail.copy_from_slice(&values[..tail.len()]);
    }
}

/// The values of one batch of blocks, value `LANES · w + j` from word `w` of lane `j`.
#[inline(always)]
fn batch_f32(words: &[[u32; LANES]; 4], distribution: Distribution, out: &mut [f32; BATCH]) {
    match distribution {
        Distribution::Default => {
            for w in 0..4 {
                for j in 0..LANES {
                    out[LANES * w + j] = unit_f32(words[w][j]);
                }
            }
        }
        Distribution::Uniform(low, high) => {
            let (lo, span) = (low as f32, (high - low) as f32);
            // The largest f32 below `high`: a value rounded up to `high` is lowered to it…
            let top = match high as f32 {
                h if f64::from(h) >= high => h.next_down(),
                h => h,
            };
            // and the smallest f32 not below `low`: `low` itself may round down.
            let bottom = match lo {
                l if f64::from(l) < low => l.next_up(),
                l => l,
            };
            let (bottom, top) = if low < high {
                (bottom, top)
            } else {
                (f32::NEG_INFINITY, f32::INFINITY)
            };
            for w in 0..4 {
                for j in 0..LANES {
                    out[LANES * w + j] = span.mul_add(unit_f32(words[w][j]), lo).clamp(bottom, top);
                }
            }
        }
        Distribution::Bernoulli(p) => {
            // P(word's top 24 bits < k) = k / 2^24, the probability rounded up to 24 bits.
            let k = (p * 16_777_216.0).ceil().clamp(0.0, 16_777_216.0) as u32;
            for w in 0..4 {
                for j in 0..LANES {
                    out[LANES * w + j] = if (words[w][j] >> 8) < k { 1.0 } else { 0.0 };
                }
            }
        }
        Distribution::Normal(mean, std) => {
            let (mean, std) = (mean as f32, std as f32);
            for pair in 0..2 {
                for j in 0..LANES {
                    // u1 in (0, 1] keeps the logarithm finite.
                    let u1 = 1.0 - unit_f32(words[2 * pair][j]);
                    let angle = std::f32::consts::TAU * unit_f32(words[2 * pair + 1][j]);
                    let radius = (-2.0 * simd::ln_f32(u1)).sqrt() * std;
                    out[LANES * 2 * pair + j] = radius.mul_add(simd::cos_f32(angle), mean);
                    out[LANES * (2 * pair + 1) + j] = radius.mul_add(simd::sin_f32(angle), mean);
                }
            }
        }
    }
}

/// A uniform `f64` in `[0, 1)` from 53 bits of two words.
fn unit_f64(hi: u32, lo: u32) -> f64 {
    ((u64::from(hi) << 32 | u64::from(lo)) >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// `n` values of `distribution` as `E`, value `i` from block `first + i` (the sampling formulas
/// of `burn_std`'s `DistributionSampler`, converted by `E::from_f64`). A uniform value that
/// rounds up to the upper bound in `E` is drawn again from the block's next attempt.
fn fill_generic<E: Storable>(
    n: usize,
    distribution: Distribution,
    key: u64,
    first: u64,
) -> Aligned<E> {
    let high = match distribution {
        Distribution::Default => Some(1.0),
        Distribution::Uniform(low, high) if low < high => Some(high),
        _ => None,
    };
    let value = |words: [u32; 4]| -> f64 {
        let u = unit_f64(words[0], words[1]);
        match distribution {
            Distribution::Default => u,
            Distribution::Bernoulli(p) => f64::from(u8::from(u < p)),
            Distribution::Uniform(low, high) => low + (high - low) * u,
            Distribution::Normal(mean, std) => {
                let u1 = 1.0 - u;
                let angle = std::f64::consts::TAU * unit_f64(words[2], words[3]);
                mean + std * (-2.0 * u1.ln()).sqrt() * angle.cos()
            }
        }
    };
    let mut out = pool::aligned_for_overwrite::<E>(n);
    let task = |i: usize, dst: &mut [E]| {
        let start = first.wrapping_add((i * TASK_VALUES) as u64);
        for (b, chunk) in dst.chunks_mut(LANES).enumerate() {
            let block = start.wrapping_add((b * LANES) as u64);
            let words = blocks_from(block, key, 0);
            for (j, v) in chunk.iter_mut().enumerate() {
                let mut x =
                    E::from_f64(value([words[0][j], words[1][j], words[2][j], words[3][j]]));
                let mut attempt = 1;
                while high.is_some_and(|h| x.to_f64() >= h) && attempt < 16 {
                    let again = blocks_from(block.wrapping_add(j as u64), key, attempt);
                    let w = [again[0][0], again[1][0], again[2][0], again[3][0]];
                    x = E::from_f64(value(w));
                    attempt += 1;
                }
                *v = x;
            }
        }
    };
    if n >= PAR_THRESHOLD / 4 && parallel::threads() > 1 {
        parallel::for_each_chunk_mut(&mut out, TASK_VALUES, task);
    } else {
        task(0, &mut out);
    }
    out
}

/// Held by the tests that draw from the device's generator, so that one reseeding it and
/// drawing sees no other test's draws in between.
#[cfg(test)]
pub(crate) fn seeded() -> std::sync::MutexGuard<'static, ()> {
    static SEEDED: Mutex<()> = Mutex::new(());
    SEEDED.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One block of `philox4x32-10` through the lane function.
    fn philox(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
        let mut lanes = [[0u32; LANES]; 4];
        for w in 0..4 {
            lanes[w][3] = counter[w];
        }
        let out = philox_lanes(lanes, u64::from(key[0]) | u64::from(key[1]) << 32);
        [out[0][3], out[1][3], out[2][3], out[3][3]]
    }

    #[test]
    fn every_f32_value_is_its_word_of_its_block() {
        // Odd length, split between tasks: each value is its word of its block.
        let (key, first) = (0x1234_5678_9abc_def0, u64::MAX - 5);
        let n = 3 * TASK_VALUES + 77;
        let values = fill_f32(n, Distribution::Default, key, first);
        for i in (0..n).step_by(97).chain(n - 4..n) {
            let block = first.wrapping_add((i / BATCH * LANES + i % LANES) as u64);
            let words = philox(
                [block as u32, (block >> 32) as u32, 0, 0],
                [key as u32, (key >> 32) as u32],
            );
            assert_eq!(values[i], unit_f32(words[i % BATCH / LANES]), "value {i}");
        }
    }

    #[test]
    fn same_seed_same_tensors_and_calls_differ() {
        let _guard = seeded();
        for dtype in [DType::F32, DType::F64, DType::I32] {
            let draw = || random([1000], Distribution::Uniform(-5.0, 5.0), dtype);
            seed(42);
            let (a, b) = (draw(), draw());
            seed(42);
            let (c, d) = (draw(), draw());
            with_elem!(dtype, E => {
                assert!(a.to_vec::<E>() == c.to_vec::<E>(), "{dtype:?}: first draws differ");
                assert!(b.to_vec::<E>() == d.to_vec::<E>(), "{dtype:?}: second draws differ");
                assert!(a.to_vec::<E>() != b.to_vec::<E>(), "{dtype:?}: a call repeated");
            });
        }
    }

    /// Mean and standard deviation of `values`.
    fn moments(values: &[f64]) -> (f64, f64) {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        (mean, var.sqrt())
    }

    fn draw_f64(n: usize, distribution: Distribution, dtype: DType) -> Vec<f64> {
        let t = random([n], distribution, dtype);
        with_elem!(dtype, E => t.to_vec::<E>().into_iter().map(|v| burn_std::ToElement::to_f64(&v)).collect())
    }

    #[test]
    fn distributions_have_their_moments_and_ranges() {
        let _guard = seeded();
        let n = 200_000;
        // Tolerances are 6 standard errors of the estimates.
        let se = 6.0 / (n as f64).sqrt();
        for dtype in [DType::F32, DType::F64, DType::F16] {
            let u = draw_f64(n, Distribution::Uniform(-2.0, 6.0), dtype);
            assert!(u.iter().all(|v| (-2.0..6.0).contains(v)), "{dtype:?}");
            let (mean, std) = moments(&u);
            assert!(
                (mean - 2.0).abs() < se * 8.0 / 12f64.sqrt(),
                "{dtype:?} uniform mean {mean}"
            );
            assert!(
                (std - 8.0 / 12f64.sqrt()).abs() < 0.01,
                "{dtype:?} uniform std {std}"
            );

            let z = draw_f64(n, Distribution::Normal(1.0, 3.0), dtype);
            let (mean, std) = moments(&z);
            assert!(
                (mean - 1.0).abs() < 3.0 * se,
                "{dtype:?} normal mean {mean}"
            );
            assert!((std - 3.0).abs() < 3.0 * se, "{dtype:?} normal std {std}");
            // P(|z| > 2σ) = 4.550 %; the tail is where a poor transform shows.
            let tail =
                z.iter().filter(|v| ((*v - 1.0) / 3.0).abs() > 2.0).count() as f64 / n as f64;
            assert!(
                (tail - 0.0455).abs() < 0.003,
                "{dtype:?} normal tail {tail}"
            );

            let b = draw_f64(n, Distribution::Bernoulli(0.3), dtype);
            assert!(b.iter().all(|&v| v == 0.0 || v == 1.0));
            let (mean, _) = moments(&b);
            assert!(
                (mean - 0.3).abs() < se * 0.5,
                "{dtype:?} bernoulli mean {mean}"
            );
        }
        let d = draw_f64(n, Distribution::Default, DType::F32);
        assert!(d.iter().all(|v| (0.0..1.0).contains(v)));
        assert!(d.iter().any(|&v| v < 1e-4) && d.iter().any(|&v| v > 1.0 - 1e-4));
        // `high` not representable: values rounded up to it are lowered below it.
        let small = draw_f64(n, Distribution::Uniform(0.0999999, 0.1), DType::F32);
        assert!(small.iter().all(|&v| (0.0999999..0.1).contains(&v)));
        let ints = draw_f64(n, Distribution::Uniform(0.0, 10.0), DType::I64);
        assert!(
            ints.iter()
                .all(|&v| v == v.floor() && (0.0..10.0).contains(&v))
        );
        assert!((0..10).all(|k| ints.contains(&(k as f64))));
    }

    #[test]
    fn philox_matches_the_published_known_answers() {
        // Random123's `kat_vectors`, the three `philox4x32 10` lines.
        assert_eq!(
            philox([0; 4], [0; 2]),
            [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
        );
        assert_eq!(
            philox([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
        );
        assert_eq!(
            philox(
                [0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344],
                [0xa409_3822, 0x299f_31d0]
            ),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
    }
}
