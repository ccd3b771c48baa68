//! Argument types of the public API: creation options, reshape targets, slices.

use crate::Device;
use burn_backend::{DType, FloatDType, IntDType, Shape, Slice, SliceArg};

/// Where to create a tensor and, optionally, with which dtype: `&device` or
/// `(&device, DType::F64)`.
#[derive(Debug, Clone)]
pub struct TensorCreationOptions {
    /// The device.
    pub device: Device,
    /// The dtype; the device's default for the kind when `None`.
    pub dtype: Option<DType>,
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

/// A reshape target of rank `D2`: sizes, where `-1` infers one size and `0` keeps the input's.
pub trait ReshapeArgs<const D2: usize> {
    /// The target sizes as signed values (`-1` and `0` special).
    fn into_signed(self) -> [i64; D2];
}

impl<const D2: usize> ReshapeArgs<D2> for [usize; D2] {
    fn into_signed(self) -> [i64; D2] {
        self.map(|d| d as i64)
    }
}

impl<const D2: usize> ReshapeArgs<D2> for [i64; D2] {
    fn into_signed(self) -> [i64; D2] {
        self
    }
}

impl<const D2: usize> ReshapeArgs<D2> for [i32; D2] {
    fn into_signed(self) -> [i64; D2] {
        self.map(|d| d as i64)
    }
}

impl<const D2: usize> ReshapeArgs<D2> for [isize; D2] {
    fn into_signed(self) -> [i64; D2] {
        self.map(|d| d as i64)
    }
}

impl<const D2: usize> ReshapeArgs<D2> for Shape {
    fn into_signed(self) -> [i64; D2] {
        let dims: [usize; D2] = self.dims::<D2>();
        dims.map(|d| d as i64)
    }
}

/// Slices for the leading dims of a tensor: an array of ranges (`[0..2, 1..3]`), of
/// [`Slice`]s (what [`s!`](crate::s) builds), or a single range for the first dim.
pub trait SliceArgs {
    /// The slices, one per leading dim.
    fn into_slices(self) -> Vec<Slice>;
}

impl<T: SliceArg, const N: usize> SliceArgs for [T; N] {
    fn into_slices(self) -> Vec<Slice> {
        self.into_iter().map(SliceArg::into_slice).collect()
    }
}

impl SliceArgs for Vec<Slice> {
    fn into_slices(self) -> Vec<Slice> {
        self
    }
}

impl SliceArgs for &[Slice] {
    fn into_slices(self) -> Vec<Slice> {
        self.to_vec()
    }
}

impl<T: SliceArg> SliceArgs for core::ops::Range<T>
where
    core::ops::Range<T>: SliceArg,
{
    fn into_slices(self) -> Vec<Slice> {
        vec![self.into_slice()]
    }
}

/// Builds the slices of a slicing expression, one per dim, like Python's `x[a, b:c, ::2]`:
/// `s![0, 1..3, ..]`, with negative indices from the end and an optional step after `;`
/// (`s![..;2, -1]`).
///
/// ```
/// use burn_tensor::{Device, Tensor, s};
/// let x = Tensor::<2>::from_floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &Device::default());
/// let y = x.slice(s![.., 1..;1]);
/// assert_eq!(y.dims(), [2, 2]);
/// ```
#[macro_export]
macro_rules! s {
    ($($e:expr $(; $step:expr)?),+ $(,)?) => {
        [$($crate::s!(@one $e $(; $step)?)),+]
    };
    (@one $e:expr) => {
        $crate::SliceArg::into_slice($e)
    };
    (@one $e:expr; $step:expr) => {
        $crate::SliceArg::into_slice($e).with_step($step as isize)
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
