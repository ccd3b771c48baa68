//! The executing backend's tensors, by IR id.

use crate::{TensorId, TensorIr, TensorStatus};
use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor};
use burn_backend::{Backend, TensorMetadata};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A tensor of the executing backend, of any kind.
#[derive(Debug, Clone)]
pub enum Handle<B: Backend> {
    /// A float tensor.
    Float(FloatTensor<B>),
    /// An int tensor.
    Int(IntTensor<B>),
    /// A bool tensor.
    Bool(BoolTensor<B>),
}

impl<B: Backend> Handle<B> {
    /// The tensor's shape and dtype.
    pub fn metadata(&self) -> (burn_backend::Shape, burn_backend::DType) {
        match self {
            Handle::Float(t) => (t.shape(), t.dtype()),
            Handle::Int(t) => (t.shape(), t.dtype()),
            Handle::Bool(t) => (t.shape(), t.dtype()),
        }
    }
}

/// Where operations find their inputs and leave their outputs while a sequence runs: the backend
/// tensors by id, and the device they live on.
///
/// Taking a tensor used [`TensorStatus::ReadWrite`] removes it (its last use: the operation
/// owns the buffer and may reuse it); [`TensorStatus::ReadOnly`] takes a clone.
pub struct ExecutionContext<B: Backend> {
    /// The device the sequence runs on.
    pub device: B::Device,
    handles: Store<B>,
}

/// Where the tensors are kept: by id in a map (ids of a long-lived server), or in a vector
/// indexed by id (a sequence renumbered from 0, such as a captured graph).
enum Store<B: Backend> {
    Map(HashMap<TensorId, Handle<B>, BuildHasherDefault<IdHasher>>),
    Slots(Vec<Option<Handle<B>>>),
}

impl<B: Backend> Store<B> {
    fn get(&self, id: TensorId) -> Option<&Handle<B>> {
        match self {
            Store::Map(map) => map.get(&id),
            Store::Slots(slots) => slots.get(id.0 as usize).and_then(Option::as_ref),
        }
    }

    fn remove(&mut self, id: TensorId) -> Option<Handle<B>> {
        match self {
            Store::Map(map) => map.remove(&id),
            Store::Slots(slots) => slots.get_mut(id.0 as usize).and_then(Option::take),
        }
    }

    fn insert(&mut self, id: TensorId, handle: Handle<B>) {
        match self {
            Store::Map(map) => {
                map.insert(id, handle);
            }
            Store::Slots(slots) => {
                let index = id.0 as usize;
                if index >= slots.len() {
                    slots.resize_with(index + 1, || None);
                }
                slots[index] = Some(handle);
            }
        }
    }
}

macro_rules! kind_access {
    ($take:ident, $insert:ident, $put:ident, $variant:ident, $ty:ident, $kind:literal) => {
        /// Takes the tensor `t` names (removed on its last use, else cloned).
        ///
        /// # Panics
        ///
        /// When the tensor is missing or of another kind: a bookkeeping bug of the recorder.
        pub fn $take(&mut self, t: &TensorIr) -> $ty<B> {
            // The last use of a tensor in a slot: its payload moves straight out of the slot.
            // Through `take`, the tensor would be copied into a `Handle` and then out of it,
            // each copy loading what the previous one had just stored at an 8-byte offset:
            // loads the CPU cannot forward from those stores, the most of a replayed small
            // operation's time.
            if t.status == TensorStatus::ReadWrite
                && let Store::Slots(slots) = &mut self.handles
                && let Some(slot) = slots.get_mut(t.id.0 as usize)
                && let Some(Handle::$variant(x)) = slot
            {
                // SAFETY: the payload is read out once, and the slot is then overwritten with
                // `None` without dropping what it held, so the tensor is owned exactly once.
                let x = unsafe { std::ptr::read(x) };
                unsafe { std::ptr::write(slot, None) };
                return x;
            }
            match self.take(t) {
                Handle::$variant(x) => x,
                other => panic!(
                    "ir: tensor {:?} is not a {} tensor ({:?})",
                    t.id,
                    $kind,
                    other.metadata()
                ),
            }
        }

        /// Stores `tensor` under `id` without checks, built in place in its slot.
        pub fn $insert(&mut self, id: TensorId, tensor: $ty<B>) {
            if let Store::Slots(slots) = &mut self.handles
                && let Some(slot) = slots.get_mut(id.0 as usize)
            {
                *slot = Some(Handle::$variant(tensor));
                return;
            }
            self.handles.insert(id, Handle::$variant(tensor));
        }

        /// Stores the output `out`, checking it has the shape and dtype the IR recorded.
        pub fn $put(&mut self, op: &str, out: &TensorIr, tensor: $ty<B>) {
            self.put_checked(op, out, Handle::$variant(tensor));
        }
    };
}

impl<B: Backend> ExecutionContext<B> {
    /// An empty context on `device`.
    pub fn new(device: B::Device) -> Self {
        Self {
            device,
            handles: Store::Map(HashMap::default()),
        }
    }

    /// An empty context on `device` for a sequence whose ids are dense, from 0 to about `len`
    /// (a captured graph): tensors are kept in a vector indexed by id.
    pub fn with_dense_ids(device: B::Device, len: usize) -> Self {
        let mut slots = Vec::new();
        slots.resize_with(len, || None);
        Self {
            device,
            handles: Store::Slots(slots),
        }
    }

    /// Takes the tensor `t` names, whatever its kind.
    pub fn take(&mut self, t: &TensorIr) -> Handle<B> {
        let found = match t.status {
            TensorStatus::ReadWrite => self.handles.remove(t.id),
            _ => self.handles.get(t.id).cloned(),
        };
        found.unwrap_or_else(|| panic!("ir: tensor {:?} has no data (status {:?})", t.id, t.status))
    }

    kind_access!(
        take_float,
        insert_float,
        put_float,
        Float,
        FloatTensor,
        "float"
    );
    kind_access!(take_int, insert_int, put_int, Int, IntTensor, "int");
    kind_access!(take_bool, insert_bool, put_bool, Bool, BoolTensor, "bool");

    /// Stores an output, checking it against the recorded shape and dtype.
    pub fn put_checked(&mut self, op: &str, out: &TensorIr, handle: Handle<B>) {
        let (shape, dtype) = handle.metadata();
        assert!(
            shape == out.shape && dtype == out.dtype,
            "ir: {op} produced {:?} {dtype:?}, the IR recorded {:?} {:?}",
            shape.dims,
            out.shape.dims,
            out.dtype
        );
        self.handles.insert(out.id, handle);
    }

    /// Stores a tensor under `id` without checks (data uploaded or produced eagerly).
    pub fn insert(&mut self, id: TensorId, handle: Handle<B>) {
        self.handles.insert(id, handle);
    }

    /// The shape and dtype of the tensor stored under `id`.
    pub fn metadata(&self, id: TensorId) -> Option<(burn_backend::Shape, burn_backend::DType)> {
        self.handles.get(id).map(Handle::metadata)
    }

    /// The tensor stored under `id`.
    pub fn get(&self, id: TensorId) -> Option<&Handle<B>> {
        self.handles.get(id)
    }

    /// Forgets the tensor stored under `id`.
    pub fn remove(&mut self, id: TensorId) {
        self.handles.remove(id);
    }
}

/// The hasher of tensor ids: ids are distinct integers, so one multiply spreads them well
/// enough, at a fraction of SipHash's cost (three lookups per executed operation).
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}
