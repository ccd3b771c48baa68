//! `Param`: a module's parameter, with a stable id and lazy initialization.

use super::base::{Module, ModuleMapper, ModuleVisitor};
use super::param_mapper::ParamMapper;
use burn_tensor::{Bool, Device, Float, Int, Shape, Tensor};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// The stable identity of a parameter (optimizer state is keyed by it).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct ParamId(u64);

impl Default for ParamId {
    fn default() -> Self {
        Self::new()
    }
}

impl ParamId {
    /// A fresh id, unique in this process (and, with high probability, across processes).
    pub fn new() -> Self {
        static NEXT: OnceLock<AtomicU64> = OnceLock::new();
        let next = NEXT.get_or_init(|| {
            use std::hash::{BuildHasher, Hasher};
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u64(std::process::id() as u64);
            AtomicU64::new(hasher.finish() >> 16 << 16)
        });
        ParamId(next.fetch_add(1, Ordering::Relaxed))
    }

    /// The id as a number.
    pub fn val(&self) -> u64 {
        self.0
    }
}

impl From<u64> for ParamId {
    fn from(value: u64) -> Self {
        ParamId(value)
    }
}

/// The alphabet of Burn's id strings: RFC 4648 base32 with the extended-hex alphabet in lower
/// case, unpadded (DNSSEC's), over the id's little-endian bytes.
const ID_ALPHABET: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";

impl core::fmt::Display for ParamId {
    /// The 13-character string Burn 0.23 writes for this id.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let bits = u128::from(u64::from_be_bytes(self.0.to_le_bytes())) << 1;
        let text: String = (0..13)
            .rev()
            .map(|i| ID_ALPHABET[((bits >> (5 * i)) & 31) as usize] as char)
            .collect();
        f.write_str(&text)
    }
}

impl core::str::FromStr for ParamId {
    type Err = &'static str;

    /// Reads an id written by [`Display`](core::fmt::Display) (or by Burn 0.23): base32 of up
    /// to 8 little-endian bytes. Burn's older UUID ids are not read.
    fn from_str(encoded: &str) -> Result<Self, Self::Err> {
        const INVALID: &str = "Invalid id.";
        let mut bits: u128 = 0;
        for c in encoded.bytes() {
            let digit = ID_ALPHABET
                .iter()
                .position(|&a| a == c.to_ascii_lowercase())
                .ok_or(INVALID)?;
            bits = (bits << 5) | digit as u128;
        }
        let total_bits = 5 * encoded.len();
        let bytes = total_bits / 8;
        // Base32 lengths that hold whole bytes, with the unused low bits zero.
        let valid_length = matches!(encoded.len() % 8, 0 | 2 | 4 | 5 | 7) && bytes <= 8;
        let spare = total_bits - 8 * bytes;
        if encoded.is_empty() || !valid_length || bits & ((1 << spare) - 1) != 0 {
            return Err(INVALID);
        }
        let mut value = [0u8; 8];
        let big_endian = (bits >> spare).to_be_bytes();
        value[..bytes].copy_from_slice(&big_endian[16 - bytes..]);
        Ok(ParamId(u64::from_le_bytes(value)))
    }
}

/// What a [`Param`] can hold: a tensor ([`Parameter`]) or a module-owned control value
/// ([`Flag`]).
pub trait ParameterValue: Clone + core::fmt::Debug + Send + Sync + 'static {}

/// What a tensor parameter holds: a tensor of any kind, with a device and a shape.
pub trait Parameter: ParameterValue {
    /// The device of the value.
    fn device(&self) -> Device;
    /// The shape of the value.
    fn shape(&self) -> Shape;
    /// The value moved to `device`, cut off from any graph, and a fresh leaf there when
    /// `require_grad` (on an autodiff device).
    fn to_device_leaf(self, device: &Device, require_grad: bool) -> Self;
    /// The value on the inner device (no autodiff).
    fn to_inner(self) -> Self;
    /// The value as a leaf that requires a gradient, or detached.
    fn with_require_grad(self, require_grad: bool) -> Self;
    /// Whether the value requires a gradient (always `false` for int and bool tensors).
    fn is_require_grad(&self) -> bool;
    /// The value requiring a gradient or not (unchanged off autodiff devices).
    fn set_require_grad(self, require_grad: bool) -> Self;
    /// The value moved to `device` for loading: detached from any graph when it moves.
    fn load_to_device(self, device: &Device) -> Self;
}

