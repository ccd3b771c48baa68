//! Helpers of the fused-kernel tests: operands, a float64 evaluation of a program, the same
//! program through the unfused kernels, and the check comparing the three.

use crate::harness::{
    assert_close, broadcast_index, coords, random_values, read, rng, round_to, tensor,
};
use burn_backend::{DType, Scalar, Shape};
use burn_cubecl::dtype::bool_dtype;
use burn_cubecl::fused::{FusedArg, FusedInstr, FusedProgram, launch_fused, supports};
use burn_cubecl::kernel::{
    BinaryOp, CompareOp, UnaryOp, binary, bool_and, bool_not, bool_or, cast, compare, full,
    mask_where, unary,
};
use burn_cubecl::{CubeDevice, CubeTensor};

use FusedArg::{Input, Local, Scalar as S};

/// One input of a test: its values, shape and dtype.
pub(crate) struct Operand {
    pub(crate) values: Vec<f64>,
    pub(crate) shape: Vec<usize>,
    pub(crate) dtype: DType,
}

impl Operand {
    pub(crate) fn random(seed: u64, shape: &[usize], dtype: DType, low: f64, high: f64) -> Self {
        let values = random_values(&mut rng(seed), shape, dtype, low, high);
        Operand {
            values,
            shape: shape.to_vec(),
            dtype,
        }
    }

    pub(crate) fn upload(&self, device: &CubeDevice) -> CubeTensor {
        tensor(device, &self.values, &self.shape, self.dtype)
    }
}

/// The float64 value of `op` (integer semantics when `int`).
pub(crate) fn host_binary(op: BinaryOp, a: f64, b: f64, int: bool) -> f64 {
    match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => a * b,
        BinaryOp::Div if int => (a / b).trunc(),
        BinaryOp::Div => a / b,
        BinaryOp::Remainder => a - b * (a / b).floor(),
        BinaryOp::Powf => a.powf(b),
        BinaryOp::Atan2 => a.atan2(b),
        BinaryOp::Hypot => a.hypot(b),
        BinaryOp::Max if a.is_nan() || b.is_nan() => f64::NAN,
        BinaryOp::Max => a.max(b),
        BinaryOp::Min if a.is_nan() || b.is_nan() => f64::NAN,
        BinaryOp::Min => a.min(b),
    }
}

pub(crate) fn host_unary(op: UnaryOp, x: f64) -> f64 {
    match op {
        UnaryOp::Exp => x.exp(),
        UnaryOp::Log => x.ln(),
        UnaryOp::Sqrt => x.sqrt(),
        UnaryOp::Abs => x.abs(),
        UnaryOp::Neg => -x,
        UnaryOp::Sin => x.sin(),
        UnaryOp::Cos => x.cos(),
        UnaryOp::Tanh => x.tanh(),
        UnaryOp::Sigmoid => 1.0 / (1.0 + (-x).exp()),
        UnaryOp::Square => x * x,
        UnaryOp::Recip => 1.0 / x,
        other => panic!("the test reference lacks {}", other.name()),
    }
}

pub(crate) fn host_compare(op: CompareOp, a: f64, b: f64) -> bool {
    match op {
        CompareOp::Equal => a == b,
        CompareOp::NotEqual => a != b,
        CompareOp::Greater => a > b,
        CompareOp::GreaterEqual => a >= b,
        CompareOp::Lower => a < b,
        CompareOp::LowerEqual => a <= b,
    }
}

/// The program evaluated in float64 on the host, per output element (integers with integer
/// semantics, bools as 0/1).
pub(crate) fn host_eval(
    program: &FusedProgram,
    inputs: &[Operand],
    scalars: &[f64],
    out_shape: &[usize],
) -> Vec<Vec<f64>> {
    let count: usize = out_shape.iter().product();
    let mut outputs = vec![Vec::with_capacity(count); program.outputs.len()];
    for index in 0..count {
        let at = coords(index, out_shape);
        let mut locals = vec![0.0; program.locals.len()];
        for instr in &program.instrs {
            let get = |arg: FusedArg, locals: &[f64]| match arg {
                Input(i) => {
                    let input = &inputs[i as usize];
                    input.values[broadcast_index(&at, &input.shape)]
                }
                S(i) => scalars[i as usize],
                Local(i) => locals[i as usize],
            };
            let out_dtype = program.locals[instr.out() as usize];
            let value = match *instr {
                FusedInstr::Unary { op, input, .. } => host_unary(op, get(input, &locals)),
                FusedInstr::Binary { op, lhs, rhs, .. } => {
                    let int = !out_dtype.is_float();
                    host_binary(op, get(lhs, &locals), get(rhs, &locals), int)
                }
                FusedInstr::Compare { op, lhs, rhs, .. } => f64::from(u8::from(host_compare(
                    op,
                    get(lhs, &locals),
                    get(rhs, &locals),
                ))),
                FusedInstr::BoolNot { input, .. } => 1.0 - get(input, &locals),
                FusedInstr::BoolAnd { lhs, rhs, .. } => get(lhs, &locals) * get(rhs, &locals),
                FusedInstr::BoolOr { lhs, rhs, .. } => get(lhs, &locals).max(get(rhs, &locals)),
                FusedInstr::Cast { input, .. } => {
                    let x = get(input, &locals);
                    if out_dtype.is_bool() {
                        f64::from(u8::from(x != 0.0))
                    } else if out_dtype.is_float() {
                        x
                    } else {
                        x.trunc()
                    }
                }
                FusedInstr::Select {
                    mask,
                    on_true,
                    on_false,
                    ..
                } => {
                    if get(mask, &locals) != 0.0 {
                        get(on_true, &locals)
                    } else {
                        get(on_false, &locals)
                    }
                }
                FusedInstr::Clamp {
                    input, min, max, ..
                } => {
                    let x = get(input, &locals);
                    x.max(get(min, &locals)).min(get(max, &locals))
                }
            };
            locals[instr.out() as usize] = value;
        }
        for (out, &local) in outputs.iter_mut().zip(&program.outputs) {
            out.push(locals[local as usize]);
        }
    }
    outputs
}

