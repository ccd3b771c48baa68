//! `delegate!`: ops forwarded unchanged to the inner backend (or to a type of rules);
//! `untracked!`: ops run on the inner backend with no gradient.

/// Writes trait methods that forward their arguments, unchanged, to the function of the same
/// name on a type: one line per method, `fn name(arg: Type, …) -> Ret;`, after `to Type;`
/// (the inner backend, or a type holding rules). Doc comments on a line stay on its method.
///
/// ```text
/// delegate! {
///     to B;
///     fn int_add(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
/// }
/// ```
///
/// Only for methods whose arguments and result are the same types on both sides (int,
/// bool and quantized primitives, devices, plain values); float tensors must be unwrapped or
/// wrapped by hand (see `untracked!`).
macro_rules! delegate {
    (to $inner:ty; $(
        $(#[$meta:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty;
    )*) => {$(
        $(#[$meta])*
        fn $name($($arg: $ty),*) -> $ret {
            <$inner>::$name($($arg),*)
        }
    )*};
}

/// Writes `Autodiff` trait methods that run the inner backend's method of the same name
/// untracked: one line per method, `fn name(float, …; arg: Type, …);`, the float tensors
/// first (unwrapped), then the other arguments (passed unchanged); the result is a float
/// tensor with no gradient. For the `*_backward` ops: no second-order gradients through
/// them.
///
/// ```text
/// untracked! {
///     fn conv_bias_backward(output_grad;);
/// }
/// ```
macro_rules! untracked {
    ($(fn $name:ident($($float:ident),+; $($arg:ident: $ty:ty),* $(,)?);)*) => {$(
        fn $name($($float: AT<B>,)+ $($arg: $ty),*) -> AT<B> {
            AT::new(B::$name($($float.into_primitive(),)+ $($arg),*))
        }
    )*};
}

/// The callback of `burn-ir`'s int and bool tables: every line becomes a method running the
/// inner backend's op of the same name. Int and bool tensors are `B`'s own; a float result
/// (`int_into_float`) is an untracked constant. A table line with a float argument has no
/// arm here and fails to compile: its gradient must be written by hand.
macro_rules! delegated_methods {
    ($Enum:ident, $Trait:ident, $group:literal;
     lazy { $( $LV:ident = $lop:ident ( $($la:ident : $lk:ident $([$lt:ty])?),* $(,)? ) -> $lout:ident => $rule:expr; )* }
     eager { $( $EV:ident = $eop:ident ( $($ea:ident : $ek:ident $([$et:ty])?),* $(,)? ) -> $eout:ident; )* }
    ) => {
        $(
            fn $lop($($la: inner_arg_ty!($lk $($lt)?)),*) -> inner_out_ty!($lout) {
                inner_out!($lout, B::$lop($($la),*))
            }
        )*
        $(
            fn $eop($($ea: inner_arg_ty!($ek $($et)?)),*) -> inner_out_ty!($eout) {
                inner_out!($eout, B::$eop($($ea),*))
            }
        )*
    };
}

/// The inner backend's type of a table argument kind (int and bool tensors, devices, values).
macro_rules! inner_arg_ty {
    (I) => { burn_backend::tensor::IntTensor<B> };
    (B) => { burn_backend::tensor::BoolTensor<B> };
    (VecI) => { Vec<burn_backend::tensor::IntTensor<B>> };
    (VecB) => { Vec<burn_backend::tensor::BoolTensor<B>> };
    (OptB) => { Option<burn_backend::tensor::BoolTensor<B>> };
    (Dev) => { &burn_backend::tensor::Device<B> };
    (Val $t:ty) => { $t };
    (Slice $t:ty) => { &[$t] };
}

/// The result type of a table output kind, as `Autodiff<B, C>` returns it.
macro_rules! inner_out_ty {
    (F) => { $crate::AutodiffTensor<B> };
    (I) => { burn_backend::tensor::IntTensor<B> };
    (B) => { burn_backend::tensor::BoolTensor<B> };
    (II) => { (burn_backend::tensor::IntTensor<B>, burn_backend::tensor::IntTensor<B>) };
}

/// The inner backend's result, a float one made an untracked constant.
macro_rules! inner_out {
    (F, $x:expr) => {
        $crate::AutodiffTensor::new($x)
    };
    ($kind:ident, $x:expr) => {
        $x
    };
}
