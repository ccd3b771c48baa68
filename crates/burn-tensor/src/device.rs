//! `Device`: where tensors live; the value picks the backend at run time.

use burn_backend::{
    Backend, BoolDType, DType, DeviceError, DeviceOps, DeviceSettings, ExecutionError, FloatDType,
    HardwareKind, IntDType, get_device_settings, set_device_settings,
};
use burn_dispatch::{Dispatch, DispatchDevice};
use core::fmt;

/// A device: a CPU core pool (Flex) or an accelerator (Cube). Tensors created with a device
/// run every operation on that device's backend.
///
/// ```
/// use burn_tensor::{Device, Tensor};
/// let device = Device::flex();
/// let x = Tensor::<2>::ones([2, 3], &device);
/// assert_eq!(x.dims(), [2, 3]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Device {
    inner: DispatchDevice,
}

/// The default dtypes a device gives new tensors; see [`Device::configure`]. Built with
/// `DeviceConfig::default().float_dtype(FloatDType::F64)`, or converted from a dtype
/// (`device.configure(FloatDType::F16)`) or a pair (`(FloatDType::F16, IntDType::I32)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeviceConfig {
    /// Default float dtype (`f32` when not set).
    pub float_dtype: Option<FloatDType>,
    /// Default int dtype (`i64` when not set).
    pub int_dtype: Option<IntDType>,
    /// How bools are stored (the device's native form when not set).
    pub bool_dtype: Option<BoolDType>,
}

impl DeviceConfig {
    /// A configuration with the given defaults (`None` keeps the device's).
    pub fn new(
        float_dtype: Option<FloatDType>,
        int_dtype: Option<IntDType>,
        bool_dtype: Option<BoolDType>,
    ) -> Self {
        Self {
            float_dtype,
            int_dtype,
            bool_dtype,
        }
    }

    /// Sets the default float dtype.
    pub fn float_dtype(mut self, dtype: impl Into<FloatDType>) -> Self {
        self.float_dtype = Some(dtype.into());
        self
    }

    /// Sets the default int dtype.
    pub fn int_dtype(mut self, dtype: impl Into<IntDType>) -> Self {
        self.int_dtype = Some(dtype.into());
        self
    }

    /// Sets how bools are stored.
    pub fn bool_dtype(mut self, dtype: impl Into<BoolDType>) -> Self {
        self.bool_dtype = Some(dtype.into());
        self
    }
}

impl From<FloatDType> for DeviceConfig {
    fn from(dtype: FloatDType) -> Self {
        Self::default().float_dtype(dtype)
    }
}

impl From<IntDType> for DeviceConfig {
    fn from(dtype: IntDType) -> Self {
        Self::default().int_dtype(dtype)
    }
}

impl From<BoolDType> for DeviceConfig {
    fn from(dtype: BoolDType) -> Self {
        Self::default().bool_dtype(dtype)
    }
}

impl From<(FloatDType, IntDType)> for DeviceConfig {
    fn from((float, int): (FloatDType, IntDType)) -> Self {
        Self::default().float_dtype(float).int_dtype(int)
    }
}

impl AsRef<DispatchDevice> for Device {
    fn as_ref(&self) -> &DispatchDevice {
        &self.inner
    }
}

impl Device {
    /// The native CPU device (Flex).
    #[cfg(feature = "flex")]
    pub fn flex() -> Self {
        Self::from_dispatch(DispatchDevice::flex())
    }

    /// A device from its dispatch-level value.
    pub fn from_dispatch(inner: DispatchDevice) -> Self {
        Self { inner }
    }

    /// A device from anything that converts into its dispatch-level value (Burn's
    /// constructor; the same as [`from_dispatch`](Self::from_dispatch)).
    pub fn new(device: impl Into<DispatchDevice>) -> Self {
        Self::from_dispatch(device.into())
    }

    /// The dispatch-level value (for backend extensions).
    pub fn dispatch(&self) -> &DispatchDevice {
        &self.inner
    }

    /// The dispatch-level value (Burn's name for [`dispatch`](Self::dispatch)).
    pub fn as_dispatch(&self) -> &DispatchDevice {
        &self.inner
    }

