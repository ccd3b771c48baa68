//! Random tensors through cubek's generators.

use crate::dtype::{assert_arithmetic, elem_type};
use crate::{CubeDevice, CubeTensor};
use burn_backend::{DType, Distribution, ExecutionError, Shape};

/// A tensor of `shape` and `dtype` sampled from `distribution` on the device.
///
/// With `seed`, the values depend only on the seed and the call order: the same seed followed
/// by the same calls gives the same values. Without, cubek's process-wide generator continues.
/// Samples are drawn in f32 and converted to `dtype`.
///
/// # Panics
///
/// When `dtype` is not a float dtype the device computes with.
///
/// # Errors
///
/// When the launch is refused.
pub fn random(
    shape: Shape,
    distribution: Distribution,
    dtype: DType,
    device: &CubeDevice,
    seed: Option<u64>,
) -> Result<CubeTensor, ExecutionError> {
    assert!(
        dtype.is_float(),
        "random: expected a float dtype, got {dtype}"
    );
    let client = device.client();
    assert_arithmetic("random", &client, dtype);
    let output = CubeTensor::empty_contiguous_on(&client, device, shape, dtype);
    if output.num_elements() == 0 {
        return Ok(output);
    }
    let elem = elem_type(dtype);
    let binding = output.clone().binding();
    // One cubek launch per call (a seed only sets cubek's generator state).
    crate::launch::before_launch(&client);
    let launch = move || match distribution {
        Distribution::Default => cubek::random::random_uniform(&client, 0.0, 1.0, binding, elem),
        Distribution::Uniform(low, high) => {
            cubek::random::random_uniform(&client, low as f32, high as f32, binding, elem)
        }
        Distribution::Normal(mean, std) => {
            cubek::random::random_normal(&client, mean as f32, std as f32, binding, elem)
        }
        Distribution::Bernoulli(p) => {
            cubek::random::random_bernoulli(&client, p as f32, binding, elem)
        }
    };
    let result = match seed {
        Some(seed) => cubek::random::with_seed(seed, launch),
        None => launch(),
    };
    result.map_err(|err| ExecutionError::unsupported("random", format!("{err:?}")))?;
    Ok(output)
}
