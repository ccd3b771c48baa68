//! Coordinate grids written the way a Burn 0.23 user writes them; the expected values are
//! those of `torch.meshgrid`, `torch.stack` and `torch.nn.functional.affine_grid`.

use burn::prelude::*;
use burn::tensor::grid::{
    GridIndexing, GridOptions, GridSparsity, IndexPos, affine_grid_2d, meshgrid, meshgrid_stack,
};

fn ints<const D: usize>(t: Tensor<D, Int>) -> Vec<i64> {
    t.into_data().to_vec::<i64>().unwrap()
}

#[test]
fn meshgrid_in_both_indexings_and_sparsities() {
    let device = Device::default();
    let a = Tensor::<1, Int>::from_ints([1, 2], &device);
    let b = Tensor::<1, Int>::from_ints([10, 20, 30], &device);
    // torch.meshgrid(a, b, indexing="ij")
    let [x, y] = meshgrid(&[a.clone(), b.clone()], GridOptions::default());
    assert_eq!(x.dims(), [2, 3]);
    assert_eq!(ints(x), [1, 1, 1, 2, 2, 2]);
    assert_eq!(ints(y), [10, 20, 30, 10, 20, 30]);
    // torch.meshgrid(a, b, indexing="xy"): shape [3, 2]
    let [x, y] = meshgrid(&[a.clone(), b.clone()], GridIndexing::Cartesian);
    assert_eq!(x.dims(), [3, 2]);
    assert_eq!(ints(x), [1, 2, 1, 2, 1, 2]);
    assert_eq!(ints(y), [10, 10, 20, 20, 30, 30]);
    // numpy.meshgrid(a, b, indexing="ij", sparse=True)
    let [x, y] = meshgrid(&[a, b], GridSparsity::Sparse);
    assert_eq!((x.dims(), y.dims()), ([2, 1], [1, 3]));
}

#[test]
fn meshgrid_stack_and_cartesian_grid() {
    let device = Device::default();
    let a = Tensor::<1, Int>::from_ints([0, 1], &device);
    let b = Tensor::<1, Int>::from_ints([5, 6], &device);
    let first: Tensor<3, Int> = meshgrid_stack(&[a.clone(), b.clone()], IndexPos::First);
    assert_eq!(first.dims(), [2, 2, 2]);
    assert_eq!(ints(first), [0, 0, 1, 1, 5, 6, 5, 6]);
    let last: Tensor<3, Int> = meshgrid_stack(&[a, b], IndexPos::Last);
    assert_eq!(ints(last), [0, 5, 0, 6, 1, 5, 1, 6]);
    let grid: Tensor<3, Int> = Tensor::<2, Int>::cartesian_grid([2, 3], &device);
    assert_eq!(grid.dims(), [2, 3, 2]);
    assert_eq!(ints(grid), [0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2]);
    let flat: Tensor<2, Int> = burn::tensor::cartesian_grid::<_, 1, 2>([3], &device);
    assert_eq!(ints(flat), [0, 1, 2]);
}

#[test]
fn affine_grid_of_identity_and_a_shift() {
    let device = Device::default();
    // torch.nn.functional.affine_grid(theta, [2, 1, 2, 3], align_corners=True) with theta
    // the identity and a shift by (0.5, -1) scaled x by 2.
    let theta = Tensor::<3>::from_floats(
        [
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            [[2.0, 0.0, 0.5], [0.0, 1.0, -1.0]],
        ],
        &device,
    );
    let grid = affine_grid_2d(theta, [2, 1, 2, 3]);
    assert_eq!(grid.dims(), [2, 2, 3, 2]);
    let values = grid.into_data().to_vec::<f32>().unwrap();
    let identity = [
        -1.0, -1.0, 0.0, -1.0, 1.0, -1.0, -1.0, 1.0, 0.0, 1.0, 1.0, 1.0,
    ];
    let shifted = [
        -1.5, -2.0, 0.5, -2.0, 2.5, -2.0, -1.5, 0.0, 0.5, 0.0, 2.5, 0.0,
    ];
    assert_eq!(values[..12], identity);
    assert_eq!(values[12..], shifted);
}
