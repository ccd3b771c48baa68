//! Methods of float tensors: math, conversions, random creation, statistics.

use super::check;
use crate::AsIndex;
use crate::kind::FloatMath;
use crate::{Bool, Device, Float, Int, Tensor};
use burn_backend::ops::FloatTensorOps;
use burn_backend::{Distribution, Element, Scalar, TensorData, get_device_settings};
use burn_dispatch::Dispatch;

/// Generates element-wise float methods from a table of (method, backend op).
macro_rules! unary_float {
    ($($(#[$doc:meta])* $name:ident => $op:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(self) -> Self {
            Self::from_elementwise(Dispatch::$op(self.into_primitive()))
        }
    )*};
}

/// Generates element-wise float-math methods from a table, each calling the kind's op.
macro_rules! unary_float_math {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(self) -> Self {
            Self::from_elementwise(K::$name(self.into_primitive()))
        }
    )*};
}

/// Float math (Burn's `kind::FloatMath`): written for the kinds that have it.
/// The relative tolerance [`Tensor::is_close`] and [`Tensor::all_close`] take for `None`.
pub const DEFAULT_RTOL: f64 = 1e-5;

/// The absolute tolerance [`Tensor::is_close`] and [`Tensor::all_close`] take for `None`.
pub const DEFAULT_ATOL: f64 = 1e-8;

impl<const D: usize, K: FloatMath> Tensor<D, K> {
    /// `x²`.
    pub fn square(self) -> Self {
        self.clone().mul(self)
    }

    unary_float_math! {
        /// `e^x`.
        exp;
        /// Natural logarithm.
        log;
        /// `ln(1 + x)`, accurate near zero.
        log1p;
        /// Square root.
        sqrt;
        /// Sine.
        sin;
        /// Cosine.
        cos;
        /// Tangent.
        tan;
        /// Hyperbolic sine.
        sinh;
        /// Hyperbolic cosine.
        cosh;
        /// Hyperbolic tangent.
        tanh;
        /// Arc sine.
        asin;
        /// Arc cosine.
        acos;
        /// Arc tangent.
        atan;
        /// Inverse hyperbolic sine.
        asinh;
        /// Inverse hyperbolic cosine.
        acosh;
        /// Inverse hyperbolic tangent.
        atanh;
    }

    /// `atan2(self, other)` element-wise (broadcasting).
    pub fn atan2(self, other: Self) -> Self {
        let (lhs, rhs) = Self::binary_operands("atan2", self, other);
        Self::from_primitive(K::atan2(lhs, rhs))
    }
}

impl<const D: usize> Tensor<D, Float> {
    unary_float! {
        /// `1 / x`.
        recip => float_recip;
        /// The error function.
        erf => float_erf;
        /// Round half to even.
        round => float_round;
        /// Round down.
        floor => float_floor;
        /// Round up.
        ceil => float_ceil;
        /// Round toward zero.
        trunc => float_trunc;
    }

    /// A float tensor from nested arrays or a [`TensorData`] of floats.
    pub fn from_floats<A: Into<TensorData>>(floats: A, device: &Device) -> Self {
        Self::from_data(floats.into(), device)
    }

    /// The remainder with the sign of the dividend (C's `fmod`, `torch.fmod`), broadcasting.
    pub fn fmod(self, other: Self) -> Self {
        let sign = self.clone().sign();
        self.abs().remainder(other.abs()).mul(sign)
    }

    /// The remainder by a scalar with the sign of the dividend (`torch.fmod`).
    pub fn fmod_scalar(self, other: f32) -> Self {
        let sign = self.clone().sign();
        self.abs().remainder_scalar(other.abs()).mul(sign)
    }

    /// The hypotenuse `sqrt(self² + other²)` element-wise (broadcasting), computed without
    /// overflow or underflow in the squares (`hypot(3e30, 4e30)` is `5e30` in `f32`); infinite
    /// where either side is infinite.
    ///
    /// ```
    /// # use burn_tensor::{Device, Tensor};
    /// let device = Device::default();
    /// let a = Tensor::<1>::from_floats([3.0, -5.0, 0.0], &device);
    /// let b = Tensor::<1>::from_floats([4.0, 12.0, 0.0], &device);
    /// assert_eq!(a.hypot(b).into_data().to_vec::<f32>().unwrap(), [5.0, 13.0, 0.0]);
    /// ```
    pub fn hypot(self, other: Self) -> Self {
        let (lhs, rhs) = Self::binary_operands("hypot", self, other);
        Self::from_primitive(Dispatch::float_hypot(lhs, rhs))
    }

