//! Which backend runs a backend-extension call: the route key built from the inputs, and
//! the run-time errors.

use super::types::TensorVisit;
use crate::{Dispatch, DispatchTensor, GradientCheckpointingStrategy};

/// What decides where one extension call runs: the catalog entry of its representative input
/// (the first float tensor, else the first tensor of another kind), the checkpointing strategy
/// of its first float input from an autodiff device, and whether any input is tracked.
#[derive(Debug, Clone, Copy)]
pub struct RouteKey {
    op: &'static str,
    backend: &'static str,
    strategy: Option<GradientCheckpointingStrategy>,
    tracked: bool,
    autodiff_selected: bool,
}

impl RouteKey {
    /// The operation (`Trait::method`).
    pub fn op(&self) -> &'static str {
        self.op
    }

    /// The catalog entry's name (`Flex`).
    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// The checkpointing strategy when a float input comes from an autodiff device.
    pub fn strategy(&self) -> Option<GradientCheckpointingStrategy> {
        self.strategy
    }

    /// Panics when an input is tracked: the call is about to run without autodiff.
    pub fn expect_untracked(&self) {
        if self.tracked {
            let why = if self.autodiff_selected {
                "its cfg gate is off in the crate defining the extension"
            } else {
                "it is not among the selectors of #[backend_extension(..)]"
            };
            panic!(
                "{}: an input is tracked for autodiff, but `Autodiff` cannot route it ({why}); \
                 select `Autodiff` and implement the trait for `Autodiff<B, C>`, or detach the \
                 inputs",
                self.op
            );
        }
    }
}

/// Builds a [`RouteKey`] by visiting the inputs.
#[derive(Debug)]
pub struct Route {
    op: &'static str,
    float: Option<&'static str>,
    any: Option<&'static str>,
    strategy: Option<GradientCheckpointingStrategy>,
    tracked: bool,
    autodiff_selected: bool,
}

impl Route {
    /// A route for operation `op` (`Trait::method`); `autodiff_selected` says whether the
    /// extension selects `Autodiff` (for messages).
    pub fn new(op: &'static str, autodiff_selected: bool) -> Self {
        Self {
            op,
            float: None,
            any: None,
            strategy: None,
            tracked: false,
            autodiff_selected,
        }
    }

    /// The key.
    ///
    /// # Panics
    ///
    /// When no input held a tensor.
    pub fn finish(&self) -> RouteKey {
        let Some(backend) = self.float.or(self.any) else {
            panic!(
                "{}: no tensor among the inputs, so no backend to run on (an enum variant \
                 without a tensor holds none); pass at least one tensor",
                self.op
            );
        };
        RouteKey {
            op: self.op,
            backend,
            strategy: self.strategy,
            tracked: self.tracked,
            autodiff_selected: self.autodiff_selected,
        }
    }

    fn any(&mut self, tensor: &DispatchTensor) {
        self.any.get_or_insert(tensor.backend_name());
    }
}

impl TensorVisit<Dispatch> for Route {
    fn float(&mut self, tensor: &DispatchTensor) {
        self.float.get_or_insert(tensor.backend_name());
        if self.strategy.is_none() {
            self.strategy = tensor.checkpointing();
        }
        self.tracked |= tensor.is_tracked();
    }
    fn int(&mut self, tensor: &DispatchTensor) {
        self.any(tensor);
    }
    fn bool(&mut self, tensor: &DispatchTensor) {
        self.any(tensor);
    }
    fn quantized(&mut self, tensor: &DispatchTensor) {
        self.any(tensor);
    }
}

/// The error of a call whose backend no selector routes: names the operation, the backend and
/// the selectors (`listed`: each name and whether its cfg gate is on).
pub fn unsupported(key: RouteKey, listed: &[(&str, bool)]) -> ! {
    if listed.iter().any(|&(name, on)| name == key.backend && !on) {
        panic!(
            "{}: the `{}` selector's cfg gate is off in the crate defining the extension, so \
             the operation cannot run on a {} tensor",
            key.op, key.backend, key.backend
        );
    }
    let names: Vec<&str> = listed.iter().filter(|l| l.1).map(|l| l.0).collect();
    panic!(
        "{} is not implemented for the {} backend: its #[backend_extension(..)] selects {}",
        key.op,
        key.backend,
        if names.is_empty() {
            "no compiled backend".to_string()
        } else {
            names.join(", ")
        }
    );
}

/// The error of a call without tensor inputs whose only backend is not compiled in (or its
/// cfg gate is off).
pub fn not_compiled(op: &str, backend: &str) -> ! {
    panic!(
        "{op}: its only backend, {backend}, is not compiled in (enable it in burn's features) or \
         its selector's cfg gate is off"
    );
}
