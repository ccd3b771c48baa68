//! `CubeDevice`: one device type for every CubeCL runtime.
//!
//! The value names both the runtime (WGPU, CUDA, ROCm, CPU) and the device on it, so a single
//! backend type serves all of them. Constructors that probe the machine live in one thin file per
//! runtime feature; this file holds what every build has.

#[cfg(feature = "cpu")]
mod cpu;
#[cfg(feature = "cuda")]
mod cuda;
#[cfg(feature = "rocm")]
mod rocm;
#[cfg(feature = "wgpu")]
mod wgpu;

use burn_backend::{DeviceId, DeviceOps, HardwareKind};
use core::fmt;
use cubecl::client::Client;

pub use cubecl::device::{DeviceUnavailable, RuntimeId, WgpuBackend, WgpuDevice, WgpuDeviceKind};

/// A device of one of CubeCL's runtimes.
///
/// Two values are the same device exactly when they are equal; the same adapter reached through
/// two graphics APIs (say Vulkan and the automatic choice) is two devices, each with its own
/// client. Build one with [`CubeDevice::default`] or a named constructor (`wgpu`, `vulkan`,
/// `cuda`, `rocm`, `cpu`, each behind its feature), which checks the machine has it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CubeDevice {
    inner: cubecl::Device,
}

impl CubeDevice {
    /// Wraps a CubeCL device as it is, without asking the machine whether it exists.
    pub fn from_cubecl(inner: cubecl::Device) -> Self {
        Self { inner }
    }

    /// The CubeCL device this wraps.
    pub fn as_cubecl(&self) -> &cubecl::Device {
        &self.inner
    }

    /// The runtime this device belongs to.
    pub fn runtime(&self) -> RuntimeId {
        self.inner.runtime()
    }

    /// The compute client of this device, created on first use and shared afterwards.
    ///
    /// # Panics
    ///
    /// When this build does not link the device's runtime, or the machine lacks the device
    /// (the named constructors check this up front).
    pub fn client(&self) -> Client {
        self.inner.client()
    }
}

impl From<cubecl::Device> for CubeDevice {
    fn from(inner: cubecl::Device) -> Self {
        Self::from_cubecl(inner)
    }
}

impl fmt::Debug for CubeDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CubeDevice({:?})", self.inner)
    }
}

impl Default for CubeDevice {
    /// The first device present among the compiled runtimes, in Burn's order: CUDA GPU 0, ROCm
    /// GPU 0, the best WGPU adapter (discrete, integrated, virtual GPU, then a CPU-backed
    /// adapter such as lavapipe, on the graphics API WGPU settles on), then CubeCL's CPU
    /// runtime. With none present, the last compiled runtime's device, whose client reports
    /// why it cannot start. Resolved once per process.
    fn default() -> Self {
        static DEFAULT: std::sync::OnceLock<CubeDevice> = std::sync::OnceLock::new();
        DEFAULT.get_or_init(first_present).clone()
    }
}

/// See [`CubeDevice::default`].
fn first_present() -> CubeDevice {
    #[cfg(feature = "cuda")]
    if let Ok(device) = CubeDevice::cuda(0) {
        return device;
    }
    #[cfg(feature = "rocm")]
    if let Ok(device) = CubeDevice::rocm(0) {
        return device;
    }
    #[cfg(feature = "wgpu")]
    if let Some(device) = wgpu::best_adapter() {
        return device;
    }
    #[cfg(feature = "cpu")]
    if let Ok(device) = CubeDevice::cpu() {
        return device;
    }
    #[cfg(any(feature = "cuda", feature = "rocm", feature = "cpu"))]
    {
        CubeDevice::from_cubecl(cubecl::Device::default())
    }
    // WGPU only (no adapter at all), or no runtime linked: a WGPU value, whose client reports
    // the failure.
    #[cfg(not(any(feature = "cuda", feature = "rocm", feature = "cpu")))]
    {
        CubeDevice::from_cubecl(cubecl::Device::Wgpu(WgpuDevice::default()))
    }
}

impl DeviceOps for CubeDevice {
    /// CubeCL's id: the runtime in bits 5–7 of the type id, the runtime's own device type in
    /// bits 0–4 (so ids of two runtimes never collide), the index as given by the runtime.
    fn id(&self) -> DeviceId {
        let id = self.inner.to_id();
        DeviceId::new(id.type_id, u32::from(id.index_id))
    }

    fn kind(&self) -> HardwareKind {
        match &self.inner {
            cubecl::Device::Wgpu(device) => wgpu_kind(&device.kind),
            cubecl::Device::Cuda(_) | cubecl::Device::Hip(_) => HardwareKind::DiscreteGpu,
            cubecl::Device::Metal(_) => HardwareKind::IntegratedGpu,
            cubecl::Device::Cpu(_) => HardwareKind::Cpu,
            // `cubecl::Device` is non-exhaustive; a new runtime is most likely an accelerator.
            _ => HardwareKind::DiscreteGpu,
        }
    }
}

/// The hardware kind a WGPU device kind names. A CPU-backed adapter (lavapipe, llvmpipe, WARP)
/// is a software GPU. `DefaultDevice` only occurs for a device built from a raw CubeCL value
/// ([`CubeDevice::default`] resolves it); it is reported as the high-performance adapter WGPU
/// asks for.
fn wgpu_kind(kind: &WgpuDeviceKind) -> HardwareKind {
    match kind {
        WgpuDeviceKind::DiscreteGpu(_) | WgpuDeviceKind::DefaultDevice => HardwareKind::DiscreteGpu,
        WgpuDeviceKind::IntegratedGpu(_) => HardwareKind::IntegratedGpu,
        WgpuDeviceKind::VirtualGpu(_) | WgpuDeviceKind::Cpu => HardwareKind::VirtualGpu,
        WgpuDeviceKind::Existing(_) | WgpuDeviceKind::Other(_) => HardwareKind::DiscreteGpu,
    }
}
