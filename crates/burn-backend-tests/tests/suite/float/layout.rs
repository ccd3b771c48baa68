//! Shape changes without arithmetic: reshape, transpose, permute, movedim, flip, flatten,
//! squeeze / unsqueeze, expand. Each runs on every input layout, and results are used
//! further (a view must behave like the tensor it stands for).

use burn::tensor::{Tensor, ZeroDimPlaceholders};
use burn_backend_tests::{Env, Layout, RefArray};

fn input(env: &Env) -> RefArray {
    env.random(&[2, 3, 4], -2.0, 2.0, 81)
}

#[test]
fn reshape_to_other_ranks() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        env.check(
            &format!("reshape [6, 4] ({layout:?})"),
            x().reshape([6, 4]),
            &a.reshape(&[6, 4]),
            0.0,
        );
        env.check(
            &format!("reshape [24] ({layout:?})"),
            x().reshape([24]),
            &a.reshape(&[24]),
            0.0,
        );
        let got: Tensor<4> = x().reshape([2, 1, 3, 4]);
        env.check(
            &format!("reshape [2, 1, 3, 4] ({layout:?})"),
            got,
            &a.reshape(&[2, 1, 3, 4]),
            0.0,
        );
    }
}

#[test]
fn a_same_shape_reshape_passes_gradients_through() {
    // reshape and unsqueeze to the tensor's own shape return it unchanged; the gradient of
    // `3·x.reshape(same)` is 3 everywhere, as through any reshape.
    let device = crate::device().autodiff();
    let env = Env::new(device.clone());
    let a = input(&env);
    let x = env.float::<3>(&a).require_grad();
    let y: Tensor<3> = x.clone().reshape([2, 3, 4]).unsqueeze();
    let grads = (y * 3.0).sum().backward();
    let grad = x.grad(&grads).expect("x is tracked through the reshape");
    env.check(
        "gradient through a same-shape reshape",
        grad,
        &RefArray::full(&[2, 3, 4], 3.0),
        0.0,
    );
}

#[test]
fn reshape_infers_minus_one_and_keeps_zero() {
    // torch.reshape(x, (-1, 4)) for x of shape [2, 3, 4] has shape [6, 4]; in
    // ZeroDimPlaceholders a 0 keeps the input's size at that position (ONNX's allowzero = 0):
    // [0, -1] gives [2, 12]. A plain 0 is a size of 0.
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        env.check(
            &format!("reshape [-1, 4] ({layout:?})"),
            x().reshape([-1, 4]),
            &a.reshape(&[6, 4]),
            0.0,
        );
        env.check(
            &format!("reshape [0, -1] ({layout:?})"),
            x().reshape(ZeroDimPlaceholders([0, -1])),
            &a.reshape(&[2, 12]),
            0.0,
        );
        let got: Tensor<3> = x().reshape(ZeroDimPlaceholders([0, 0, -1]));
        env.check(&format!("reshape [0, 0, -1] ({layout:?})"), got, &a, 0.0);
    }
}

#[test]
fn transpose_and_swap_dims() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        env.check(
            &format!("transpose ({layout:?})"),
            x().transpose(),
            &a.transpose(),
            0.0,
        );
        env.check(
            &format!("swap_dims 0 2 ({layout:?})"),
            x().swap_dims(0, 2),
            &a.swap_dims(0, 2),
            0.0,
        );
        env.check(
            &format!("swap_dims 1 1 ({layout:?})"),
            x().swap_dims(1, 1),
            &a,
            0.0,
        );
        let twice = x().transpose().transpose();
        env.check(&format!("transpose twice ({layout:?})"), twice, &a, 0.0);
    }
}

#[test]
fn transpose_of_rank_one_is_identity() {
    let env = Env::new(crate::device());
    let a = env.random(&[5], -1.0, 1.0, 82);
    env.check("transpose rank 1", env.float::<1>(&a).transpose(), &a, 0.0);
}

#[test]
fn permute_with_positive_and_negative_axes() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        env.check(
            &format!("permute [2, 0, 1] ({layout:?})"),
            x().permute([2, 0, 1]),
            &a.permute(&[2, 0, 1]),
            0.0,
        );
        env.check(
            &format!("permute [-1, -3, -2] ({layout:?})"),
            x().permute([-1, -3, -2]),
            &a.permute(&[2, 0, 1]),
            0.0,
        );
        env.check(
            &format!("permute identity ({layout:?})"),
            x().permute([0, 1, 2]),
            &a,
            0.0,
        );
    }
}

