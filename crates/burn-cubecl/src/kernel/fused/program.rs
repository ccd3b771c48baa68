//! The program types of a fused element-wise kernel, and the check that turns a program into
//! the form the kernel interprets (each value sorted into one of three kinds).

use crate::kernel::{BinaryOp, CompareOp, UnaryOp};
use burn_backend::DType;

/// Where an instruction reads a value.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum FusedArg {
    /// Input tensor number `i` at the element being computed (broadcast to the output shape).
    Input(u32),
    /// Scalar number `i` of the launch.
    Scalar(u32),
    /// Local number `i`, written by an earlier instruction.
    Local(u32),
}

/// One instruction of a fused program; each writes one local (SSA: a local is written once,
/// by the first instruction that names it, before any instruction reads it).
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub enum FusedInstr {
    /// A float function ([`UnaryOp`]) of a float value; `out` has the input's dtype.
    Unary {
        /// The function.
        op: UnaryOp,
        /// The argument (a float dtype).
        input: FusedArg,
        /// The local written.
        out: u32,
    },
    /// Numeric arithmetic ([`BinaryOp`], as [`crate::kernel::binary`] computes it for the dtype:
    /// integer division truncates, the remainder has the divisor's sign, max/min propagate NaN).
    /// `lhs`, `rhs` and `out` have one dtype; `Powf`, `Atan2` and `Hypot` need a float one.
    Binary {
        /// The operation.
        op: BinaryOp,
        /// The left operand.
        lhs: FusedArg,
        /// The right operand.
        rhs: FusedArg,
        /// The local written.
        out: u32,
    },
    /// A comparison of two numeric values of one dtype; `out` is a bool local.
    Compare {
        /// The comparison.
        op: CompareOp,
        /// The left operand.
        lhs: FusedArg,
        /// The right operand.
        rhs: FusedArg,
        /// The local written (a bool dtype).
        out: u32,
    },
    /// Logical negation of a bool value.
    BoolNot {
        /// The argument (a bool dtype).
        input: FusedArg,
        /// The local written (a bool dtype).
        out: u32,
    },
    /// Logical and of two bool values.
    BoolAnd {
        /// The left operand.
        lhs: FusedArg,
        /// The right operand.
        rhs: FusedArg,
        /// The local written (a bool dtype).
        out: u32,
    },
    /// Logical or of two bool values.
    BoolOr {
        /// The left operand.
        lhs: FusedArg,
        /// The right operand.
        rhs: FusedArg,
        /// The local written (a bool dtype).
        out: u32,
    },
    /// Conversion to `out`'s dtype: float to integer truncates toward zero, a bool is 0 or 1,
    /// a number is `true` when it is not 0 (NaN included).
    Cast {
        /// The value converted.
        input: FusedArg,
        /// The local written.
        out: u32,
    },
    /// `on_true` where `mask` is true, else `on_false` (`mask_where`, `mask_fill`).
    Select {
        /// The condition (a bool dtype).
        mask: FusedArg,
        /// The value where the mask is true.
        on_true: FusedArg,
        /// The value where the mask is false (of `on_true`'s dtype, which `out` has too).
        on_false: FusedArg,
        /// The local written.
        out: u32,
    },
    /// `min(max(input, min), max)` (`max` wins when `min > max`, NaN stays NaN); the four
    /// share one numeric dtype.
    Clamp {
        /// The value limited.
        input: FusedArg,
        /// The lower bound.
        min: FusedArg,
        /// The upper bound.
        max: FusedArg,
        /// The local written.
        out: u32,
    },
}

