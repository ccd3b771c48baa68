//! Blocks: `BlockSize` (the extent of a block of values sharing one scale), `BlockScale` (a
//! scheme's block level) and `BlockLayout` (which block an element falls in).

use super::{QuantScheme, ScaleDtype};
use core::cmp::Ordering;
use core::fmt;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most dims a [`BlockSize`] holds once leading 1s are dropped.
const MAX_DIMS: usize = 5;

/// The extent of a block, per dim, aligned on the **innermost** dims of the tensor: `[32]` on a
/// 2-D tensor is a block of `1×32` along the last dim, `[2, 16]` one of 2 rows by 16 columns.
///
/// `Copy`, at most five dims of at most 255 each, and canonical: leading 1s are dropped, so
/// `[1, 32] == [32]` (and a block of all 1s is the empty block, one value).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockSize {
    dims: [u8; MAX_DIMS],
    len: u8,
}

impl BlockSize {
    /// The most dims a block has once leading 1s are dropped.
    pub const MAX_DIMS: usize = MAX_DIMS;

    /// The block with these dims (outermost first), canonicalized; panics when a dim is 0 or
    /// more than [`MAX_DIMS`](Self::MAX_DIMS) remain after dropping leading 1s.
    pub fn new(dims: impl AsRef<[u8]>) -> Self {
        Self::checked(dims.as_ref()).unwrap_or_else(|reason| panic!("BlockSize::new: {reason}"))
    }

    fn checked(dims: &[u8]) -> Result<Self, String> {
        if dims.contains(&0) {
            return Err(format!("a block dim is 0 in {dims:?}"));
        }
        let start = dims.iter().position(|&d| d != 1).unwrap_or(dims.len());
        let kept = &dims[start..];
        if kept.len() > MAX_DIMS {
            return Err(format!(
                "{dims:?} has {} dims after its leading 1s, more than {MAX_DIMS}",
                kept.len()
            ));
        }
        let mut stored = [0; MAX_DIMS];
        stored[..kept.len()].copy_from_slice(kept);
        Ok(Self {
            dims: stored,
            len: kept.len() as u8,
        })
    }

    /// The dims, outermost first, without leading 1s.
    pub fn as_slice(&self) -> &[u8] {
        &self.dims[..self.len as usize]
    }

    /// The dims as a vector (see [`as_slice`](Self::as_slice)).
    pub fn to_vec(&self) -> Vec<u8> {
        self.as_slice().to_vec()
    }

    /// The dims for a tensor of rank `N`, leading 1s added; panics when the block has more dims.
    pub fn as_dim<const N: usize>(&self) -> [u8; N] {
        let dims = self.to_dim_vec(N);
        core::array::from_fn(|i| dims[i] as u8)
    }

    /// The dims for a tensor of rank `rank`, leading 1s added; panics when the block has more
    /// dims than `rank`.
    pub fn to_dim_vec(&self, rank: usize) -> Vec<usize> {
        let len = self.len as usize;
        assert!(
            len <= rank,
            "BlockSize::to_dim_vec: block {self} has {len} dims, more than the rank {rank}"
        );
        let mut dims = vec![1; rank];
        for (out, &d) in dims[rank - len..].iter_mut().zip(self.as_slice()) {
            *out = d as usize;
        }
        dims
    }

    /// How many blocks cover each dim of `shape` (rounded up: the last block of a dim may be
    /// partial). This is the shape of the scale grid.
    pub fn num_blocks(&self, shape: &[usize]) -> Vec<usize> {
        self.to_dim_vec(shape.len())
            .iter()
            .zip(shape)
            .map(|(&block, &dim)| dim.div_ceil(block))
            .collect()
    }

    /// Values in one (whole) block.
    pub fn num_elements(&self) -> usize {
        self.as_slice().iter().map(|&d| d as usize).product()
    }
}

impl PartialOrd for BlockSize {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BlockSize {
    /// Fewer dims first, then the dims in order.
    fn cmp(&self, other: &Self) -> Ordering {
        (self.len, self.as_slice()).cmp(&(other.len, other.as_slice()))
    }
}

impl fmt::Debug for BlockSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BlockSize({:?})", self.as_slice())
    }
}

impl fmt::Display for BlockSize {
    /// `[32]`, `[2, 16]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_slice())
    }
}

impl<T: AsRef<[u8]>> From<T> for BlockSize {
    fn from(dims: T) -> Self {
        Self::new(dims)
    }
}

impl Serialize for BlockSize {
    /// A list of dims, e.g. `[2, 16]`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for BlockSize {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let dims = Vec::<u8>::deserialize(deserializer)?;
        Self::checked(&dims).map_err(serde::de::Error::custom)
    }
}

/// A scheme's block level: one scale per block of `size` values, stored as `dtype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BlockScale {
    /// The block of values sharing one scale.
    pub size: BlockSize,
    /// The type the block scales are stored in.
    pub dtype: ScaleDtype,
}

/// Where each element of a tensor falls in its grid of scales (row-major grid, blocks aligned
/// on the innermost dims, partial blocks at the end of a dim).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockLayout {
    dims: Vec<usize>,
    block: Vec<usize>,
    grid: Vec<usize>,
}

impl BlockLayout {
    /// The blocks of `block` over a tensor of `shape`; panics when the block has more dims than
    /// the shape.
    pub fn new(shape: &[usize], block: BlockSize) -> Self {
        let block_dims = block.to_dim_vec(shape.len());
        Self::from_dims(shape, block_dims)
    }

