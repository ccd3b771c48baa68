//! `FlexTensor`: an `Arc`-shared typed buffer plus a strided layout.
//!
//! Views (permute, slice, flip, expand, reshape when possible) share the buffer and copy
//! nothing. Operations may write into a tensor's buffer only when the handle owns it uniquely
//! and the layout is contiguous ([`FlexTensor::can_mut`]); otherwise they allocate, so results
//! never depend on whether other handles exist.

pub mod aligned;
mod buffer;
pub mod huge_pages;
pub mod iter;
mod layout;
pub mod pool;
pub mod rows;

pub use aligned::{Aligned, IntoValues};
pub use buffer::{Buffer, Storable};
pub use layout::{Layout, contiguous_strides};

use crate::fuse::Deferred;
use burn_std::{DType, Shape, Slice, TensorData};
use std::sync::Arc;

/// A tensor of Flex: shared typed storage and a strided view into it.
///
/// The storage's `Arc` never leaves the crate and no `Weak` of it is ever made, so a handle that
/// counts one strong reference owns its buffer: [`data_mut`](Self::data_mut) then writes into
/// it without `Arc::get_mut`'s lock of the weak count (an atomic read-modify-write that was a
/// tenth of W7's dispatch time).
///
/// The storage may be *deferred* ([`crate::fuse`]): a large float element-wise chain not yet
/// computed. Every accessor of the values computes it first (once, shared by the clones), so
/// only the fusion code sees the difference.
#[derive(Clone, Debug)]
pub struct FlexTensor {
    buffer: Arc<Buffer>,
    layout: Layout,
    deferred: Option<Arc<Deferred>>,
}

impl FlexTensor {
    /// A tensor viewing `buffer` through `layout`; panics when the layout reaches outside it.
    pub(crate) fn new(buffer: Arc<Buffer>, layout: Layout) -> Self {
        if let Some((_, end)) = layout.reach() {
            assert!(
                end <= buffer.len(),
                "FlexTensor::new: layout {layout:?} reaches position {end} of a {}-value buffer",
                buffer.len()
            );
        }
        Self {
            buffer,
            layout,
            deferred: None,
        }
    }

    /// The tensor of a deferred computation (contiguous, of its program's shape).
    pub(crate) fn from_deferred(deferred: Arc<Deferred>) -> Self {
        let dtype = deferred.dtype();
        let shape = deferred.shape().clone();
        Self {
            buffer: Arc::new(with_elem!(dtype, E => E::into_buffer(Vec::<E>::new()))),
            layout: Layout::contiguous(shape),
            deferred: Some(deferred),
        }
    }

    /// The deferred state, while the values may not be computed yet.
    pub(crate) fn deferred_state(&self) -> Option<&Arc<Deferred>> {
        self.deferred.as_ref()
    }

    /// How many deferred programs this tensor's values wait on (`None` when it holds values).
    pub(crate) fn deferred_depth(&self) -> Option<usize> {
        self.deferred.as_ref().map(|d| d.depth())
    }

    /// Computes deferred values now and holds them directly (owned when no clone shares them).
    pub fn settle(&mut self) {
        if let Some(deferred) = self.deferred.take() {
            self.buffer = deferred.into_result();
        }
    }

    /// The same storage, deferred or not, seen through another layout (no check: for layouts
    /// derived from this tensor's own by broadcasting).
    pub(crate) fn with_layout_deferred(self, layout: Layout) -> Self {
        Self { layout, ..self }
    }

    /// A contiguous tensor owning `values` with `shape`; panics when their sizes disagree.
    pub fn from_vec<E: Storable>(values: Vec<E>, shape: impl Into<Shape>) -> Self {
        Self::from_values(values, 0, shape)
    }

    /// A contiguous tensor owning `values` (which start at a cache line) with `shape`; panics
    /// when their sizes disagree.
    pub fn from_aligned<E: Storable>(values: Aligned<E>, shape: impl Into<Shape>) -> Self {
        let (values, start) = values.into_values();
        Self::from_values(values, start, shape)
    }

