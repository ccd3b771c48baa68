//! Layout: permuting, flipping, slicing, concatenating and repeating.

use super::RefArray;

/// One dim of a slice: `start..end` (negative values count from the end, `None` is the end)
/// taken every `step`; a negative step walks the same range from its last element backwards.
#[derive(Clone, Copy, Debug)]
pub struct Range {
    /// First index.
    pub start: isize,
    /// One past the last index.
    pub end: Option<isize>,
    /// Distance between taken indices (not 0).
    pub step: isize,
}

impl Range {
    /// `start..end` by 1.
    pub fn new(start: isize, end: Option<isize>) -> Self {
        Self {
            start,
            end,
            step: 1,
        }
    }

    /// The whole dim.
    pub fn full() -> Self {
        Self::new(0, None)
    }

    /// This range with another step.
    pub fn step(self, step: isize) -> Self {
        Self { step, ..self }
    }

    /// The positions taken from a dim of `size` elements, in output order.
    pub fn positions(&self, size: usize) -> Vec<usize> {
        let resolve = |i: isize| {
            let i = if i < 0 { i + size as isize } else { i };
            i.clamp(0, size as isize) as usize
        };
        let start = resolve(self.start);
        let end = self.end.map(resolve).unwrap_or(size).max(start);
        let step = self.step.unsigned_abs();
        if self.step > 0 {
            (start..end).step_by(step).collect()
        } else {
            (start..end).rev().step_by(step).collect()
        }
    }
}

impl RefArray {
    /// Output dim `i` is input dim `axes[i]`.
    pub fn permute(&self, axes: &[usize]) -> Self {
        assert_eq!(axes.len(), self.rank(), "permute: one axis per dim");
        let shape: Vec<usize> = axes.iter().map(|&a| self.shape[a]).collect();
        Self::from_fn(&shape, |index| {
            let mut source = vec![0; self.rank()];
            for (i, &a) in axes.iter().enumerate() {
                source[a] = index[i];
            }
            self.at(&source)
        })
    }

    /// Exchanges two dims.
    pub fn swap_dims(&self, a: usize, b: usize) -> Self {
        let mut axes: Vec<usize> = (0..self.rank()).collect();
        axes.swap(a, b);
        self.permute(&axes)
    }

    /// Exchanges the last two dims.
    pub fn transpose(&self) -> Self {
        let r = self.rank();
        self.swap_dims(r - 2, r - 1)
    }

    /// Reverses the listed dims.
    pub fn flip(&self, axes: &[usize]) -> Self {
        Self::from_fn(&self.shape, |index| {
            let mut source = index.to_vec();
            for &a in axes {
                source[a] = self.shape[a] - 1 - index[a];
            }
            self.at(&source)
        })
    }

    /// The sub-array selected by one range per leading dim (missing dims are taken whole).
    pub fn slice(&self, ranges: &[Range]) -> Self {
        let positions: Vec<Vec<usize>> = (0..self.rank())
            .map(|d| {
                ranges
                    .get(d)
                    .copied()
                    .unwrap_or(Range::full())
                    .positions(self.shape[d])
            })
            .collect();
        let shape: Vec<usize> = positions.iter().map(Vec::len).collect();
        Self::from_fn(&shape, |index| {
            let source: Vec<usize> = index
                .iter()
                .enumerate()
                .map(|(d, &i)| positions[d][i])
                .collect();
            self.at(&source)
        })
    }

    /// This array with the sub-array at `ranges` replaced by `values`.
    pub fn slice_assign(&self, ranges: &[Range], values: &Self) -> Self {
        let positions: Vec<Vec<usize>> = (0..self.rank())
            .map(|d| {
                ranges
                    .get(d)
                    .copied()
                    .unwrap_or(Range::full())
                    .positions(self.shape[d])
            })
            .collect();
        let shape: Vec<usize> = positions.iter().map(Vec::len).collect();
        assert_eq!(
            shape, values.shape,
            "slice_assign: values have the wrong shape"
        );
        let mut out = self.clone();
        for (index, v) in values.indexed() {
            let target: Vec<usize> = index
                .iter()
                .enumerate()
                .map(|(d, &i)| positions[d][i])
                .collect();
            out.set(&target, v);
        }
        out
    }

    /// Concatenation along `dim`.
    pub fn cat(arrays: &[Self], dim: usize) -> Self {
        let mut shape = arrays[0].shape.clone();
        shape[dim] = arrays.iter().map(|a| a.shape[dim]).sum();
        Self::from_fn(&shape, |index| {
            let mut k = index[dim];
            for a in arrays {
                if k < a.shape[dim] {
                    let mut source = index.to_vec();
                    source[dim] = k;
                    return a.at(&source);
                }
                k -= a.shape[dim];
            }
            unreachable!("cat: index past the end")
        })
    }

    /// The array repeated `times` times along `dim`.
    pub fn repeat_dim(&self, dim: usize, times: usize) -> Self {
        let copies = vec![self.clone(); times];
        Self::cat(&copies, dim)
    }

    /// A new dim of size 1 inserted at `dim`.
    pub fn unsqueeze(&self, dim: usize) -> Self {
        let mut shape = self.shape.clone();
        shape.insert(dim, 1);
        self.reshape(&shape)
    }

    /// Arrays of one shape stacked along a new dim `dim`.
    pub fn stack(arrays: &[Self], dim: usize) -> Self {
        let expanded: Vec<Self> = arrays.iter().map(|a| a.unsqueeze(dim)).collect();
        Self::cat(&expanded, dim)
    }
}
