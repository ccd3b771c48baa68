//! CUDA devices (feature `cuda`; its crates download an LLVM bundle at build time).

use super::{CubeDevice, DeviceUnavailable};

impl CubeDevice {
    /// The CUDA GPU at `index`, counting the GPUs CUDA reports. Fails when there is none.
    pub fn cuda(index: usize) -> Result<Self, DeviceUnavailable> {
        cubecl::Device::cuda(index).map(Self::from_cubecl)
    }
}
