//! How a tensor's elements group into the blocks that share one scale.

use burn_std::Shape;
use burn_std::quantization::QuantScheme;

/// The block structure of a tensor of some shape under a scheme, as views the backend's
/// reshape and broadcasting can use.
///
/// A dim of size `s` cut into blocks of `b > 1` becomes two axes, `[s / b, b]`, in
/// [`split`](Self::split); a dim whose block extent is 1 stays one axis. The scales, viewed
/// with [`scales_view`](Self::scales_view) (1 on every in-block axis), then broadcast against
/// the split values. Per-tensor schemes have no in-block split: every axis is reduced and the
/// scale view is all ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BlockGeometry {
    /// The values' shape with block axes split out.
    pub split: Vec<usize>,
    /// The axes of `split` that run inside one block (reduced to find a block's range).
    pub inner_axes: Vec<usize>,
    /// The scales' shape broadcastable against `split`.
    pub scales_view: Vec<usize>,
    /// The scales' own shape: `[1]` per tensor, else the block grid (one entry per dim).
    pub grid: Vec<usize>,
}

impl BlockGeometry {
    /// The geometry of `shape` under `scheme`.
    ///
    /// # Panics
    ///
    /// When a block has more dims than the tensor, or does not divide the tensor's dims
    /// (`op` names the operation in the message).
    pub fn new(op: &str, shape: &Shape, scheme: &QuantScheme) -> Self {
        let dims = shape.dims.clone();
        let rank = dims.len();
        let Some(block) = scheme.block_size() else {
            return Self {
                split: dims.to_vec(),
                inner_axes: (0..rank).collect(),
                scales_view: vec![1; rank],
                grid: vec![1],
            };
        };
        assert!(
            block.as_slice().len() <= rank,
            "{op}: the block size {:?} has more dims than the tensor of shape {dims:?}",
            block.as_slice()
        );
        let block = block.to_dim_vec(rank);
        let mut geometry = Self {
            split: Vec::with_capacity(2 * rank),
            inner_axes: Vec::new(),
            scales_view: Vec::with_capacity(2 * rank),
            grid: Vec::with_capacity(rank),
        };
        for (&size, &extent) in dims.iter().zip(&block) {
            if extent == 1 {
                geometry.split.push(size);
                geometry.scales_view.push(size);
                geometry.grid.push(size);
                continue;
            }
            assert!(
                size % extent == 0,
                "{op}: blocks of {block:?} must divide the tensor's shape {dims:?} (dim of size \
                 {size} is not a multiple of {extent})"
            );
            geometry.split.extend([size / extent, extent]);
            geometry.inner_axes.push(geometry.split.len() - 1);
            geometry.scales_view.extend([size / extent, 1]);
            geometry.grid.push(size / extent);
        }
        geometry
    }

    /// Whether `scheme`'s blocks fit `shape` (no more dims than it, dividing every dim).
    pub fn fits(shape: &Shape, scheme: &QuantScheme) -> bool {
        let Some(block) = scheme.block_size() else {
            return true;
        };
        let rank = shape.num_dims();
        block.as_slice().len() <= rank
            && block
                .to_dim_vec(rank)
                .iter()
                .zip(&shape.dims)
                .all(|(&b, &s)| s % b == 0)
    }

    /// `scheme` when its blocks fit `shape`, else the same values and scale dtype with one
    /// scale per tensor (what a result of another shape is requantized with).
    pub fn fitted(shape: &Shape, scheme: &QuantScheme) -> QuantScheme {
        if Self::fits(shape, scheme) {
            *scheme
        } else {
            scheme.per_tensor(scheme.scale_dtype())
        }
    }

    /// The number of scales.
    pub fn num_scales(&self) -> usize {
        self.grid.iter().product()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::quantization::{QuantValue, ScaleDtype};

    #[test]
    fn per_tensor_reduces_every_axis() {
        let scheme = QuantScheme::default()
            .with_value(QuantValue::Q8S)
            .per_tensor(ScaleDtype::F32);
        let g = BlockGeometry::new("test", &Shape::from([2, 3]), &scheme);
        assert_eq!(g.split, vec![2, 3]);
        assert_eq!(g.inner_axes, vec![0, 1]);
        assert_eq!(g.scales_view, vec![1, 1]);
        assert_eq!(g.grid, vec![1]);
    }

    #[test]
    fn blocks_split_only_the_dims_they_cut() {
        let scheme = QuantScheme::default()
            .with_value(QuantValue::Q8S)
            .per_block([2, 4], ScaleDtype::F32);
        let g = BlockGeometry::new("test", &Shape::from([3, 4, 8]), &scheme);
        assert_eq!(g.split, vec![3, 2, 2, 2, 4]);
        assert_eq!(g.inner_axes, vec![2, 4]);
        assert_eq!(g.scales_view, vec![3, 2, 1, 2, 1]);
        assert_eq!(g.grid, vec![3, 2, 2]);
        assert_eq!(g.num_scales(), 12);
    }

    #[test]
    #[should_panic(expected = "blocks of [1, 32] must divide")]
    fn blocks_that_do_not_divide_are_refused() {
        let scheme = QuantScheme::default().per_block([32], ScaleDtype::F32);
        BlockGeometry::new("quantize", &Shape::from([2, 48]), &scheme);
    }
}
