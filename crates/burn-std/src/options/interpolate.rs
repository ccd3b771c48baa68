//! Options of `interpolate` and `grid_sample_2d`: the sampling mode, how output coordinates map
//! to input ones, and the output size.

use serde::{Deserialize, Serialize};

/// How `interpolate` computes new samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InterpolateMode {
    /// The nearest input sample by flooring (PyTorch's `nearest`).
    Nearest,
    /// The nearest input sample by rounding the pixel centre (PyTorch's `nearest-exact`).
    NearestExact,
    /// Linear in each of the two spatial dimensions.
    Bilinear,
    /// Cubic convolution in each of the two spatial dimensions.
    Bicubic,
    /// Lanczos resampling with three lobes.
    Lanczos3,
}

/// How an output coordinate maps to an input one (ONNX `Resize`'s
/// `coordinate_transformation_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum CoordinateTransformMode {
    /// Pixel centres scale: `x_in = (x_out + 0.5) / scale - 0.5`.
    HalfPixel,
    /// The corner samples of input and output coincide (PyTorch's `align_corners=True`).
    AlignCorners,
    /// `x_in = x_out / scale`.
    Asymmetric,
    /// As [`HalfPixel`](Self::HalfPixel), but a length-1 output samples coordinate 0.
    PytorchHalfPixel,
    /// Half-pixel, symmetric about the image centre when the scale is not exact.
    HalfPixelSymmetric,
    /// TensorFlow's crop-and-resize over a region of interest.
    TfCropAndResize {
        /// The region, `[[start_y, start_x], [end_y, end_x]]`, normalized to `[0, 1]`.
        roi: [[f32; 2]; 2],
        /// The value of samples outside the input.
        extrapolation_value: f32,
    },
}

/// How nearest-neighbour modes round a fractional input coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NearestRoundingMode {
    /// To the nearest, halves down.
    RoundPreferFloor,
    /// To the nearest, halves up.
    RoundPreferCeil,
    /// Down.
    Floor,
    /// Up.
    Ceil,
}

/// Parameters of bicubic sampling.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CubicOptions {
    /// The cubic coefficient (`-0.75` in PyTorch, `-0.5` in some image libraries).
    pub a: f32,
    /// Whether taps outside the input get weight 0 (and the others are renormalized).
    pub exclude_outside: bool,
}

impl Default for CubicOptions {
    fn default() -> Self {
        Self {
            a: -0.75,
            exclude_outside: false,
        }
    }
}

/// Options of `interpolate`: the mode, the coordinate mapping and the output size (given, or as
/// a scale of the input's).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct InterpolateOptions {
    /// How to compute samples.
    pub mode: InterpolateMode,
    /// How output coordinates map to input ones.
    pub coordinate_transform: CoordinateTransformMode,
    /// How nearest modes round.
    pub nearest_mode: NearestRoundingMode,
    /// Parameters of bicubic sampling.
    pub cubic_options: CubicOptions,
    /// The output's spatial size `[height, width]`; exclusive with `scale_factor`.
    pub output_size: Option<[usize; 2]>,
    /// The output's size as a factor of the input's; exclusive with `output_size`.
    pub scale_factor: Option<[f32; 2]>,
}

impl InterpolateOptions {
    /// Options with PyTorch's defaults for `mode`: `nearest` floors asymmetric coordinates,
    /// `nearest-exact` rounds half-pixel ones, the others align corners. Set the size with
    /// [`with_output_size`](Self::with_output_size) or
    /// [`with_scale_factor`](Self::with_scale_factor).
    pub fn new(mode: InterpolateMode) -> Self {
        let (coordinate_transform, nearest_mode) = match mode {
            InterpolateMode::Nearest => (
                CoordinateTransformMode::Asymmetric,
                NearestRoundingMode::Floor,
            ),
            InterpolateMode::NearestExact => (
                CoordinateTransformMode::HalfPixel,
                NearestRoundingMode::RoundPreferCeil,
            ),
            InterpolateMode::Bilinear | InterpolateMode::Bicubic | InterpolateMode::Lanczos3 => (
                CoordinateTransformMode::AlignCorners,
                NearestRoundingMode::RoundPreferFloor,
            ),
        };
        Self {
            mode,
            coordinate_transform,
            nearest_mode,
            cubic_options: CubicOptions::default(),
            output_size: None,
            scale_factor: None,
        }
    }

