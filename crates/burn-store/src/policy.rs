//! `StoreDTypePolicy`: the dtype float parameters are written in.

use burn_core::tensor::{DType, FloatDType};

/// Which dtype float parameters are saved in. Int, bool and quantized parameters are always
/// saved in their own dtype. Loading converts whatever the file holds to each parameter's
/// current dtype, so a file saved as `f16` loads into an `f32` (or `f64`) model.
///
/// Narrowing is lossy: `f16` keeps about 3 significant digits and overflows to infinity past
/// 65504; `bf16` keeps the `f32` range with about 2 digits.
///
/// ```
/// use burn_store::StoreDTypePolicy;
/// use burn_core::tensor::{DType, FloatDType};
///
/// assert_eq!(StoreDTypePolicy::Keep.float_dtype(DType::F64), DType::F64);
/// let half = StoreDTypePolicy::Floats(FloatDType::F16);
/// assert_eq!(half.float_dtype(DType::F32), DType::F16);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreDTypePolicy {
    /// Every float parameter in its own dtype.
    #[default]
    Keep,
    /// Every float parameter converted to this dtype.
    Floats(FloatDType),
}

impl StoreDTypePolicy {
    /// The dtype a float parameter held as `current` is saved in.
    pub fn float_dtype(&self, current: DType) -> DType {
        match self {
            StoreDTypePolicy::Keep => current,
            StoreDTypePolicy::Floats(dtype) => (*dtype).into(),
        }
    }
}

impl From<FloatDType> for StoreDTypePolicy {
    fn from(dtype: FloatDType) -> Self {
        StoreDTypePolicy::Floats(dtype)
    }
}
