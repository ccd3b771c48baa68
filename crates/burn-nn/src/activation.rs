//! Activation layers: modules over the functions of `burn_tensor::activation`, for use as
//! fields of a model.

use crate::Initializer;
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor, activation};

/// Parameterless activations: a unit struct per row, `new()` and `forward`.
macro_rules! activations {
    ($($(#[$doc:meta])* $name:ident => $function:path;)*) => {$(
        $(#[$doc])*
        #[derive(Module, Debug, Default)]
        pub struct $name;

        impl $name {
            /// The activation.
            pub fn new() -> Self {
                Self
            }

            /// Applies the activation element-wise.
            pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
                $function(input)
            }
        }
    )*};
}

activations! {
    /// `max(x, 0)`.
    Relu => activation::relu;
    /// `min(max(x, 0), 6)`.
    Relu6 => activation::relu6;
    /// GELU, exact: `x · Φ(x)` with `Φ` the standard normal CDF.
    Gelu => activation::gelu;
    /// GELU with the tanh approximation:
    /// `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`.
    GeluApproximate => activation::gelu_approximate;
    /// `1 / (1 + e^-x)`.
    Sigmoid => activation::sigmoid;
    /// `ln(sigmoid(x))`.
    LogSigmoid => activation::log_sigmoid;
    /// `tanh(x)`.
    Tanh => activation::tanh;
    /// SiLU (swish): `x · sigmoid(x)`.
    Silu => activation::silu;
    /// `x · tanh(softplus(x))`.
    Mish => activation::mish;
    /// `x · relu6(x + 3) / 6`.
    HardSwish => activation::hard_swish;
}

/// Configuration of a [`LeakyRelu`] layer.
#[derive(Config, Debug)]
pub struct LeakyReluConfig {
    /// The slope for negative inputs. Default: 0.01.
    #[config(default = 0.01)]
    pub negative_slope: f64,
}

/// Leaky ReLU: `x` for `x ≥ 0`, `negative_slope · x` otherwise.
#[derive(Module, Debug)]
pub struct LeakyRelu {
    /// The slope for negative inputs.
    pub negative_slope: f64,
}

impl LeakyReluConfig {
    /// The layer.
    pub fn init(&self) -> LeakyRelu {
        LeakyRelu {
            negative_slope: self.negative_slope,
        }
    }
}

impl LeakyRelu {
    /// Applies the activation element-wise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::leaky_relu(input, self.negative_slope)
    }
}

/// Configuration of a [`Softplus`] layer.
#[derive(Config, Debug)]
pub struct SoftplusConfig {
    /// The sharpness `β`. Default: 1.
    #[config(default = 1.0)]
    pub beta: f64,
}

/// Softplus: `ln(1 + e^(β·x)) / β`, computed stably.
#[derive(Module, Debug)]
pub struct Softplus {
    /// The sharpness `β`.
    pub beta: f64,
}

impl SoftplusConfig {
    /// The layer. Panics unless `beta > 0`.
    pub fn init(&self) -> Softplus {
        if self.beta <= 0.0 || self.beta.is_nan() {
            panic!("SoftplusConfig: beta must be positive, got {}", self.beta);
        }
        Softplus { beta: self.beta }
    }
}

impl Softplus {
    /// Applies the activation element-wise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::softplus(input, self.beta)
    }
}

/// Configuration of a [`HardSigmoid`] layer.
#[derive(Config, Debug)]
pub struct HardSigmoidConfig {
    /// The slope `α`. Default: 0.2 (ONNX's; PyTorch's `Hardsigmoid` is `α = 1/6, β = 0.5`).
    #[config(default = 0.2)]
    pub alpha: f64,
    /// The offset `β`. Default: 0.5.
    #[config(default = 0.5)]
    pub beta: f64,
}

/// Hard sigmoid: `clamp(α·x + β, 0, 1)`.
#[derive(Module, Debug)]
pub struct HardSigmoid {
    /// The slope `α`.
    pub alpha: f64,
    /// The offset `β`.
    pub beta: f64,
}

impl HardSigmoidConfig {
    /// The layer.
    pub fn init(&self) -> HardSigmoid {
        HardSigmoid {
            alpha: self.alpha,
            beta: self.beta,
        }
    }
}

impl HardSigmoid {
    /// Applies the activation element-wise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::hard_sigmoid(input, self.alpha, self.beta)
    }
}

/// Configuration of a [`PRelu`] layer.
#[derive(Config, Debug)]
pub struct PReluConfig {
    /// The number of learned slopes: 1 (shared) or the number of channels (dim 1).
    #[config(default = 1)]
    pub num_parameters: usize,
    /// The initial slope. Default: 0.25 (PyTorch's).
    #[config(default = 0.25)]
    pub alpha: f64,
}

/// Parametric ReLU: `x` for `x ≥ 0`, `a·x` otherwise, with learned slopes `a` (one, or one per
/// channel of dim 1).
#[derive(Module, Debug)]
pub struct PRelu {
    /// The slopes, `[num_parameters]`.
    pub alpha: Param<Tensor<1>>,
    /// The initial slope.
    pub alpha_value: f64,
}

impl PReluConfig {
    /// The layer, with lazily initialized slopes on `device`.
    pub fn init(&self, device: &Device) -> PRelu {
        PRelu {
            alpha: Initializer::Constant { value: self.alpha }.init([self.num_parameters], device),
            alpha_value: self.alpha,
        }
    }
}

impl PRelu {
    /// Applies the activation.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        activation::prelu(input, self.alpha.val())
    }
}
