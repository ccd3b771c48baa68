//! `CubeTensor`: a tensor living in a CubeCL device buffer.

use crate::CubeDevice;
use burn_backend::{DType, Shape, TensorMetadata};
use core::fmt;
use cubecl::client::Client;
use cubecl::prelude::{TensorArg, TensorBinding};
use cubecl::server::Handle;
use cubecl::std::tensor::layout::linear::{
    LinearViewLaunch, LinearViewLayout, LinearViewLayoutLaunch,
};
use cubecl::zspace::{Shape as CubeShape, Strides};

/// A tensor on a CubeCL device: a buffer handle, its logical shape and strides (in elements),
/// its dtype and the device (with that device's compute client).
///
/// Cloning is cheap and shares the buffer; a clone makes the buffer shared, so neither copy
/// is then modified in place ([`can_mut`](Self::can_mut) is false for both).
#[derive(Clone)]
pub struct CubeTensor {
    pub(crate) client: Client,
    pub(crate) handle: Handle,
    pub(crate) shape: Shape,
    pub(crate) strides: Vec<usize>,
    pub(crate) dtype: DType,
    pub(crate) device: CubeDevice,
}

impl CubeTensor {
    /// A tensor over `handle` with the given layout.
    ///
    /// # Safety
    ///
    /// `handle` must belong to `client` (the client of `device`) and hold every element the
    /// shape and strides address, stored as `dtype`.
    pub unsafe fn from_raw_parts(
        client: Client,
        handle: Handle,
        shape: Shape,
        strides: Vec<usize>,
        dtype: DType,
        device: CubeDevice,
    ) -> Self {
        assert_eq!(
            shape.num_dims(),
            strides.len(),
            "CubeTensor: shape {shape:?} and strides {strides:?} differ in rank"
        );
        Self {
            client,
            handle,
            shape,
            strides,
            dtype,
            device,
        }
    }

    /// The compute client of the tensor's device.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The buffer handle.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }

    /// The device the tensor lives on.
    pub fn device(&self) -> &CubeDevice {
        &self.device
    }

    /// The strides of each dimension, in elements.
    pub fn strides(&self) -> &[usize] {
        &self.strides
    }

    /// The number of elements.
    pub fn num_elements(&self) -> usize {
        self.shape.num_elements()
    }

    /// Whether the buffer is owned by this tensor alone, so an operation may overwrite it.
    ///
    /// Only on the stream that created the buffer: CubeCL orders work across streams (one per
    /// thread) by the stream a buffer was created on, so a write into another stream's buffer
    /// would not be seen by a later read on that stream.
    pub fn can_mut(&self) -> bool {
        self.handle.can_mut()
            && self.handle.stream == cubecl_environment::stream::StreamId::current()
    }

    /// The identity of the device allocation behind this tensor: equal for clones, views and
    /// results written in place into it, distinct otherwise while both are alive.
    pub fn buffer_id(&self) -> BufferId {
        BufferId(self.handle.clone().binding().memory.id().value)
    }

    /// Whether the elements lie in row-major order without gaps (dimensions of size 1 are
    /// ignored, whatever their stride).
    pub fn is_contiguous(&self) -> bool {
        is_contiguous(&self.shape.dims, &self.strides)
    }

    /// Whether no two elements share a memory location (no broadcast or overlapping strides),
    /// so writing every element in place is well defined.
    pub fn is_nonoverlapping(&self) -> bool {
        let mut dims: Vec<(usize, usize)> = self
            .shape
            .dims
            .iter()
            .copied()
            .zip(self.strides.iter().copied())
            .filter(|(size, _)| *size > 1)
            .collect();
        dims.sort_by_key(|&(_, stride)| stride);
        let mut span = 0; // one past the largest offset reached by the dims seen so far
        for (size, stride) in dims {
            if stride == 0 || stride <= span {
                return false;
            }
            span += (size - 1) * stride;
        }
        true
    }