#[test]
fn movedim() {
    // torch.movedim(x, 0, 2) of shape [2, 3, 4] has shape [3, 4, 2] (= permute(1, 2, 0));
    // movedim(x, -1, 0) = permute(2, 0, 1)
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        env.check(
            &format!("movedim 0 2 ({layout:?})"),
            x().movedim(0, 2),
            &a.permute(&[1, 2, 0]),
            0.0,
        );
        env.check(
            &format!("movedim -1 0 ({layout:?})"),
            x().movedim(-1, 0),
            &a.permute(&[2, 0, 1]),
            0.0,
        );
        // torch.movedim(x, [0, 1], [2, 0]) = permute(1, 2, 0)
        env.check(
            &format!("movedim [0, 1] [2, 0] ({layout:?})"),
            x().movedim(vec![0, 1], vec![2, 0]),
            &a.permute(&[1, 2, 0]),
            0.0,
        );
    }
}

#[test]
fn slice_dim_and_pad_take_burns_arguments() {
    // x[:, 1:-1], x[:, ::2], x[:, -1:] as slice_dim; F.pad with pairs for the last dims and a
    // bare value for a constant.
    use burn::tensor::ops::PadMode;
    use burn_backend_tests::reference::layout::Range as R;
    let env = Env::new(crate::device());
    let a = input(&env); // [2, 3, 4]
    let x = || env.float::<3>(&a);
    #[allow(clippy::reversed_empty_ranges)] // `1..-1` is a slice expression, not an iteration
    env.check(
        "slice_dim 1..-1",
        x().slice_dim(2, 1..-1),
        &a.slice(&[R::full(), R::full(), R::new(1, Some(3))]),
        0.0,
    );
    env.check(
        "slice_dim -1..",
        x().slice_dim(-2, -1..),
        &a.slice(&[R::full(), R::new(2, None), R::full()]),
        0.0,
    );
    let stepped = x().slice_dim(2, burn::tensor::Slice::new(0, None, 2));
    assert_eq!(stepped.dims(), [2, 3, 2]);
    let padded = x().pad([(1, 0), (0, 2)], 7.5);
    assert_eq!(padded.dims(), [2, 4, 6]);
    let values = padded.into_data().to_vec::<f64>().unwrap();
    assert_eq!(values[0], 7.5);
    assert_eq!(values[6 + 4], 7.5);
    assert_eq!(x().pad((1, 1, 0, 0), PadMode::Edge).dims(), [2, 3, 6]);
    assert_eq!(x().pad(vec![(0, 1)], PadMode::default()).dims(), [2, 3, 5]);
}

#[test]
fn flip_one_and_several_dims() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        env.check(
            &format!("flip [1] ({layout:?})"),
            x().flip([1]),
            &a.flip(&[1]),
            0.0,
        );
        env.check(
            &format!("flip [0, 2] ({layout:?})"),
            x().flip([0, 2]),
            &a.flip(&[0, 2]),
            0.0,
        );
        env.check(
            &format!("flip [-1] ({layout:?})"),
            x().flip([-1]),
            &a.flip(&[2]),
            0.0,
        );
        env.check(
            &format!("flip [] ({layout:?})"),
            x().flip([0isize; 0]),
            &a,
            0.0,
        );
        // A flipped view feeding arithmetic.
        let got = x().flip([2]) + x();
        env.check(
            &format!("flip + x ({layout:?})"),
            got,
            &a.flip(&[2]).zip(&a, |p, q| p + q),
            1.0,
        );
    }
}

#[test]
fn flatten_ranges_of_dims() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.float_in::<3>(&a, layout);
        let got: Tensor<2> = x().flatten(1, 2);
        env.check(
            &format!("flatten 1..=2 ({layout:?})"),
            got,
            &a.reshape(&[2, 12]),
            0.0,
        );
        let got: Tensor<2> = x().flatten(0, 1);
        env.check(
            &format!("flatten 0..=1 ({layout:?})"),
            got,
            &a.reshape(&[6, 4]),
            0.0,
        );
        let got: Tensor<1> = x().flatten(0, 2);
        env.check(
            &format!("flatten all ({layout:?})"),
            got,
            &a.reshape(&[24]),
            0.0,
        );
    }
}

