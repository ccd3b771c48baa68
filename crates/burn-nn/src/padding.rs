//! Padding of convolution and pooling layers: `Valid`, `Same` or explicit sizes, and how a
//! layer applies them (symmetric padding goes to the op; the uneven split of `Same` padding
//! is applied to the input first).

use burn::config::Config;
use burn::tensor::Tensor;
use burn::tensor::ops::PadMode;

/// Padding of a 1-d layer.
#[derive(Config, Debug, PartialEq)]
pub enum PaddingConfig1d {
    /// No padding.
    Valid,
    /// Enough padding for an output of length `⌈length / stride⌉` (the input's length at
    /// stride 1): `total = max((out - 1)·stride + dilation·(kernel - 1) + 1 - length, 0)`,
    /// `total / 2` before and the rest after (PyTorch's `padding="same"`).
    Same,
    /// The same padding on both sides.
    Explicit(usize),
}

/// Padding of a 2-d layer.
#[derive(Config, Debug, PartialEq)]
pub enum PaddingConfig2d {
    /// No padding.
    Valid,
    /// Per dim, enough padding for an output of size `⌈size / stride⌉` (see
    /// [`PaddingConfig1d::Same`]); an odd total puts the extra row (column) at the bottom
    /// (right).
    Same,
    /// `(height, width)` padding, the same on both sides.
    Explicit(usize, usize),
}

/// `(before, after)` padding along one dim.
pub(crate) type Pair = (usize, usize);

/// The `(before, after)` padding that keeps `⌈size / stride⌉` outputs.
pub(crate) fn same_padding(kernel: usize, stride: usize, dilation: usize, size: usize) -> Pair {
    let effective = dilation * (kernel.max(1) - 1) + 1;
    let out = size.div_ceil(stride.max(1));
    let needed = out.saturating_sub(1) * stride + effective;
    let total = needed.saturating_sub(size);
    (total / 2, total - total / 2)
}

impl PaddingConfig1d {
    /// The `(before, after)` padding for an input of `length`.
    pub(crate) fn pair(
        &self,
        length: usize,
        kernel: usize,
        stride: usize,
        dilation: usize,
    ) -> Pair {
        match *self {
            Self::Valid => (0, 0),
            Self::Same => same_padding(kernel, stride, dilation, length),
            Self::Explicit(p) => (p, p),
        }
    }
}

impl PaddingConfig2d {
    /// The `(before, after)` padding of the height and width of an input `[h, w]`.
    pub(crate) fn pairs(
        &self,
        size: [usize; 2],
        kernel: [usize; 2],
        stride: [usize; 2],
        dilation: [usize; 2],
    ) -> [Pair; 2] {
        match *self {
            Self::Valid => [(0, 0); 2],
            Self::Same => [0, 1].map(|i| same_padding(kernel[i], stride[i], dilation[i], size[i])),
            Self::Explicit(h, w) => [(h, h), (w, w)],
        }
    }
}

/// The input and the symmetric padding to pass to the op: symmetric pairs go to the op
/// unchanged; otherwise the input is padded here with `fill` (zeros for convolutions, -∞ for
/// max pooling) and the op gets no padding.
pub(crate) fn apply_padding<const D: usize, const N: usize>(
    input: Tensor<D>,
    pairs: [Pair; N],
    fill: f64,
) -> (Tensor<D>, [usize; N]) {
    if pairs.iter().all(|(before, after)| before == after) {
        return (input, pairs.map(|(before, _)| before));
    }
    let mut all = [(0usize, 0usize); D];
    all[D - N..].copy_from_slice(&pairs);
    (input.pad_dims(all, PadMode::Constant(fill as f32)), [0; N])
}
