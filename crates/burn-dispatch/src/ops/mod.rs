//! The `Dispatch` implementation of the backend contract, written once against the generated
//! `dispatch!` / `dispatch_device!` macros (never naming a backend).
//!
//! `forward!` writes the common case: route on the first argument, convert each argument by
//! its marker (`float`, `int`, `bool`, `val` as is, `floats` a `Vec`, `opt_float` an
//! `Option`, `device`), convert the result likewise.

/// Converts a dispatch-level argument into the routed backend's.
macro_rules! convert_in {
    ($E:ident, float, $x:expr) => {
        $E::float($x)
    };
    ($E:ident, int, $x:expr) => {
        $E::int($x)
    };
    ($E:ident, bool, $x:expr) => {
        $E::bool($x)
    };
    ($E:ident, val, $x:expr) => {
        $x
    };
    ($E:ident, floats, $x:expr) => {
        $x.into_iter().map($E::float).collect()
    };
    ($E:ident, ints, $x:expr) => {
        $x.into_iter().map($E::int).collect()
    };
    ($E:ident, bools, $x:expr) => {
        $x.into_iter().map($E::bool).collect()
    };
    ($E:ident, opt_float, $x:expr) => {
        $x.map($E::float)
    };
    ($E:ident, opt_bool, $x:expr) => {
        $x.map($E::bool)
    };
    ($E:ident, device, $x:expr) => {
        &$E::device($x)
    };
    ($E:ident, quantized, $x:expr) => {
        $E::quantized($x)
    };
    ($E:ident, quantizeds, $x:expr) => {
        $x.into_iter().map($E::quantized).collect()
    };
}

