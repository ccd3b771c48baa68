//! Coordinate grids (Burn's `burn::tensor::grid`): [`meshgrid`] and [`meshgrid_stack`] as
//! NumPy and PyTorch define them, [`cartesian_grid`] of integer coordinates, and
//! [`affine_grid_2d`], the sampling grid of a batch of 2D affine transforms. All are built from
//! layout operations (reshape, expand, stack), so they run on every backend and differentiate.
//!
//! ```
//! use burn_tensor::grid::{GridIndexing, meshgrid};
//! use burn_tensor::{Device, Int, Tensor};
//! let device = Device::default();
//! let rows = Tensor::<1, Int>::arange(0..2, &device);
//! let cols = Tensor::<1, Int>::arange(0..3, &device);
//! let [r, c] = meshgrid(&[rows, cols], GridIndexing::Matrix);
//! assert_eq!(r.into_data().to_vec::<i64>().unwrap(), [0, 0, 0, 1, 1, 1]);
//! assert_eq!(c.into_data().to_vec::<i64>().unwrap(), [0, 1, 2, 0, 1, 2]);
//! ```

use crate::kind::Basic;
use crate::{Device, FloatDType, Int, Shape, Tensor};

/// How [`meshgrid`] orders its output dims.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridIndexing {
    /// Output dim `i` runs along input `i` (`indexing="ij"`).
    #[default]
    Matrix,
    /// The first two output dims exchanged (`indexing="xy"`, as in plotting).
    Cartesian,
}

/// Whether [`meshgrid`] expands its outputs to the whole grid.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridSparsity {
    /// Every output has the grid's shape.
    #[default]
    Dense,
    /// Output `i` has size 1 in every dim but its own (it broadcasts to the grid).
    Sparse,
}

/// The options of [`meshgrid`]; a [`GridIndexing`] or a [`GridSparsity`] converts into them,
/// the other option taking its default.
#[derive(Default, Debug, Clone, Copy)]
pub struct GridOptions {
    /// The order of the output dims.
    pub indexing: GridIndexing,
    /// Whether the outputs are expanded to the grid.
    pub sparsity: GridSparsity,
}

impl GridOptions {
    /// Options with both choices given.
    pub fn new(indexing: GridIndexing, sparsity: GridSparsity) -> Self {
        Self { indexing, sparsity }
    }
}

impl From<GridIndexing> for GridOptions {
    fn from(indexing: GridIndexing) -> Self {
        Self {
            indexing,
            ..Self::default()
        }
    }
}

impl From<GridSparsity> for GridOptions {
    fn from(sparsity: GridSparsity) -> Self {
        Self {
            sparsity,
            ..Self::default()
        }
    }
}

/// Where [`meshgrid_stack`] puts the coordinate index.
#[derive(Default, Debug, Clone, Copy)]
pub enum IndexPos {
    /// Shape `[N, ...grid]`.
    #[default]
    First,
    /// Shape `[...grid, N]`.
    Last,
}

/// The coordinate tensors of the grid spanned by `N` vectors (`numpy.meshgrid`,
/// `torch.meshgrid`): output `i` holds `tensors[i][j_i]` at grid position `(j_0, …, j_{N-1})`.
/// With [`GridIndexing::Cartesian`] the first two dims of every output are exchanged; with
/// [`GridSparsity::Sparse`] output `i` keeps size 1 outside dim `i`.
pub fn meshgrid<const N: usize, K, O>(tensors: &[Tensor<1, K>; N], options: O) -> [Tensor<N, K>; N]
where
    K: Basic,
    O: Into<GridOptions>,
{
    let options = options.into();
    let grid: [usize; N] = core::array::from_fn(|i| tensors[i].dims()[0]);
    core::array::from_fn(|i| {
        let mut along = [1usize; N];
        along[i] = grid[i];
        let mut coordinate = tensors[i].clone().reshape(along);
        if options.sparsity == GridSparsity::Dense {
            coordinate = coordinate.expand(grid);
        }
        if options.indexing == GridIndexing::Cartesian && N > 1 {
            coordinate = coordinate.swap_dims(0, 1);
        }
        coordinate
    })
}

