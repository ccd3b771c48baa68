//! Recorded element-wise operations as instructions of a fused program.

use crate::fused::{FusedArg, FusedInstr};
use crate::kernel::{BinaryOp, CompareOp, UnaryOp};
use burn_backend::{DType, Scalar};
use burn_ir::{
    ActivationOperationIr as Act, BoolOperationIr as Bo, FloatOperationIr as Fl,
    IntOperationIr as In, OperationIr, TensorIr,
};

/// A value an instruction reads, before it is bound to a place in the program.
pub(crate) enum Operand<'a> {
    /// A tensor of the queue.
    Tensor(&'a TensorIr),
    /// A scalar, in the dtype of the tensor it combines with.
    Scalar(Scalar, DType),
}

/// What one operation computes, in terms of the program builder.
pub(crate) trait Emit {
    /// The place of an operand (an input, a scalar or a local).
    fn arg(&mut self, operand: Operand<'_>) -> FusedArg;
    /// A new local of `dtype`.
    fn local(&mut self, dtype: DType) -> u32;
    /// Appends an instruction.
    fn push(&mut self, instr: FusedInstr);
}

fn unary_of(op: &Fl) -> Option<(UnaryOp, &TensorIr, &TensorIr)> {
    use UnaryOp as U;
    let (op, tensor, out) = match op {
        Fl::Neg { tensor, out } => (U::Neg, tensor, out),
        Fl::Recip { tensor, out } => (U::Recip, tensor, out),
        Fl::Exp { tensor, out } => (U::Exp, tensor, out),
        Fl::Log { tensor, out } => (U::Log, tensor, out),
        Fl::Log1p { tensor, out } => (U::Log1p, tensor, out),
        Fl::Sqrt { tensor, out } => (U::Sqrt, tensor, out),
        Fl::Abs { tensor, out } => (U::Abs, tensor, out),
        Fl::Cos { tensor, out } => (U::Cos, tensor, out),
        Fl::Sin { tensor, out } => (U::Sin, tensor, out),
        Fl::Tan { tensor, out } => (U::Tan, tensor, out),
        Fl::Cosh { tensor, out } => (U::Cosh, tensor, out),
        Fl::Sinh { tensor, out } => (U::Sinh, tensor, out),
        Fl::Tanh { tensor, out } => (U::Tanh, tensor, out),
        Fl::Asin { tensor, out } => (U::Asin, tensor, out),
        Fl::Acos { tensor, out } => (U::Acos, tensor, out),
        Fl::Atan { tensor, out } => (U::Atan, tensor, out),
        Fl::Asinh { tensor, out } => (U::Asinh, tensor, out),
        Fl::Acosh { tensor, out } => (U::Acosh, tensor, out),
        Fl::Atanh { tensor, out } => (U::Atanh, tensor, out),
        Fl::Erf { tensor, out } => (U::Erf, tensor, out),
        Fl::Round { tensor, out } => (U::Round, tensor, out),
        Fl::Floor { tensor, out } => (U::Floor, tensor, out),
        Fl::Ceil { tensor, out } => (U::Ceil, tensor, out),
        Fl::Trunc { tensor, out } => (U::Trunc, tensor, out),
        Fl::Sign { tensor, out } => (U::Sign, tensor, out),
        _ => return None,
    };
    Some((op, tensor, out))
}

/// `(op, lhs, rhs, out)` of a binary operation of two tensors or of a tensor and a scalar.
type Binary<'a, K> = (K, &'a TensorIr, Result<&'a TensorIr, Scalar>, &'a TensorIr);

