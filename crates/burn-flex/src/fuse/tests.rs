//! Deferred chains against the eager operations (bit-identical), and when chains are extended,
//! shared, computed and left eager.

use super::*;
use crate::Flex;
use crate::ops::{binary, reduce, unary};
use burn_backend::Backend;
use burn_backend::ops::{ActivationOps, FloatTensorOps};
use burn_std::{bf16, f16};

const N: usize = DEFER_THRESHOLD + 77;

/// `sync` computes every deferred tensor of the process, so tests that look at whether a program
/// is still pending run one at a time.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

fn ramp<E: Storable + burn_std::Element>(n: usize, scale: f64, shape: &[usize]) -> FlexTensor {
    let values: Vec<E> = (0..n)
        .map(|i| E::from_f64(((i * 37 % 101) as f64 - 50.0) * scale))
        .collect();
    FlexTensor::from_vec(values, shape.to_vec())
}

fn program_size(t: &FlexTensor) -> Option<(usize, usize)> {
    t.deferred_state().and_then(|d| d.pending_size())
}

fn bits<E: Storable + burn_std::Element>(t: FlexTensor) -> Vec<u64> {
    t.into_vec::<E>()
        .into_iter()
        .map(|v| v.to_f64().to_bits())
        .collect()
}

fn w2_chain_matches_eager<E: Storable + burn_std::Element>(shape: &[usize]) {
    let n = shape.iter().product();
    let (a, b, c) = (
        ramp::<E>(n, 0.01, shape),
        ramp::<E>(n, 0.02, shape),
        ramp::<E>(n, 0.03, shape),
    );
    let fused = Flex::float_exp(Flex::float_add(
        Flex::float_mul(a.clone(), b.clone()),
        c.clone(),
    ));
    assert_eq!(
        program_size(&fused),
        Some((3, 6)),
        "one program: 3 loads, mul, add, exp"
    );
    let eager = unary::exp(binary::add(binary::mul(a, b), c));
    assert_eq!(bits::<E>(fused), bits::<E>(eager));
}

#[test]
fn an_element_wise_chain_is_one_program_equal_to_the_eager_ops() {
    let _serial = serial();
    w2_chain_matches_eager::<f32>(&[N]);
    w2_chain_matches_eager::<f64>(&[N]);
    w2_chain_matches_eager::<f16>(&[N]);
    w2_chain_matches_eager::<bf16>(&[N]);
}

#[test]
fn chains_too_large_for_the_caches_prefetch_and_stream_with_the_same_values() {
    let _serial = serial();
    // Rows of several blocks, past the prefetch threshold (prefetched where that pays).
    let rows = crate::stream::PREFETCH_FROM_BYTES / (4 * 1000) + 3;
    w2_chain_matches_eager::<f32>(&[rows, 1000]);
    // Past the streaming-store threshold, with a length that leaves partial lines.
    w2_chain_matches_eager::<f32>(&[crate::stream::STREAM_FROM_BYTES / 4 + 77]);
}

