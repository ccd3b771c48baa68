//! Fused element-wise programs: each run as one kernel and compared with the same chain run
//! through the unfused kernels (one launch per instruction) and with a float64 host
//! evaluation of the program; in-place reuse, the launch counter and `supports`.

use crate::device_or_skip;
use crate::fused_support::{Operand, check_program, exp_mul_add, host_eval, unfused};
use crate::harness::{assert_close, read, round_to, tensor, tolerance};
use crate::index::expect_panic;
use burn_backend::{DType, Scalar, Shape};
use burn_cubecl::dtype::bool_dtype;
use burn_cubecl::fused::{FusedArg, FusedInstr, FusedProgram, launch_fused, supports};
use burn_cubecl::kernel::{BinaryOp, CompareOp, UnaryOp};
use burn_cubecl::{CubeTensor, launch_count};

use FusedArg::{Input, Local, Scalar as S};

#[test]
fn exp_of_a_times_b_plus_c_with_broadcast_c() {
    let device = device_or_skip!();
    for (dtype, shape) in [(DType::F32, [4, 8, 16]), (DType::F32, [3, 5, 7])] {
        let inputs = [
            Operand::random(1, &shape, dtype, -1.0, 1.0),
            Operand::random(2, &shape, dtype, -1.0, 1.0),
            Operand::random(3, &[shape[2]], dtype, -1.0, 1.0),
        ];
        let what = format!("exp(a*b+c) {dtype} {shape:?}");
        check_program(
            &device,
            &what,
            &exp_mul_add(dtype),
            &inputs,
            &[],
            &shape,
            tolerance(dtype),
        );
    }
}

#[test]
fn f16_chain_computes_in_f32() {
    let device = device_or_skip!();
    let program = exp_mul_add(DType::F16);
    if !supports(&program, &device) {
        eprintln!("f16 unsupported on this device: skipped");
        return;
    }
    let shape = [6, 32];
    let inputs = [
        Operand::random(4, &shape, DType::F16, -1.0, 1.0),
        Operand::random(5, &[6, 1], DType::F16, -1.0, 1.0),
        Operand::random(6, &shape, DType::F16, -1.0, 1.0),
    ];
    check_program(
        &device,
        "f16 exp(a*b+c)",
        &program,
        &inputs,
        &[],
        &shape,
        tolerance(DType::F16),
    );
}

#[test]
fn mask_int_cast_comparison_and_two_outputs() {
    let device = device_or_skip!();
    let b = bool_dtype(&device.client());
    let (f, i) = (DType::F32, DType::I32);
    // y = where(m, x + f32(k), x * s0); out0 = y, out1 = y > s1 and not m.
    let program = FusedProgram {
        inputs: vec![f, i, b],
        scalars: vec![f, f],
        locals: vec![f, f, f, f, b, b, b],
        instrs: vec![
            FusedInstr::Cast {
                input: Input(1),
                out: 0,
            },
            FusedInstr::Binary {
                op: BinaryOp::Add,
                lhs: Input(0),
                rhs: Local(0),
                out: 1,
            },
            FusedInstr::Binary {
                op: BinaryOp::Mul,
                lhs: Input(0),
                rhs: S(0),
                out: 2,
            },
            FusedInstr::Select {
                mask: Input(2),
                on_true: Local(1),
                on_false: Local(2),
                out: 3,
            },
            FusedInstr::Compare {
                op: CompareOp::Greater,
                lhs: Local(3),
                rhs: S(1),
                out: 4,
            },
            FusedInstr::BoolNot {
                input: Input(2),
                out: 5,
            },
            FusedInstr::BoolAnd {
                lhs: Local(4),
                rhs: Local(5),
                out: 6,
            },
        ],
        outputs: vec![3, 6],
    };
    let shape = [5, 12];
    let inputs = [
        Operand::random(7, &shape, f, -4.0, 4.0),
        Operand::random(8, &[12], i, -5.0, 5.0),
        Operand::random(9, &shape, b, 0.0, 2.0),
    ];
    check_program(
        &device,
        "mixed kinds",
        &program,
        &inputs,
        &[1.5, 0.25],
        &shape,
        tolerance(f),
    );
}

