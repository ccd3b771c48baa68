//! Argument types of the public API: creation options, reshape targets, slices.

use core::fmt::Debug;

use super::check;
use crate::{AsIndex, Device};
use burn_backend::{DType, FloatDType, IntDType, Shape};

/// Where to create a tensor and, optionally, with which dtype: `&device` or
/// `(&device, DType::F64)`.
#[derive(Debug, Clone)]
pub struct TensorCreationOptions {
    /// The device.
    pub device: Device,
    /// The dtype; the device's default for the kind when `None`.
    pub dtype: Option<DType>,
}

impl TensorCreationOptions {
    /// Options for `device`, with the device's default dtype for the tensor's kind.
    pub fn new(device: Device) -> Self {
        Self {
            device,
            dtype: None,
        }
    }

    /// These options with `dtype`.
    pub fn with_dtype(mut self, dtype: DType) -> Self {
        self.dtype = Some(dtype);
        self
    }

    /// These options with `device`.
    pub fn with_device(mut self, device: Device) -> Self {
        self.device = device;
        self
    }

    /// The dtype asked for, or `dtype` when none was.
    pub fn dtype_or(&self, dtype: DType) -> DType {
        self.dtype.unwrap_or(dtype)
    }
}

impl Default for TensorCreationOptions {
    /// The default device, with its default dtypes.
    fn default() -> Self {
        Self::new(Device::default())
    }
}

impl From<&Device> for TensorCreationOptions {
    fn from(device: &Device) -> Self {
        Self {
            device: device.clone(),
            dtype: None,
        }
    }
}

impl From<(&Device, DType)> for TensorCreationOptions {
    fn from((device, dtype): (&Device, DType)) -> Self {
        Self {
            device: device.clone(),
            dtype: Some(dtype),
        }
    }
}

impl From<(&Device, FloatDType)> for TensorCreationOptions {
    fn from((device, dtype): (&Device, FloatDType)) -> Self {
        (device, DType::from(dtype)).into()
    }
}

impl From<(&Device, IntDType)> for TensorCreationOptions {
    fn from((device, dtype): (&Device, IntDType)) -> Self {
        (device, DType::from(dtype)).into()
    }
}

/// A reshape target of rank `D2`: sizes, one of which may be `-1` (inferred from the element
/// count); a `0` is a size of 0. [`ZeroDimPlaceholders`] makes `0` copy the input's size.
pub trait ReshapeArgs<const D2: usize>: Debug {
    /// The target shape resolved against `source`, the shape of the rank-`D` input; panics
    /// naming `reshape` when the sizes are invalid or the element counts differ.
    fn into_shape<const D: usize>(self, source: Shape) -> Shape;
}

impl<const D2: usize, I: AsIndex> ReshapeArgs<D2> for [I; D2] {
    fn into_shape<const D: usize>(self, source: Shape) -> Shape {
        let target = self.map(AsIndex::as_index);
        let mut dims = [1usize; D2];
        let mut inferred = None;
        for (i, &size) in target.iter().enumerate() {
            match size {
                -1 if inferred.is_none() => inferred = Some(i),
                -1 => check::fail("reshape", format_args!("more than one -1 in {target:?}")),
                size if size >= 0 => dims[i] = size as usize,
                size => check::fail("reshape", format_args!("invalid size {size} in {target:?}")),
            }
        }
        let total = source.num_elements();
        if let Some(i) = inferred {
            let known: usize = dims.iter().product();
            if known == 0 || !total.is_multiple_of(known) {
                check::fail(
                    "reshape",
                    format_args!("cannot infer -1 in {target:?} for {total} elements"),
                );
            }
            dims[i] = total / known;
        }
        ReshapeArgs::<D2>::into_shape::<D>(Shape::new(dims), source)
    }
}

impl<const D2: usize> ReshapeArgs<D2> for Shape {
    fn into_shape<const D: usize>(self, source: Shape) -> Shape {
        if self.num_dims() != D2 {
            check::fail(
                "reshape",
                format_args!(
                    "the target {self:?} has rank {}, expected {D2}",
                    self.num_dims()
                ),
            );
        }
        if self.num_elements() != source.num_elements() {
            check::fail(
                "reshape",
                format_args!(
                    "shape {self:?} has {} elements, the tensor of shape {source:?} has {}",
                    self.num_elements(),
                    source.num_elements()
                ),
            );
        }
        self
    }
}

/// A reshape target whose `0` entries copy the input's size at the same position (ONNX's
/// `allowzero = 0`); `-1` still infers one size: `x.reshape(ZeroDimPlaceholders([0, -1]))`
/// keeps the first dim and flattens the rest.
#[derive(Debug, Clone, Copy)]
pub struct ZeroDimPlaceholders<I, const D: usize>(pub [I; D]);

