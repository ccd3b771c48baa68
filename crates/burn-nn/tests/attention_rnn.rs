//! Multi-head attention, the transformer encoder, positional encoding, LSTM and GRU against
//! float64 loops of their definitions.

mod common;

use burn_core::module::Param;
use burn_core::tensor::{Bool, Device, Tensor, TensorData};
use burn_nn::attention::*;
use burn_nn::transformer::*;
use burn_nn::*;
use common::*;

/// Affine weights `[d_in, d_out]` and bias read back from a linear layer.
struct Affine {
    w: Vec<f64>,
    b: Vec<f64>,
    d_out: usize,
}

impl Affine {
    /// `x·W + b` for each row of `x`.
    fn apply(&self, x: &[f64]) -> Vec<f64> {
        let d_in = self.w.len() / self.d_out;
        x.chunks(d_in)
            .flat_map(|row| {
                (0..self.d_out).map(move |o| {
                    self.b[o]
                        + row
                            .iter()
                            .enumerate()
                            .map(|(i, v)| v * self.w[i * self.d_out + o])
                            .sum::<f64>()
                })
            })
            .collect()
    }
}

/// Gives `linear` deterministic weights and a bias, returning them.
fn set_linear(linear: &mut Linear, seed: u64, device: &Device) -> Affine {
    let [d_in, d_out] = linear.weight.lazy_shape().dims::<2>();
    let w: Vec<f64> = sample(d_in * d_out, seed).iter().map(|v| v * 0.8).collect();
    let b = sample(d_out, seed + 1000);
    linear.weight = Param::from_tensor(tensor(&w, [d_in, d_out], device));
    linear.bias = Some(Param::from_tensor(tensor(&b, [d_out], device)));
    Affine { w, b, d_out }
}

/// Multi-head attention of `x [b, s, d]` over itself with `mask[b][i][j]` (true = masked).
fn mha_reference(
    x: &[f64],
    [b, s, d]: [usize; 3],
    heads: usize,
    p: &[Affine; 4],
    mask: &dyn Fn(usize, usize, usize) -> bool,
) -> Vec<f64> {
    let (q, k, v) = (p[0].apply(x), p[1].apply(x), p[2].apply(x));
    let dk = d / heads;
    let mut context = vec![0.0; b * s * d];
    for bi in 0..b {
        for h in 0..heads {
            for i in 0..s {
                let scores: Vec<f64> = (0..s)
                    .map(|j| {
                        if mask(bi, i, j) {
                            return -1.0e4;
                        }
                        (0..dk)
                            .map(|c| {
                                q[(bi * s + i) * d + h * dk + c] * k[(bi * s + j) * d + h * dk + c]
                            })
                            .sum::<f64>()
                            / (dk as f64).sqrt()
                    })
                    .collect();
                let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let total: f64 = scores.iter().map(|v| (v - max).exp()).sum();
                for j in 0..s {
                    let weight = (scores[j] - max).exp() / total;
                    for c in 0..dk {
                        context[(bi * s + i) * d + h * dk + c] +=
                            weight * v[(bi * s + j) * d + h * dk + c];
                    }
                }
            }
        }
    }
    p[3].apply(&context)
}

fn mha_with_weights(d: usize, heads: usize, device: &Device) -> (MultiHeadAttention, [Affine; 4]) {
    let mut mha = MultiHeadAttentionConfig::new(d, heads)
        .with_dropout(0.0)
        .init(device);
    let affines = [
        set_linear(&mut mha.query, 1, device),
        set_linear(&mut mha.key, 2, device),
        set_linear(&mut mha.value, 3, device),
        set_linear(&mut mha.output, 4, device),
    ];
    (mha, affines)
}

#[test]
fn multi_head_attention_matches_the_definition_with_masks() {
    let dims = [2, 4, 6];
    let x = sample(2 * 4 * 6, 20);
    for device in devices() {
        let (mha, p) = mha_with_weights(6, 3, &device);
        let out = mha.forward(MhaInput::self_attn(tensor(&x, dims, &device)));
        assert_eq!(out.weights.dims(), [2, 3, 4, 4]);
        assert_close(
            &values(out.context),
            &mha_reference(&x, dims, 3, &p, &|_, _, _| false),
            1e-4,
        );

        // Causal mask and padding of the last key of batch 1.
        let pad = Tensor::<2, Bool>::from_bool(
            TensorData::from([[false, false, false, false], [false, false, false, true]]),
            &device,
        );
        let input = MhaInput::self_attn(tensor(&x, dims, &device))
            .mask_attn(generate_autoregressive_mask(2, 4, &device))
            .mask_pad(pad);
        let masked = |b: usize, i: usize, j: usize| j > i || (b == 1 && j == 3);
        let out = mha.forward(input);
        assert_close(
            &values(out.context),
            &mha_reference(&x, dims, 3, &p, &masked),
            1e-4,
        );
        // Each row of weights sums to one.
        let sums = values(out.weights.sum_dim(3));
        assert_close(&sums, &vec![1.0; sums.len()], 1e-5);
    }
}

