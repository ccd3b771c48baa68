//! The macros that write a recording backend's methods from the operation tables, shared by
//! `Fusion<B>` (which records into its streams) and graph capture (which records into a
//! graph): for each argument and output kind of a table line, the method's parameter and
//! return types, the recorded (IR) form of an argument, the output tensors of the rule's result
//! and the backend tensors made of them.
//!
//! Each takes the kind first, then what differs between recorders: the tensor type `$T` (with a
//! `new(id, shape, dtype, recorder)` constructor and an `into_ir(self) -> TensorIr` method), the
//! device type `$D`, the recorder `$rec` (with `new_id()`).

/// The parameter type of an argument kind.
#[macro_export]
#[doc(hidden)]
macro_rules! record_arg_ty {
    (F; $T:ty, $D:ty) => { $T };
    (I; $T:ty, $D:ty) => { $T };
    (B; $T:ty, $D:ty) => { $T };
    (OptF; $T:ty, $D:ty) => { Option<$T> };
    (OptB; $T:ty, $D:ty) => { Option<$T> };
    (VecF; $T:ty, $D:ty) => { Vec<$T> };
    (VecI; $T:ty, $D:ty) => { Vec<$T> };
    (VecB; $T:ty, $D:ty) => { Vec<$T> };
    (Dev; $T:ty, $D:ty) => { &$D };
    (Val $t:ty; $T:ty, $D:ty) => { $t };
    (Slice $t:ty; $T:ty, $D:ty) => { &[$t] };
}

/// The return type of an output kind.
#[macro_export]
#[doc(hidden)]
macro_rules! record_out_ty {
    (F; $T:ty) => {
        $T
    };
    (I; $T:ty) => {
        $T
    };
    (B; $T:ty) => {
        $T
    };
    (FI; $T:ty) => {
        ($T, $T)
    };
    (II; $T:ty) => {
        ($T, $T)
    };
}

/// The recorded (IR) form of an argument.
#[macro_export]
#[doc(hidden)]
macro_rules! record_to_ir {
    (F; $x:expr) => { $x.into_ir() };
    (I; $x:expr) => { $x.into_ir() };
    (B; $x:expr) => { $x.into_ir() };
    (OptF; $x:expr) => { $x.map(|t| t.into_ir()) };
    (OptB; $x:expr) => { $x.map(|t| t.into_ir()) };
    (VecF; $x:expr) => { $x.into_iter().map(|t| t.into_ir()).collect::<Vec<_>>() };
    (VecI; $x:expr) => { $crate::record_to_ir!(VecF; $x) };
    (VecB; $x:expr) => { $crate::record_to_ir!(VecF; $x) };
    (Dev; $x:expr) => { { let _ = $x; } };
    (Val $t:ty; $x:expr) => { $x };
    (Slice $t:ty; $x:expr) => { $x.to_vec() };
}

/// The output tensors (IR) of an operation from its rule's result, with ids from `$rec`.
#[macro_export]
#[doc(hidden)]
macro_rules! record_out_ir {
    (F; $rec:ident, $spec:expr) => { {
        let s = $spec;
        $crate::TensorIr::output($rec.new_id(), s.shape, s.dtype)
    } };
    (I; $rec:ident, $spec:expr) => { $crate::record_out_ir!(F; $rec, $spec) };
    (B; $rec:ident, $spec:expr) => { $crate::record_out_ir!(F; $rec, $spec) };
    (FI; $rec:ident, $spec:expr) => { {
        let [a, b] = $spec;
        [$crate::record_out_ir!(F; $rec, a), $crate::record_out_ir!(F; $rec, b)]
    } };
    (II; $rec:ident, $spec:expr) => { $crate::record_out_ir!(FI; $rec, $spec) };
}

/// The method's result: tensors of type `$T` naming the recorded outputs.
#[macro_export]
#[doc(hidden)]
macro_rules! record_out_wrap {
    (F; $T:ident, $rec:ident, $out:expr) => { {
        let o = $out;
        $T::new(o.id, o.shape, o.dtype, $rec.clone())
    } };
    (I; $T:ident, $rec:ident, $out:expr) => { $crate::record_out_wrap!(F; $T, $rec, $out) };
    (B; $T:ident, $rec:ident, $out:expr) => { $crate::record_out_wrap!(F; $T, $rec, $out) };
    (FI; $T:ident, $rec:ident, $out:expr) => { {
        let [a, b] = $out;
        ($crate::record_out_wrap!(F; $T, $rec, a), $crate::record_out_wrap!(F; $T, $rec, b))
    } };
    (II; $T:ident, $rec:ident, $out:expr) => { $crate::record_out_wrap!(FI; $T, $rec, $out) };
}