impl<const D2: usize, I: AsIndex> ReshapeArgs<D2> for ZeroDimPlaceholders<I, D2> {
    fn into_shape<const D: usize>(self, source: Shape) -> Shape {
        let mut target = self.0.map(AsIndex::as_index);
        for (i, size) in target.iter_mut().enumerate() {
            if *size == 0 {
                *size = match source.get(i) {
                    Some(&kept) => kept as isize,
                    None => check::fail(
                        "reshape",
                        format_args!("0 at position {i} copies no dim of {source:?}"),
                    ),
                };
            }
        }
        ReshapeArgs::<D2>::into_shape::<D>(target, source)
    }
}

/// The target of [`Tensor::expand`](crate::Tensor::expand) from rank `D1` to rank `D2`: a
/// [`Shape`], or sizes where `-1` keeps the input's size (aligned from the last dim).
pub trait BroadcastArgs<const D1: usize, const D2: usize> {
    /// The target shape for an input of shape `shape`; panics for a size below `-1`, a `0`, or
    /// a `-1` with no input dim under it.
    fn into_shape(self, shape: &Shape) -> Shape;
}

impl<const D1: usize, const D2: usize> BroadcastArgs<D1, D2> for Shape {
    fn into_shape(self, _shape: &Shape) -> Shape {
        self
    }
}

impl<const D1: usize, const D2: usize, E: AsIndex> BroadcastArgs<D1, D2> for [E; D2] {
    fn into_shape(self, shape: &Shape) -> Shape {
        let rank = shape.num_dims();
        if D2 < rank {
            check::fail(
                "expand",
                format_args!("cannot expand rank {rank} to rank {D2}"),
            );
        }
        let target = self.map(AsIndex::as_index);
        let mut dims = [0usize; D2];
        for (i, &size) in target.iter().enumerate() {
            let source = (i + rank).checked_sub(D2).map(|j| shape[j]);
            dims[i] = match (size, source) {
                (-1, Some(kept)) => kept,
                (-1, None) => check::fail(
                    "expand",
                    format_args!(
                        "-1 at position {i} of {target:?} has no dim of {shape:?} under it"
                    ),
                ),
                (size, _) if size > 0 => size as usize,
                (size, _) => check::fail(
                    "expand",
                    format_args!("invalid size {size} in {target:?} (sizes are positive or -1)"),
                ),
            };
        }
        Shape::new(dims)
    }
}

/// Builds a slicing expression, like Python's `x[a, b:c, ::2]`: `s![0, 1..3, ..]` is an array of
/// [`Slice`]s, one per leading dim (the dims after them are taken whole), with negative indices
/// counting from the end and an optional step after `;` (`s![..;2, -1]`, `s![..;-1]` reverses).
/// A single entry (`s![1..;2]`) is one [`Slice`]. Either is a [`SliceArg`](crate::SliceArg).
///
/// ```
/// use burn_tensor::{Device, Tensor, s};
/// let x = Tensor::<2>::from_floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &Device::default());
/// assert_eq!(x.clone().slice(s![.., 1..;1]).dims(), [2, 2]);
/// assert_eq!(x.slice(s![-1]).dims(), [1, 3]);
/// ```
#[macro_export]
macro_rules! s {
    [] => {
        compile_error!("s![]: give at least one range or index")
    };
    [$e:expr $(; $step:expr)?] => {{
        #[allow(clippy::reversed_empty_ranges)]
        let slice = $crate::s!(@one $e $(; $step)?);
        slice
    }};
    [$($e:expr $(; $step:expr)?),+ $(,)?] => {{
        #[allow(clippy::reversed_empty_ranges)]
        let slices = [$($crate::s!(@one $e $(; $step)?)),+];
        slices
    }};
    (@one $e:expr) => {
        $crate::Slice::from($e)
    };
    (@one $e:expr; $step:expr) => {
        $crate::Slice::from_range_stepped($e, $step as isize)
    };
}

/// The dims of [`Tensor::movedim`](crate::Tensor::movedim): one dim as an integer (negative
/// counts from the end), or a `Vec` of them.
pub trait MovedimArgs {
    /// The dims, resolved against `rank` (panicking with `op`'s name when out of range).
    fn into_dims(self, op: &str, rank: usize) -> Vec<usize>;
}

impl<I: crate::AsIndex> MovedimArgs for Vec<I> {
    fn into_dims(self, op: &str, rank: usize) -> Vec<usize> {
        self.into_iter()
            .map(|dim| super::check::dim(op, dim, rank))
            .collect()
    }
}

macro_rules! movedim_args_for_int {
    ($($ty:ty),*) => {$(
        impl MovedimArgs for $ty {
            fn into_dims(self, op: &str, rank: usize) -> Vec<usize> {
                vec![super::check::dim(op, self, rank)]
            }
        }
    )*};
}

movedim_args_for_int!(usize, isize, i64, u64, i32, u32, i16, u16, i8, u8);
