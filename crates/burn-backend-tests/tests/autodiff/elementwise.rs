//! Gradients of element-wise ops: unary math, scalar and tensor arithmetic with broadcasting.
//!
//! Piecewise-constant ops (`round`, `floor`, `ceil`, `trunc`, `sign`) have gradient zero by
//! design; their cases multiply the result by the input, so a rule that passed the gradient
//! through would show.

use super::{
    constant, distinct, inner_constant, ints, off_integer, shaped, signed, uniform, unit, values,
};

unary_cases! {
    exp: uniform(-2.0, 2.0) => |x| x.exp();
    log: uniform(0.5, 3.0) => |x| x.log();
    log1p: uniform(-0.5, 2.0) => |x| x.log1p();
    sqrt: uniform(0.5, 3.0) => |x| x.sqrt();
    abs: signed(0.2, 2.0) => |x| x.abs();
    recip: signed(0.5, 2.0) => |x| x.recip();
    sin: uniform(-3.0, 3.0) => |x| x.sin();
    cos: uniform(-3.0, 3.0) => |x| x.cos();
    tan: uniform(-1.2, 1.2) => |x| x.tan();
    tanh: uniform(-2.0, 2.0) => |x| x.tanh();
    sinh: uniform(-2.0, 2.0) => |x| x.sinh();
    cosh: uniform(-2.0, 2.0) => |x| x.cosh();
    asin: uniform(-0.9, 0.9) => |x| x.asin();
    acos: uniform(-0.9, 0.9) => |x| x.acos();
    atan: uniform(-3.0, 3.0) => |x| x.atan();
    asinh: uniform(-3.0, 3.0) => |x| x.asinh();
    acosh: uniform(1.2, 3.0) => |x| x.acosh();
    atanh: uniform(-0.9, 0.9) => |x| x.atanh();
    erf: uniform(-2.0, 2.0) => |x| x.erf();
    square: uniform(-2.0, 2.0) => |x| x.square();
    neg: uniform(-2.0, 2.0) => |x| -x;
    // x^0 is constant: gradient zero; the product keeps the case able to fail.
    powf_scalar_zero: uniform(0.5, 2.0) => |x| x.clone().powf_scalar(0.0) * x;
    powf_scalar_one: uniform(0.5, 2.0) => |x| x.powf_scalar(1.0);
    powf_scalar_two_and_a_half: uniform(0.5, 2.0) => |x| x.powf_scalar(2.5);
    powf_scalar_minus_one_and_a_half: uniform(0.5, 2.0) => |x| x.powf_scalar(-1.5);
    powf_scalar_integral_negative_base: signed(0.5, 2.0) => |x| x.powf_scalar(2.0);
    powi_scalar_three: signed(0.5, 2.0) => |x| x.powi_scalar(3);
    powi_scalar_minus_two: signed(0.5, 2.0) => |x| x.powi_scalar(-2);
    powi_scalar_zero: signed(0.5, 2.0) => |x| x.clone().powi_scalar(0) * x;
    powi_tensor_broadcast: uniform(0.5, 2.0) => |x| x.clone().powi(ints(&[2, -1, 3], [1, 3], &x).float());
    clamp: off_integer() => |x| x.clamp(-1.5, 1.5);
    clamp_min: off_integer() => |x| x.clamp_min(0.5);
    clamp_max: off_integer() => |x| x.clamp_max(-0.5);
    round: off_integer() => |x| x.clone().round() * x;
    floor: off_integer() => |x| x.clone().floor() * x;
    ceil: off_integer() => |x| x.clone().ceil() * x;
    trunc: off_integer() => |x| x.clone().trunc() * x;
    sign: off_integer() => |x| x.clone().sign() * x;
    add_scalar: uniform(-2.0, 2.0) => |x| (x + 1.5).exp();
    sub_scalar: uniform(-2.0, 2.0) => |x| (x - 1.5).exp();
    mul_scalar: uniform(-2.0, 2.0) => |x| x * 3.0;
    div_scalar: uniform(-2.0, 2.0) => |x| x.div_scalar(-4.0).exp();
    remainder_scalar: off_integer() => |x| (x % 1.0).exp();
    remainder_scalar_negative_divisor: off_integer() => |x| x.remainder_scalar(-1.0).exp();
    fmod_scalar: off_integer() => |x| x.fmod_scalar(1.0).exp();
    scalar_minus_tensor: uniform(-2.0, 2.0) => |x| (2.5f64 - x).exp();
    scalar_over_tensor: signed(0.5, 2.0) => |x| 3.0f64 / x;
    scalar_times_tensor: uniform(-2.0, 2.0) => |x| 2.0f64 * x;
    scalar_plus_tensor: uniform(-2.0, 2.0) => |x| (1.5f64 + x).sin();
}