    /// Sets the default dtypes, once, before the device's first tensor. Later calls return
    /// [`DeviceError::AlreadyInitialized`] and change nothing.
    pub fn configure(&mut self, config: impl Into<DeviceConfig>) -> Result<(), DeviceError> {
        let config = config.into();
        let defaults = Dispatch::default_settings(&self.inner);
        let settings = DeviceSettings {
            float_dtype: config.float_dtype.unwrap_or(defaults.float_dtype),
            int_dtype: config.int_dtype.unwrap_or(defaults.int_dtype),
            bool_dtype: config
                .bool_dtype
                .map(DType::Bool)
                .unwrap_or(defaults.bool_dtype),
            quantization: defaults.quantization,
        };
        set_device_settings::<Dispatch>(&self.inner, settings)
    }

    /// The settings in force (this locks them, as creating a tensor does).
    pub fn settings(&self) -> DeviceSettings {
        get_device_settings::<Dispatch>(&self.inner)
    }

    /// Whether the device can hold tensors of `dtype` (a `DType`, `FloatDType` or `IntDType`).
    pub fn supports_dtype(&self, dtype: impl Into<DType>) -> bool {
        Dispatch::supports_dtype(&self.inner, dtype.into())
    }

    /// Seeds the device's random generator.
    pub fn seed(&self, seed: u64) {
        Dispatch::seed(&self.inner, seed)
    }

    /// Waits for the device's queued work; reports a deferred execution error.
    pub fn sync(&self) -> Result<(), ExecutionError> {
        Dispatch::sync(&self.inner)
    }

    /// Submits queued work without waiting. Never fails here (execution errors surface at the
    /// next `sync` or read); the `Result` is Burn's signature.
    pub fn flush(&self) -> Result<(), ExecutionError> {
        Dispatch::flush(&self.inner);
        Ok(())
    }

    /// Releases cached memory no tensor uses.
    pub fn memory_cleanup(&self) {
        Dispatch::memory_cleanup(&self.inner)
    }

    /// The kind of hardware.
    pub fn kind(&self) -> HardwareKind {
        self.inner.kind()
    }

    /// The backend's name for this device (e.g. `"flex(flex)"`).
    pub fn name(&self) -> String {
        Dispatch::name(&self.inner)
    }
}

impl Device {
    /// This device with autodiff: float tensors created on it can be tracked
    /// (`require_grad`), and operations on tracked tensors record backward steps. Keeps the
    /// checkpointing strategy of an autodiff device; shares the settings of the inner device.
    #[cfg(feature = "autodiff")]
    pub fn autodiff(&self) -> Device {
        match self.inner.checkpointing() {
            Some(_) => self.clone(),
            None => Self::from_dispatch(DispatchDevice::autodiff(self.inner.clone())),
        }
    }

    /// This device with autodiff and balanced gradient checkpointing: the results of
    /// memory-bound operations are recomputed during the backward pass instead of kept.
    #[cfg(feature = "autodiff")]
    pub fn gradient_checkpointing(&self) -> Device {
        Self::from_dispatch(DispatchDevice::autodiff_checkpointed(
            self.inner.clone(),
            burn_dispatch::GradientCheckpointingStrategy::Balanced,
        ))
    }

    /// The checkpointing strategy of an autodiff device, `None` for a plain device.
    pub fn gradient_checkpointing_strategy(&self) -> Option<crate::GradientCheckpointingStrategy> {
        self.inner.checkpointing()
    }

    /// Whether float tensors created on this device can be tracked.
    pub fn is_autodiff(&self) -> bool {
        self.inner.is_autodiff()
    }

    /// This device without autodiff.
    pub fn inner(&self) -> Device {
        Self::from_dispatch(self.inner.clone().inner())
    }

    /// This device without autodiff: tensors created on it are never tracked (inference). The
    /// same as [`inner`](Self::inner); borrows the device as `autodiff` does (see
    /// API_DIFFERENCES.md).
    pub fn without_autodiff(&self) -> Device {
        self.inner()
    }
}

impl Default for Device {
    /// The device `BURN_DEVICE` names, else the first compiled backend of the catalog.
    fn default() -> Self {
        Self::from_dispatch(DispatchDevice::default())
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl From<DispatchDevice> for Device {
    fn from(inner: DispatchDevice) -> Self {
        Self::from_dispatch(inner)
    }
}

impl From<&Device> for Device {
    fn from(device: &Device) -> Self {
        device.clone()
    }
}
