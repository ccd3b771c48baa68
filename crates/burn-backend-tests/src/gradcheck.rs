//! Gradient checks over the public API: analytic gradients from `backward` against finite
//! differences of the same function on the inner device.
//!
//! - float64 devices: central differences on every input element (PyTorch `gradcheck`:
//!   eps 1e-6, atol 1e-5, rtol 1e-3);
//! - other float dtypes: one random direction per input (JAX `check_grads` style): the
//!   directional derivative against `sum_i <grad_i, v_i>`.
//!
//! Each check runs twice, without checkpointing and with balanced checkpointing, and the two
//! analytic gradients must agree. A function gets its inputs as flat 1-d tensors (reshape
//! inside) and returns any tensor flattened to 1-d; the loss is its dot product with fixed
//! random weights, so every output element's gradient path is exercised.

use burn::tensor::{Device, FloatDType, Gradients, Tensor, TensorData};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One input of a gradient check: its values (flat) before rounding to the device dtype.
#[derive(Clone, Debug)]
pub struct GradInput {
    /// The values.
    pub values: Vec<f64>,
}

impl GradInput {
    /// `len` values drawn uniformly from `[low, high)`, seeded by `seed`.
    pub fn uniform(len: usize, low: f64, high: f64, seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        Self {
            values: (0..len).map(|_| rng.random_range(low..high)).collect(),
        }
    }

    /// `len` values in `[low, high)` at least `gap` apart from each other (for max, sort and
    /// other ops whose gradient jumps at ties).
    pub fn distinct(len: usize, low: f64, high: f64, seed: u64) -> Self {
        let mut input = Self::uniform(len, 0.0, 1.0, seed);
        let mut order: Vec<usize> = (0..len).collect();
        order.sort_by(|&a, &b| input.values[a].total_cmp(&input.values[b]));
        let step = (high - low) / len as f64;
        for (rank, &i) in order.iter().enumerate() {
            input.values[i] = low + step * (rank as f64 + 0.5);
        }
        input
    }

    /// These exact values.
    pub fn values(values: &[f64]) -> Self {
        Self {
            values: values.to_vec(),
        }
    }
}

/// The function under test: flat 1-d inputs in, any values out (flattened to 1-d).
pub type GradFn<'a> = &'a dyn Fn(&[Tensor<1>]) -> Tensor<1>;

/// Checks the gradients of `f` at `inputs` on `device` (a plain device; its autodiff views
/// are used for the analytic pass). Panics naming `name` and the first mismatch.
pub fn check_gradients(name: &str, device: &Device, inputs: &[GradInput], f: GradFn<'_>) {
    let dtype = device.settings().float_dtype;
    let inputs: Vec<Vec<f64>> = inputs
        .iter()
        .map(|i| {
            i.values
                .iter()
                .map(|&v| crate::round_to(dtype, v))
                .collect()
        })
        .collect();
    let plain = device.inner();
    let out_len = f(&leaves(&plain, &inputs, false)).dims()[0];
    let weights = GradInput::uniform(out_len, 0.5, 1.5, crate::seed(name)).values;

    let analytic = analytic_gradients(&plain.autodiff(), &inputs, &weights, f);
    let balanced = analytic_gradients(&plain.gradient_checkpointing(), &inputs, &weights, f);
    for (i, (a, b)) in analytic.iter().zip(&balanced).enumerate() {
        for (j, (x, y)) in a.iter().zip(b).enumerate() {
            let tolerance = 1e-12 + 1e-9 * x.abs().max(y.abs());
            let close = (x - y).abs() <= tolerance
                || (dtype != FloatDType::F64 && (x - y).abs() <= 1e-5 * (1.0 + x.abs()));
            assert!(
                close,
                "{name}: input {i} element {j}: the gradient with checkpointing ({y}) differs \
                 from the one without ({x})"
            );
        }
    }

    let loss = |values: &[Vec<f64>]| -> f64 {
        let out = f(&leaves(&plain, values, false));
        weighted_sum(out, &weights, &plain)
    };
    if dtype == FloatDType::F64 {
        check_every_element(name, &inputs, &analytic, loss);
    } else {
        check_random_direction(name, &inputs, &analytic, loss);
    }
}

