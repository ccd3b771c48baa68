//! [`MetadataError`]: why shapes do not fit an operation, and [`calculate_matmul_output`].

use crate::Shape;

/// Why a shape computation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetadataError {
    /// The operands have different ranks.
    RankMismatch {
        /// The left operand's rank.
        left: usize,
        /// The right operand's rank.
        right: usize,
    },
    /// A pair of sizes can neither be equal nor broadcast.
    IncompatibleDims {
        /// The left operand's size.
        left: usize,
        /// The right operand's size.
        right: usize,
        /// The dim where they meet.
        dim: usize,
    },
    /// A dim past the rank.
    OutOfBounds {
        /// The dim asked for.
        dim: usize,
        /// The rank.
        rank: usize,
    },
    /// The shapes do not fit the operation.
    IncompatibleShapes {
        /// The left operand's shape.
        left: Shape,
        /// The right operand's shape.
        right: Shape,
    },
    /// Any other reason.
    Invalid {
        /// What is wrong.
        reason: String,
    },
}

impl core::fmt::Display for MetadataError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::RankMismatch { left, right } => write!(f, "ranks {left} and {right} differ"),
            Self::IncompatibleDims { left, right, dim } => {
                write!(f, "sizes {left} and {right} of dim {dim} do not broadcast")
            }
            Self::OutOfBounds { dim, rank } => {
                write!(f, "dim {dim} is out of range for rank {rank}")
            }
            Self::IncompatibleShapes { left, right } => {
                write!(f, "shapes {left:?} and {right:?} are incompatible")
            }
            Self::Invalid { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for MetadataError {}

/// The shape of `lhs.matmul(rhs)`: the leading (batch) dims broadcast, then `[m, n]` of
/// `[.., m, k] × [.., k, n]`. Both shapes need the same rank, at least 2.
pub fn calculate_matmul_output(lhs: &Shape, rhs: &Shape) -> Result<Shape, MetadataError> {
    let rank = lhs.rank();
    if rank != rhs.rank() {
        return Err(MetadataError::RankMismatch {
            left: rank,
            right: rhs.rank(),
        });
    }
    if rank < 2 {
        return Err(MetadataError::Invalid {
            reason: format!("matmul needs operands of rank 2 or more, got rank {rank}"),
        });
    }
    if lhs[rank - 1] != rhs[rank - 2] {
        return Err(MetadataError::IncompatibleShapes {
            left: lhs.clone(),
            right: rhs.clone(),
        });
    }
    let mut out = Shape::from(&lhs[..rank - 2]).try_broadcast(&Shape::from(&rhs[..rank - 2]))?;
    out.push(lhs[rank - 2]);
    out.push(rhs[rank - 1]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_output_broadcasts_the_batch_dims() {
        let out = calculate_matmul_output(&Shape::new([4, 1, 2, 3]), &Shape::new([1, 5, 3, 7]));
        assert_eq!(out, Ok(Shape::new([4, 5, 2, 7])));
        assert_eq!(
            calculate_matmul_output(&Shape::new([2, 3]), &Shape::new([3, 2])),
            Ok(Shape::new([2, 2]))
        );
    }

    #[test]
    fn matmul_output_names_what_does_not_fit() {
        let err = calculate_matmul_output(&Shape::new([2, 3]), &Shape::new([4, 2]));
        assert!(matches!(err, Err(MetadataError::IncompatibleShapes { .. })));
        let err = calculate_matmul_output(&Shape::new([2, 2, 3]), &Shape::new([3, 3, 2]));
        assert_eq!(
            err,
            Err(MetadataError::IncompatibleDims {
                left: 2,
                right: 3,
                dim: 0
            })
        );
        let err = calculate_matmul_output(&Shape::new([2, 3]), &Shape::new([1, 3, 2]));
        assert_eq!(err, Err(MetadataError::RankMismatch { left: 2, right: 3 }));
    }
}
