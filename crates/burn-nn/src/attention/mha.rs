//! `MultiHeadAttention`: scaled dot-product attention over several heads.

use crate::{Dropout, DropoutConfig, Initializer, Linear, LinearConfig};
use burn::config::Config;
use burn::module::Module;
use burn::tensor::activation::softmax;
use burn::tensor::{Bool, Device, Tensor};

/// Configuration of a [`MultiHeadAttention`] layer.
#[derive(Config, Debug)]
pub struct MultiHeadAttentionConfig {
    /// The model size (of queries, keys, values and the output).
    pub d_model: usize,
    /// The number of heads; divides `d_model`.
    pub n_heads: usize,
    /// The dropout probability of the attention weights. Default: 0.1.
    #[config(default = 0.1)]
    pub dropout: f64,
    /// The score given to masked positions (a large negative number). Default: -1e4.
    #[config(default = -1.0e4)]
    pub min_float: f64,
    /// Use the "quiet" softmax `e^x_i / (1 + Σ_j e^x_j)`, which lets a head attend to
    /// nothing. Default: false.
    #[config(default = false)]
    pub quiet_softmax: bool,
    /// How the four projections are initialized. Default:
    /// `KaimingUniform { gain: 1/√3, fan_out_only: false }`.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// Multi-head attention ("Attention Is All You Need"): with `d_k = d_model / n_heads` and
/// `Q = x_q·W_q + b_q`, `K = x_k·W_k + b_k`, `V = x_v·W_v + b_v` split into heads,
///
/// `head_h = softmax(Q_h·K_hᵀ / √d_k + mask) · V_h`,
/// `output = concat(head_1, …, head_n)·W_o + b_o`
///
/// where masked scores are replaced by `min_float`. Dropout applies to the attention weights
/// (on autodiff devices, as [`Dropout`]).
#[derive(Module, Debug)]
pub struct MultiHeadAttention {
    /// The query projection.
    pub query: Linear,
    /// The key projection.
    pub key: Linear,
    /// The value projection.
    pub value: Linear,
    /// The output projection.
    pub output: Linear,
    /// Dropout of the attention weights.
    pub dropout: Dropout,
    /// The model size.
    pub d_model: usize,
    /// The number of heads.
    pub n_heads: usize,
    /// The size of a head.
    pub d_k: usize,
    /// The score of masked positions.
    pub min_float: f64,
    /// Whether the quiet softmax is used.
    pub quiet_softmax: bool,
}

/// The inputs of [`MultiHeadAttention::forward`]: `[batch, seq, d_model]` queries, keys and
/// values, and optional masks (true = may not attend).
#[derive(Debug, Clone)]
pub struct MhaInput {
    /// The queries, `[batch, seq_q, d_model]`.
    pub query: Tensor<3>,
    /// The keys, `[batch, seq_k, d_model]`.
    pub key: Tensor<3>,
    /// The values, `[batch, seq_k, d_model]`.
    pub value: Tensor<3>,
    /// Padded key positions, `[batch, seq_k]`.
    pub mask_pad: Option<Tensor<2, Bool>>,
    /// Forbidden (query, key) pairs, `[batch, seq_q, seq_k]`.
    pub mask_attn: Option<Tensor<3, Bool>>,
}

impl MhaInput {
    /// Self-attention: `tensor` as queries, keys and values.
    pub fn self_attn(tensor: Tensor<3>) -> Self {
        Self::new(tensor.clone(), tensor.clone(), tensor)
    }

    /// Attention of `query` over `key` / `value`.
    pub fn new(query: Tensor<3>, key: Tensor<3>, value: Tensor<3>) -> Self {
        Self {
            query,
            key,
            value,
            mask_pad: None,
            mask_attn: None,
        }
    }

    /// With a padding mask `[batch, seq_k]`.
    pub fn mask_pad(mut self, mask_pad: Tensor<2, Bool>) -> Self {
        self.mask_pad = Some(mask_pad);
        self
    }

