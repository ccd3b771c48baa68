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
}

/// Writes ops that route on their first argument (see the module docs).
/// Routing happens on the first argument, or on the one named in brackets after the op name
/// (`fn float_gather[tensor](dim: usize => val, …)`).
macro_rules! forward {
    ($(
        fn $op:ident $([$route:ident])? ($first:ident: $fty:ty => $fk:ident $(, $arg:ident: $aty:ty => $ak:ident)* $(,)?)
            -> $rty:ty => $rk:ident;
    )*) => {$(
        fn $op($first: $fty $(, $arg: $aty)*) -> $rty {
            dispatch!(&route_arg!($($route)?; $first), E, B => convert_out!(
                E,
                $rk,
                B::$op(convert_in!(E, $fk, $first) $(, convert_in!(E, $ak, $arg))*)
            ))
        }
    )*};
}

/// The argument `forward!` routes on.
macro_rules! route_arg {
    (; $first:ident) => {
        $first
    };
    ($route:ident; $first:ident) => {
        $route
    };
}

mod activation;
mod bool;
mod device;
mod float;
mod int;
mod module;
mod qtensor;
mod transaction;
mod transfer;

/// What every op file uses.
mod prelude {
    pub(super) use super::super::{
        BackendEntry, Dispatch, DispatchDevice, DispatchTensor, entries,
    };
    pub(super) use crate::BackendTensor;
    pub(super) use burn_backend::ops::*;
    pub(super) use burn_backend::{
        Backend, DType, Distribution, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice,
        TensorData, TensorMetadata,
    };
}
