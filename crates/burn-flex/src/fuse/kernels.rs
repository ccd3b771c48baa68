//! The element functions of a program's operations, written once for both ways a program is
//! evaluated: the loops over a block of any length in `eval.rs`, and the kernels over one step
//! of [`STEP`] values in `steps.rs`, function pointers compiled for the widest vector
//! instruction set the CPU has.

use super::program::{Binary, Unary};
use crate::element::FloatElement;
use std::marker::PhantomData;

/// Values one kernel computes per call: two 512-bit vectors of `f32`. Small enough that the
/// out-of-order window spans several steps of a chain and keeps loads of every input in flight
/// during its arithmetic (see `steps.rs`).
pub const STEP: usize = 32;

/// One operation on one value: `f(x)` for a unary one (`y` ignored), `x op y` for a binary one.
pub trait ElemOp<E> {
    /// The result for `x` (and `y`).
    fn apply(x: E, y: E) -> E;
}

/// Declares one zero-sized [`ElemOp`] per operation from its element formula.
macro_rules! elem_ops {
    ($($(#[$doc:meta])* $name:ident($x:ident, $y:ident) = $body:expr;)*) => {
        $(
            $(#[$doc])*
            pub struct $name;

            impl<E: FloatElement> ElemOp<E> for $name {
                #[inline(always)]
                #[allow(unused_variables)]
                fn apply($x: E, $y: E) -> E {
                    $body
                }
            }
        )*
    };
}

elem_ops! {
    /// `e^x` (vectorizable for `f32` and the half floats).
    Exp(x, y) = x.exp_vectorizable();
    /// `ln x` (vectorizable for `f32` and the half floats).
    Log(x, y) = x.ln_vectorizable();
    /// `-x`.
    Neg(x, y) = -x;
    /// `|x|`.
    Abs(x, y) = x.abs();
    /// `√x`.
    Sqrt(x, y) = x.sqrt();
    /// `1 / x`.
    Recip(x, y) = x.recip();
    /// `tanh x` (vectorizable for `f32` and the half floats).
    Tanh(x, y) = x.tanh_vectorizable();
    /// `max(x, 0)`: 0 for `x ≤ 0`, else `x` (NaN stays NaN), as the eager `relu`.
    Relu(x, y) = if x <= E::zero() { E::zero() } else { x };
    /// `x + y`.
    Add(x, y) = x + y;
    /// `x - y`.
    Sub(x, y) = x - y;
    /// `x * y`.
    Mul(x, y) = x * y;
    /// `x / y`.
    Div(x, y) = x / y;
}

/// Evaluates `$body` with the type `$F` naming the [`ElemOp`] of `$op`, a variant of `$Enum`
/// named as the operation's type.
macro_rules! with_op {
    ($op:expr, $F:ident => $body:expr, $Enum:ident { $($variant:ident),* }) => {
        match $op {
            $($Enum::$variant => {
                type $F = $crate::fuse::kernels::$variant;
                $body
            })*
        }
    };
}

/// Evaluates `$body` with the type `$F` naming the [`ElemOp`] of the [`Unary`] `$op`.
macro_rules! with_unary {
    ($op:expr, $F:ident => $body:expr) => {
        $crate::fuse::kernels::with_op!(
            $op, $F => $body, Unary { Exp, Log, Neg, Abs, Sqrt, Recip, Tanh, Relu }
        )
    };
}

/// Evaluates `$body` with the type `$F` naming the [`ElemOp`] of the [`Binary`] `$op`.
macro_rules! with_binary {
    ($op:expr, $F:ident => $body:expr) => {
        $crate::fuse::kernels::with_op!($op, $F => $body, Binary { Add, Sub, Mul, Div })
    };
}

pub(crate) use {with_binary, with_op, with_unary};

/// A kernel: `dst[j] = f(a[j], b[j], s)` for `j < STEP`, each pointer to [`STEP`] values.
///
/// # Safety
/// `dst`, `a` and `b` must each address `STEP` valid values, and `dst` overlap neither `a` nor
/// `b`.
pub type Kernel<E> = unsafe fn(dst: *mut E, a: *const E, b: *const E, s: E);

/// The body of a kernel, before it is compiled for an instruction set.
trait Body<E> {
    /// See [`Kernel`].
    ///
    /// # Safety
    /// See [`Kernel`].
    unsafe fn run(dst: *mut E, a: *const E, b: *const E, s: E);
}

/// `f(a)`.
struct UnaryBody<F>(PhantomData<F>);
/// `a op b`.
struct BinaryBody<F>(PhantomData<F>);
/// `a op s`.
struct ScalarBody<F>(PhantomData<F>);

/// `dst[j] = f(a[j], b[j])` over the three pointers of a kernel, with the operands copied into
/// values first: inside `pulp`'s vectorizing function the compiler could not see that the
/// destination overlaps neither operand, and a loop of one cheap operation over references
/// was unrolled into 32 scalar instructions instead of two vector ones. A plain loop, not
/// `array::map`, whose closure was left out of line (compiled without the vector features,
/// its `mul_add`s became calls to a software `fmaf`).
///
/// # Safety
/// See [`Kernel`].
#[inline(always)]
unsafe fn on_values<E: Copy>(dst: *mut E, a: *const E, b: *const E, f: impl Fn(E, E) -> E) {
    // SAFETY: the caller's contract.
    let (x, y) = unsafe { (*a.cast::<[E; STEP]>(), *b.cast::<[E; STEP]>()) };
    let mut out = x;
    for j in 0..STEP {
        out[j] = f(x[j], y[j]);
    }
    // SAFETY: the caller's contract.
    unsafe { *dst.cast::<[E; STEP]>() = out }
}

impl<E: FloatElement, F: ElemOp<E>> Body<E> for UnaryBody<F> {
    #[inline(always)]
    unsafe fn run(dst: *mut E, a: *const E, _: *const E, _: E) {
        // SAFETY: the caller's contract (`a` stands in for the unused `b`).
        unsafe { on_values(dst, a, a, |x, _| F::apply(x, x)) }
    }
}

impl<E: FloatElement, F: ElemOp<E>> Body<E> for BinaryBody<F> {
    #[inline(always)]
    unsafe fn run(dst: *mut E, a: *const E, b: *const E, _: E) {
        // SAFETY: the caller's contract.
        unsafe { on_values(dst, a, b, F::apply) }
    }
}

impl<E: FloatElement, F: ElemOp<E>> Body<E> for ScalarBody<F> {
    #[inline(always)]
    unsafe fn run(dst: *mut E, a: *const E, _: *const E, s: E) {
        // SAFETY: the caller's contract (`a` stands in for the unused `b`).
        unsafe { on_values(dst, a, a, |x, _| F::apply(x, s)) }
    }
}

/// Declares `$name`: `K`'s body compiled for the instruction set of the `pulp` token `$token`.
macro_rules! on_isa {
    ($(#[$doc:meta])* $name:ident, $token:path) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// See [`Kernel`]; the CPU must have the token's instruction set (chosen only where
        /// `pulp` detected it).
        #[cfg(target_arch = "x86_64")]
        unsafe fn $name<E, K: Body<E>>(dst: *mut E, a: *const E, b: *const E, s: E) {
            // SAFETY: the caller's contract.
            let simd = unsafe { <$token>::new_unchecked() };
            simd.vectorize(
                #[inline(always)]
                || unsafe { K::run(dst, a, b, s) },
            )
        }
    };
}

on_isa!(
    /// `K`'s body compiled for AVX-512 (x86-64-v4).
    on_v4,
    pulp::x86::V4
);
on_isa!(
    /// `K`'s body compiled for AVX2 and FMA (x86-64-v3).
    on_v3,
    pulp::x86::V3
);

/// `K`'s body compiled for the crate's baseline.
///
/// # Safety
/// See [`Kernel`].
unsafe fn on_baseline<E, K: Body<E>>(dst: *mut E, a: *const E, b: *const E, s: E) {
    // SAFETY: the caller's contract.
    unsafe { K::run(dst, a, b, s) }
}

/// `K`'s body compiled for the widest instruction set this CPU has.
fn compiled<E, K: Body<E>>() -> Kernel<E> {
    #[cfg(target_arch = "x86_64")]
    match crate::simd::arch() {
        pulp::Arch::V4(_) => return on_v4::<E, K>,
        pulp::Arch::V3(_) => return on_v3::<E, K>,
        _ => {}
    }
    on_baseline::<E, K>
}

/// The kernel of `f(a)`.
pub fn unary_kernel<E: FloatElement>(op: Unary) -> Kernel<E> {
    with_unary!(op, F => compiled::<E, UnaryBody<F>>())
}

/// The kernel of `a op b`.
pub fn binary_kernel<E: FloatElement>(op: Binary) -> Kernel<E> {
    with_binary!(op, F => compiled::<E, BinaryBody<F>>())
}

/// The kernel of `a op s`.
pub fn scalar_kernel<E: FloatElement>(op: Binary) -> Kernel<E> {
    with_binary!(op, F => compiled::<E, ScalarBody<F>>())
}
