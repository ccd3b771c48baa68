//! `Slice`: one dimension of a slicing expression, with Python-like negative indices and steps.

use core::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

/// A range over one dimension: `start..end` by `step`. Negative `start`/`end` count from the
/// end of the dimension; a negative `step` walks the range backwards (last element first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Slice {
    /// First index (inclusive); negative counts from the end.
    pub start: isize,
    /// One past the last index; `None` means the end of the dimension.
    pub end: Option<isize>,
    /// Distance between taken indices; never 0.
    pub step: isize,
}

impl Slice {
    /// A slice `start..end` by `step`.
    pub const fn new(start: isize, end: Option<isize>, step: isize) -> Self {
        Self { start, end, step }
    }

    /// The whole dimension.
    pub const fn full() -> Self {
        Self::new(0, None, 1)
    }

    /// Only index `index` (negative counts from the end).
    pub const fn index(index: isize) -> Self {
        let end = if index == -1 { None } else { Some(index + 1) };
        Self::new(index, end, 1)
    }

    /// Returns this slice with another step.
    pub const fn with_step(self, step: isize) -> Self {
        Self::new(self.start, self.end, step)
    }

    /// The concrete `start..end` range (clamped to `0..size`) this slice covers in a dimension of
    /// `size` elements, before applying the step.
    pub fn to_range(&self, size: usize) -> Range<usize> {
        let resolve = |i: isize| -> usize {
            if i < 0 {
                (size as isize + i).max(0) as usize
            } else {
                (i as usize).min(size)
            }
        };
        let start = resolve(self.start);
        let end = self.end.map(resolve).unwrap_or(size).max(start);
        start..end
    }

    /// The number of elements taken from a dimension of `size` elements.
    pub fn output_size(&self, size: usize) -> usize {
        let len = self.to_range(size).len();
        len.div_ceil(self.step.unsigned_abs())
    }
}

/// Anything that converts into a [`Slice`]: ranges of any integer type, `..`, and single indices.
pub trait SliceArg {
    /// The slice this value stands for.
    fn into_slice(self) -> Slice;
}

impl SliceArg for Slice {
    fn into_slice(self) -> Slice {
        self
    }
}

impl SliceArg for RangeFull {
    fn into_slice(self) -> Slice {
        Slice::full()
    }
}

impl From<RangeFull> for Slice {
    fn from(_: RangeFull) -> Self {
        Slice::full()
    }
}

macro_rules! slice_arg_for_int {
    ($($ty:ty),*) => {$(
        impl SliceArg for $ty {
            fn into_slice(self) -> Slice {
                Slice::index(self as isize)
            }
        }
        impl SliceArg for Range<$ty> {
            fn into_slice(self) -> Slice {
                Slice::new(self.start as isize, Some(self.end as isize), 1)
            }
        }
        impl From<$ty> for Slice {
            fn from(index: $ty) -> Self {
                index.into_slice()
            }
        }
        impl From<Range<$ty>> for Slice {
            fn from(range: Range<$ty>) -> Self {
                range.into_slice()
            }
        }
        impl From<RangeInclusive<$ty>> for Slice {
            fn from(range: RangeInclusive<$ty>) -> Self {
                range.into_slice()
            }
        }
        impl From<RangeFrom<$ty>> for Slice {
            fn from(range: RangeFrom<$ty>) -> Self {
                range.into_slice()
            }
        }
        impl From<RangeTo<$ty>> for Slice {
            fn from(range: RangeTo<$ty>) -> Self {
                range.into_slice()
            }
        }
        impl From<RangeToInclusive<$ty>> for Slice {
            fn from(range: RangeToInclusive<$ty>) -> Self {
                range.into_slice()
            }
        }
        impl SliceArg for RangeInclusive<$ty> {
            fn into_slice(self) -> Slice {
                let end = *self.end() as isize;
                Slice::new(*self.start() as isize, if end == -1 { None } else { Some(end + 1) }, 1)
            }
        }
        impl SliceArg for RangeFrom<$ty> {
            fn into_slice(self) -> Slice {
                Slice::new(self.start as isize, None, 1)
            }
        }
        impl SliceArg for RangeTo<$ty> {
            fn into_slice(self) -> Slice {
                Slice::new(0, Some(self.end as isize), 1)
            }
        }
        impl SliceArg for RangeToInclusive<$ty> {
            fn into_slice(self) -> Slice {
                let end = self.end as isize;
                Slice::new(0, if end == -1 { None } else { Some(end + 1) }, 1)
            }
        }
    )*};
}

slice_arg_for_int!(usize, isize, i64, i32, u32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::reversed_empty_ranges)] // `1..-1` is a slice expression, not an iteration
    fn negative_indices_count_from_the_end() {
        assert_eq!((-2..).into_slice().to_range(5), 3..5);
        assert_eq!((1..-1).into_slice().to_range(5), 1..4);
        assert_eq!(Slice::index(-1).to_range(5), 4..5);
        assert_eq!(Slice::new(0, None, 2).output_size(5), 3);
        assert_eq!(Slice::new(0, None, -2).output_size(4), 2);
    }
}