#[test]
fn int_program_with_scalars_and_casts_back_to_float() {
    let device = device_or_skip!();
    let (f, i) = (DType::F32, DType::I32);
    // r = remainder(k * 3 - 7, s0) clamped to [-1, 2]; out0 = r, out1 = f32(r) / x (x != 0).
    let program = FusedProgram {
        inputs: vec![i, f],
        scalars: vec![i, i, i, i],
        locals: vec![i, i, i, i, i, f, f],
        instrs: vec![
            FusedInstr::Binary {
                op: BinaryOp::Mul,
                lhs: Input(0),
                rhs: S(1),
                out: 0,
            },
            FusedInstr::Binary {
                op: BinaryOp::Sub,
                lhs: Local(0),
                rhs: S(2),
                out: 1,
            },
            FusedInstr::Binary {
                op: BinaryOp::Remainder,
                lhs: Local(1),
                rhs: S(0),
                out: 2,
            },
            FusedInstr::Binary {
                op: BinaryOp::Div,
                lhs: Local(1),
                rhs: S(0),
                out: 3,
            },
            FusedInstr::Clamp {
                input: Local(2),
                min: S(3),
                max: Local(3),
                out: 4,
            },
            FusedInstr::Cast {
                input: Local(4),
                out: 5,
            },
            FusedInstr::Binary {
                op: BinaryOp::Div,
                lhs: Local(5),
                rhs: Input(1),
                out: 6,
            },
        ],
        outputs: vec![4, 6],
    };
    let shape = [3, 4, 8];
    let inputs = [
        Operand::random(10, &shape, i, -20.0, 20.0),
        Operand::random(11, &[4, 1], f, 1.0, 3.0),
    ];
    check_program(
        &device,
        "int chain",
        &program,
        &inputs,
        &[-4.0, 3.0, 7.0, -1.0],
        &shape,
        tolerance(f),
    );
}

#[test]
fn permuted_and_sliced_inputs() {
    let device = device_or_skip!();
    let f = DType::F32;
    // sqrt(|a| + b * b) with a permuted and b sliced.
    let program = FusedProgram {
        inputs: vec![f, f],
        scalars: vec![],
        locals: vec![f; 4],
        instrs: vec![
            FusedInstr::Unary {
                op: UnaryOp::Abs,
                input: Input(0),
                out: 0,
            },
            FusedInstr::Binary {
                op: BinaryOp::Mul,
                lhs: Input(1),
                rhs: Input(1),
                out: 1,
            },
            FusedInstr::Binary {
                op: BinaryOp::Add,
                lhs: Local(0),
                rhs: Local(1),
                out: 2,
            },
            FusedInstr::Unary {
                op: UnaryOp::Sqrt,
                input: Local(2),
                out: 3,
            },
        ],
        outputs: vec![3],
    };
    let a = Operand::random(12, &[6, 16], f, -3.0, 3.0);
    let b = Operand::random(13, &[20, 8], f, -3.0, 3.0);
    let at = |t: CubeTensor| t.permute(&[1, 0]);
    let bt = |t: CubeTensor| t.slice(&[4..20, 0..6]);
    // The host sees the same views as contiguous values.
    let logical = |t: CubeTensor, shape: &[usize]| Operand {
        values: read(t.into_contiguous(), shape, f),
        shape: shape.to_vec(),
        dtype: f,
    };
    let host_a = logical(at(a.upload(&device)), &[16, 6]);
    let host_b = logical(bt(b.upload(&device)), &[16, 6]);
    let expected = host_eval(&program, &[host_a, host_b], &[], &[16, 6]);
    let (ta, tb) = (at(a.upload(&device)), bt(b.upload(&device)));
    assert!(!ta.is_contiguous(), "the permuted input is strided");
    let reference = unfused(&device, &program, &[ta.clone(), tb.clone()], &[]);
    let fused = launch_fused(&program, vec![ta, tb], &[], &Shape::new([16, 6]));
    let fused = read(fused.into_iter().next().unwrap(), &[16, 6], f);
    let reference = read(reference.into_iter().next().unwrap(), &[16, 6], f);
    assert_close("strided vs host", &fused, &expected[0], tolerance(f));
    assert_close("strided vs unfused", &fused, &reference, tolerance(f));
}

