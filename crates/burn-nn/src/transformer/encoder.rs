//! `TransformerEncoder`: a stack of self-attention + feed-forward blocks.

use super::{PositionWiseFeedForward, PositionWiseFeedForwardConfig};
use crate::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
use crate::{Dropout, DropoutConfig, Initializer, LayerNorm, LayerNormConfig};
use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Bool, Device, Tensor};

/// Configuration of a [`TransformerEncoder`].
#[derive(Config, Debug)]
pub struct TransformerEncoderConfig {
    /// The model size.
    pub d_model: usize,
    /// The hidden size of the feed-forward blocks.
    pub d_ff: usize,
    /// The number of attention heads.
    pub n_heads: usize,
    /// The number of layers.
    pub n_layers: usize,
    /// The dropout probability (attention weights, feed-forward, residual branches).
    /// Default: 0.1.
    #[config(default = 0.1)]
    pub dropout: f64,
    /// Normalize before each sub-block (pre-norm) instead of after the residual sum
    /// (post-norm, the original transformer's). Default: false.
    #[config(default = false)]
    pub norm_first: bool,
    /// Use the quiet softmax in attention. Default: false.
    #[config(default = false)]
    pub quiet_softmax: bool,
    /// How the linear layers are initialized. Default:
    /// `KaimingUniform { gain: 1/√3, fan_out_only: false }`.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
    /// The epsilon of the layer norms. Default: 1e-5.
    #[config(default = 1e-5)]
    pub layer_norm_eps: f64,
}

/// A transformer encoder (`torch.nn.TransformerEncoder` with GELU): `n_layers` blocks of
///
/// - post-norm: `x = norm₁(x + drop(mha(x)))`, then `x = norm₂(x + drop(ff(x)))`;
/// - pre-norm (`norm_first`): `x = x + drop(mha(norm₁(x)))`, then `x = x + drop(ff(norm₂(x)))`.
#[derive(Module, Debug)]
pub struct TransformerEncoder {
    /// The blocks.
    pub layers: Vec<TransformerEncoderLayer>,
}

/// One block of a [`TransformerEncoder`].
#[derive(Module, Debug)]
pub struct TransformerEncoderLayer {
    /// Self-attention.
    pub mha: MultiHeadAttention,
    /// The feed-forward block.
    pub pwff: PositionWiseFeedForward,
    /// The norm around attention.
    pub norm_1: LayerNorm,
    /// The norm around the feed-forward block.
    pub norm_2: LayerNorm,
    /// Dropout of the residual branches.
    pub dropout: Dropout,
    /// Whether the norms come first.
    pub norm_first: bool,
}

/// The input of [`TransformerEncoder::forward`]: `[batch, seq, d_model]` and optional masks
/// (true = may not attend).
#[derive(Debug, Clone)]
pub struct TransformerEncoderInput {
    /// The sequence, `[batch, seq, d_model]`.
    pub tensor: Tensor<3>,
    /// Padded positions, `[batch, seq]`.
    pub mask_pad: Option<Tensor<2, Bool>>,
    /// Forbidden (query, key) pairs, `[batch, seq, seq]`.
    pub mask_attn: Option<Tensor<3, Bool>>,
}

impl TransformerEncoderInput {
    /// An input without masks.
    pub fn new(tensor: Tensor<3>) -> Self {
        Self {
            tensor,
            mask_pad: None,
            mask_attn: None,
        }
    }

    /// With a padding mask.
    pub fn mask_pad(mut self, mask_pad: Tensor<2, Bool>) -> Self {
        self.mask_pad = Some(mask_pad);
        self
    }

    /// With an attention mask.
    pub fn mask_attn(mut self, mask_attn: Tensor<3, Bool>) -> Self {
        self.mask_attn = Some(mask_attn);
        self
    }
}

impl TransformerEncoderConfig {
    /// The encoder, with lazily initialized parameters on `device`.
    pub fn init(&self, device: &Device) -> TransformerEncoder {
        let layers = (0..self.n_layers)
            .map(|_| self.init_layer(device))
            .collect();
        TransformerEncoder { layers }
    }

    fn init_layer(&self, device: &Device) -> TransformerEncoderLayer {
        let norm = || {
            LayerNormConfig::new(self.d_model)
                .with_epsilon(self.layer_norm_eps)
                .init(device)
        };
        TransformerEncoderLayer {
            mha: MultiHeadAttentionConfig::new(self.d_model, self.n_heads)
                .with_dropout(self.dropout)
                .with_quiet_softmax(self.quiet_softmax)
                .with_initializer(self.initializer.clone())
                .init(device),
            pwff: PositionWiseFeedForwardConfig::new(self.d_model, self.d_ff)
                .with_dropout(self.dropout)
                .with_initializer(self.initializer.clone())
                .init(device),
            norm_1: norm(),
            norm_2: norm(),
            dropout: DropoutConfig::new(self.dropout).init(),
            norm_first: self.norm_first,
        }
    }
}

impl TransformerEncoder {
    /// Encodes `input.tensor [batch, seq, d_model]`.
    pub fn forward(&self, input: TransformerEncoderInput) -> Tensor<3> {
        let TransformerEncoderInput {
            tensor,
            mask_pad,
            mask_attn,
        } = input;
        self.layers.iter().fold(tensor, |x, layer| {
            layer.forward(x, mask_pad.clone(), mask_attn.clone())
        })
    }
}

impl TransformerEncoderLayer {
    /// Applies the block to `x [batch, seq, d_model]`.
    pub fn forward(
        &self,
        x: Tensor<3>,
        mask_pad: Option<Tensor<2, Bool>>,
        mask_attn: Option<Tensor<3, Bool>>,
    ) -> Tensor<3> {
        let attend = |x: Tensor<3>| {
            let mut input = MhaInput::self_attn(x);
            input.mask_pad = mask_pad;
            input.mask_attn = mask_attn;
            self.dropout.forward(self.mha.forward(input).context)
        };
        let feed = |x: Tensor<3>| self.dropout.forward(self.pwff.forward(x));
        if self.norm_first {
            let x = x.clone().add(attend(self.norm_1.forward(x)));
            x.clone().add(feed(self.norm_2.forward(x)))
        } else {
            let x = self.norm_1.forward(x.clone().add(attend(x)));
            self.norm_2.forward(x.clone().add(feed(x)))
        }
    }
}
