//! Statistics and encodings composed from other methods: median, covariance, the sum that
//! drops its dims, one-hot encodings.

use super::check;
use crate::AsIndex;
use crate::kind::{Numeric, Ordered};
use crate::{Bool, Float, Int, Tensor, TensorData};

impl<const D: usize> Tensor<D, Float> {
    /// The lower median along `dim`, kept as a dim of size 1 (`torch.median(dim, keepdim=True)`:
    /// of an even count, the smaller of the two middle values).
    pub fn median<I: AsIndex>(self, dim: I) -> Self {
        self.median_with_indices(dim).0
    }

    /// [`median`](Self::median) and the position of the median along `dim`.
    pub fn median_with_indices<I: AsIndex>(self, dim: I) -> (Self, Tensor<D, Int>) {
        let dim = check::dim("median", dim, D);
        let len = self.dims()[dim];
        if len == 0 {
            check::fail("median", format_args!("dim {dim} is empty"));
        }
        let (sorted, indices) = self.sort_with_indices(dim);
        let middle = (len - 1) / 2;
        (
            sorted.narrow(dim, middle, 1),
            indices.narrow(dim, middle, 1),
        )
    }

    /// The covariance matrix of the variables along the other dim of a matrix, observations
    /// along `dim`: `Σ (x - x̄)(x - x̄)ᵀ / (n - correction_factor)` (`torch.cov` takes variables
    /// as rows: `x.cov(1, 1)`). Shape `[variables, variables]` for `D = 2`.
    pub fn cov<I: AsIndex>(self, dim: I, correction_factor: usize) -> Tensor<D> {
        let dim = check::dim("cov", dim, D);
        let n = self.dims()[dim];
        if n <= correction_factor {
            check::fail(
                "cov",
                format_args!(
                    "{n} observations along dim {dim} leave no degrees of freedom after a correction of {correction_factor}"
                ),
            );
        }
        let mean = self.clone().mean_dim(dim);
        let centered = (self - mean).swap_dims(dim, 0);
        centered
            .clone()
            .transpose()
            .matmul(centered)
            .div_scalar((n - correction_factor) as f64)
    }
}

impl<const D: usize> Tensor<D, Float> {
    /// `num_samples` category indices drawn (with replacement) from the categorical distribution
    /// each last-dim row defines, its weights non-negative and not all zero (unnormalized is
    /// fine; `torch.multinomial(w, n, replacement=True)`): the last dim becomes `num_samples`.
    /// Inverse-CDF sampling from the device's seeded generator: category `i` is drawn when a
    /// uniform `u` falls in `[cdf(i - 1), cdf(i))`, so a zero weight is never drawn.
    pub fn categorical(self, num_samples: usize) -> Tensor<D, Int> {
        let op = "categorical";
        let dims = self.dims();
        if D == 0 || num_samples == 0 || dims[D - 1] == 0 {
            check::fail(
                op,
                format_args!(
                    "expected at least one category and one sample, got shape {dims:?} and {num_samples} samples"
                ),
            );
        }
        let categories = dims[D - 1];
        let rows = dims[..D - 1].iter().product::<usize>();
        let (device, dtype) = (self.device(), self.dtype());
        let weights: Tensor<2> = self.reshape([rows, categories]);
        let cdf = (weights.clone() / weights.sum_dim(1)).cumsum(1);
        let uniform = Tensor::<2>::random(
            [rows, num_samples],
            burn_backend::Distribution::Uniform(0.0, 1.0),
            (&device, dtype),
        );
        // For each sample, the number of categories whose cumulative weight is at most `u`.
        let below: Tensor<3, Bool> = cdf
            .unsqueeze_dim::<3>(2)
            .lower_equal(uniform.unsqueeze_dim::<3>(1));
        let drawn: Tensor<2, Int> = below.int().sum_dim(1).squeeze_dim(1);
        let mut shape = dims;
        shape[D - 1] = num_samples;
        drawn.clamp(0, categories as i64 - 1).reshape(shape)
    }
}

