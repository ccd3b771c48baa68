//! Methods of bool tensors: logic, conversions, coordinates, masks.

use super::check;
use crate::{Bool, Device, Float, Int, Tensor};
use burn_backend::ops::BoolTensorOps;
use burn_backend::{Shape, TensorData, get_device_settings};
use burn_dispatch::Dispatch;

impl<const D: usize> Tensor<D, Bool> {
    /// A bool tensor from nested arrays or a [`TensorData`] of bools.
    pub fn from_bool<A: Into<TensorData>>(values: A, device: &Device) -> Self {
        Self::from_data(values.into(), device)
    }

    /// Logical not.
    pub fn bool_not(self) -> Self {
        Self::from_primitive(Dispatch::bool_not(self.into_primitive()))
    }

    /// Logical and (broadcasting).
    pub fn bool_and(self, other: Self) -> Self {
        let (lhs, rhs) = Self::binary_operands("bool_and", self, other);
        Self::from_primitive(Dispatch::bool_and(lhs, rhs))
    }

    /// Logical or (broadcasting).
    pub fn bool_or(self, other: Self) -> Self {
        let (lhs, rhs) = Self::binary_operands("bool_or", self, other);
        Self::from_primitive(Dispatch::bool_or(lhs, rhs))
    }

    /// Logical exclusive or (broadcasting).
    pub fn bool_xor(self, other: Self) -> Self {
        let (lhs, rhs) = Self::binary_operands("bool_xor", self, other);
        Self::from_primitive(Dispatch::bool_xor(lhs, rhs))
    }

    /// 1 for true, 0 for false, as ints of the device's default int dtype.
    pub fn int(self) -> Tensor<D, Int> {
        let dtype = get_device_settings::<Dispatch>(self.device().dispatch()).int_dtype;
        Tensor::from_primitive(Dispatch::bool_into_int(self.into_primitive(), dtype))
    }

    /// 1.0 for true, 0.0 for false, as floats of the device's default float dtype.
    pub fn float(self) -> Tensor<D, Float> {
        let dtype = get_device_settings::<Dispatch>(self.device().dispatch()).float_dtype;
        Tensor::from_primitive(Dispatch::bool_into_float(self.into_primitive(), dtype))
    }

    /// The coordinates of the true elements, shape `[count, D]`, row-major order.
    pub fn argwhere(self) -> Tensor<2, Int> {
        Tensor::from_primitive(Dispatch::bool_argwhere(self.into_primitive()))
    }

    /// [`argwhere`](Self::argwhere) as a future. It resolves on its first poll: the backends
    /// size the result with a blocking read of the count.
    pub async fn argwhere_async(self) -> Tensor<2, Int> {
        self.argwhere()
    }

    /// [`nonzero`](Self::nonzero) as a future, resolved on its first poll as
    /// [`argwhere_async`](Self::argwhere_async).
    pub async fn nonzero_async(self) -> Vec<Tensor<1, Int>> {
        self.nonzero()
    }

    /// One 1-d int tensor per dim with the coordinates of the true elements (`torch.nonzero`
    /// with `as_tuple=True`).
    pub fn nonzero(self) -> Vec<Tensor<1, Int>> {
        let coords = self.argwhere();
        let count = coords.dims()[0];
        if count == 0 {
            return Vec::new();
        }
        (0..D)
            .map(|d| coords.clone().narrow(1, d, 1).reshape([count]))
            .collect()
    }
}

impl<const D: usize> Tensor<D, Bool> {
    /// A mask over the last two dims of `shape` (`[.., rows, cols]`, the leading dims of the
    /// result 1 to broadcast), true above the `diagonal`-th diagonal (what `tril` zeroes).
    pub fn tril_mask<S: Into<Shape>>(shape: S, diagonal: i64, device: &Device) -> Self {
        Self::triangle("tril_mask", shape.into(), device, move |r, c| {
            c - r > diagonal
        })
    }

    /// A mask over the last two dims of `shape`, true below the `diagonal`-th diagonal (what
    /// `triu` zeroes).
    pub fn triu_mask<S: Into<Shape>>(shape: S, diagonal: i64, device: &Device) -> Self {
        Self::triangle("triu_mask", shape.into(), device, move |r, c| {
            c - r < diagonal
        })
    }

    /// A mask over the last two dims of `shape`, true off the `diagonal`-th diagonal.
    pub fn diag_mask<S: Into<Shape>>(shape: S, diagonal: i64, device: &Device) -> Self {
        Self::triangle("diag_mask", shape.into(), device, move |r, c| {
            c - r != diagonal
        })
    }

    fn triangle(
        op: &str,
        shape: Shape,
        device: &Device,
        masked: impl Fn(i64, i64) -> bool,
    ) -> Self {
        let dims = shape.dims;
        if D < 2 || dims.len() != D {
            check::fail(
                op,
                format_args!("expected a shape of rank {D} (at least 2), got {dims:?}"),
            );
        }
        let (rows, cols) = (dims[D - 2], dims[D - 1]);
        let values: Vec<bool> = (0..rows * cols)
            .map(|i| masked((i / cols) as i64, (i % cols) as i64))
            .collect();
        let mut out = vec![1; D];
        out[D - 2] = rows;
        out[D - 1] = cols;
        Self::from_data(TensorData::new(values, out), device)
    }
}
