//! `Initializer`: how a layer's parameters get their first values, with the fan-in / fan-out
//! rules of Kaiming (He) and Xavier (Glorot) initialization.

use burn::config::Config;
use burn::module::{Param, ParamId};
use burn::tensor::{Device, Distribution, Shape, Tensor};

/// How to fill a new parameter. `fan_in` / `fan_out` are given by the layer
/// ([`init_with`](Initializer::init_with)): for a linear layer `d_input` / `d_output`, for a
/// convolution `channels_in / groups · Πkernel` / `channels_out / groups · Πkernel`.
///
/// | variant | values |
/// |---|---|
/// | `Constant { value }` | `value` |
/// | `Ones`, `Zeros` | `1`, `0` |
/// | `Uniform { min, max }` | `U(min, max)` |
/// | `Normal { mean, std }` | `N(mean, std²)` |
/// | `KaimingUniform { gain, fan_out_only }` | `U(-a, a)`, `a = gain · √(3 / fan)` |
/// | `KaimingNormal { gain, fan_out_only }` | `N(0, σ²)`, `σ = gain / √fan` |
/// | `XavierUniform { gain }` | `U(-a, a)`, `a = gain · √(6 / (fan_in + fan_out))` |
/// | `XavierNormal { gain }` | `N(0, σ²)`, `σ = gain · √(2 / (fan_in + fan_out))` |
/// | `Orthogonal { gain }` | `gain · Q`, `Q` a random orthogonal matrix (rank ≥ 2) |
///
/// where `fan` is `fan_out` when `fan_out_only`, else `fan_in` (PyTorch's `mode="fan_out"` /
/// `"fan_in"`). With `gain = 1/√3`, `KaimingUniform` gives PyTorch's default
/// `U(-1/√fan_in, 1/√fan_in)` of `nn.Linear` and `nn.Conv*`.
#[derive(Config, Debug, PartialEq)]
pub enum Initializer {
    /// Every value `value`.
    Constant {
        /// The value.
        value: f64,
    },
    /// Every value 1.
    Ones,
    /// Every value 0.
    Zeros,
    /// Uniform on `[min, max)`.
    Uniform {
        /// The lower bound.
        min: f64,
        /// The upper bound.
        max: f64,
    },
    /// Normal with mean `mean` and standard deviation `std`.
    Normal {
        /// The mean.
        mean: f64,
        /// The standard deviation.
        std: f64,
    },
    /// Kaiming (He) uniform: `U(-a, a)` with `a = gain · √(3 / fan)`.
    KaimingUniform {
        /// The gain (`√2` for ReLU networks, `1/√3` for PyTorch's layer defaults).
        gain: f64,
        /// Use `fan_out` instead of `fan_in`.
        fan_out_only: bool,
    },
    /// Kaiming (He) normal: `N(0, σ²)` with `σ = gain / √fan`.
    KaimingNormal {
        /// The gain.
        gain: f64,
        /// Use `fan_out` instead of `fan_in`.
        fan_out_only: bool,
    },
    /// Xavier (Glorot) uniform: `U(-a, a)` with `a = gain · √(6 / (fan_in + fan_out))`.
    XavierUniform {
        /// The gain.
        gain: f64,
    },
    /// Xavier (Glorot) normal: `N(0, σ²)` with `σ = gain · √(2 / (fan_in + fan_out))`.
    XavierNormal {
        /// The gain.
        gain: f64,
    },
    /// `gain` times a random orthogonal matrix, as `torch.nn.init.orthogonal_` (Saxe et al.
    /// 2013): the first dim is the rows, the others flatten into the columns; a tall matrix
    /// has orthonormal columns, a wide one orthonormal rows. Needs a rank of 2 or more.
    Orthogonal {
        /// The gain.
        gain: f64,
    },
}

impl Initializer {
    /// A lazy parameter of `shape` on `device` (no fans: Kaiming and Xavier panic on first use;
    /// use [`init_with`](Self::init_with) for them).
    pub fn init<const D: usize, S: Into<Shape>>(
        &self,
        shape: S,
        device: &Device,
    ) -> Param<Tensor<D>> {
        self.init_with(shape, None, None, device)
    }