#[test]
fn squeeze_and_unsqueeze() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 1, 3, 1], -1.0, 1.0, 83);
    let x = || env.float::<4>(&a);
    let got: Tensor<2> = x().squeeze();
    env.check("squeeze", got, &a.reshape(&[2, 3]), 0.0);
    let got: Tensor<3> = x().squeeze_dim(1);
    env.check("squeeze_dim 1", got, &a.reshape(&[2, 3, 1]), 0.0);
    let got: Tensor<2> = x().squeeze_dims(&[1, -1]);
    env.check("squeeze_dims [1, -1]", got, &a.reshape(&[2, 3]), 0.0);
    let b = env.random(&[2, 3], -1.0, 1.0, 84);
    let y = || env.float::<2>(&b);
    let got: Tensor<4> = y().unsqueeze();
    env.check("unsqueeze", got, &b.reshape(&[1, 1, 2, 3]), 0.0);
    let got: Tensor<3> = y().unsqueeze_dim(1);
    env.check("unsqueeze_dim 1", got, &b.reshape(&[2, 1, 3]), 0.0);
    let got: Tensor<3> = y().unsqueeze_dim(2);
    env.check("unsqueeze_dim 2", got, &b.reshape(&[2, 3, 1]), 0.0);
    let got: Tensor<4> = y().unsqueeze_dims(&[0, -1]);
    env.check(
        "unsqueeze_dims [0, -1]",
        got,
        &b.reshape(&[1, 2, 3, 1]),
        0.0,
    );
    let got: Tensor<4> = y().unsqueeze_dims(&[1, 2]);
    env.check("unsqueeze_dims [1, 2]", got, &b.reshape(&[2, 1, 1, 3]), 0.0);
}

#[test]
fn squeeze_of_a_transposed_view() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 1, 4], -1.0, 1.0, 85);
    let got: Tensor<2> = env.float_in::<3>(&a, Layout::Transposed).squeeze_dim(1);
    env.check("squeeze_dim transposed", got, &a.reshape(&[3, 4]), 0.0);
}

#[test]
fn expand_stretches_size_one_dims_and_adds_leading_dims() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 1], -1.0, 1.0, 86);
    let got: Tensor<2> = env.float::<2>(&a).expand([3, 4]);
    env.check("expand [3, 4]", got, &a.broadcast_to(&[3, 4]), 0.0);
    let got: Tensor<3> = env.float::<2>(&a).expand([2, 3, 4]);
    env.check("expand [2, 3, 4]", got, &a.broadcast_to(&[2, 3, 4]), 0.0);
    let got: Tensor<3> = env.float::<2>(&a).expand([2, -1, 5]);
    env.check("expand [2, -1, 5]", got, &a.broadcast_to(&[2, 3, 5]), 0.0);
    // An expanded view reshaped (needs a copy) and reduced.
    let got: Tensor<1> = env.float::<2>(&a).expand([3, 4]).reshape([12]);
    env.check(
        "expand then reshape",
        got,
        &a.broadcast_to(&[3, 4]).reshape(&[12]),
        0.0,
    );
    let got = env.float::<2>(&a).expand([3, 4]).transpose();
    env.check(
        "expand then transpose",
        got,
        &a.broadcast_to(&[3, 4]).transpose(),
        0.0,
    );
}

#[test]
fn metadata_of_a_view() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let x = env.float_in::<3>(&a, Layout::Strided).permute([2, 0, 1]);
    assert_eq!(x.dims(), [4, 2, 3], "dims of a permuted strided view");
    assert_eq!(x.rank(), 3);
    assert_eq!(x.num_elements(), 24);
    assert_eq!(x.shape().dims.to_vec(), vec![4, 2, 3]);
}

#[test]
fn iter_dim_walks_both_ends_with_a_known_length() {
    use burn_backend_tests::reference::layout::Range;
    let env = Env::new(crate::device());
    let a = env.random(&[3, 2], -1.0, 1.0, 87);
    let x = env.float::<2>(&a);
    let mut rows = x.iter_dim(0);
    assert_eq!(rows.len(), 3);
    let last = rows.next_back().unwrap();
    env.check(
        "iter_dim next_back",
        last,
        &a.slice(&[Range::new(2, Some(3)), Range::full()]),
        0.0,
    );
    let first = rows.next().unwrap();
    env.check(
        "iter_dim next",
        first,
        &a.slice(&[Range::new(0, Some(1)), Range::full()]),
        0.0,
    );
    assert_eq!(rows.len(), 1);
    assert_eq!(rows.map(|row| row.dims()).collect::<Vec<_>>(), [[1, 2]]);
}

#[test]
fn reshape_zero_is_a_size_of_zero() {
    // Burn 0.23 reads a plain 0 literally; only ZeroDimPlaceholders copies the input's size.
    let env = Env::new(crate::device());
    let empty = Tensor::<2>::zeros([0, 3], &env.device);
    assert_eq!(empty.clone().reshape([3, 0]).dims(), [3, 0]);
    assert_eq!(empty.reshape(ZeroDimPlaceholders([0, 0])).dims(), [0, 3]);
}
