//! Fused reductions: a program's local reduced inside the reduction kernel, compared with a
//! float64 host evaluation and with the unfused kernels; the program's outputs written as the
//! lines are walked; long lines (two passes), NaN, f16, full reductions, one launch.

use crate::device_or_skip;
use crate::harness::{
    assert_close, broadcast_index, coords, random_values, read, rng, tensor, tolerance,
};
use burn_backend::{DType, Shape};
use burn_cubecl::fused::{
    FusedArg, FusedEpilogue, FusedInstr, FusedProgram, FusedReduction, launch_fused_reduce,
    supports_reduce,
};
use burn_cubecl::kernel::{BinaryOp, ReduceOp, UnaryOp, binary, reduce, unary};
use burn_cubecl::launch_count;

use FusedArg::{Input, Local};

/// `exp(x - m)` with `m` broadcast: local 1 is the exponential.
fn exp_sub(dtype: DType, output_exp: bool) -> FusedProgram {
    FusedProgram {
        inputs: vec![dtype, dtype],
        scalars: vec![],
        locals: vec![dtype, dtype],
        instrs: vec![
            FusedInstr::Binary {
                op: BinaryOp::Sub,
                lhs: Input(0),
                rhs: Input(1),
                out: 0,
            },
            FusedInstr::Unary {
                op: UnaryOp::Exp,
                input: Local(0),
                out: 1,
            },
        ],
        outputs: if output_exp { vec![1] } else { vec![] },
    }
}

/// The host value of `exp(x - m)` over `shape`, `m` of `m_shape` broadcast.
fn host_exp_sub(x: &[f64], m: &[f64], shape: &[usize], m_shape: &[usize]) -> Vec<f64> {
    (0..x.len())
        .map(|i| (x[i] - m[broadcast_index(&coords(i, shape), m_shape)]).exp())
        .collect()
}

/// `op` of `values` (of `shape`) along `dim` (every element when `None`), in float64.
fn host_reduce(op: ReduceOp, values: &[f64], shape: &[usize], dim: Option<usize>) -> Vec<f64> {
    let (outer, line, inner) = match dim {
        Some(d) => (
            shape[..d].iter().product(),
            shape[d],
            shape[d + 1..].iter().product(),
        ),
        None => (1, values.len(), 1),
    };
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let items = (0..line).map(|l| values[o * line * inner + l * inner + i]);
            out.push(match op {
                ReduceOp::Sum => items.sum(),
                ReduceOp::Mean => items.sum::<f64>() / line as f64,
                ReduceOp::Prod => items.product(),
                ReduceOp::Max => items.fold(f64::NEG_INFINITY, |a, b| {
                    if a.is_nan() || b.is_nan() {
                        f64::NAN
                    } else {
                        a.max(b)
                    }
                }),
                ReduceOp::Min => items.fold(f64::INFINITY, |a, b| {
                    if a.is_nan() || b.is_nan() {
                        f64::NAN
                    } else {
                        a.min(b)
                    }
                }),
                _ => unreachable!(),
            });
        }
    }
    out
}

fn reduced_shape(shape: &[usize], dim: Option<usize>) -> Vec<usize> {
    match dim {
        Some(d) => {
            let mut s = shape.to_vec();
            s[d] = 1;
            s
        }
        None => vec![1],
    }
}

#[test]
fn softmax_denominator_and_other_reductions_match_float64() {
    let device = device_or_skip!();
    let shape = [6, 37, 5];
    let m_shape = [6, 1, 5];
    let x = random_values(&mut rng(11), &shape, DType::F32, -2.0, 2.0);
    let m = random_values(&mut rng(12), &m_shape, DType::F32, -1.0, 1.0);
    let exp = host_exp_sub(&x, &m, &shape, &m_shape);
    for op in [
        ReduceOp::Sum,
        ReduceOp::Mean,
        ReduceOp::Prod,
        ReduceOp::Max,
        ReduceOp::Min,
    ] {
        for dim in [Some(0), Some(1), Some(2), None] {
            if op == ReduceOp::Prod && dim.is_none() {
                continue; // 1110 factors near e^±3 overflow f32
            }
            let program = exp_sub(DType::F32, false);
            let inputs = vec![
                tensor(&device, &x, &shape, DType::F32),
                tensor(&device, &m, &m_shape, DType::F32),
            ];
            let FusedReduction {
                reduced: out,
                outputs,
                ..
            } = launch_fused_reduce(&program, 1, op, inputs, &[], &Shape::new(shape), dim, None);
            assert!(outputs.is_empty());
            let out_shape = reduced_shape(&shape, dim);
            let expected = host_reduce(op, &exp, &shape, dim);
            let what = format!("{} of exp(x - m) along {dim:?}", op.name());
            let tol = if op == ReduceOp::Prod {
                (1e-4, 1e-4)
            } else {
                tolerance(DType::F32)
            };
            assert_close(&what, &read(out, &out_shape, DType::F32), &expected, tol);
        }
    }
}