/// `fn $name(op: &$E) -> Option<Binary<BinaryOp>>`: the binary arithmetic of one IR group
/// (the variants both groups share, plus `$extra` arms).
macro_rules! binary_of {
    ($name:ident, $E:ident { $($extra:tt)* }) => {
        fn $name(op: &$E) -> Option<Binary<'_, BinaryOp>> {
            use BinaryOp as O;
            Some(match op {
                $E::Add { lhs, rhs, out } => (O::Add, lhs, Ok(rhs), out),
                $E::Sub { lhs, rhs, out } => (O::Sub, lhs, Ok(rhs), out),
                $E::Mul { lhs, rhs, out } => (O::Mul, lhs, Ok(rhs), out),
                $E::Div { lhs, rhs, out } => (O::Div, lhs, Ok(rhs), out),
                $E::Remainder { lhs, rhs, out } => (O::Remainder, lhs, Ok(rhs), out),
                $E::AddScalar { lhs, rhs, out } => (O::Add, lhs, Err(*rhs), out),
                $E::SubScalar { lhs, rhs, out } => (O::Sub, lhs, Err(*rhs), out),
                $E::MulScalar { lhs, rhs, out } => (O::Mul, lhs, Err(*rhs), out),
                $E::DivScalar { lhs, rhs, out } => (O::Div, lhs, Err(*rhs), out),
                $E::RemainderScalar { lhs, rhs, out } => (O::Remainder, lhs, Err(*rhs), out),
                $E::ClampMin { tensor, min, out } => (O::Max, tensor, Err(*min), out),
                $E::ClampMax { tensor, max, out } => (O::Min, tensor, Err(*max), out),
                $($extra)*
                _ => return None,
            })
        }
    };
}

binary_of!(float_binary, Fl {
    Fl::Powf { lhs, rhs, out } => (O::Powf, lhs, Ok(rhs), out),
    Fl::Atan2 { lhs, rhs, out } => (O::Atan2, lhs, Ok(rhs), out),
    Fl::Hypot { lhs, rhs, out } => (O::Hypot, lhs, Ok(rhs), out),
    Fl::PowfScalar { lhs, rhs, out } => (O::Powf, lhs, Err(*rhs), out),
});
binary_of!(int_binary, In {});

/// `fn $name(op: &$E) -> Option<Binary<CompareOp>>`: the comparisons of one IR group.
macro_rules! compare_of {
    ($name:ident, $E:ident) => {
        fn $name(op: &$E) -> Option<Binary<'_, CompareOp>> {
            use CompareOp as C;
            Some(match op {
                $E::Equal { lhs, rhs, out } => (C::Equal, lhs, Ok(rhs), out),
                $E::NotEqual { lhs, rhs, out } => (C::NotEqual, lhs, Ok(rhs), out),
                $E::Greater { lhs, rhs, out } => (C::Greater, lhs, Ok(rhs), out),
                $E::GreaterEqual { lhs, rhs, out } => (C::GreaterEqual, lhs, Ok(rhs), out),
                $E::Lower { lhs, rhs, out } => (C::Lower, lhs, Ok(rhs), out),
                $E::LowerEqual { lhs, rhs, out } => (C::LowerEqual, lhs, Ok(rhs), out),
                $E::EqualElem { lhs, rhs, out } => (C::Equal, lhs, Err(*rhs), out),
                $E::NotEqualElem { lhs, rhs, out } => (C::NotEqual, lhs, Err(*rhs), out),
                $E::GreaterElem { lhs, rhs, out } => (C::Greater, lhs, Err(*rhs), out),
                $E::GreaterEqualElem { lhs, rhs, out } => (C::GreaterEqual, lhs, Err(*rhs), out),
                $E::LowerElem { lhs, rhs, out } => (C::Lower, lhs, Err(*rhs), out),
                $E::LowerEqualElem { lhs, rhs, out } => (C::LowerEqual, lhs, Err(*rhs), out),
                _ => return None,
            })
        }
    };
}

compare_of!(float_compare, Fl);
compare_of!(int_compare, In);

/// The operand of a binary operation's right side.
fn rhs_operand<'a>(rhs: &Result<&'a TensorIr, Scalar>, dtype: DType) -> Operand<'a> {
    match rhs {
        Ok(t) => Operand::Tensor(t),
        Err(s) => Operand::Scalar(*s, dtype),
    }
}

