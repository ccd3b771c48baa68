//! Slicing expressions: [`Slice`], one dimension's range with Python-like negative indices and
//! steps; [`SliceArg`], a whole expression (one slice per leading dim) as `Tensor::slice` takes
//! it; [`ExpressionError`], why a slice written as text (`"1..-1;2"`) does not parse.

use core::fmt::{Display, Formatter};
use core::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use core::str::FromStr;

use crate::{AsIndex, Shape};

/// A range over one dimension: `start..end` by `step`. Negative `start`/`end` count from the
/// end of the dimension; a negative `step` walks the range backwards (last element first).
/// Usually built by the [`s!`](https://docs.rs/burn/latest/burn/tensor/macro.s.html) macro or
/// converted from a range (`1..3`, `..-1`, `2..=4`, `..`) or an index (`-1`).
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
    /// A slice `start..end` by `step`; panics when `step` is 0.
    pub const fn new(start: isize, end: Option<isize>, step: isize) -> Self {
        assert!(step != 0, "Slice::new: the step must not be 0");
        Self { start, end, step }
    }

    /// The whole dimension.
    pub const fn full() -> Self {
        Self::new(0, None, 1)
    }

    /// Only index `index` (negative counts from the end).
    pub fn index(index: isize) -> Self {
        Self::new(index, inclusive_end(index), 1)
    }

    /// A slice `start..end` by `step` (the same as [`Slice::new`]).
    pub fn with_step(start: isize, end: Option<isize>, step: isize) -> Self {
        Self::new(start, end, step)
    }

    /// The slice `range` stands for, taken by `step`: `from_range_stepped(..,  -1)` reverses.
    pub fn from_range_stepped<R: Into<Slice>>(range: R, step: isize) -> Self {
        let range = range.into();
        Self::new(range.start, range.end, step)
    }

    /// The distance between taken indices.
    pub fn step(&self) -> isize {
        self.step
    }

    /// Whether the slice walks its range backwards (a negative step).
    pub fn is_reversed(&self) -> bool {
        self.step < 0
    }

    /// The concrete `start..end` range (clamped to `0..size`, never `start > end`) this slice
    /// covers in a dimension of `size` elements, before applying the step.
    pub fn to_range(&self, size: usize) -> Range<usize> {
        let start = resolve(self.start, size);
        let end = self.end.map_or(size, |end| resolve(end, size)).max(start);
        start..end
    }

    /// The same as [`Slice::to_range`].
    pub fn range(&self, size: usize) -> Range<usize> {
        self.to_range(size)
    }

    /// [`Slice::to_range`] with the step beside it.
    pub fn to_range_and_step(&self, size: usize) -> (Range<usize>, isize) {
        (self.to_range(size), self.step)
    }

    /// The number of elements taken from a dimension of `size` elements.
    pub fn output_size(&self, size: usize) -> usize {
        self.to_range(size).len().div_ceil(self.step.unsigned_abs())
    }

    /// The slice with an explicit end for a dimension of `size` elements: an open end becomes
    /// `size` (or `-(size + 1)` walking backwards), an end past the dimension is cut to it.
    pub fn bound_to(self, size: usize) -> Self {
        let size = size as isize;
        let end = match self.end {
            Some(end) if end > 0 => end.min(size),
            Some(end) => end.max(-(size + 1)),
            None if self.is_reversed() => -(size + 1),
            None => size,
        };
        Self {
            end: Some(end),
            ..self
        }
    }

    /// The indices the slice names, in order, as written (negative ones stay negative); panics
    /// for an open end, which has no last index without a size.
    pub fn into_vec(self) -> Vec<isize> {
        assert!(
            self.end.is_some(),
            "Slice::into_vec: the slice {self} has an open end; bound it first (Slice::bound_to)"
        );
        self.into_iter().collect()
    }
}

impl Default for Slice {
    /// The whole dimension.
    fn default() -> Self {
        Self::full()
    }
}

/// The end that makes a slice end just after `index` (`-1`: the end of the dimension).
fn inclusive_end(index: isize) -> Option<isize> {
    (index != -1).then_some(index + 1)
}

/// `index` resolved against `size` (negative counts from the end), clamped to `0..=size`.
fn resolve(index: isize, size: usize) -> usize {
    if index < 0 {
        (size as isize + index).max(0) as usize
    } else {
        (index as usize).min(size)
    }
}

/// The indices a [`Slice`] names, as written (`Slice::into_iter`); endless when the end is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SliceIter {
    slice: Slice,
    current: isize,
}

impl Iterator for SliceIter {
    type Item = isize;

    fn next(&mut self) -> Option<isize> {
        let next = self.current;
        let done = match self.slice.end {
            Some(end) if self.slice.is_reversed() => next <= end,
            Some(end) => next >= end,
            None => false,
        };
        if done {
            return None;
        }
        self.current += self.slice.step;
        Some(next)
    }
}

impl IntoIterator for Slice {
    type Item = isize;
    type IntoIter = SliceIter;