    /// With an attention mask `[batch, seq_q, seq_k]`.
    pub fn mask_attn(mut self, mask_attn: Tensor<3, Bool>) -> Self {
        self.mask_attn = Some(mask_attn);
        self
    }
}

/// The outputs of [`MultiHeadAttention::forward`].
#[derive(Debug, Clone)]
pub struct MhaOutput {
    /// The attention weights, `[batch, n_heads, seq_q, seq_k]`.
    pub weights: Tensor<4>,
    /// The attended values after the output projection, `[batch, seq_q, d_model]`.
    pub context: Tensor<3>,
}

impl MultiHeadAttentionConfig {
    /// The layer, with lazily initialized projections on `device`. Panics unless `n_heads`
    /// divides `d_model`.
    pub fn init(&self, device: &Device) -> MultiHeadAttention {
        if self.n_heads == 0 || !self.d_model.is_multiple_of(self.n_heads) {
            panic!(
                "MultiHeadAttentionConfig: d_model ({}) must be a multiple of n_heads ({})",
                self.d_model, self.n_heads
            );
        }
        let linear = || {
            LinearConfig::new(self.d_model, self.d_model)
                .with_initializer(self.initializer.clone())
                .init(device)
        };
        MultiHeadAttention {
            query: linear(),
            key: linear(),
            value: linear(),
            output: linear(),
            dropout: DropoutConfig::new(self.dropout).init(),
            d_model: self.d_model,
            n_heads: self.n_heads,
            d_k: self.d_model / self.n_heads,
            min_float: self.min_float,
            quiet_softmax: self.quiet_softmax,
        }
    }
}

impl MultiHeadAttention {
    /// Attends the queries over the keys and values of `input`.
    pub fn forward(&self, input: MhaInput) -> MhaOutput {
        let [batch, seq_q, d_model] = input.query.dims();
        let [_, seq_k, _] = input.key.dims();
        if d_model != self.d_model {
            panic!(
                "MultiHeadAttention: expected queries [batch, seq, {}], got {:?}",
                self.d_model,
                input.query.dims()
            );
        }
        let q = self.heads(self.query.forward(input.query));
        let k = self.heads(self.key.forward(input.key));
        let v = self.heads(self.value.forward(input.value));
        let mut scores = q
            .matmul(k.swap_dims(2, 3))
            .div_scalar((self.d_k as f64).sqrt());
        let full = [batch, self.n_heads, seq_q, seq_k];
        if let Some(mask) = input.mask_pad {
            let mask = mask.reshape([batch, 1, 1, seq_k]).expand(full);
            scores = scores.mask_fill(mask, self.min_float);
        }
        if let Some(mask) = input.mask_attn {
            let mask = mask.reshape([batch, 1, seq_q, seq_k]).expand(full);
            scores = scores.mask_fill(mask, self.min_float);
        }
        let weights = if self.quiet_softmax {
            quiet_softmax(scores)
        } else {
            softmax(scores, 3)
        };
        let weights = self.dropout.forward(weights);
        let context =
            weights
                .clone()
                .matmul(v)
                .swap_dims(1, 2)
                .reshape([batch, seq_q, self.d_model]);
        MhaOutput {
            weights,
            context: self.output.forward(context),
        }
    }

    /// `[batch, seq, d_model]` as `[batch, n_heads, seq, d_k]`.
    fn heads(&self, x: Tensor<3>) -> Tensor<4> {
        let [batch, seq, _] = x.dims();
        x.reshape([batch, seq, self.n_heads, self.d_k])
            .swap_dims(1, 2)
    }
}

/// `e^x_i / (1 + Σ_j e^x_j)` along the last dim, shifted by `max(max_j x_j, 0)` for stability.
fn quiet_softmax(scores: Tensor<4>) -> Tensor<4> {
    let shift = scores.clone().max_dim(3).clamp_min(0.0).detach();
    let exp = scores.sub(shift.clone()).exp();
    let denominator = exp.clone().sum_dim(3).add(shift.neg().exp());
    exp.div(denominator)
}
