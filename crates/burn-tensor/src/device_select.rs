//! Naming devices: [`DeviceKind`] (which WGPU adapter), [`DeviceIndex`] (which GPU by number),
//! and what [`Device::enumerate`] lists: [`DeviceType`]s gathered in a [`DeviceFilter`], the
//! result a [`Devices`] list.

use crate::{Device, DeviceConfig, DeviceError};

/// Which WGPU adapter `Device::wgpu`, `vulkan`, `metal` and `webgpu` open: the `n`-th adapter
/// of a kind, a CPU-backed one (Mesa's lavapipe), the best one found, or one registered
/// before.
#[derive(Clone, Debug, Hash, PartialEq, Eq, Default)]
pub enum DeviceKind {
    /// The discrete GPU with this index among the machine's discrete GPUs.
    DiscreteGpu(usize),
    /// The integrated GPU with this index among the machine's integrated GPUs.
    IntegratedGpu(usize),
    /// The virtual GPU with this index among the machine's virtual GPUs.
    VirtualGpu(usize),
    /// A CPU-backed adapter (a software rasterizer such as lavapipe).
    Cpu,
    /// The best adapter found: a discrete GPU, else an integrated, a virtual, then a CPU one.
    #[default]
    DefaultDevice,
    /// An adapter already registered with CubeCL's WGPU runtime under this id.
    Existing(u32),
}

/// Which GPU of a backend a constructor opens (`Device::cuda(0)`,
/// `Device::cuda(DeviceIndex::Default)`): a hardware index, or the backend's default.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, Default)]
pub enum DeviceIndex {
    /// The device with this hardware index.
    Specified(usize),
    /// The backend's default device (index 0).
    #[default]
    Default,
}

impl DeviceIndex {
    /// The index `index`.
    pub fn new(index: impl Into<usize>) -> Self {
        Self::Specified(index.into())
    }

    /// The hardware index this names.
    pub fn resolve(self) -> usize {
        match self {
            Self::Specified(index) => index,
            Self::Default => 0,
        }
    }
}

/// Integers convert into a [`DeviceIndex::Specified`]; negative ones panic.
macro_rules! device_index_from {
    ($($ty:ty),*) => {$(
        impl From<$ty> for DeviceIndex {
            fn from(index: $ty) -> Self {
                Self::Specified(usize::try_from(index).unwrap_or_else(|_| {
                    panic!("DeviceIndex: a device index must be non-negative, got {index}")
                }))
            }
        }
    )*};
}

device_index_from!(usize, u32, u64, i32, i64);

/// A backend (or CubeCL runtime) whose devices [`Device::enumerate`] lists; each variant exists
/// when its feature is compiled in. Combine them with `|` into a [`DeviceFilter`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceType {
    /// CubeCL's CPU runtime.
    #[cfg(feature = "cpu")]
    Cpu,
    /// CUDA GPUs.
    #[cfg(feature = "cuda")]
    Cuda,
    /// ROCm (HIP) GPUs.
    #[cfg(feature = "rocm")]
    Rocm,
    /// WGPU adapters, on the graphics API WGPU settles on.
    #[cfg(feature = "wgpu")]
    Wgpu,
    /// WGPU adapters on Metal.
    #[cfg(feature = "metal")]
    Metal,
    /// WGPU adapters on Vulkan.
    #[cfg(feature = "vulkan")]
    Vulkan,
    /// WGPU adapters on WebGPU.
    #[cfg(feature = "webgpu")]
    WebGpu,
    /// The native CPU backend.
    #[cfg(feature = "flex")]
    Flex,
}

/// The [`DeviceType`]s [`Device::enumerate`] lists: one type, a `Vec` of them, or types joined
/// with `|` (`DeviceType::Flex | DeviceType::Wgpu`).
#[derive(Debug, Clone, Default)]
pub struct DeviceFilter(Vec<DeviceType>);

impl DeviceFilter {
    /// A filter that lists nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// This filter with `device_type` added.
    pub fn with(mut self, device_type: DeviceType) -> Self {
        self.0.push(device_type);
        self
    }
}

impl From<DeviceType> for DeviceFilter {
    fn from(device_type: DeviceType) -> Self {
        Self(vec![device_type])
    }
}

impl From<Vec<DeviceType>> for DeviceFilter {
    fn from(device_types: Vec<DeviceType>) -> Self {
        Self(device_types)
    }
}

impl IntoIterator for DeviceFilter {
    type Item = DeviceType;
    type IntoIter = std::vec::IntoIter<DeviceType>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl core::ops::BitOr for DeviceType {
    type Output = DeviceFilter;

    fn bitor(self, rhs: Self) -> DeviceFilter {
        DeviceFilter(vec![self, rhs])
    }
}

impl core::ops::BitOr<DeviceType> for DeviceFilter {
    type Output = DeviceFilter;

    fn bitor(self, rhs: DeviceType) -> DeviceFilter {
        self.with(rhs)
    }
}

/// The devices [`Device::enumerate`] found; derefs to a slice and iterates by value.
#[derive(Debug, Clone)]
pub struct Devices(Vec<Device>);

impl Devices {
    /// Each device with autodiff ([`Device::autodiff`]).
    #[cfg(feature = "autodiff")]
    #[must_use]
    pub fn autodiff(self) -> Self {
        self.0.iter().map(Device::autodiff).collect()
    }

    /// Each device without autodiff ([`Device::without_autodiff`]).
    #[must_use]
    pub fn without_autodiff(self) -> Self {
        self.0.iter().map(Device::without_autodiff).collect()
    }

    /// Configures every device ([`Device::configure`]), stopping at the first refusal.
    pub fn configure(&mut self, config: impl Into<DeviceConfig>) -> Result<(), DeviceError> {
        let config = config.into();
        self.0
            .iter_mut()
            .try_for_each(|device| device.configure(config))
    }

    /// The devices as a `Vec`.
    pub fn into_vec(self) -> Vec<Device> {
        self.0
    }
}

impl FromIterator<Device> for Devices {
    fn from_iter<I: IntoIterator<Item = Device>>(devices: I) -> Self {
        Self(devices.into_iter().collect())
    }
}

impl IntoIterator for Devices {
    type Item = Device;
    type IntoIter = std::vec::IntoIter<Device>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl core::ops::Deref for Devices {
    type Target = [Device];

    fn deref(&self) -> &[Device] {
        &self.0
    }
}

impl Device {
    /// The devices of the backends `filter` names, as this machine has them: Flex's one
    /// device, every CUDA or ROCm GPU, every WGPU adapter (per kind, on the API asked for),
    /// CubeCL's CPU runtime. A runtime without hardware contributes nothing.
    ///
    /// ```
    /// use burn_tensor::{Device, DeviceType};
    /// let flex = Device::enumerate(DeviceType::Flex);
    /// assert_eq!(flex.len(), 1);
    /// ```
    pub fn enumerate(filter: impl Into<DeviceFilter>) -> Devices {
        let mut devices: Vec<Device> = Vec::new();
        for device_type in filter.into() {
            let found = match device_type {
                #[cfg(feature = "flex")]
                DeviceType::Flex => vec![Device::flex()],
                #[cfg(feature = "cube")]
                #[allow(unreachable_patterns)]
                cube => crate::device_cube::enumerate(&cube),
            };
            for device in found {
                if !devices.contains(&device) {
                    devices.push(device);
                }
            }
        }
        Devices(devices)
    }
}
