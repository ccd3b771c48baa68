//! Shape assertions on tensors (`assert_shape!`, `debug_assert_shape!`) and the `shape!`
//! constructor.
//!
//! A pattern has one slot per axis: `_` skips the axis, any `usize` expression is the size the
//! axis must have, and one slot may be `..` for any number of axes. Without `..` the rank is
//! checked by the compiler (the pattern's length must be the tensor's rank); with it the
//! pattern fixes a minimum rank, checked when the assertion runs.

use crate::Tensor;
use crate::kind::Basic;

/// Asserts a tensor's shape against a pattern: `assert_shape!(x, [batch, _, 256])`.
///
/// Slots are `_` (any size), `..` (any number of axes, at most once) or a `usize` expression
/// evaluated once (a name from `dims()`, a config field, arithmetic). Without `..` a pattern
/// whose length differs from the rank does not compile; sizes are checked at run time in every
/// build (see [`debug_assert_shape!`] for debug builds only). The tensor is borrowed.
///
/// ```
/// use burn_tensor::{Device, Tensor, assert_shape};
/// let x = Tensor::<3>::zeros([2, 5, 256], &Device::default());
/// let [batch, seq, _] = x.dims();
/// assert_shape!(x, [batch, seq, 256]);
/// assert_shape!(x, [_, 5, _]);
/// assert_shape!(x, [.., 256]);
/// assert_shape!(x, [2, ..]);
/// ```
///
/// A mismatch panics naming the call and the axis:
///
/// ```should_panic
/// use burn_tensor::{Device, Tensor, assert_shape};
/// let x = Tensor::<2>::zeros([2, 3], &Device::default());
/// assert_shape!(x, [2, 99]); // axis 1 expected 99, got 3
/// ```
///
/// ```compile_fail
/// use burn_tensor::{Device, Tensor, assert_shape};
/// let x = Tensor::<2>::zeros([2, 3], &Device::default());
/// assert_shape!(x, [2, 3, 1]); // three slots for a rank-2 tensor
/// ```
#[macro_export]
macro_rules! assert_shape {
    ($tensor:expr, [$($pattern:tt)*] $(,)?) => {
        $crate::__shape_pattern!(
            @split (concat!("assert_shape!(", stringify!($tensor), ", [", stringify!($($pattern)*), "])"))
            ($tensor) [] [] $($pattern)*
        )
    };
}

/// [`assert_shape!`] in debug builds only: the sizes (and, with `..`, the minimum rank) are
/// checked when `debug_assertions` is on, and neither the tensor nor the slots are evaluated
/// otherwise; a pattern of the wrong rank still does not compile.
///
/// ```
/// use burn_tensor::{Device, Tensor, debug_assert_shape};
/// let hidden = Tensor::<3>::zeros([2, 5, 256], &Device::default());
/// debug_assert_shape!(hidden, [2, _, 256]);
/// ```
#[macro_export]
macro_rules! debug_assert_shape {
    ($($arguments:tt)*) => {
        if cfg!(debug_assertions) {
            $crate::assert_shape!($($arguments)*);
        }
    };
}

