//! Bool creation and conversion: from_bool / from_data, full, to int and float, argwhere,
//! nonzero, the mask constructors, layout ops and Display.

use burn::tensor::{Bool, DType, Tensor, TensorData, s};
use burn_backend_tests::{Env, Layout, RefArray};

#[test]
fn from_bool_and_to_int_float() {
    let env = Env::new(crate::device());
    let x = Tensor::<2, Bool>::from_bool([[true, false, true], [false, false, true]], &env.device);
    assert_eq!(
        x.dtype(),
        env.device.settings().bool_dtype,
        "from_bool takes the default bool dtype"
    );
    let expected = RefArray::new(&[2, 3], vec![1.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
    env.check_bool("from_bool", x.clone(), &expected);
    env.check_int("bool int", x.clone().int(), &expected);
    env.check("bool float", x.float(), &expected, 0.0);
}

#[test]
fn conversions_of_views() {
    let env = Env::new(crate::device());
    let a = env.random_bool(&[3, 4], 0.5, 361);
    for layout in Layout::ALL {
        env.check_int(
            &format!("bool int ({layout:?})"),
            env.bool_in::<2>(&a, layout).int(),
            &a,
        );
        env.check(
            &format!("bool float ({layout:?})"),
            env.bool_in::<2>(&a, layout).float(),
            &a,
            0.0,
        );
    }
}

#[test]
fn from_data_of_numbers_is_non_zero() {
    let env = Env::new(crate::device());
    let x = Tensor::<1, Bool>::from_data(TensorData::from([0i32, 3, -1, 0]), &env.device);
    env.check_bool(
        "bool from ints",
        x,
        &RefArray::new(&[4], vec![0.0, 1.0, 1.0, 0.0]),
    );
}

#[test]
fn argwhere_and_nonzero() {
    // torch.argwhere(x) and torch.nonzero(x, as_tuple=True)
    let env = Env::new(crate::device());
    let a = env.random_bool(&[3, 4, 2], 0.4, 362);
    let coords = a.argwhere();
    for layout in Layout::ALL {
        env.check_int(
            &format!("argwhere ({layout:?})"),
            env.bool_in::<3>(&a, layout).argwhere(),
            &coords,
        );
    }
    let columns = env.bool::<3>(&a).nonzero();
    assert_eq!(columns.len(), 3, "nonzero gives one tensor per dim");
    for (d, column) in columns.into_iter().enumerate() {
        let expected = RefArray::from_fn(&[coords.shape[0]], |i| coords.at(&[i[0], d]));
        env.check_int(&format!("nonzero dim {d}"), column, &expected);
    }
}

#[test]
fn argwhere_of_all_false() {
    let env = Env::new(crate::device());
    let x = Tensor::<2, Bool>::full([2, 3], false, &env.device);
    assert_eq!(
        x.clone().argwhere().dims(),
        [0, 2],
        "argwhere of no true element"
    );
    assert!(x.nonzero().is_empty(), "nonzero of no true element");
}

#[test]
fn triangle_masks() {
    // tril_mask is true where torch.tril zeroes: c - r > diagonal; triu_mask: c - r < diagonal;
    // diag_mask: c - r != diagonal
    let env = Env::new(crate::device());
    for diagonal in [-1i64, 0, 2] {
        let by_position = |f: &dyn Fn(i64, i64) -> bool| {
            RefArray::from_fn(&[3, 4], |i| f(i[0] as i64, i[1] as i64) as u8 as f64)
        };
        let got = Tensor::<2, Bool>::tril_mask([3, 4], diagonal, &env.device);
        env.check_bool(
            &format!("tril_mask {diagonal}"),
            got,
            &by_position(&|r, c| c - r > diagonal),
        );
        let got = Tensor::<2, Bool>::triu_mask([3, 4], diagonal, &env.device);
        env.check_bool(
            &format!("triu_mask {diagonal}"),
            got,
            &by_position(&|r, c| c - r < diagonal),
        );
        let got = Tensor::<2, Bool>::diag_mask([3, 4], diagonal, &env.device);
        env.check_bool(
            &format!("diag_mask {diagonal}"),
            got,
            &by_position(&|r, c| c - r != diagonal),
        );
    }
}

#[test]
fn layout_ops_on_bools() {
    let env = Env::new(crate::device());
    let a = env.random_bool(&[2, 3, 4], 0.5, 363);
    let x = || env.bool::<3>(&a);
    env.check_bool("bool transpose", x().transpose(), &a.transpose());
    env.check_bool("bool reshape", x().reshape([6, 4]), &a.reshape(&[6, 4]));
    env.check_bool("bool flip", x().flip([1]), &a.flip(&[1]));
    env.check_bool("bool repeat_dim", x().repeat_dim(0, 2), &a.repeat_dim(0, 2));
    env.check_bool(
        "bool cat",
        Tensor::cat(vec![x(), x()], 2),
        &RefArray::cat(&[a.clone(), a.clone()], 2),
    );
    let sliced = a.slice(&[
        burn_backend_tests::reference::layout::Range::full(),
        burn_backend_tests::reference::layout::Range::full().step(2),
    ]);
    env.check_bool("bool slice", x().slice(s![.., ..;2]), &sliced);
    let idx = RefArray::new(&[2], vec![3.0, 0.0]);
    env.check_bool(
        "bool select",
        x().select(2, env.int(&idx)),
        &a.select(2, &[3, 0]),
    );
    let gidx = env.random_int(&[2, 3, 4], 0, 4, 364);
    env.check_bool(
        "bool gather",
        x().gather(2, env.int(&gidx)),
        &a.gather(2, &gidx),
    );
    let mask = env.random_bool(&[2, 3, 4], 0.5, 365);
    env.check_bool(
        "bool mask_fill",
        x().mask_fill(env.bool(&mask), true),
        &a.mask_where(&mask, &RefArray::scalar(1.0)),
    );
    let got: Tensor<3, Bool> = env
        .bool::<2>(&RefArray::new(&[1, 4], vec![1.0, 0.0, 0.0, 1.0]))
        .unsqueeze_dim::<3>(0)
        .expand([2, 3, 4]);
    env.check_bool(
        "bool expand",
        got,
        &RefArray::new(&[1, 4], vec![1.0, 0.0, 0.0, 1.0]).broadcast_to(&[2, 3, 4]),
    );
    let dtype = x().dtype();
    assert!(matches!(dtype, DType::Bool(_)), "bool dtype {dtype}");
}

#[test]
fn display_golden() {
    // The format of burn-tensor's Display for a bool tensor.
    let env = Env::new(crate::device());
    let x = Tensor::<1, Bool>::from_bool([true, false], &env.device);
    let expected = format!(
        "Tensor {{\n  data:\n[true, false],\n  shape:  [2],\n  device:  {},\n  kind:  \"Bool\",\n  dtype:  \"bool\",\n}}",
        env.device
    );
    assert_eq!(format!("{x}"), expected);
}

#[test]
fn triangular_masks_of_any_rank() {
    // A [1, 1, 3, 3] causal mask broadcasts over batch and heads: true above the diagonal.
    let env = Env::new(crate::device());
    let mask = Tensor::<4, Bool>::tril_mask([2, 4, 3, 3], 0, &env.device);
    assert_eq!(mask.dims(), [1, 1, 3, 3]);
    assert_eq!(
        mask.into_data().to_vec::<bool>().unwrap(),
        [false, true, true, false, false, true, false, false, false]
    );
    let upper = Tensor::<3, Bool>::triu_mask([5, 2, 3], 1, &env.device);
    assert_eq!(upper.dims(), [1, 2, 3]);
}