/// The output of `op` when it is an element-wise operation the fused kernel computes, else
/// `None`. With an emitter, also emits its instructions and returns the local it writes.
pub(crate) fn translate<'a>(
    op: &'a OperationIr,
    bool_dtype: DType,
    emit: Option<&mut dyn Emit>,
) -> Option<(&'a TensorIr, Option<u32>)> {
    let mut steps: Vec<Step<'a>> = Vec::new();
    let out = plan(op, bool_dtype, &mut steps)?;
    let local = emit.map(|e| {
        let mut last = 0;
        let mut locals: Vec<u32> = Vec::new();
        for step in &steps {
            let arg = |e: &mut dyn Emit, o: &Src<'a>, locals: &[u32]| match o {
                Src::Op(operand) => e.arg(match operand {
                    Operand::Tensor(t) => Operand::Tensor(t),
                    Operand::Scalar(s, d) => Operand::Scalar(*s, *d),
                }),
                Src::Step(i) => FusedArg::Local(locals[*i]),
            };
            let dtype = step.dtype;
            let instr = match &step.kind {
                Kind::Unary(u, x) => {
                    let input = arg(e, x, &locals);
                    let out = e.local(dtype);
                    FusedInstr::Unary { op: *u, input, out }
                }
                Kind::Binary(b, l, r) => {
                    let (lhs, rhs) = (arg(e, l, &locals), arg(e, r, &locals));
                    let out = e.local(dtype);
                    FusedInstr::Binary {
                        op: *b,
                        lhs,
                        rhs,
                        out,
                    }
                }
                Kind::Compare(c, l, r) => {
                    let (lhs, rhs) = (arg(e, l, &locals), arg(e, r, &locals));
                    let out = e.local(dtype);
                    FusedInstr::Compare {
                        op: *c,
                        lhs,
                        rhs,
                        out,
                    }
                }
                Kind::Not(x) => {
                    let input = arg(e, x, &locals);
                    let out = e.local(dtype);
                    FusedInstr::BoolNot { input, out }
                }
                Kind::And(l, r) => {
                    let (lhs, rhs) = (arg(e, l, &locals), arg(e, r, &locals));
                    let out = e.local(dtype);
                    FusedInstr::BoolAnd { lhs, rhs, out }
                }
                Kind::Or(l, r) => {
                    let (lhs, rhs) = (arg(e, l, &locals), arg(e, r, &locals));
                    let out = e.local(dtype);
                    FusedInstr::BoolOr { lhs, rhs, out }
                }
                Kind::Cast(x) => {
                    let input = arg(e, x, &locals);
                    let out = e.local(dtype);
                    FusedInstr::Cast { input, out }
                }
                Kind::Select(m, t, f) => {
                    let mask = arg(e, m, &locals);
                    let on_true = arg(e, t, &locals);
                    let on_false = arg(e, f, &locals);
                    let out = e.local(dtype);
                    FusedInstr::Select {
                        mask,
                        on_true,
                        on_false,
                        out,
                    }
                }
                Kind::Clamp(x, lo, hi) => {
                    let input = arg(e, x, &locals);
                    let (min, max) = (arg(e, lo, &locals), arg(e, hi, &locals));
                    let out = e.local(dtype);
                    FusedInstr::Clamp {
                        input,
                        min,
                        max,
                        out,
                    }
                }
            };
            last = instr.out();
            locals.push(last);
            e.push(instr);
        }
        last
    });
    Some((out, local))
}

/// Where a step reads a value: an operand of the operation or an earlier step.
enum Src<'a> {
    Op(Operand<'a>),
    Step(usize),
}

