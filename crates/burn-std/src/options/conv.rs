//! Options of the convolutions: plain, transposed, deformable, and the unfold (im2col) that
//! shares their geometry.

use super::{array, nonzero};
use serde::{Deserialize, Serialize};

/// Options of an N-dimensional convolution.
///
/// Padding is a `(begin, end)` pair per spatial dimension: [`ConvOptions::new`] pads both sides
/// alike, [`ConvOptions::new_with_padding`] takes the pairs (asymmetric "same" padding, ONNX's
/// `pads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConvOptions<const N: usize> {
    /// Step between windows, per spatial dimension.
    #[serde(with = "array")]
    pub stride: [usize; N],
    /// Zero padding `(begin, end)` per spatial dimension.
    #[serde(with = "array")]
    pub padding: [(usize, usize); N],
    /// Spacing between kernel taps, per spatial dimension.
    #[serde(with = "array")]
    pub dilation: [usize; N],
    /// Number of channel groups (1 for a dense convolution).
    pub groups: usize,
}

impl<const N: usize> ConvOptions<N> {
    /// Options with the same padding on both sides of each dimension.
    ///
    /// # Panics
    ///
    /// When a stride, a dilation or `groups` is zero.
    #[track_caller]
    pub fn new(
        stride: [usize; N],
        padding: [usize; N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self::new_with_padding(stride, padding.map(|p| (p, p)), dilation, groups)
    }

    /// Options with a `(begin, end)` padding pair per dimension.
    ///
    /// # Panics
    ///
    /// When a stride, a dilation or `groups` is zero.
    #[track_caller]
    pub fn new_with_padding(
        stride: [usize; N],
        padding: [(usize, usize); N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self {
            stride: nonzero("ConvOptions: stride", stride),
            padding,
            dilation: nonzero("ConvOptions: dilation", dilation),
            groups: nonzero("ConvOptions: groups", [groups])[0],
        }
    }

    /// Whether some dimension pads its two sides differently.
    pub fn is_asymmetric(&self) -> bool {
        self.padding.iter().any(|(begin, end)| begin != end)
    }

    /// The padding before each dimension's first element.
    pub fn padding_begin(&self) -> [usize; N] {
        self.padding.map(|(begin, _)| begin)
    }

    /// The padding after each dimension's last element.
    pub fn padding_end(&self) -> [usize; N] {
        self.padding.map(|(_, end)| end)
    }

    /// The padding of each dimension, the same on both sides.
    ///
    /// # Panics
    ///
    /// When the padding is asymmetric. Backends take symmetric padding; the tensor API pads
    /// the input itself for the difference before it calls them.
    #[track_caller]
    pub fn symmetric_padding(&self) -> [usize; N] {
        if self.is_asymmetric() {
            panic!(
                "convolution: expected symmetric padding here, got {:?} (the tensor API pads the input for the difference)",
                self.padding
            );
        }
        self.padding_begin()
    }
}

/// Convolution options with an optional end padding, from before [`ConvOptions`] held pairs.
#[deprecated(since = "0.22.0", note = "use `ConvOptions::new_with_padding`")]
#[derive(Debug, Clone)]
pub struct PaddedConvOptions<const N: usize> {
    /// The options, whose padding is the begin padding.
    pub options: ConvOptions<N>,
    /// The end padding where it differs from the begin padding.
    pub padding_end: Option<[usize; N]>,
}

#[allow(deprecated)]
impl<const N: usize> PaddedConvOptions<N> {
    /// Options padding `padding_begin` before and `padding_end` after each dimension.
    #[track_caller]
    pub fn asymmetric(
        stride: [usize; N],
        padding_begin: [usize; N],
        padding_end: [usize; N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self {
            options: ConvOptions::new(stride, padding_begin, dilation, groups),
            padding_end: (padding_begin != padding_end).then_some(padding_end),
        }
    }

    /// Whether the end padding differs from the begin padding.
    pub fn is_asymmetric(&self) -> bool {
        self.padding_end.is_some()
    }
}

#[allow(deprecated)]
impl<const N: usize> From<PaddedConvOptions<N>> for ConvOptions<N> {
    fn from(value: PaddedConvOptions<N>) -> Self {
        let mut options = value.options;
        if let Some(end) = value.padding_end {
            for (pair, end) in options.padding.iter_mut().zip(end) {
                pair.1 = end;
            }
        }
        options
    }
}

#[allow(deprecated)]
impl<const N: usize> From<ConvOptions<N>> for PaddedConvOptions<N> {
    fn from(options: ConvOptions<N>) -> Self {
        let padding_end = options.is_asymmetric().then(|| options.padding_end());
        let begin = options.padding_begin();
        Self {
            options: ConvOptions {
                padding: begin.map(|p| (p, p)),
                ..options
            },
            padding_end,
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
    ///
    /// # Panics
    ///
    /// When a stride, a dilation or `groups` is zero.
    #[track_caller]
    pub fn new(
        stride: [usize; N],
        padding: [usize; N],
        padding_out: [usize; N],
        dilation: [usize; N],
        groups: usize,
    ) -> Self {
        Self {
            stride: nonzero("ConvTransposeOptions: stride", stride),
            padding,
            padding_out,
            dilation: nonzero("ConvTransposeOptions: dilation", dilation),
            groups: nonzero("ConvTransposeOptions: groups", [groups])[0],
        }
    }
}

/// Options of a deformable convolution (`torchvision.ops.deform_conv2d`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeformConvOptions<const N: usize> {
    /// Step between windows.
    pub stride: [usize; N],
    /// Zero padding on both sides.
    pub padding: [usize; N],
    /// Spacing between kernel taps.
    pub dilation: [usize; N],
    /// Number of groups of the weight's channels.
    pub weight_groups: usize,
    /// Number of groups of the offsets' channels.
    pub offset_groups: usize,
}

impl<const N: usize> DeformConvOptions<N> {
    /// Options with the given geometry and groups.
    ///
    /// # Panics
    ///
    /// When a stride, a dilation or a group count is zero.
    #[track_caller]
    pub fn new(
        stride: [usize; N],
        padding: [usize; N],
        dilation: [usize; N],
        weight_groups: usize,
        offset_groups: usize,
    ) -> Self {
        Self {
            stride: nonzero("DeformConvOptions: stride", stride),
            padding,
            dilation: nonzero("DeformConvOptions: dilation", dilation),
            weight_groups: nonzero("DeformConvOptions: weight_groups", [weight_groups])[0],
            offset_groups: nonzero("DeformConvOptions: offset_groups", [offset_groups])[0],
        }
    }
}

/// Options of `unfold4d` and `fold4d` (PyTorch's `nn.Unfold`/`nn.Fold`): the geometry of the
/// sliding blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnfoldOptions {
    /// Step between blocks.
    pub stride: [usize; 2],
    /// Zero padding on both sides.
    pub padding: [usize; 2],
    /// Spacing between the taps of a block.
    pub dilation: [usize; 2],
}

impl UnfoldOptions {
    /// Options with the given stride, padding and dilation.
    ///
    /// # Panics
    ///
    /// When a stride or a dilation is zero.
    #[track_caller]
    pub fn new(stride: [usize; 2], padding: [usize; 2], dilation: [usize; 2]) -> Self {
        Self {
            stride: nonzero("UnfoldOptions: stride", stride),
            padding,
            dilation: nonzero("UnfoldOptions: dilation", dilation),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_pairs() {
        let options = ConvOptions::new_with_padding([1, 1], [(1, 2), (0, 0)], [1, 1], 1);
        assert!(options.is_asymmetric());
        assert_eq!(options.padding_begin(), [1, 0]);
        assert_eq!(options.padding_end(), [2, 0]);
        assert_eq!(ConvOptions::new([1], [3], [1], 1).symmetric_padding(), [3]);
    }

    #[test]
    #[should_panic(expected = "ConvOptions: stride must be non-zero")]
    fn zero_stride_is_refused() {
        ConvOptions::new([0, 1], [0, 0], [1, 1], 1);
    }

    #[test]
    #[allow(deprecated)]
    fn padded_options_round_trip() {
        let padded = PaddedConvOptions::asymmetric([1], [1], [2], [1], 1);
        let options: ConvOptions<1> = padded.into();
        assert_eq!(options.padding, [(1, 2)]);
        let back: PaddedConvOptions<1> = options.into();
        assert_eq!(back.padding_end, Some([2]));
        assert_eq!(back.options.padding, [(1, 1)]);
    }
}
