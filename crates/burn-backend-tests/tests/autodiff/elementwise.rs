//! Gradients of element-wise ops: unary math, scalar and tensor arithmetic with broadcasting.

use super::{GradInput, check_gradients, device, flat, seed};

/// One test per unary op: `name: low..high => |x| expression of x ([2, 3])`.
macro_rules! unary_cases {
    ($($name:ident: $low:expr, $high:expr => |$x:ident| $body:expr;)*) => {$(
        #[test]
        fn $name() {
            let input = GradInput::uniform(6, $low, $high, seed(stringify!($name)));
            check_gradients(stringify!($name), &device(), &[input], &|t| {
                let $x = t[0].clone().reshape([2, 3]);
                flat($body)
            });
        }
    )*};
}

unary_cases! {
    exp: -2.0, 2.0 => |x| x.exp();
    log: 0.5, 3.0 => |x| x.log();
    sqrt: 0.5, 3.0 => |x| x.sqrt();
    tanh: -2.0, 2.0 => |x| x.tanh();
    mul_scalar: -2.0, 2.0 => |x| x * 3.0;
}

/// Two inputs `[2, 3]` and `[1, 3]` (broadcast along the first dim).
macro_rules! binary_cases {
    ($($name:ident: $low:expr, $high:expr => |$a:ident, $b:ident| $body:expr;)*) => {$(
        #[test]
        fn $name() {
            let lhs = GradInput::uniform(6, $low, $high, seed(concat!(stringify!($name), "lhs")));
            let rhs = GradInput::uniform(3, $low, $high, seed(concat!(stringify!($name), "rhs")));
            check_gradients(stringify!($name), &device(), &[lhs, rhs], &|t| {
                let $a = t[0].clone().reshape([2, 3]);
                let $b = t[1].clone().reshape([1, 3]);
                flat($body)
            });
        }
    )*};
}

binary_cases! {
    add_broadcast: -2.0, 2.0 => |a, b| a + b;
    mul_broadcast: -2.0, 2.0 => |a, b| a * b;
    div_broadcast: 0.5, 2.0 => |a, b| a / b;
    matmul_chain: -1.0, 1.0 => |a, b| a.matmul(b.transpose()).exp();
}
