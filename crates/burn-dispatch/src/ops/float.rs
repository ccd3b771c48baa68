//! Float operations routed to the tensor's backend.

use super::prelude::*;

type T = DispatchTensor;

impl FloatTensorOps<Self> for Dispatch {
    /// `QFloat` data makes a quantized tensor.
    fn float_from_data(data: TensorData, device: &DispatchDevice) -> T {
        if matches!(data.dtype, DType::QFloat(_)) {
            return Dispatch::q_from_data(data, device);
        }
        dispatch_device!(device, E, B => E::wrap_float_on(device, B::float_from_data(data, &E::device(device))))
    }
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &DispatchDevice,
        dtype: FloatDType,
    ) -> T {
        dispatch_device!(device, E, B => E::wrap_float_on(device, B::float_random(shape, distribution, &E::device(device), dtype)))
    }
    fn float_empty(shape: Shape, device: &DispatchDevice, dtype: FloatDType) -> T {
        dispatch_device!(device, E, B => E::wrap_float_on(device, B::float_empty(shape, &E::device(device), dtype)))
    }
    fn float_zeros(shape: Shape, device: &DispatchDevice, dtype: FloatDType) -> T {
        dispatch_device!(device, E, B => E::wrap_float_on(device, B::float_zeros(shape, &E::device(device), dtype)))
    }
    fn float_ones(shape: Shape, device: &DispatchDevice, dtype: FloatDType) -> T {
        dispatch_device!(device, E, B => E::wrap_float_on(device, B::float_ones(shape, &E::device(device), dtype)))
    }
    fn float_full(shape: Shape, value: Scalar, device: &DispatchDevice, dtype: FloatDType) -> T {
        dispatch_device!(device, E, B => E::wrap_float_on(device, B::float_full(shape, value, &E::device(device), dtype)))
    }
    /// A quantized tensor reads back quantized (`QFloat` data in its scheme's byte format).
    async fn float_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        if super::is_quantized(&tensor) {
            return dispatch!(&tensor, E, B => B::q_into_data(E::quantized(tensor)).await);
        }
        dispatch!(&tensor, E, B => B::float_into_data(E::float(tensor)).await)
    }
    fn float_device(tensor: &T) -> DispatchDevice {
        dispatch!(tensor, E, B => {
            let device = match E::unwrap_ref(tensor) {
                BackendTensor::Quantized(q) => E::wrap_device(B::q_device(q)),
                other => E::wrap_device(B::float_device(other.float_ref())),
            };
            match tensor.checkpointing() {
                #[cfg(feature = "autodiff")]
                Some(strategy) => DispatchDevice::autodiff_checkpointed(device, strategy),
                _ => device,
            }
        })
    }
    fn float_to_device(tensor: T, device: &DispatchDevice) -> T {
        super::transfer::float_to_device(tensor, device)
    }
    fn float_detach(tensor: T) -> T {
        dispatch!(&tensor, E, B => match E::unwrap(tensor) {
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(t, strategy) => E::wrap_autodiff(t.detach(), strategy),
            other => E::wrap(other),
        })
    }
    fn float_set_require_grad(tensor: T, require_grad: bool) -> T {
        dispatch!(&tensor, E, B => match E::unwrap(tensor) {
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(t, strategy) => {
                let t = if require_grad { t.require_grad() } else { t.detach() };
                E::wrap_autodiff(t, strategy)
            }
            // A plain device records nothing: the flag is accepted and ignored (as in Burn,
            // where modules mark parameters whatever the device).
            other => {
                let _ = require_grad;
                E::wrap(other)
            }
        })
    }
    fn float_is_require_grad(tensor: &T) -> bool {
        dispatch!(tensor, E, B => E::unwrap_ref(tensor).is_require_grad())
    }

    /// Quantized tensors concatenate quantized when all of them are.
    fn float_cat(tensors: Vec<T>, dim: usize) -> T {
        // (Inside a capture, quantized operands are recorded dequantized, by `forward!`.)
        if !tensors.is_empty()
            && tensors.iter().all(super::is_quantized)
            && !tensors.iter().any(DispatchTensor::is_recording)
        {
            return dispatch!(&tensors[0], E, B => E::wrap_quantized(B::q_cat(tensors.into_iter().map(E::quantized).collect(), dim)));
        }
        forward!(@body float_cat [first] (tensors => floats, dim => val) -> float)
    }

    // Layout ops keep a quantized tensor quantized (its integer values move, its scales
    // follow); every other float op dequantizes a quantized argument first.
    forward_quantized! {
        fn float_swap_dims(tensor: T => float, dim1: usize => val, dim2: usize => val) -> T => float | q_swap_dims[tensor](tensor => quantized, dim1 => val, dim2 => val);
        fn float_transpose(tensor: T => float) -> T => float | q_transpose[tensor](tensor => quantized);
        fn float_permute(tensor: T => float, axes: &[usize] => val) -> T => float | q_permute[tensor](tensor => quantized, axes => val);
        fn float_flip(tensor: T => float, axes: &[usize] => val) -> T => float | q_flip[tensor](tensor => quantized, axes => val);
        fn float_reshape(tensor: T => float, shape: Shape => val) -> T => float | q_reshape[tensor](tensor => quantized, shape => val);
        fn float_expand(tensor: T => float, shape: Shape => val) -> T => float | q_expand[tensor](tensor => quantized, shape => val);
        fn float_slice(tensor: T => float, slices: &[Slice] => val) -> T => float | q_slice[tensor](tensor => quantized, slices => val);
        fn float_repeat_dim(tensor: T => float, dim: usize => val, times: usize => val) -> T => float | q_repeat_dim[tensor](tensor => quantized, dim => val, times => val);
        fn float_gather[tensor](dim: usize => val, tensor: T => float, indices: T => int) -> T => float | q_gather[tensor](dim => val, tensor => quantized, indices => int);
        fn float_select(tensor: T => float, dim: usize => val, indices: T => int) -> T => float | q_select[tensor](tensor => quantized, dim => val, indices => int);
    }

    fn float_argmax(tensor: T, dim: usize) -> T {
        if super::is_quantized(&tensor) {
            return dispatch!(&tensor, E, B => E::wrap_int(B::q_argmax(E::quantized(tensor), dim)));
        }
        forward!(@body float_argmax [] (tensor => float, dim => val) -> int)
    }
    fn float_argmin(tensor: T, dim: usize) -> T {
        if super::is_quantized(&tensor) {
            return dispatch!(&tensor, E, B => E::wrap_int(B::q_argmin(E::quantized(tensor), dim)));
        }
        forward!(@body float_argmin [] (tensor => float, dim => val) -> int)
    }
    /// A quantized operand goes to `q_matmul` (integer products where the backend has them),
    /// unless a float operand is on an autodiff device: the quantized side is then
    /// dequantized and the product recorded.
    fn float_matmul(lhs: T, rhs: T) -> T {
        let tracked = lhs.checkpointing().is_some() || rhs.checkpointing().is_some();
        if !tracked && (super::is_quantized(&lhs) || super::is_quantized(&rhs)) {
            let route = if rhs.is_recording() { &rhs } else { &lhs };
            return dispatch!(route, E, B => E::wrap_primitive(B::q_matmul(E::primitive(lhs), E::primitive(rhs))));
        }
        forward!(@body float_matmul [] (lhs => float, rhs => float) -> float)
    }

    forward! {
        fn float_into_int(tensor: T => float, out_dtype: IntDType => val) -> T => int;
        fn float_cast(tensor: T => float, dtype: FloatDType => val) -> T => float;
        fn float_add(lhs: T => float, rhs: T => float) -> T => float;
        fn float_add_scalar(lhs: T => float, rhs: Scalar => val) -> T => float;
        fn float_sub(lhs: T => float, rhs: T => float) -> T => float;
        fn float_sub_scalar(lhs: T => float, rhs: Scalar => val) -> T => float;
        fn float_mul(lhs: T => float, rhs: T => float) -> T => float;
        fn float_mul_scalar(lhs: T => float, rhs: Scalar => val) -> T => float;
        fn float_div(lhs: T => float, rhs: T => float) -> T => float;
        fn float_div_scalar(lhs: T => float, rhs: Scalar => val) -> T => float;
        fn float_remainder(lhs: T => float, rhs: T => float) -> T => float;
        fn float_remainder_scalar(lhs: T => float, rhs: Scalar => val) -> T => float;
        fn float_powf(lhs: T => float, rhs: T => float) -> T => float;
        fn float_powf_scalar(lhs: T => float, rhs: Scalar => val) -> T => float;
        fn float_powi(lhs: T => float, rhs: T => int) -> T => float;
        fn float_powi_scalar(lhs: T => float, rhs: Scalar => val) -> T => float;
        fn float_recip(tensor: T => float) -> T => float;
        fn float_exp(tensor: T => float) -> T => float;
        fn float_log(tensor: T => float) -> T => float;
        fn float_log1p(tensor: T => float) -> T => float;
        fn float_sqrt(tensor: T => float) -> T => float;
        fn float_abs(tensor: T => float) -> T => float;
        fn float_neg(tensor: T => float) -> T => float;
        fn float_cos(tensor: T => float) -> T => float;
        fn float_sin(tensor: T => float) -> T => float;
        fn float_tan(tensor: T => float) -> T => float;
        fn float_cosh(tensor: T => float) -> T => float;
        fn float_sinh(tensor: T => float) -> T => float;
        fn float_tanh(tensor: T => float) -> T => float;
        fn float_asin(tensor: T => float) -> T => float;
        fn float_acos(tensor: T => float) -> T => float;
        fn float_atan(tensor: T => float) -> T => float;
        fn float_asinh(tensor: T => float) -> T => float;
        fn float_acosh(tensor: T => float) -> T => float;
        fn float_atanh(tensor: T => float) -> T => float;
        fn float_atan2(lhs: T => float, rhs: T => float) -> T => float;
        fn float_erf(tensor: T => float) -> T => float;
        fn float_round(tensor: T => float) -> T => float;
        fn float_floor(tensor: T => float) -> T => float;
        fn float_ceil(tensor: T => float) -> T => float;
        fn float_trunc(tensor: T => float) -> T => float;
        fn float_sign(tensor: T => float) -> T => float;
        fn float_is_nan(tensor: T => float) -> T => bool;
        fn float_is_inf(tensor: T => float) -> T => bool;
        fn float_clamp(tensor: T => float, min: Scalar => val, max: Scalar => val) -> T => float;
        fn float_clamp_min(tensor: T => float, min: Scalar => val) -> T => float;
        fn float_clamp_max(tensor: T => float, max: Scalar => val) -> T => float;
        fn float_slice_assign(tensor: T => float, slices: &[Slice] => val, value: T => float) -> T => float;
        fn float_scatter[tensor](dim: usize => val, tensor: T => float, indices: T => int, value: T => float, update: IndexingUpdateOp => val) -> T => float;
        fn float_select_add(tensor: T => float, dim: usize => val, indices: T => int, value: T => float) -> T => float;
        fn float_mask_where(tensor: T => float, mask: T => bool, value: T => float) -> T => float;
        fn float_mask_fill(tensor: T => float, mask: T => bool, value: Scalar => val) -> T => float;
        fn float_equal(lhs: T => float, rhs: T => float) -> T => bool;
        fn float_equal_elem(lhs: T => float, rhs: Scalar => val) -> T => bool;
        fn float_not_equal(lhs: T => float, rhs: T => float) -> T => bool;
        fn float_not_equal_elem(lhs: T => float, rhs: Scalar => val) -> T => bool;
        fn float_greater(lhs: T => float, rhs: T => float) -> T => bool;
        fn float_greater_elem(lhs: T => float, rhs: Scalar => val) -> T => bool;
        fn float_greater_equal(lhs: T => float, rhs: T => float) -> T => bool;
        fn float_greater_equal_elem(lhs: T => float, rhs: Scalar => val) -> T => bool;
        fn float_lower(lhs: T => float, rhs: T => float) -> T => bool;
        fn float_lower_elem(lhs: T => float, rhs: Scalar => val) -> T => bool;
        fn float_lower_equal(lhs: T => float, rhs: T => float) -> T => bool;
        fn float_lower_equal_elem(lhs: T => float, rhs: Scalar => val) -> T => bool;
        fn float_sum(tensor: T => float) -> T => float;
        fn float_sum_dim(tensor: T => float, dim: usize => val) -> T => float;
        fn float_prod(tensor: T => float) -> T => float;
        fn float_prod_dim(tensor: T => float, dim: usize => val) -> T => float;
        fn float_mean(tensor: T => float) -> T => float;
        fn float_mean_dim(tensor: T => float, dim: usize => val) -> T => float;
        fn float_max(tensor: T => float) -> T => float;
        fn float_max_dim(tensor: T => float, dim: usize => val) -> T => float;
        fn float_max_dim_with_indices(tensor: T => float, dim: usize => val) -> (T, T) => float_int;
        fn float_min(tensor: T => float) -> T => float;
        fn float_min_dim(tensor: T => float, dim: usize => val) -> T => float;
        fn float_min_dim_with_indices(tensor: T => float, dim: usize => val) -> (T, T) => float_int;
        fn float_max_abs(tensor: T => float) -> T => float;
        fn float_max_abs_dim(tensor: T => float, dim: usize => val) -> T => float;
        fn float_any(tensor: T => float) -> T => bool;
        fn float_any_dim(tensor: T => float, dim: usize => val) -> T => bool;
        fn float_all(tensor: T => float) -> T => bool;
        fn float_all_dim(tensor: T => float, dim: usize => val) -> T => bool;
        fn float_cumsum(tensor: T => float, dim: usize => val) -> T => float;
        fn float_cumprod(tensor: T => float, dim: usize => val) -> T => float;
        fn float_cummin(tensor: T => float, dim: usize => val) -> T => float;
        fn float_cummax(tensor: T => float, dim: usize => val) -> T => float;
        fn float_sort(tensor: T => float, dim: usize => val, descending: bool => val) -> T => float;
        fn float_sort_with_indices(tensor: T => float, dim: usize => val, descending: bool => val) -> (T, T) => float_int;
        fn float_argsort(tensor: T => float, dim: usize => val, descending: bool => val) -> T => int;
        fn float_topk_with_indices(tensor: T => float, k: usize => val, dim: usize => val) -> (T, T) => float_int;
    }
}
