//! Dims counted from the end, written the way a Burn 0.23 user writes them: every method that
//! takes a dim accepts any integer, `-1` naming the last dim.

use burn::prelude::*;
use burn::tensor::activation::{log_softmax, softmax};

fn x() -> Tensor<2> {
    Tensor::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &Device::default())
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

#[test]
fn reductions_and_scans_take_negative_dims() {
    assert_eq!(values(x().sum_dim(-1)), [6.0, 15.0]);
    assert_eq!(values(x().sum_dim(-2)), [5.0, 7.0, 9.0]);
    assert_eq!(x().sum_dim(-1).dims(), [2, 1]);
    assert_eq!(values(x().mean_dims(&[-1, -2])), [3.5]);
    assert_eq!(values(x().max_dim(-1)), [3.0, 6.0]);
    assert_eq!(values(x().cumsum(-1)), [1.0, 3.0, 6.0, 4.0, 9.0, 15.0]);
    let argmax = x().argmax(-1).into_data().to_vec::<i64>().unwrap();
    assert_eq!(argmax, [2, 2]);
    assert_eq!(
        values(x().sort_descending(-1)),
        [3.0, 2.0, 1.0, 6.0, 5.0, 4.0]
    );
    assert_eq!(values(x().topk(1, -1)), [3.0, 6.0]);
    // The same dim named both ways gives the same result.
    assert_eq!(values(x().var(-1)), values(x().var(1)));
}

#[test]
fn layout_methods_take_negative_dims() {
    assert_eq!(Tensor::cat(vec![x(), x()], -1).dims(), [2, 6]);
    assert_eq!(Tensor::stack::<3>(vec![x(), x()], -1).dims(), [2, 3, 2]);
    assert_eq!(x().unsqueeze_dim::<3>(-1).dims(), [2, 3, 1]);
    assert_eq!(
        x().unsqueeze_dim::<3>(-1).squeeze_dim::<2>(-1).dims(),
        [2, 3]
    );
    assert_eq!(values(x().swap_dims(-1, 0)), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    assert_eq!(values(x().permute([-1, 0])), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    assert_eq!(values(x().flip([-1])), [3.0, 2.0, 1.0, 6.0, 5.0, 4.0]);
    assert_eq!(values(x().narrow(-1, 1, 2)), [2.0, 3.0, 5.0, 6.0]);
    assert_eq!(values(x().roll_dim(1, -1)), [3.0, 1.0, 2.0, 6.0, 4.0, 5.0]);
    assert_eq!(values(x().roll_dim(-1, 1)), [2.0, 3.0, 1.0, 5.0, 6.0, 4.0]);
    assert_eq!(x().chunk(3, -1).len(), 3);
    assert_eq!(x().flatten::<1>(0, -1).dims(), [6]);
    assert_eq!(x().iter_dim(-2).count(), 2);
}

#[test]
fn activations_take_negative_dims() {
    assert_eq!(values(softmax(x(), -1)), values(softmax(x(), 1)));
    assert_eq!(values(log_softmax(x(), -2)), values(log_softmax(x(), 0)));
}

#[test]
#[should_panic(expected = "Tensor::sum_dim: dim -3 is out of range for a tensor of rank 2")]
fn a_dim_out_of_range_names_the_operation() {
    let _ = x().sum_dim(-3);
}