/// A chain of 24 instructions cycling through float operations, inputs and scalars.
fn long_chain(f: DType) -> FusedProgram {
    let ops = [
        (BinaryOp::Mul, S(0)),
        (BinaryOp::Add, Input(1)),
        (BinaryOp::Sub, S(1)),
        (BinaryOp::Max, Input(2)),
        (BinaryOp::Min, S(2)),
        (BinaryOp::Mul, Input(1)),
    ];
    let unaries = [UnaryOp::Tanh, UnaryOp::Sin, UnaryOp::Sigmoid, UnaryOp::Cos];
    let mut instrs = Vec::new();
    let mut last = Input(0);
    for step in 0..24u32 {
        let instr = if step % 3 == 2 {
            let op = unaries[(step as usize / 3) % unaries.len()];
            FusedInstr::Unary {
                op,
                input: last,
                out: step,
            }
        } else {
            let (op, rhs) = ops[step as usize % ops.len()];
            FusedInstr::Binary {
                op,
                lhs: last,
                rhs,
                out: step,
            }
        };
        instrs.push(instr);
        last = Local(step);
    }
    FusedProgram {
        inputs: vec![f; 3],
        scalars: vec![f; 3],
        locals: vec![f; 24],
        instrs,
        outputs: vec![23, 11],
    }
}

#[test]
fn long_chain_of_24_instructions() {
    let device = device_or_skip!();
    let f = DType::F32;
    let shape = [7, 9];
    let inputs = [
        Operand::random(14, &shape, f, -2.0, 2.0),
        Operand::random(15, &[1, 9], f, -1.0, 1.0),
        Operand::random(16, &[7, 1], f, -1.0, 1.0),
    ];
    let program = long_chain(f);
    assert!(program.instrs.len() >= 20);
    check_program(
        &device,
        "long chain",
        &program,
        &inputs,
        &[1.25, 0.5, 0.75],
        &shape,
        (1e-4, 1e-4),
    );
}

#[test]
fn output_reuses_a_unique_input_buffer_only() {
    let device = device_or_skip!();
    let f = DType::F32;
    let program = exp_mul_add(f);
    let operands = [
        Operand::random(17, &[4, 8], f, -1.0, 1.0),
        Operand::random(18, &[4, 8], f, -1.0, 1.0),
        Operand::random(19, &[8], f, -1.0, 1.0),
    ];
    let expected = round_to(&host_eval(&program, &operands, &[], &[4, 8])[0], f);
    let [a, b, c] = &operands;
    let shape = Shape::new([4, 8]);

    // Unique `a`: the output takes its buffer.
    let ta = a.upload(&device);
    let id = ta.buffer_id();
    let out = launch_fused(
        &program,
        vec![ta, b.upload(&device), c.upload(&device)],
        &[],
        &shape,
    );
    assert_eq!(out[0].buffer_id(), id, "written into the unique input");
    assert_close(
        "in place",
        &read(out[0].clone(), &[4, 8], f),
        &expected,
        tolerance(f),
    );

    // Shared `a` and `b` (clones alive): a new buffer, the inputs intact.
    let (ta, tb) = (a.upload(&device), b.upload(&device));
    let (keep_a, keep_b) = (ta.clone(), tb.clone());
    let out = launch_fused(&program, vec![ta, tb, c.upload(&device)], &[], &shape);
    assert_ne!(out[0].buffer_id(), keep_a.buffer_id());
    assert_ne!(out[0].buffer_id(), keep_b.buffer_id());
    assert_close(
        "shared",
        &read(out[0].clone(), &[4, 8], f),
        &expected,
        tolerance(f),
    );
    assert_eq!(read(keep_a, &[4, 8], f), a.values, "shared input a intact");
    assert_eq!(read(keep_b, &[4, 8], f), b.values, "shared input b intact");

    // Two outputs of one dtype never share one input's buffer.
    let mut two = exp_mul_add(f);
    two.outputs = vec![2, 1];
    let ta = a.upload(&device);
    let id = ta.buffer_id();
    let out = launch_fused(
        &two,
        vec![ta, b.upload(&device), c.upload(&device)],
        &[],
        &shape,
    );
    assert_ne!(out[0].buffer_id(), out[1].buffer_id());
    assert_eq!(out[0].buffer_id(), id);
    assert_close(
        "two outputs",
        &read(out[0].clone(), &[4, 8], f),
        &expected,
        tolerance(f),
    );
}

/// The smallest increase of the launch counter over `tries` runs of `f`: other tests launch
/// kernels concurrently and can only add to a difference, never remove from it.
fn launches(tries: usize, mut f: impl FnMut()) -> u64 {
    (0..tries)
        .map(|_| {
            let before = launch_count();
            f();
            launch_count() - before
        })
        .min()
        .unwrap()
}

