//! `Batcher`: items to one batch of tensors.

use burn_tensor::Device;

/// Turns a list of items into one batch (usually tensors on `device`).
pub trait Batcher<I, O>: Send + Sync {
    /// The batch of `items`, on `device`.
    fn batch(&self, items: Vec<I>, device: &Device) -> O;
}
