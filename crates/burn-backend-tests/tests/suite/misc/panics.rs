//! Misuse of the public API panics with a message naming the operation and the problem
//! (DESIGN decision 8): shape mismatches, rank mismatches, dims out of range, bad indices,
//! invalid reshapes, mixed dtypes.

use burn::tensor::module::{conv2d, linear};
use burn::tensor::ops::{ConvOptions, IndexingUpdateOp};
use burn::tensor::{DType, Int, IntDType, Tensor, TensorData, s};

fn device() -> burn::tensor::Device {
    crate::device()
}

fn ones<const D: usize>(shape: [usize; D]) -> Tensor<D> {
    Tensor::ones(shape, &device())
}

fn ints<const D: usize>(shape: [usize; D]) -> Tensor<D, Int> {
    Tensor::ones(shape, &device())
}

#[test]
#[should_panic(expected = "Tensor::add: shapes [2, 3] and [3, 2] cannot be broadcast")]
fn add_with_mismatched_shapes() {
    let _ = ones([2, 3]) + ones([3, 2]);
}

#[test]
#[should_panic(expected = "Tensor::greater: shapes")]
fn comparison_with_mismatched_shapes() {
    let _ = ones([2, 3]).greater(ones([2, 4]));
}

#[test]
#[should_panic(expected = "Tensor::matmul: inner sizes differ")]
fn matmul_with_mismatched_inner_sizes() {
    let _ = ones([2, 3]).matmul(ones([4, 2]));
}

#[test]
#[should_panic(expected = "Tensor::matmul: shapes [2] and [3] cannot be broadcast")]
fn matmul_with_mismatched_batches() {
    let _ = ones([2, 3, 4]).matmul(ones([3, 4, 5]));
}

#[test]
#[should_panic(expected = "Tensor::cat: tensor 1 has shape [2, 4], expected [2, 3] outside dim 0")]
fn cat_with_mismatched_shapes() {
    let _ = Tensor::cat(vec![ones([2, 3]), ones([2, 4])], 0);
}

#[test]
#[should_panic(expected = "Tensor::cat: expected at least one tensor")]
fn cat_of_nothing() {
    let _ = Tensor::<2>::cat(vec![], 0);
}

#[test]
#[should_panic(expected = "Tensor::stack: tensor 1 has shape")]
fn stack_with_mismatched_shapes() {
    let _: Tensor<3> = Tensor::stack(vec![ones([2, 3]), ones([3, 2])], 0);
}

#[test]
#[should_panic(expected = "Tensor::from_data: expected data of rank 2, got shape [3] of rank 1")]
fn from_data_of_the_wrong_rank() {
    let _ = Tensor::<2>::from_data([1.0, 2.0, 3.0], &device());
}

#[test]
#[should_panic(expected = "Tensor::from_data: dtype i64 is not of kind Float")]
fn float_from_data_with_an_int_dtype() {
    let _ = Tensor::<1>::from_data([1.0, 2.0], (&device(), DType::I64));
}

#[test]
#[should_panic(expected = "Tensor::zeros: dtype f32 is not of kind Int")]
fn int_zeros_with_a_float_dtype() {
    // Creating an int tensor with a float dtype is refused (the message names the dtype).
    let _ = Tensor::<1, Int>::zeros([2], (&device(), DType::F32));
}

#[test]
#[should_panic(expected = "Tensor::sum_dim: dim 2 is out of range for a tensor of rank 2")]
fn sum_dim_out_of_range() {
    let _ = ones([2, 3]).sum_dim(2);
}

#[test]
#[should_panic(expected = "Tensor::swap_dims: dim 3 is out of range")]
fn swap_dims_out_of_range() {
    let _ = ones([2, 3, 4]).swap_dims(0, 3);
}

#[test]
#[should_panic(expected = "Tensor::permute: axes [0, 0] repeat dim 0")]
fn permute_with_repeated_axes() {
    let _ = ones([2, 3]).permute([0, 0]);
}

#[test]
#[should_panic(expected = "Tensor::argmax: dim 5 is out of range")]
fn argmax_out_of_range() {
    let _ = ones([2, 3]).argmax(5);
}

#[test]
#[should_panic(
    expected = "Tensor::reshape: shape [4, 4] has 16 elements, the tensor of shape [2, 3] has 6"
)]
fn reshape_to_another_count() {
    let _ = ones([2, 3]).reshape([4, 4]);
}

