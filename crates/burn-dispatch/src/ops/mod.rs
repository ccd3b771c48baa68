//! The `Dispatch` implementation of the backend contract, written once against the generated
//! `dispatch!` / `dispatch_device!` macros (never naming a backend).
//!
//! Most methods are generated from `burn-ir`'s operation tables (the one list of backend
//! operations): `routed_methods!` is the tables' callback, and writes each line with
//! `forward!` unless `routed_by_hand!` names it. The methods written by hand are those whose
//! routing is not "the first tensor argument": creation on a device, reads, transfers,
//! gradient flags, and the float operations that keep quantized tensors quantized.
//!
//! Arguments and results are described by the tables' kinds: `F`, `I`, `B`, `Q` (a float,
//! int, bool or quantized tensor), `OptF`, `OptB`, `VecF`, `VecI`, `VecB`, `VecQ`, `Dev`,
//! `Val[T]` and `Slice[T]` (a `&[T]`); results also `FI`, `II` (pairs) and, for the
//! normalizations, `NormGrads` and `BatchNorm`.

/// The parameter type of an argument kind.
macro_rules! arg_ty {
    (Q) => { DispatchTensor };
    (VecQ) => { Vec<DispatchTensor> };
    ($kind:ident $($t:ty)?) => { burn_ir::record_arg_ty!($kind $($t)?; DispatchTensor, DispatchDevice) };
}

/// The return type of a result kind.
macro_rules! out_ty {
    (Q) => { DispatchTensor };
    (NormGrads) => { burn_backend::ops::NormGrads<Dispatch> };
    (BatchNorm) => { burn_backend::ops::BatchNormOutput<Dispatch> };
    ($kind:ident) => { burn_ir::record_out_ty!($kind; DispatchTensor) };
}

/// Converts a dispatch-level argument into the routed backend's.
macro_rules! convert_in {
    ($E:ident, F, $x:expr) => {
        $E::float($x)
    };
    ($E:ident, I, $x:expr) => {
        $E::int($x)
    };
    ($E:ident, B, $x:expr) => {
        $E::bool($x)
    };
    ($E:ident, Q, $x:expr) => {
        $E::quantized($x)
    };
    ($E:ident, OptF, $x:expr) => {
        $x.map($E::float)
    };
    ($E:ident, OptB, $x:expr) => {
        $x.map($E::bool)
    };
    ($E:ident, VecF, $x:expr) => {
        $x.into_iter().map($E::float).collect()
    };
    ($E:ident, VecI, $x:expr) => {
        $x.into_iter().map($E::int).collect()
    };
    ($E:ident, VecB, $x:expr) => {
        $x.into_iter().map($E::bool).collect()
    };
    ($E:ident, VecQ, $x:expr) => {
        $x.into_iter().map($E::quantized).collect()
    };
    ($E:ident, Dev, $x:expr) => {
        &$E::device($x)
    };
    ($E:ident, Val, $x:expr) => {
        $x
    };
    ($E:ident, Slice, $x:expr) => {
        $x
    };
}

/// Converts a routed backend's result into the dispatch-level one.
macro_rules! convert_out {
    ($E:ident, F, $x:expr) => {
        $E::wrap_float($x)
    };
    ($E:ident, I, $x:expr) => {
        $E::wrap_int($x)
    };
    ($E:ident, B, $x:expr) => {
        $E::wrap_bool($x)
    };
    ($E:ident, Q, $x:expr) => {
        $E::wrap_quantized($x)
    };
    ($E:ident, FI, $x:expr) => {{
        let (a, b) = $x;
        ($E::wrap_float(a), $E::wrap_int(b))
    }};
    ($E:ident, II, $x:expr) => {{
        let (a, b) = $x;
        ($E::wrap_int(a), $E::wrap_int(b))
    }};
    ($E:ident, BatchNorm, $x:expr) => {{
        let out = $x;
        burn_backend::ops::BatchNormOutput {
            output: $E::wrap_float(out.output),
            mean: $E::wrap_float(out.mean),
            var: $E::wrap_float(out.var),
        }
    }};
    ($E:ident, NormGrads, $x:expr) => {{
        let grads = $x;
        burn_backend::ops::NormGrads {
            x_grad: $E::wrap_float(grads.x_grad),
            gamma_grad: $E::wrap_float(grads.gamma_grad),
            beta_grad: $E::wrap_float(grads.beta_grad),
        }
    }};
}

/// Converts a dispatch-level argument into the routed `Autodiff<B, C>`'s (floats become
/// autodiff tensors, plain ones constants; other kinds are the inner backend's already).
#[cfg(feature = "autodiff")]
macro_rules! convert_in_ad {
    ($E:ident, F, $x:expr) => {
        $E::autodiff($x)
    };
    ($E:ident, VecF, $x:expr) => {
        $x.into_iter().map($E::autodiff).collect()
    };
    ($E:ident, OptF, $x:expr) => {
        $x.map($E::autodiff)
    };
    ($E:ident, $kind:ident, $x:expr) => {
        convert_in!($E, $kind, $x)
    };
}

