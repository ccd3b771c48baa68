//! `Embedding`: a lookup table of vectors indexed by token ids.

use crate::Initializer;
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Int, Tensor};

/// Configuration of an [`Embedding`] layer.
#[derive(Config, Debug)]
pub struct EmbeddingConfig {
    /// The number of embedding vectors (the vocabulary size).
    pub n_embedding: usize,
    /// The size of each vector.
    pub d_model: usize,
    /// How the table is initialized. Default: `Normal { mean: 0, std: 1 }` (PyTorch's).
    #[config(default = "Initializer::Normal { mean: 0.0, std: 1.0 }")]
    pub initializer: Initializer,
}

/// A lookup table: `y[b, s, :] = W[ids[b, s], :]` with `W: [n_embedding, d_model]`.
#[derive(Module, Debug)]
pub struct Embedding {
    /// The table `W`, `[n_embedding, d_model]`.
    pub weight: Param<Tensor<2>>,
}

impl EmbeddingConfig {
    /// The layer, with a lazily initialized table on `device`.
    pub fn init(&self, device: &Device) -> Embedding {
        let weight = self.initializer.init_with(
            [self.n_embedding, self.d_model],
            Some(self.n_embedding),
            Some(self.d_model),
            device,
        );
        Embedding { weight }
    }
}

impl Embedding {
    /// The rows of the table picked by `input: [batch, seq]`, giving `[batch, seq, d_model]`.
    pub fn forward(&self, input: Tensor<2, Int>) -> Tensor<3> {
        burn::tensor::module::embedding(self.weight.val(), input)
    }
}