/// Two inputs, `[2, 3]` and `[1, 3]` (broadcast along the first dim): `name: lhs generator,
/// rhs generator => |a, b| expression` (lengths 6 and 3 go in front of the arguments).
macro_rules! binary_cases {
    ($($name:ident: $lhs:ident($($la:expr),*), $rhs:ident($($ra:expr),*)
        => |$a:ident, $b:ident| $body:expr;)*) => {
        grad_cases! {$(
            $name: [$lhs(6, $($la),*), $rhs(3, $($ra),*)] => |t| {
                let $a = shaped(&t[0], [2, 3]);
                let $b = shaped(&t[1], [1, 3]);
                $body
            };
        )*}
    };
}

binary_cases! {
    add_broadcast: uniform(-2.0, 2.0), uniform(-2.0, 2.0) => |a, b| (a + b).sin();
    sub_broadcast: uniform(-2.0, 2.0), uniform(-2.0, 2.0) => |a, b| (a - b).sin();
    sub_broadcast_lhs: uniform(-2.0, 2.0), uniform(-2.0, 2.0) => |a, b| (b - a).sin();
    mul_broadcast: uniform(-2.0, 2.0), uniform(-2.0, 2.0) => |a, b| a * b;
    div_broadcast: signed(0.5, 2.0), signed(0.5, 2.0) => |a, b| a / b;
    div_broadcast_lhs: signed(0.5, 2.0), signed(0.5, 2.0) => |a, b| b / a;
    powf_broadcast: uniform(0.5, 2.0), uniform(-2.0, 2.0) => |a, b| a.powf(b);
    powf_broadcast_base: uniform(-2.0, 2.0), uniform(0.5, 2.0) => |a, b| b.powf(a);
    atan2_broadcast: signed(0.3, 2.0), signed(0.3, 2.0) => |a, b| a.atan2(b);
    atan2_broadcast_rhs: signed(0.3, 2.0), signed(0.3, 2.0) => |a, b| b.atan2(a);
    hypot_broadcast: signed(0.3, 2.0), signed(0.3, 2.0) => |a, b| a.hypot(b);
    hypot_broadcast_rhs: uniform(-2.0, 2.0), signed(0.3, 2.0) => |a, b| b.hypot(a);
    // The two value sets interleave at least 0.26 apart whatever the seed: no ties.
    max_pair_broadcast: distinct(-2.0, 2.0), distinct(-1.9, 1.9) => |a, b| a.max_pair(b);
    min_pair_broadcast: distinct(-2.0, 2.0), distinct(-1.9, 1.9) => |a, b| b.min_pair(a);
    tracked_with_constants: uniform(-2.0, 2.0), signed(0.5, 2.0) => |a, b| {
        let c = constant(&[0.5, -1.0, 2.0, 1.5, -0.25, 3.0], [2, 3], &a);
        let d = constant(&[2.0, -3.0, 0.5], [1, 3], &a);
        (a * c).exp() - d.clone() / b.clone() + b * d
    };
    // Constants of the plain device as the first operand of tracked ops.
    inner_device_constants_first: uniform(-2.0, 2.0), uniform(0.5, 2.0) => |a, b| {
        let c = inner_constant(&[0.5, -1.0, 2.0, 1.5, -0.25, 3.0], [2, 3]);
        let d = inner_constant(&[2.0, 0.5, 1.5], [1, 3]);
        c.clone() * a.clone() + d.clone().powf(b.clone()) + c.atan2(a) - d / b
    };
    matmul_chain: uniform(-1.0, 1.0), uniform(-1.0, 1.0) => |a, b| a.matmul(b.transpose()).exp();
}