/// Converts an `Autodiff<B, C>` result into the dispatch-level one, floats tagged with
/// `$s`, the strategy they were computed under.
#[cfg(feature = "autodiff")]
macro_rules! convert_out_ad {
    ($E:ident, F, $s:expr, $x:expr) => {
        $E::wrap_autodiff($x, $s)
    };
    ($E:ident, FI, $s:expr, $x:expr) => {{
        let (a, b) = $x;
        ($E::wrap_autodiff(a, $s), $E::wrap_int(b))
    }};
    ($E:ident, BatchNorm, $s:expr, $x:expr) => {{
        let out = $x;
        burn_backend::ops::BatchNormOutput {
            output: $E::wrap_autodiff(out.output, $s),
            mean: $E::wrap_autodiff(out.mean, $s),
            var: $E::wrap_autodiff(out.var, $s),
        }
    }};
    ($E:ident, NormGrads, $s:expr, $x:expr) => {{
        let grads = $x;
        burn_backend::ops::NormGrads {
            x_grad: $E::wrap_autodiff(grads.x_grad, $s),
            gamma_grad: $E::wrap_autodiff(grads.gamma_grad, $s),
            beta_grad: $E::wrap_autodiff(grads.beta_grad, $s),
        }
    }};
    ($E:ident, $kind:ident, $s:expr, $x:expr) => {
        convert_out!($E, $kind, $x)
    };
}

/// The checkpointing strategy an argument carries (`None` unless it is a float of an
/// autodiff device).
#[cfg(feature = "autodiff")]
macro_rules! strategy_of {
    (F, $x:expr) => {
        $x.checkpointing()
    };
    (VecF, $x:expr) => {
        $crate::merge_strategies($x.iter().map(|t| t.checkpointing()))
    };
    (OptF, $x:expr) => {
        $x.as_ref().and_then(|t| t.checkpointing())
    };
    ($kind:ident, $x:expr) => {
        None
    };
}

/// The argument, when it is a tensor being captured.
macro_rules! recording_arg {
    (Val, $x:expr) => {
        Option::<&DispatchTensor>::None
    };
    (Slice, $x:expr) => {
        Option::<&DispatchTensor>::None
    };
    (Dev, $x:expr) => {
        Option::<&DispatchTensor>::None
    };
    (VecF, $x:expr) => {
        $x.iter().find(|t| t.is_recording())
    };
    (VecI, $x:expr) => {
        recording_arg!(VecF, $x)
    };
    (VecB, $x:expr) => {
        recording_arg!(VecF, $x)
    };
    (VecQ, $x:expr) => {
        recording_arg!(VecF, $x)
    };
    ($kind:ident, $x:expr) => {
        tensor_arg!($kind, $x).filter(|t| t.is_recording())
    };
}

/// The argument's first tensor, if it holds any.
macro_rules! tensor_arg {
    (F, $x:expr) => {
        Some($x)
    };
    (I, $x:expr) => {
        Some($x)
    };
    (B, $x:expr) => {
        Some($x)
    };
    (Q, $x:expr) => {
        Some($x)
    };
    (OptF, $x:expr) => {
        $x.as_ref()
    };
    (OptB, $x:expr) => {
        $x.as_ref()
    };
    (VecF, $x:expr) => {
        $x.first()
    };
    (VecI, $x:expr) => {
        $x.first()
    };
    (VecB, $x:expr) => {
        $x.first()
    };
    (VecQ, $x:expr) => {
        $x.first()
    };
    ($kind:ident, $x:expr) => {
        Option::<&DispatchTensor>::None
    };
}

/// Writes methods that route on their tensor arguments, one line each in the tables' form:
/// `fn name(arg: Kind, arg: Val[Type], …) -> Kind;`. The op runs on the backend of the first
/// tensor being captured, else of the first tensor argument; when a float argument comes
/// from an autodiff device, on `Autodiff<B, C>` of its strategy instead of `B`.
macro_rules! forward {
    ($(
        fn $op:ident($($arg:ident: $k:ident $([$t:ty])?),* $(,)?) -> $out:ident;
    )*) => {$(
        fn $op($($arg: arg_ty!($k $($t)?)),*) -> out_ty!($out) {
            forward!(@body $op ($($arg => $k),*) -> $out)
        }
    )*};
    (@body $op:ident ($($arg:ident => $k:ident),*) -> $out:ident) => {{
        // A tensor being captured takes the op to the recording, whatever the other arguments.
        let route: &DispatchTensor = None
            $(.or(recording_arg!($k, &$arg)))*
            $(.or(tensor_arg!($k, &$arg)))*
            .unwrap_or_else(|| panic!("{}: no tensor to run on (an empty list?)", stringify!($op)));
        dispatch!(route, E, B => {
            #[cfg(feature = "autodiff")]
            if let Some(strategy) = $crate::merge_strategies([$(strategy_of!($k, &$arg)),*]) {
                return $crate::with_checkpointing!(strategy, S => {
                    type A = $crate::__private::Autodiff<B, S>;
                    convert_out_ad!(E, $out, strategy, A::$op($(convert_in_ad!(E, $k, $arg)),*))
                });
            }
            convert_out!(E, $out, B::$op($(convert_in!(E, $k, $arg)),*))
        })
    }};
}

