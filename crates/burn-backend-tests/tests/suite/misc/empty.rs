//! Tensors with a zero-sized dim: creation, element-wise ops, layout ops, concatenation with
//! an empty part, reductions along other dims, and matmul with an empty inner dim (zeros).

use burn::tensor::{Int, Tensor, s};
use burn_backend_tests::{Env, RefArray};

#[test]
fn element_wise_ops_on_empty_tensors() {
    let env = Env::new(crate::device());
    let x = Tensor::<2>::zeros([0, 3], &env.device);
    let y = (x.clone() + 1.0).exp() * x.clone();
    assert_eq!(y.dims(), [0, 3]);
    assert_eq!(y.into_data().num_elements(), 0);
    let z = x.clone().greater_elem(0.0);
    assert_eq!(z.dims(), [0, 3]);
    let w = Tensor::<2, Int>::zeros([2, 0], &env.device) * 3i64;
    assert_eq!(w.dims(), [2, 0]);
}

#[test]
fn layout_ops_on_empty_tensors() {
    let env = Env::new(crate::device());
    let x = Tensor::<3>::zeros([2, 0, 4], &env.device);
    assert_eq!(x.clone().transpose().dims(), [2, 4, 0]);
    assert_eq!(
        x.clone().reshape([8, 0]).dims(),
        [8, 0],
        "reshape [8, 0] (0 keeps the size 0 of dim 1)"
    );
    assert_eq!(
        x.clone().reshape([-1, 8]).dims(),
        [0, 8],
        "reshape [-1, 8] of no elements"
    );
    assert_eq!(x.clone().permute([1, 2, 0]).dims(), [0, 4, 2]);
    assert_eq!(x.clone().flip([0]).dims(), [2, 0, 4]);
    let a = env.random(&[2, 3], -1.0, 1.0, 421);
    let empty_slice = env.float::<2>(&a).slice(s![.., 1..1]);
    assert_eq!(empty_slice.dims(), [2, 0], "slice 1..1");
    assert_eq!(empty_slice.into_data().num_elements(), 0);
}

#[test]
fn cat_with_an_empty_part() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 3], -1.0, 1.0, 422);
    let empty = Tensor::<2>::zeros([2, 0], &env.device);
    let got = Tensor::cat(vec![empty.clone(), env.float(&a), empty], 1);
    env.check("cat with empty parts", got, &a, 0.0);
}

#[test]
fn reductions_along_a_non_empty_dim() {
    // torch.zeros(0, 3).sum(1, keepdim=True) has shape [0, 1]; .sum(0, keepdim=True) = [[0, 0, 0]]
    let env = Env::new(crate::device());
    let x = Tensor::<2>::zeros([0, 3], &env.device);
    assert_eq!(x.clone().sum_dim(1).dims(), [0, 1]);
    env.check(
        "sum over an empty dim",
        x.sum_dim(0),
        &RefArray::full(&[1, 3], 0.0),
        0.0,
    );
}

#[test]
fn matmul_with_an_empty_inner_dim_is_zero() {
    // torch.zeros(2, 0) @ torch.zeros(0, 3) = zeros(2, 3)
    let env = Env::new(crate::device());
    let a = Tensor::<2>::zeros([2, 0], &env.device);
    let b = Tensor::<2>::ones([0, 3], &env.device);
    env.check(
        "matmul k = 0",
        a.matmul(b),
        &RefArray::full(&[2, 3], 0.0),
        0.0,
    );
}

#[test]
fn sums_products_and_means_of_nothing_are_their_identities() {
    // torch.zeros(0, 3).sum() == 0, .prod() == 1, .mean() is nan; sum(dim=0) is zeros(3).
    let x = Tensor::<2>::zeros([0, 3], &crate::device());
    assert_eq!(x.clone().sum().into_scalar::<f64>(), 0.0);
    assert_eq!(x.clone().prod().into_scalar::<f64>(), 1.0);
    assert!(x.clone().mean().into_scalar::<f64>().is_nan());
    let per_column = x.sum_dim(0).into_data().to_vec::<f64>().unwrap();
    assert_eq!(per_column, vec![0.0, 0.0, 0.0]);
}
