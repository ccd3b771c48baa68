//! `QuantScheme`: what a quantized tensor's values are, how they are stored, and at what level
//! its scales apply.

use super::{BlockScale, BlockSize, QuantMode, QuantStore, QuantValue, ScaleDtype};
use core::fmt;
use serde::{Deserialize, Serialize};

/// How a tensor is quantized: the value type, the store, the mode and the scale level.
///
/// A scheme has **one level** of scales here: [`per_tensor`](Self::per_tensor) (one scale) or
/// [`per_block`](Self::per_block) (one scale per block); each builder replaces the other. A
/// scheme with no level reads as per-tensor f32 (see [`tensor_scale`](Self::tensor_scale)) but
/// compares unequal to an explicit `per_tensor(F32)`. Two-level schemes (block scales relative
/// to one global scale) are representable, e.g. when deserialized, but nothing here encodes them.
///
/// ```
/// use burn_std::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
///
/// let scheme = QuantScheme::default()
///     .with_value(QuantValue::Q4S)
///     .with_store(QuantStore::PackedU32(0))
///     .per_block([32], ScaleDtype::F16);
/// assert_eq!(scheme.num_quants(), 8);
/// assert_eq!(scheme.to_string(), "q4s/block[32]:f16");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct QuantScheme {
    /// The type of one quantized value.
    pub value: QuantValue,
    /// How the values are laid out.
    pub store: QuantStore,
    /// How codes map back to floats.
    pub mode: QuantMode,
    /// The per-tensor level, if set.
    tensor: Option<ScaleDtype>,
    /// The per-block level, if set.
    block: Option<BlockScale>,
}

impl Default for QuantScheme {
    /// `Q8F` values packed in `u32` words along the last dim, symmetric, no level (so one f32
    /// scale per tensor).
    fn default() -> Self {
        Self {
            value: QuantValue::Q8F,
            store: QuantStore::PackedU32(0),
            mode: QuantMode::Symmetric,
            tensor: None,
            block: None,
        }
    }
}

impl QuantScheme {
    /// The scheme with another value type.
    pub fn with_value(mut self, value: QuantValue) -> Self {
        self.value = value;
        self
    }

    /// The scheme with another store.
    pub fn with_store(mut self, store: QuantStore) -> Self {
        self.store = store;
        self
    }

    /// The scheme with another mode.
    pub fn with_mode(mut self, mode: QuantMode) -> Self {
        self.mode = mode;
        self
    }

    /// The scheme with one scale for the whole tensor, stored as `dtype` (drops a block level).
    pub fn per_tensor(mut self, dtype: ScaleDtype) -> Self {
        self.tensor = Some(dtype);
        self.block = None;
        self
    }

    /// The scheme with one scale per block of `block` values, stored as `dtype` (drops a
    /// tensor level). The block is aligned on the innermost dims (see [`BlockSize`]).
    pub fn per_block(mut self, block: impl AsRef<[u8]>, dtype: ScaleDtype) -> Self {
        self.block = Some(BlockScale {
            size: BlockSize::new(block),
            dtype,
        });
        self.tensor = None;
        self
    }

    /// The per-tensor level: its dtype when set, `F32` when the scheme has no level at all,
    /// `None` when it has only a block level.
    pub fn tensor_scale(&self) -> Option<ScaleDtype> {
        match (self.tensor, self.block) {
            (None, None) => Some(ScaleDtype::F32),
            (tensor, _) => tensor,
        }
    }

    /// The per-block level, if any.
    pub fn block_scale(&self) -> Option<BlockScale> {
        self.block
    }

    /// The block size of the per-block level, if any.
    pub fn block_size(&self) -> Option<BlockSize> {
        self.block.map(|block| block.size)
    }

    /// The dtype of the innermost level's scales (the ones stored one per block or per tensor).
    pub fn scale_dtype(&self) -> ScaleDtype {
        self.block
            .map(|block| block.dtype)
            .or(self.tensor)
            .unwrap_or(ScaleDtype::F32)
    }

    /// The number of scale levels (1, or 2 for a two-level scheme).
    pub fn num_levels(&self) -> usize {
        self.block.is_some() as usize + self.tensor_scale().is_some() as usize
    }

    /// Bits of one stored element (32 for `PackedU32`).
    pub fn size_bits_stored(&self) -> usize {
        self.store.size_bits(&self.value)
    }