/// The program run through the unfused kernels, one launch per instruction (scalars become
/// one-element tensors, broadcast by the kernels).
pub(crate) fn unfused(
    device: &CubeDevice,
    program: &FusedProgram,
    inputs: &[CubeTensor],
    scalars: &[Scalar],
) -> Vec<CubeTensor> {
    let mut locals: Vec<Option<CubeTensor>> = vec![None; program.locals.len()];
    let get = |arg: FusedArg, locals: &[Option<CubeTensor>]| match arg {
        Input(i) => inputs[i as usize].clone(),
        S(i) => {
            let dtype = program.scalars[i as usize];
            full(Shape::new([1]), scalars[i as usize], dtype, device)
        }
        Local(i) => locals[i as usize].clone().expect("written"),
    };
    let bool_dtype = bool_dtype(&device.client());
    for instr in &program.instrs {
        let out_dtype = program.locals[instr.out() as usize];
        let value = match *instr {
            FusedInstr::Unary { op, input, .. } => unary(op, get(input, &locals)),
            FusedInstr::Binary { op, lhs, rhs, .. } => {
                binary(op, get(lhs, &locals), get(rhs, &locals))
            }
            FusedInstr::Compare { op, lhs, rhs, .. } => {
                compare(op, get(lhs, &locals), get(rhs, &locals), bool_dtype)
            }
            FusedInstr::BoolNot { input, .. } => bool_not(get(input, &locals)),
            FusedInstr::BoolAnd { lhs, rhs, .. } => bool_and(get(lhs, &locals), get(rhs, &locals)),
            FusedInstr::BoolOr { lhs, rhs, .. } => bool_or(get(lhs, &locals), get(rhs, &locals)),
            FusedInstr::Cast { input, .. } => cast(get(input, &locals), out_dtype),
            FusedInstr::Select {
                mask,
                on_true,
                on_false,
                ..
            } => mask_where(
                get(on_false, &locals),
                get(mask, &locals),
                get(on_true, &locals),
            ),
            FusedInstr::Clamp {
                input, min, max, ..
            } => {
                let low = binary(BinaryOp::Max, get(input, &locals), get(min, &locals));
                binary(BinaryOp::Min, low, get(max, &locals))
            }
        };
        locals[instr.out() as usize] = Some(value);
    }
    program
        .outputs
        .iter()
        .map(|&l| locals[l as usize].clone().expect("written"))
        .collect()
}

/// Runs `program` fused and unfused on `inputs`, and checks both against the host
/// evaluation (floats within `tol` of it, rounded to the output dtype; others exactly).
pub(crate) fn check_program(
    device: &CubeDevice,
    what: &str,
    program: &FusedProgram,
    inputs: &[Operand],
    scalars: &[f64],
    out_shape: &[usize],
    tol: (f64, f64),
) {
    assert!(
        supports(program, device),
        "{what}: expected to be supported"
    );
    let scalar_values: Vec<Scalar> = scalars.iter().map(|&v| Scalar::Float(v)).collect();
    let tensors: Vec<CubeTensor> = inputs.iter().map(|o| o.upload(device)).collect();
    let shape = Shape::from(out_shape.to_vec());
    let expected = host_eval(program, inputs, scalars, out_shape);
    let reference = unfused(device, program, &tensors, &scalar_values);
    let fused = launch_fused(program, tensors, &scalar_values, &shape);
    assert_eq!(
        fused.len(),
        program.outputs.len(),
        "{what}: number of outputs"
    );
    for (k, ((fused, reference), expected)) in
        fused.into_iter().zip(reference).zip(expected).enumerate()
    {
        let dtype = program.locals[program.outputs[k] as usize];
        let fused = read(fused, out_shape, dtype);
        let reference = read(reference, out_shape, dtype);
        let tol = if dtype.is_float() { tol } else { (0.0, 0.0) };
        let expected = round_to(&expected, dtype);
        assert_close(
            &format!("{what}: output {k} vs f64 host"),
            &fused,
            &expected,
            tol,
        );
        assert_close(
            &format!("{what}: output {k} vs unfused"),
            &fused,
            &reference,
            tol,
        );
    }
}

/// `exp(a * b + c)` over inputs of `dtype`.
pub(crate) fn exp_mul_add(dtype: DType) -> FusedProgram {
    FusedProgram {
        inputs: vec![dtype; 3],
        scalars: vec![],
        locals: vec![dtype; 3],
        instrs: vec![
            FusedInstr::Binary {
                op: BinaryOp::Mul,
                lhs: Input(0),
                rhs: Input(1),
                out: 0,
            },
            FusedInstr::Binary {
                op: BinaryOp::Add,
                lhs: Local(0),
                rhs: Input(2),
                out: 1,
            },
            FusedInstr::Unary {
                op: UnaryOp::Exp,
                input: Local(1),
                out: 2,
            },
        ],
        outputs: vec![2],
    }
}