impl FusedInstr {
    /// Replaces every argument by `f(argument)`.
    pub fn map_args(&mut self, f: impl Fn(FusedArg) -> FusedArg) {
        match self {
            FusedInstr::Unary { input, .. }
            | FusedInstr::BoolNot { input, .. }
            | FusedInstr::Cast { input, .. } => *input = f(*input),
            FusedInstr::Binary { lhs, rhs, .. }
            | FusedInstr::Compare { lhs, rhs, .. }
            | FusedInstr::BoolAnd { lhs, rhs, .. }
            | FusedInstr::BoolOr { lhs, rhs, .. } => {
                *lhs = f(*lhs);
                *rhs = f(*rhs);
            }
            FusedInstr::Select {
                mask,
                on_true,
                on_false,
                ..
            } => {
                *mask = f(*mask);
                *on_true = f(*on_true);
                *on_false = f(*on_false);
            }
            FusedInstr::Clamp {
                input, min, max, ..
            } => {
                *input = f(*input);
                *min = f(*min);
                *max = f(*max);
            }
        }
    }

    /// The local this instruction writes.
    pub fn out(&self) -> u32 {
        match self {
            FusedInstr::Unary { out, .. }
            | FusedInstr::Binary { out, .. }
            | FusedInstr::Compare { out, .. }
            | FusedInstr::BoolNot { out, .. }
            | FusedInstr::BoolAnd { out, .. }
            | FusedInstr::BoolOr { out, .. }
            | FusedInstr::Cast { out, .. }
            | FusedInstr::Select { out, .. }
            | FusedInstr::Clamp { out, .. } => *out,
        }
    }

    /// The values this instruction reads, in order.
    pub fn args(&self) -> Vec<FusedArg> {
        match *self {
            FusedInstr::Unary { input, .. }
            | FusedInstr::BoolNot { input, .. }
            | FusedInstr::Cast { input, .. } => vec![input],
            FusedInstr::Binary { lhs, rhs, .. }
            | FusedInstr::Compare { lhs, rhs, .. }
            | FusedInstr::BoolAnd { lhs, rhs, .. }
            | FusedInstr::BoolOr { lhs, rhs, .. } => vec![lhs, rhs],
            FusedInstr::Select {
                mask,
                on_true,
                on_false,
                ..
            } => vec![mask, on_true, on_false],
            FusedInstr::Clamp {
                input, min, max, ..
            } => vec![input, min, max],
        }
    }
}

/// A fused element-wise program over one output shape.
#[derive(Clone, Debug, Default, Hash, PartialEq, Eq)]
pub struct FusedProgram {
    /// The dtype of each input tensor.
    pub inputs: Vec<DType>,
    /// The dtype of each scalar (values given at launch).
    pub scalars: Vec<DType>,
    /// The dtype of each local.
    pub locals: Vec<DType>,
    /// The instructions, run in order for every element.
    pub instrs: Vec<FusedInstr>,
    /// The locals written to output tensors (each output has its local's dtype).
    pub outputs: Vec<u32>,
}

/// The three kinds of values one kernel holds: each kind has one dtype per program.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Floats, computed in the compute dtype (`f32` for `f16`/`bf16`).
    Float,
    /// Integers (signed or unsigned).
    Int,
    /// Booleans, stored as 0/1 integers of the bool store dtype, computed as `bool`.
    Bool,
}

/// What the kernel needs of a program: the kind of every value and each tensor's position in
/// the sequence of its kind. Comptime argument of the kernel (one compilation per program).
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub(crate) struct KernelProgram {
    /// For each input: its kind and its position among the inputs of that kind.
    pub inputs: Vec<(Kind, usize)>,
    /// The kind of each scalar.
    pub scalars: Vec<Kind>,
    /// The kind of each local.
    pub locals: Vec<Kind>,
    /// The instructions.
    pub instrs: Vec<FusedInstr>,
    /// For each output: the local, its kind and its position among the outputs of that kind.
    pub outputs: Vec<(u32, Kind, usize)>,
}