    /// Bits of one value.
    pub fn size_bits_value(&self) -> usize {
        self.value.size_bits()
    }

    /// Values per stored element: `32 / bits` for `PackedU32`, 1 for `Native`.
    pub fn num_quants(&self) -> usize {
        self.size_bits_stored() / self.size_bits_value()
    }

    /// Values the device's native type for the value holds together (see
    /// [`QuantValue::native_packing`]).
    pub fn native_packing(&self) -> usize {
        self.value.native_packing()
    }

    /// The packed axis counted from the innermost, or `None` for `Native`.
    pub fn packing_dim(&self) -> Option<usize> {
        self.store.packing_dim()
    }

    /// Whether this implementation can quantize, store and read the scheme: `Symmetric`, an
    /// integer value (`Q8S`, `Q8F`, `Q4S`, `Q4F`, `Q2S`, `Q2F`), a `Native` or `PackedU32` store,
    /// scales in `F32`, `F16` or `BF16`, one level.
    pub fn is_supported(&self) -> bool {
        self.unsupported_reason().is_none()
    }

    /// Why [`is_supported`](Self::is_supported) is false, for error messages.
    pub fn unsupported_reason(&self) -> Option<String> {
        let QuantMode::Symmetric = self.mode;
        if self.value.is_float() {
            return Some(format!("float codes ({}) are not implemented", self.value));
        }
        if let QuantStore::PackedNative(_) = self.store {
            return Some(format!("the store {} is not implemented", self.store));
        }
        if !matches!(
            self.scale_dtype(),
            ScaleDtype::F32 | ScaleDtype::F16 | ScaleDtype::BF16
        ) {
            return Some(format!("{} scales are not implemented", self.scale_dtype()));
        }
        if self.num_levels() > 1 {
            return Some("two-level schemes are not implemented".to_string());
        }
        None
    }

    /// The scheme after `swap_dims(d0, d1)` of a tensor of rank `rank`: the block level and
    /// the packed axis follow the swapped dims.
    pub fn swap_dims(self, rank: usize, d0: usize, d1: usize) -> Self {
        self.permute_dims(&swapped_axes(rank, d0, d1))
    }

    /// The scheme after `permute(axes)` (output dim `i` is input dim `axes[i]`): the block level
    /// and the packed axis follow. Panics when the block needs more than
    /// [`BlockSize::MAX_DIMS`] dims once permuted.
    pub fn permute_dims(self, axes: &[usize]) -> Self {
        self.permute_block_dims(axes.len(), axes)
            .permute_packing_dim(axes)
    }

    /// [`swap_dims`](Self::swap_dims) for the block level only.
    pub fn swap_block_dims(self, rank: usize, d0: usize, d1: usize) -> Self {
        self.permute_block_dims(rank, &swapped_axes(rank, d0, d1))
    }

    /// [`permute_dims`](Self::permute_dims) for the block level only; `axes` has `rank`
    /// entries.
    pub fn permute_block_dims(mut self, rank: usize, axes: &[usize]) -> Self {
        assert_eq!(
            axes.len(),
            rank,
            "QuantScheme::permute_block_dims: {axes:?} does not permute {rank} dims"
        );
        if let Some(block) = &mut self.block {
            let dims = block.size.to_dim_vec(rank);
            let permuted: Vec<u8> = axes.iter().map(|&axis| dims[axis] as u8).collect();
            block.size = BlockSize::new(permuted);
        }
        self
    }

    /// [`swap_dims`](Self::swap_dims) for the packed axis only.
    pub fn swap_packing_dim(self, rank: usize, d0: usize, d1: usize) -> Self {
        self.permute_packing_dim(&swapped_axes(rank, d0, d1))
    }

    /// [`permute_dims`](Self::permute_dims) for the packed axis only.
    pub fn permute_packing_dim(mut self, axes: &[usize]) -> Self {
        if let QuantStore::PackedU32(dim) | QuantStore::PackedNative(dim) = &mut self.store {
            let rank = axes.len();
            let axis = rank.checked_sub(*dim + 1).unwrap_or_else(|| {
                panic!("QuantScheme::permute_dims: packed dim {dim} is outside rank {rank}")
            });
            let new_axis = axes.iter().position(|&a| a == axis).unwrap_or_else(|| {
                panic!("QuantScheme::permute_dims: {axes:?} does not hold the packed axis {axis}")
            });
            *dim = rank - 1 - new_axis;
        }
        self
    }