#[test]
fn one_launch_fused_three_unfused() {
    let device = device_or_skip!();
    let f = DType::F32;
    let program = exp_mul_add(f);
    let a = Operand::random(20, &[16, 16], f, -1.0, 1.0);
    let c = Operand::random(21, &[16], f, -1.0, 1.0);
    let inputs = || vec![a.upload(&device), a.upload(&device), c.upload(&device)];
    let shape = Shape::new([16, 16]);
    let fused = launches(8, || {
        let ins = inputs();
        let out = launch_fused(&program, ins, &[], &shape);
        drop(out);
    });
    assert_eq!(fused, 1, "one fused launch");
    let split = launches(8, || {
        let ins = inputs();
        drop(unfused(&device, &program, &ins, &[]));
    });
    assert_eq!(split, 3, "exp(a*b+c) unfused");
}

#[test]
fn supports_rejects_what_one_kernel_cannot_run() {
    let device = device_or_skip!();
    let f = DType::F32;
    assert!(supports(&exp_mul_add(f), &device));
    // Two float dtypes in one program.
    let mut mixed = exp_mul_add(f);
    mixed.inputs[2] = DType::F16;
    assert!(!supports(&mixed, &device), "f32 and f16 mixed");
    // f64 transcendental on WGPU; f64 arithmetic alone is fine where f64 exists.
    assert!(
        !supports(&exp_mul_add(DType::F64), &device),
        "f64 exp on WGPU"
    );
    // A local read before it is written; a local written twice; no output.
    let mut early = exp_mul_add(f);
    early.instrs.swap(0, 1);
    assert!(!supports(&early, &device), "read before write");
    let mut twice = exp_mul_add(f);
    twice.instrs[1] = FusedInstr::Unary {
        op: UnaryOp::Neg,
        input: Local(0),
        out: 0,
    };
    assert!(!supports(&twice, &device), "written twice");
    let mut none = exp_mul_add(f);
    none.outputs.clear();
    assert!(!supports(&none, &device), "no output");
    // Wrong operand dtypes: exp of an int, powf of ints, compare into a float local.
    let int_exp = FusedProgram {
        inputs: vec![DType::I32],
        scalars: vec![],
        locals: vec![DType::I32],
        instrs: vec![FusedInstr::Unary {
            op: UnaryOp::Exp,
            input: Input(0),
            out: 0,
        }],
        outputs: vec![0],
    };
    assert!(!supports(&int_exp, &device), "exp of an int");
    let mut bad_compare = exp_mul_add(f);
    bad_compare.instrs[2] = FusedInstr::Compare {
        op: CompareOp::Equal,
        lhs: Local(1),
        rhs: Input(2),
        out: 2,
    };
    assert!(
        !supports(&bad_compare, &device),
        "compare into a float local"
    );
    // More buffers than the device binds.
    let max = device.client().properties().hardware.max_bindings as usize;
    if max < 256 {
        let mut wide = exp_mul_add(f);
        wide.inputs = vec![f; max];
        assert!(!supports(&wide, &device), "{max} inputs");
    }
}

#[test]
fn misuse_panics_with_clear_messages() {
    let device = device_or_skip!();
    let f = DType::F32;
    let program = exp_mul_add(f);
    let t = |shape: &[usize], dtype: DType| {
        tensor(&device, &vec![0.5; shape.iter().product()], shape, dtype)
    };
    let shape = Shape::new([2, 3]);
    expect_panic(&["launch_fused", "3 inputs", "got 2"], || {
        launch_fused(&program, vec![t(&[2, 3], f), t(&[2, 3], f)], &[], &shape);
    });
    expect_panic(&["launch_fused", "input 1", "i32", "f32"], || {
        launch_fused(
            &program,
            vec![t(&[2, 3], f), t(&[2, 3], DType::I32), t(&[3], f)],
            &[],
            &shape,
        );
    });
    expect_panic(&["launch_fused", "input 2", "[4]", "broadcast"], || {
        launch_fused(
            &program,
            vec![t(&[2, 3], f), t(&[2, 3], f), t(&[4], f)],
            &[],
            &shape,
        );
    });
    expect_panic(&["launch_fused", "0 scalars", "got 1"], || {
        launch_fused(
            &program,
            vec![t(&[2, 3], f), t(&[2, 3], f), t(&[3], f)],
            &[Scalar::Float(1.0)],
            &shape,
        );
    });
    let mut early = exp_mul_add(f);
    early.instrs.swap(0, 1);
    expect_panic(
        &["launch_fused", "invalid program", "local 0", "before"],
        || {
            launch_fused(
                &early,
                vec![t(&[2, 3], f), t(&[2, 3], f), t(&[3], f)],
                &[],
                &shape,
            );
        },
    );
    // f64 transcendentals cannot run fused on WGPU; a device without f64 storage (WGSL)
    // cannot even hold the inputs, so there is nothing to launch.
    if burn_cubecl::dtype::dtype_usage(&device.client(), DType::F64).storage {
        expect_panic(&["launch_fused", "cannot run as one kernel"], || {
            let p = exp_mul_add(DType::F64);
            let d = DType::F64;
            launch_fused(
                &p,
                vec![t(&[2, 3], d), t(&[2, 3], d), t(&[3], d)],
                &[],
                &shape,
            );
        });
    }
}

