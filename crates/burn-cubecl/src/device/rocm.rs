//! ROCm/HIP devices (feature `rocm`; its crates download an LLVM bundle at build time).

use super::{CubeDevice, DeviceUnavailable};

impl CubeDevice {
    /// The AMD GPU at `index`, counting the GPUs HIP reports. Fails when there is none.
    pub fn rocm(index: usize) -> Result<Self, DeviceUnavailable> {
        cubecl::Device::rocm(index).map(Self::from_cubecl)
    }
}