/// A checked program: the one dtype of each kind it uses, and its kernel form.
#[derive(Clone, Debug)]
pub(crate) struct Checked {
    /// The float dtype, if any value is a float.
    pub float: Option<DType>,
    /// The integer dtype, if any value is an integer.
    pub int: Option<DType>,
    /// The bool dtype, if any value is a bool.
    pub bool: Option<DType>,
    /// The program as the kernel takes it.
    pub kernel: KernelProgram,
}

impl Checked {
    /// Whether an instruction computes on `f64` what `runtime`'s kernels have below `f64`
    /// precision (the unfused operation goes to the host; see `kernel::host`).
    pub(crate) fn f64_on_host(&self, runtime: cubecl::device::RuntimeId) -> bool {
        use crate::kernel::host::{f64_binary_on_host, f64_unary_on_host};
        self.float == Some(DType::F64)
            && self.kernel.instrs.iter().any(|instr| match instr {
                FusedInstr::Unary { op, .. } => f64_unary_on_host(runtime, *op),
                FusedInstr::Binary { op, .. } => f64_binary_on_host(runtime, *op),
                _ => false,
            })
    }
}

/// The kind of a dtype, `None` for quantized dtypes.
fn kind_of(dtype: DType) -> Option<Kind> {
    match dtype {
        DType::QFloat(_) => None,
        d if d.is_float() => Some(Kind::Float),
        d if d.is_bool() => Some(Kind::Bool),
        _ => Some(Kind::Int),
    }
}

impl FusedProgram {
    /// The dtype of `arg`, or why it cannot be read before instruction `at`.
    fn arg_dtype(&self, arg: FusedArg, written: &[bool], at: usize) -> Result<DType, String> {
        let (list, index, what) = match arg {
            FusedArg::Input(i) => (&self.inputs, i, "input"),
            FusedArg::Scalar(i) => (&self.scalars, i, "scalar"),
            FusedArg::Local(i) => (&self.locals, i, "local"),
        };
        let dtype = list.get(index as usize).copied().ok_or_else(|| {
            format!(
                "instruction {at} reads {what} {index}, but the program has {} {what}s",
                list.len()
            )
        })?;
        if let FusedArg::Local(i) = arg
            && !written[i as usize]
        {
            return Err(format!(
                "instruction {at} reads local {i} before any instruction writes it"
            ));
        }
        Ok(dtype)
    }

    /// Checks the program (SSA form, indices, the dtypes each instruction takes, one dtype
    /// per kind) and returns its kernel form, or a message saying what is wrong.
    pub(crate) fn check(&self) -> Result<Checked, String> {
        self.check_outputs(true)
    }

    /// [`FusedProgram::check`], allowing a program without outputs when `require_output` is
    /// false (a reduction's prologue may keep every value in registers).
    pub(crate) fn check_outputs(&self, require_output: bool) -> Result<Checked, String> {
        let mut written = vec![false; self.locals.len()];
        for (at, instr) in self.instrs.iter().enumerate() {
            let dtypes = instr
                .args()
                .into_iter()
                .map(|arg| self.arg_dtype(arg, &written, at))
                .collect::<Result<Vec<_>, _>>()?;
            let out = instr.out() as usize;
            let out_dtype = *self.locals.get(out).ok_or_else(|| {
                format!(
                    "instruction {at} writes local {out}, but the program has {} locals",
                    self.locals.len()
                )
            })?;
            if std::mem::replace(&mut written[out], true) {
                return Err(format!(
                    "instruction {at} writes local {out} a second time (locals are SSA)"
                ));
            }
            check_types(instr, &dtypes, out_dtype).map_err(|e| format!("instruction {at}: {e}"))?;
        }
        if require_output && self.outputs.is_empty() {
            return Err("the program has no output".into());
        }
        for &local in &self.outputs {
            if !written.get(local as usize).copied().unwrap_or(false) {
                return Err(format!(
                    "output local {local} is never written by an instruction"
                ));
            }
        }
        self.kinds()
    }

