//! The client of one device's fusion server: the handle tensors keep, shared by every thread.

use crate::FusionBackend;
use crate::server::{Server, StreamId};
use burn_backend::{DeviceId, DeviceOps};
use burn_ir::Handle;
use burn_ir::{OperationIr, TensorId};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

/// What the fusion server of a device has done since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FusionStats {
    /// Queues whose plan came from the cache.
    pub plan_hits: u64,
    /// Queues planned from scratch (then cached).
    pub plan_misses: u64,
    /// Fused executions run.
    pub fused_blocks: u64,
    /// Operations run inside fused executions.
    pub fused_ops: u64,
    /// Operations run alone through the executing backend.
    pub single_ops: u64,
}

impl FusionStats {
    /// The fraction of planned queues that hit the cache (0 when nothing was planned).
    pub fn hit_rate(&self) -> f64 {
        let total = self.plan_hits + self.plan_misses;
        if total == 0 {
            0.0
        } else {
            self.plan_hits as f64 / total as f64
        }
    }
}

/// The fusion statistics of `device` for the backend `B`.
pub fn stats<B: FusionBackend>(device: &B::Device) -> FusionStats {
    FusionClient::<B>::get(device).lock().stats
}

/// The stream of the calling thread.
pub(crate) fn current_stream() -> StreamId {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    thread_local! {
        static STREAM: StreamId = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    STREAM.with(|s| *s)
}

/// One device's server, shared by its tensors.
pub struct FusionClient<B: FusionBackend> {
    /// The device.
    pub(crate) device: B::Device,
    server: Mutex<Server<B>>,
    next_id: AtomicU64,
}

type Registry = HashMap<(TypeId, DeviceId), Arc<dyn Any + Send + Sync>>;

impl<B: FusionBackend> FusionClient<B> {
    /// The client of `device` (created on first use).
    pub(crate) fn get(device: &B::Device) -> Arc<Self> {
        static CLIENTS: OnceLock<Mutex<Registry>> = OnceLock::new();
        let mut clients = CLIENTS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let entry = clients
            .entry((TypeId::of::<B>(), device.id()))
            .or_insert_with(|| {
                Arc::new(FusionClient::<B> {
                    device: device.clone(),
                    server: Mutex::new(Server::new(device.clone(), B::fusers(device))),
                    next_id: AtomicU64::new(0),
                })
            });
        entry
            .clone()
            .downcast::<Self>()
            .expect("the registry is keyed by backend type")
    }

    /// The server, locked (a panic while running a queue does not make it unusable).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Server<B>> {
        self.server.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A fresh tensor id.
    pub(crate) fn new_id(&self) -> TensorId {
        TensorId(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// Queues `op` on the calling thread's stream.
    pub(crate) fn register(&self, op: OperationIr) {
        self.lock().register(current_stream(), op);
    }

    /// Runs `op` now and returns the shape and dtype of each of `outputs`.
    pub(crate) fn execute_now(
        &self,
        op: OperationIr,
        outputs: &[TensorId],
    ) -> Vec<(burn_backend::Shape, burn_backend::DType)> {
        let mut server = self.lock();
        server.execute_now(current_stream(), op);
        outputs
            .iter()
            .map(|id| {
                server
                    .ctx
                    .metadata(*id)
                    .expect("an executed operation stores its outputs")
            })
            .collect()
    }

    /// Stores a tensor produced outside the queue (uploaded data) under a new id.
    pub(crate) fn insert(&self, handle: Handle<B>) -> TensorId {
        let id = self.new_id();
        self.lock().ctx.insert(id, handle);
        id
    }

    /// Runs what `id` depends on, then gives its data to `read` (removing it when `last_use`).
    pub(crate) fn with_ready<R>(
        &self,
        tensor: &burn_ir::TensorIr,
        read: impl FnOnce(Handle<B>) -> R,
    ) -> R {
        let handle = {
            let mut server = self.lock();
            server.drain_tensor(tensor.id);
            server.ctx.take(tensor)
        };
        read(handle)
    }

    /// Runs every queue (of every thread) on this device.
    pub(crate) fn drain_all(&self) {
        self.lock().drain_all();
    }

    /// Forgets a tensor no handle refers to any more.
    pub(crate) fn drop_tensor(&self, id: TensorId) {
        self.lock().drop_tensor(id);
    }
}

impl<B: FusionBackend> core::fmt::Debug for FusionClient<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "FusionClient({:?})", self.device)
    }
}