    /// Degrees to radians: `x · π / 180`.
    pub fn deg2rad(self) -> Self {
        self.mul_scalar(core::f64::consts::PI / 180.0)
    }

    /// Radians to degrees: `x · 180 / π`.
    pub fn rad2deg(self) -> Self {
        self.mul_scalar(180.0 / core::f64::consts::PI)
    }

    /// Rounds to `decimals` decimal places (half to even, as [`round`](Self::round)); a
    /// negative count rounds to tens, hundreds, …: `1234.5` to `-2` is `1200`.
    ///
    /// # Panics
    /// If `10^|decimals|` is not a finite `f64` (more than 308 places).
    ///
    /// ```
    /// # use burn_tensor::{Device, Tensor};
    /// let x = Tensor::<1>::from_floats([1.2345, -2.5, 1234.5], &Device::default());
    /// let values = x.clone().round_to(2).into_data().to_vec::<f32>().unwrap();
    /// assert_eq!(values, [1.23, -2.5, 1234.5]);
    /// assert_eq!(x.round_to(-2).into_data().to_vec::<f32>().unwrap(), [0.0, -0.0, 1200.0]);
    /// ```
    pub fn round_to(self, decimals: i32) -> Self {
        if decimals == 0 {
            return self.round();
        }
        let scale = 10f64.powi(decimals.unsigned_abs().min(400) as i32);
        assert!(
            scale.is_finite(),
            "Tensor::round_to: 10^{} is not a finite f64; expected at most 308 decimal places, \
             got {decimals}",
            decimals.unsigned_abs()
        );
        if decimals > 0 {
            self.mul_scalar(scale).round().div_scalar(scale)
        } else {
            self.div_scalar(scale).round().mul_scalar(scale)
        }
    }

    /// `self ^ other` element-wise (broadcasting).
    pub fn powf(self, other: Self) -> Self {
        let (lhs, rhs) = Self::binary_operands("powf", self, other);
        Self::from_primitive(Dispatch::float_powf(lhs, rhs))
    }

    /// `self ^ exponent` for a float scalar.
    pub fn powf_scalar<V: Into<Scalar>>(self, exponent: V) -> Self {
        Self::from_primitive(Dispatch::float_powf_scalar(
            self.into_primitive(),
            exponent.into(),
        ))
    }

    /// Whether each element is NaN.
    pub fn is_nan(self) -> Tensor<D, Bool> {
        Tensor::from_primitive(Dispatch::float_is_nan(self.into_primitive()))
    }

    /// Whether each element is ±infinity.
    pub fn is_inf(self) -> Tensor<D, Bool> {
        Tensor::from_primitive(Dispatch::float_is_inf(self.into_primitive()))
    }

    /// Whether each element is finite (neither NaN nor ±infinity).
    pub fn is_finite(self) -> Tensor<D, Bool> {
        self.clone().is_nan().bool_or(self.is_inf()).bool_not()
    }

    /// Values from `distribution` with this tensor's shape, device and dtype.
    pub fn random_like(&self, distribution: Distribution) -> Self {
        Self::random(self.shape(), distribution, (&self.device(), self.dtype()))
    }

    /// Whether any element is NaN, as a one-element bool tensor (read it with
    /// `into_scalar::<bool>()`; it stays on the device until then).
    pub fn contains_nan(self) -> Tensor<1, Bool> {
        self.is_nan().any()
    }

    /// Whether each element is within `atol + rtol · |other|` of `other` (`torch.isclose`;
    /// `None` takes [`DEFAULT_RTOL`] and [`DEFAULT_ATOL`]). Equal infinities are close, a NaN
    /// is close to nothing.
    pub fn is_close(self, other: Self, rtol: Option<f64>, atol: Option<f64>) -> Tensor<D, Bool> {
        let rtol = rtol.unwrap_or(DEFAULT_RTOL);
        let atol = atol.unwrap_or(DEFAULT_ATOL);
        let equal = self.clone().equal(other.clone());
        let diff = self.sub(other.clone()).abs();
        // An infinite difference (one side infinite) is never within an infinite bound.
        let finite = diff.clone().is_finite();
        let bound = other.abs().mul_scalar(rtol).add_scalar(atol);
        diff.lower_equal(bound).bool_and(finite).bool_or(equal)
    }

    /// Whether every element is close to `other` (`torch.allclose`, see
    /// [`is_close`](Self::is_close)).
    pub fn all_close(self, other: Self, rtol: Option<f64>, atol: Option<f64>) -> bool {
        self.is_close(other, rtol, atol).all().into_scalar::<bool>()
    }