// Broadcasts over several dims: a bias `[3]` over `[2, 2, 3]` (two adjacent dims summed as
// one), a `[2, 1, 3]` and a `[1, 2, 1]` (the dims summed apart), a `[1, 1, 1]`.
grad_cases! {
    bias_over_two_leading_dims: [uniform(12, -2.0, 2.0), uniform(3, -2.0, 2.0)] => |t| {
        (shaped(&t[0], [2, 2, 3]) + shaped(&t[1], [3]).reshape([1, 1, 3])).sin()
    };
    broadcast_over_the_middle_dim: [uniform(12, -2.0, 2.0), uniform(6, -2.0, 2.0)] => |t| {
        (shaped(&t[0], [2, 2, 3]) * shaped(&t[1], [2, 1, 3])).sin()
    };
    broadcast_over_the_outer_dims: [uniform(12, -2.0, 2.0), uniform(2, -2.0, 2.0)] => |t| {
        (shaped(&t[0], [2, 2, 3]) - shaped(&t[1], [1, 2, 1])).sin()
    };
    broadcast_of_one_value: [uniform(12, -2.0, 2.0), uniform(1, 0.5, 2.0)] => |t| {
        (shaped(&t[0], [2, 2, 3]) / shaped(&t[1], [1, 1, 1])).sin()
    };
}

// Remainders by tensors: the quotients stay away from integers (2.86, 0.38, -1.36, -1.71,
// 2.38, 2.36), where `floor(lhs / rhs)` jumps.
grad_cases! {
    remainder_broadcast: [
        values(&[2.0, 0.5, 1.5, -1.2, 3.1, -2.6]),
        values(&[0.7, 1.3, -1.1]),
    ] => |t| shaped(&t[0], [2, 3]).remainder(shaped(&t[1], [1, 3])).exp();
    fmod_broadcast: [
        values(&[2.0, 0.5, 1.5, -1.2, 3.1, -2.6]),
        values(&[0.7, 1.3, -1.1]),
    ] => |t| shaped(&t[0], [2, 3]).fmod(shaped(&t[1], [1, 3])).exp();
    remainder_operator_rhs_broadcast: [
        values(&[0.7, 1.3, -1.1]),
        values(&[2.0, 0.5, 1.5, -1.2, 3.1, -2.6]),
    ] => |t| (shaped(&t[1], [2, 3]) % shaped(&t[0], [1, 3])).exp();

    // Powers of an exact zero base. With a constant integral exponent of 2 or 3 the base's
    // derivative there is 0; with a tracked exponent `d/dy 0^y = 0` for `y > 0` (the rule
    // masks `0^y ln 0`).
    powf_zero_base: [values(&[0.0, 0.5, 1.5, 1.2, 0.7, 0.0])] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let exponent = constant(&[2.0, 2.5, 3.0], [1, 3], &x);
        x.powf(exponent)
    };
    powf_zero_base_tracked_exponent: [uniform(3, 0.5, 2.0)] => |t| {
        let y = shaped(&t[0], [1, 3]);
        let base = constant(&[0.0, 0.5, 2.0, 1.5, 0.0, 0.7], [2, 3], &y);
        base.powf(y)
    };

    // Compositions: chains of memory-bound ops (recomputed under balanced checkpointing)
    // around compute-bound ones, and a value used by several later ops.
    chain_of_unary_ops: [unit(6)]
        => |t| shaped(&t[0], [2, 3]).exp().sin().mul_scalar(1.5).tanh().add_scalar(2.0).log();
    chain_through_matmul: [unit(6), unit(12), unit(4)] => |t| {
        let x = shaped(&t[0], [2, 3]).exp().mul_scalar(0.5);
        let y = x.matmul(shaped(&t[1], [3, 4])).sin() + shaped(&t[2], [1, 4]);
        y.tanh().sum_dim(1).exp()
    };
    shared_subexpression: [unit(6)] => |t| {
        let y = shaped(&t[0], [2, 3]).exp();
        y.clone() * y.clone().sin() + y.clone().matmul(y.transpose()).sum_dim(1)
    };
}
