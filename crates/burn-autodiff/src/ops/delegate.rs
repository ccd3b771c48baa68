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