#[test]
fn long_lines_take_two_passes_and_outputs_are_written() {
    let device = device_or_skip!();
    // One line of 2^18 elements: the reduction splits it into parts, then combines them.
    let shape = [1 << 18];
    let x = random_values(&mut rng(21), &shape, DType::F32, -1.0, 1.0);
    let m = vec![0.5];
    let exp = host_exp_sub(&x, &m, &shape, &[1]);
    let inputs = vec![
        tensor(&device, &x, &shape, DType::F32),
        tensor(&device, &m, &[1], DType::F32),
    ];
    let program = exp_sub(DType::F32, true);
    let FusedReduction {
        reduced: out,
        outputs,
        ..
    } = launch_fused_reduce(
        &program,
        1,
        ReduceOp::Mean,
        inputs,
        &[],
        &Shape::new(shape),
        Some(0),
        None,
    );
    let expected = host_reduce(ReduceOp::Mean, &exp, &shape, Some(0));
    assert_close(
        "mean of a long line",
        &read(out, &[1], DType::F32),
        &expected,
        (1e-5, 1e-5),
    );
    assert_eq!(outputs.len(), 1);
    let written = read(outputs.into_iter().next().unwrap(), &shape, DType::F32);
    assert_close("exp(x - m) written", &written, &exp, tolerance(DType::F32));
}

#[test]
fn nan_wins_max_and_f16_accumulates_in_f32() {
    let device = device_or_skip!();
    let shape = [4, 9];
    let mut x = random_values(&mut rng(31), &shape, DType::F32, -1.0, 1.0);
    x[13] = f64::NAN;
    let m = vec![0.0; 4];
    let inputs = vec![
        tensor(&device, &x, &shape, DType::F32),
        tensor(&device, &m, &[4, 1], DType::F32),
    ];
    let out = launch_fused_reduce(
        &exp_sub(DType::F32, false),
        1,
        ReduceOp::Max,
        inputs,
        &[],
        &Shape::new(shape),
        Some(1),
        None,
    )
    .reduced;
    let got = read(out, &[4, 1], DType::F32);
    assert!(
        got[1].is_nan() && !got[0].is_nan() && !got[2].is_nan(),
        "{got:?}"
    );

    if !supports_reduce(
        &exp_sub(DType::F16, false),
        1,
        ReduceOp::Sum,
        &Shape::new([3, 300]),
        Some(1),
        None,
        &device,
    ) {
        eprintln!("f16 unsupported on this device: skipped");
        return;
    }
    let shape = [3, 300];
    let x = random_values(&mut rng(32), &shape, DType::F16, -1.0, 1.0);
    let m = random_values(&mut rng(33), &[3, 1], DType::F16, -0.5, 0.5);
    let inputs = vec![
        tensor(&device, &x, &shape, DType::F16),
        tensor(&device, &m, &[3, 1], DType::F16),
    ];
    let out = launch_fused_reduce(
        &exp_sub(DType::F16, false),
        1,
        ReduceOp::Sum,
        inputs,
        &[],
        &Shape::new(shape),
        Some(1),
        None,
    )
    .reduced;
    let expected = host_reduce(
        ReduceOp::Sum,
        &host_exp_sub(&x, &m, &shape, &[3, 1]),
        &shape,
        Some(1),
    );
    assert_close(
        "f16 sum",
        &read(out, &[3, 1], DType::F16),
        &expected,
        (2e-3, 2e-3),
    );
}

#[test]
fn one_launch_and_the_same_values_as_the_unfused_kernels() {
    let device = device_or_skip!();
    let shape = [8, 64];
    let x = random_values(&mut rng(41), &shape, DType::F32, -2.0, 2.0);
    let m = random_values(&mut rng(42), &[8, 1], DType::F32, -1.0, 1.0);
    let upload = || {
        (
            tensor(&device, &x, &shape, DType::F32),
            tensor(&device, &m, &[8, 1], DType::F32),
        )
    };
    let (a, b) = upload();
    let before = launch_count();
    let unfused = reduce(
        ReduceOp::Sum,
        unary(UnaryOp::Exp, binary(BinaryOp::Sub, a, b)),
        1,
        DType::I32,
    )
    .unwrap();
    let unfused_launches = launch_count() - before;
    let (a, b) = upload();
    // Other tests launch concurrently: the smallest count over a few tries is this call's.
    let mut fused = None;
    let mut fused_launches = u64::MAX;
    for _ in 0..4 {
        let (a2, b2) = (a.clone(), b.clone());
        let before = launch_count();
        let out = launch_fused_reduce(
            &exp_sub(DType::F32, false),
            1,
            ReduceOp::Sum,
            vec![a2, b2],
            &[],
            &Shape::new(shape),
            Some(1),
            None,
        )
        .reduced;
        fused_launches = fused_launches.min(launch_count() - before);
        fused = Some(out);
    }
    assert_eq!(fused_launches, 1);
    assert!(unfused_launches >= 3, "{unfused_launches}");
    assert_close(
        "fused vs unfused",
        &read(fused.unwrap(), &[8, 1], DType::F32),
        &read(unfused, &[8, 1], DType::F32),
        tolerance(DType::F32),
    );
}