/// Converts a routed backend's result into the dispatch-level one.
macro_rules! convert_out {
    ($E:ident, float, $x:expr) => {
        $E::wrap_float($x)
    };
    ($E:ident, int, $x:expr) => {
        $E::wrap_int($x)
    };
    ($E:ident, bool, $x:expr) => {
        $E::wrap_bool($x)
    };
    ($E:ident, val, $x:expr) => {
        $x
    };
    ($E:ident, float_int, $x:expr) => {{
        let (a, b) = $x;
        ($E::wrap_float(a), $E::wrap_int(b))
    }};
    ($E:ident, int_int, $x:expr) => {{
        let (a, b) = $x;
        ($E::wrap_int(a), $E::wrap_int(b))
    }};
    ($E:ident, device, $x:expr) => {
        $E::wrap_device($x)
    };
    ($E:ident, quantized, $x:expr) => {
        $E::wrap_quantized($x)
    };
    ($E:ident, batch_norm_output, $x:expr) => {{
        let out = $x;
        burn_backend::ops::BatchNormOutput {
            output: $E::wrap_float(out.output),
            mean: $E::wrap_float(out.mean),
            var: $E::wrap_float(out.var),
        }
    }};
    ($E:ident, norm_grads, $x:expr) => {{
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
    ($E:ident, float, $x:expr) => {
        $E::autodiff($x)
    };
    ($E:ident, floats, $x:expr) => {
        $x.into_iter().map($E::autodiff).collect()
    };
    ($E:ident, opt_float, $x:expr) => {
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
    ($E:ident, float, $s:expr, $x:expr) => {
        $E::wrap_autodiff($x, $s)
    };
    ($E:ident, float_int, $s:expr, $x:expr) => {{
        let (a, b) = $x;
        ($E::wrap_autodiff(a, $s), $E::wrap_int(b))
    }};
    ($E:ident, batch_norm_output, $s:expr, $x:expr) => {{
        let out = $x;
        burn_backend::ops::BatchNormOutput {
            output: $E::wrap_autodiff(out.output, $s),
            mean: $E::wrap_autodiff(out.mean, $s),
            var: $E::wrap_autodiff(out.var, $s),
        }
    }};
    ($E:ident, norm_grads, $s:expr, $x:expr) => {{
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
    (float, $x:expr) => {
        $x.checkpointing()
    };
    (floats, $x:expr) => {
        $crate::merge_strategies($x.iter().map(|t| t.checkpointing()))
    };
    (opt_float, $x:expr) => {
        $x.as_ref().and_then(|t| t.checkpointing())
    };
    ($kind:ident, $x:expr) => {
        None
    };
}

/// Writes ops that route on their first argument (see the module docs).
/// Routing happens on the first argument, or on the one named in brackets after the op name
/// (`fn float_gather[tensor](dim: usize => val, …)`). When a float argument comes from an
/// autodiff device, the op runs on `Autodiff<B, C>` of its strategy instead of `B`.
macro_rules! forward {
    ($(
        fn $op:ident $([$route:ident])? ($first:ident: $fty:ty => $fk:ident $(, $arg:ident: $aty:ty => $ak:ident)* $(,)?)
            -> $rty:ty => $rk:ident;
    )*) => {$(
        fn $op($first: $fty $(, $arg: $aty)*) -> $rty {
            forward!(@body $op [$($route)?] ($first => $fk $(, $arg => $ak)*) -> $rk)
        }
    )*};
    (@body $op:ident [$($route:ident)?] ($first:ident => $fk:ident $(, $arg:ident => $ak:ident)*) -> $rk:ident) => {{
        // A tensor being captured takes the op to the recording, whatever the other arguments.
        let route: &DispatchTensor = recording_arg!($fk, &$first)
            $(.or(recording_arg!($ak, &$arg)))*
            .unwrap_or(&route_arg!($($route)?; $first));
        dispatch!(route, E, B => {
            #[cfg(feature = "autodiff")]
            if let Some(strategy) = $crate::merge_strategies([
                strategy_of!($fk, &$first) $(, strategy_of!($ak, &$arg))*
            ]) {
                return $crate::with_checkpointing!(strategy, S => {
                    type A = $crate::__private::Autodiff<B, S>;
                    convert_out_ad!(
                        E,
                        $rk,
                        strategy,
                        A::$op(convert_in_ad!(E, $fk, $first) $(, convert_in_ad!(E, $ak, $arg))*)
                    )
                });
            }
            convert_out!(
                E,
                $rk,
                B::$op(convert_in!(E, $fk, $first) $(, convert_in!(E, $ak, $arg))*)
            )
        })
    }};
}

/// The argument, when it is a tensor being captured.
macro_rules! recording_arg {
    (float, $x:expr) => {
        Some($x).filter(|t: &&DispatchTensor| t.is_recording())
    };
    (int, $x:expr) => {
        recording_arg!(float, $x)
    };
    (bool, $x:expr) => {
        recording_arg!(float, $x)
    };
    (floats, $x:expr) => {
        $x.iter().find(|t| t.is_recording())
    };
    (ints, $x:expr) => {
        recording_arg!(floats, $x)
    };
    (bools, $x:expr) => {
        recording_arg!(floats, $x)
    };
    (opt_float, $x:expr) => {
        $x.as_ref().filter(|t| t.is_recording())
    };
    (opt_bool, $x:expr) => {
        recording_arg!(opt_float, $x)
    };
    ($kind:ident, $x:expr) => {
        Option::<&DispatchTensor>::None
    };
}

/// Writes float layout ops that keep a quantized tensor quantized: when the argument named in
/// brackets after the quantized op is quantized, that op runs (arguments converted by their
/// markers, the tensor by `quantized`); otherwise the float op is forwarded as by `forward!`
/// (which dequantizes any other quantized argument).
macro_rules! forward_quantized {
    ($(
        fn $op:ident $([$route:ident])? ($first:ident: $fty:ty => $fk:ident $(, $arg:ident: $aty:ty => $ak:ident)* $(,)?)
            -> T => float | $qop:ident[$q:ident]($($qarg:ident => $qk:ident),* $(,)?);
    )*) => {$(
        fn $op($first: $fty $(, $arg: $aty)*) -> T {
            // Inside a capture, quantized operands are recorded dequantized, by `forward!`.
            let recording = recording_arg!($fk, &$first)$(.or(recording_arg!($ak, &$arg)))*.is_some();
            if super::is_quantized(&$q) && !recording {
                return dispatch!(&$q, E, B => E::wrap_quantized(B::$qop($(convert_in!(E, $qk, $qarg)),*)));
            }
            forward!(@body $op [$($route)?] ($first => $fk $(, $arg => $ak)*) -> float)
        }
    )*};
}

/// Whether a dispatch tensor holds a quantized tensor.
fn is_quantized(tensor: &DispatchTensor) -> bool {
    matches!(tensor.dtype(), DType::QFloat(_))
}

/// The argument `forward!` routes on.
macro_rules! route_arg {
    (first; $first:ident) => {
        $first[0]
    };
    (; $first:ident) => {
        $first
    };
    ($route:ident; $first:ident) => {
        $route
    };
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