    /// The scheme after a reshape to rank `rank`: a packed dim the new rank lacks becomes 0
    /// (the innermost). The block level is rank-relative and stays as is.
    pub fn reshape_packing_dim(mut self, rank: usize) -> Self {
        if let QuantStore::PackedU32(dim) | QuantStore::PackedNative(dim) = &mut self.store
            && *dim >= rank.max(1)
        {
            *dim = 0;
        }
        self
    }
}

/// `0..rank` with `d0` and `d1` swapped.
fn swapped_axes(rank: usize, d0: usize, d1: usize) -> Vec<usize> {
    assert!(
        d0 < rank && d1 < rank,
        "QuantScheme::swap_dims: dims {d0} and {d1} are not both below the rank {rank}"
    );
    let mut axes: Vec<usize> = (0..rank).collect();
    axes.swap(d0, d1);
    axes
}

impl fmt::Display for QuantScheme {
    /// `{value}/{level}`, then `:{scale dtype}` unless f32, then `@{store}` unless
    /// `PackedU32(0)`: `q8s/tensor`, `q4s/block[32]`, `q4s/block[2, 16]:f16@native`; a
    /// two-level scheme reads `q4s/block[16]:ue4m3+tensor`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/", self.value)?;
        match self.block {
            Some(block) => write!(f, "block{}", block.size)?,
            None => f.write_str("tensor")?,
        }
        if self.scale_dtype() != ScaleDtype::F32 {
            write!(f, ":{}", self.scale_dtype())?;
        }
        if self.block.is_some() && self.tensor.is_some() {
            f.write_str("+tensor")?;
        }
        if self.store != QuantStore::PackedU32(0) {
            write!(f, "@{}", self.store)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    #[test]
    fn default_is_q8f_packed_per_tensor_f32() {
        let scheme = QuantScheme::default();
        assert_eq!(scheme.value, QuantValue::Q8F);
        assert_eq!(scheme.store, QuantStore::PackedU32(0));
        assert_eq!(scheme.mode, QuantMode::Symmetric);
        assert_eq!(scheme.tensor_scale(), Some(ScaleDtype::F32));
        assert_eq!((scheme.block_scale(), scheme.block_size()), (None, None));
        assert_eq!(scheme.scale_dtype(), ScaleDtype::F32);
        assert_eq!(scheme.num_levels(), 1);
        assert_eq!((scheme.num_quants(), scheme.size_bits_stored()), (4, 32));
        assert_eq!(scheme.packing_dim(), Some(0));
        assert!(scheme.is_supported());
        assert_ne!(scheme, scheme.per_tensor(ScaleDtype::F32));
    }

    #[test]
    fn builders_set_one_level() {
        let block = QuantScheme::default()
            .with_value(QuantValue::Q4S)
            .with_store(QuantStore::Native)
            .with_mode(QuantMode::Symmetric)
            .per_block([1, 32], ScaleDtype::F16);
        assert_eq!(block.tensor_scale(), None);
        assert_eq!(block.block_size(), Some(BlockSize::new([32])));
        assert_eq!(block.scale_dtype(), ScaleDtype::F16);
        assert_eq!((block.num_levels(), block.num_quants()), (1, 1));
        assert_eq!(block.size_bits_value(), 4);
        assert_eq!(block.packing_dim(), None);

        let tensor = block.per_tensor(ScaleDtype::BF16);
        assert_eq!(tensor.tensor_scale(), Some(ScaleDtype::BF16));
        assert_eq!(tensor.block_scale(), None);
        assert_eq!(tensor.per_block([32], ScaleDtype::F16), block);
        assert_eq!(
            QuantScheme::default()
                .with_value(QuantValue::Q2S)
                .num_quants(),
            16
        );
    }

    #[test]
    fn support_is_symmetric_integer_one_level() {
        let q = QuantScheme::default();
        assert!(
            q.with_value(QuantValue::Q4S)
                .with_store(QuantStore::Native)
                .is_supported()
        );
        assert!(q.per_block([16], ScaleDtype::BF16).is_supported());
        assert!(!q.with_value(QuantValue::E4M3).is_supported());
        assert!(!q.with_store(QuantStore::PackedNative(0)).is_supported());
        assert!(!q.per_block([16], ScaleDtype::UE8M0).is_supported());
        let two_level: QuantScheme = serde_json::from_str(
            r#"{"value":"Q4S","store":{"PackedU32":0},"mode":"Symmetric",
                "tensor":"F32","block":{"size":[16],"dtype":"F16"}}"#,
        )
        .unwrap();
        assert_eq!(two_level.num_levels(), 2);
        assert_eq!(two_level.scale_dtype(), ScaleDtype::F16);
        assert!(
            two_level
                .unsupported_reason()
                .unwrap()
                .contains("two-level")
        );
        assert_eq!(two_level.to_string(), "q4s/block[16]:f16+tensor");
    }

