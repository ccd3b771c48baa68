//! The fused kernel: one `#[cube]` launch function whose body is the program, unrolled at
//! expansion by a small interpreter written against CubeCL's expand types.
//!
//! The tensors arrive as three sequences per direction (floats, integers, bools), each of one
//! `#[define]` element type; the interpreter keeps every local as an expanded value of its
//! kind (`Vector<A, N>`, `Vector<I, N>` or `Vector<bool, N>`) in a plain `Vec`, so nothing of
//! the program is left at run time but straight-line code.

use super::program::{FusedArg, FusedInstr, KernelProgram, Kind};
use crate::kernel::binary::{apply_float, apply_numeric};
use crate::kernel::compare::apply_compare;
use crate::kernel::unary::apply_unary;
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

/// Runs `program` on element-vector `ABSOLUTE_POS` of `units`.
///
/// `F` stores floats and `A` computes them; `I` is the integer dtype; `B` stores bools.
#[cube(launch, address_type = "dynamic")]
// `A` is used only inside `intrinsic!`, which clippy does not see through.
#[allow(clippy::too_many_arguments, clippy::extra_unused_type_parameters)]
pub(crate) fn fused_kernel<F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    float_inputs: Sequence<LinearView<'_, Vector<F, N>>>,
    int_inputs: Sequence<LinearView<'_, Vector<I, N>>>,
    bool_inputs: Sequence<LinearView<'_, Vector<B, N>>>,
    scalars: Sequence<InputScalar>,
    float_outputs: Sequence<LinearViewMut<'_, Vector<F, N>>>,
    int_outputs: Sequence<LinearViewMut<'_, Vector<I, N>>>,
    bool_outputs: Sequence<LinearViewMut<'_, Vector<B, N>>>,
    units: usize,
    #[comptime] program: KernelProgram,
    #[define(F, A, I, B)] _dtypes: [ElemType; 4],
) {
    if ABSOLUTE_POS >= units {
        terminate!();
    }
    let pos = ABSOLUTE_POS;
    intrinsic!(|scope| {
        let views = Views::<F, I, B, N> {
            float_inputs: float_inputs.into_iter().collect(),
            int_inputs: int_inputs.into_iter().collect(),
            bool_inputs: bool_inputs.into_iter().collect(),
            scalars: scalars.into_iter().collect(),
        };
        let outputs = Outputs::<F, I, B, N> {
            floats: float_outputs.into_iter().collect(),
            ints: int_outputs.into_iter().collect(),
            bools: bool_outputs.into_iter().collect(),
        };
        interpret::<F, A, I, B, N>(scope, &views, outputs, pos, &program)
    })
}

/// The expanded input views and scalars of one launch.
pub(super) struct Views<'a, F: Float, I: Numeric, B: Numeric, N: Size> {
    pub(super) float_inputs: Vec<<LinearView<'a, Vector<F, N>> as CubeType>::ExpandType>,
    pub(super) int_inputs: Vec<<LinearView<'a, Vector<I, N>> as CubeType>::ExpandType>,
    pub(super) bool_inputs: Vec<<LinearView<'a, Vector<B, N>> as CubeType>::ExpandType>,
    pub(super) scalars: Vec<<InputScalar as CubeType>::ExpandType>,
}

/// The expanded output views of one launch.
pub(super) struct Outputs<'a, F: Float, I: Numeric, B: Numeric, N: Size> {
    pub(super) floats: Vec<<LinearViewMut<'a, Vector<F, N>> as CubeType>::ExpandType>,
    pub(super) ints: Vec<<LinearViewMut<'a, Vector<I, N>> as CubeType>::ExpandType>,
    pub(super) bools: Vec<<LinearViewMut<'a, Vector<B, N>> as CubeType>::ExpandType>,
}

/// One value of the program during expansion.
pub(super) enum Value<A: Float, I: Numeric, N: Size> {
    /// A float vector in the compute dtype.
    Float(NativeExpand<Vector<A, N>>),
    Int(NativeExpand<Vector<I, N>>),
    Bool(NativeExpand<Vector<bool, N>>),
}

impl<A: Float, I: Numeric, N: Size> Clone for Value<A, I, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: Float, I: Numeric, N: Size> Copy for Value<A, I, N> {}

impl<A: Float, I: Numeric, N: Size> Value<A, I, N> {
    pub(super) fn float(self) -> NativeExpand<Vector<A, N>> {
        match self {
            Value::Float(v) => v,
            _ => unreachable!("fused: the program check guarantees a float here"),
        }
    }