impl<const D: usize> ParameterValue for Tensor<D, Float> {}

impl<const D: usize> Parameter for Tensor<D, Float> {
    fn device(&self) -> Device {
        Tensor::device(self)
    }
    fn shape(&self) -> Shape {
        Tensor::shape(self)
    }
    fn to_device_leaf(self, device: &Device, require_grad: bool) -> Self {
        let moved = self.detach().to_device(device);
        if require_grad {
            moved.require_grad()
        } else {
            moved
        }
    }
    fn to_inner(self) -> Self {
        self.inner()
    }
    fn with_require_grad(self, require_grad: bool) -> Self {
        if require_grad {
            self.detach().require_grad()
        } else {
            self.detach()
        }
    }
    fn is_require_grad(&self) -> bool {
        Tensor::is_require_grad(self)
    }
    fn set_require_grad(self, require_grad: bool) -> Self {
        Tensor::set_require_grad(self, require_grad)
    }
    fn load_to_device(self, device: &Device) -> Self {
        if Tensor::device(&self) == *device {
            self
        } else {
            self.to_device(device).detach()
        }
    }
}

/// Int and bool parameters never carry gradients.
macro_rules! untracked_parameter {
    ($($kind:ty),*) => {$(
        impl<const D: usize> ParameterValue for Tensor<D, $kind> {}

        impl<const D: usize> Parameter for Tensor<D, $kind> {
            fn device(&self) -> Device {
                Tensor::device(self)
            }
            fn shape(&self) -> Shape {
                Tensor::shape(self)
            }
            fn to_device_leaf(self, device: &Device, _require_grad: bool) -> Self {
                self.to_device(device)
            }
            // Int and bool tensors are the inner device's already.
            fn to_inner(self) -> Self {
                self
            }
            fn with_require_grad(self, _require_grad: bool) -> Self {
                self
            }
            fn is_require_grad(&self) -> bool {
                false
            }
            fn set_require_grad(self, _require_grad: bool) -> Self {
                self
            }
            fn load_to_device(self, device: &Device) -> Self {
                self.to_device(device)
            }
        }
    )*};
}

untracked_parameter!(Int, Bool);

/// Builds a value on `device`, tracked when the flag says so.
type InitFn<T> = Box<dyn FnOnce(&Device, bool) -> T + Send>;

/// How to build a parameter's value on first use.
struct Lazy<T> {
    init: InitFn<T>,
    device: Device,
    shape: Shape,
}

/// A parameter of a module: a value (usually a tensor) with a stable [`ParamId`], whether
/// it requires a gradient, and optionally a lazy initializer that runs on first use (so a
/// model can be built, moved or loaded without computing initial values it will overwrite).
pub struct Param<T: ParameterValue> {
    /// The parameter's identity.
    pub id: ParamId,
    value: OnceLock<T>,
    lazy: Mutex<Option<Lazy<T>>>,
    /// The configured state: for a tensor, whether it requires a gradient; for a [`Flag`],
    /// whether it is enabled in training (a validation copy holds a disabled flag).
    require_grad: bool,
    /// The save and load transformations.
    pub(super) mapper: ParamMapper<T>,
}

impl<T: ParameterValue> Param<T> {
    /// A parameter holding `value` (requiring a gradient as `value` does).
    pub fn initialized(id: ParamId, value: T) -> Self {
        Self {
            id,
            value: OnceLock::from(value),
            lazy: Mutex::new(None),
            require_grad: true,
            mapper: ParamMapper::default(),
        }
    }