/// Parses a shape pattern (an implementation detail of [`assert_shape!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __shape_pattern {
    // Split the pattern at its top-level commas, one group per slot.
    (@split $call:tt $tensor:tt [$($slots:tt)*] [$($slot:tt)*] , $($rest:tt)*) => {
        $crate::__shape_pattern!(@split $call $tensor [$($slots)* ($($slot)*)] [] $($rest)*)
    };
    (@split $call:tt $tensor:tt [$($slots:tt)*] [$($slot:tt)*] $next:tt $($rest:tt)*) => {
        $crate::__shape_pattern!(@split $call $tensor [$($slots)*] [$($slot)* $next] $($rest)*)
    };
    (@split $call:tt $tensor:tt [$($slots:tt)*] []) => {
        $crate::__shape_pattern!(@sort $call $tensor [] [] no $($slots)*)
    };
    (@split $call:tt $tensor:tt [$($slots:tt)*] [$($slot:tt)+]) => {
        $crate::__shape_pattern!(@sort $call $tensor [] [] no $($slots)* ($($slot)+))
    };
    // Sort the slots into those before `..` and those after it.
    (@sort $call:tt $tensor:tt [$($before:tt)*] [] no (..) $($slots:tt)*) => {
        $crate::__shape_pattern!(@sort $call $tensor [$($before)*] [] yes $($slots)*)
    };
    (@sort $call:tt $tensor:tt $before:tt $after:tt yes (..) $($slots:tt)*) => {
        compile_error!("assert_shape!: a pattern may hold `..` only once")
    };
    (@sort $call:tt $tensor:tt [$($before:tt)*] [] no (_) $($slots:tt)*) => {
        $crate::__shape_pattern!(@sort $call $tensor [$($before)* None,] [] no $($slots)*)
    };
    (@sort $call:tt $tensor:tt [$($before:tt)*] [] no ($($size:tt)+) $($slots:tt)*) => {
        $crate::__shape_pattern!(@sort $call $tensor [$($before)* Some($($size)+),] [] no $($slots)*)
    };
    (@sort $call:tt $tensor:tt $before:tt [$($after:tt)*] yes (_) $($slots:tt)*) => {
        $crate::__shape_pattern!(@sort $call $tensor $before [$($after)* None,] yes $($slots)*)
    };
    (@sort $call:tt $tensor:tt $before:tt [$($after:tt)*] yes ($($size:tt)+) $($slots:tt)*) => {
        $crate::__shape_pattern!(@sort $call $tensor $before [$($after)* Some($($size)+),] yes $($slots)*)
    };
    // Emit the check.
    (@sort $call:tt ($tensor:expr) [$($before:tt)*] [] no) => {
        $crate::__check_shape_exact(&$tensor, [$($before)*], $call)
    };
    (@sort $call:tt ($tensor:expr) [$($before:tt)*] [$($after:tt)*] yes) => {
        $crate::__check_shape_rest(&$tensor, &[$($before)*], &[$($after)*], $call)
    };
}

/// The check of a pattern without `..`: its length is the rank (a type error otherwise).
#[doc(hidden)]
#[track_caller]
pub fn __check_shape_exact<const D: usize, K: Basic>(
    tensor: &Tensor<D, K>,
    pattern: [Option<usize>; D],
    call: &str,
) {
    let dims = tensor.dims();
    check_axes(call, &dims, 0, &pattern);
}

/// The check of a pattern with `..`: at least as many axes as slots, the slots before `..`
/// against the first axes and those after it against the last.
#[doc(hidden)]
#[track_caller]
pub fn __check_shape_rest<const D: usize, K: Basic>(
    tensor: &Tensor<D, K>,
    before: &[Option<usize>],
    after: &[Option<usize>],
    call: &str,
) {
    let dims = tensor.dims();
    let needed = before.len() + after.len();
    if D < needed {
        panic!("{call}: expected at least {needed} axes, got {D} (dims {dims:?})");
    }
    check_axes(call, &dims, 0, before);
    check_axes(call, &dims, D - after.len(), after);
}

#[track_caller]
fn check_axes(call: &str, dims: &[usize], first: usize, pattern: &[Option<usize>]) {
    for (offset, expected) in pattern.iter().enumerate() {
        let axis = first + offset;
        if let Some(expected) = *expected
            && dims[axis] != expected
        {
            panic!(
                "{call}: axis {axis} expected {expected}, got {} (dims {dims:?})",
                dims[axis]
            );
        }
    }
}

/// A [`Shape`](crate::Shape) from its sizes: `shape![2, 3]`, `shape![1; 4]` (four ones),
/// `shape![]` (rank 0).
///
/// ```
/// use burn_tensor::{Shape, shape};
/// assert_eq!(shape![2, 3], Shape::new([2, 3]));
/// assert_eq!(shape![1; 3].num_dims(), 3);
/// ```
#[macro_export]
macro_rules! shape {
    () => {
        $crate::Shape::from(::std::vec::Vec::<usize>::new())
    };
    ($size:expr; $count:expr) => {
        $crate::Shape::from(::std::vec![$size; $count])
    };
    ($($size:expr),+ $(,)?) => {
        $crate::Shape::from(::std::vec![$($size),+])
    };
}