    fn int(self) -> NativeExpand<Vector<I, N>> {
        match self {
            Value::Int(v) => v,
            _ => unreachable!("fused: the program check guarantees an integer here"),
        }
    }

    fn bool(self) -> NativeExpand<Vector<bool, N>> {
        match self {
            Value::Bool(v) => v,
            _ => unreachable!("fused: the program check guarantees a bool here"),
        }
    }
}

/// Expands the program: reads each input once (at its first use), runs the instructions,
/// writes the outputs.
fn interpret<'a, F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    scope: &Scope,
    views: &Views<'a, F, I, B, N>,
    mut outputs: Outputs<'a, F, I, B, N>,
    pos: NativeExpand<usize>,
    program: &KernelProgram,
) {
    let locals = evaluate::<F, A, I, B, N>(scope, views, pos, program, None);
    write_outputs::<F, A, I, B, N>(scope, &mut outputs, pos, program, &locals);
}

/// Expands the instructions at `pos` (each input read once, at its first use) and returns
/// every local. `last_input`, when given, is the value of the program's last input, already
/// in a register (a reduction's result feeding its epilogue): it is not read from a view.
pub(super) fn evaluate<'a, F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    scope: &Scope,
    views: &Views<'a, F, I, B, N>,
    pos: NativeExpand<usize>,
    program: &KernelProgram,
    last_input: Option<Value<A, I, N>>,
) -> Vec<Option<Value<A, I, N>>> {
    let mut inputs: Vec<Option<Value<A, I, N>>> = vec![None; program.inputs.len()];
    if let (Some(value), Some(slot)) = (last_input, inputs.last_mut()) {
        *slot = Some(value);
    }
    let mut locals: Vec<Option<Value<A, I, N>>> = vec![None; program.locals.len()];
    let mut scalars: Vec<Option<Value<A, I, N>>> = vec![None; program.scalars.len()];
    for instr in &program.instrs {
        let mut arg = |arg: FusedArg| -> Value<A, I, N> {
            match arg {
                FusedArg::Local(i) => locals[i as usize].expect("checked: written"),
                FusedArg::Input(i) => {
                    let slot = &mut inputs[i as usize];
                    *slot.get_or_insert_with(|| {
                        read_input::<F, A, I, B, N>(scope, views, program.inputs[i as usize], pos)
                    })
                }
                FusedArg::Scalar(i) => {
                    let slot = &mut scalars[i as usize];
                    let kind = program.scalars[i as usize];
                    let scalar = &views.scalars[i as usize];
                    *slot.get_or_insert_with(|| read_scalar::<A, I, B, N>(scope, scalar, kind))
                }
            }
        };
        let out_kind = program.locals[instr.out() as usize];
        let value = match instr {
            FusedInstr::Unary { op, input, .. } => {
                let x = arg(*input).float();
                Value::Float(apply_unary::expand::<A, N>(scope, x, *op))
            }
            FusedInstr::Binary { op, lhs, rhs, .. } => match (arg(*lhs), arg(*rhs)) {
                (Value::Float(l), Value::Float(r)) => {
                    Value::Float(apply_float::expand::<A, N>(scope, l, r, *op))
                }
                (Value::Int(l), Value::Int(r)) => {
                    Value::Int(apply_numeric::expand::<I, N>(scope, l, r, *op))
                }
                _ => unreachable!("fused: checked numeric operands of one kind"),
            },
            FusedInstr::Compare { op, lhs, rhs, .. } => match (arg(*lhs), arg(*rhs)) {
                (Value::Float(l), Value::Float(r)) => {
                    Value::Bool(apply_compare::expand::<A, N>(scope, l, r, *op))
                }
                (Value::Int(l), Value::Int(r)) => {
                    Value::Bool(apply_compare::expand::<I, N>(scope, l, r, *op))
                }
                _ => unreachable!("fused: checked numeric operands of one kind"),
            },
            FusedInstr::BoolNot { input, .. } => {
                Value::Bool(bool_not::expand::<N>(scope, arg(*input).bool()))
            }
            FusedInstr::BoolAnd { lhs, rhs, .. } => {
                let (l, r) = (arg(*lhs).bool(), arg(*rhs).bool());
                Value::Bool(bool_and::expand::<N>(scope, l, r))
            }
            FusedInstr::BoolOr { lhs, rhs, .. } => {
                let (l, r) = (arg(*lhs).bool(), arg(*rhs).bool());
                Value::Bool(bool_or::expand::<N>(scope, l, r))
            }
            FusedInstr::Cast { input, .. } => cast::<A, I, N>(scope, arg(*input), out_kind),
            FusedInstr::Select {
                mask,
                on_true,
                on_false,
                ..
            } => {
                let mask = arg(*mask).bool();
                match (arg(*on_true), arg(*on_false)) {
                    (Value::Float(t), Value::Float(f)) => {
                        Value::Float(select_value::expand::<A, N>(scope, mask, t, f))
                    }
                    (Value::Int(t), Value::Int(f)) => {
                        Value::Int(select_value::expand::<I, N>(scope, mask, t, f))
                    }
                    (Value::Bool(t), Value::Bool(f)) => {
                        Value::Bool(select_value::expand::<bool, N>(scope, mask, t, f))
                    }
                    _ => unreachable!("fused: checked values of one kind"),
                }
            }
            FusedInstr::Clamp {
                input, min, max, ..
            } => match (arg(*input), arg(*min), arg(*max)) {
                (Value::Float(x), Value::Float(lo), Value::Float(hi)) => {
                    Value::Float(clamp::expand::<A, N>(scope, x, lo, hi))
                }
                (Value::Int(x), Value::Int(lo), Value::Int(hi)) => {
                    Value::Int(clamp::expand::<I, N>(scope, x, lo, hi))
                }
                _ => unreachable!("fused: checked numeric values of one kind"),
            },
        };
        locals[instr.out() as usize] = Some(value);
    }
    locals
}

