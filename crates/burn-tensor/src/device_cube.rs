//! Devices of the CubeCL backend (`Cube`): one constructor per runtime, each behind its feature.
//!
//! The infallible constructors panic with the reason when the machine lacks the device; the
//! `try_` forms return it as a [`DeviceUnavailable`] error.

use crate::Device;
#[cfg(feature = "wgpu")]
use crate::DeviceKind;
use burn_dispatch::DispatchDevice;
use burn_dispatch::burn_cubecl::CubeDevice;
#[cfg(feature = "wgpu")]
use burn_dispatch::burn_cubecl::WgpuDeviceKind;

/// Why a device could not be opened: the runtime is not compiled in, or the machine has no
/// such device.
pub use burn_dispatch::burn_cubecl::DeviceUnavailable;

impl Device {
    /// A device of the CubeCL backend, from its backend-level value.
    pub fn cube(device: CubeDevice) -> Self {
        Self::from_dispatch(DispatchDevice::Cube(device))
    }

    /// The best accelerator the CubeCL backend finds (with WGPU: a discrete GPU, else an
    /// integrated one, a virtual one, then a software adapter such as lavapipe).
    pub fn cube_default() -> Self {
        Self::cube(CubeDevice::default())
    }

    /// The first WGPU adapter of `kind` (`DeviceKind::Cpu` names a software adapter such as
    /// Mesa's lavapipe), on the graphics API WGPU settles on.
    ///
    /// # Panics
    ///
    /// When the machine has no such adapter; see [`try_wgpu`](Self::try_wgpu).
    #[cfg(feature = "wgpu")]
    pub fn wgpu(kind: DeviceKind) -> Self {
        Self::try_wgpu(kind.clone()).unwrap_or_else(|err| panic!("Device::wgpu({kind:?}): {err}"))
    }

    /// [`wgpu`](Self::wgpu), returning why the adapter is unavailable instead of panicking.
    #[cfg(feature = "wgpu")]
    pub fn try_wgpu(kind: DeviceKind) -> Result<Self, DeviceUnavailable> {
        CubeDevice::wgpu(wgpu_kind(kind)).map(Self::cube)
    }

    /// The first WGPU adapter of `kind` reached through Vulkan (kernels compiled to SPIR-V).
    ///
    /// # Panics
    ///
    /// When the machine has no such Vulkan adapter; see [`try_vulkan`](Self::try_vulkan).
    #[cfg(feature = "vulkan")]
    pub fn vulkan(kind: DeviceKind) -> Self {
        Self::try_vulkan(kind.clone())
            .unwrap_or_else(|err| panic!("Device::vulkan({kind:?}): {err}"))
    }

    /// [`vulkan`](Self::vulkan), returning why the adapter is unavailable instead of panicking.
    #[cfg(feature = "vulkan")]
    pub fn try_vulkan(kind: DeviceKind) -> Result<Self, DeviceUnavailable> {
        CubeDevice::vulkan(wgpu_kind(kind)).map(Self::cube)
    }

    /// CUDA GPU number `index`.
    ///
    /// # Panics
    ///
    /// When the machine has no such GPU; see [`try_cuda`](Self::try_cuda).
    #[cfg(feature = "cuda")]
    pub fn cuda(index: impl Into<crate::DeviceIndex>) -> Self {
        let index = index.into().resolve();
        Self::try_cuda(index).unwrap_or_else(|err| panic!("Device::cuda({index}): {err}"))
    }

    /// [`cuda`](Self::cuda), returning why the GPU is unavailable instead of panicking.
    #[cfg(feature = "cuda")]
    pub fn try_cuda(index: usize) -> Result<Self, DeviceUnavailable> {
        CubeDevice::cuda(index).map(Self::cube)
    }

    /// ROCm (HIP) GPU number `index`.
    ///
    /// # Panics
    ///
    /// When the machine has no such GPU; see [`try_rocm`](Self::try_rocm).
    #[cfg(feature = "rocm")]
    pub fn rocm(index: impl Into<crate::DeviceIndex>) -> Self {
        let index = index.into().resolve();
        Self::try_rocm(index).unwrap_or_else(|err| panic!("Device::rocm({index}): {err}"))
    }

