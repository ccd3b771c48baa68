//! The first pass of a load: checks every parameter against the file (key, kind, dtype,
//! shape) without touching the module or initializing lazy parameters.
//!
//! The dtype a parameter is loaded in: quantized data keeps its scheme (a float parameter
//! becomes quantized); plain data converts to the parameter's dtype, and for a quantized
//! parameter is quantized again with the parameter's scheme.

use crate::StoreError;
use crate::quantized::check_quantized_bytes;
use crate::snapshot::PathStack;
use crate::source::{Remapped, SourceTensor};
use burn_core::module::{ModuleVisitor, Param, Parameter};
use burn_core::tensor::quantization::QuantScheme;
use burn_core::tensor::{BasicOps, Bool, DType, Device, Int, Tensor};

/// How one parameter will be loaded.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// The module path (also the remapped key of its tensor).
    pub(crate) key: String,
    /// The dtype the tensor is built in: the stored one for quantized data, else the one the
    /// parameter holds (the device default for its kind when still lazy, or the default
    /// float dtype when the parameter is quantized).
    pub(crate) dtype: DType,
    /// The scheme to quantize the built tensor with: the parameter's, when it is quantized
    /// and the stored data is not.
    pub(crate) requantize: Option<QuantScheme>,
    /// Where the parameter lives (or will be built).
    pub(crate) device: Device,
    /// Whether the parameter requires a gradient.
    pub(crate) require_grad: bool,
}

/// The outcome of a successful check.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// The parameters to load, in visiting order.
    pub(crate) plans: Vec<Plan>,
    /// The module paths without a tensor (allowed: the load is partial).
    pub(crate) missing: Vec<String>,
}

/// Visits the module and checks each parameter against the remapped file.
pub(crate) struct Planner<'s, 'a> {
    source: &'s Remapped<'a>,
    path: PathStack,
    visited: usize,
    plans: Vec<Plan>,
    /// Module paths without a tensor, with their visiting index.
    missing: Vec<(usize, String)>,
    /// The first other problem, with its visiting index.
    error: Option<(usize, StoreError)>,
}

impl<'s, 'a> Planner<'s, 'a> {
    /// A planner matching parameters to `source`.
    pub(crate) fn new(source: &'s Remapped<'a>) -> Self {
        Self {
            source,
            path: PathStack::default(),
            visited: 0,
            plans: Vec::new(),
            missing: Vec::new(),
            error: None,
        }
    }

    /// The plans, or the first problem in visiting order (missing tensors count as one only
    /// when `allow_partial` is off).
    pub(crate) fn finish(self, allow_partial: bool) -> Result<Checked, StoreError> {
        let first_missing = self
            .missing
            .first()
            .filter(|_| !allow_partial)
            .map(|(index, key)| (*index, key.clone()));
        match (first_missing, self.error) {
            (Some((missing_at, key)), error)
                if error.as_ref().is_none_or(|(at, _)| missing_at < *at) =>
            {
                Err(StoreError::MissingKey {
                    file: self.source.file.clone(),
                    key,
                    total_missing: self.missing.len(),
                })
            }
            (_, Some((_, error))) => Err(error),
            _ => Ok(Checked {
                plans: self.plans,
                missing: self.missing.into_iter().map(|(_, key)| key).collect(),
            }),
        }
    }

    fn check<const D: usize, K: BasicOps>(&mut self, param: &Param<Tensor<D, K>>)
    where
        Tensor<D, K>: Parameter,
    {
        let index = self.visited;
        self.visited += 1;
        let key = self.path.current();
        let Some((_, tensor)) = self.source.by_path.get(&key) else {
            self.missing.push((index, key));
            return;
        };
        if self.error.is_some() {
            return;
        }
        let device = param.lazy_device();
        let current = if param.is_initialized() {
            param.val().dtype()
        } else {
            K::default_dtype(&device.settings())
        };
        let planned = self.plan::<K>(
            key,
            device,
            current,
            param.is_require_grad(),
            &param.lazy_shape().dims,
            tensor,
        );
        match planned {
            Ok(plan) => self.plans.push(plan),
            Err(error) => self.error = Some((index, error)),
        }
    }

    /// How to load `tensor` into the parameter at `key` (holding `current`, of `shape`), or
    /// what prevents it.
    fn plan<K: BasicOps>(
        &self,
        key: String,
        device: Device,
        current: DType,
        require_grad: bool,
        shape: &[usize],
        tensor: &SourceTensor<'_>,
    ) -> Result<Plan, StoreError> {
        let file = self.source.file.clone();
        let stored = match &tensor.dtype {
            Ok(dtype) => *dtype,
            Err(name) => {
                return Err(StoreError::UnsupportedDType {
                    file,
                    key,
                    dtype: name.clone(),
                });
            }
        };
        if !K::accepts(stored) {
            return Err(StoreError::KindMismatch {
                file,
                key,
                expected: K::NAME,
                found: stored,
            });
        }
        let (dtype, requantize) = match (stored, current) {
            (DType::QFloat(_), _) => (stored, None),
            (_, DType::QFloat(scheme)) => (K::default_dtype(&device.settings()), Some(scheme)),
            _ => (current, None),
        };
        let unsupported = [Some(dtype), requantize.map(DType::QFloat)]
            .into_iter()
            .flatten()
            .find(|dtype| !device.supports_dtype(*dtype));
        if let Some(dtype) = unsupported {
            let name = match dtype {
                DType::QFloat(scheme) => format!("qfloat {scheme}"),
                dtype => dtype.to_string(),
            };
            return Err(StoreError::UnsupportedDType {
                file,
                key,
                dtype: format!("{name} (on device {device})"),
            });
        }
        if tensor.shape != shape {
            return Err(StoreError::ShapeMismatch {
                file,
                key,
                expected: shape.to_vec(),
                found: tensor.shape.clone(),
            });
        }
        if let DType::QFloat(scheme) = stored {
            check_quantized_bytes(&scheme, &tensor.shape, tensor.bytes.len()).map_err(
                |reason| StoreError::InvalidQuantized {
                    file: file.clone(),
                    key: key.clone(),
                    reason,
                },
            )?;
        }
        Ok(Plan {
            key,
            dtype,
            requantize,
            device,
            require_grad,
        })
    }
}

impl ModuleVisitor for Planner<'_, '_> {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.check(param);
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.check(param);
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.check(param);
    }
}