/// Central differences on every element, PyTorch `gradcheck` tolerances.
fn check_every_element(
    name: &str,
    inputs: &[Vec<f64>],
    analytic: &[Vec<f64>],
    loss: impl Fn(&[Vec<f64>]) -> f64,
) {
    const EPS: f64 = 1e-6;
    const ATOL: f64 = 1e-5;
    const RTOL: f64 = 1e-3;
    for (i, input) in inputs.iter().enumerate() {
        for j in 0..input.len() {
            let mut shifted = inputs.to_vec();
            shifted[i][j] = input[j] + EPS;
            let plus = loss(&shifted);
            shifted[i][j] = input[j] - EPS;
            let minus = loss(&shifted);
            let numeric = (plus - minus) / (2.0 * EPS);
            let got = analytic[i][j];
            assert!(
                (got - numeric).abs() <= ATOL + RTOL * numeric.abs(),
                "{name}: d loss / d input{i}[{j}] = {got} by backward, {numeric} by central \
                 differences (at {})",
                input[j]
            );
        }
    }
}

/// One random direction per input (JAX `check_grads` style), for low-precision dtypes.
fn check_random_direction(
    name: &str,
    inputs: &[Vec<f64>],
    analytic: &[Vec<f64>],
    loss: impl Fn(&[Vec<f64>]) -> f64,
) {
    const EPS: f64 = 1e-3;
    const TOL: f64 = 2e-2;
    let mut rng = StdRng::seed_from_u64(crate::seed(name) ^ 0x5eed);
    let directions: Vec<Vec<f64>> = inputs
        .iter()
        .map(|input| input.iter().map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let moved = |sign: f64| -> Vec<Vec<f64>> {
        inputs
            .iter()
            .zip(&directions)
            .map(|(x, v)| x.iter().zip(v).map(|(x, v)| x + sign * EPS * v).collect())
            .collect()
    };
    let numeric = (loss(&moved(1.0)) - loss(&moved(-1.0))) / (2.0 * EPS);
    let got: f64 = analytic
        .iter()
        .zip(&directions)
        .map(|(g, v)| g.iter().zip(v).map(|(g, v)| g * v).sum::<f64>())
        .sum();
    assert!(
        (got - numeric).abs() <= TOL * (1.0 + numeric.abs()),
        "{name}: directional derivative {got} by backward, {numeric} by central differences"
    );
}

/// Flat tensors of `values` on `device`, tracked when `track`.
fn leaves(device: &Device, values: &[Vec<f64>], track: bool) -> Vec<Tensor<1>> {
    let dtype = device.settings().float_dtype;
    values
        .iter()
        .map(|v| {
            let data = TensorData::new(v.clone(), [v.len()]);
            let t = Tensor::<1>::from_data(data, (device, dtype));
            if track { t.require_grad() } else { t }
        })
        .collect()
}

/// `sum(out * weights)` read back as f64.
fn weighted_sum(out: Tensor<1>, weights: &[f64], device: &Device) -> f64 {
    let dtype = device.settings().float_dtype;
    let w = Tensor::<1>::from_data(
        TensorData::new(weights.to_vec(), [weights.len()]),
        (device, dtype),
    );
    (out * w).sum().into_scalar::<f64>()
}

/// The gradients of the weighted loss on the autodiff device `device`.
fn analytic_gradients(
    device: &Device,
    inputs: &[Vec<f64>],
    weights: &[f64],
    f: GradFn<'_>,
) -> Vec<Vec<f64>> {
    let leaves = leaves(device, inputs, true);
    let out = f(&leaves);
    let dtype = device.settings().float_dtype;
    let w = Tensor::<1>::from_data(
        TensorData::new(weights.to_vec(), [weights.len()]),
        (device, dtype),
    );
    let grads: Gradients = (out * w).sum().backward();
    leaves
        .iter()
        .zip(inputs)
        .map(|(leaf, values)| match leaf.grad(&grads) {
            Some(grad) => grad
                .into_data()
                .convert_dtype(burn::tensor::DType::F64)
                .to_vec::<f64>()
                .expect("f64 values"),
            None => vec![0.0; values.len()],
        })
        .collect()
}