    fn lazy(&self) -> std::sync::MutexGuard<'_, Option<Lazy<T>>> {
        self.lazy.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value, initialized on first use.
    fn get(&self) -> &T {
        self.value.get_or_init(|| {
            let lazy = self
                .lazy()
                .take()
                .expect("Param: neither a value nor an initializer");
            (lazy.init)(&lazy.device, self.require_grad)
        })
    }

    /// The value (a cheap clone of the handle).
    pub fn val(&self) -> T {
        self.get().clone()
    }

    /// The value, consuming the parameter.
    pub fn into_value(self) -> T {
        self.get();
        self.value.into_inner().expect("initialized above")
    }

    /// The value as stored (the same as [`val`](Self::val): this framework has no
    /// reparameterizations yet).
    pub fn base(&self) -> T {
        self.val()
    }

    /// The id, the value and the mappers (see [`from_mapped_value`](Self::from_mapped_value)).
    pub fn consume(self) -> (ParamId, T, ParamMapper<T>) {
        let (id, mapper) = (self.id, self.mapper.clone());
        (id, self.into_value(), mapper)
    }

    /// The parameter with `f` applied to its value (same id, configured state and mappers).
    pub fn map<F: FnOnce(T) -> T>(self, f: F) -> Self {
        let require_grad = self.require_grad;
        let (id, value, mapper) = self.consume();
        Self {
            require_grad,
            ..Self::from_mapped_value(id, f(value), mapper)
        }
    }

    /// Whether the value was built already.
    pub fn is_initialized(&self) -> bool {
        self.value.get().is_some()
    }

    /// The configured state (see the field): what `train` applies.
    pub(crate) fn configured_state(&self) -> bool {
        self.require_grad
    }

    /// The parameter with its configured state set (its value unchanged).
    pub(crate) fn configured(mut self, state: bool) -> Self {
        self.require_grad = state;
        self
    }
}

impl<T: Parameter> Param<T> {
    /// A new parameter holding `value`, requiring a gradient (tracked on an autodiff device).
    pub fn from_tensor(value: T) -> Self {
        Self::initialized(ParamId::new(), value.with_require_grad(true))
    }

    /// A parameter built by `init(device, require_grad)` on first use.
    pub fn uninitialized<F: FnOnce(&Device, bool) -> T + Send + Sync + 'static>(
        id: ParamId,
        init: F,
        device: Device,
        require_grad: bool,
        shape: Shape,
    ) -> Self {
        Self {
            id,
            value: OnceLock::new(),
            lazy: Mutex::new(Some(Lazy {
                init: Box::new(init),
                device,
                shape,
            })),
            require_grad,
            mapper: ParamMapper::default(),
        }
    }

    /// The device, without initializing.
    pub fn lazy_device(&self) -> Device {
        match self.value.get() {
            Some(value) => value.device(),
            None => self
                .lazy()
                .as_ref()
                .map(|l| l.device.clone())
                .expect("initializer"),
        }
    }

    /// The shape, without initializing.
    pub fn lazy_shape(&self) -> Shape {
        match self.value.get() {
            Some(value) => value.shape(),
            None => self
                .lazy()
                .as_ref()
                .map(|l| l.shape.clone())
                .expect("initializer"),
        }
    }

    /// Whether the parameter requires a gradient (when on an autodiff device).
    pub fn is_require_grad(&self) -> bool {
        self.require_grad
    }

    /// The parameter with its gradient requirement set.
    pub fn set_require_grad(mut self, require_grad: bool) -> Self {
        self.require_grad = require_grad;
        match self.value.take() {
            Some(value) => {
                self.value = OnceLock::from(value.with_require_grad(require_grad));
                self
            }
            None => self,
        }
    }

    /// The parameter moved to `device`: a fresh leaf there (lazy parameters just change
    /// where they will be built).
    pub fn to_device(mut self, device: &Device) -> Self {
        match self.value.take() {
            Some(value) => {
                self.value = OnceLock::from(value.to_device_leaf(device, self.require_grad));
            }
            None => {
                if let Some(lazy) = self.lazy().as_mut() {
                    lazy.device = device.clone();
                }
            }
        }
        self
    }

    /// The parameter with `value` (moved to this parameter's device) and the id `id`: what
    /// loading a record does. The gradient requirement is kept.
    pub(crate) fn replaced(self, id: ParamId, value: T) -> Self {
        let require_grad = self.require_grad;
        let device = self.lazy_device();
        Self {
            require_grad,
            ..Self::from_mapped_value(
                id,
                value.to_device_leaf(&device, require_grad),
                self.mapper.clone(),
            )
        }
    }

    /// Chains `then` onto the lazy initializer (nothing runs now); `false` when the value is
    /// built already.
    pub(super) fn chain_init(&self, then: impl FnOnce(T) -> T + Send + 'static) -> bool {
        let mut lazy = self.lazy();
        match lazy.take() {
            Some(Lazy {
                init,
                device,
                shape,
            }) => {
                *lazy = Some(Lazy {
                    init: Box::new(move |device, require_grad| then(init(device, require_grad))),
                    device,
                    shape,
                });
                true
            }
            None => false,
        }
    }

    /// The parameter on the inner device (no autodiff); its requirement is kept, so moving
    /// it back to an autodiff device makes it trainable again.
    pub fn to_inner(mut self) -> Self {
        match self.value.take() {
            Some(value) => self.value = OnceLock::from(value.to_inner()),
            None => {
                if let Some(lazy) = self.lazy().as_mut() {
                    lazy.device = lazy.device.inner();
                }
            }
        }
        self
    }
}

