//! Casts between dtypes.

use crate::CubeTensor;
use crate::dtype::{assert_storage, elem_type};
use crate::launch::{address_type, elementwise_geometry, vector_size};
use burn_backend::DType;
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

#[cube(launch, address_type = "dynamic")]
fn cast_kernel<I: Numeric, O: Numeric, N: Size>(
    input: LinearView<'_, Vector<I, N>>,
    mut output: LinearViewMut<'_, Vector<O, N>>,
    #[comptime] to_bool: bool,
    #[define(I, O)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let value = input.read(ABSOLUTE_POS);
    if to_bool {
        let zero = Vector::new(I::from_int(0));
        output.write(ABSOLUTE_POS, Vector::cast_from(value.not_equal(&zero)));
    } else {
        output.write(ABSOLUTE_POS, Vector::cast_from(value));
    }
}

/// `input` converted to `dtype`, element by element, into a new contiguous tensor (the input
/// itself when the dtypes are equal). Floats to integers truncate toward zero; to a `Bool`
/// dtype, any non-zero value is `true` (1); from a `Bool` dtype, `true` is 1. Out-of-range
/// float-to-integer conversions follow the device's rules.
///
/// # Panics
///
/// When the device cannot store either dtype.
pub fn cast(input: CubeTensor, dtype: DType) -> CubeTensor {
    if input.dtype == dtype {
        return input;
    }
    assert_storage("cast", &input.client, input.dtype);
    assert_storage("cast", &input.client, dtype);
    let shape = input.shape.clone();
    let output = input.empty_like(shape.clone(), dtype);
    let count = shape.num_elements();
    if count == 0 {
        return output;
    }
    let client = input.client.clone();
    let size = input.dtype.size().max(dtype.size());
    let vector = vector_size(&client, &shape, &[&input, &output], size);
    let addresses = address_type(&[&input, &output]);
    let (cube_count, cube_dim) = elementwise_geometry(&client, count / vector);
    let to_bool = dtype.is_bool() && !input.dtype.is_bool();
    let dtypes = [elem_type(input.dtype), elem_type(dtype)];
    crate::launch::before_launch(&client);
    cast_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        vector,
        input.into_linear_view(),
        output.clone().into_linear_view(),
        to_bool,
        dtypes,
    );
    output
}
