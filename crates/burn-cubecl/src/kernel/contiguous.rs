//! Layout copies: a strided (possibly offset) view copied into a new row-major buffer.

use crate::CubeTensor;
use crate::dtype::elem_type;
use crate::launch::{address_type, elementwise_geometry};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// Copies the elements a (shape, strides, offset) view addresses in `input` into `output`, in
/// row-major order: unit `i` decomposes `i` along the shape and gathers from
/// `offset + Σ coordinate·stride`.
#[cube(launch, address_type = "dynamic")]
fn strided_copy_kernel<C: Numeric>(
    input: &[C],
    output: &mut [C],
    shape: Sequence<FastDivmod<usize>>,
    strides: Sequence<usize>,
    offset: usize,
    #[define(C)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let rank = comptime![shape.len()];
    let mut remaining = ABSOLUTE_POS;
    let mut index = offset;
    #[unroll]
    for i in 0..rank {
        let dim = comptime![rank - 1 - i];
        let (quotient, coordinate) = shape[dim].div_mod(remaining);
        index += coordinate * strides[dim];
        remaining = quotient;
    }
    output[ABSOLUTE_POS] = input[index];
}

/// `input` with the same values in a new row-major buffer (the input itself when it is
/// already contiguous).
pub fn into_contiguous(input: CubeTensor) -> CubeTensor {
    if input.is_contiguous() {
        return input;
    }
    copy_strided(&input, 0)
}

/// A new row-major tensor holding the elements of `input`'s shape and strides, read starting
/// `offset` elements past the start of its buffer.
pub(crate) fn copy_strided(input: &CubeTensor, offset: usize) -> CubeTensor {
    let shape = input.shape.clone();
    let output = input.empty_contiguous_like(shape.clone(), input.dtype);
    let count = shape.num_elements();
    if count == 0 {
        return output;
    }
    let client = input.client.clone();
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    let mut shape_arg = SequenceArg::new();
    let mut strides_arg = SequenceArg::new();
    for (&size, &stride) in shape.dims.iter().zip(&input.strides) {
        shape_arg.push(size);
        strides_arg.push(stride);
    }
    let input_len = input.handle.size_in_used() as usize / input.dtype.size();
    // SAFETY: both handles belong to `client` and hold `input_len` and `count` elements of the
    // dtype; the kernel is launched in checked mode, so no access leaves either buffer.
    let (input_arg, output_arg) = unsafe {
        (
            BufferArg::from_raw_parts(input.handle.clone(), input_len),
            BufferArg::from_raw_parts(output.handle.clone(), count),
        )
    };
    crate::launch::before_launch(&client);
    strided_copy_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[input, &output]),
        input_arg,
        output_arg,
        shape_arg,
        strides_arg,
        offset,
        elem_type(input.dtype),
    );
    output
}
