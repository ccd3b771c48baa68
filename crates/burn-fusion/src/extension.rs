//! The hook backend extensions need: leave the lazy world for one operation (run what a tensor
//! depends on and take the executing backend's tensor), and come back with its result.

use crate::ops::read::{ready, upload};
use crate::{FusionBackend, FusionTensor};
use burn_ir::Handle;

impl<B: FusionBackend> FusionTensor<B> {
    /// The executing backend's tensor, after running every queued operation it depends on. For
    /// operations `Fusion<B>` does not know (a backend extension's kernel): run them on `B`,
    /// then [`from_handle`](Self::from_handle) the result.
    pub fn into_handle(self) -> Handle<B> {
        ready(self)
    }

    /// An executing backend's tensor, computed outside the queue, as a `Fusion<B>` tensor on
    /// `device`.
    pub fn from_handle(handle: Handle<B>, device: &B::Device) -> Self {
        upload(handle, device)
    }
}