enum Kind<'a> {
    Unary(UnaryOp, Src<'a>),
    Binary(BinaryOp, Src<'a>, Src<'a>),
    Compare(CompareOp, Src<'a>, Src<'a>),
    Not(Src<'a>),
    And(Src<'a>, Src<'a>),
    Or(Src<'a>, Src<'a>),
    Cast(Src<'a>),
    Select(Src<'a>, Src<'a>, Src<'a>),
    Clamp(Src<'a>, Src<'a>, Src<'a>),
}

/// One instruction of an operation's expansion, writing a local of `dtype`.
struct Step<'a> {
    kind: Kind<'a>,
    dtype: DType,
}

fn t(x: &TensorIr) -> Src<'_> {
    Src::Op(Operand::Tensor(x))
}

fn s<'a>(value: Scalar, dtype: DType) -> Src<'a> {
    Src::Op(Operand::Scalar(value, dtype))
}

/// The steps of `op` (pushed to `steps`) and its output, or `None` when the fused kernel does
/// not compute it.
fn plan<'a>(
    op: &'a OperationIr,
    bool_dtype: DType,
    steps: &mut Vec<Step<'a>>,
) -> Option<&'a TensorIr> {
    let mut one = |kind: Kind<'a>, out: &'a TensorIr| {
        steps.push(Step {
            kind,
            dtype: out.dtype,
        });
        Some(out)
    };
    match op {
        OperationIr::Float(f) => {
            if let Some((u, x, out)) = unary_of(f) {
                return one(Kind::Unary(u, t(x)), out);
            }
            if let Some((b, l, r, out)) = float_binary(f) {
                return one(Kind::Binary(b, t(l), rhs_src(&r, l.dtype)), out);
            }
            if let Some((c, l, r, out)) = float_compare(f) {
                return one(Kind::Compare(c, t(l), rhs_src(&r, l.dtype)), out);
            }
            match f {
                Fl::IsNan { tensor, out } => one(
                    Kind::Compare(CompareOp::NotEqual, t(tensor), t(tensor)),
                    out,
                ),
                Fl::Clamp {
                    tensor,
                    min,
                    max,
                    out,
                } => one(
                    Kind::Clamp(t(tensor), s(*min, tensor.dtype), s(*max, tensor.dtype)),
                    out,
                ),
                Fl::MaskWhere {
                    tensor,
                    mask,
                    value,
                    out,
                } if value.dtype == tensor.dtype => {
                    one(Kind::Select(t(mask), t(value), t(tensor)), out)
                }
                Fl::MaskFill {
                    tensor,
                    mask,
                    value,
                    out,
                } => one(
                    Kind::Select(t(mask), s(*value, tensor.dtype), t(tensor)),
                    out,
                ),
                Fl::IntoInt { tensor, out, .. } => one(Kind::Cast(t(tensor)), out),
                Fl::Cast { tensor, out, .. } if tensor.dtype == out.dtype => {
                    one(Kind::Cast(t(tensor)), out)
                }
                _ => None,
            }
        }
        OperationIr::Int(i) => {
            if let Some((b, l, r, out)) = int_binary(i) {
                return one(Kind::Binary(b, t(l), rhs_src(&r, l.dtype)), out);
            }
            if let Some((c, l, r, out)) = int_compare(i) {
                return one(Kind::Compare(c, t(l), rhs_src(&r, l.dtype)), out);
            }
            match i {
                In::MaskWhere {
                    tensor,
                    mask,
                    value,
                    out,
                } => one(Kind::Select(t(mask), t(value), t(tensor)), out),
                In::MaskFill {
                    tensor,
                    mask,
                    value,
                    out,
                } => one(
                    Kind::Select(t(mask), s(*value, tensor.dtype), t(tensor)),
                    out,
                ),
                In::IntoFloat { tensor, out, .. } => one(Kind::Cast(t(tensor)), out),
                _ => None,
            }
        }
        OperationIr::Bool(b) => match b {
            Bo::Not { tensor, out } => one(Kind::Not(t(tensor)), out),
            Bo::And { lhs, rhs, out } => one(Kind::And(t(lhs), t(rhs)), out),
            Bo::Or { lhs, rhs, out } => one(Kind::Or(t(lhs), t(rhs)), out),
            Bo::IntoInt { tensor, out, .. } | Bo::IntoFloat { tensor, out, .. } => {
                one(Kind::Cast(t(tensor)), out)
            }
            Bo::MaskWhere {
                tensor,
                mask,
                value,
                out,
            } => one(Kind::Select(t(mask), t(value), t(tensor)), out),
            _ => None,
        },
        OperationIr::Activation(a) => match a {
            Act::Relu { tensor, out } => one(Kind::Unary(UnaryOp::Relu, t(tensor)), out),
            Act::Sigmoid { tensor, out } => one(Kind::Unary(UnaryOp::Sigmoid, t(tensor)), out),
            // grad where output > 0, else 0.
            Act::ReluBackward { output, grad, out } => {
                let zero = Scalar::from(0.0);
                steps.push(Step {
                    kind: Kind::Compare(CompareOp::Greater, t(output), s(zero, output.dtype)),
                    dtype: bool_dtype,
                });
                steps.push(Step {
                    kind: Kind::Select(Src::Step(0), t(grad), s(zero, grad.dtype)),
                    dtype: out.dtype,
                });
                Some(out)
            }
            _ => None,
        },
        OperationIr::Module(_) => None,
    }
}

fn rhs_src<'a>(rhs: &Result<&'a TensorIr, Scalar>, dtype: DType) -> Src<'a> {
    Src::Op(rhs_operand(rhs, dtype))
}
