//! A float64 reference evaluator: plain loops over row-major arrays, written to be obviously
//! correct rather than fast. Integers and booleans are held as `f64` too (exact below 2^53;
//! booleans are 0.0 and 1.0).
//!
//! One concern per file: [`elementwise`] (maps, broadcasting zips, scalar functions), [`reduce`]
//! (reductions, scans, sorting, softmax), [`layout`] (permute, slice, flip, cat …), [`index`]
//! (select, gather, scatter, masks), [`linalg`] (matmul, cross), [`conv`], [`pool`],
//! [`interpolate`] and [`attention`].

pub mod attention;
pub mod conv;
pub mod elementwise;
pub mod index;
pub mod interpolate;
pub mod layout;
pub mod linalg;
pub mod pool;
pub mod reduce;

/// A dense row-major array of `f64` values.
#[derive(Clone, Debug, PartialEq)]
pub struct RefArray {
    /// The size of each dim, outermost first.
    pub shape: Vec<usize>,
    /// The values, row-major.
    pub data: Vec<f64>,
}

impl RefArray {
    /// An array from its shape and row-major values; panics when the sizes disagree.
    pub fn new(shape: &[usize], data: Vec<f64>) -> Self {
        let count: usize = shape.iter().product();
        assert_eq!(
            count,
            data.len(),
            "RefArray::new: shape {shape:?} needs {count} values, got {}",
            data.len()
        );
        Self {
            shape: shape.to_vec(),
            data,
        }
    }

    /// An array whose value at each multi-index is `f(index)`.
    pub fn from_fn(shape: &[usize], mut f: impl FnMut(&[usize]) -> f64) -> Self {
        let count: usize = shape.iter().product();
        let data = (0..count).map(|i| f(&unravel(shape, i))).collect();
        Self::new(shape, data)
    }

    /// Every element `value`.
    pub fn full(shape: &[usize], value: f64) -> Self {
        Self::new(shape, vec![value; shape.iter().product()])
    }

    /// `0, 1, 2, …` in row-major order.
    pub fn iota(shape: &[usize]) -> Self {
        let count: usize = shape.iter().product();
        Self::new(shape, (0..count).map(|i| i as f64).collect())
    }

    /// A one-element array of shape `[1]`.
    pub fn scalar(value: f64) -> Self {
        Self::new(&[1], vec![value])
    }

    /// The number of dims.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the array holds no element.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Row-major strides.
    pub fn strides(&self) -> Vec<usize> {
        strides(&self.shape)
    }

    /// The flat position of a multi-index.
    pub fn offset(&self, index: &[usize]) -> usize {
        assert_eq!(index.len(), self.rank(), "RefArray::offset: rank mismatch");
        index
            .iter()
            .zip(&self.shape)
            .zip(self.strides())
            .map(|((&i, &size), stride)| {
                assert!(
                    i < size,
                    "RefArray::offset: index {index:?} outside {:?}",
                    self.shape
                );
                i * stride
            })
            .sum()
    }

    /// The value at a multi-index.
    pub fn at(&self, index: &[usize]) -> f64 {
        self.data[self.offset(index)]
    }

    /// Sets the value at a multi-index.
    pub fn set(&mut self, index: &[usize], value: f64) {
        let offset = self.offset(index);
        self.data[offset] = value;
    }

    /// The same values with another shape of as many elements.
    pub fn reshape(&self, shape: &[usize]) -> Self {
        Self::new(shape, self.data.clone())
    }

    /// The values as `i64` (`as` semantics, for integer arrays).
    pub fn to_i64(&self) -> Vec<i64> {
        self.data.iter().map(|&v| v as i64).collect()
    }

    /// The values as booleans (non-zero is true).
    pub fn to_bool(&self) -> Vec<bool> {
        self.data.iter().map(|&v| v != 0.0).collect()
    }
}

/// Row-major strides of `shape`.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}

/// The multi-index of flat position `flat` in `shape`.
pub fn unravel(shape: &[usize], mut flat: usize) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        index[d] = flat % shape[d];
        flat /= shape[d];
    }
    index
}

/// `(outer, size, inner)` for the lanes along `dim`: element `k` of lane `(o, i)` sits at flat
/// position `(o * size + k) * inner + i`.
pub fn lane_geometry(shape: &[usize], dim: usize) -> (usize, usize, usize) {
    assert!(dim < shape.len(), "dim {dim} out of range for {shape:?}");
    let outer = shape[..dim].iter().product();
    let inner = shape[dim + 1..].iter().product();
    (outer, shape[dim], inner)
}