    /// [`rocm`](Self::rocm), returning why the GPU is unavailable instead of panicking.
    #[cfg(feature = "rocm")]
    pub fn try_rocm(index: usize) -> Result<Self, DeviceUnavailable> {
        CubeDevice::rocm(index).map(Self::cube)
    }

    /// The host CPU through CubeCL's CPU runtime (MLIR/LLVM-compiled kernels). The native CPU
    /// backend is [`Device::flex`].
    ///
    /// # Panics
    ///
    /// When the runtime cannot start; see [`try_cpu`](Self::try_cpu).
    #[cfg(feature = "cpu")]
    pub fn cpu() -> Self {
        Self::try_cpu().unwrap_or_else(|err| panic!("Device::cpu(): {err}"))
    }

    /// [`cpu`](Self::cpu), returning why the runtime is unavailable instead of panicking.
    #[cfg(feature = "cpu")]
    pub fn try_cpu() -> Result<Self, DeviceUnavailable> {
        CubeDevice::cpu().map(Self::cube)
    }
}

/// The WGPU adapter a [`DeviceKind`] names.
#[cfg(feature = "wgpu")]
fn wgpu_kind(kind: DeviceKind) -> WgpuDeviceKind {
    match kind {
        DeviceKind::DiscreteGpu(index) => WgpuDeviceKind::DiscreteGpu(index),
        DeviceKind::IntegratedGpu(index) => WgpuDeviceKind::IntegratedGpu(index),
        DeviceKind::VirtualGpu(index) => WgpuDeviceKind::VirtualGpu(index),
        DeviceKind::Cpu => WgpuDeviceKind::Cpu,
        DeviceKind::DefaultDevice => WgpuDeviceKind::DefaultDevice,
        DeviceKind::Existing(id) => WgpuDeviceKind::Existing(id),
    }
}

/// The devices of one CubeCL runtime that this machine has ([`Device::enumerate`]). GPUs are
/// probed by index until one is missing (at most [`MAX_PROBED`] per kind).
pub(crate) fn enumerate(device_type: &crate::DeviceType) -> Vec<Device> {
    use crate::DeviceType;
    #[allow(unused)]
    let by_index = |open: &dyn Fn(usize) -> Result<Device, DeviceUnavailable>| {
        (0..MAX_PROBED)
            .map_while(|index| open(index).ok())
            .collect::<Vec<_>>()
    };
    #[cfg(feature = "wgpu")]
    #[allow(unused)]
    let adapters = |open: &dyn Fn(WgpuDeviceKind) -> Result<CubeDevice, DeviceUnavailable>| {
        let kinds: [fn(usize) -> WgpuDeviceKind; 3] = [
            WgpuDeviceKind::DiscreteGpu,
            WgpuDeviceKind::IntegratedGpu,
            WgpuDeviceKind::VirtualGpu,
        ];
        let mut found: Vec<Device> = kinds
            .into_iter()
            .flat_map(|kind| by_index(&|index| open(kind(index)).map(Device::cube)))
            .collect();
        found.extend(open(WgpuDeviceKind::Cpu).map(Device::cube));
        found
    };
    match device_type {
        #[cfg(feature = "cpu")]
        DeviceType::Cpu => Device::try_cpu().into_iter().collect(),
        #[cfg(feature = "cuda")]
        DeviceType::Cuda => by_index(&Device::try_cuda),
        #[cfg(feature = "rocm")]
        DeviceType::Rocm => by_index(&Device::try_rocm),
        #[cfg(feature = "wgpu")]
        DeviceType::Wgpu => adapters(&CubeDevice::wgpu),
        #[cfg(feature = "vulkan")]
        DeviceType::Vulkan => adapters(&CubeDevice::vulkan),
        #[cfg(feature = "metal")]
        DeviceType::Metal => adapters(&CubeDevice::metal),
        #[cfg(feature = "webgpu")]
        DeviceType::WebGpu => adapters(&CubeDevice::webgpu),
        #[allow(unreachable_patterns)]
        _ => Vec::new(),
    }
}

/// The most GPUs of one kind [`enumerate`] probes.
const MAX_PROBED: usize = 16;