    /// A contiguous tensor of `shape` whose values start at `values[start]`.
    fn from_values<E: Storable>(values: Vec<E>, start: usize, shape: impl Into<Shape>) -> Self {
        let shape = shape.into();
        let len = values.len() - start;
        assert_eq!(
            len,
            shape.num_elements(),
            "FlexTensor::from_vec: {len} values do not fill shape {shape:?}",
        );
        let strides = contiguous_strides(&shape.dims);
        Self {
            buffer: Arc::new(E::into_buffer(values)),
            layout: Layout::new(shape, strides, start),
            deferred: None,
        }
    }

    /// A tensor holding `data`'s values (any boolean storage becomes native `bool`).
    pub fn from_data(data: TensorData) -> Self {
        let shape = data.shape.clone();
        with_elem!(data.dtype, E => {
            // Copied into a pooled buffer (large ones on 2 MiB pages) when the bytes are the
            // element type already; converted value by value otherwise.
            let (values, start): (Vec<E>, usize) = match data.as_slice::<E>() {
                Ok(slice) => pool::aligned_copied(slice).into_values(),
                Err(_) => (data.into_vec().unwrap_or_else(|e| {
                    panic!("FlexTensor::from_data: cannot read the data: {e}")
                }), 0),
            };
            Self::from_values(values, start, shape)
        })
    }

    /// The values as row-major host data.
    pub fn into_data(self) -> TensorData {
        let shape = self.shape().clone();
        with_elem!(self.dtype(), E => TensorData::new(self.into_vec::<E>(), shape))
    }

    /// The dtype of the elements.
    #[inline]
    pub fn dtype(&self) -> DType {
        match &self.deferred {
            Some(deferred) => deferred.dtype(),
            None => self.buffer.dtype(),
        }
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> &Shape {
        self.layout.shape()
    }

    /// The rank.
    #[inline]
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// The number of elements.
    #[inline]
    pub fn num_elements(&self) -> usize {
        self.layout.num_elements()
    }

    /// The layout of the view.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The buffer (deferred values are computed first).
    pub fn buffer(&self) -> &Buffer {
        self.shared_buffer()
    }

    /// The buffer's shared handle (deferred values are computed first).
    pub(crate) fn shared_buffer(&self) -> &Arc<Buffer> {
        match &self.deferred {
            Some(deferred) => deferred.result(),
            None => &self.buffer,
        }
    }

    /// Whether the elements are row-major and adjacent in the buffer.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// Whether an operation may write into this tensor's buffer: the handle owns it uniquely and
    /// the view is contiguous.
    pub fn can_mut(&self) -> bool {
        if let Some(deferred) = &self.deferred {
            // `data_mut` settles first; the values are then this handle's alone.
            return Arc::strong_count(deferred) == 1
                && self.is_contiguous()
                && deferred.result_is_unshared();
        }
        Arc::strong_count(&self.buffer) == 1 && self.is_contiguous()
    }

    /// The same buffer seen through another layout; panics when it reaches outside the buffer.
    pub fn with_layout(&self, layout: Layout) -> Self {
        Self::new(self.shared_buffer().clone(), layout)
    }

    /// The whole buffer as a slice of `E`; panics when the tensor holds another dtype.
    pub fn storage<E: Storable>(&self) -> &[E] {
        E::as_slice(self.buffer()).unwrap_or_else(|| {
            panic!(
                "FlexTensor: expected a {} tensor, got {}",
                E::DTYPE,
                self.dtype()
            )
        })
    }

    /// The elements as a mutable row-major slice, when [`can_mut`](Self::can_mut) holds.
    pub fn data_mut<E: Storable>(&mut self) -> Option<&mut [E]> {
        self.settle();
        let range = self.layout.contiguous_range()?;
        let buffer = owned_mut(&mut self.buffer)?;
        let dtype = buffer.dtype();
        let slice = E::as_mut_slice(buffer)
            .unwrap_or_else(|| panic!("FlexTensor: expected a {} tensor, got {dtype}", E::DTYPE));
        Some(&mut slice[range])
    }

    /// The elements in row-major order, borrowed when the view is contiguous.
    pub fn values<E: Storable>(&self) -> std::borrow::Cow<'_, [E]> {
        match self.layout.contiguous_range() {
            Some(range) => std::borrow::Cow::Borrowed(&self.storage::<E>()[range]),
            None => std::borrow::Cow::Owned(self.to_vec()),
        }
    }