#[test]
fn supports_reduce_refuses_what_it_cannot_fuse() {
    let device = device_or_skip!();
    let program = exp_sub(DType::F32, false);
    let shape = Shape::new([4, 4]);
    assert!(supports_reduce(
        &program,
        1,
        ReduceOp::Sum,
        &shape,
        Some(1),
        None,
        &device
    ));
    assert!(!supports_reduce(
        &program,
        1,
        ReduceOp::ArgMax,
        &shape,
        Some(1),
        None,
        &device
    ));
    assert!(!supports_reduce(
        &program,
        1,
        ReduceOp::Sum,
        &shape,
        Some(2),
        None,
        &device
    ));
    assert!(!supports_reduce(
        &program,
        1,
        ReduceOp::Sum,
        &Shape::new([0, 4]),
        Some(1),
        None,
        &device
    ));
    assert!(!supports_reduce(
        &program,
        5,
        ReduceOp::Sum,
        &shape,
        Some(1),
        None,
        &device
    ));
}

/// `sqrt(r + eps) * w`: the reduced value `r` is the last input, `w` of the reduced shape.
fn sqrt_add_mul(dtype: DType) -> FusedProgram {
    FusedProgram {
        inputs: vec![dtype, dtype],
        scalars: vec![dtype],
        locals: vec![dtype, dtype, dtype],
        instrs: vec![
            FusedInstr::Binary {
                op: BinaryOp::Add,
                lhs: Input(1),
                rhs: FusedArg::Scalar(0),
                out: 0,
            },
            FusedInstr::Unary {
                op: UnaryOp::Sqrt,
                input: Local(0),
                out: 1,
            },
            FusedInstr::Binary {
                op: BinaryOp::Mul,
                lhs: Local(1),
                rhs: Input(0),
                out: 2,
            },
        ],
        outputs: vec![2],
    }
}

#[test]
fn epilogue_runs_on_each_reduced_value_in_one_or_two_passes() {
    let device = device_or_skip!();
    // Short lines (one pass, epilogue in the kernel) and one long line (two passes, then the
    // epilogue as its own launch).
    for (shape, m_shape, w_shape) in [
        (vec![5, 40], vec![5, 1], vec![5, 1]),
        (vec![1, 1 << 16], vec![1, 1], vec![1, 1]),
    ] {
        let x = random_values(&mut rng(51), &shape, DType::F32, -1.0, 1.0);
        let m = random_values(&mut rng(52), &m_shape, DType::F32, -0.5, 0.5);
        let w = random_values(&mut rng(53), &w_shape, DType::F32, 0.5, 2.0);
        let eps = 0.25;
        let inputs = vec![
            tensor(&device, &x, &shape, DType::F32),
            tensor(&device, &m, &m_shape, DType::F32),
        ];
        let epilogue = FusedEpilogue {
            program: sqrt_add_mul(DType::F32),
            inputs: vec![tensor(&device, &w, &w_shape, DType::F32)],
            scalars: vec![burn_backend::Scalar::Float(eps)],
        };
        let fused = launch_fused_reduce(
            &exp_sub(DType::F32, false),
            1,
            ReduceOp::Mean,
            inputs,
            &[],
            &Shape::new(shape.clone()),
            Some(1),
            Some(epilogue),
        );
        let means = host_reduce(
            ReduceOp::Mean,
            &host_exp_sub(&x, &m, &shape, &m_shape),
            &shape,
            Some(1),
        );
        let expected: Vec<f64> = means
            .iter()
            .zip(&w)
            .map(|(r, w)| (r + eps).sqrt() * w)
            .collect();
        let out_shape = reduced_shape(&shape, Some(1));
        assert_close(
            "reduced",
            &read(fused.reduced, &out_shape, DType::F32),
            &means,
            (1e-5, 1e-5),
        );
        assert_eq!(fused.epilogue_outputs.len(), 1);
        let got = read(
            fused.epilogue_outputs.into_iter().next().unwrap(),
            &out_shape,
            DType::F32,
        );
        assert_close(
            &format!("epilogue {shape:?}"),
            &got,
            &expected,
            (1e-5, 1e-5),
        );
    }
}