    /// A lazy parameter of `shape` on `device`, requiring a gradient; its values are drawn on
    /// first use (on whatever device the parameter was moved to meanwhile).
    pub fn init_with<const D: usize, S: Into<Shape>>(
        &self,
        shape: S,
        fan_in: Option<usize>,
        fan_out: Option<usize>,
        device: &Device,
    ) -> Param<Tensor<D>> {
        let shape: Shape = shape.into();
        let initializer = self.clone();
        let lazy_shape = shape.clone();
        Param::uninitialized(
            ParamId::new(),
            move |device, require_grad| {
                let tensor = initializer.tensor::<D>(shape, fan_in, fan_out, device);
                if require_grad {
                    tensor.require_grad()
                } else {
                    tensor
                }
            },
            device.clone(),
            true,
            lazy_shape,
        )
    }

    /// The parameters of a layer computing `x·W + b`: a weight of `shape` and, when
    /// `bias_len` is given, a bias of `[bias_len]`, both drawn with the fans `[fan_in,
    /// fan_out]`.
    pub(crate) fn init_weight_and_bias<const D: usize, S: Into<Shape>>(
        &self,
        shape: S,
        bias_len: Option<usize>,
        [fan_in, fan_out]: [usize; 2],
        device: &Device,
    ) -> (Param<Tensor<D>>, Option<Param<Tensor<1>>>) {
        let (fan_in, fan_out) = (Some(fan_in), Some(fan_out));
        let weight = self.init_with(shape, fan_in, fan_out, device);
        let bias = bias_len.map(|len| self.init_with([len], fan_in, fan_out, device));
        (weight, bias)
    }

    /// The values, computed now.
    pub fn tensor<const D: usize>(
        &self,
        shape: Shape,
        fan_in: Option<usize>,
        fan_out: Option<usize>,
        device: &Device,
    ) -> Tensor<D> {
        let uniform =
            |a: f64| Tensor::<D>::random(shape.clone(), Distribution::Uniform(-a, a), device);
        let normal =
            |std: f64| Tensor::<D>::random(shape.clone(), Distribution::Normal(0.0, std), device);
        match *self {
            Initializer::Constant { value } => Tensor::full(shape, value, device),
            Initializer::Ones => Tensor::ones(shape, device),
            Initializer::Zeros => Tensor::zeros(shape, device),
            Initializer::Uniform { min, max } => {
                Tensor::<D>::random(shape, Distribution::Uniform(min, max), device)
            }
            Initializer::Normal { mean, std } => {
                Tensor::<D>::random(shape, Distribution::Normal(mean, std), device)
            }
            Initializer::KaimingUniform { gain, fan_out_only } => {
                uniform(gain * (3.0 / kaiming_fan(fan_out_only, fan_in, fan_out)).sqrt())
            }
            Initializer::KaimingNormal { gain, fan_out_only } => {
                normal(gain / kaiming_fan(fan_out_only, fan_in, fan_out).sqrt())
            }
            Initializer::XavierUniform { gain } => {
                uniform(gain * (6.0 / xavier_fans(fan_in, fan_out)).sqrt())
            }
            Initializer::XavierNormal { gain } => {
                normal(gain * (2.0 / xavier_fans(fan_in, fan_out)).sqrt())
            }
            Initializer::Orthogonal { gain } => crate::orthogonal::orthogonal(shape, gain, device),
        }
    }
}

/// The fan of Kaiming initialization.
fn kaiming_fan(fan_out_only: bool, fan_in: Option<usize>, fan_out: Option<usize>) -> f64 {
    let (fan, name) = if fan_out_only {
        (fan_out, "fan_out")
    } else {
        (fan_in, "fan_in")
    };
    match fan {
        Some(fan) if fan > 0 => fan as f64,
        Some(_) => panic!("Kaiming initialization: {name} is 0"),
        None => panic!(
            "Kaiming initialization needs {name}: use Initializer::init_with(shape, fan_in, fan_out, device)"
        ),
    }
}

/// `fan_in + fan_out` for Xavier initialization.
fn xavier_fans(fan_in: Option<usize>, fan_out: Option<usize>) -> f64 {
    match (fan_in, fan_out) {
        (Some(fan_in), Some(fan_out)) if fan_in + fan_out > 0 => (fan_in + fan_out) as f64,
        (Some(_), Some(_)) => panic!("Xavier initialization: fan_in + fan_out is 0"),
        _ => panic!(
            "Xavier initialization needs fan_in and fan_out: use Initializer::init_with(shape, fan_in, fan_out, device)"
        ),
    }
}