/// The callback of `burn-ir`'s tables: every line becomes a `forward!` method unless
/// `routed_by_hand!` names it.
macro_rules! routed_methods {
    ($Enum:ident, $Trait:ident, $group:literal;
     lazy { $( $LV:ident = $lop:ident ( $($la:ident : $lk:ident $([$lt:ty])?),* $(,)? ) -> $lout:ident => $rule:expr; )* }
     eager { $( $EV:ident = $eop:ident ( $($ea:ident : $ek:ident $([$et:ty])?),* $(,)? ) -> $eout:ident; )* }
    ) => {
        $( routed_by_hand! { $lop($($la: $lk $([$lt])?),*) -> $lout; } )*
        $( routed_by_hand! { $eop($($ea: $ek $([$et])?),*) -> $eout; } )*
    };
}

/// The table operations whose `Dispatch` methods are written by hand (an arm each, giving
/// nothing); every other line goes to `forward!`. Creation routes on a device (and wraps a
/// float for an autodiff device); the float layout ops, `float_cat`, `float_arg{max,min}` and
/// `float_matmul` keep quantized tensors quantized.
macro_rules! routed_by_hand {
    (float_random $($t:tt)*) => {};
    (float_empty $($t:tt)*) => {};
    (float_zeros $($t:tt)*) => {};
    (float_ones $($t:tt)*) => {};
    (float_full $($t:tt)*) => {};
    (int_random $($t:tt)*) => {};
    (int_empty $($t:tt)*) => {};
    (int_zeros $($t:tt)*) => {};
    (int_ones $($t:tt)*) => {};
    (int_full $($t:tt)*) => {};
    (int_arange_step $($t:tt)*) => {};
    (bool_empty $($t:tt)*) => {};
    (bool_zeros $($t:tt)*) => {};
    (bool_ones $($t:tt)*) => {};
    (float_swap_dims $($t:tt)*) => {};
    (float_transpose $($t:tt)*) => {};
    (float_permute $($t:tt)*) => {};
    (float_flip $($t:tt)*) => {};
    (float_reshape $($t:tt)*) => {};
    (float_expand $($t:tt)*) => {};
    (float_slice $($t:tt)*) => {};
    (float_repeat_dim $($t:tt)*) => {};
    (float_gather $($t:tt)*) => {};
    (float_select $($t:tt)*) => {};
    (float_cat $($t:tt)*) => {};
    (float_argmax $($t:tt)*) => {};
    (float_argmin $($t:tt)*) => {};
    (float_matmul $($t:tt)*) => {};
    ($($line:tt)*) => { forward! { fn $($line)* } };
}

/// Writes float layout ops that keep a quantized tensor quantized: when the argument named in
/// brackets after the quantized op is quantized, that op runs (its arguments converted by
/// their kinds, the tensor by `Q`); otherwise the float op is forwarded as by `forward!`
/// (which dequantizes any other quantized argument).
macro_rules! forward_quantized {
    ($(
        fn $op:ident($($arg:ident: $k:ident $([$t:ty])?),* $(,)?) -> F
            | $qop:ident[$q:ident]($($qarg:ident => $qk:ident),* $(,)?);
    )*) => {$(
        fn $op($($arg: arg_ty!($k $($t)?)),*) -> DispatchTensor {
            // Inside a capture, quantized operands are recorded dequantized, by `forward!`.
            let recording = None$(.or(recording_arg!($k, &$arg)))*.is_some();
            if super::is_quantized(&$q) && !recording {
                return dispatch!(&$q, E, B => E::wrap_quantized(B::$qop($(convert_in!(E, $qk, $qarg)),*)));
            }
            forward!(@body $op ($($arg => $k),*) -> F)
        }
    )*};
}

/// Whether a dispatch tensor holds a quantized tensor.
fn is_quantized(tensor: &DispatchTensor) -> bool {
    matches!(tensor.dtype(), DType::QFloat(_))
}

use prelude::*;

mod activation;
mod autodiff;
mod bool;
mod capture;
mod device;
mod float;
mod int;
mod module;
mod qtensor;
mod transaction;
mod transfer;

#[cfg(feature = "autodiff")]
pub use autodiff::AutodiffDevice;

/// What every op file uses.
mod prelude {
    pub(super) use super::super::{
        BackendEntry, Dispatch, DispatchDevice, DispatchTensor, entries,
    };
    pub(super) use crate::BackendTensor;
    pub(super) use burn_backend::ops::*;
    pub(super) use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor};
    pub(super) use burn_backend::{
        Backend, DType, Distribution, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice,
        TensorData, TensorMetadata,
    };
}