#[test]
fn autoregressive_mask_hides_the_future() {
    let mask = generate_autoregressive_mask(1, 3, &Device::flex());
    let data = mask.into_data().to_vec::<bool>().unwrap();
    assert_eq!(
        data,
        vec![false, true, true, false, false, true, false, false, false]
    );
}

#[test]
fn quiet_softmax_can_attend_to_nothing() {
    // Weights are e^s / (1 + Σ e^s): every row sums to less than one.
    let device = Device::flex();
    let mha = MultiHeadAttentionConfig::new(4, 2)
        .with_quiet_softmax(true)
        .init(&device);
    let out = mha.forward(MhaInput::self_attn(tensor(
        &sample(12, 5),
        [1, 3, 4],
        &device,
    )));
    assert!(
        values(out.weights.sum_dim(3))
            .iter()
            .all(|&s| s > 0.0 && s < 1.0)
    );
}

#[test]
fn feed_forward_is_two_linear_layers_around_gelu() {
    let device = Device::flex();
    let mut ff = PositionWiseFeedForwardConfig::new(4, 8).init(&device);
    let inner = set_linear(&mut ff.linear_inner, 30, &device);
    let outer = set_linear(&mut ff.linear_outer, 31, &device);
    let x = sample(2 * 3 * 4, 32);
    // GELU by the tanh formula's reference would differ by ~1e-3; use Φ via erf series.
    let gelu = |v: f64| {
        let z = v / 2f64.sqrt();
        let (mut term, mut sum, mut n) = (z, z, 0.0);
        while term.abs() > 1e-17 {
            n += 1.0;
            term *= -z * z / n;
            sum += term / (2.0 * n + 1.0);
        }
        v * 0.5 * (1.0 + 2.0 / core::f64::consts::PI.sqrt() * sum)
    };
    let hidden: Vec<f64> = inner.apply(&x).into_iter().map(gelu).collect();
    let expected = outer.apply(&hidden);
    // Dropout is inactive on the plain device.
    assert_close(
        &values(ff.forward(tensor(&x, [2, 3, 4], &device))),
        &expected,
        1e-4,
    );
}

#[test]
fn transformer_encoder_composes_its_blocks() {
    let device = Device::flex();
    let x = tensor(&sample(2 * 5 * 8, 40), [2, 5, 8], &device);
    for norm_first in [false, true] {
        let encoder = TransformerEncoderConfig::new(8, 16, 2, 2)
            .with_norm_first(norm_first)
            .init(&device);
        let out = encoder.forward(TransformerEncoderInput::new(x.clone()));
        assert_eq!(out.dims(), [2, 5, 8]);
        // By hand from the sub-modules (dropout is the identity here).
        let mut h = x.clone();
        for layer in &encoder.layers {
            let attend = |t: Tensor<3>| layer.mha.forward(MhaInput::self_attn(t)).context;
            h = if norm_first {
                let h = h.clone() + attend(layer.norm_1.forward(h));
                h.clone() + layer.pwff.forward(layer.norm_2.forward(h))
            } else {
                let h = layer.norm_1.forward(h.clone() + attend(h));
                layer.norm_2.forward(h.clone() + layer.pwff.forward(h))
            };
        }
        assert_close(&values(out), &values(h), 1e-5);
    }
}

#[test]
fn transformer_encoder_ignores_padded_positions() {
    // Changing the values at padded positions leaves the other outputs unchanged.
    let device = Device::flex();
    let encoder = TransformerEncoderConfig::new(8, 16, 2, 2).init(&device);
    let a = sample(4 * 8, 50);
    let mut b = a.clone();
    b[3 * 8..].iter_mut().for_each(|v| *v += 1.0);
    let pad =
        || Tensor::<2, Bool>::from_bool(TensorData::from([[false, false, false, true]]), &device);
    let run =
        |x: &[f64]| {
            values(encoder.forward(
                TransformerEncoderInput::new(tensor(x, [1, 4, 8], &device)).mask_pad(pad()),
            ))
        };
    let (ya, yb) = (run(&a), run(&b));
    assert_close(&ya[..3 * 8], &yb[..3 * 8], 1e-6);
}

#[test]
fn positional_encoding_adds_sinusoids() {
    let device = Device::flex();
    let pe = PositionalEncodingConfig::new(6)
        .with_max_sequence_size(10)
        .init(&device);
    let x = sample(2 * 4 * 6, 60);
    let y = values(pe.forward(tensor(&x, [2, 4, 6], &device)));
    let expected: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(idx, v)| {
            let (p, c) = ((idx / 6) % 4, idx % 6);
            let angle = p as f64 / 10_000f64.powf((c - c % 2) as f64 / 6.0);
            v + if c % 2 == 0 { angle.sin() } else { angle.cos() }
        })
        .collect();
    assert_close(&y, &expected, 1e-6);
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The input and hidden affine maps of a gate, with deterministic weights.
fn set_gate(gate: &mut GateController, seed: u64, device: &Device) -> (Affine, Affine) {
    (
        set_linear(&mut gate.input_transform, seed, device),
        set_linear(&mut gate.hidden_transform, seed + 1, device),
    )
}