    fn into_iter(self) -> SliceIter {
        SliceIter {
            slice: self,
            current: self.start,
        }
    }
}

impl<I: AsIndex> From<Range<I>> for Slice {
    fn from(range: Range<I>) -> Self {
        Self::new(range.start.as_index(), Some(range.end.as_index()), 1)
    }
}

impl<I: AsIndex> From<RangeInclusive<I>> for Slice {
    fn from(range: RangeInclusive<I>) -> Self {
        Self::new(
            range.start().as_index(),
            inclusive_end(range.end().as_index()),
            1,
        )
    }
}

impl<I: AsIndex> From<RangeFrom<I>> for Slice {
    fn from(range: RangeFrom<I>) -> Self {
        Self::new(range.start.as_index(), None, 1)
    }
}

impl<I: AsIndex> From<RangeTo<I>> for Slice {
    fn from(range: RangeTo<I>) -> Self {
        Self::new(0, Some(range.end.as_index()), 1)
    }
}

impl<I: AsIndex> From<RangeToInclusive<I>> for Slice {
    fn from(range: RangeToInclusive<I>) -> Self {
        Self::new(0, inclusive_end(range.end.as_index()), 1)
    }
}

impl From<RangeFull> for Slice {
    fn from(_: RangeFull) -> Self {
        Self::full()
    }
}

/// A single index (negative counts from the end) converts into the slice of that index.
macro_rules! slice_from_index {
    ($($ty:ty),*) => {$(
        impl From<$ty> for Slice {
            fn from(index: $ty) -> Self {
                Self::index(index as isize)
            }
        }
    )*};
}

slice_from_index!(usize, isize, i64, i32);

impl Display for Slice {
    /// Rust's range syntax with the step after `;`: `3`, `1..-1`, `..;2`, `2..;-1`.
    fn fmt(&self, f: &mut Formatter<'_>) -> core::fmt::Result {
        if self.step == 1 && self.end == Some(self.start + 1) {
            return write!(f, "{}", self.start);
        }
        if self.start != 0 {
            write!(f, "{}", self.start)?;
        }
        f.write_str("..")?;
        if let Some(end) = self.end {
            write!(f, "{end}")?;
        }
        if self.step != 1 {
            write!(f, ";{}", self.step)?;
        }
        Ok(())
    }
}

impl FromStr for Slice {
    type Err = ExpressionError;

    /// Parses what [`Display`] writes, and `a..=b`.
    fn from_str(source: &str) -> Result<Self, ExpressionError> {
        let parse = |text: &str| {
            text.trim().parse::<isize>().map_err(|err| {
                ExpressionError::parse_error(format!("invalid integer '{text}': {err}"), source)
            })
        };
        let (range, step) = match source.trim().split_once(';') {
            Some((range, step)) => (range.trim(), parse(step)?),
            None => (source.trim(), 1),
        };
        if range.is_empty() {
            return Err(ExpressionError::parse_error("empty expression", source));
        }
        if step == 0 {
            return Err(ExpressionError::invalid_expression(
                "the step must not be 0",
                source,
            ));
        }
        let (start, end) = match range.split_once("..") {
            Some((start, end)) => {
                let start = if start.trim().is_empty() {
                    0
                } else {
                    parse(start)?
                };
                let end = match end.trim() {
                    "" => None,
                    end => match end.strip_prefix('=') {
                        Some(last) => Some(parse(last)? + 1),
                        None => Some(parse(end)?),
                    },
                };
                (start, end)
            }
            None => {
                let index = parse(range)?;
                (index, Some(index + 1))
            }
        };
        Ok(Slice::new(start, end, step))
    }
}

/// Why a slicing expression written as text is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpressionError {
    /// The text does not parse.
    ParseError {
        /// What is wrong.
        message: String,
        /// The text given.
        source: String,
    },
    /// The text parses but means nothing valid (a step of 0).
    InvalidExpression {
        /// What is wrong.
        message: String,
        /// The text given.
        source: String,
    },
}

impl ExpressionError {
    /// A [`ExpressionError::ParseError`].
    pub fn parse_error(message: impl Into<String>, source: impl Into<String>) -> Self {
        Self::ParseError {
            message: message.into(),
            source: source.into(),
        }
    }

    /// A [`ExpressionError::InvalidExpression`].
    pub fn invalid_expression(message: impl Into<String>, source: impl Into<String>) -> Self {
        Self::InvalidExpression {
            message: message.into(),
            source: source.into(),
        }
    }
}

impl Display for ExpressionError {
    fn fmt(&self, f: &mut Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::ParseError { message, source } => {
                write!(f, "cannot parse the expression '{source}': {message}")
            }
            Self::InvalidExpression { message, source } => {
                write!(f, "invalid expression '{source}': {message}")
            }
        }
    }
}

impl core::error::Error for ExpressionError {}

