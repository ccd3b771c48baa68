//! Gradients of the neural-network functions: activations, softmax and friends,
//! convolutions, pooling, interpolation, embedding, linear, attention, layer and batch
//! normalization and losses.
//!
//! The int indices of `embedding` and bool attention masks have no gradient by design.
//! Inputs keep away from kinks (relu at 0, hard_sigmoid and relu6 at their bounds) and pooling
//! inputs are distinct, so each max is unique.

use super::{
    bools, distinct, inner_constant, ints, off_integer, shaped, signed, uniform, unit, values,
};
use burn::tensor::ops::{
    AttentionModuleOptions, AvgPoolOptions, CausalAlignment, ConvOptions, ConvTransposeOptions,
    GridSampleOptions, GridSamplePaddingMode, InterpolateMode, InterpolateOptions, MaxPoolOptions,
    UnfoldOptions,
};
use burn::tensor::{Bool, Tensor, activation as act, loss, module};

/// Max-pooling options: kernel, stride, `(begin, end)` padding, dilation, ceil mode.
fn max<const N: usize>(
    kernel: [usize; N],
    stride: [usize; N],
    padding: [(usize, usize); N],
    dilation: [usize; N],
    ceil_mode: bool,
) -> MaxPoolOptions<N> {
    MaxPoolOptions::new(kernel)
        .with_stride(stride)
        .with_padding_pairs(padding)
        .with_dilation(dilation)
        .with_ceil_mode(ceil_mode)
}

/// Average-pooling options: kernel, stride, `(begin, end)` padding, count_include_pad, ceil mode.
fn avg<const N: usize>(
    kernel: [usize; N],
    stride: [usize; N],
    padding: [(usize, usize); N],
    count_include_pad: bool,
    ceil_mode: bool,
) -> AvgPoolOptions<N> {
    AvgPoolOptions::new(kernel)
        .with_stride(stride)
        .with_padding_pairs(padding)
        .with_count_include_pad(count_include_pad)
        .with_ceil_mode(ceil_mode)
}

/// `off_integer` scaled by 3: away from the multiples of 1.5 (the kinks of relu6 at 0 and 6
/// and of hard_swish at ±3).
fn off_multiple_of_three(len: usize) -> super::Generator {
    let base = off_integer(len);
    Box::new(move |s| {
        let mut input = base(s);
        input.values.iter_mut().for_each(|v| *v *= 3.0);
        input
    })
}

unary_cases! {
    relu: signed(0.2, 2.0) => |x| act::relu(x);
    leaky_relu: signed(0.2, 2.0) => |x| act::leaky_relu(x, 0.1);
    gelu: uniform(-3.0, 3.0) => |x| act::gelu(x);
    gelu_approximate: uniform(-3.0, 3.0) => |x| act::gelu_approximate(x);
    sigmoid: uniform(-4.0, 4.0) => |x| act::sigmoid(x);
    log_sigmoid: uniform(-4.0, 4.0) => |x| act::log_sigmoid(x);
    // alpha 0.2, beta 0.5: linear on (-2.5, 2.5); the inputs keep 0.1 away from ±2.5.
    hard_sigmoid: off_integer() => |x| act::hard_sigmoid(x, 0.2, 0.5);
    silu: uniform(-3.0, 3.0) => |x| act::silu(x);
    swish: uniform(-3.0, 3.0) => |x| act::swish(x);
    mish: uniform(-3.0, 3.0) => |x| act::mish(x);
    tanh: uniform(-2.0, 2.0) => |x| act::tanh(x);
    softplus: signed(0.2, 3.0) => |x| act::softplus(x, 1.0);
    softplus_beta: signed(0.2, 3.0) => |x| act::softplus(x, 2.5);
    elu: signed(0.2, 2.0) => |x| act::elu(x, 1.3);
    relu6: off_multiple_of_three() => |x| act::relu6(x);
    hard_swish: off_multiple_of_three() => |x| act::hard_swish(x);
    softmax: uniform(-2.0, 2.0) => |x| act::softmax(x, 1);
    softmax_dim0: uniform(-2.0, 2.0) => |x| act::softmax(x, 0);
    log_softmax: uniform(-2.0, 2.0) => |x| act::log_softmax(x, 1);
    log_softmax_dim0: uniform(-2.0, 2.0) => |x| act::log_softmax(x, 0);
    softmin: uniform(-2.0, 2.0) => |x| act::softmin(x, 1);
    quiet_softmax: uniform(-2.0, 2.0) => |x| act::quiet_softmax(x, 1);
    quiet_softmax_large: uniform(3.0, 6.0) => |x| act::quiet_softmax(x, -1);
    celu: signed(0.2, 2.0) => |x| act::celu(x, 0.8);
    selu: signed(0.2, 2.0) => |x| act::selu(x);
    tanhshrink: uniform(-2.0, 2.0) => |x| act::tanhshrink(x);
    softsign: signed(0.2, 3.0) => |x| act::softsign(x);
    // off_integer keeps 0.1 away from the multiples of 0.5: the kinks at ±0.5 and ±1.
    hardtanh: off_integer() => |x| act::hardtanh(x, -1.0, 1.0);
    threshold: off_integer() => |x| act::threshold(x, 0.5, -1.0);
    thresholded_relu: off_integer() => |x| act::thresholded_relu(x, 1.0);
    hard_shrink: off_integer() => |x| act::hard_shrink(x, 0.5);
    soft_shrink: off_integer() => |x| act::soft_shrink(x, 0.5);
    shrink: off_integer() => |x| act::shrink(x, 1.0, 0.25);
    softplus_threshold: off_integer() => |x| act::softplus_with_threshold(x, 2.0, 1.0);
}