    #[test]
    fn swap_and_permute_move_the_block_and_the_packed_axis() {
        let scheme = QuantScheme::default()
            .with_store(QuantStore::PackedU32(0))
            .per_block([4, 32], ScaleDtype::F32);
        let swapped = scheme.swap_dims(2, 0, 1);
        assert_eq!(swapped.block_size(), Some(BlockSize::new([32, 4])));
        assert_eq!(swapped.packing_dim(), Some(1));
        assert_eq!(swapped.swap_dims(2, 1, 0), scheme);

        // [32] on rank 3 is [1, 1, 32]; permute [2, 0, 1] gives [32, 1, 1].
        let permuted = QuantScheme::default()
            .per_block([32], ScaleDtype::F32)
            .permute_dims(&[2, 0, 1]);
        assert_eq!(permuted.block_size(), Some(BlockSize::new([32, 1, 1])));
        assert_eq!(permuted.packing_dim(), Some(2));
        // Back: the packed axis returns innermost and the block canonicalizes to [32].
        let back = permuted.permute_dims(&[1, 2, 0]);
        assert_eq!(
            back,
            QuantScheme::default().per_block([32], ScaleDtype::F32)
        );

        // Per-tensor: only the packed axis moves; swapping two outer dims moves nothing.
        let tensor = QuantScheme::default().with_store(QuantStore::PackedU32(1));
        assert_eq!(tensor.swap_dims(3, 0, 2).packing_dim(), Some(1));
        assert_eq!(tensor.swap_dims(3, 1, 2).packing_dim(), Some(0));
        assert_eq!(tensor.swap_block_dims(3, 1, 2), tensor);
        assert_eq!(tensor.swap_packing_dim(3, 0, 1).packing_dim(), Some(2));
    }

    #[test]
    fn reshape_resets_a_packed_dim_the_rank_lacks() {
        let scheme = QuantScheme::default().with_store(QuantStore::PackedU32(2));
        assert_eq!(scheme.reshape_packing_dim(3).packing_dim(), Some(2));
        assert_eq!(scheme.reshape_packing_dim(2).packing_dim(), Some(0));
        assert_eq!(scheme.reshape_packing_dim(0).packing_dim(), Some(0));
        let native = QuantScheme::default().with_store(QuantStore::Native);
        assert_eq!(native.reshape_packing_dim(1), native);
    }

    #[test]
    fn display_names_value_level_dtype_and_store() {
        let q8s = QuantScheme::default().with_value(QuantValue::Q8S);
        assert_eq!(q8s.to_string(), "q8s/tensor");
        assert_eq!(
            q8s.with_value(QuantValue::Q4S)
                .per_block([32], ScaleDtype::F32)
                .to_string(),
            "q4s/block[32]"
        );
        assert_eq!(
            q8s.with_store(QuantStore::Native)
                .per_block([2, 16], ScaleDtype::F16)
                .to_string(),
            "q8s/block[2, 16]:f16@native"
        );
    }

    #[test]
    fn serde_round_trips_a_qfloat_dtype() {
        for scheme in [
            QuantScheme::default(),
            QuantScheme::default()
                .with_value(QuantValue::Q4S)
                .with_store(QuantStore::PackedU32(1))
                .per_block([2, 16], ScaleDtype::BF16),
            QuantScheme::default()
                .with_store(QuantStore::Native)
                .per_tensor(ScaleDtype::F16),
        ] {
            let dtype = DType::QFloat(scheme);
            let json = serde_json::to_string(&dtype).unwrap();
            assert_eq!(
                serde_json::from_str::<DType>(&json).unwrap(),
                dtype,
                "{json}"
            );
        }
    }

    #[test]
    fn qfloat_element_size_follows_the_store() {
        let scheme = QuantScheme::default();
        assert_eq!(DType::QFloat(scheme).size(), 4);
        assert_eq!(
            DType::QFloat(scheme.with_store(QuantStore::Native)).size(),
            1
        );
    }
}