/// `W_i·x_t + b_i + W_h·h + b_h` for one sample.
fn gate(g: &(Affine, Affine), x: &[f64], h: &[f64]) -> Vec<f64> {
    g.0.apply(x)
        .iter()
        .zip(g.1.apply(h))
        .map(|(a, b)| a + b)
        .collect()
}

#[test]
fn lstm_matches_the_definition() {
    let (batch, seq, d_in, d_h) = (2, 3, 4, 5);
    let x = sample(batch * seq * d_in, 70);
    for device in devices() {
        let mut lstm = LstmConfig::new(d_in, d_h, true).init(&device);
        let gi = set_gate(&mut lstm.input_gate, 71, &device);
        let gf = set_gate(&mut lstm.forget_gate, 73, &device);
        let go = set_gate(&mut lstm.output_gate, 75, &device);
        let gg = set_gate(&mut lstm.cell_gate, 77, &device);
        let (ys, state) = lstm.forward(tensor(&x, [batch, seq, d_in], &device), None);
        assert_eq!(ys.dims(), [batch, seq, d_h]);
        let mut expected = Vec::new();
        let (mut last_c, mut last_h) = (Vec::new(), Vec::new());
        for b in 0..batch {
            let (mut c, mut h) = (vec![0.0; d_h], vec![0.0; d_h]);
            for t in 0..seq {
                let xt = &x[(b * seq + t) * d_in..(b * seq + t + 1) * d_in];
                let (i, f, o, g) = (
                    gate(&gi, xt, &h),
                    gate(&gf, xt, &h),
                    gate(&go, xt, &h),
                    gate(&gg, xt, &h),
                );
                for k in 0..d_h {
                    c[k] = sigmoid(f[k]) * c[k] + sigmoid(i[k]) * g[k].tanh();
                    h[k] = sigmoid(o[k]) * c[k].tanh();
                }
                expected.extend_from_slice(&h);
            }
            last_c.extend_from_slice(&c);
            last_h.extend_from_slice(&h);
        }
        assert_close(&values(ys), &expected, 1e-5);
        assert_close(&values(state.cell), &last_c, 1e-5);
        assert_close(&values(state.hidden), &last_h, 1e-5);
    }
}

#[test]
fn gru_matches_the_definition_with_reset_before_and_after() {
    let (batch, seq, d_in, d_h) = (2, 3, 3, 4);
    let x = sample(batch * seq * d_in, 80);
    let h0 = sample(batch * d_h, 81);
    for reset_after in [true, false] {
        let device = Device::flex().autodiff();
        let mut gru = GruConfig::new(d_in, d_h, true)
            .with_reset_after(reset_after)
            .init(&device);
        let gz = set_gate(&mut gru.update_gate, 82, &device);
        let gr = set_gate(&mut gru.reset_gate, 84, &device);
        let gn = set_gate(&mut gru.new_gate, 86, &device);
        let ys = gru.forward(
            tensor(&x, [batch, seq, d_in], &device),
            Some(tensor(&h0, [batch, d_h], &device)),
        );
        let mut expected = Vec::new();
        for b in 0..batch {
            let mut h = h0[b * d_h..(b + 1) * d_h].to_vec();
            for t in 0..seq {
                let xt = &x[(b * seq + t) * d_in..(b * seq + t + 1) * d_in];
                let z: Vec<f64> = gate(&gz, xt, &h).into_iter().map(sigmoid).collect();
                let r: Vec<f64> = gate(&gr, xt, &h).into_iter().map(sigmoid).collect();
                let input_part = gn.0.apply(xt);
                let hidden_part = if reset_after {
                    gn.1.apply(&h)
                        .iter()
                        .zip(&r)
                        .map(|(a, r)| a * r)
                        .collect::<Vec<_>>()
                } else {
                    let rh: Vec<f64> = h.iter().zip(&r).map(|(h, r)| h * r).collect();
                    gn.1.apply(&rh)
                };
                for k in 0..d_h {
                    let n = (input_part[k] + hidden_part[k]).tanh();
                    h[k] = (1.0 - z[k]) * n + z[k] * h[k];
                }
                expected.extend_from_slice(&h);
            }
        }
        let ys_values = values(ys.clone());
        assert_close(&ys_values, &expected, 1e-5);
        // Gradients reach every gate.
        let grads = ys.sum().backward();
        assert!(gru.new_gate.hidden_transform.weight.grad(&grads).is_some());
        assert!(
            gru.update_gate
                .input_transform
                .weight
                .grad(&grads)
                .is_some()
        );
    }
}
