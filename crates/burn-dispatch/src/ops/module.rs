//! Module operations routed to the input's backend.

use super::prelude::*;

type T = DispatchTensor;

impl ModuleOps<Self> for Dispatch {
    fn max_pool2d_with_indices(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> MaxPool2dWithIndices<Self> {
        dispatch!(&x, E, B => {
            #[cfg(feature = "autodiff")]
            if let Some(strategy) = x.checkpointing() {
                return crate::with_checkpointing!(strategy, S => {
                    type A = crate::__private::Autodiff<B, S>;
                    let out = A::max_pool2d_with_indices(E::autodiff(x), kernel_size, stride, padding, dilation, ceil_mode);
                    MaxPool2dWithIndices { output: E::wrap_autodiff(out.output, strategy), indices: E::wrap_int(out.indices) }
                });
            }
            let out = B::max_pool2d_with_indices(E::float(x), kernel_size, stride, padding, dilation, ceil_mode);
            MaxPool2dWithIndices { output: E::wrap_float(out.output), indices: E::wrap_int(out.indices) }
        })
    }
    fn max_pool1d_with_indices(
        x: T,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> MaxPool1dWithIndices<Self> {
        dispatch!(&x, E, B => {
            #[cfg(feature = "autodiff")]
            if let Some(strategy) = x.checkpointing() {
                return crate::with_checkpointing!(strategy, S => {
                    type A = crate::__private::Autodiff<B, S>;
                    let out = A::max_pool1d_with_indices(E::autodiff(x), kernel_size, stride, padding, dilation, ceil_mode);
                    MaxPool1dWithIndices { output: E::wrap_autodiff(out.output, strategy), indices: E::wrap_int(out.indices) }
                });
            }
            let out = B::max_pool1d_with_indices(E::float(x), kernel_size, stride, padding, dilation, ceil_mode);
            MaxPool1dWithIndices { output: E::wrap_float(out.output), indices: E::wrap_int(out.indices) }
        })
    }

    burn_ir::module_operations!(routed_methods);

    // Composites the table leaves to their parts (recorded decomposed), routed whole here so
    // that a backend's own kernel runs.
    forward! {
        fn layer_norm_backward(x: F, gamma: F, grad: F, epsilon: Val[f64]) -> NormGrads;
        fn batch_norm(x: F, gamma: F, beta: F, epsilon: Val[f64]) -> BatchNorm;
        fn batch_norm_backward(x: F, gamma: F, grad: F, epsilon: Val[f64]) -> NormGrads;
        fn group_norm_backward(x: F, gamma: F, grad: F, groups: Val[usize], epsilon: Val[f64]) -> NormGrads;
    }
}