    /// The elements in row-major order (a transposed matrix view through the blocked transpose).
    pub fn to_vec<E: Storable>(&self) -> Vec<E> {
        let data = self.storage::<E>();
        iter::collect_transposed(data, &self.layout)
            .unwrap_or_else(|| iter::collect_layout(data, &self.layout))
    }

    /// The elements in row-major order, reusing the buffer when it is owned and contiguous.
    pub fn into_vec<E: Storable>(mut self) -> Vec<E> {
        self.settle();
        let n = self.num_elements();
        // The whole buffer but for an aligned tensor's leading values: moved down in place.
        let whole = self.layout.contiguous_range().filter(|range| {
            range.end == self.buffer.len() && range.start < aligned::Aligned::<E>::PADDING
        });
        if let Some(range) = whole {
            match Arc::try_unwrap(self.buffer) {
                Ok(buffer) => {
                    let dtype = buffer.dtype();
                    let mut values = E::from_buffer(buffer).unwrap_or_else(|_| {
                        panic!("FlexTensor: expected a {} tensor, got {dtype}", E::DTYPE)
                    });
                    if range.start > 0 {
                        values.copy_within(range, 0);
                        values.truncate(n);
                    }
                    return values;
                }
                Err(buffer) => return Self::new(buffer, self.layout).to_vec(),
            }
        }
        self.to_vec()
    }

    /// A tensor with the same values in a contiguous row-major layout (no copy when already so).
    pub fn to_contiguous(self) -> Self {
        if self.is_contiguous() {
            return self;
        }
        let shape = self.shape().clone();
        with_elem!(self.dtype(), E => Self::from_vec(self.to_vec::<E>(), shape))
    }

    /// This tensor when an operation may write into it, else a contiguous copy that it may
    /// (copy-on-write): [`data_mut`](Self::data_mut) on the result always succeeds.
    pub fn into_mut(mut self) -> Self {
        // Settled first, the check cannot be overtaken: once the buffer is this handle's own
        // `Arc` with a strong count of one, nothing else can reach it (see [`FlexTensor`]). A
        // deferred state's count alone could grow meanwhile, when `compute_pending` on another
        // thread upgrades its pending `Weak`.
        self.settle();
        if Arc::strong_count(&self.buffer) == 1 && self.is_contiguous() {
            return self;
        }
        let shape = self.shape().clone();
        with_elem!(self.dtype(), E => Self::from_vec(self.to_vec::<E>(), shape))
    }

    /// The view with dimensions reordered: dimension `i` of the result is `axes[i]`.
    pub fn permute(self, axes: &[usize]) -> Self {
        let layout = self.layout.permute(axes);
        Self { layout, ..self }
    }

    /// The view with dimensions `a` and `b` exchanged.
    pub fn swap_dims(self, a: usize, b: usize) -> Self {
        let layout = self.layout.swap_dims(a, b);
        Self { layout, ..self }
    }

    /// The view with the last two dimensions exchanged.
    pub fn transpose(self) -> Self {
        let layout = self.layout.transpose();
        Self { layout, ..self }
    }

    /// The view of one [`Slice`] per leading dimension (steps may be negative).
    pub fn slice(self, slices: &[Slice]) -> Self {
        let layout = self.layout.slice(slices);
        Self { layout, ..self }
    }

    /// The view with the listed axes reversed.
    pub fn flip(self, axes: &[usize]) -> Self {
        let layout = self.layout.flip(axes);
        Self { layout, ..self }
    }

    /// The view broadcast to `shape` (stride 0 along repeated dims).
    pub fn expand(self, shape: impl Into<Shape>) -> Self {
        let layout = self.layout.expand(&shape.into());
        Self { layout, ..self }
    }

