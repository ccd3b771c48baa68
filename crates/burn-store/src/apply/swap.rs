//! The last pass of a load: replaces each loaded parameter's value with the one built for
//! it, keeping its id and gradient requirement. Nothing here can fail; lazy parameters are
//! replaced without running their initializer.

use super::build::Built;
use crate::snapshot::PathStack;
use burn_core::module::{Module, ModuleMapper, Param, Parameter};
use burn_core::tensor::{BasicOps, Bool, Int, Tensor};
use std::collections::HashMap;

/// Maps the module, swapping in the built values.
pub(crate) struct Swapper {
    path: PathStack,
    built: HashMap<String, Built>,
}

impl Swapper {
    /// A swapper installing `built` (module path → value).
    pub(crate) fn new(built: HashMap<String, Built>) -> Self {
        Self {
            path: PathStack::default(),
            built,
        }
    }

    fn swap<const D: usize, K: BasicOps>(
        &mut self,
        param: Param<Tensor<D, K>>,
    ) -> Param<Tensor<D, K>>
    where
        Tensor<D, K>: Parameter,
    {
        let key = self.path.current();
        let Some(value) = self.built.remove(&key) else {
            return param;
        };
        let Ok(value) = value.downcast::<Tensor<D, K>>() else {
            return param; // unreachable: the builder saw the same parameter
        };
        let require_grad = param.is_require_grad();
        // The old parameter (and a lazy initializer it holds) is dropped unused.
        let loaded = Param::initialized(param.id, *value);
        if loaded.is_require_grad() == require_grad {
            loaded
        } else {
            loaded.set_require_grad(require_grad)
        }
    }
}

impl ModuleMapper for Swapper {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        self.swap(param)
    }
    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        self.swap(param)
    }
    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        self.swap(param)
    }
}

/// Aborts the process when dropped during unwinding out of [`map_in_place`].
struct AbortOnUnwind;

impl Drop for AbortOnUnwind {
    fn drop(&mut self) {
        std::process::abort();
    }
}

/// Maps `module` through `mapper` in place.
///
/// `Module::map` takes the module by value and `Clone` would run lazy initializers, so the
/// module is moved out and the result written back. Should `map` unwind in between (only a
/// bug can make it: every value was built beforehand), the process aborts rather than leave
/// `module` moved-out.
pub(crate) fn map_in_place<M: Module, Mp: ModuleMapper>(module: &mut M, mapper: &mut Mp) {
    let guard = AbortOnUnwind;
    // SAFETY: `module` is valid for reads and writes and is not observed between the read and
    // the write; if `map` unwinds, `guard` aborts before the moved-out value can be dropped
    // twice or seen.
    unsafe {
        let owned = std::ptr::read(module);
        let mapped = owned.map(mapper);
        std::ptr::write(module, mapped);
    }
    std::mem::forget(guard);
}
