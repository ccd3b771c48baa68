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
        forward!(@body float_cat (tensors => VecF, dim => Val) -> F)
    }

    // Layout ops keep a quantized tensor quantized (its integer values move, its scales
    // follow); every other float op dequantizes a quantized argument first.
    forward_quantized! {
        fn float_swap_dims(tensor: F, dim1: Val[usize], dim2: Val[usize]) -> F | q_swap_dims[tensor](tensor => Q, dim1 => Val, dim2 => Val);
        fn float_transpose(tensor: F) -> F | q_transpose[tensor](tensor => Q);
        fn float_permute(tensor: F, axes: Slice[usize]) -> F | q_permute[tensor](tensor => Q, axes => Val);
        fn float_flip(tensor: F, axes: Slice[usize]) -> F | q_flip[tensor](tensor => Q, axes => Val);
        fn float_reshape(tensor: F, shape: Val[Shape]) -> F | q_reshape[tensor](tensor => Q, shape => Val);
        fn float_expand(tensor: F, shape: Val[Shape]) -> F | q_expand[tensor](tensor => Q, shape => Val);
        fn float_slice(tensor: F, slices: Slice[Slice]) -> F | q_slice[tensor](tensor => Q, slices => Val);
        fn float_repeat_dim(tensor: F, dim: Val[usize], times: Val[usize]) -> F | q_repeat_dim[tensor](tensor => Q, dim => Val, times => Val);
        fn float_gather(dim: Val[usize], tensor: F, indices: I) -> F | q_gather[tensor](dim => Val, tensor => Q, indices => I);
        fn float_select(tensor: F, dim: Val[usize], indices: I) -> F | q_select[tensor](tensor => Q, dim => Val, indices => I);
    }

    fn float_argmax(tensor: T, dim: usize) -> T {
        if super::is_quantized(&tensor) {
            return dispatch!(&tensor, E, B => E::wrap_int(B::q_argmax(E::quantized(tensor), dim)));
        }
        forward!(@body float_argmax (tensor => F, dim => Val) -> I)
    }
    fn float_argmin(tensor: T, dim: usize) -> T {
        if super::is_quantized(&tensor) {
            return dispatch!(&tensor, E, B => E::wrap_int(B::q_argmin(E::quantized(tensor), dim)));
        }
        forward!(@body float_argmin (tensor => F, dim => Val) -> I)
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
        forward!(@body float_matmul (lhs => F, rhs => F) -> F)
    }

    // Every other operation of the table routes on its tensors.
    burn_ir::float_operations!(routed_methods);

    // Composites the table leaves to their parts (recorded decomposed), routed whole here so
    // that a backend's own kernel runs.
    forward! {
        fn float_any(tensor: F) -> B;
        fn float_any_dim(tensor: F, dim: Val[usize]) -> B;
        fn float_all(tensor: F) -> B;
        fn float_all_dim(tensor: F, dim: Val[usize]) -> B;
        fn float_topk_with_indices(tensor: F, k: Val[usize], dim: Val[usize]) -> FI;
    }
}