/// A slicing expression as `Tensor::slice`, `slice_assign` and `slice_fill` take it: one range
/// or index for the first dim (`0..2`, `-1`), an array of them (`[0..2, 1..3]`, what `s!`
/// builds) or a slice of [`Slice`]s. Dims after the last one given are taken whole.
pub trait SliceArg {
    /// One [`Slice`] per dim of `shape`, each clamped to its dim (negative ends resolved); panics
    /// when more slices are given than `shape` has dims, or a single index is out of bounds.
    fn into_slices(self, shape: &Shape) -> Vec<Slice>;
}

impl<S: Into<Slice> + Clone> SliceArg for &[S] {
    fn into_slices(self, shape: &Shape) -> Vec<Slice> {
        let rank = shape.num_dims();
        assert!(
            self.len() <= rank,
            "slice: {} slices given for a tensor of rank {rank} (shape {shape:?})",
            self.len()
        );
        shape
            .iter()
            .enumerate()
            .map(|(dim, &size)| {
                let slice: Slice = self.get(dim).cloned().map_or_else(Slice::full, Into::into);
                let is_index = slice.step == 1 && slice.end == inclusive_end(slice.start);
                if is_index {
                    let fits = slice.start < size as isize && slice.start >= -(size as isize);
                    assert!(
                        fits,
                        "slice: index {} is out of bounds for dim {dim} of size {size}",
                        slice.start
                    );
                }
                let range = slice.to_range(size);
                Slice::new(range.start as isize, Some(range.end as isize), slice.step)
            })
            .collect()
    }
}

impl SliceArg for &Vec<Slice> {
    fn into_slices(self, shape: &Shape) -> Vec<Slice> {
        self.as_slice().into_slices(shape)
    }
}

impl<S: Into<Slice> + Clone, const R: usize> SliceArg for [S; R] {
    fn into_slices(self, shape: &Shape) -> Vec<Slice> {
        self.as_slice().into_slices(shape)
    }
}

impl<S: Into<Slice>> SliceArg for S {
    fn into_slices(self, shape: &Shape) -> Vec<Slice> {
        [self.into()].as_slice().into_slices(shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::reversed_empty_ranges)] // `1..-1` is a slice expression, not an iteration
    fn negative_indices_count_from_the_end() {
        assert_eq!(Slice::from(-2..).to_range(5), 3..5);
        assert_eq!(Slice::from(1..-1).to_range(5), 1..4);
        assert_eq!(Slice::index(-1).to_range(5), 4..5);
        assert_eq!(Slice::new(0, None, 2).output_size(5), 3);
        assert_eq!(Slice::new(0, None, -2).output_size(4), 2);
        assert_eq!(Slice::from(..=-1), Slice::full());
        assert_eq!(Slice::from(3..1).output_size(5), 0);
    }

    #[test]
    fn an_expression_is_padded_and_clamped_to_the_shape() {
        let shape = Shape::new([4, 5, 6]);
        let slices = [0..2, -3..100].into_slices(&shape);
        assert_eq!(
            slices,
            vec![
                Slice::new(0, Some(2), 1),
                Slice::new(2, Some(5), 1),
                Slice::new(0, Some(6), 1)
            ]
        );
        assert_eq!((-1).into_slices(&shape)[0], Slice::new(3, Some(4), 1));
        let stepped = [Slice::from_range_stepped(.., -2)].into_slices(&shape);
        assert_eq!(stepped[0], Slice::new(0, Some(4), -2));
    }

    #[test]
    #[should_panic(expected = "index 4 is out of bounds for dim 0 of size 4")]
    fn an_index_past_the_dim_is_refused() {
        4usize.into_slices(&Shape::new([4]));
    }

    #[test]
    #[should_panic(expected = "3 slices given for a tensor of rank 2")]
    fn more_slices_than_dims_are_refused() {
        [0..1, 0..1, 0..1].into_slices(&Shape::new([2, 2]));
    }

    #[test]
    fn text_round_trips() {
        for text in ["3", "1..-1", "..;2", "2..;-1", "..", "-3.."] {
            let slice: Slice = text.parse().unwrap();
            assert_eq!(slice.to_string(), text);
        }
        assert_eq!("1..=3".parse::<Slice>().unwrap(), Slice::new(1, Some(4), 1));
        assert!(matches!(
            "..;0".parse::<Slice>(),
            Err(ExpressionError::InvalidExpression { .. })
        ));
        assert!(matches!(
            "a..".parse::<Slice>(),
            Err(ExpressionError::ParseError { .. })
        ));
    }

    #[test]
    fn iteration_and_bounds() {
        assert_eq!(Slice::new(1, Some(7), 2).into_vec(), vec![1, 3, 5]);
        assert_eq!(Slice::new(5, Some(0), -2).into_vec(), vec![5, 3, 1]);
        assert_eq!(Slice::full().bound_to(4), Slice::new(0, Some(4), 1));
        assert_eq!(Slice::new(0, None, -1).bound_to(4).end, Some(-5));
        assert_eq!(Slice::new(0, Some(9), 1).bound_to(4).end, Some(4));
    }
}