    /// The values truncated toward zero as an int tensor of the device's default int dtype.
    pub fn int(self) -> Tensor<D, Int> {
        let dtype = get_device_settings::<Dispatch>(self.device().dispatch()).int_dtype;
        Tensor::from_primitive(Dispatch::float_into_int(self.into_primitive(), dtype))
    }

    /// The variance along `dim` with Bessel's correction (divides by `n - 1`), kept with size 1.
    pub fn var<I: AsIndex>(self, dim: I) -> Self {
        let dim = check::dim("var", dim, D);
        self.var_with_correction(dim, 1)
    }

    /// The population variance along `dim` (divides by `n`), kept with size 1.
    pub fn var_bias<I: AsIndex>(self, dim: I) -> Self {
        let dim = check::dim("var_bias", dim, D);
        self.var_with_correction(dim, 0)
    }

    /// The variance (with Bessel's correction) and the mean along `dim`.
    pub fn var_mean<I: AsIndex>(self, dim: I) -> (Self, Self) {
        let dim = check::dim("var_mean", dim, D);
        self.var_and_mean(dim, 1)
    }

    /// The population variance and the mean along `dim`.
    pub fn var_mean_bias<I: AsIndex>(self, dim: I) -> (Self, Self) {
        let dim = check::dim("var_mean_bias", dim, D);
        self.var_and_mean(dim, 0)
    }

    fn var_with_correction(self, dim: usize, correction: usize) -> Self {
        self.var_and_mean(dim, correction).0
    }

    /// The variance dividing by `n - correction` and the mean, the mean computed once and
    /// reused to center the values.
    fn var_and_mean(self, dim: usize, correction: usize) -> (Self, Self) {
        check::dim_in_range("var", dim, D);
        let n = self.dims()[dim];
        if n <= correction {
            check::fail(
                "var",
                format_args!("dim {dim} has {n} elements, need more than {correction}"),
            );
        }
        let mean = self.clone().mean_dim(dim);
        let centered = self.sub(mean.clone());
        let var = centered
            .square()
            .sum_dim(dim)
            .div_scalar((n - correction) as f64);
        (var, mean)
    }

    /// The cross product along `dim`, which must have size 3 (broadcasting the rest).
    pub fn cross<Dim: AsIndex>(self, other: Self, dim: Dim) -> Self {
        let dim = check::dim("cross", dim, D);
        if self.dims()[dim] != 3 || other.dims()[dim] != 3 {
            check::fail(
                "cross",
                format_args!(
                    "dim {dim} must have size 3, got {:?} and {:?}",
                    self.dims(),
                    other.dims()
                ),
            );
        }
        let pick = |t: &Self, i: usize| t.clone().narrow(dim, i, 1);
        let (a0, a1, a2) = (pick(&self, 0), pick(&self, 1), pick(&self, 2));
        let (b0, b1, b2) = (pick(&other, 0), pick(&other, 1), pick(&other, 2));
        let c0 = a1.clone().mul(b2.clone()).sub(a2.clone().mul(b1.clone()));
        let c1 = a2.mul(b0.clone()).sub(a0.clone().mul(b2));
        let c2 = a0.mul(b1).sub(a1.mul(b0));
        Tensor::cat(vec![c0, c1, c2], dim)
    }

    /// The tensor cut off from the autodiff graph (identity on a device without autodiff).
    pub fn detach(self) -> Self {
        Self::from_primitive(Dispatch::float_detach(self.into_primitive()))
    }

    /// Marks the tensor as a leaf that needs a gradient. On a plain device (not
    /// `device.autodiff()`) nothing is tracked and the call changes nothing.
    ///
    /// # Panics
    /// On the result of tracked operations (not a leaf): `detach` it first.
    pub fn require_grad(self) -> Self {
        self.set_require_grad(true)
    }

    /// Sets whether the tensor is a leaf that needs a gradient.
    pub fn set_require_grad(self, require_grad: bool) -> Self {
        Self::from_primitive(Dispatch::float_set_require_grad(
            self.into_primitive(),
            require_grad,
        ))
    }

    /// Whether the tensor needs a gradient.
    pub fn is_require_grad(&self) -> bool {
        Dispatch::float_is_require_grad(self.primitive())
    }

    /// The element at `index` (one index per dim) as `E`.
    pub fn value_at<E: Element>(&self, index: [usize; D]) -> E {
        let slices: Vec<burn_backend::Slice> = index
            .iter()
            .map(|&i| burn_backend::Slice::index(i as isize))
            .collect();
        self.clone().slice(slices.as_slice()).into_scalar::<E>()
    }
}