impl<const D: usize> Param<Tensor<D, Float>> {
    /// A new parameter holding `data` on `device`, requiring a gradient.
    pub fn from_data<T: Into<burn_tensor::TensorData>>(data: T, device: &Device) -> Self {
        Self::from_tensor(Tensor::from_data(data, device))
    }
}

impl<T: ParameterValue> Clone for Param<T> {
    fn clone(&self) -> Self {
        Self {
            id: self.id,
            value: OnceLock::from(self.val()),
            lazy: Mutex::new(None),
            require_grad: self.require_grad,
            mapper: self.mapper.clone(),
        }
    }
}

impl<T: ParameterValue> core::ops::Deref for Param<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.get()
    }
}

impl<T: Parameter> core::fmt::Debug for Param<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Param")
            .field("id", &self.id)
            .field("shape", &self.lazy_shape().dims)
            .field("device", &self.lazy_device())
            .field("require_grad", &self.require_grad)
            .finish()
    }
}

/// `Module` for parameters of each kind: a leaf of the module tree, shown as
/// `ParamTensor {rank: 2, shape: [4, 3], kind: float}` (with its id when the settings ask).
macro_rules! param_module {
    ($($kind:ty => $visit:ident, $map:ident, $label:literal;)*) => {$(
        impl<const D: usize> super::display::ModuleDisplayDefault for Param<Tensor<D, $kind>> {
            fn content(
                &self,
                content: super::display::Content,
            ) -> Option<super::display::Content> {
                let id = if content.display_settings.show_param_id() {
                    format!(", id: {}", self.id)
                } else {
                    String::new()
                };
                let text = format!(
                    "ParamTensor {{rank: {D}, shape: {:?}, kind: {}{id}}}",
                    self.lazy_shape().dims,
                    $label
                );
                content.add_formatted(&text).optional()
            }
        }

        impl<const D: usize> super::display::ModuleDisplay for Param<Tensor<D, $kind>> {}

        impl<const D: usize> Module for Param<Tensor<D, $kind>> {
            fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
                visitor.$visit(self);
            }
            fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self {
                mapper.$map(self)
            }
        }
    )*};
}

param_module! {
    Float => visit_float, map_float, "float";
    Int => visit_int, map_int, "int";
    Bool => visit_bool, map_bool, "bool";
}