    /// The same values with another shape: a view when the strides allow it, else a copy.
    pub fn reshape(self, shape: impl Into<Shape>) -> Self {
        let shape = shape.into();
        match self.layout.reshape(&shape) {
            Some(layout) => Self { layout, ..self },
            None => self.to_contiguous().reshape(shape),
        }
    }

    /// The view with a size-1 dimension inserted at `dim`.
    pub fn unsqueeze(self, dim: usize) -> Self {
        let layout = self.layout.unsqueeze(dim);
        Self { layout, ..self }
    }

    /// The view without the size-1 dimension `dim`.
    pub fn squeeze(self, dim: usize) -> Self {
        let layout = self.layout.squeeze(dim);
        Self { layout, ..self }
    }
}

/// The buffer behind `shared` for writing, when `shared` is its only handle.
///
/// `Arc::get_mut` also locks the weak count, against a `Weak` upgrading meanwhile; the crate
/// never makes a `Weak` of a buffer nor lets its `Arc` out (see [`FlexTensor`]), so the strong
/// count alone decides: with one strong reference, held by `shared` (borrowed mutably here), no
/// other thread can make another. (The `Weak<Deferred>` of [`crate::fuse`]'s pending list is no
/// way around it: while a deferred state can be upgraded, the `Arc` of its computed values is
/// one more strong reference.) A new `Arc<Buffer>` may only be a clone of a strong handle.
fn owned_mut(shared: &mut Arc<Buffer>) -> Option<&mut Buffer> {
    if Arc::strong_count(shared) != 1 {
        return None;
    }
    debug_assert_eq!(
        Arc::weak_count(shared),
        0,
        "a Weak of a Flex buffer was made"
    );
    // Orders this thread's writes after everything the other handles did before they dropped
    // (their decrement releases; `strong_count` reads relaxed).
    std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
    // SAFETY: the only strong reference is `shared`, mutably borrowed for the result's lifetime,
    // and no `Weak` exists (see above), so nothing else can reach the buffer meanwhile.
    Some(unsafe { &mut *Arc::as_ptr(shared).cast_mut() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_round_trip_through_views() {
        let data = TensorData::from([[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        let t = FlexTensor::from_data(data.clone());
        assert_eq!(t.dtype(), DType::F32);
        assert_eq!(t.clone().into_data(), data);
        let tt = t.clone().transpose();
        assert!(!tt.is_contiguous());
        assert_eq!(tt.to_vec::<f32>(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        let flat = tt.reshape([6]);
        assert!(flat.is_contiguous());
        assert_eq!(flat.to_vec::<f32>(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        let b = FlexTensor::from_data(TensorData::from([true, false]));
        assert_eq!(b.into_data().to_vec::<bool>().unwrap(), vec![true, false]);
    }

    #[test]
    fn can_mut_only_when_unique_and_contiguous() {
        let mut t = FlexTensor::from_vec(vec![1i32, 2, 3, 4], [2, 2]);
        assert!(t.can_mut());
        let view = t.clone();
        assert!(!t.can_mut());
        assert!(t.data_mut::<i32>().is_none());
        drop(view);
        t.data_mut::<i32>().unwrap()[0] = 9;
        assert_eq!(t.to_vec::<i32>(), vec![9, 2, 3, 4]);
        assert!(!t.transpose().can_mut());
    }

    #[test]
    fn writes_in_place_once_a_clone_dropped_on_another_thread() {
        let mut t = FlexTensor::from_vec(vec![1.0f32; 1024], [1024]);
        let clone = t.clone();
        let sum = std::thread::spawn(move || clone.to_vec::<f32>().iter().sum::<f32>())
            .join()
            .unwrap();
        assert_eq!(sum, 1024.0);
        let values = t
            .data_mut::<f32>()
            .expect("the clone is gone: the buffer is owned");
        values.fill(2.0);
        assert_eq!(t.to_vec::<f32>(), vec![2.0; 1024]);
    }
}
