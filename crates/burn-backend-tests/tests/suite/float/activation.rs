//! Activation functions: the element-wise ones from a table (each on every layout), the ones
//! along a dim (softmax family, glu) and prelu.

use super::unary::check_unary;
use burn::tensor::{Tensor, activation as act};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::{Env, Layout, RefArray};

macro_rules! activation_tests {
    ($($name:ident: $op:expr, $reference:expr, $domain:expr, $factor:expr;)*) => {$(
        #[test]
        fn $name() {
            check_unary(stringify!($name), $op, $reference, $domain, $factor);
        }
    )*};
}

activation_tests! {
    relu: act::relu, f::relu, (-5.0, 5.0), 1.0;
    leaky_relu: |t: Tensor<3>| act::leaky_relu(t, 0.05), |x| f::leaky_relu(x, 0.05), (-5.0, 5.0), 1.0;
    gelu: act::gelu, f::gelu, (-4.0, 4.0), 1.0;
    gelu_approximate: act::gelu_approximate, f::gelu_tanh, (-4.0, 4.0), 1.0;
    sigmoid: act::sigmoid, f::sigmoid, (-8.0, 8.0), 1.0;
    sigmoid_far_tails: act::sigmoid, f::sigmoid, (-40.0, 40.0), 1.0;
    log_sigmoid: act::log_sigmoid, f::log_sigmoid, (-8.0, 8.0), 1.0;
    log_sigmoid_far_tails: act::log_sigmoid, f::log_sigmoid, (-60.0, 60.0), 1.0;
    hard_sigmoid: |t: Tensor<3>| act::hard_sigmoid(t, 0.2, 0.5), |x| f::hard_sigmoid(x, 0.2, 0.5), (-5.0, 5.0), 1.0;
    silu: act::silu, f::silu, (-6.0, 6.0), 1.0;
    swish: act::swish, f::silu, (-6.0, 6.0), 1.0;
    mish: act::mish, f::mish, (-6.0, 6.0), 1.0;
    tanh_activation: act::tanh, f64::tanh, (-4.0, 4.0), 1.0;
    softplus: |t: Tensor<3>| act::softplus(t, 1.0), |x| f::softplus(x, 1.0), (-8.0, 8.0), 1.0;
    softplus_beta: |t: Tensor<3>| act::softplus(t, 2.5), |x| f::softplus(x, 2.5), (-8.0, 8.0), 1.0;
    // The smooth branch alone (no threshold) stays exact far out.
    softplus_large_inputs: |t: Tensor<3>| act::softplus_with_threshold(t, 1.0, f64::INFINITY), |x| f::softplus(x, 1.0), (20.0, 80.0), 1.0;
    elu: |t: Tensor<3>| act::elu(t, 1.0), |x| f::elu(x, 1.0), (-5.0, 5.0), 1.0;
    elu_alpha: |t: Tensor<3>| act::elu(t, 0.7), |x| f::elu(x, 0.7), (-5.0, 5.0), 1.0;
    relu6: act::relu6, f::relu6, (-3.0, 9.0), 1.0;
    hard_swish: act::hard_swish, f::hard_swish, (-5.0, 5.0), 1.0;
    celu: |t: Tensor<3>| act::celu(t, 1.5), |x| f::celu(x, 1.5), (-6.0, 6.0), 1.0;
    celu_large_inputs: |t: Tensor<3>| act::celu(t, 0.5), |x| f::celu(x, 0.5), (-80.0, 80.0), 1.0;
    selu: act::selu, f::selu, (-6.0, 6.0), 1.0;
    hardtanh: |t: Tensor<3>| act::hardtanh(t, -1.0, 0.5), |x| x.clamp(-1.0, 0.5), (-3.0, 3.0), 1.0;
    tanhshrink: act::tanhshrink, f::tanhshrink, (-4.0, 4.0), 1.0;
    softsign: act::softsign, f::softsign, (-50.0, 50.0), 1.0;
    // Thresholds exactly representable in every float dtype, so the comparison agrees with
    // the reference's even for inputs that land on them.
    threshold: |t: Tensor<3>| act::threshold(t, 0.5, -2.0), |x| f::threshold(x, 0.5, -2.0), (-2.0, 2.0), 1.0;
    thresholded_relu: |t: Tensor<3>| act::thresholded_relu(t, 0.25), |x| f::threshold(x, 0.25, 0.0), (-2.0, 2.0), 1.0;
    hard_shrink: |t: Tensor<3>| act::hard_shrink(t, 0.5), |x| f::hard_shrink(x, 0.5), (-2.0, 2.0), 1.0;
    soft_shrink: |t: Tensor<3>| act::soft_shrink(t, 0.5), |x| f::shrink(x, 0.5, 0.5), (-2.0, 2.0), 1.0;
    shrink: |t: Tensor<3>| act::shrink(t, 0.75, 0.25), |x| f::shrink(x, 0.75, 0.25), (-2.0, 2.0), 1.0;
    softplus_threshold: |t: Tensor<3>| act::softplus_with_threshold(t, 2.0, 4.0), |x| f::softplus_with_threshold(x, 2.0, 4.0), (-5.0, 5.0), 1.0;
    softplus_default_threshold: |t: Tensor<3>| act::softplus(t, 1.0), |x| f::softplus_with_threshold(x, 1.0, act::DEFAULT_SOFTPLUS_THRESHOLD), (10.0, 30.0), 1.0;
}