    /// The one dtype of each kind and the kernel form.
    fn kinds(&self) -> Result<Checked, String> {
        let mut dtypes: [Option<DType>; 3] = [None; 3];
        let all = self.inputs.iter().chain(&self.scalars).chain(&self.locals);
        for &dtype in all {
            let kind = kind_of(dtype).ok_or_else(|| format!("dtype {dtype} is not supported"))?;
            match &mut dtypes[kind as usize] {
                Some(seen) if *seen != dtype => {
                    return Err(format!(
                        "the program mixes {seen} and {dtype}; one kernel holds one float, \
                         one integer and one bool dtype"
                    ));
                }
                slot => *slot = Some(dtype),
            }
        }
        let kind = |dtype: DType| kind_of(dtype).expect("checked above");
        let mut counts = [0usize; 3];
        let mut position = |kind: Kind| {
            counts[kind as usize] += 1;
            (kind, counts[kind as usize] - 1)
        };
        let inputs = self.inputs.iter().map(|&d| position(kind(d))).collect();
        counts = [0; 3];
        let mut out_position = |kind: Kind| {
            counts[kind as usize] += 1;
            counts[kind as usize] - 1
        };
        let outputs = self
            .outputs
            .iter()
            .map(|&local| {
                let k = kind(self.locals[local as usize]);
                (local, k, out_position(k))
            })
            .collect();
        Ok(Checked {
            float: dtypes[Kind::Float as usize],
            int: dtypes[Kind::Int as usize],
            bool: dtypes[Kind::Bool as usize],
            kernel: KernelProgram {
                inputs,
                scalars: self.scalars.iter().map(|&d| kind(d)).collect(),
                locals: self.locals.iter().map(|&d| kind(d)).collect(),
                instrs: self.instrs.clone(),
                outputs,
            },
        })
    }
}

/// Checks the dtypes an instruction reads (`args`, in order) and writes (`out`).
fn check_types(instr: &FusedInstr, args: &[DType], out: DType) -> Result<(), String> {
    let same = |what: &str| {
        if args.iter().all(|&d| d == out) {
            Ok(())
        } else {
            Err(format!(
                "{what} takes operands of its output's dtype {out}, got {args:?}"
            ))
        }
    };
    match instr {
        FusedInstr::Unary { op, .. } => {
            if !out.is_float() {
                return Err(format!("{} takes a float dtype, got {out}", op.name()));
            }
            same(op.name())
        }
        FusedInstr::Binary { op, .. } => {
            if out.is_bool() {
                return Err(format!("{} takes a numeric dtype, got {out}", op.name()));
            }
            if op.is_transcendental() && !out.is_float() {
                return Err(format!("{} takes a float dtype, got {out}", op.name()));
            }
            same(op.name())
        }
        FusedInstr::Compare { op, .. } => {
            if args[0] != args[1] || args[0].is_bool() {
                return Err(format!(
                    "{} takes two numeric operands of one dtype, got {args:?}",
                    op.name()
                ));
            }
            if !out.is_bool() {
                return Err(format!("{} writes a bool local, got {out}", op.name()));
            }
            Ok(())
        }
        FusedInstr::BoolNot { .. } | FusedInstr::BoolAnd { .. } | FusedInstr::BoolOr { .. } => {
            if !out.is_bool() {
                return Err(format!("a logic operation takes bool dtypes, got {out}"));
            }
            same("a logic operation")
        }
        FusedInstr::Cast { .. } => Ok(()),
        FusedInstr::Select { .. } => {
            if !args[0].is_bool() {
                return Err(format!("select takes a bool mask, got {}", args[0]));
            }
            if args[1] != out || args[2] != out {
                return Err(format!(
                    "select takes values of its output's dtype {out}, got {} and {}",
                    args[1], args[2]
                ));
            }
            Ok(())
        }
        FusedInstr::Clamp { .. } => {
            if out.is_bool() {
                return Err(format!("clamp takes a numeric dtype, got {out}"));
            }
            same("clamp")
        }
    }
}
