//! Selections composed from `select`, `select_assign` and reshapes: multi-dimensional gather
//! and scatter (`gather_nd`, `scatter_nd`), `take`, `select_dim`, `mask_select` and sliding
//! windows (`unfold`). Being compositions, they differentiate through their parts.

use super::check;
use crate::AsIndex;
use crate::kind::Basic;
use crate::{Bool, Int, Tensor};
use burn_backend::IndexingUpdateOp;

/// The row-major flat position, among the first `K` dims of `dims`, of each index vector (the
/// last dim) of `indices [.., K]`: `[n]`, with `n` the number of vectors.
fn flat_positions<const M: usize>(dims: &[usize], indices: Tensor<M, Int>) -> Tensor<1, Int> {
    let k = indices.dims()[M - 1];
    let mut strides = vec![1i64; k];
    for i in (0..k.saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1] as i64;
    }
    let mut shape = [1usize; M];
    shape[M - 1] = k;
    let strides =
        Tensor::<1, Int>::from_data(crate::TensorData::new(strides, [k]), &indices.device())
            .cast(burn_backend::IntDType::from_dtype(indices.dtype()))
            .reshape(shape);
    let count = indices.dims()[..M - 1].iter().product::<usize>();
    (indices * strides).sum_dim(M - 1).reshape([count])
}