#[test]
fn relu_keeps_nan() {
    // torch.relu(torch.tensor([nan, -1., 2.])) = [nan, 0., 2.]
    let env = Env::new(crate::device());
    let x = RefArray::new(&[3], vec![f64::NAN, -1.0, 2.0]);
    let expected = RefArray::new(&[3], vec![f64::NAN, 0.0, 2.0]);
    env.check("relu nan", act::relu(env.float::<1>(&x)), &expected, 0.0);
}

#[test]
fn prelu_per_channel_and_shared() {
    let env = Env::new(crate::device());
    let x = env.random(&[2, 3, 4], -3.0, 3.0, 31);
    let alpha = env.random(&[3], 0.0, 0.5, 32);
    let expected = RefArray::from_fn(&[2, 3, 4], |i| f::leaky_relu(x.at(i), alpha.data[i[1]]));
    for layout in Layout::ALL {
        let got = act::prelu(env.float_in::<3>(&x, layout), env.float(&alpha));
        env.check(
            &format!("prelu per channel ({layout:?})"),
            got,
            &expected,
            1.0,
        );
    }
    let shared = env.round(&RefArray::scalar(0.25));
    let got = act::prelu(env.float::<3>(&x), env.float(&shared));
    env.check("prelu shared", got, &x.map(|v| f::leaky_relu(v, 0.25)), 1.0);
}

macro_rules! along_dim_tests {
    ($($name:ident: $op:expr, $reference:expr, $factor:expr;)*) => {$(
        #[test]
        fn $name() {
            let env = Env::new(crate::device());
            let a = env.random(&[4, 2, 6], -4.0, 4.0, burn_backend_tests::seed(stringify!($name)));
            for dim in 0..3 {
                for layout in Layout::ALL {
                    let got = $op(env.float_in::<3>(&a, layout), dim);
                    let expected = $reference(&a, dim);
                    let label = format!("{} dim {dim} ({layout:?})", stringify!($name));
                    env.check(&label, got, &expected, $factor);
                }
            }
        }
    )*};
}

along_dim_tests! {
    softmax: act::softmax, |a: &RefArray, d| a.softmax(d), 1.0;
    log_softmax: act::log_softmax, |a: &RefArray, d| a.log_softmax(d), 1.0;
    softmin: act::softmin, |a: &RefArray, d| a.map(|v| -v).softmax(d), 1.0;
    glu: act::glu, |a: &RefArray, d: usize| {
        let n = a.shape[d] / 2;
        let first = a.slice(&range_on(d, 0, n));
        let second = a.slice(&range_on(d, n, 2 * n));
        first.zip(&second, |x, y| x * f::sigmoid(y))
    }, 1.0;
}

