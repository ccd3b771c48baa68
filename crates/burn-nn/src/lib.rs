//! Neural-network layers over `burn-core` modules: linear and embedding layers, dropout,
//! activations, normalization, convolution, pooling, initializers and losses.
//!
//! Every layer is built from a `…Config` (`#[derive(Config)]`: `new(required…)`, then
//! `with_<field>` builders) whose `init(&device)` returns the module with its parameters on
//! that device. Parameters are lazy: nothing is computed until a parameter is first used, so a
//! model can be built and then loaded without drawing initial values it would overwrite.
//! No type carries a backend: the device of the input picks it.
//!
//! ```
//! use burn_nn::{LinearConfig, Relu};
//! use burn_core::tensor::{Device, Tensor};
//!
//! let device = Device::flex();
//! let linear = LinearConfig::new(3, 2).init(&device);
//! let x = Tensor::<2>::ones([4, 3], &device);
//! let y = Relu::new().forward(linear.forward(x));
//! assert_eq!(y.dims(), [4, 2]);
//! ```
#![warn(missing_docs)]

// The derives name `burn::…`.
extern crate burn_core as burn;

mod activation;
mod dropout;
mod embedding;
mod initializer;
mod linear;
mod orthogonal;
mod padding;
mod pos_encoding;
mod rnn;
mod running;

pub mod attention;
pub mod conv;
pub mod loss;
mod norm;
pub mod pool;
pub mod transformer;

pub use activation::*;
pub use dropout::{Dropout, DropoutConfig};
pub use embedding::{Embedding, EmbeddingConfig};
pub use initializer::Initializer;
pub use linear::{Linear, LinearConfig};
pub use norm::{
    BatchNorm, BatchNormConfig, GroupNorm, GroupNormConfig, LayerNorm, LayerNormConfig, RmsNorm,
    RmsNormConfig,
};
pub use padding::{PaddingConfig1d, PaddingConfig2d};
pub use pos_encoding::{PositionalEncoding, PositionalEncodingConfig, generate_sinusoids};
pub use rnn::{GateController, Gru, GruConfig, Lstm, LstmConfig, LstmState};
pub use running::RunningState;