#[test]
#[should_panic(expected = "Tensor::reshape: more than one -1")]
fn reshape_with_two_inferred_sizes() {
    let _ = ones([2, 3]).reshape([-1, -1]);
}

#[test]
#[should_panic(expected = "Tensor::reshape: cannot infer -1")]
fn reshape_that_cannot_infer() {
    let _ = ones([2, 3]).reshape([-1, 4]);
}

#[test]
#[should_panic(expected = "Tensor::squeeze_dim: dim 0 has size 2, expected 1")]
fn squeeze_of_a_dim_larger_than_one() {
    let _: Tensor<1> = ones([2, 3]).squeeze_dim(0);
}

#[test]
#[should_panic(expected = "Tensor::expand: cannot expand shape [2, 3] to [4, 3]")]
fn expand_of_a_dim_larger_than_one() {
    let _: Tensor<2> = ones([2, 3]).expand([4, 3]);
}

#[test]
#[should_panic(expected = "index 3 is out of bounds for dim 0 of size 3")]
fn slice_index_out_of_bounds() {
    let _ = ones([3, 2]).slice(s![3]);
}

#[test]
fn slice_range_past_the_end_is_clamped() {
    // As Python's and Burn's slicing: a range past the dim stops at its end.
    assert_eq!(ones([3, 2]).slice(s![.., 0..5]).dims(), [3, 2]);
    assert_eq!(ones([3, 2]).slice(s![-7..2]).dims(), [2, 2]);
}

#[test]
#[should_panic(expected = "3 slices given for a tensor of rank 2")]
fn slice_with_too_many_ranges() {
    let _ = ones([3, 2]).slice(s![.., .., ..]);
}

#[test]
#[should_panic(expected = "Tensor::slice_assign: expected equal shapes")]
fn slice_assign_with_the_wrong_shape() {
    let _ = ones([3, 2]).slice_assign(s![0..2, ..], ones([3, 2]));
}

#[test]
#[should_panic(expected = "Tensor::narrow: range 2..5 exceeds dim 1 of size 4")]
fn narrow_past_the_end() {
    let _ = ones([3, 4]).narrow(1, 2, 3);
}

#[test]
#[should_panic(expected = "select")]
fn select_with_an_index_out_of_range() {
    let idx = Tensor::<1, Int>::from_ints([0, 7], &device());
    let _ = ones([3, 2]).select(0, idx).into_data();
}

#[test]
#[should_panic(expected = "gather")]
fn gather_with_an_index_out_of_range() {
    let idx = Tensor::<2, Int>::from_ints([[0, 9]], &device());
    let _ = ones([1, 3]).gather(1, idx).into_data();
}

#[test]
#[should_panic(expected = "scatter")]
fn scatter_with_an_index_out_of_range() {
    let idx = Tensor::<1, Int>::from_ints([4], &device());
    let _ = ones([3])
        .scatter(0, idx, ones([1]), IndexingUpdateOp::Add)
        .into_data();
}

#[test]
#[should_panic(
    expected = "Tensor::gather: indices shape [3, 2] exceeds tensor shape [2, 2] at dim 0"
)]
fn gather_with_a_larger_index_shape() {
    let _ = ones([2, 2]).gather(1, ints([3, 2]));
}

#[test]
#[should_panic(expected = "Tensor::scatter: expected equal shapes")]
fn scatter_with_mismatched_values() {
    let _ = ones([3, 2]).scatter(0, ints([2, 2]), ones([1, 2]), IndexingUpdateOp::Assign);
}

#[test]
#[should_panic(expected = "Tensor::select_add: values have shape [3, 2], expected [2, 2]")]
fn select_add_with_mismatched_values() {
    let idx = Tensor::<1, Int>::from_ints([0, 1], &device());
    let _ = ones([3, 2]).select_add(0, idx, ones([3, 2]));
}

#[test]
#[should_panic(expected = "Tensor::mask_where: shapes")]
fn mask_where_with_mismatched_mask() {
    let mask = ones([2, 3]).greater_elem(0.0);
    let _ = ones([3, 2]).mask_where(mask, ones([3, 2]));
}

#[test]
#[should_panic(
    expected = "Tensor::add: expected operands of one dtype, got i64 and i32; use `cast` first"
)]
fn int_add_with_mixed_dtypes() {
    let a = Tensor::<1, Int>::from_data(TensorData::from([1i64]), (&device(), IntDType::I64));
    let b = Tensor::<1, Int>::from_data(TensorData::from([1i32]), (&device(), IntDType::I32));
    let _ = a + b;
}