/// The number of elements of `shape`.
fn len<const D: usize>(shape: [usize; D]) -> usize {
    shape.iter().product()
}

/// One test per convolution of `unit` inputs: `name: op([x shape], [weight shape], options)`,
/// then `, bias n` for a tracked bias of length `n`.
macro_rules! conv_cases {
    ($(
        $name:ident: $op:ident($x:expr, $w:expr, $options:expr $(,)?) $(, bias $bias:literal)?;
    )*) => {
        grad_cases! {$(
            $name: [unit(len($x)), unit(len($w)) $(, unit($bias))?] => |t| {
                module::$op(shaped(&t[0], $x), shaped(&t[1], $w), t.get(2).cloned(), $options)
            };
        )*}
    };
}

/// One test per interpolation of a `unit` input:
/// `name: Mode(align_corners) [input shape] => [output size]`.
macro_rules! interpolate_cases {
    ($($name:ident: $mode:ident($align:literal) $shape:expr => $size:expr;)*) => {
        grad_cases! {$(
            $name: [unit(len($shape))] => |t| {
                let options =
                    InterpolateOptions::new(InterpolateMode::$mode).with_align_corners($align);
                module::interpolate(shaped(&t[0], $shape), options.with_output_size($size))
            };
        )*}
    };
}

/// Attention of `query` `[1, 2, 3, 4]` over keys `[1, 2, 4, 4]` and values `[1, 2, 4, 3]`
/// from the flat inputs `kv[0]` and `kv[1]`.
fn attend(
    query: Tensor<4>,
    kv: &[Tensor<1>],
    mask: Option<Tensor<4, Bool>>,
    options: AttentionModuleOptions,
) -> Tensor<4> {
    let (keys, values) = (shaped(&kv[0], [1, 2, 4, 4]), shaped(&kv[1], [1, 2, 4, 3]));
    module::attention(query, keys, values, mask, None, options)
}

/// `attend` with the query `t[0]` `[1, 2, 3, 4]` and keys and values `t[1..]`, masked by
/// `mask`: one `[1, 1, 3, 4]` mask for both heads (`true` hides a key from a query).
fn attend_masked(t: &[Tensor<1>], mask: &[bool]) -> Tensor<4> {
    let q = shaped(&t[0], [1, 2, 3, 4]);
    let mask = bools(mask, [1, 1, 3, 4], &q);
    attend(q, &t[1..], Some(mask), AttentionModuleOptions::default())
}