    /// These options with another coordinate mapping.
    pub fn with_coordinate_transform(mut self, mode: CoordinateTransformMode) -> Self {
        self.coordinate_transform = mode;
        self
    }

    /// These options with another rounding of the nearest modes.
    pub fn with_nearest_mode(mut self, mode: NearestRoundingMode) -> Self {
        self.nearest_mode = mode;
        self
    }

    /// These options with other bicubic parameters.
    pub fn with_cubic_options(mut self, options: CubicOptions) -> Self {
        self.cubic_options = options;
        self
    }

    /// PyTorch's `align_corners`: aligned corners (`true`) or half-pixel coordinates. The
    /// nearest modes keep their own mapping.
    pub fn with_align_corners(mut self, align_corners: bool) -> Self {
        if !matches!(
            self.mode,
            InterpolateMode::Nearest | InterpolateMode::NearestExact
        ) {
            self.coordinate_transform = match align_corners {
                true => CoordinateTransformMode::AlignCorners,
                false => CoordinateTransformMode::HalfPixel,
            };
        }
        self
    }

    /// Whether the corner samples of input and output coincide.
    pub fn align_corners(&self) -> bool {
        matches!(
            self.coordinate_transform,
            CoordinateTransformMode::AlignCorners
        )
    }

    /// These options resizing to `output_size` (clearing any scale factor).
    pub fn with_output_size(mut self, output_size: [usize; 2]) -> Self {
        self.output_size = Some(output_size);
        self.scale_factor = None;
        self
    }

    /// These options resizing by `scale_factor` (clearing any output size).
    pub fn with_scale_factor(mut self, scale_factor: [f32; 2]) -> Self {
        self.scale_factor = Some(scale_factor);
        self.output_size = None;
        self
    }
}

/// How `grid_sample_2d` treats grid points outside the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum GridSamplePaddingMode {
    /// Zeros outside.
    #[default]
    Zeros,
    /// The nearest border value.
    Border,
    /// The input reflected at its borders.
    Reflection,
}

/// Options of `grid_sample_2d` (PyTorch's `grid_sample`; the default is bilinear, zero padding,
/// unaligned corners).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GridSampleOptions {
    /// How to compute samples.
    pub mode: InterpolateMode,
    /// How to treat points outside the input.
    pub padding_mode: GridSamplePaddingMode,
    /// Whether -1 and 1 are the centres of the corner pixels (`true`) or their outer edges.
    pub align_corners: bool,
}

impl Default for GridSampleOptions {
    fn default() -> Self {
        Self::new(InterpolateMode::Bilinear)
    }
}

impl From<InterpolateMode> for GridSampleOptions {
    fn from(mode: InterpolateMode) -> Self {
        Self::new(mode)
    }
}

impl GridSampleOptions {
    /// Options sampling with `mode`, zero padding and unaligned corners.
    pub fn new(mode: InterpolateMode) -> Self {
        Self {
            mode,
            padding_mode: GridSamplePaddingMode::Zeros,
            align_corners: false,
        }
    }

    /// These options with another padding mode.
    pub fn with_padding_mode(mut self, padding_mode: GridSamplePaddingMode) -> Self {
        self.padding_mode = padding_mode;
        self
    }

    /// These options with another `align_corners`.
    pub fn with_align_corners(mut self, align_corners: bool) -> Self {
        self.align_corners = align_corners;
        self
    }
}
