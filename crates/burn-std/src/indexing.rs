//! Indices that may count from the end: a dim or element index given as any integer type,
//! negative values counting back from the size (`-1` is the last), as Burn's API takes them
//! (`x.sum_dim(-1)`, `softmax(x, -1)`).

use core::fmt::Debug;

/// An index that may be negative: `-1` is the last position.
pub trait AsIndex: Debug + Copy + Sized {
    /// The index as a signed number.
    fn as_index(self) -> isize;

    /// The index resolved against `size` positions, or `None` when it is out of range.
    fn try_index(self, size: usize) -> Option<usize> {
        let index = self.as_index();
        let resolved = if index < 0 {
            index + size as isize
        } else {
            index
        };
        (resolved >= 0 && (resolved as usize) < size).then_some(resolved as usize)
    }

    /// The dim this index names in a tensor of rank `rank`; panics when out of range.
    #[track_caller]
    fn expect_dim_index(self, rank: usize) -> usize {
        self.try_index(rank)
            .unwrap_or_else(|| panic!("dim {self:?} is out of range for a tensor of rank {rank}"))
    }

    /// The element this index names among `size`; panics when out of range.
    #[track_caller]
    fn expect_elem_index(self, size: usize) -> usize {
        self.try_index(size)
            .unwrap_or_else(|| panic!("index {self:?} is out of range for size {size}"))
    }
}

/// A size given as any integer type; negative values are refused.
pub trait AsSize: Debug + Copy + Sized {
    /// The size as a `usize`; panics when negative or too large.
    fn as_size(self) -> usize;
}

impl<T: AsIndex> AsIndex for &T {
    fn as_index(self) -> isize {
        (*self).as_index()
    }
}

impl<T: AsSize> AsSize for &T {
    fn as_size(self) -> usize {
        (*self).as_size()
    }
}

/// Implements both traits for the primitive integers.
macro_rules! integer_indices {
    ($($ty:ty),*) => {$(
        impl AsIndex for $ty {
            #[inline]
            fn as_index(self) -> isize {
                self as isize
            }
        }
        impl AsSize for $ty {
            #[inline]
            fn as_size(self) -> usize {
                usize::try_from(self).unwrap_or_else(|_| {
                    panic!("a size must be a non-negative usize, got {self}_{}", stringify!($ty))
                })
            }
        }
    )*};
}

integer_indices!(usize, isize, i64, u64, i32, u32, i16, u16, i8, u8);

/// `index` wrapped into `0..size` the way Python's `%` wraps it (`-1` is `size - 1`, `size` is
/// `0`); 0 when `size` is 0.
pub fn wrap_index<I: AsIndex>(index: I, size: usize) -> usize {
    if size == 0 {
        return 0;
    }
    index.as_index().rem_euclid(size as isize) as usize
}

/// The row-major position of the element at `indices` in a tensor of dims `shape` (negative
/// indices count from the end of their dim); panics when the ranks differ or an index is out
/// of range.
pub fn ravel_index<I: AsIndex>(indices: &[I], shape: &[usize]) -> usize {
    assert_eq!(
        indices.len(),
        shape.len(),
        "ravel_index: {} indices for a shape of rank {}",
        indices.len(),
        shape.len()
    );
    indices.iter().zip(shape).fold(0, |offset, (index, &size)| {
        offset * size + index.expect_elem_index(size)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_indices_count_from_the_end() {
        assert_eq!((-1).expect_dim_index(3), 2);
        assert_eq!((-3i64).expect_dim_index(3), 0);
        assert_eq!(2usize.expect_dim_index(3), 2);
        assert_eq!((&1u8).expect_dim_index(3), 1);
        assert_eq!(3.try_index(3), None);
        assert_eq!((-4).try_index(3), None);
        assert_eq!(7u32.as_size(), 7);
    }

    #[test]
    #[should_panic(expected = "dim -4 is out of range for a tensor of rank 3")]
    fn an_out_of_range_dim_names_itself_and_the_rank() {
        (-4).expect_dim_index(3);
    }

    #[test]
    #[should_panic(expected = "a size must be a non-negative usize, got -1_i32")]
    fn a_negative_size_is_refused() {
        (-1i32).as_size();
    }

    #[test]
    fn wrapping_and_raveling() {
        assert_eq!(wrap_index(-1, 5), 4);
        assert_eq!(wrap_index(7i64, 5), 2);
        assert_eq!(wrap_index(3, 0), 0);
        assert_eq!(ravel_index(&[1, 2], &[3, 4]), 6);
        assert_eq!(ravel_index(&[-1, -1], &[3, 4]), 11);
    }

    #[test]
    #[should_panic(expected = "ravel_index: 1 indices for a shape of rank 2")]
    fn raveling_needs_one_index_per_dim() {
        ravel_index(&[1], &[3, 4]);
    }
}
