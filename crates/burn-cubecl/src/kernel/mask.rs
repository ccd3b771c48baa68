//! Masking: `mask_where` (values from a second tensor) and `mask_fill` (a scalar), with the
//! operands broadcast together and read through their strides, for every stored dtype.

use super::binary::broadcast_shape;
use super::scalar::scalar_arg;
use crate::CubeTensor;
use crate::dtype::{assert_storage, elem_type};
use crate::launch::{address_type, assert_same_device, elementwise_geometry, vector_size};
use burn_backend::{Scalar, Shape};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

#[cube(launch, address_type = "dynamic")]
fn mask_where_kernel<C: Numeric, B: Numeric, N: Size>(
    tensor: LinearView<'_, Vector<C, N>>,
    mask: LinearView<'_, Vector<B, N>>,
    value: LinearView<'_, Vector<C, N>>,
    mut output: LinearViewMut<'_, Vector<C, N>>,
    #[define(C, B)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let set = mask
        .read(ABSOLUTE_POS)
        .not_equal(&Vector::new(B::from_int(0)));
    output.write(
        ABSOLUTE_POS,
        select_many(set, value.read(ABSOLUTE_POS), tensor.read(ABSOLUTE_POS)),
    );
}

#[cube(launch, address_type = "dynamic")]
fn mask_fill_kernel<C: Numeric, B: Numeric, N: Size>(
    tensor: LinearView<'_, Vector<C, N>>,
    mask: LinearView<'_, Vector<B, N>>,
    value: InputScalar,
    mut output: LinearViewMut<'_, Vector<C, N>>,
    #[define(C, B)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let set = mask
        .read(ABSOLUTE_POS)
        .not_equal(&Vector::new(B::from_int(0)));
    output.write(
        ABSOLUTE_POS,
        select_many(
            set,
            Vector::new(value.get::<C>()),
            tensor.read(ABSOLUTE_POS),
        ),
    );
}

/// Panics, naming `op`, unless `mask` is a bool tensor the device stores, on `tensor`'s device.
fn check_mask(op: &str, tensor: &CubeTensor, mask: &CubeTensor) {
    assert!(
        mask.dtype.is_bool(),
        "{op}: expected a bool mask, got dtype {}",
        mask.dtype
    );
    assert_same_device(op, &[tensor, mask]);
    assert_storage(op, &tensor.client, tensor.dtype);
    assert_storage(op, &mask.client, mask.dtype);
}

/// The output of a masking op over `operands` (the tensor first): an operand's buffer, as
/// (tensor, alias input position), when it has the output's dtype and shape and may be
/// overwritten; else a new tensor.
fn output_for(operands: &[(&CubeTensor, bool)], shape: &Shape) -> (CubeTensor, Option<usize>) {
    let tensor = operands[0].0;
    for (position, &(operand, same_dtype)) in operands.iter().enumerate() {
        if same_dtype && operand.can_reuse_for(shape) {
            return (operand.clone(), Some(position));
        }
    }
    (tensor.empty_like(shape.clone(), tensor.dtype), None)
}

/// `value` where `mask` is true, else `tensor`; the three broadcast together (NumPy rules) and
/// the output has `tensor`'s dtype. Written into `tensor`'s or `value`'s buffer when one is
/// unique, non-overlapping and of the output's shape.
///
/// # Panics
///
/// When the mask is not boolean, `value`'s dtype is not `tensor`'s, the shapes do not
/// broadcast, or the tensors are on different devices.
pub fn mask_where(tensor: CubeTensor, mask: CubeTensor, value: CubeTensor) -> CubeTensor {
    check_mask("mask_where", &tensor, &mask);
    assert_eq!(
        value.dtype, tensor.dtype,
        "mask_where: value of dtype {} for a tensor of dtype {}",
        value.dtype, tensor.dtype
    );
    assert_same_device("mask_where", &[&tensor, &value]);
    let shape = broadcast_shape("mask_where", &tensor.shape, &mask.shape);
    let shape = broadcast_shape("mask_where", &shape, &value.shape);
    let rank = shape.num_dims();
    let tensor = tensor.unsqueeze_to(rank);
    let mask = mask.unsqueeze_to(rank);
    let value = value.unsqueeze_to(rank);
    let count = shape.num_elements();
    if count == 0 {
        return tensor.empty_like(shape, tensor.dtype);
    }
    let (output, alias) = output_for(&[(&tensor, true), (&mask, false), (&value, true)], &shape);
    let client = tensor.client.clone();
    let size = tensor.dtype.size().max(mask.dtype.size());
    let operands = [&tensor, &mask, &value, &output];
    let vector = vector_size(&client, &shape, &operands, size);
    let addresses = address_type(&operands);
    let (cube_count, cube_dim) = elementwise_geometry(&client, count / vector);
    let out_view = match alias {
        Some(position) => output.as_linear_view_alias(position),
        None => output.clone().into_linear_view(),
    };
    let dtypes = [elem_type(tensor.dtype), elem_type(mask.dtype)];
    crate::launch::before_launch(&client);
    mask_where_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        vector,
        tensor.into_linear_view_broadcast(&shape),
        mask.into_linear_view_broadcast(&shape),
        value.into_linear_view_broadcast(&shape),
        out_view,
        dtypes,
    );
    output
}

/// `value` (converted to `tensor`'s dtype with `as` semantics; `true` is 1) where `mask` is
/// true, else `tensor`; the mask and tensor broadcast together. Written in place when `tensor`
/// is unique, non-overlapping and of the output's shape.
///
/// # Panics
///
/// When the mask is not boolean, the shapes do not broadcast, or the tensors are on different
/// devices.
pub fn mask_fill(tensor: CubeTensor, mask: CubeTensor, value: Scalar) -> CubeTensor {
    check_mask("mask_fill", &tensor, &mask);
    let shape = broadcast_shape("mask_fill", &tensor.shape, &mask.shape);
    let rank = shape.num_dims();
    let tensor = tensor.unsqueeze_to(rank);
    let mask = mask.unsqueeze_to(rank);
    let count = shape.num_elements();
    if count == 0 {
        return tensor.empty_like(shape, tensor.dtype);
    }
    let (output, alias) = output_for(&[(&tensor, true)], &shape);
    let client = tensor.client.clone();
    let size = tensor.dtype.size().max(mask.dtype.size());
    let operands = [&tensor, &mask, &output];
    let vector = vector_size(&client, &shape, &operands, size);
    let addresses = address_type(&operands);
    let (cube_count, cube_dim) = elementwise_geometry(&client, count / vector);
    let out_view = match alias {
        Some(position) => output.as_linear_view_alias(position),
        None => output.clone().into_linear_view(),
    };
    let dtypes = [elem_type(tensor.dtype), elem_type(mask.dtype)];
    let value = scalar_arg(value, tensor.dtype);
    crate::launch::before_launch(&client);
    mask_fill_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        vector,
        tensor.into_linear_view_broadcast(&shape),
        mask.into_linear_view_broadcast(&shape),
        value,
        out_view,
        dtypes,
    );
    output
}