/// A chain of every operation over `[rows, cols]` past the streaming threshold (computed in
/// steps where it has a costly function), with a per-row value (a row constant), a per-column
/// one (restarting each row) and scalars, against the eager operations.
fn every_operation_in_steps_matches_eager<E: Storable + burn_std::Element>(cols: usize) {
    let rows = crate::stream::STREAM_FROM_BYTES / (std::mem::size_of::<E>() * cols) + 2;
    let n = rows * cols;
    let x = ramp::<E>(n, 0.01, &[rows, cols]);
    let per_row = ramp::<E>(rows, 0.02, &[rows, 1]);
    let per_col = ramp::<E>(cols, 0.03, &[1, cols]);
    let one = |s: f32| -> Scalar { s.into() };
    // Eight computing instructions: as many as a plan takes.
    let chain = |x: FlexTensor, deferred: bool| {
        type Op = fn(FlexTensor, FlexTensor) -> FlexTensor;
        let (add, sub, mul, div): (Op, Op, Op, Op) = if deferred {
            (
                Flex::float_add,
                Flex::float_sub,
                Flex::float_mul,
                Flex::float_div,
            )
        } else {
            (binary::add, binary::sub, binary::mul, binary::div)
        };
        let y = mul(sub(x, per_row.clone()), per_col.clone());
        let y = if deferred {
            let y = Flex::float_tanh(Flex::float_mul_scalar(y, one(0.7)));
            Flex::float_exp(Flex::float_add_scalar(y, one(0.25)))
        } else {
            let y = unary::tanh(binary::mul_scalar(y, one(0.7)));
            unary::exp(binary::add_scalar(y, one(0.25)))
        };
        div(add(y, per_col.clone()), per_row.clone())
    };
    let fused = chain(x.clone(), true);
    assert_eq!(program_size(&fused), Some((5, 5 + steps::MAX_STEPS)));
    let eager = chain(x.clone(), false);
    assert_eq!(bits::<E>(fused), bits::<E>(eager));
    let fused = Flex::float_sqrt(Flex::float_abs(Flex::float_neg(x.clone())));
    let fused = Flex::float_recip(Flex::float_log(Flex::float_add_scalar(fused, one(1.5))));
    let eager = unary::sqrt(unary::abs(unary::neg(x)));
    let eager = unary::recip(unary::log(binary::add_scalar(eager, one(1.5))));
    assert_eq!(bits::<E>(fused), bits::<E>(eager));
    // Two short chains of cheap operations (in blocks), with a sub and div by scalars.
    let a = ramp::<E>(n, 0.01, &[rows, cols]);
    let fused = Flex::float_div_scalar(Flex::float_sub_scalar(a.clone(), one(2.0)), one(3.0));
    let eager = binary::div_scalar(binary::sub_scalar(a.clone(), one(2.0)), one(3.0));
    assert_eq!(bits::<E>(fused), bits::<E>(eager));
    // ReLU of values on both sides of 0 (none -0: the eager reference is `clamp_min`).
    let fused = Flex::relu(Flex::float_sub_scalar(a.clone(), one(2.0)));
    assert!(program_size(&fused).is_some());
    let eager = unary::clamp_min(binary::sub_scalar(a, one(2.0)), one(0.0));
    assert_eq!(bits::<E>(fused), bits::<E>(eager));
}

#[test]
fn chains_computed_in_steps_match_the_eager_ops_for_every_operation() {
    let _serial = serial();
    // Rows of whole steps, rows with a partial step at their end, rows shorter than a step.
    for cols in [1024, 1000, 20] {
        every_operation_in_steps_matches_eager::<f32>(cols);
    }
    every_operation_in_steps_matches_eager::<f64>(333);
    every_operation_in_steps_matches_eager::<f16>(96);
}

#[test]
fn prefetching_is_for_intel_cpus() {
    #[cfg(target_arch = "x86_64")]
    {
        // The brand string names the vendor too (leaves 0x8000_0002–4).
        let brand: Vec<u8> = (0x8000_0002..=0x8000_0004u32)
            .flat_map(|leaf| {
                #[allow(unused_unsafe)]
                // SAFETY: every x86-64 CPU has the extended brand-string leaves.
                let r = unsafe { std::arch::x86_64::__cpuid(leaf) };
                [r.eax, r.ebx, r.ecx, r.edx]
                    .into_iter()
                    .flat_map(u32::to_le_bytes)
            })
            .collect();
        let brand = String::from_utf8_lossy(&brand).to_lowercase();
        if brand.contains("intel") || brand.contains("amd") {
            assert_eq!(
                crate::stream::prefetch_pays(),
                brand.contains("intel"),
                "{brand}"
            );
        }
    }
}

#[test]
fn single_operations_run_as_one_loop_with_the_eager_values() {
    let _serial = serial();
    // One thread, shared between threads, past the steps' threshold; a contiguous input, a
    // view starting a row into its buffer, a per-column value broadcast down the rows.
    for (rows, cols) in [(40, 1000), (70, 1000), (300, 1024)] {
        let n = rows * cols;
        let x = ramp::<f32>(n, 0.01, &[rows, cols]);
        let y = ramp::<f32>(n + cols, 0.02, &[rows + 1, cols])
            .slice(&[burn_std::Slice::new(1, None, 1)]);
        let per_col = ramp::<f32>(cols, 0.03, &[1, cols]);
        let cases: [(FlexTensor, FlexTensor); 4] = [
            (
                Flex::float_add(x.clone(), y.clone()),
                binary::add(x.clone(), y.clone()),
            ),
            (
                Flex::float_mul(y.clone(), per_col.clone()),
                binary::mul(y.clone(), per_col.clone()),
            ),
            (Flex::float_exp(y.clone()), unary::exp(y.clone())),
            (
                Flex::float_div_scalar(x.clone(), 3.0f32.into()),
                binary::div_scalar(x.clone(), 3.0f32.into()),
            ),
        ];
        for (k, (fused, eager)) in cases.into_iter().enumerate() {
            assert!(program_size(&fused).is_some(), "case {k} at {rows}×{cols}");
            assert_eq!(
                bits::<f32>(fused),
                bits::<f32>(eager),
                "case {k} at {rows}×{cols}"
            );
        }
    }
}

