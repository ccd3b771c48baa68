//! The autodiff suite, written once over the public API; `device()` is the binary's plain
//! device (its autodiff views are made by the checks).
//!
//! Every test checks one op (or a small composition) with [`check_gradients`]. Inputs come
//! from the generators below (`uniform(len, low, high)`, `unit`, `signed`, `off_integer`,
//! `distinct`, `values`): each returns a function of a seed, so the case macros derive the
//! seeds from the test's name.

/// One gradient check per line: `name: [input generators] => |t| expression of t` (`t` are the
/// flat tracked inputs; the expression's result is flattened). `name needs [dtypes]: …` is
/// reported skipped on a device without one of those dtypes.
macro_rules! grad_cases {
    ($($(#[$meta:meta])* $name:ident $(needs [$($dtype:expr),+])?:
        [$($input:expr),+ $(,)?] => |$t:ident| $body:expr;)*) => {$(
        $(#[$meta])*
        #[test]
        fn $name() {
            $(if !burn_backend_tests::supports(
                &$crate::autodiff::device(),
                &[$($dtype),+],
                concat!("autodiff::", stringify!($name)),
            ) {
                return;
            })?
            let base = $crate::autodiff::seed(stringify!($name));
            let mut k = 0u64;
            let inputs = vec![$({
                k += 1;
                ($input)(base.wrapping_add(k))
            }),+];
            $crate::autodiff::check_gradients(
                stringify!($name),
                &$crate::autodiff::device(),
                &inputs,
                &|$t: &[burn::tensor::Tensor<1>]| $crate::autodiff::flat($body),
            );
        }
    )*};
}

/// One test per element-wise op on a `[2, 3]` input: `name: generator(args) => |x| expression`
/// (the generator gets the length 6 in front of `args`).
macro_rules! unary_cases {
    ($($name:ident: $gen:ident($($arg:expr),*) => |$x:ident| $body:expr;)*) => {
        grad_cases! {$(
            $name: [$gen(6, $($arg),*)] => |t| {
                let $x = $crate::autodiff::shaped(&t[0], [2, 3]);
                $body
            };
        )*}
    };
}

mod elementwise;
mod layout;
mod nn;
mod reduce;
mod semantics;

use burn::tensor::{BasicOps, Bool, Int, Tensor, TensorData};

pub(crate) use super::device;
pub(crate) use burn_backend_tests::{GradInput, check_gradients, seed};

/// `tensor` flattened to 1-d.
pub(crate) fn flat<const D: usize, K: BasicOps>(tensor: Tensor<D, K>) -> Tensor<1, K> {
    let len = tensor.shape().num_elements();
    tensor.reshape([len])
}

/// A flat input reshaped to `shape`.
pub(crate) fn shaped<const D: usize>(input: &Tensor<1>, shape: [usize; D]) -> Tensor<D> {
    input.clone().reshape(shape)
}

/// An int tensor of `shape` holding `values`, on the device of `like`.
pub(crate) fn ints<const D: usize, const D2: usize>(
    values: &[i64],
    shape: [usize; D],
    like: &Tensor<D2>,
) -> Tensor<D, Int> {
    Tensor::from_data(TensorData::new(values.to_vec(), shape), &like.device())
}

/// A bool tensor of `shape` holding `values`, on the device of `like`.
pub(crate) fn bools<const D: usize, const D2: usize>(
    values: &[bool],
    shape: [usize; D],
    like: &Tensor<D2>,
) -> Tensor<D, Bool> {
    Tensor::from_data(TensorData::new(values.to_vec(), shape), &like.device())
}

/// An untracked float tensor of `shape` holding `values`, on the device of `like`.
pub(crate) fn constant<const D: usize, const D2: usize>(
    values: &[f64],
    shape: [usize; D],
    like: &Tensor<D2>,
) -> Tensor<D> {
    Tensor::from_data(TensorData::new(values.to_vec(), shape), &like.device())
}

/// An untracked float tensor of `shape` holding `values` on the binary's plain device: in the
/// analytic pass it meets tensors of the autodiff view, and enters the graph as a constant.
pub(crate) fn inner_constant<const D: usize>(values: &[f64], shape: [usize; D]) -> Tensor<D> {
    Tensor::from_data(TensorData::new(values.to_vec(), shape), &device())
}

/// A seeded input generator.
pub(crate) type Generator = Box<dyn Fn(u64) -> GradInput>;

/// `len` values drawn uniformly from `[low, high)`.
pub(crate) fn uniform(len: usize, low: f64, high: f64) -> Generator {
    Box::new(move |s| GradInput::uniform(len, low, high, s))
}

/// `len` values drawn uniformly from `[-1, 1)`.
pub(crate) fn unit(len: usize) -> Generator {
    uniform(len, -1.0, 1.0)
}

/// `len` values whose magnitudes are drawn from `[low, high)`, with random signs (keeps
/// inputs away from zero, for `abs`, `sign` and other kinks at the origin).
pub(crate) fn signed(len: usize, low: f64, high: f64) -> Generator {
    Box::new(move |s| {
        let magnitudes = GradInput::uniform(len, low, high, s).values;
        let signs = GradInput::uniform(len, -1.0, 1.0, s ^ 0x5167).values;
        let values: Vec<f64> = magnitudes
            .iter()
            .zip(&signs)
            .map(|(m, s)| if *s < 0.0 { -m } else { *m })
            .collect();
        GradInput::values(&values)
    })
}

/// `len` values `k + f` with an integer `k` in `-3..3` and a fraction `f` in
/// `[0.1, 0.4] ∪ [0.6, 0.9]`: away from the jumps of `floor`, `ceil`, `trunc`, `round`
/// (integers and halves) and of the remainder by 1.
pub(crate) fn off_integer(len: usize) -> Generator {
    Box::new(move |s| {
        let raw = GradInput::uniform(len, 0.0, 1.0, s).values;
        let ks = GradInput::uniform(len, -3.0, 3.0, s ^ 0x1a7e).values;
        let values: Vec<f64> = raw
            .iter()
            .zip(&ks)
            .map(|(r, k)| {
                let f = 0.1 + 0.3 * (2.0 * r).fract();
                let f = if *r < 0.5 { f } else { f + 0.5 };
                k.floor() + f
            })
            .collect();
        GradInput::values(&values)
    })
}

/// `len` values in `[low, high)` at least `(high - low) / len` apart (for max, sort and other
/// ops whose gradient jumps at ties).
pub(crate) fn distinct(len: usize, low: f64, high: f64) -> Generator {
    Box::new(move |s| GradInput::distinct(len, low, high, s))
}

/// These exact values.
pub(crate) fn values(values: &'static [f64]) -> Generator {
    Box::new(move |_| GradInput::values(values))
}
