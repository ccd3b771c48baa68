//! Creation kernels: a tensor filled with one value, and integer/float ranges.

use super::scalar::scalar_arg;
use crate::dtype::{assert_arithmetic, assert_storage};
use crate::launch::{address_type, elementwise_geometry, vector_size};
use crate::{CubeDevice, CubeTensor};
use burn_backend::{DType, Scalar, Shape};
use core::ops::Range;
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::LinearViewMut;

#[cube(launch, address_type = "dynamic")]
fn fill_kernel<C: Numeric, N: Size>(
    mut output: LinearViewMut<'_, Vector<C, N>>,
    value: InputScalar,
    #[define(C)] _dtype: ElemType,
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    output.write(ABSOLUTE_POS, Vector::new(value.get::<C>()));
}

#[cube(launch, address_type = "dynamic")]
fn arange_kernel<C: Numeric>(
    output: &mut [C],
    start: InputScalar,
    step: InputScalar,
    #[define(C)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    output[ABSOLUTE_POS] = start.get::<C>() + C::cast_from(ABSOLUTE_POS) * step.get::<C>();
}

/// A tensor of `shape` and `dtype` on `device`, every element `value` (converted to `dtype`
/// with `as` semantics; booleans take 0/1).
pub fn full(shape: Shape, value: Scalar, dtype: DType, device: &CubeDevice) -> CubeTensor {
    let client = device.client();
    assert_storage("full", &client, dtype);
    let output = CubeTensor::empty_on(&client, device, shape, dtype);
    fill(output, value)
}

/// Overwrites every element of `output` (which must be non-overlapping) with `value`.
pub(crate) fn fill(output: CubeTensor, value: Scalar) -> CubeTensor {
    let count = output.num_elements();
    if count == 0 {
        return output;
    }
    let dtype = output.dtype;
    let client = output.client.clone();
    let vector = vector_size(&client, &output.shape, &[&output], dtype.size());
    let (cube_count, cube_dim) = elementwise_geometry(&client, count / vector);
    crate::launch::before_launch(&client);
    fill_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&output]),
        vector,
        output.clone().into_linear_view(),
        scalar_arg(value, dtype),
        crate::dtype::elem_type(dtype),
    );
    output
}

/// Zeros of `shape` and `dtype`.
pub fn zeros(shape: Shape, dtype: DType, device: &CubeDevice) -> CubeTensor {
    full(shape, Scalar::Int(0), dtype, device)
}

/// Ones of `shape` and `dtype`.
pub fn ones(shape: Shape, dtype: DType, device: &CubeDevice) -> CubeTensor {
    full(shape, Scalar::Int(1), dtype, device)
}

/// The values `range.start, range.start + step, …` below `range.end`, as a rank-1 tensor of
/// `dtype` (an integer or float dtype), computed on the device in that dtype.
///
/// # Panics
///
/// When `step` is 0 or the dtype is boolean.
pub fn arange(range: Range<i64>, step: usize, dtype: DType, device: &CubeDevice) -> CubeTensor {
    assert!(step > 0, "arange: step must be positive, got 0");
    assert!(
        !dtype.is_bool(),
        "arange: expected an integer or float dtype, got {dtype}"
    );
    let client = device.client();
    assert_arithmetic("arange", &client, dtype);
    let len = if range.end > range.start {
        (range.end - range.start) as u64 as usize
    } else {
        0
    };
    let count = len.div_ceil(step);
    let output = CubeTensor::empty_contiguous_on(&client, device, Shape::new([count]), dtype);
    if count == 0 {
        return output;
    }
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    // SAFETY: the buffer was allocated for `count` elements of `dtype`.
    let buffer = unsafe { BufferArg::from_raw_parts(output.handle.clone(), count) };
    crate::launch::before_launch(&client);
    arange_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&output]),
        buffer,
        scalar_arg(Scalar::Int(range.start), dtype),
        scalar_arg(Scalar::Int(step as i64), dtype),
        crate::dtype::elem_type(dtype),
    );
    output
}
