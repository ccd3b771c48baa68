//! `RunningState`: a statistic a layer updates during its forward pass (batch norm's running
//! mean and variance), held as a parameter that never requires a gradient so that the module
//! visitor, and so the weight files, see it like any other parameter.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param, ParamId, Parameter};
use burn::tensor::{Device, Shape, Tensor};
use std::sync::{Arc, Mutex, MutexGuard};

/// A parameter a layer writes from `forward(&self)`: visited as a float parameter (with a
/// stable id, saved and loaded with the weights), never tracked by autodiff. Clones are
/// independent copies.
pub struct RunningState<T: Parameter> {
    param: Arc<Mutex<Param<T>>>,
}

impl<const D: usize> RunningState<Tensor<D>> {
    /// A state holding `value`.
    pub fn new(value: Tensor<D>) -> Self {
        Self::from_param(Param::initialized(ParamId::new(), value))
    }

    /// A state holding `value` under the id `id` (what loading a saved state uses).
    pub fn with_id(id: ParamId, value: Tensor<D>) -> Self {
        Self::from_param(Param::initialized(id, value))
    }

    /// A state filled with `value` on first use (lazy, like the initializers).
    pub fn full<S: Into<Shape>>(shape: S, value: f64, device: &Device) -> Self {
        let shape: Shape = shape.into();
        let lazy_shape = shape.clone();
        Self::from_param(Param::uninitialized(
            ParamId::new(),
            move |device, _| Tensor::full(shape, value, device),
            device.clone(),
            false,
            lazy_shape,
        ))
    }

    /// The state over `param`, which stops requiring a gradient.
    pub fn from_param(param: Param<Tensor<D>>) -> Self {
        Self {
            param: Arc::new(Mutex::new(param.set_require_grad(false))),
        }
    }

    /// Burn's name for [`from_param`](Self::from_param): the state over a loaded parameter.
    pub fn from_record(record: Param<Tensor<D>>) -> Self {
        Self::from_param(record)
    }

    /// The current value (untracked).
    pub fn value(&self) -> Tensor<D> {
        self.lock().val()
    }

    /// The current value; the same as [`value`](Self::value) on one device (Burn's name for
    /// the read that synchronizes replicas; there is one state here).
    pub fn value_sync(&self) -> Tensor<D> {
        self.value()
    }

    /// Replaces the value (detached from any graph), keeping the id.
    pub fn update(&self, value: Tensor<D>) {
        let mut param = self.lock();
        *param = Param::initialized(param.id, value).set_require_grad(false);
    }

    /// The parameter's id.
    pub fn id(&self) -> ParamId {
        self.lock().id
    }

    /// The state as a parameter.
    pub fn into_param(self) -> Param<Tensor<D>> {
        match Arc::try_unwrap(self.param) {
            Ok(mutex) => mutex.into_inner().unwrap_or_else(|e| e.into_inner()),
            Err(shared) => shared.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }
}

impl<T: Parameter> RunningState<T> {
    fn lock(&self) -> MutexGuard<'_, Param<T>> {
        self.param.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<T: Parameter> Clone for RunningState<T> {
    fn clone(&self) -> Self {
        Self {
            param: Arc::new(Mutex::new(self.lock().clone())),
        }
    }
}

impl<T: Parameter> core::fmt::Debug for RunningState<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("RunningState").field(&*self.lock()).finish()
    }
}

impl<T: Parameter> core::fmt::Display for RunningState<T> {
    /// `RunningState(id=…)`, with the id as [`ParamId`] prints it.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RunningState(id={})", self.lock().id)
    }
}

impl<const D: usize> Module for RunningState<Tensor<D>> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        visitor.visit_float(&*self.lock());
    }

    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self {
        Self::from_param(mapper.map_float(self.into_param()))
    }
}

impl<T: Parameter> burn::module::ModuleDisplayDefault for RunningState<T> {
    fn content(&self, content: burn::module::Content) -> Option<burn::module::Content> {
        content.add_formatted(&"RunningState").optional()
    }
}

impl<T: Parameter> burn::module::ModuleDisplay for RunningState<T> {}