#[test]
#[should_panic(expected = "Tensor::cat: expected operands of one dtype")]
fn cat_with_mixed_float_dtypes() {
    let device = device();
    let dtype = device.settings().float_dtype;
    let other = burn_backend_tests::other_float_dtype(&device, dtype);
    let a = Tensor::<1>::ones([2], (&device, other));
    let b = Tensor::<1>::ones([2], (&device, dtype));
    let _ = Tensor::cat(vec![a, b], 0);
}

#[test]
#[should_panic(
    expected = "Tensor::into_scalar: expected a tensor of one element, got shape [2, 2]"
)]
fn into_scalar_of_many_elements() {
    let _ = ones([2, 2]).into_scalar::<f32>();
}

#[test]
#[should_panic(expected = "Tensor::topk: k = 4 exceeds the size 3 of dim 1")]
fn topk_larger_than_the_dim() {
    let _ = ones([2, 3]).topk(4, 1);
}

#[test]
#[should_panic(expected = "Tensor::clamp: min 2 is greater than max 1")]
fn clamp_with_min_above_max() {
    let _ = ones([2]).clamp(2.0, 1.0);
}

#[test]
#[should_panic(expected = "Tensor::max: cannot reduce zero elements (shape [0, 3])")]
fn max_of_an_empty_tensor() {
    let _ = Tensor::<2>::zeros([0, 3], &device()).max();
}

#[test]
#[should_panic(expected = "Tensor::argmax: cannot reduce zero elements (shape [2, 0])")]
fn argmax_along_an_empty_dim() {
    let _ = Tensor::<2>::zeros([2, 0], &device()).argmax(1);
}

#[test]
#[should_panic(expected = "Tensor::expand: invalid size -2 in [-2, 3]")]
fn expand_to_a_negative_size() {
    let _ = Tensor::<2>::zeros([1, 3], &device()).expand([-2, 3]);
}

#[test]
#[should_panic(expected = "Tensor::one_hot: values must lie in 0..3, got 3")]
fn one_hot_out_of_range() {
    let _: Tensor<2, Int> = Tensor::<1, Int>::from_ints([0, 3], &device()).one_hot(3);
}

#[test]
#[allow(clippy::reversed_empty_ranges)] // the reversed range is the point
#[should_panic(expected = "Tensor::arange: empty or reversed range")]
fn arange_reversed() {
    let _ = Tensor::<1, Int>::arange(5..2, &device());
}

#[test]
#[should_panic(expected = "Tensor::var: dim 0 has 1 elements, need more than 1")]
fn var_of_one_element() {
    let _ = ones([1, 3]).var(0);
}

#[test]
#[should_panic(expected = "Tensor::cross: dim 1 must have size 3")]
fn cross_of_the_wrong_size() {
    let _ = ones([2, 4]).cross(ones([2, 4]), 1);
}

#[test]
#[should_panic(
    expected = "Tensor::conv2d: input [1, 3, 4, 4] and weight [2, 2, 3, 3] do not agree for groups = 1"
)]
fn conv2d_with_mismatched_channels() {
    let _ = conv2d(
        ones([1, 3, 4, 4]),
        ones([2, 2, 3, 3]),
        None,
        ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
    );
}

#[test]
#[should_panic(expected = "Tensor::linear: input [2, 5] has 5 features, weight [4, 3] expects 4")]
fn linear_with_mismatched_features() {
    let _ = linear(ones([2, 5]), ones([4, 3]), None);
}

#[test]
#[should_panic(expected = "Tensor::split_with_sizes: sizes [1, 1] add up to 2, dim 0 has 3")]
fn split_with_sizes_that_do_not_add_up() {
    let _ = ones([3, 2]).split_with_sizes(vec![1, 1], 0);
}

#[test]
#[should_panic(expected = "Tensor::glu: dim 1 has odd size 3")]
fn glu_of_an_odd_dim() {
    let _ = burn::tensor::activation::glu(ones([2, 3]), 1);
}

#[test]
#[should_panic(expected = "Tensor::softmax: dim 2 is out of range for a tensor of rank 2")]
fn softmax_dim_out_of_range() {
    let _ = burn::tensor::activation::softmax(ones([2, 3]), 2);
}

#[test]
#[should_panic(expected = "Tensor::dot: expected equal shapes")]
fn dot_of_different_lengths() {
    let _ = ones([3]).dot(ones([4]));
}