conv_cases! {
    conv1d: conv1d([2, 2, 5], [3, 2, 3], ConvOptions::new([1], [1], [1], 1)), bias 3;
    conv1d_strided_dilated_grouped:
        conv1d([1, 4, 6], [4, 2, 2], ConvOptions::new([2], [1], [2], 2)), bias 4;
    conv1d_no_bias: conv1d([2, 2, 5], [2, 2, 3], ConvOptions::new([2], [0], [1], 1));
    conv2d: conv2d([1, 2, 4, 4], [2, 2, 2, 2], ConvOptions::new([1, 1], [1, 0], [1, 1], 1)), bias 2;
    conv2d_strided_dilated_grouped:
        conv2d([1, 2, 5, 4], [2, 1, 2, 2], ConvOptions::new([2, 1], [1, 1], [1, 2], 2)), bias 2;
    conv2d_grouped_two_outputs_per_group:
        conv2d([1, 2, 4, 4], [4, 1, 2, 2], ConvOptions::new([1, 2], [1, 1], [2, 1], 2)), bias 4;
    conv2d_no_bias_batch:
        conv2d([2, 2, 3, 3], [3, 2, 1, 2], ConvOptions::new([1, 2], [0, 1], [1, 1], 1));
    conv_transpose1d: conv_transpose1d(
        [1, 2, 4],
        [2, 3, 3],
        ConvTransposeOptions::new([2], [1], [1], [1], 1),
    ), bias 3;
    conv_transpose1d_dilated_grouped:
        conv_transpose1d([2, 4, 3], [4, 1, 2], ConvTransposeOptions::new([1], [0], [0], [2], 2));
    conv_transpose1d_all_options: conv_transpose1d(
        [1, 4, 3],
        [4, 1, 3],
        ConvTransposeOptions::new([2], [1], [1], [2], 2),
    ), bias 2;
    conv_transpose2d: conv_transpose2d(
        [1, 2, 3, 3],
        [2, 2, 2, 2],
        ConvTransposeOptions::new([2, 1], [1, 0], [1, 0], [1, 2], 1),
    ), bias 2;
    conv_transpose2d_grouped: conv_transpose2d(
        [1, 4, 2, 2],
        [4, 2, 2, 1],
        ConvTransposeOptions::new([1, 2], [0, 0], [0, 1], [1, 1], 2),
    ), bias 4;
}

interpolate_cases! {
    interpolate_nearest: Nearest(false) [1, 2, 3, 4] => [5, 6];
    interpolate_nearest_downsample: Nearest(false) [1, 2, 5, 4] => [3, 3];
    interpolate_bilinear: Bilinear(true) [1, 2, 3, 4] => [5, 6];
    interpolate_bilinear_unaligned: Bilinear(false) [1, 2, 3, 4] => [5, 3];
    interpolate_bicubic: Bicubic(true) [1, 2, 3, 4] => [5, 6];
    interpolate_bicubic_unaligned: Bicubic(false) [1, 2, 3, 4] => [4, 7];
    interpolate_bilinear_downsample: Bilinear(false) [1, 2, 5, 4] => [3, 3];
    interpolate_bicubic_downsample: Bicubic(true) [1, 2, 5, 4] => [3, 2];
}