#[test]
fn row_broadcasts_and_scalars_fuse_with_the_right_values() {
    let _serial = serial();
    let (rows, cols) = (64, 1000);
    let x = ramp::<f32>(rows * cols, 0.05, &[rows, cols]);
    let max = reduce::max_dim(x.clone(), 1);
    let shifted = Flex::float_sub(x.clone(), max.clone());
    let e = Flex::float_exp(Flex::float_mul_scalar(shifted, 0.5f32.into()));
    assert_eq!(program_size(&e), Some((2, 5)));
    let sum = reduce::sum_dim(e.clone(), 1);
    let fused = Flex::float_div(e, sum.clone());
    let eager_e = unary::exp(binary::mul_scalar(binary::sub(x, max), 0.5f32.into()));
    let eager = binary::div(eager_e, sum);
    assert_eq!(bits::<f32>(fused), bits::<f32>(eager));
}

#[test]
fn row_constants_are_read_as_scalars_with_the_eager_values() {
    let _serial = serial();
    let one = |s: f32| -> Scalar { s.into() };
    // One thread, shared between threads (rows of several blocks and a partial one), and
    // channel segments too short for a block.
    for [n, c, s] in [[2, 3, 6000], [4, 16, 1100], [64, 64, 9]] {
        let x = ramp::<f32>(n * c * s, 0.01, &[n, c, s]);
        let scale = ramp::<f32>(c, 0.03, &[1, c, 1]);
        let shift = ramp::<f32>(c, 0.02, &[1, c, 1]);
        type Op = fn(FlexTensor, FlexTensor) -> FlexTensor;
        // (deferred, eager) pairs of the binary operations.
        let ops: [(Op, Op); 4] = [
            (Flex::float_add, binary::add),
            (Flex::float_sub, binary::sub),
            (Flex::float_mul, binary::mul),
            (Flex::float_div, binary::div),
        ];
        for (k, (fused_op, eager_op)) in ops.into_iter().enumerate() {
            let case = |fused: FlexTensor, eager: FlexTensor, what: &str| {
                assert!(program_size(&fused).is_some(), "{what} {k} at {n}×{c}×{s}");
                assert_eq!(bits::<f32>(fused), bits::<f32>(eager), "{what} {k}");
            };
            // The constant on the right, then on the left (a scalar only where `op` commutes).
            let fused = fused_op(x.clone(), scale.clone());
            case(fused, eager_op(x.clone(), scale.clone()), "x op s");
            let fused = fused_op(scale.clone(), x.clone());
            case(fused, eager_op(scale.clone(), x.clone()), "s op x");
            // Two operations (BatchNorm in inference), a third with a scalar.
            let fused = Flex::float_add(fused_op(x.clone(), scale.clone()), shift.clone());
            let eager = binary::add(eager_op(x.clone(), scale.clone()), shift.clone());
            case(fused, eager, "(x op s) + t");
            let fused = Flex::float_mul_scalar(fused_op(shift.clone(), x.clone()), one(0.5));
            let eager = binary::mul_scalar(eager_op(shift.clone(), x.clone()), one(0.5));
            case(fused, eager, "(t op x)·0.5");
        }
        // Two operations by scalars of the program, in one loop (`pair.rs`).
        type ScalarOp = fn(FlexTensor, Scalar) -> FlexTensor;
        let scalar_ops: [(ScalarOp, ScalarOp); 4] = [
            (Flex::float_add_scalar, binary::add_scalar),
            (Flex::float_sub_scalar, binary::sub_scalar),
            (Flex::float_mul_scalar, binary::mul_scalar),
            (Flex::float_div_scalar, binary::div_scalar),
        ];
        for (k, (fused_op, eager_op)) in scalar_ops.into_iter().enumerate() {
            let fused = Flex::float_sub_scalar(fused_op(x.clone(), one(3.0)), one(0.25));
            let eager = binary::sub_scalar(eager_op(x.clone(), one(3.0)), one(0.25));
            assert!(program_size(&fused).is_some(), "x op 3 - 0.25, {k}");
            assert_eq!(bits::<f32>(fused), bits::<f32>(eager), "x op 3 - 0.25, {k}");
        }
    }
}

