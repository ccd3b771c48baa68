//! `delegate!`: ops forwarded unchanged to the inner backend.

/// Writes trait methods that forward their arguments, unchanged, to the method of the same
/// name on the inner backend: one line per method, `fn name(arg: Type, …) -> Ret;`, after
/// `to Inner;`.
///
/// ```text
/// delegate! {
///     to B;
///     fn int_add(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
/// }
/// ```
///
/// Only for methods whose arguments and result are the same types on both backends (int,
/// bool and quantized primitives, devices, plain values); float tensors must be unwrapped or
/// wrapped by hand.
macro_rules! delegate {
    (to $inner:ident; $(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty;)*) => {$(
        fn $name($($arg: $ty),*) -> $ret {
            $inner::$name($($arg),*)
        }
    )*};
}
