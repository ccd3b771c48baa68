//! WGPU devices (features `wgpu`, `vulkan`, `webgpu`, `metal`).

use super::{CubeDevice, DeviceUnavailable, WgpuDeviceKind};
use std::sync::OnceLock;

impl CubeDevice {
    /// The WGPU device `kind` names, on the graphics API WGPU settles on for this machine.
    /// `DefaultDevice` is the adapter [`CubeDevice::default`] picks (resolved to its kind, so
    /// both are one device with one client). Fails when the machine has no such adapter.
    pub fn wgpu(kind: WgpuDeviceKind) -> Result<Self, DeviceUnavailable> {
        if matches!(kind, WgpuDeviceKind::DefaultDevice)
            && let Some(device) = best_adapter()
        {
            return Ok(device);
        }
        cubecl::Device::wgpu(kind).map(Self::from_cubecl)
    }

    /// The WGPU device `kind` names on Vulkan, kernels compiled to SPIR-V (more dtypes than
    /// WGSL: f16, f64, i64, u8 … as the driver allows). Fails when the adapter is not reachable
    /// through Vulkan.
    #[cfg(feature = "vulkan")]
    pub fn vulkan(kind: WgpuDeviceKind) -> Result<Self, DeviceUnavailable> {
        cubecl::Device::vulkan(kind).map(Self::from_cubecl)
    }

    /// The WGPU device `kind` names on the WebGPU API.
    #[cfg(feature = "webgpu")]
    pub fn webgpu(kind: WgpuDeviceKind) -> Result<Self, DeviceUnavailable> {
        cubecl::Device::webgpu(kind).map(Self::from_cubecl)
    }

    /// The WGPU device `kind` names on Metal, kernels compiled to MSL.
    #[cfg(feature = "metal")]
    pub fn metal(kind: WgpuDeviceKind) -> Result<Self, DeviceUnavailable> {
        cubecl::Device::metal_msl(kind).map(Self::from_cubecl)
    }
}

/// The best WGPU adapter of this machine, resolved once per process: a real GPU if there is one
/// (discrete, then integrated, then virtual), else a CPU-backed adapter such as lavapipe; `None`
/// without any adapter. The kind is resolved rather than left as WGPU's `DefaultDevice`, so the
/// default device and the same adapter named explicitly are one device with one client, and
/// `kind()` is exact.
pub(super) fn best_adapter() -> Option<CubeDevice> {
    static BEST: OnceLock<Option<CubeDevice>> = OnceLock::new();
    BEST.get_or_init(|| {
        let preference = [
            WgpuDeviceKind::DiscreteGpu(0),
            WgpuDeviceKind::IntegratedGpu(0),
            WgpuDeviceKind::VirtualGpu(0),
            WgpuDeviceKind::Cpu,
        ];
        preference
            .into_iter()
            .find_map(|kind| CubeDevice::wgpu(kind).ok())
    })
    .clone()
}
