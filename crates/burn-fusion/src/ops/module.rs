//! `ModuleOps` and `ActivationOps` for `Fusion<B>`.

use super::prelude::*;
use burn_ir::Handle;

impl<B: FusionBackend> ModuleOps<Self> for Fusion<B> {
    burn_ir::module_operations!(fusion_methods, decomposed);

    /// Runs at once (output shape from the backend), not recorded.
    fn max_pool2d_with_indices(
        x: FusionTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> MaxPool2dWithIndices<Self> {
        let device = x.client.device.clone();
        let Handle::Float(x) = super::read::ready(x) else {
            panic!("max_pool2d_with_indices: expected a float tensor");
        };
        let pooled =
            B::max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode);
        MaxPool2dWithIndices {
            output: super::read::upload(Handle::Float(pooled.output), &device),
            indices: super::read::upload(Handle::Int(pooled.indices), &device),
        }
    }
}

impl<B: FusionBackend> ActivationOps<Self> for Fusion<B> {
    burn_ir::activation_operations!(fusion_methods, decomposed);
}