/// Checks the ranks of an n-d gather or scatter of a rank-`D` tensor by `indices` of rank `M`
/// (last dim `K`): `K ≤ D`, and the values' rank `DV = M - 1 + D - K`. Returns `K`.
fn check_nd<const D: usize, const M: usize, const DV: usize>(op: &str, indices: &[usize]) -> usize {
    let k = indices[M - 1];
    if M == 0 || k > D || k == 0 || M - 1 + D - k != DV {
        check::fail(
            op,
            format_args!(
                "indices {indices:?} index the first K = {k} of {D} dims; expected 0 < K ≤ {D} and a result of rank {DV} = {} - 1 + {D} - K",
                M
            ),
        );
    }
    k
}

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// The slices of `self` at the index vectors of `indices [.., K]`, each naming a position
    /// among the first `K` dims (`tf.gather_nd`, ONNX `GatherND` without batch dims): shape
    /// `indices.shape[..M-1] ++ self.shape[K..]`.
    ///
    /// ```
    /// use burn_tensor::{Device, Int, Tensor};
    ///
    /// let device = Device::default();
    /// let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    /// let at = Tensor::<2, Int>::from_data([[1, 0], [0, 1]], &device);
    /// let picked: Tensor<1> = x.gather_nd(at);
    /// assert_eq!(picked.into_data().to_vec::<f32>().unwrap(), [3.0, 2.0]);
    /// ```
    pub fn gather_nd<const M: usize, const DV: usize>(
        self,
        indices: Tensor<M, Int>,
    ) -> Tensor<DV, K> {
        let op = "gather_nd";
        let k = check_nd::<D, M, DV>(op, &indices.dims());
        check::same_device(op, &self.device(), &indices.device());
        let dims = self.dims();
        let batch = indices.dims()[..M - 1].to_vec();
        let rows: usize = dims[..k].iter().product();
        let rest: usize = dims[k..].iter().product();
        let flat = flat_positions(&dims, indices);
        let picked = self.reshape([rows, rest]).select(0, flat);
        let shape: Vec<usize> = batch.into_iter().chain(dims[k..].iter().copied()).collect();
        picked.reshape(crate::Shape::from(shape))
    }

    /// The slices of `self` at `indices` along `dim`, the indices of any shape taking the place
    /// of that dim (`numpy.take`): shape `self.shape[..dim] ++ indices.shape ++
    /// self.shape[dim+1..]`.
    ///
    /// ```
    /// use burn_tensor::{Device, Int, Tensor};
    ///
    /// let device = Device::default();
    /// let x = Tensor::<1>::from_data([10.0, 20.0, 30.0], &device);
    /// let taken: Tensor<2> = x.take(0, Tensor::<2, Int>::from_data([[2, 0], [1, 1]], &device));
    /// assert_eq!(taken.into_data().to_vec::<f32>().unwrap(), [30.0, 10.0, 20.0, 20.0]);
    /// ```
    pub fn take<const DI: usize, const DO: usize>(
        self,
        dim: impl AsIndex,
        indices: Tensor<DI, Int>,
    ) -> Tensor<DO, K> {
        let op = "take";
        let dim = check::dim(op, dim, D);
        if DO != D - 1 + DI {
            check::fail(
                op,
                format_args!(
                    "expected an output of rank {} (rank {D} with one dim replaced by the {DI} of the indices), got {DO}",
                    D - 1 + DI
                ),
            );
        }
        check::same_device(op, &self.device(), &indices.device());
        let (dims, index_dims) = (self.dims(), indices.dims());
        let count = index_dims.iter().product::<usize>();
        let picked = self.select(dim, indices.reshape([count]));
        let shape: Vec<usize> = dims[..dim]
            .iter()
            .chain(index_dims.iter())
            .chain(dims[dim + 1..].iter())
            .copied()
            .collect();
        picked.reshape(crate::Shape::from(shape))
    }

    /// The slice at `index` (negative counts from the end) of `dim`, that dim removed
    /// (`x[:, i]`).
    pub fn select_dim<const D2: usize>(
        self,
        dim: impl AsIndex,
        index: impl AsIndex,
    ) -> Tensor<D2, K> {
        let op = "select_dim";
        let dim = check::dim(op, dim, D);
        let size = self.dims()[dim];
        let index = check::index(op, index, size);
        self.narrow(dim, index, 1).squeeze_dim(dim)
    }

    /// The values where `mask` (of `self`'s shape) is true, in row-major order, as a vector
    /// (`x[mask]`). Reads the mask to the host to count them; gradients reach the selected
    /// positions.
    pub fn mask_select(self, mask: Tensor<D, Bool>) -> Tensor<1, K> {
        let op = "mask_select";
        check::same_shape(op, &self.shape(), &mask.shape());
        check::same_device(op, &self.device(), &mask.device());
        let positions: Vec<i64> = mask
            .into_data()
            .iter::<bool>()
            .enumerate()
            .filter_map(|(i, keep)| keep.then_some(i as i64))
            .collect();
        let count = positions.len();
        let positions =
            Tensor::<1, Int>::from_data(crate::TensorData::new(positions, [count]), &self.device());
        let total = self.shape().num_elements();
        self.reshape([total]).select(0, positions)
    }

    /// [`mask_select`](Self::mask_select) as a future, for callers that must not block.
    pub async fn mask_select_async(self, mask: Tensor<D, Bool>) -> Tensor<1, K> {
        self.mask_select(mask)
    }

    /// The windows of `size` elements along `dim`, every `step`: `dim` becomes the number of
    /// windows (`(len - size) / step + 1`, 0 when `len < size`) and a last dim of `size` holds
    /// each window (`torch.Tensor.unfold`).
    ///
    /// ```
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::default();
    /// let x = Tensor::<1>::from_data([1.0, 2.0, 3.0, 4.0, 5.0], &device);
    /// let windows: Tensor<2> = x.unfold(0, 2, 2);
    /// assert_eq!(windows.into_data().to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    /// ```
    pub fn unfold<const D2: usize, I: AsIndex>(
        self,
        dim: I,
        size: usize,
        step: usize,
    ) -> Tensor<D2, K> {
        let op = "unfold";
        let dim = check::dim(op, dim, D);
        if D2 != D + 1 || size == 0 || step == 0 {
            check::fail(
                op,
                format_args!(
                    "expected a result of rank {} and a positive size and step, got rank {D2}, size {size}, step {step}",
                    D + 1
                ),
            );
        }
        let dims = self.dims();
        let windows = match dims[dim] < size {
            true => 0,
            false => (dims[dim] - size) / step + 1,
        };
        let starts: Vec<i64> = (0..windows)
            .flat_map(|w| (0..size).map(move |j| (w * step + j) as i64))
            .collect();
        let count = starts.len();
        let at =
            Tensor::<1, Int>::from_data(crate::TensorData::new(starts, [count]), &self.device());
        let picked = self.select(dim, at);
        // `[pre, windows, size, post]`, then the window's elements moved to the end.
        let shape: Vec<usize> = dims[..dim]
            .iter()
            .copied()
            .chain([windows, size])
            .chain(dims[dim + 1..].iter().copied())
            .collect();
        let split: Tensor<D2, K> = picked.reshape(crate::Shape::from(shape));
        split.movedim(dim as isize + 1, D as isize)
    }
}

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// Combines the slices of `values` into `self` at `indices` along `dim` with `update`
    /// (`index_add`, `index_copy`, `index_reduce`): a [`scatter`](Self::scatter) with the
    /// indices broadcast over `values`.
    pub fn select_assign(
        self,
        dim: impl AsIndex,
        indices: Tensor<1, Int>,
        values: Self,
        update: burn_backend::IndexingUpdateOp,
    ) -> Self {
        let dim = check::dim("select_assign", dim, D);
        let (mut expected, got) = (self.dims(), values.dims());
        expected[dim] = indices.dims()[0];
        if expected != got {
            check::fail(
                "select_assign",
                format_args!("values have shape {got:?}, expected {expected:?}"),
            );
        }
        let mut index_shape = [1usize; D];
        index_shape[dim] = got[dim];
        let indices: Tensor<D, Int> = indices.reshape(index_shape);
        let indices = indices.expand(got.map(|d| d as i64));
        self.scatter(dim, indices, values, update)
    }

    /// Combines `values` into `self` at the index vectors of `indices [.., K]` (each naming a
    /// slice among the first `K` dims) with `update` (ONNX `ScatterND`, `tf.tensor_scatter_nd_*`):
    /// `values` has shape `indices.shape[..M-1] ++ self.shape[K..]`. Duplicate indices add up
    /// under `Add`; under the other updates which one wins is unspecified.
    pub fn scatter_nd<const M: usize, const DV: usize>(
        self,
        indices: Tensor<M, Int>,
        values: Tensor<DV, K>,
        update: IndexingUpdateOp,
    ) -> Self {
        let op = "scatter_nd";
        let k = check_nd::<D, M, DV>(op, &indices.dims());
        let dims = self.dims();
        let expected: Vec<usize> = indices.dims()[..M - 1]
            .iter()
            .chain(dims[k..].iter())
            .copied()
            .collect();
        if values.dims().as_slice() != expected.as_slice() {
            check::fail(
                op,
                format_args!(
                    "expected values of shape {expected:?}, got {:?}",
                    values.dims()
                ),
            );
        }
        check::same_device(op, &self.device(), &indices.device());
        let rows: usize = dims[..k].iter().product();
        let rest: usize = dims[k..].iter().product();
        let flat = flat_positions(&dims, indices);
        let count = flat.dims()[0];
        let values: Tensor<2, K> = values.reshape([count, rest]);
        let out = self
            .reshape([rows, rest])
            .select_assign(0, flat, values, update);
        out.reshape(dims)
    }
}
