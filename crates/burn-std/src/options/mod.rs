//! Option structs of the module operations (convolution, pooling, interpolation, attention,
//! padding, scatter updates), with Burn's names, fields and builders.

mod attention;
mod conv;
mod interpolate;
mod pool;

pub use attention::{AttentionModuleOptions, CausalAlignment};
#[allow(deprecated)]
pub use conv::PaddedConvOptions;
pub use conv::{ConvOptions, ConvTransposeOptions, DeformConvOptions, UnfoldOptions};
pub use interpolate::{
    CoordinateTransformMode, CubicOptions, GridSampleOptions, GridSamplePaddingMode,
    InterpolateMode, InterpolateOptions, NearestRoundingMode,
};
pub use pool::{AvgPoolOptions, MaxPoolOptions};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serde for `[T; N]` of any `N` (serde's own impls stop at fixed sizes).
mod array {
    use super::{Deserialize, Deserializer, Serialize, Serializer};
    use serde::de::Error;

    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        value: &[T; N],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(value.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        deserializer: D,
    ) -> Result<[T; N], D::Error> {
        let values = Vec::<T>::deserialize(deserializer)?;
        let len = values.len();
        values
            .try_into()
            .map_err(|_| D::Error::custom(format!("expected {N} values, got {len}")))
    }
}

/// Returns `values` when none is zero; panics naming `what` otherwise. The option builders
/// check their sizes here, so that a zero stride or dilation fails where it is written.
#[track_caller]
fn nonzero<const N: usize>(what: &str, values: [usize; N]) -> [usize; N] {
    if values.contains(&0) {
        panic!("{what} must be non-zero, got {values:?}");
    }
    values
}

/// How `pad` fills the new border.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum PadMode {
    /// A constant value (`PadMode::Constant(0.0)` is the default).
    Constant(f32),
    /// The values mirrored at the edge, without repeating the edge (`[2, 1 | 1, 2, 3 | 2]`).
    Reflect,
    /// The edge value repeated.
    Edge,
}

impl Default for PadMode {
    fn default() -> Self {
        PadMode::Constant(0.0)
    }
}

/// A value pads as a constant: `tensor.pad(padding, 0.5)`.
impl<E: crate::ElementConversion> From<E> for PadMode {
    fn from(value: E) -> Self {
        PadMode::Constant(value.elem::<f32>())
    }
}

/// How a scatter combines an update with the existing value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IndexingUpdateOp {
    /// The update is added.
    Add,
    /// The update replaces the value.
    Assign,
    /// The update multiplies the value.
    Mul,
    /// The larger of the two is kept.
    Max,
    /// The smaller of the two is kept.
    Min,
}