/// Ranges taking `start..end` of dim `dim` and everything else.
fn range_on(
    dim: usize,
    start: usize,
    end: usize,
) -> Vec<burn_backend_tests::reference::layout::Range> {
    use burn_backend_tests::reference::layout::Range;
    let mut ranges = vec![Range::full(); dim + 1];
    ranges[dim] = Range::new(start as isize, Some(end as isize));
    ranges
}

#[test]
fn softmax_is_stable_for_large_inputs() {
    // torch.softmax(torch.tensor([1000., 1001., 1002.]), 0) = [0.0900, 0.2447, 0.6652]
    // (the reference subtracts the max, as torch does)
    let env = Env::new(crate::device());
    let x = env.round(&RefArray::new(&[1, 3], vec![1000.0, 1001.0, 1002.0]));
    let got = act::softmax(env.float::<2>(&x), 1);
    env.check("softmax large", got, &x.softmax(1), 1.0);
    let got = act::log_softmax(env.float::<2>(&x), 1);
    env.check("log_softmax large", got, &x.log_softmax(1), 1.0);
}

#[test]
fn softmax_of_masked_logits() {
    // torch.softmax(torch.tensor([[-inf, 0., 1.], [2., -inf, 2.]]), 1)
    //   = [[0, 0.2689, 0.7311], [0.5, 0, 0.5]]; log_softmax gives -inf where masked.
    let env = Env::new(crate::device());
    let inf = f64::INFINITY;
    let x = RefArray::new(&[2, 3], vec![-inf, 0.0, 1.0, 2.0, -inf, 2.0]);
    let got = act::softmax(env.float::<2>(&x), 1);
    env.check("softmax masked", got, &x.softmax(1), 1.0);
    let got = act::log_softmax(env.float::<2>(&x), 1);
    env.check("log_softmax masked", got, &x.log_softmax(1), 1.0);
}

#[test]
fn softmax_rows_sum_to_one_on_long_rows() {
    let env = Env::new(crate::device());
    let a = env.random(&[4, 4099], -6.0, 6.0, 35);
    let got = act::softmax(env.float::<2>(&a), 1).sum_dim(1);
    env.check(
        "softmax row sums",
        got,
        &RefArray::full(&[4, 1], 1.0),
        64f64.sqrt(),
    );
    let got = act::softmax(env.float::<2>(&a), 1);
    env.check("softmax long", got, &a.softmax(1), 1.0);
}

/// `e^x_i / (1 + Σ e^x_j)` along `dim`: softmax over the line with a zero logit appended.
fn quiet_softmax_reference(a: &RefArray, dim: usize) -> RefArray {
    let mut shape = a.shape.clone();
    shape[dim] = 1;
    let zeros = RefArray::new(&shape, vec![0.0; shape.iter().product()]);
    let padded = RefArray::cat(&[a.clone(), zeros], dim).softmax(dim);
    padded.slice(&range_on(dim, 0, a.shape[dim]))
}

#[test]
fn quiet_softmax_large_and_masked_lines() {
    // A line far above 0 behaves like softmax; an all -inf line (fully masked) gives zeros.
    let env = Env::new(crate::device());
    let x = env.round(&RefArray::new(
        &[2, 3],
        vec![
            1000.0,
            1001.0,
            1002.0,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
    ));
    // In f32: [0.0900, 0.2447, 0.6652] (torch.softmax) and [0, 0, 0].
    let got = act::quiet_softmax(env.float::<2>(&x), -1);
    env.check(
        "quiet_softmax large/masked",
        got,
        &quiet_softmax_reference(&x, 1),
        1.0,
    );
}
