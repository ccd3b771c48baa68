//! Device identity.

use core::fmt::Debug;

/// A device's identity: which kind of device and which one of that kind.
///
/// Two handles with the same id are the same physical device: they share settings (an
/// autodiff view of a device reports the id of the device it wraps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeviceId {
    /// The kind of device (each backend picks stable values for its kinds).
    pub type_id: u16,
    /// The index among devices of that kind.
    pub index_id: u32,
}

impl DeviceId {
    /// An id from its kind and index.
    pub const fn new(type_id: u16, index_id: u32) -> Self {
        Self { type_id, index_id }
    }
}

/// What kind of hardware a device is (`Device::kind`). Choosing a WGPU adapter is
/// `burn::tensor::DeviceKind`, which names one adapter of a kind by its index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HardwareKind {
    /// The host CPU.
    Cpu,
    /// A discrete GPU.
    DiscreteGpu,
    /// A GPU integrated with the CPU.
    IntegratedGpu,
    /// A software or virtual GPU (e.g. lavapipe).
    VirtualGpu,
}

/// What every backend's device type provides.
pub trait DeviceOps: Clone + Debug + Default + PartialEq + Eq + Send + Sync + 'static {
    /// The device's identity.
    fn id(&self) -> DeviceId;
    /// The kind of hardware (CPU unless a backend on an accelerator says otherwise).
    fn kind(&self) -> HardwareKind {
        HardwareKind::Cpu
    }
}