    /// The blocks `scheme` gives a tensor of `shape`: one block spanning the whole tensor when
    /// the scheme is per-tensor.
    pub fn of_scheme(shape: &[usize], scheme: &QuantScheme) -> Self {
        match scheme.block_size() {
            Some(block) => Self::new(shape, block),
            None => Self::from_dims(shape, shape.iter().map(|&d| d.max(1)).collect()),
        }
    }

    fn from_dims(shape: &[usize], block: Vec<usize>) -> Self {
        let grid = shape
            .iter()
            .zip(&block)
            .map(|(&dim, &b)| dim.div_ceil(b))
            .collect();
        Self {
            dims: shape.to_vec(),
            block,
            grid,
        }
    }

    /// The shape of the scale grid (blocks per dim).
    pub fn grid(&self) -> &[usize] {
        &self.grid
    }

    /// The number of blocks, hence of scales.
    pub fn num_blocks(&self) -> usize {
        self.grid.iter().product()
    }

    /// Whether every dim is a whole number of blocks (no partial block).
    pub fn divides(&self) -> bool {
        self.dims.iter().zip(&self.block).all(|(&d, &b)| d % b == 0)
    }

    /// The row-major index in the scale grid of the block holding the element at row-major
    /// `flat_index`; panics when the index is outside the tensor.
    pub fn block_of(&self, flat_index: usize) -> usize {
        let num_elements: usize = self.dims.iter().product();
        assert!(
            flat_index < num_elements,
            "BlockLayout::block_of: index {flat_index} outside shape {:?}",
            self.dims
        );
        let mut rest = flat_index;
        let (mut block, mut grid_stride) = (0, 1);
        for d in (0..self.dims.len()).rev() {
            let index = rest % self.dims[d];
            rest /= self.dims[d];
            block += index / self.block[d] * grid_stride;
            grid_stride *= self.grid[d];
        }
        block
    }
}

/// The row-major index of the block of `block_size` holding the element at row-major
/// `flat_index` of a tensor of `shape` (see [`BlockLayout::block_of`]).
pub fn block_index(shape: &[usize], block_size: BlockSize, flat_index: usize) -> usize {
    BlockLayout::new(shape, block_size).block_of(flat_index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes_are_canonical() {
        assert_eq!(BlockSize::new([1, 32]), BlockSize::new([32]));
        assert_eq!(BlockSize::new([1, 1, 8, 4, 2, 3]).as_slice(), [8, 4, 2, 3]);
        assert_eq!(BlockSize::new([1, 1]), BlockSize::new([] as [u8; 0]));
        assert_ne!(BlockSize::new([32]), BlockSize::new([32, 32]));
        assert_eq!(BlockSize::new([32, 1]).as_slice(), [32, 1]);
        assert_eq!(BlockSize::from(&[2u8, 16][..]).to_vec(), vec![2, 16]);
        assert_eq!(BlockSize::new([2, 16]).num_elements(), 32);
        assert_eq!(BlockSize::new([2, 16]).to_string(), "[2, 16]");
        assert!(BlockSize::new([64]) < BlockSize::new([2, 16]));
    }

    #[test]
    fn block_sizes_pad_to_a_rank() {
        assert_eq!(BlockSize::new([32]).to_dim_vec(3), vec![1, 1, 32]);
        assert_eq!(BlockSize::new([2, 16]).as_dim::<2>(), [2, 16]);
        assert_eq!(BlockSize::new([32]).as_dim::<2>(), [1, 32]);
    }

    #[test]
    #[should_panic(
        expected = "BlockSize::to_dim_vec: block [2, 16] has 2 dims, more than the rank 1"
    )]
    fn a_block_needs_a_rank_that_holds_it() {
        BlockSize::new([2, 16]).to_dim_vec(1);
    }

    #[test]
    #[should_panic(expected = "BlockSize::new")]
    fn too_many_dims_are_refused() {
        BlockSize::new([2, 2, 2, 2, 2, 2]);
    }

    #[test]
    fn num_blocks_rounds_up() {
        assert_eq!(BlockSize::new([32]).num_blocks(&[8, 64]), vec![8, 2]);
        assert_eq!(BlockSize::new([4, 32]).num_blocks(&[8, 64]), vec![2, 2]);
        assert_eq!(BlockSize::new([32]).num_blocks(&[8, 70]), vec![8, 3]);
        assert_eq!(BlockSize::new([32]).num_blocks(&[4, 8, 64]), vec![4, 8, 2]);
    }

    #[test]
    fn block_index_is_row_major_in_the_grid() {
        // A [3, 5] tensor in blocks of [2, 2]: grid [2, 3], last row and column partial.
        let layout = BlockLayout::new(&[3, 5], BlockSize::new([2, 2]));
        assert_eq!(layout.grid(), [2, 3]);
        assert!(!layout.divides());
        let blocks: Vec<usize> = (0..15).map(|i| layout.block_of(i)).collect();
        assert_eq!(blocks, [0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 5]);
        assert_eq!(block_index(&[4, 8], BlockSize::new([4]), 13), 3);
        let whole = BlockLayout::of_scheme(&[3, 5], &QuantScheme::default());
        assert_eq!((whole.num_blocks(), whole.block_of(14)), (1, 0));
        assert!(whole.divides());
    }

    #[test]
    fn serde_as_a_list() {
        let block = BlockSize::new([1, 2, 16]);
        let json = serde_json::to_string(&block).unwrap();
        assert_eq!(json, "[2,16]");
        assert_eq!(serde_json::from_str::<BlockSize>(&json).unwrap(), block);
        assert!(serde_json::from_str::<BlockSize>("[0]").is_err());
    }
}