/// Writes the program's outputs at `pos` from the evaluated `locals`.
pub(super) fn write_outputs<'a, F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    scope: &Scope,
    outputs: &mut Outputs<'a, F, I, B, N>,
    pos: NativeExpand<usize>,
    program: &KernelProgram,
    locals: &[Option<Value<A, I, N>>],
) {
    for &(local, kind, position) in &program.outputs {
        let value = locals[local as usize].expect("checked: written");
        match kind {
            Kind::Float => {
                let view = &mut outputs.floats[position];
                write_float::expand::<F, A, N>(scope, view, pos, value.float());
            }
            Kind::Int => {
                let view = &mut outputs.ints[position];
                write_int::expand::<I, N>(scope, view, pos, value.int());
            }
            Kind::Bool => {
                let view = &mut outputs.bools[position];
                write_bool::expand::<B, N>(scope, view, pos, value.bool());
            }
        }
    }
}

/// Reads input `(kind, position)` at `pos`, as a value of its kind.
fn read_input<'a, F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    scope: &Scope,
    views: &Views<'a, F, I, B, N>,
    (kind, position): (Kind, usize),
    pos: NativeExpand<usize>,
) -> Value<A, I, N> {
    match kind {
        Kind::Float => Value::Float(read_float::expand::<F, A, N>(
            scope,
            &views.float_inputs[position],
            pos,
        )),
        Kind::Int => Value::Int(read_int::expand::<I, N>(
            scope,
            &views.int_inputs[position],
            pos,
        )),
        Kind::Bool => Value::Bool(read_bool::expand::<B, N>(
            scope,
            &views.bool_inputs[position],
            pos,
        )),
    }
}

/// A scalar of `kind`, repeated over the vector.
fn read_scalar<A: Float, I: Numeric, B: Numeric, N: Size>(
    scope: &Scope,
    scalar: &<InputScalar as CubeType>::ExpandType,
    kind: Kind,
) -> Value<A, I, N> {
    match kind {
        Kind::Float => Value::Float(scalar_vector::expand::<A, N>(scope, scalar)),
        Kind::Int => Value::Int(scalar_vector::expand::<I, N>(scope, scalar)),
        Kind::Bool => Value::Bool(scalar_bool::expand::<B, N>(scope, scalar)),
    }
}