#[test]
fn a_shared_intermediate_is_loaded_by_each_user() {
    let _serial = serial();
    let a = ramp::<f32>(N, 0.01, &[N]);
    let y = Flex::float_mul(a.clone(), a.clone());
    let left = Flex::float_add_scalar(y.clone(), 1.0f32.into());
    // `y` is shared: `left` loads it instead of inlining it.
    assert_eq!(program_size(&left), Some((1, 2)));
    let right = Flex::float_neg(y);
    let squared = binary::mul(a.clone(), a);
    assert_eq!(
        bits::<f32>(left),
        bits::<f32>(binary::add_scalar(squared.clone(), 1.0f32.into()))
    );
    assert_eq!(bits::<f32>(right), bits::<f32>(unary::neg(squared)));
}

#[test]
fn strided_inputs_are_read_through_their_layout() {
    let _serial = serial();
    let x = ramp::<f32>(400 * 300, 0.01, &[400, 300]);
    let t = x.clone().transpose();
    let fused = Flex::float_sqrt(Flex::float_abs(Flex::float_add(t.clone(), t.clone())));
    let eager = unary::sqrt(unary::abs(binary::add(t.clone(), t)));
    assert_eq!(fused.shape(), eager.shape());
    assert_eq!(bits::<f32>(fused), bits::<f32>(eager));
}

#[test]
fn small_tensors_and_ints_stay_eager() {
    let _serial = serial();
    let small = ramp::<f32>(100, 0.1, &[100]);
    assert!(Flex::float_exp(small).deferred_state().is_none());
    let ints = FlexTensor::from_vec(vec![1i32; N], [N]);
    assert!(binary::add(ints.clone(), ints).deferred_state().is_none());
}

#[test]
fn sync_computes_what_is_pending() {
    let _serial = serial();
    let a = ramp::<f32>(N, 0.01, &[N]);
    let pending = Flex::float_exp(a);
    assert!(program_size(&pending).is_some());
    Flex::sync(&crate::FlexDevice).unwrap();
    assert_eq!(program_size(&pending), None, "computed by sync");
    assert!(pending.deferred_state().is_some(), "still the same handle");
}

#[test]
fn long_chains_and_deep_sharing_stay_bounded() {
    let _serial = serial();
    let mut x = ramp::<f32>(N, 0.001, &[N]);
    let mut expected = x.to_vec::<f32>();
    for step in 0..200 {
        // Every other step shares the intermediate, so programs nest until MAX_DEPTH.
        let keep = (step % 2 == 0).then(|| x.clone());
        x = Flex::float_add_scalar(x, 1.0f32.into());
        if let Some(d) = x.deferred_state() {
            assert!(d.depth() <= MAX_DEPTH);
        }
        if let Some((inputs, instrs)) = program_size(&x) {
            assert!(inputs <= MAX_INPUTS && instrs <= MAX_INSTRUCTIONS);
        }
        drop(keep);
        expected.iter_mut().for_each(|v| *v += 1.0);
    }
    assert_eq!(x.into_vec::<f32>(), expected);
}

#[test]
fn reductions_of_a_deferred_chain_read_its_program_and_match_the_eager_ones() {
    let _serial = serial();
    let (rows, cols) = (70, 1000);
    let x = ramp::<f32>(rows * cols, 0.05, &[rows, cols]);
    let chain = || Flex::float_exp(Flex::float_mul_scalar(x.clone(), 0.3f32.into()));
    let eager = unary::exp(binary::mul_scalar(x.clone(), 0.3f32.into()));
    let deferred = chain();
    for (fused, expected) in [
        (
            Flex::float_sum_dim(deferred.clone(), 1),
            reduce::sum_dim(eager.clone(), 1),
        ),
        (
            Flex::float_mean_dim(deferred.clone(), 1),
            reduce::mean_dim(eager.clone(), 1),
        ),
        (
            Flex::float_max_dim(deferred.clone(), 1),
            reduce::max_dim(eager.clone(), 1),
        ),
        (
            Flex::float_min_dim(deferred.clone(), 1),
            reduce::min_dim(eager.clone(), 1),
        ),
        // Not along the last dim: computed, then reduced eagerly.
        (
            Flex::float_sum_dim(chain(), 0),
            reduce::sum_dim(eager.clone(), 0),
        ),
    ] {
        assert_eq!(fused.shape(), expected.shape());
        assert_eq!(bits::<f32>(fused), bits::<f32>(expected));
    }
    assert!(
        program_size(&deferred).is_some(),
        "the reductions did not store the chain"
    );
    assert_eq!(bits::<f32>(deferred), bits::<f32>(eager));
}