#[test]
fn bool_logic_and_empty_outputs() {
    let device = device_or_skip!();
    let b = bool_dtype(&device.client());
    let f = DType::F32;
    // out0 = (m1 or not m2) as f32 (cast of a bool), out1 = (x != 0) and m1.
    let program = FusedProgram {
        inputs: vec![b, b, f],
        scalars: vec![],
        locals: vec![b, b, f, b, b],
        instrs: vec![
            FusedInstr::BoolNot {
                input: Input(1),
                out: 0,
            },
            FusedInstr::BoolOr {
                lhs: Input(0),
                rhs: Local(0),
                out: 1,
            },
            FusedInstr::Cast {
                input: Local(1),
                out: 2,
            },
            FusedInstr::Cast {
                input: Input(2),
                out: 3,
            },
            FusedInstr::BoolAnd {
                lhs: Local(3),
                rhs: Input(0),
                out: 4,
            },
        ],
        outputs: vec![2, 4],
    };
    let shape = [4, 5];
    let mut x = Operand::random(22, &shape, f, -2.0, 2.0);
    for v in x.values.iter_mut().step_by(3) {
        *v = 0.0;
    }
    let inputs = [
        Operand::random(23, &shape, b, 0.0, 2.0),
        Operand::random(24, &[5], b, 0.0, 2.0),
        x,
    ];
    check_program(
        &device,
        "bool logic",
        &program,
        &inputs,
        &[],
        &shape,
        tolerance(f),
    );
    // Zero elements: empty outputs of the right dtypes, nothing launched.
    let empty = [
        Operand::random(0, &[0, 5], b, 0.0, 2.0),
        Operand::random(0, &[5], b, 0.0, 2.0),
        Operand::random(0, &[0, 5], f, 0.0, 1.0),
    ];
    let tensors: Vec<CubeTensor> = empty.iter().map(|o| o.upload(&device)).collect();
    let out = launch_fused(&program, tensors, &[], &Shape::new([0, 5]));
    assert_eq!(read(out[0].clone(), &[0, 5], f), Vec::<f64>::new());
    assert_eq!(read(out[1].clone(), &[0, 5], b), Vec::<f64>::new());
}

#[test]
fn one_input_read_twice_by_an_instruction_and_reused_in_place() {
    let device = device_or_skip!();
    let program = FusedProgram {
        inputs: vec![DType::F32],
        scalars: vec![],
        locals: vec![DType::F32, DType::F32, DType::F32],
        instrs: vec![
            FusedInstr::Binary {
                op: BinaryOp::Mul,
                lhs: Input(0),
                rhs: Input(0),
                out: 0,
            },
            FusedInstr::Unary {
                op: UnaryOp::Exp,
                input: Local(0),
                out: 1,
            },
            FusedInstr::Unary {
                op: UnaryOp::Log,
                input: Local(1),
                out: 2,
            },
        ],
        outputs: vec![2],
    };
    let x = tensor(&device, &[3.0, -3.0, 7.0], &[3], DType::F32);
    let out = launch_fused(&program, vec![x], &[], &Shape::new([3]));
    let got = read(out.into_iter().next().unwrap(), &[3], DType::F32);
    assert_eq!(got, vec![9.0, 9.0, 49.0]);
}
