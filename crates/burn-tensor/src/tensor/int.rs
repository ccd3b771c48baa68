//! Methods of int tensors: creation, conversions, bitwise operations.

use super::args::TensorCreationOptions;
use super::check;
use crate::{Device, Float, Int, Tensor};
use burn_backend::ops::IntTensorOps;
use burn_backend::{IntDType, Scalar, Shape, TensorData, get_device_settings};
use burn_dispatch::Dispatch;
use core::ops::Range;

/// Generates bitwise methods with tensor and scalar right-hand sides.
macro_rules! bitwise {
    ($($(#[$doc:meta])* $name:ident / $scalar:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(self, other: Self) -> Self {
            let (lhs, rhs) = Self::binary_operands(stringify!($name), self, other);
            Self::from_primitive(Dispatch::$name(lhs, rhs))
        }
        $(#[$doc])*
        #[doc = "(with a scalar)"]
        pub fn $scalar<V: Into<Scalar>>(self, other: V) -> Self {
            Self::from_primitive(Dispatch::$scalar(self.into_primitive(), other.into()))
        }
    )*};
}

impl<const D: usize> Tensor<D, Int> {
    bitwise! {
        /// Bitwise and.
        bitwise_and / bitwise_and_scalar;
        /// Bitwise or.
        bitwise_or / bitwise_or_scalar;
        /// Bitwise exclusive or.
        bitwise_xor / bitwise_xor_scalar;
        /// Left shift.
        bitwise_left_shift / bitwise_left_shift_scalar;
        /// Right shift (arithmetic for signed types).
        bitwise_right_shift / bitwise_right_shift_scalar;
    }

    /// Bitwise not.
    pub fn bitwise_not(self) -> Self {
        Self::from_primitive(Dispatch::bitwise_not(self.into_primitive()))
    }

    /// An int tensor from nested arrays or a [`TensorData`] of integers.
    pub fn from_ints<A: Into<TensorData>>(ints: A, device: &Device) -> Self {
        Self::from_data(ints.into(), device)
    }

    /// `x²`.
    pub fn square(self) -> Self {
        self.clone().mul(self)
    }

    /// The values as floats of the device's default float dtype.
    pub fn float(self) -> Tensor<D, Float> {
        let dtype = get_device_settings::<Dispatch>(self.device().dispatch()).float_dtype;
        Tensor::from_primitive(Dispatch::int_into_float(self.into_primitive(), dtype))
    }
}

impl<const D: usize> Tensor<D, Int> {
    /// The integer coordinates of every element of a tensor of `shape` (rank `D`): rank
    /// `D2 = D + 1`, the last dim holding the coordinates; see [`crate::grid::cartesian_grid`].
    ///
    /// ```
    /// # use burn_tensor::{Device, Int, Tensor};
    /// let grid: Tensor<3, Int> = Tensor::<2, Int>::cartesian_grid([2, 2], &Device::default());
    /// assert_eq!(grid.into_data().to_vec::<i64>().unwrap(), [0, 0, 0, 1, 1, 0, 1, 1]);
    /// ```
    pub fn cartesian_grid<S: Into<Shape>, const D2: usize>(
        shape: S,
        device: &crate::Device,
    ) -> Tensor<D2, Int> {
        crate::grid::cartesian_grid::<S, D, D2>(shape, device)
    }
}

impl Tensor<1, Int> {
    /// `start, start + 1, …` below `range.end`.
    pub fn arange(range: Range<i64>, options: impl Into<TensorCreationOptions>) -> Self {
        Self::arange_step(range, 1, options)
    }

    /// `start, start + step, …` below `range.end`.
    pub fn arange_step(
        range: Range<i64>,
        step: usize,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        if step == 0 {
            check::fail("arange_step", "step must be positive");
        }
        if range.end < range.start {
            check::fail("arange", format_args!("empty or reversed range {range:?}"));
        }
        let options = options.into();
        let dtype = IntDType::from_dtype(Self::creation_dtype("arange", &options));
        Self::from_primitive(Dispatch::int_arange_step(
            range,
            step,
            options.device.dispatch(),
            dtype,
        ))
    }
}
