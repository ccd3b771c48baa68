//! `PositionalEncoding`: the sinusoidal position signal of "Attention Is All You Need".

use burn::config::Config;
use burn::module::{Ignored, Module};
use burn::tensor::{Device, Tensor, TensorData};

/// Configuration of a [`PositionalEncoding`] layer.
#[derive(Config, Debug)]
pub struct PositionalEncodingConfig {
    /// The model size (even).
    pub d_model: usize,
    /// The longest sequence supported. Default: 5000.
    #[config(default = 5_000)]
    pub max_sequence_size: usize,
    /// The largest wavelength scale. Default: 10000.
    #[config(default = 10_000)]
    pub max_timescale: usize,
}

/// Adds the sinusoids to `x [batch, seq, d_model]`:
///
/// `PE[p, 2i] = sin(p / T^(2i/d_model))`, `PE[p, 2i+1] = cos(p / T^(2i/d_model))`
///
/// with `T = max_timescale`.
#[derive(Module, Debug)]
pub struct PositionalEncoding {
    /// The sinusoids, `[1, max_sequence_size, d_model]` (a constant, not a parameter).
    pub sinusoids: Ignored<Tensor<3>>,
    /// The longest sequence supported.
    pub max_sequence_size: usize,
    /// The largest wavelength scale.
    pub max_timescale: usize,
}

impl PositionalEncodingConfig {
    /// The layer, with its sinusoids on `device`. Panics unless `d_model` is even.
    pub fn init(&self, device: &Device) -> PositionalEncoding {
        let table = generate_sinusoids(self.max_sequence_size, self.d_model, self.max_timescale);
        let data = TensorData::new(table, [1, self.max_sequence_size, self.d_model]);
        PositionalEncoding {
            sinusoids: Ignored(Tensor::from_data(data, device)),
            max_sequence_size: self.max_sequence_size,
            max_timescale: self.max_timescale,
        }
    }
}

impl PositionalEncoding {
    /// `input + PE[..seq]` for `input [batch, seq, d_model]`.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let [_, seq, d_model] = input.dims();
        let [_, max, d] = self.sinusoids.dims();
        if seq > max || d_model != d {
            panic!(
                "PositionalEncoding: input [batch, {seq}, {d_model}] exceeds the table [{max}, {d}]"
            );
        }
        let pe = self
            .sinusoids
            .0
            .clone()
            .narrow(1, 0, seq)
            .to_device(&input.device());
        input.add(pe)
    }
}

/// The sinusoid table `[length, d_model]` (row-major) described on [`PositionalEncoding`].
/// Panics unless `d_model` is even.
pub fn generate_sinusoids(length: usize, d_model: usize, max_timescale: usize) -> Vec<f32> {
    if !d_model.is_multiple_of(2) {
        panic!("PositionalEncoding: d_model must be even, got {d_model}");
    }
    let mut table = vec![0f32; length * d_model];
    for p in 0..length {
        for i in 0..d_model / 2 {
            let rate = (max_timescale as f64).powf(-((2 * i) as f64) / d_model as f64);
            let angle = p as f64 * rate;
            table[p * d_model + 2 * i] = angle.sin() as f32;
            table[p * d_model + 2 * i + 1] = angle.cos() as f32;
        }
    }
    table
}
