//! The CubeCL CPU runtime (feature `cpu`; MLIR/LLVM, downloaded at build time).

use super::{CubeDevice, DeviceUnavailable};

impl CubeDevice {
    /// The host CPU through CubeCL's CPU runtime (kernels compiled by LLVM).
    pub fn cpu() -> Result<Self, DeviceUnavailable> {
        cubecl::Device::cpu().map(Self::from_cubecl)
    }
}
