//! Option structs of the module operations (convolution, pooling, interpolation, attention,
//! padding, scatter updates).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serde for `[usize; N]` of any `N` (serde's own impls stop at fixed sizes).
mod array {
    use super::{Deserialize, Deserializer, Serializer};
    use serde::de::Error;

    pub fn serialize<S: Serializer, const N: usize>(
        value: &[usize; N],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(value.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        deserializer: D,
    ) -> Result<[usize; N], D::Error> {
        let values = Vec::<usize>::deserialize(deserializer)?;
        let len = values.len();
        values
            .try_into()
            .map_err(|_| D::Error::custom(format!("expected {N} values, got {len}")))
    }
}

/// Options of an N-dimensional convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConvOptions<const N: usize> {
    /// Step between windows, per spatial dimension.
    #[serde(with = "array")]
    pub stride: [usize; N],
    /// Zero padding added on both sides, per spatial dimension.
    #[serde(with = "array")]
    pub padding: [usize; N],
    /// Spacing between kernel taps, per spatial dimension.
    #[serde(with = "array")]
    pub dilation: [usize; N],
    /// Number of channel groups (1 for a dense convolution).
    pub groups: usize,
}

impl<const N: usize> ConvOptions<N> {
    /// Options with the given stride, padding, dilation and groups.
    pub fn new(
        stride: [usize; N],
        padding: [usize; N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self {
            stride,
            padding,
            dilation,
            groups,
        }
    }
}

/// Options of an N-dimensional transposed convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConvTransposeOptions<const N: usize> {
    /// Step between windows of the matching forward convolution.
    #[serde(with = "array")]
    pub stride: [usize; N],
    /// Padding of the matching forward convolution.
    #[serde(with = "array")]
    pub padding: [usize; N],
    /// Extra size added to one side of the output.
    #[serde(with = "array")]
    pub padding_out: [usize; N],
    /// Spacing between kernel taps.
    #[serde(with = "array")]
    pub dilation: [usize; N],
    /// Number of channel groups.
    pub groups: usize,
}

impl<const N: usize> ConvTransposeOptions<N> {
    /// Options with the given stride, padding, output padding, dilation and groups.
    pub fn new(
        stride: [usize; N],
        padding: [usize; N],
        padding_out: [usize; N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self {
            stride,
            padding,
            padding_out,
            dilation,
            groups,
        }
    }
}

/// How `interpolate` computes new samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InterpolateMode {
    /// The nearest input sample (PyTorch's `nearest`).
    Nearest,
    /// Linear in each of the two spatial dimensions.
    Bilinear,
    /// Cubic convolution in each of the two spatial dimensions (a = -0.75).
    Bicubic,
}

/// Options of `interpolate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InterpolateOptions {
    /// How to compute samples.
    pub mode: InterpolateMode,
    /// Whether the corner samples of input and output are aligned (PyTorch's `align_corners`).
    pub align_corners: bool,
}

impl InterpolateOptions {
    /// Options with the given mode and `align_corners = true`.
    pub fn new(mode: InterpolateMode) -> Self {
        Self {
            mode,
            align_corners: true,
        }
    }

    /// Returns these options with another `align_corners`.
    pub fn with_align_corners(mut self, align_corners: bool) -> Self {
        self.align_corners = align_corners;
        self
    }
}

/// Options of scaled dot-product attention.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct AttentionModuleOptions {
    /// Scale applied to `q·kᵀ`; `None` means `1/sqrt(head_dim)`.
    pub scale: Option<f64>,
    /// Soft cap: scores become `softcap * tanh(score / softcap)`.
    pub softcap: Option<f64>,
    /// Whether a query may attend only to keys at or before its position (aligned to the
    /// bottom-right corner when the query and key lengths differ, as in Burn).
    pub is_causal: bool,
}

/// How `pad` fills the new border.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum PadMode {
    /// A constant value.
    Constant(f64),
    /// The values mirrored at the edge, without repeating the edge (`[2, 1 | 1, 2, 3 | 2]`).
    Reflect,
    /// The edge value repeated.
    Edge,
    /// Zeros.
    #[default]
    Zeros,
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