#[test]
fn a_computed_chain_viewed_elsewhere_is_not_written_in_place() {
    let _serial = serial();
    let a = ramp::<f32>(N, 0.01, &[N]);
    let mut x = Flex::float_exp(a.clone());
    // A view made from the computed values (not from the deferred handle) shares the buffer.
    let view = x.with_layout(x.layout().clone());
    assert!(!x.can_mut(), "the view shares the values");
    assert!(x.data_mut::<f32>().is_none());
    drop(view);
    assert!(x.can_mut());
    x.data_mut::<f32>().expect("unique again")[0] = 7.0;
    assert_eq!(x.to_vec::<f32>()[0], 7.0);
    assert_eq!(bits::<f32>(x)[1..], bits::<f32>(unary::exp(a))[1..]);
}

#[test]
fn in_place_operations_survive_a_sync_on_another_thread() {
    // `compute_pending` upgrades the pending `Weak` of every deferred tensor, so for a moment a
    // tensor's deferred state has two owners. An operation that checked for a unique buffer and
    // then asked for it could find it shared in between; it must fall back to a copy instead.
    // The window is narrow, so this is a guard that catches a regression now and then, not a
    // reproduction on every run.
    let _serial = serial();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let shape = [N];
    let a = ramp::<f32>(N, 0.01, &shape);
    let expected_exp = unary::exp(a.clone()).into_vec::<f32>();
    let mask = FlexTensor::from_vec((0..N).map(|i| i % 3 == 0).collect(), shape.to_vec());
    let value = FlexTensor::from_vec(vec![-1.0f32], vec![1]).expand(shape.to_vec());
    let mut expected_masked = expected_exp.clone();
    for (v, m) in expected_masked.iter_mut().zip(mask.to_vec::<bool>()) {
        if m {
            *v = -1.0;
        }
    }
    let expected_sum: Vec<f32> = expected_exp
        .iter()
        .scan(0.0f32, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .collect();
    std::thread::scope(|s| {
        s.spawn(|| {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                compute_pending();
            }
        });
        for _ in 0..200 {
            let masked = crate::ops::mask::mask_where(
                Flex::float_exp(a.clone()),
                mask.clone(),
                value.clone(),
            );
            assert_eq!(masked.into_vec::<f32>(), expected_masked);
            let summed = crate::ops::scan::cumsum(Flex::float_exp(a.clone()), 0);
            assert_eq!(summed.into_vec::<f32>(), expected_sum);
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

#[test]
fn a_chain_times_itself_is_inlined_once_and_read_as_both_operands() {
    let _serial = serial();
    let (a, b) = (ramp::<f32>(N, 0.01, &[N]), ramp::<f32>(N, 0.02, &[N]));
    let centered = Flex::float_sub(a.clone(), b.clone());
    let squared = Flex::float_mul(centered.clone(), centered);
    assert_eq!(
        program_size(&squared),
        Some((2, 4)),
        "one program: 2 loads, sub, mul of the sub with itself"
    );
    let eager = binary::sub(a.clone(), b.clone());
    let eager = binary::mul(eager.clone(), eager);
    assert_eq!(bits::<f32>(squared), bits::<f32>(eager.clone()));
    // A third handle keeps the chain shared: it is computed once and loaded.
    let centered = Flex::float_sub(a, b);
    let kept = centered.clone();
    let squared = Flex::float_mul(centered.clone(), centered);
    assert_eq!(program_size(&squared), Some((2, 3)));
    assert_eq!(bits::<f32>(squared), bits::<f32>(eager));
    drop(kept);
}