impl<const D: usize, K: Numeric> Tensor<D, K> {
    /// The sums over `dims`, those dims removed (`D2 = D - dims.len()`).
    pub fn sum_dims_squeeze<const D2: usize, I: AsIndex>(self, dims: &[I]) -> Tensor<D2, K> {
        self.sum_dims(dims).squeeze_dims::<D2>(dims)
    }
}

/// The class of each value as a one-hot index: truncated toward zero, negative values counting
/// from the end (`-1` is the last class); `None` out of `-classes..classes` (or not finite).
fn class_of(value: f64, classes: usize) -> Option<usize> {
    if !value.is_finite() {
        return None;
    }
    let class = value.trunc();
    let class = if class < 0.0 {
        class + classes as f64
    } else {
        class
    };
    (class >= 0.0 && class < classes as f64).then_some(class as usize)
}

impl<const D: usize, K: Ordered> Tensor<D, K> {
    /// One-hot encoding along a new last dim of size `num_classes` (`D2 = D + 1`), ones at the
    /// class of each value (floats truncated); panics naming a value outside
    /// `0..num_classes`.
    ///
    /// ```
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::default();
    /// let classes = Tensor::<1>::from_data([2.0, 0.0], &device);
    /// let encoded: Tensor<2> = classes.one_hot(3);
    /// assert_eq!(encoded.into_data().to_vec::<f32>().unwrap(), [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
    /// ```
    pub fn one_hot<const D2: usize>(self, num_classes: usize) -> Tensor<D2, K> {
        let values = self.to_data();
        if let Some(bad) = values
            .iter::<f64>()
            .find(|&v| !(v.is_finite() && v >= 0.0 && v.trunc() < num_classes as f64))
        {
            check::fail(
                "one_hot",
                format_args!("values must lie in 0..{num_classes}, got {bad}"),
            );
        }
        self.one_hot_fill(num_classes, 1.0, 0.0, D as isize)
    }

    /// One-hot encoding with a new dim of size `num_classes` at `axis` (negative counts from the
    /// end of the result), `on_value` at each value's class and `off_value` elsewhere (ONNX
    /// `OneHot`): floats are truncated, negative values count from the last class, and values
    /// outside `-num_classes..num_classes` give a row of `off_value`. Reads the values to the
    /// host.
    pub fn one_hot_fill<const D2: usize>(
        self,
        num_classes: usize,
        on_value: f32,
        off_value: f32,
        axis: impl AsIndex,
    ) -> Tensor<D2, K> {
        let op = "one_hot_fill";
        if D2 != D + 1 {
            check::fail(op, format_args!("expected output rank {}, got {D2}", D + 1));
        }
        let axis = check::dim(op, axis, D2);
        let dims = self.dims();
        let mut shape = dims.to_vec();
        shape.insert(axis, num_classes);
        // Row-major: the elements before `axis`, the classes, the elements after.
        let (outer, inner) = (
            dims[..axis].iter().product::<usize>(),
            dims[axis..].iter().product::<usize>(),
        );
        let classes: Vec<Option<usize>> = self
            .to_data()
            .iter::<f64>()
            .map(|v| class_of(v, num_classes))
            .collect();
        let mut hot = vec![false; outer * num_classes * inner];
        for (i, class) in classes.into_iter().enumerate() {
            if let Some(class) = class {
                let (o, r) = (i / inner, i % inner);
                hot[(o * num_classes + class) * inner + r] = true;
            }
        }
        let device = self.device();
        let shape = crate::Shape::from(shape);
        let hot = Tensor::<D2, Bool>::from_data(TensorData::new(hot, shape.clone()), &device);
        Tensor::<D2, K>::full(shape, off_value, (&device, self.dtype())).mask_fill(hot, on_value)
    }
}

#[cfg(test)]
mod tests {
    use super::class_of;

    #[test]
    fn classes_truncate_and_wrap() {
        assert_eq!(class_of(2.7, 3), Some(2));
        assert_eq!(class_of(-1.0, 3), Some(2));
        assert_eq!(class_of(-3.0, 3), Some(0));
        assert_eq!(class_of(-4.0, 3), None);
        assert_eq!(class_of(3.0, 3), None);
        assert_eq!(class_of(f64::NAN, 3), None);
    }
}