/// `value` converted to `kind` (see [`FusedInstr::Cast`]).
fn cast<A: Float, I: Numeric, N: Size>(
    scope: &Scope,
    value: Value<A, I, N>,
    kind: Kind,
) -> Value<A, I, N> {
    match (value, kind) {
        (Value::Float(v), Kind::Float) => Value::Float(v),
        (Value::Int(v), Kind::Int) => Value::Int(v),
        (Value::Bool(v), Kind::Bool) => Value::Bool(v),
        (Value::Float(v), Kind::Int) => Value::Int(convert::expand::<A, I, N>(scope, v)),
        (Value::Int(v), Kind::Float) => Value::Float(convert::expand::<I, A, N>(scope, v)),
        (Value::Bool(v), Kind::Float) => Value::Float(from_bool::expand::<A, N>(scope, v)),
        (Value::Bool(v), Kind::Int) => Value::Int(from_bool::expand::<I, N>(scope, v)),
        (Value::Float(v), Kind::Bool) => Value::Bool(nonzero::expand::<A, N>(scope, v)),
        (Value::Int(v), Kind::Bool) => Value::Bool(nonzero::expand::<I, N>(scope, v)),
    }
}

#[cube]
fn read_float<F: Float, A: Float, N: Size>(
    view: &LinearView<'_, Vector<F, N>>,
    pos: usize,
) -> Vector<A, N> {
    Vector::cast_from(view.read(pos))
}

#[cube]
fn read_int<I: Numeric, N: Size>(view: &LinearView<'_, Vector<I, N>>, pos: usize) -> Vector<I, N> {
    view.read(pos)
}

#[cube]
fn read_bool<B: Numeric, N: Size>(
    view: &LinearView<'_, Vector<B, N>>,
    pos: usize,
) -> Vector<bool, N> {
    nonzero::<B, N>(view.read(pos))
}

#[cube]
fn write_float<F: Float, A: Float, N: Size>(
    view: &mut LinearViewMut<'_, Vector<F, N>>,
    pos: usize,
    value: Vector<A, N>,
) {
    view.write(pos, Vector::cast_from(value));
}

#[cube]
fn write_int<I: Numeric, N: Size>(
    view: &mut LinearViewMut<'_, Vector<I, N>>,
    pos: usize,
    value: Vector<I, N>,
) {
    view.write(pos, value);
}

#[cube]
fn write_bool<B: Numeric, N: Size>(
    view: &mut LinearViewMut<'_, Vector<B, N>>,
    pos: usize,
    value: Vector<bool, N>,
) {
    view.write(pos, Vector::cast_from(value));
}

#[cube]
fn scalar_vector<C: Numeric, N: Size>(scalar: &InputScalar) -> Vector<C, N> {
    Vector::new(scalar.get::<C>())
}

#[cube]
fn scalar_bool<B: Numeric, N: Size>(scalar: &InputScalar) -> Vector<bool, N> {
    nonzero::<B, N>(Vector::new(scalar.get::<B>()))
}

/// `x != 0`, written as `!(x == 0)` so that NaN is `true` on targets whose `!=` is ordered.
#[cube]
fn nonzero<C: Numeric, N: Size>(x: Vector<C, N>) -> Vector<bool, N> {
    !x.equal(&Vector::new(C::from_int(0)))
}

#[cube]
fn from_bool<C: Numeric, N: Size>(x: Vector<bool, N>) -> Vector<C, N> {
    Vector::cast_from(x)
}

#[cube]
fn convert<X: Numeric, Y: Numeric, N: Size>(x: Vector<X, N>) -> Vector<Y, N> {
    Vector::cast_from(x)
}

#[cube]
fn bool_not<N: Size>(x: Vector<bool, N>) -> Vector<bool, N> {
    !x
}

#[cube]
fn bool_and<N: Size>(x: Vector<bool, N>, y: Vector<bool, N>) -> Vector<bool, N> {
    x.vec_and(y)
}

#[cube]
fn bool_or<N: Size>(x: Vector<bool, N>, y: Vector<bool, N>) -> Vector<bool, N> {
    x.or(y)
}

#[cube]
fn select_value<C: Scalar, N: Size>(
    mask: Vector<bool, N>,
    on_true: Vector<C, N>,
    on_false: Vector<C, N>,
) -> Vector<C, N> {
    select_many(mask, on_true, on_false)
}

/// `min(max(x, lo), hi)`: `hi` wins when `lo > hi` (as `torch.clamp`); NaN passes (both
/// comparisons are false).
#[cube]
fn clamp<C: Numeric, N: Size>(x: Vector<C, N>, lo: Vector<C, N>, hi: Vector<C, N>) -> Vector<C, N> {
    let low = select_many(x.less_than(&lo), lo, x);
    select_many(hi.less_than(&low), hi, low)
}
