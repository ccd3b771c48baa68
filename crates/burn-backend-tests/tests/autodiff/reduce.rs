//! Gradients of reductions, scans, sorting and products: sums, means, products (with exact
//! zeros), extrema, cumulative ops, sorting and top-k, variances, matmul, dot and cross.
//!
//! `prod`, `prod_dim` and `cumprod` are exact with zeros (no division by the input) and are
//! checked with them.
//!
//! `argmax`, `argmin`, `argsort` and `argtopk` return ints and have no gradient by design;
//! their cases check the float path that uses them (a `gather` at the indices).

use super::{constant, distinct, inner_constant, shaped, signed, unit, values};
use burn::tensor::Tensor;

/// Values of a `[2, 3]` input with an exact zero in the first row (the derivative of a
/// product there is the product of the others) and two in the second (all derivatives of
/// that row's product vanish).
const WITH_ZEROS: &[f64] = &[0.5, 0.0, -1.5, 0.0, 1.25, 0.0];

grad_cases! {
    // ---- composed statistics ----------------------------------------------------------------------
    median: [distinct(18, -2.0, 2.0)] => |t| shaped(&t[0], [3, 6]).median(1).exp();
    median_with_indices: [distinct(18, -2.0, 2.0)] => |t| {
        let (median, at) = shaped(&t[0], [3, 6]).median_with_indices(0);
        median * at.float().add_scalar(1.0)
    };
    cov: [unit(12)] => |t| shaped(&t[0], [3, 4]).cov(1, 1).exp();
    sum_dims_squeeze: [unit(24)]
        => |t| shaped(&t[0], [2, 3, 4]).sum_dims_squeeze::<1, _>(&[0, 2]).exp();

    // ---- sums and means -------------------------------------------------------------------------
    sum: [unit(12)] => |t| shaped(&t[0], [3, 4]).sum().exp();
    sum_dim0: [unit(12)] => |t| shaped(&t[0], [3, 4]).sum_dim(0).exp();
    sum_dim1: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).sum_dim(1).exp();
    sum_dims: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).sum_dims(&[0, 2]).exp();
    mean: [unit(12)] => |t| shaped(&t[0], [3, 4]).mean().exp();
    mean_dim: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).mean_dim(2).exp();
    mean_dims: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).mean_dims(&[1, 2]).exp();

    // ---- products -------------------------------------------------------------------------------
    prod: [signed(6, 0.5, 1.5)] => |t| shaped(&t[0], [2, 3]).prod();
    prod_dim: [signed(12, 0.5, 1.5)] => |t| shaped(&t[0], [3, 4]).prod_dim(1);
    prod_dim0: [signed(12, 0.5, 1.5)] => |t| shaped(&t[0], [3, 4]).prod_dim(0);
    prod_dims: [signed(24, 0.5, 1.5)] => |t| shaped(&t[0], [2, 3, 4]).prod_dims(&[0, 2]);
    prod_with_zeros: [values(WITH_ZEROS)] => |t| shaped(&t[0], [2, 3]).prod_dim(1);
    prod_with_zeros_dim0: [values(WITH_ZEROS)] => |t| shaped(&t[0], [2, 3]).prod_dim(0);
    prod_all_with_one_zero: [values(&[0.5, 0.0, -1.5, 2.0, 1.25, -0.75])]
        => |t| shaped(&t[0], [2, 3]).prod();

    // ---- extrema --------------------------------------------------------------------------------
    max: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).max();
    min: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).min();
    max_dim: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).max_dim(1);
    max_dim0: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).max_dim(0);
    min_dim: [distinct(24, -2.0, 2.0)] => |t| shaped(&t[0], [2, 3, 4]).min_dim(1);
    max_dims: [distinct(24, -2.0, 2.0)] => |t| shaped(&t[0], [2, 3, 4]).max_dims(&[0, 2]);
    min_dims: [distinct(24, -2.0, 2.0)] => |t| shaped(&t[0], [2, 3, 4]).min_dims(&[1, 2]);
    // Magnitudes at least 0.2 apart and away from zero.
    max_abs: [distinct(6, -1.9, 2.1)] => |t| shaped(&t[0], [2, 3]).max_abs();
    max_abs_dim: [distinct(6, -1.9, 2.1)] => |t| shaped(&t[0], [2, 3]).max_abs_dim(1);
    max_dim_with_indices: [distinct(12, -2.0, 2.0)] => |t| {
        let (values, indices) = shaped(&t[0], [3, 4]).max_dim_with_indices(1);
        values * indices.float().add_scalar(1.0)
    };
    min_dim_with_indices: [distinct(12, -2.0, 2.0)] => |t| {
        let (values, indices) = shaped(&t[0], [3, 4]).min_dim_with_indices(0);
        values * indices.float().add_scalar(1.0)
    };
    gather_at_argmax: [distinct(12, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let at = x.clone().argmax(1);
        x.gather(1, at).exp()
    };
    gather_at_argmin: [distinct(12, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let at = x.clone().argmin(0);
        x.gather(0, at).exp()
    };

    // ---- scans ----------------------------------------------------------------------------------
    cumsum: [unit(12)] => |t| shaped(&t[0], [3, 4]).cumsum(1).exp();
    cumsum_dim0: [unit(12)] => |t| shaped(&t[0], [3, 4]).cumsum(0).exp();
    cumprod: [signed(12, 0.5, 1.5)] => |t| shaped(&t[0], [3, 4]).cumprod(1);
    cumprod_dim0: [signed(24, 0.5, 1.5)] => |t| shaped(&t[0], [2, 3, 4]).cumprod(1);
    cummax: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).cummax(1);
    cummax_dim0: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [4, 3]).cummax(0);
    cummin: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).cummin(1);
    cummin_dim0: [distinct(24, -2.0, 2.0)] => |t| shaped(&t[0], [2, 3, 4]).cummin(1);

    // ---- sorting --------------------------------------------------------------------------------
    sort: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).sort(1).exp();
    sort_dim0: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).sort(0).exp();
    sort_descending: [distinct(12, -2.0, 2.0)]
        => |t| shaped(&t[0], [3, 4]).sort_descending(1).exp();
    sort_with_indices: [distinct(12, -2.0, 2.0)] => |t| {
        let (sorted, indices) = shaped(&t[0], [3, 4]).sort_with_indices(1);
        sorted * indices.float().add_scalar(1.0)
    };
    sort_descending_with_indices: [distinct(12, -2.0, 2.0)] => |t| {
        let (sorted, indices) = shaped(&t[0], [4, 3]).sort_descending_with_indices(0);
        sorted * indices.float().add_scalar(1.0)
    };
    gather_at_argsort: [distinct(12, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let order = x.clone().argsort_descending(1);
        x.gather(1, order).cumsum(1).exp()
    };
    topk: [distinct(12, -2.0, 2.0)] => |t| shaped(&t[0], [3, 4]).topk(2, 1).exp();
    topk_with_indices: [distinct(12, -2.0, 2.0)] => |t| {
        let (top, indices) = shaped(&t[0], [4, 3]).topk_with_indices(3, 0);
        top * indices.float().add_scalar(1.0)
    };
    gather_at_argtopk: [distinct(12, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let at = x.clone().argtopk(2, 1);
        x.gather(1, at).exp()
    };

    // ---- variances ------------------------------------------------------------------------------
    var: [unit(12)] => |t| shaped(&t[0], [3, 4]).var(1);
    var_bias: [unit(12)] => |t| shaped(&t[0], [3, 4]).var_bias(0);
    var_mean: [unit(12)] => |t| {
        let (var, mean) = shaped(&t[0], [3, 4]).var_mean(1);
        Tensor::cat(vec![var, mean.exp()], 1)
    };
    var_mean_bias: [unit(12)] => |t| {
        let (var, mean) = shaped(&t[0], [3, 4]).var_mean_bias(0);
        Tensor::cat(vec![var, mean.exp()], 0)
    };

    // ---- products of tensors --------------------------------------------------------------------
    matmul: [unit(6), unit(12)]
        => |t| shaped(&t[0], [2, 3]).matmul(shaped(&t[1], [3, 4]));
    matmul_batched: [unit(24), unit(24)]
        => |t| shaped(&t[0], [2, 3, 4]).matmul(shaped(&t[1], [2, 4, 3]));
    matmul_broadcast_rhs_batch: [unit(24), unit(8)]
        => |t| shaped(&t[0], [2, 3, 4]).matmul(shaped(&t[1], [1, 4, 2]));
    matmul_broadcast_both_batches: [unit(12), unit(24)]
        => |t| shaped(&t[0], [2, 1, 3, 2]).matmul(shaped(&t[1], [1, 3, 2, 4]));
    matmul_with_constant: [unit(12)] => |t| {
        let x = shaped(&t[0], [4, 3]);
        let c = constant(&[0.5, -1.0, 2.0, 1.5, -0.25, 3.0], [3, 2], &x);
        x.matmul(c).exp()
    };
    matmul_inner_device_lhs: [unit(12)] => |t| {
        let c = inner_constant(&[0.5, -1.0, 2.0, 1.5, -0.25, 3.0], [2, 3]);
        c.matmul(shaped(&t[0], [3, 4])).exp()
    };
    dot: [unit(5), unit(5)]
        => |t| t[0].clone().dot(t[1].clone()).exp();
    cross: [unit(6), unit(6)]
        => |t| shaped(&t[0], [2, 3]).cross(shaped(&t[1], [2, 3]), 1);
    cross_broadcast_dim0: [unit(6), unit(3)]
        => |t| shaped(&t[0], [3, 2]).cross(shaped(&t[1], [3, 1]), 0);

    // ---- size-one dims, higher ranks, shared operands -------------------------------------------
    sum_dim_rank4: [unit(24)] => |t| shaped(&t[0], [2, 1, 3, 4]).sum_dim(2).exp();
    prod_dim_size_one: [signed(6, 0.5, 1.5)] => |t| shaped(&t[0], [2, 1, 3]).prod_dim(1).exp();
    max_dim_size_one: [unit(6)] => |t| shaped(&t[0], [2, 3, 1]).max_dim(2).exp();
    cumprod_with_zeros: [values(&[0.5, 0.0, -1.5, 2.0, 0.0, 1.25, -0.75, 1.5, 0.0, 0.8, 1.1, -0.9])]
        => |t| shaped(&t[0], [3, 4]).cumprod(1);
    cumprod_with_zeros_dim0: [values(&[0.0, 1.5, -0.5, 2.0, 0.0, 1.25])]
        => |t| shaped(&t[0], [3, 2]).cumprod(0);
    cumprod_size_one: [signed(6, 0.5, 1.5)] => |t| shaped(&t[0], [1, 6]).cumprod(0).exp();
    cummax_size_one: [unit(6)] => |t| shaped(&t[0], [6, 1]).cummax(1).exp();
    sort_size_one: [unit(6)] => |t| shaped(&t[0], [6, 1]).sort(1).exp();
    topk_everything: [distinct(6, -2.0, 2.0)] => |t| shaped(&t[0], [2, 3]).topk(3, 1).exp();
    var_two_elements: [unit(6)] => |t| shaped(&t[0], [2, 3]).var(0);
    matmul_broadcast_lhs_batch: [unit(12), unit(16)]
        => |t| shaped(&t[0], [1, 3, 4]).matmul(shaped(&t[1], [2, 4, 2]));
    matmul_self: [unit(9)] => |t| {
        let x = shaped(&t[0], [3, 3]);
        x.clone().matmul(x)
    };
    matmul_outer_and_inner: [unit(3), unit(3)] => |t| {
        let (col, row) = (shaped(&t[0], [3, 1]), shaped(&t[1], [1, 3]));
        let outer = col.clone().matmul(row.clone());
        let inner = row.matmul(col);
        outer * inner
    };
}

/// Long increasing half-precision rows: the running-extremum positions must stay exact past 256
/// (where bf16 stops holding every integer), so every element keeps exactly one unit of
/// gradient.
#[test]
fn cummax_and_cummin_route_long_half_precision_rows_exactly() {
    use burn::tensor::{FloatDType, TensorData};
    let device = super::device().autodiff();
    let len = 300;
    let values: Vec<f32> = (0..len).map(|i| (i as f32 / 40.0).exp()).collect();
    let data = TensorData::new(values, [len]);
    // bf16 where the device has it, and f16.
    let dtypes = [FloatDType::BF16, FloatDType::F16].into_iter().filter(|d| {
        burn_backend_tests::supports(
            &device,
            &[(*d).into()],
            &format!("{} in {d}", module_path!()),
        )
    });
    for (dtype, descending) in dtypes.flat_map(|d| [(d, false), (d, true)]) {
        let x = Tensor::<1>::from_data(data.clone(), (&device, dtype)).require_grad();
        let y = if descending {
            x.clone().neg().cummin(0)
        } else {
            x.clone().cummax(0)
        };
        let grad = x.grad(&y.sum().backward()).unwrap();
        let grad: Vec<f32> = grad
            .into_data()
            .convert_dtype(burn::tensor::DType::F32)
            .to_vec()
            .unwrap();
        let expected = if descending { -1.0 } else { 1.0 };
        assert!(grad.iter().all(|&g| g == expected), "{grad:?}");
    }
}
