//! The transformer encoder and its position-wise feed-forward block.

mod encoder;
mod pwff;

pub use encoder::{
    TransformerEncoder, TransformerEncoderConfig, TransformerEncoderInput, TransformerEncoderLayer,
};
pub use pwff::{PositionWiseFeedForward, PositionWiseFeedForwardConfig};
