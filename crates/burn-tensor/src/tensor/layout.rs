//! Layout: reshaping, permuting, slicing, concatenating. Views where the backend allows.

use super::args::{BroadcastArgs, MovedimArgs, ReshapeArgs};
use super::check;
use super::dim_iter::DimIter;
use crate::AsIndex;
use crate::Tensor;
use crate::kind::Basic;
use burn_backend::{DType, Scalar, Shape, Slice, SliceArg};

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// The same values in row-major order with another shape: `-1` infers one size; wrap the
    /// sizes in [`ZeroDimPlaceholders`](crate::ZeroDimPlaceholders) for `0` to keep the input's
    /// size at that position.
    ///
    /// A view where the backend allows; a reshape to the tensor's own shape returns the tensor
    /// itself. Neither promises a contiguous result.
    pub fn reshape<const D2: usize, S: ReshapeArgs<D2>>(self, shape: S) -> Tensor<D2, K> {
        let source = self.shape();
        let new_shape = shape.into_shape::<D>(source.clone());
        if new_shape == source {
            // The same shape: the tensor itself, without a call to the backend.
            return Self::new_tensor(self.into_primitive());
        }
        Self::new_tensor(K::reshape(self.into_primitive(), new_shape))
    }

    /// Swaps the last two dims.
    pub fn transpose(self) -> Self {
        if D < 2 {
            return self;
        }
        self.swap_dims(D - 2, D - 1)
    }

    /// Swaps the last two dims (the same as [`transpose`](Self::transpose)).
    pub fn t(self) -> Self {
        self.transpose()
    }

    /// Swaps two dims.
    pub fn swap_dims<Dim1: AsIndex, Dim2: AsIndex>(self, dim1: Dim1, dim2: Dim2) -> Self {
        let dim1 = check::dim("swap_dims", dim1, D);
        let dim2 = check::dim("swap_dims", dim2, D);
        Self::from_primitive(K::swap_dims(self.into_primitive(), dim1, dim2))
    }

    /// Reorders the dims: output dim `i` is input dim `axes[i]` (negative counts from the end).
    pub fn permute<Dim: AsIndex>(self, axes: [Dim; D]) -> Self {
        let axes: Vec<usize> = axes.iter().map(|&a| check::dim("permute", a, D)).collect();
        let mut seen = [false; D];
        for &a in &axes {
            if seen[a] {
                check::fail("permute", format_args!("axes {axes:?} repeat dim {a}"));
            }
            seen[a] = true;
        }
        Self::from_primitive(K::permute(self.into_primitive(), &axes))
    }

    /// Moves dims `src` (one, or a `Vec` of them; negative counts from the end) to the positions
    /// `dst`, keeping the order of the others (`torch.movedim`).
    pub fn movedim<S1: MovedimArgs, S2: MovedimArgs>(self, src: S1, dst: S2) -> Self {
        let (src, dst) = (src.into_dims("movedim", D), dst.into_dims("movedim", D));
        let distinct = |dims: &[usize]| (0..dims.len()).all(|i| !dims[..i].contains(&dims[i]));
        if src.len() != dst.len() || !distinct(&src) || !distinct(&dst) {
            check::fail(
                "movedim",
                format_args!(
                    "expected as many distinct source as destination dims, got {src:?} and {dst:?}"
                ),
            );
        }
        let mut order: [Option<usize>; D] = [None; D];
        for (&s, &d) in src.iter().zip(&dst) {
            order[d] = Some(s);
        }
        let mut rest = (0..D).filter(|d| !src.contains(d));
        let axes: [usize; D] = order.map(|o| o.or_else(|| rest.next()).unwrap_or_default());
        self.permute(axes)
    }

    /// Reverses the order of elements along each of `axes`.
    pub fn flip<const N: usize>(self, axes: [impl AsIndex; N]) -> Self {
        let axes: Vec<usize> = axes.iter().map(|&a| check::dim("flip", a, D)).collect();
        Self::from_primitive(K::flip(self.into_primitive(), &axes))
    }

    /// Merges dims `start..=end` into one.
    pub fn flatten<const D2: usize>(self, start: impl AsIndex, end: impl AsIndex) -> Tensor<D2, K> {
        let start = check::dim("flatten", start, D);
        let end = check::dim("flatten", end, D);
        if start > end || end >= D || D2 != D - (end - start) {
            check::fail(
                "flatten",
                format_args!(
                    "cannot flatten dims {start}..={end} of a rank-{D} tensor into rank {D2}"
                ),
            );
        }
        let dims = self.dims();
        let mut out = Vec::with_capacity(D2);
        out.extend_from_slice(&dims[..start]);
        out.push(dims[start..=end].iter().product());
        out.extend_from_slice(&dims[end + 1..]);
        Self::new_tensor(K::reshape(self.into_primitive(), Shape::from(out)))
    }

    /// Removes every dim of size 1; panics unless `D2` dims remain.
    pub fn squeeze<const D2: usize>(self) -> Tensor<D2, K> {
        let out: Vec<usize> = self.dims().into_iter().filter(|&d| d != 1).collect();
        self.reshape_to_rank("squeeze", out)
    }

    /// Removes dim `dim`, which must have size 1.
    pub fn squeeze_dim<const D2: usize>(self, dim: impl AsIndex) -> Tensor<D2, K> {
        let dim = check::dim("squeeze_dim", dim, D);
        let dims = self.dims();
        if dims[dim] != 1 {
            check::fail(
                "squeeze_dim",
                format_args!(
                    "dim {dim} has size {}, expected 1 (shape {dims:?})",
                    dims[dim]
                ),
            );
        }
        let mut out = dims.to_vec();
        out.remove(dim);
        self.reshape_to_rank("squeeze_dim", out)
    }

    /// Removes the listed dims (negative counts from the end), each of size 1.
    pub fn squeeze_dims<const D2: usize>(self, dims: &[impl AsIndex]) -> Tensor<D2, K> {
        let dims: Vec<isize> = dims.iter().map(|d| d.as_index()).collect();
        let shape = self.dims();
        let mut remove: Vec<usize> = dims
            .iter()
            .map(|&d| check::resolve_dim("squeeze_dims", d, D))
            .collect();
        remove.sort_unstable();
        remove.dedup();
        for &d in &remove {
            if shape[d] != 1 {
                check::fail(
                    "squeeze_dims",
                    format_args!(
                        "dim {d} has size {}, expected 1 (shape {shape:?})",
                        shape[d]
                    ),
                );
            }
        }
        let out: Vec<usize> = (0..D)
            .filter(|d| !remove.contains(d))
            .map(|d| shape[d])
            .collect();
        self.reshape_to_rank("squeeze_dims", out)
    }

    /// Adds leading dims of size 1 up to rank `D2`.
    pub fn unsqueeze<const D2: usize>(self) -> Tensor<D2, K> {
        if D2 < D {
            check::fail(
                "unsqueeze",
                format_args!("cannot unsqueeze rank {D} to rank {D2}"),
            );
        }
        let mut out = vec![1; D2 - D];
        out.extend_from_slice(&self.dims());
        self.reshape_to_rank("unsqueeze", out)
    }

    /// Inserts a dim of size 1 at position `dim`.
    pub fn unsqueeze_dim<const D2: usize>(self, dim: impl AsIndex) -> Tensor<D2, K> {
        let dim = check::dim("unsqueeze_dim", dim, D2);
        if dim > D || D2 != D + 1 {
            check::fail(
                "unsqueeze_dim",
                format_args!("cannot insert dim {dim} into a rank-{D} tensor to get rank {D2}"),
            );
        }
        let mut out = self.dims().to_vec();
        out.insert(dim, 1);
        self.reshape_to_rank("unsqueeze_dim", out)
    }

    /// Inserts dims of size 1 at the listed output positions (negative counts from the end of
    /// the output).
    pub fn unsqueeze_dims<const D2: usize>(self, dims: &[impl AsIndex]) -> Tensor<D2, K> {
        let dims: Vec<isize> = dims.iter().map(|d| d.as_index()).collect();
        let mut positions: Vec<usize> = dims
            .iter()
            .map(|&d| check::resolve_dim("unsqueeze_dims", d, D2))
            .collect();
        positions.sort_unstable();
        let mut source = self.dims().into_iter();
        let out: Vec<usize> = (0..D2)
            .map(|i| {
                if positions.contains(&i) {
                    1
                } else {
                    source.next().unwrap_or(1)
                }
            })
            .collect();
        self.reshape_to_rank("unsqueeze_dims", out)
    }

    fn reshape_to_rank<const D2: usize>(self, op: &str, dims: Vec<usize>) -> Tensor<D2, K> {
        if dims.len() != D2 {
            check::fail(
                op,
                format_args!(
                    "the result has rank {}, expected {D2} (shape {dims:?})",
                    dims.len()
                ),
            );
        }
        if dims[..] == self.dims()[..] {
            // The same shape (an `unsqueeze` to the same rank): the tensor itself.
            return Self::new_tensor(self.into_primitive());
        }
        Self::new_tensor(K::reshape(self.into_primitive(), Shape::from(dims)))
    }

    /// Broadcasts to `shape` (size-1 dims stretch; new dims are added in front; `-1` keeps a
    /// size). No data is copied.
    pub fn expand<const D2: usize, S: BroadcastArgs<D, D2>>(self, shape: S) -> Tensor<D2, K> {
        let dims = self.shape();
        let target = shape.into_shape(&dims);
        if target.num_dims() != D2 || D2 < D {
            check::fail(
                "expand",
                format_args!("cannot expand {dims:?} to {target:?} (rank {D2})"),
            );
        }
        for (i, &size) in target.iter().enumerate() {
            let source = (i + D).checked_sub(D2).map(|j| dims[j]);
            if let Some(source) = source
                && source != size
                && source != 1
            {
                check::fail(
                    "expand",
                    format_args!(
                        "cannot expand shape {dims:?} to {target:?} (size {source} to {size})"
                    ),
                );
            }
        }
        Self::new_tensor(K::expand(self.into_primitive(), target))
    }

    /// The sub-tensor selected by one slice per leading dim (see [`s!`](crate::s)).
    pub fn slice<S: SliceArg>(self, slices: S) -> Self {
        let slices = slices.into_slices(&self.shape());
        Self::from_primitive(K::slice(self.into_primitive(), &slices))
    }

    /// The tensor with the sub-tensor at `slices` replaced by `values`.
    pub fn slice_assign<S: SliceArg>(self, slices: S, values: Self) -> Self {
        let slices = slices.into_slices(&self.shape());
        let expected: Vec<usize> = slices
            .iter()
            .zip(self.dims())
            .map(|(s, d)| s.output_size(d))
            .collect();
        check::same_shape("slice_assign", &Shape::from(expected), &values.shape());
        check::same_device("slice_assign", &self.device(), &values.device());
        Self::from_primitive(K::slice_assign(
            self.into_primitive(),
            &slices,
            values.into_primitive(),
        ))
    }

    /// The tensor with the sub-tensor at `slices` set to `value`.
    pub fn slice_fill<S: SliceArg, V: Into<Scalar>>(self, slices: S, value: V) -> Self {
        let slices = slices.into_slices(&self.shape());
        let dims: Vec<usize> = slices
            .iter()
            .zip(self.dims())
            .map(|(s, d)| s.output_size(d))
            .collect();
        let fill = Self::full(dims, value, (&self.device(), self.dtype()));
        Self::from_primitive(K::slice_assign(
            self.into_primitive(),
            &slices,
            fill.into_primitive(),
        ))
    }

    /// The elements `slice` (a range, possibly negative or stepped, or an index) of dim `dim`.
    pub fn slice_dim<S: Into<Slice>>(self, dim: impl AsIndex, slice: S) -> Self {
        let dim = check::dim("slice_dim", dim, D);
        let mut slices = vec![Slice::full(); D];
        slices[dim] = slice.into();
        self.slice(slices.as_slice())
    }

    /// Rotates the elements along `dim` by `shift` positions (`torch.roll`; negative shifts
    /// rotate toward the start).
    pub fn roll_dim<Shift: AsIndex, Dim: AsIndex>(self, shift: Shift, dim: Dim) -> Self {
        let dim = check::dim("roll_dim", dim, D);
        let shift = shift.as_index() as i64;
        let size = self.dims()[dim];
        if size == 0 {
            return self;
        }
        let shift = shift.rem_euclid(size as i64) as usize;
        if shift == 0 {
            return self;
        }
        let tail = self.clone().narrow(dim, size - shift, shift);
        let head = self.narrow(dim, 0, size - shift);
        Tensor::cat(vec![tail, head], dim)
    }

    /// Rotates along each of `dims` by the matching `shifts` (`torch.roll`).
    pub fn roll<Shift: AsIndex, Dim: AsIndex>(self, shifts: &[Shift], dims: &[Dim]) -> Self {
        if shifts.len() != dims.len() {
            check::fail(
                "roll",
                format_args!("{} shifts for {} dims", shifts.len(), dims.len()),
            );
        }
        shifts
            .iter()
            .zip(dims)
            .fold(self, |t, (&shift, &dim)| t.roll_dim(shift, dim))
    }

    /// The slices along `dim`, one tensor per index, each keeping `dim` with size 1.
    pub fn iter_dim(self, dim: impl AsIndex) -> DimIter<D, K> {
        let dim = check::dim("iter_dim", dim, D);
        DimIter::new(self, dim)
    }

    /// `length` elements of dim `dim` from `start`.
    pub fn narrow(self, dim: impl AsIndex, start: usize, length: usize) -> Self {
        let dim = check::dim("narrow", dim, D);
        let size = self.dims()[dim];
        if start + length > size {
            check::fail(
                "narrow",
                format_args!(
                    "range {start}..{} exceeds dim {dim} of size {size}",
                    start + length
                ),
            );
        }
        let mut slices = vec![Slice::full(); D];
        slices[dim] = Slice::new(start as isize, Some((start + length) as isize), 1);
        Self::from_primitive(K::slice(self.into_primitive(), &slices))
    }

    /// Splits dim `dim` into `chunks` pieces of equal size (the last may be smaller; fewer
    /// pieces when the dim is too small), like `torch.chunk`.
    pub fn chunk(self, chunks: usize, dim: impl AsIndex) -> Vec<Self> {
        let dim = check::dim("chunk", dim, D);
        if chunks == 0 {
            check::fail("chunk", "chunks must be positive");
        }
        let size = self.dims()[dim];
        let step = size.div_ceil(chunks).max(1);
        self.split(step, dim)
    }

    /// Splits dim `dim` into pieces of `split_size` (the last may be smaller).
    pub fn split(self, split_size: usize, dim: impl AsIndex) -> Vec<Self> {
        let dim = check::dim("split", dim, D);
        if split_size == 0 {
            check::fail("split", "split_size must be positive");
        }
        let size = self.dims()[dim];
        let sizes: Vec<usize> = (0..size)
            .step_by(split_size)
            .map(|s| split_size.min(size - s))
            .collect();
        self.split_with_sizes(sizes, dim)
    }

    /// Splits dim `dim` into pieces of the given sizes, which must add up to its size.
    pub fn split_with_sizes(self, sizes: Vec<usize>, dim: impl AsIndex) -> Vec<Self> {
        let dim = check::dim("split_with_sizes", dim, D);
        let total: usize = sizes.iter().sum();
        if total != self.dims()[dim] {
            check::fail(
                "split_with_sizes",
                format_args!(
                    "sizes {sizes:?} add up to {total}, dim {dim} has {}",
                    self.dims()[dim]
                ),
            );
        }
        let mut start = 0;
        sizes
            .into_iter()
            .map(|len| {
                let piece = self.clone().narrow(dim, start, len);
                start += len;
                piece
            })
            .collect()
    }

    /// Concatenates along `dim`; the other sizes must match.
    pub fn cat(tensors: Vec<Self>, dim: impl AsIndex) -> Self {
        let dim = check::dim("cat", dim, D);
        if tensors.is_empty() {
            check::fail("cat", "expected at least one tensor");
        }
        check::dim_in_range("cat", dim, D);
        let first = tensors[0].dims();
        let device = tensors[0].device();
        for (i, t) in tensors.iter().enumerate().skip(1) {
            let dims = t.dims();
            for d in (0..D).filter(|&d| d != dim) {
                if dims[d] != first[d] {
                    check::fail(
                        "cat",
                        format_args!(
                            "tensor {i} has shape {dims:?}, expected {first:?} outside dim {dim}"
                        ),
                    );
                }
            }
            check::same_device("cat", &device, &t.device());
            // Quantized tensors of any scheme concatenate (requantized with the first's).
            let both_quantized = matches!(
                (tensors[0].dtype(), t.dtype()),
                (DType::QFloat(_), DType::QFloat(_))
            );
            if !both_quantized {
                check::same_dtype("cat", tensors[0].dtype(), t.dtype());
            }
        }
        let primitives = tensors.into_iter().map(Tensor::into_primitive).collect();
        Self::from_primitive(K::cat(primitives, dim))
    }

    /// Stacks tensors of one shape along a new dim `dim` (`D2 = D + 1`).
    pub fn stack<const D2: usize>(tensors: Vec<Self>, dim: impl AsIndex) -> Tensor<D2, K> {
        let dim = check::dim("stack", dim, D2);
        if tensors.is_empty() {
            check::fail("stack", "expected at least one tensor");
        }
        let shape = tensors[0].shape();
        for (i, t) in tensors.iter().enumerate() {
            if t.shape() != shape {
                check::fail(
                    "stack",
                    format_args!("tensor {i} has shape {:?}, expected {shape:?}", t.shape()),
                );
            }
        }
        let expanded: Vec<Tensor<D2, K>> =
            tensors.into_iter().map(|t| t.unsqueeze_dim(dim)).collect();
        Tensor::cat(expanded, dim)
    }

    /// Repeats the tensor `times` times along `dim`.
    pub fn repeat_dim(self, dim: impl AsIndex, times: usize) -> Self {
        let dim = check::dim("repeat_dim", dim, D);
        if times == 0 {
            check::fail("repeat_dim", "times must be positive");
        }
        Self::from_primitive(K::repeat_dim(self.into_primitive(), dim, times))
    }

    /// Repeats the tensor along every dim (`sizes[i]` times along dim `i`).
    pub fn repeat(self, sizes: &[usize]) -> Self {
        if sizes.len() != D {
            check::fail("repeat", format_args!("expected {D} sizes, got {sizes:?}"));
        }
        let mut out = self;
        for (dim, &times) in sizes.iter().enumerate() {
            if times != 1 {
                out = out.repeat_dim(dim, times);
            }
        }
        out
    }
}
