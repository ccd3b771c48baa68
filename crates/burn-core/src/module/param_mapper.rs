//! [`ParamMapper`]: transformations of a parameter's value on its way into a record
//! ([`Param::save_mapper`]), out of one ([`Param::load_mapper`]), or when it is first built
//! ([`Param::init_mapper`]). A mapper may quantize on save, change precision on load, or
//! reshape a checkpoint's layout into the module's.

use super::param::{Param, ParamId, Parameter, ParameterValue};
use std::sync::Arc;

/// A transformation of a parameter's value.
type MapFn<T> = Arc<dyn Fn(T) -> T + Send + Sync>;

/// The save and load transformations of a [`Param`] (identity when unset). Cloning a
/// parameter shares them.
pub struct ParamMapper<T: ParameterValue> {
    load: Option<MapFn<T>>,
    save: Option<MapFn<T>>,
}

impl<T: ParameterValue> ParamMapper<T> {
    /// `value` as loading transforms it.
    pub fn on_load(&self, value: T) -> T {
        match &self.load {
            Some(map) => map(value),
            None => value,
        }
    }

    /// `value` as saving transforms it.
    pub fn on_save(&self, value: T) -> T {
        match &self.save {
            Some(map) => map(value),
            None => value,
        }
    }
}

impl<T: ParameterValue> Default for ParamMapper<T> {
    fn default() -> Self {
        Self {
            load: None,
            save: None,
        }
    }
}

impl<T: ParameterValue> Clone for ParamMapper<T> {
    fn clone(&self) -> Self {
        Self {
            load: self.load.clone(),
            save: self.save.clone(),
        }
    }
}

impl<T: ParameterValue> core::fmt::Debug for ParamMapper<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "ParamMapper {{ load: {}, save: {} }}",
            self.load.is_some(),
            self.save.is_some()
        )
    }
}

impl<T: ParameterValue> Param<T> {
    /// A parameter holding `value` with the id and the mappers of another one (what a
    /// [`ModuleMapper`](super::ModuleMapper) rebuilding a parameter from
    /// [`consume`](Param::consume) passes back).
    pub fn from_mapped_value(id: ParamId, value: T, mapper: ParamMapper<T>) -> Self {
        let mut param = Self::initialized(id, value);
        param.mapper = mapper;
        param
    }
}

impl<T: Parameter> Param<T> {
    /// The parameter, transforming values loaded into it by `func` (after they reach its
    /// device).
    pub fn load_mapper<F: Fn(T) -> T + Send + Sync + 'static>(mut self, func: F) -> Self {
        self.mapper.load = Some(Arc::new(func));
        self
    }

    /// The parameter, transforming its value by `func` when it is saved (the module keeps the
    /// untransformed value).
    pub fn save_mapper<F: Fn(T) -> T + Send + Sync + 'static>(mut self, func: F) -> Self {
        self.mapper.save = Some(Arc::new(func));
        self
    }

    /// The parameter, its initial value transformed by `func`: chained onto the initializer of a
    /// lazy parameter (nothing is computed now), applied at once to a built one.
    pub fn init_mapper<F: Fn(T) -> T + Send + Sync + 'static>(self, func: F) -> Self
    where
        T: Sync,
    {
        let func = Arc::new(func);
        let chained = Arc::clone(&func);
        if !self.is_initialized() && self.chain_init(move |value| chained(value)) {
            return self;
        }
        self.map(|value| func(value))
    }

    /// The parameter holding `value` under `id`, as loading a record builds it: `value` moved to
    /// this parameter's device, then through its load mapper, keeping its gradient requirement
    /// and mappers.
    pub fn transform_for_load(self, value: T, id: ParamId) -> Self {
        let device = self.lazy_device();
        let value = self.mapper.on_load(value.load_to_device(&device));
        self.replaced(id, value)
    }

    /// The parameter as saving writes it: its value through the save mapper, same id and
    /// gradient requirement.
    pub fn transform_for_save(&self) -> Self {
        Self::initialized(self.id, self.saved_value()).configured(self.configured_state())
    }

    /// The value as saving writes it: through the save mapper.
    pub(crate) fn saved_value(&self) -> T {
        self.mapper.on_save(self.val())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_tensor::{Device, Tensor};

    fn param() -> Param<Tensor<1>> {
        Param::from_tensor(Tensor::from_data([1.0, 2.0], &Device::default()))
    }

    fn values(param: &Param<Tensor<1>>) -> Vec<f32> {
        param.val().into_data().to_vec().unwrap()
    }

    #[test]
    fn save_and_load_mappers_transform_only_on_their_way() {
        let param = param()
            .save_mapper(|t| t.mul_scalar(10.0))
            .load_mapper(|t| t.add_scalar(1.0));
        assert_eq!(values(&param), [1.0, 2.0]);
        let saved = param.transform_for_save();
        assert_eq!((values(&saved), saved.id), (vec![10.0, 20.0], param.id));
        let id = ParamId::new();
        let loaded =
            param.transform_for_load(Tensor::from_data([5.0, 6.0], &Device::default()), id);
        assert_eq!((values(&loaded), loaded.id), (vec![6.0, 7.0], id));
        // The mappers stay with the parameter through a load and through `consume`.
        let (id, value, mapper) = loaded.consume();
        let rebuilt = Param::from_mapped_value(id, value, mapper);
        assert_eq!(values(&rebuilt.transform_for_save()), [60.0, 70.0]);
    }

    #[test]
    fn init_mapper_chains_onto_a_lazy_initializer() {
        let lazy = Param::uninitialized(
            ParamId::new(),
            |device, _| Tensor::<1>::ones([3], device),
            Device::default(),
            true,
            burn_tensor::Shape::new([3usize]),
        )
        .init_mapper(|t| t.mul_scalar(4.0));
        assert!(!lazy.is_initialized());
        assert_eq!(values(&lazy), [4.0, 4.0, 4.0]);
        let built = param().init_mapper(|t| t.neg());
        assert_eq!(values(&built), [-1.0, -2.0]);
    }
}