/// The dense [`meshgrid`] (matrix indexing) of `D` vectors stacked into one tensor of rank
/// `D2 = D + 1`, the coordinate index first or last.
///
/// # Panics
/// If `D2` is not `D + 1`.
pub fn meshgrid_stack<const D: usize, const D2: usize, K>(
    tensors: &[Tensor<1, K>; D],
    index_pos: IndexPos,
) -> Tensor<D2, K>
where
    K: Basic,
{
    assert_eq!(
        D2,
        D + 1,
        "meshgrid_stack: expected an output rank of {} for {D} vectors, got {D2}",
        D + 1
    );
    let dim = match index_pos {
        IndexPos::First => 0,
        IndexPos::Last => D,
    };
    Tensor::stack(meshgrid(tensors, GridOptions::default()).to_vec(), dim)
}

/// The integer coordinates of every element of a tensor of `shape`: rank `D2 = D + 1`, the
/// last dim holding the `D` coordinates (`[i, j, .., (i, j)]` for `D = 2`).
///
/// # Panics
/// If `D2` is not `D + 1`, or `shape` does not have `D` dims.
pub fn cartesian_grid<S: Into<Shape>, const D: usize, const D2: usize>(
    shape: S,
    device: &Device,
) -> Tensor<D2, Int> {
    let shape = shape.into();
    assert_eq!(
        shape.num_dims(),
        D,
        "cartesian_grid: expected a shape of {D} dims, got {shape:?}"
    );
    let ranges: [Tensor<1, Int>; D] =
        core::array::from_fn(|i| Tensor::arange(0..shape[i] as i64, device));
    meshgrid_stack(&ranges, IndexPos::Last)
}

/// The sampling grid of a batch of 2D affine transforms (`torch.nn.functional.affine_grid`
/// with `align_corners=True`): `transform` is `[batch, 2, 3]`, `dims` is `[batch, channels,
/// height, width]`; the result `[batch, height, width, 2]` holds, for each output pixel, the
/// `(x, y)` its transform maps it to, in coordinates running from -1 to 1 across the input
/// (a size-1 side sits at -1).
///
/// # Panics
/// If `transform` is not `[dims[0], 2, 3]`.
pub fn affine_grid_2d(transform: Tensor<3>, dims: [usize; 4]) -> Tensor<4> {
    let [batch, _, height, width] = dims;
    assert_eq!(
        transform.dims(),
        [batch, 2, 3],
        "affine_grid_2d: expected a transform of shape [{batch}, 2, 3] for dims {dims:?}, got {:?}",
        transform.dims()
    );
    let device = transform.device();
    let dtype = FloatDType::from_dtype(transform.dtype());
    // -1 to 1 over `n` points (align_corners); a single point at -1, as torch.linspace.
    let axis = |n: usize| {
        let steps = Tensor::<1, Int>::arange(0..n as i64, &device).float();
        let scale = if n > 1 { 2.0 / (n - 1) as f64 } else { 0.0 };
        steps.cast(dtype).mul_scalar(scale).sub_scalar(1.0)
    };
    let [y, x] = meshgrid(&[axis(height), axis(width)], GridIndexing::Matrix);
    let ones = x.ones_like();
    // Homogeneous coordinates [h * w, 3] times the transposed transforms [batch, 3, 2].
    let points: Tensor<2> = Tensor::stack::<3>(vec![x, y, ones], 2).reshape([height * width, 3]);
    let grid = points
        .unsqueeze::<3>()
        .expand([batch, height * width, 3])
        .matmul(transform.swap_dims(1, 2));
    grid.reshape([batch, height, width, 2])
}