grad_cases! {
    glu: [uniform(12, -2.0, 2.0)] => |t| act::glu(shaped(&t[0], [3, 4]), 1);
    // prelu: the input away from 0, and the per-channel slopes tracked too.
    prelu: [signed(12, 0.2, 2.0), uniform(3, 0.05, 0.5)]
        => |t| act::prelu(shaped(&t[0], [2, 3, 2]), t[1].clone());
    prelu_single_slope: [signed(6, 0.2, 2.0), uniform(1, 0.05, 0.5)]
        => |t| act::prelu(shaped(&t[0], [2, 3]), t[1].clone());

    // Far tails, where naive formulas overflow or cancel.
    sigmoid_tails: [values(&[-30.0, -12.0, 12.0, 30.0, -0.5, 0.7])]
        => |t| act::sigmoid(shaped(&t[0], [2, 3]));
    log_sigmoid_tails: [values(&[-40.0, -15.0, 15.0, 40.0, -0.5, 0.7])]
        => |t| act::log_sigmoid(shaped(&t[0], [2, 3]));
    softplus_tails: [values(&[-40.0, -15.0, 15.0, 40.0, -0.5, 0.7])]
        => |t| act::softplus(shaped(&t[0], [2, 3]), 1.0);
    mish_tails: [values(&[-30.0, -10.0, 10.0, 30.0, -0.5, 0.7])]
        => |t| act::mish(shaped(&t[0], [2, 3]));
    gelu_tails: [values(&[-8.0, -5.0, 5.0, 8.0, -0.5, 0.7])]
        => |t| act::gelu(shaped(&t[0], [2, 3]));
    elu_tails: [values(&[-30.0, -10.0, 10.0, 30.0, -0.5, 0.7])]
        => |t| act::elu(shaped(&t[0], [2, 3]), 1.0);
    softmax_large_logits: [values(&[100.0, 101.0, 99.5, -100.0, -101.0, -99.0])]
        => |t| act::softmax(shaped(&t[0], [2, 3]), 1);
    log_softmax_large_logits: [values(&[100.0, 101.0, 99.5, -100.0, -101.0, -99.0])]
        => |t| act::log_softmax(shaped(&t[0], [2, 3]), 1);
    // Over a dim of size 1 softmax is constant 1: gradient zero (the product keeps it visible).
    softmax_size_one: [unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3, 1]);
        act::softmax(x.clone(), 2) * x
    };

    // ---- convolutions (the others in `conv_cases!` above) ---------------------------------------
    conv2d_inner_device_input: [unit(16)] => |t| {
        let x = inner_constant(&[0.5, -1.0, 2.0, 1.5, -0.25, 3.0, 1.0, 0.75, -2.0], [1, 1, 3, 3]);
        let options = ConvOptions::new([1, 1], [0, 0], [1, 1], 1);
        module::conv2d(x, shaped(&t[0], [4, 1, 2, 2]), None, options)
    };

    conv2d_asymmetric_padding: [unit(32), unit(16), unit(2)] => |t| {
        let options = ConvOptions::new_with_padding([1, 2], [(0, 1), (2, 1)], [1, 1], 1);
        module::conv2d(shaped(&t[0], [1, 2, 4, 4]), shaped(&t[1], [2, 2, 2, 2]), Some(t[2].clone()), options)
    };
    conv1d_asymmetric_padding: [unit(10), unit(12)] => |t| {
        let options = ConvOptions::new_with_padding([1], [(2, 0)], [1], 1);
        module::conv1d(shaped(&t[0], [1, 2, 5]), shaped(&t[1], [2, 2, 3]), None, options)
    };
    unfold4d: [unit(40)] => |t| {
        let options = UnfoldOptions::new([2, 1], [1, 0], [1, 2]);
        module::unfold4d(shaped(&t[0], [1, 2, 5, 4]), [2, 2], options).exp()
    };
    fold4d: [unit(48)] => |t| {
        // Columns of 2 channels × 2·2 taps over 3·2 blocks fold back into a [5, 4] plane.
        let options = UnfoldOptions::new([2, 1], [1, 0], [1, 2]);
        module::fold4d(shaped(&t[0], [1, 8, 6]), [5, 4], [2, 2], options).exp()
    };

    conv3d_asymmetric_grouped: [unit(96), unit(32), unit(4)] => |t| {
        let options = ConvOptions::new_with_padding([2, 1, 1], [(1, 0), (0, 1), (1, 1)], [1, 1, 2], 2);
        let (x, w) = (shaped(&t[0], [1, 2, 4, 3, 4]), shaped(&t[1], [4, 1, 2, 2, 2]));
        module::conv3d(x, w, Some(t[2].clone()), options)
    };
    conv_transpose3d: [unit(36), unit(24), unit(3)] => |t| {
        let options = ConvTransposeOptions::new([2, 1, 2], [1, 0, 1], [1, 0, 0], [1, 1, 1], 1);
        let (x, w) = (shaped(&t[0], [1, 2, 3, 2, 3]), shaped(&t[1], [2, 3, 2, 2, 1]));
        module::conv_transpose3d(x, w, Some(t[2].clone()), options)
    };

    deform_conv2d: [unit(32), uniform(120, -0.8, 0.8), unit(24), uniform(60, 0.2, 1.0), unit(3)] => |t| {
        // x [1, 2, 4, 4], a 2×2 kernel padded by one column: offsets [1, 8, 3, 5], mask [1, 4, 3, 5].
        let options = burn::tensor::ops::DeformConvOptions::new([1, 1], [0, 1], [1, 1], 1, 1);
        module::deform_conv2d(
            shaped(&t[0], [1, 2, 4, 4]),
            shaped(&t[1], [1, 8, 3, 5]),
            shaped(&t[2], [3, 2, 2, 2]),
            Some(shaped(&t[3], [1, 4, 3, 5])),
            Some(t[4].clone()),
            options,
        )
    };

    // ---- pooling --------------------------------------------------------------------------------
    avg_pool1d: [unit(14)]
        => |t| module::avg_pool1d(shaped(&t[0], [1, 2, 7]), avg([3], [2], [(1, 1)], true, false));
    avg_pool1d_exclude_pad_ceil: [unit(14)]
        => |t| module::avg_pool1d(shaped(&t[0], [1, 2, 7]), avg([3], [2], [(1, 1)], false, true));
    avg_pool2d: [unit(40)]
        => |t| module::avg_pool2d(shaped(&t[0], [1, 2, 5, 4]), avg([2, 3], [2, 1], [(1, 1); 2], true, false));
    avg_pool2d_exclude_pad_ceil: [unit(40)]
        => |t| module::avg_pool2d(shaped(&t[0], [1, 2, 5, 4]), avg([2, 2], [2, 2], [(1, 1), (0, 0)], false, true));
    max_pool1d: [distinct(14, -2.0, 2.0)]
        => |t| module::max_pool1d(shaped(&t[0], [1, 2, 7]), max([3], [2], [(1, 1)], [1], false));
    max_pool1d_dilated_ceil: [distinct(14, -2.0, 2.0)]
        => |t| module::max_pool1d(shaped(&t[0], [2, 1, 7]), max([2], [2], [(0, 0)], [2], true));
    max_pool2d: [distinct(40, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [1, 2, 5, 4]);
        module::max_pool2d(x, max([2, 2], [2, 1], [(1, 1), (0, 0)], [1, 1], false))
    };
    max_pool2d_dilated_ceil: [distinct(40, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [2, 1, 5, 4]);
        module::max_pool2d(x, max([2, 2], [2, 1], [(0, 0), (1, 1)], [1, 2], true))
    };
    max_pool2d_with_indices: [distinct(32, -2.0, 2.0)] => |t| {
        let options = max([3, 3], [1, 1], [(1, 1); 2], [1, 1], false);
        let (pooled, indices) = module::max_pool2d_with_indices(shaped(&t[0], [1, 2, 4, 4]), options);
        pooled * indices.float().add_scalar(1.0)
    };
    // Padding that differs between the ends (materialized by the tensor API).
    max_pool1d_asymmetric_ceil: [distinct(14, -2.0, 2.0)]
        => |t| module::max_pool1d(shaped(&t[0], [1, 2, 7]), max([2], [2], [(0, 1)], [1], true));
    max_pool2d_with_indices_asymmetric: [distinct(40, -2.0, 2.0)] => |t| {
        let options = max([2, 3], [2, 2], [(1, 0), (0, 2)], [1, 1], true);
        let (pooled, indices) = module::max_pool2d_with_indices(shaped(&t[0], [1, 2, 5, 4]), options);
        pooled * indices.float().add_scalar(1.0)
    };
    avg_pool2d_asymmetric_exclude_pad: [unit(40)]
        => |t| module::avg_pool2d(shaped(&t[0], [1, 2, 5, 4]), avg([3, 2], [2, 1], [(2, 0), (0, 1)], false, true));
    avg_pool1d_asymmetric: [unit(14)]
        => |t| module::avg_pool1d(shaped(&t[0], [1, 2, 7]), avg([2], [1], [(1, 0)], true, false));
    max_pool3d_ceil: [distinct(60, -2.0, 2.0)]
        => |t| module::max_pool3d(shaped(&t[0], [1, 1, 3, 4, 5]), max([2, 2, 3], [2, 1, 2], [(1, 0), (0, 1), (1, 1)], [1, 1, 1], true));
    max_pool3d_with_indices: [distinct(60, -2.0, 2.0)] => |t| {
        let options = max([2, 3, 2], [1, 1, 2], [(0, 0), (1, 1), (0, 1)], [1, 1, 1], false);
        let (pooled, indices) = module::max_pool3d_with_indices(shaped(&t[0], [1, 1, 3, 4, 5]), options);
        pooled * indices.float().add_scalar(1.0)
    };
    avg_pool3d_exclude_pad: [unit(60)]
        => |t| module::avg_pool3d(shaped(&t[0], [1, 1, 3, 4, 5]), avg([2, 3, 2], [1, 2, 2], [(1, 0), (1, 1), (0, 1)], false, true));
    adaptive_avg_pool3d: [unit(60)]
        => |t| module::adaptive_avg_pool3d(shaped(&t[0], [1, 1, 3, 4, 5]), [2, 3, 2]);
    adaptive_avg_pool1d: [unit(14)]
        => |t| module::adaptive_avg_pool1d(shaped(&t[0], [1, 2, 7]), 3);
    adaptive_avg_pool1d_upsample: [unit(6)]
        => |t| module::adaptive_avg_pool1d(shaped(&t[0], [2, 1, 3]), 5);
    adaptive_avg_pool2d_mixed: [unit(24)]
        => |t| module::adaptive_avg_pool2d(shaped(&t[0], [1, 2, 3, 4]), [5, 3]);
    adaptive_avg_pool2d: [unit(40)]
        => |t| module::adaptive_avg_pool2d(shaped(&t[0], [1, 2, 5, 4]), [3, 3]);

    // ---- embedding, linear, attention -----------------------------------------------------------
    embedding: [unit(15)] => |t| {
        let weights = shaped(&t[0], [5, 3]);
        let indices = ints(&[4, 0, 4, 2, 2, 1], [2, 3], &weights);
        module::embedding(weights, indices).exp()
    };
    linear: [unit(6), unit(12), unit(4)] => |t| {
        module::linear(shaped(&t[0], [2, 3]), shaped(&t[1], [3, 4]), Some(t[2].clone())).exp()
    };
    linear_vector: [unit(3), unit(12), unit(4)] => |t| {
        module::linear(t[0].clone(), shaped(&t[1], [3, 4]), Some(t[2].clone())).exp()
    };
    linear_batched_no_bias: [unit(12), unit(6)] => |t| {
        module::linear(shaped(&t[0], [2, 2, 3]), shaped(&t[1], [3, 2]), None).exp()
    };
    attention: [unit(24), unit(32), unit(24)] => |t| {
        attend(shaped(&t[0], [1, 2, 3, 4]), &t[1..], None, AttentionModuleOptions::default())
    };
    attention_inner_device_query: [unit(32), unit(24)] => |t| {
        let q: Vec<f64> = (0..24).map(|i| ((i * 7) % 11) as f64 / 11.0 - 0.5).collect();
        let q = inner_constant(&q, [1, 2, 3, 4]);
        attend(q, t, None, AttentionModuleOptions::default())
    };
    // A key hidden from each query.
    attention_masked: [unit(24), unit(32), unit(24)] => |t| attend_masked(
        t,
        &[false, true, false, false, true, false, false, true, false, false, true, false],
    );
    // The second query sees no key: its output is zero, and so are its gradients.
    attention_fully_masked_row: [unit(24), unit(32), unit(24)] => |t| attend_masked(
        t,
        &[false, false, true, false, true, true, true, true, false, true, false, false],
    );
    attention_causal_scaled_softcap: [unit(24), unit(32), unit(24)] => |t| {
        let options = AttentionModuleOptions {
            scale: Some(0.8),
            softcap: Some(2.0),
            is_causal: true,
            ..Default::default()
        };
        attend(shaped(&t[0], [1, 2, 3, 4]), &t[1..], None, options)
    };

    attention_bias_grouped_heads_top_left: [unit(24), unit(16), unit(12), unit(24)] => |t| {
        // 2 query heads over 1 key/value head, 3 queries over 4 keys, a per-head bias.
        let options = AttentionModuleOptions {
            is_causal: true,
            causal_alignment: CausalAlignment::TopLeft,
            ..Default::default()
        };
        let (q, k, v) = (
            shaped(&t[0], [1, 2, 3, 4]),
            shaped(&t[1], [1, 1, 4, 4]),
            shaped(&t[2], [1, 1, 4, 3]),
        );
        module::attention(q, k, v, None, Some(shaped(&t[3], [1, 2, 3, 4])), options)
    };

    grid_sample_2d_bilinear: [unit(40), uniform(24, -1.2, 1.2)] => |t| {
        let options = GridSampleOptions::new(InterpolateMode::Bilinear)
            .with_padding_mode(GridSamplePaddingMode::Reflection);
        shaped(&t[0], [1, 2, 5, 4]).grid_sample_2d(shaped(&t[1], [1, 3, 4, 2]), options)
    };
    grid_sample_2d_zeros_aligned: [unit(40), uniform(24, -1.2, 1.2)] => |t| {
        let options = GridSampleOptions::new(InterpolateMode::Bilinear).with_align_corners(true);
        shaped(&t[0], [1, 2, 5, 4]).grid_sample_2d(shaped(&t[1], [1, 3, 4, 2]), options)
    };

    ctc_loss: [uniform(30, -2.0, 0.0)] => |t| {
        // Two sequences of 5 steps over 3 classes: targets [1, 1] and [2] (padded), lengths 5, 4.
        let log_probs = shaped(&t[0], [5, 2, 3]);
        let targets = ints(&[1, 1, 2, 0], [2, 2], &log_probs);
        let input_lengths = ints(&[5, 4], [2], &log_probs);
        let target_lengths = ints(&[2, 1], [2], &log_probs);
        module::ctc_loss(log_probs, targets, input_lengths, target_lengths, 0)
    };

    // ---- normalization ------------------------------------------------------------------------
    layer_norm: [unit(24), unit(6), unit(6)] => |t| {
        module::layer_norm(shaped(&t[0], [4, 6]), t[1].clone(), Some(t[2].clone()), 1e-5).exp()
    };
    layer_norm_rank_3_no_shift: [unit(30), unit(5)] => |t| {
        module::layer_norm(shaped(&t[0], [2, 3, 5]), t[1].clone(), None, 1e-5).exp()
    };
    batch_norm: [unit(24), unit(3), unit(3)] => |t| {
        module::batch_norm_train(shaped(&t[0], [2, 3, 4]), t[1].clone(), t[2].clone(), 1e-5).output.exp()
    };
    batch_norm_rank_2: [unit(12), unit(3), unit(3)] => |t| {
        module::batch_norm_train(shaped(&t[0], [4, 3]), t[1].clone(), t[2].clone(), 1e-5).output.exp()
    };
    batch_norm_given_statistics: [unit(24), unit(3), unit(3), unit(3), uniform(3, 0.5, 2.0)] => |t| {
        let x = shaped(&t[0], [2, 3, 4]);
        module::batch_norm(x, t[1].clone(), t[2].clone(), t[3].clone(), t[4].clone(), 1e-3).exp()
    };
    group_norm: [unit(48), unit(6), unit(6)] => |t| {
        module::group_norm(shaped(&t[0], [2, 6, 4]), t[1].clone(), t[2].clone(), 3, 1e-5).exp()
    };
    group_norm_rank_4_one_group: [unit(36), unit(3), unit(3)] => |t| {
        module::group_norm(shaped(&t[0], [2, 3, 2, 3]), t[1].clone(), t[2].clone(), 1, 1e-5).exp()
    };

    // ---- losses ---------------------------------------------------------------------------------
    cross_entropy_large_logits: [
        values(&[60.0, 58.0, -40.0, 61.5, -70.0, 0.5]),
        uniform(6, 0.0, 1.0),
    ]
        => |t| loss::cross_entropy_with_logits(shaped(&t[0], [2, 3]), shaped(&t[1], [2, 3]));
    binary_cross_entropy_large_logits: [
        values(&[60.0, -58.0, -40.0, 41.5, -70.0, 0.5]),
        uniform(6, 0.0, 1.0),
    ] => |t| {
        loss::binary_cross_entropy_with_logits(shaped(&t[0], [2, 3]), shaped(&t[1], [2, 3]))
    };
    cross_entropy_with_logits: [uniform(12, -2.0, 2.0), uniform(12, 0.0, 1.0)]
        => |t| loss::cross_entropy_with_logits(shaped(&t[0], [3, 4]), shaped(&t[1], [3, 4]));
    mse_loss: [uniform(12, -2.0, 2.0), uniform(12, -2.0, 2.0)]
        => |t| loss::mse_loss(shaped(&t[0], [3, 4]), shaped(&t[1], [3, 4]));
    // Prediction and target from one set of distinct values: |prediction - target| >= 0.16
    // (|·| has a kink at 0).
    l1_loss: [distinct(24, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [2, 3, 4]);
        loss::l1_loss(x.clone().narrow(0, 0, 1), x.narrow(0, 1, 1))
    };
    binary_cross_entropy_with_logits: [signed(12, 0.2, 3.0), uniform(12, 0.0, 1.0)] => |t| {
        loss::binary_cross_entropy_with_logits(shaped(&t[0], [3, 4]), shaped(&t[1], [3, 4]))
    };
}