    /// Whether an operation producing `out_shape` may write its result into this tensor's
    /// buffer: the buffer is unique, the layout non-overlapping and the shape already the
    /// output's.
    pub(crate) fn can_reuse_for(&self, out_shape: &Shape) -> bool {
        self.can_mut() && &self.shape == out_shape && self.is_nonoverlapping()
    }

    /// The CubeCL binding of this tensor (consumes the handle reference).
    pub(crate) fn binding(self) -> TensorBinding {
        // SAFETY: the handle, strides and shape describe this tensor (invariant of the type).
        unsafe {
            TensorBinding::from_raw_parts(
                self.handle,
                Strides::from(self.strides),
                CubeShape::from(self.shape.dims),
            )
        }
    }

    /// A linear view reading this tensor as laid out.
    pub(crate) fn into_linear_view(self) -> LinearViewLaunch {
        LinearViewLaunch::new_tensor::<LinearViewLayout>(
            self.binding().into_tensor_arg(),
            LinearViewLayoutLaunch::new(),
        )
    }

    /// A linear view reading this tensor broadcast to `shape` (same rank; each dim equal or 1).
    pub(crate) fn into_linear_view_broadcast(self, shape: &Shape) -> LinearViewLaunch {
        let layout = if self.shape == *shape {
            LinearViewLayoutLaunch::new()
        } else {
            LinearViewLayoutLaunch::from_reference_shape(CubeShape::from(shape.dims.clone()))
        };
        LinearViewLaunch::new_tensor::<LinearViewLayout>(self.binding().into_tensor_arg(), layout)
    }

    /// A linear view writing into the buffer of input number `input_pos` of the same launch.
    pub(crate) fn as_linear_view_alias(&self, input_pos: usize) -> LinearViewLaunch {
        let arg = TensorArg::Alias {
            input_pos,
            strides: Strides::from(self.strides.clone()),
            shape: CubeShape::from(self.shape.dims.clone()),
        };
        LinearViewLaunch::new_tensor::<LinearViewLayout>(arg, LinearViewLayoutLaunch::new())
    }
}

// A panic during an operation leaves no tensor half-changed: results are new tensors or
// buffers written by queued kernels, and the compute client's own state is guarded by the
// runtime. So a tensor may cross `catch_unwind` like any value, as Flex tensors do.
impl std::panic::UnwindSafe for CubeTensor {}
impl std::panic::RefUnwindSafe for CubeTensor {}

/// The identity of a device allocation (see [`CubeTensor::buffer_id`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferId(usize);

/// Whether `strides` lay out `shape` in row-major order without gaps, ignoring size-1 dims.
pub fn is_contiguous(shape: &[usize], strides: &[usize]) -> bool {
    let mut expected = 1;
    for (&size, &stride) in shape.iter().zip(strides).rev() {
        if size == 1 {
            continue;
        }
        if stride != expected {
            return false;
        }
        expected *= size;
    }
    true
}

impl TensorMetadata for CubeTensor {
    fn dtype(&self) -> DType {
        self.dtype
    }

    fn shape(&self) -> Shape {
        self.shape.clone()
    }

    fn rank(&self) -> usize {
        self.shape.num_dims()
    }
}

impl fmt::Debug for CubeTensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CubeTensor")
            .field("shape", &self.shape.dims)
            .field("strides", &self.strides)
            .field("dtype", &self.dtype)
            .field("device", &self.device)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::is_contiguous;

    #[test]
    fn contiguity() {
        assert!(is_contiguous(&[2, 3], &[3, 1]));
        assert!(!is_contiguous(&[2, 3], &[1, 2]));
        assert!(is_contiguous(&[2, 1, 3], &[3, 99, 1]));
        assert!(!is_contiguous(&[4, 3], &[8, 1]));
        assert!(is_contiguous(&[], &[]));
    }
}
