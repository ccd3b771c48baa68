//! Moving tensors between the host and a device: upload, read back, allocate.

use crate::dtype::{assert_storage, bool_store};
use crate::error::execution_error;
use crate::{CubeDevice, CubeTensor};
use burn_backend::{BoolStore, DType, ExecutionError, Shape, TensorData, read_sync};
use core::future::Future;
use cubecl::server::MemoryLayoutDescriptor;
use cubecl::zspace::{Shape as CubeShape, Strides};

impl CubeTensor {
    /// Uploads `data` to `device`.
    ///
    /// `Bool(Native)` data is stored with the device's boolean store (`Bool(U8)` where the device
    /// has byte buffers, else `Bool(U32)`); every other dtype is kept.
    ///
    /// # Panics
    ///
    /// When the device cannot store the dtype (e.g. `bf16` on a device without it).
    pub fn from_data(data: TensorData, device: &CubeDevice) -> Self {
        let client = device.client();
        let data = match data.dtype {
            DType::Bool(BoolStore::Native) => native_bool_to(data, bool_store(&client)),
            _ => data,
        };
        assert_storage("from_data", &client, data.dtype);
        let dtype = data.dtype;
        let shape = data.shape.clone();
        let layout =
            client.create_tensor_from_slice(data.as_bytes(), alloc_shape(&shape), dtype.size());
        let strides = layout_strides(&shape, &layout.strides);
        // SAFETY: the layout was allocated by this client for this shape and dtype.
        unsafe {
            Self::from_raw_parts(client, layout.memory, shape, strides, dtype, device.clone())
        }
    }

    /// A tensor of `shape` whose values are not initialized (the layout the runtime prefers,
    /// contiguous on WGPU).
    pub fn empty(shape: Shape, dtype: DType, device: &CubeDevice) -> Self {
        let client = device.client();
        Self::empty_on(&client, device, shape, dtype)
    }

    /// [`empty`](Self::empty) with the client at hand.
    pub(crate) fn empty_on(
        client: &cubecl::client::Client,
        device: &CubeDevice,
        shape: Shape,
        dtype: DType,
    ) -> Self {
        let layout = client.empty_tensor(alloc_shape(&shape), dtype.size());
        let strides = layout_strides(&shape, &layout.strides);
        // SAFETY: the layout was allocated by this client for this shape and dtype.
        unsafe {
            Self::from_raw_parts(
                client.clone(),
                layout.memory,
                shape,
                strides,
                dtype,
                device.clone(),
            )
        }
    }

    /// An empty row-major tensor (never padded, whatever the runtime prefers), for kernels
    /// that write their output by linear index.
    pub(crate) fn empty_contiguous_on(
        client: &cubecl::client::Client,
        device: &CubeDevice,
        shape: Shape,
        dtype: DType,
    ) -> Self {
        let descriptor = MemoryLayoutDescriptor::contiguous(alloc_shape(&shape), dtype.size());
        let layout = client.empty_tensors(vec![descriptor]).remove(0);
        let strides = shape.contiguous_strides();
        // SAFETY: a contiguous layout allocated by this client for this shape and dtype.
        unsafe {
            Self::from_raw_parts(
                client.clone(),
                layout.memory,
                shape,
                strides,
                dtype,
                device.clone(),
            )
        }
    }

    /// [`empty_contiguous_on`](Self::empty_contiguous_on) the same device.
    pub(crate) fn empty_contiguous_like(&self, shape: Shape, dtype: DType) -> Self {
        Self::empty_contiguous_on(&self.client, &self.device, shape, dtype)
    }

    /// An empty tensor on the same device, of `shape` and `dtype`.
    pub(crate) fn empty_like(&self, shape: Shape, dtype: DType) -> Self {
        Self::empty_on(&self.client, &self.device, shape, dtype)
    }

    /// Reads the tensor back to the host, row-major, in its dtype.
    ///
    /// The read is queued (when the future is first polled) behind every launch that writes
    /// the tensor, and the future resolves when the device has produced the values. A failure
    /// of any of those launches (compilation, unsupported type, out of memory, lost device) is
    /// returned as an [`ExecutionError`]. A layout the runtime cannot read directly (permuted,
    /// broadcast) is first copied into a contiguous buffer.
    pub fn into_data(self) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send {
        let shape = self.shape.clone();
        let dtype = self.dtype;
        let index_errors = crate::kernel::report_index_errors(self.device.clone());
        let read = if self.num_elements() == 0 {
            None
        } else {
            let tensor = if self.shape.num_dims() == 0 {
                // Read a scalar as the one-element vector it is allocated as.
                Self {
                    shape: Shape::new([1]),
                    strides: vec![1],
                    ..self
                }
            } else {
                self
            };
            // Size-1 dims may carry any stride; the runtime reads only exact layouts.
            let tensor = if tensor.is_contiguous() {
                let strides = tensor.shape.contiguous_strides();
                Self { strides, ..tensor }
            } else {
                tensor
            };
            let readable = tensor.device.as_cubecl().can_read_tensor(
                &CubeShape::from(tensor.shape.dims.clone()),
                &Strides::from(tensor.strides.clone()),
            );
            let tensor = if readable {
                tensor
            } else {
                tensor.into_contiguous()
            };
            let descriptor = tensor.handle.clone().copy_descriptor(
                CubeShape::from(tensor.shape.dims.clone()),
                Strides::from(tensor.strides.clone()),
                dtype.size(),
            );
            Some((tensor.client, descriptor))
        };
        async move {
            index_errors.await?;
            let bytes = match read {
                Some((client, descriptor)) => client
                    .read_one_tensor_async(descriptor)
                    .await
                    .map_err(execution_error)?,
                None => return Ok(TensorData::from_bytes_slice(&[], shape, dtype)),
            };
            let len = shape.num_elements() * dtype.size();
            if bytes.len() < len {
                return Err(ExecutionError::generic(format!(
                    "into_data: the device returned {} bytes, {len} expected ({shape:?} of {dtype})",
                    bytes.len()
                )));
            }
            Ok(TensorData::from_bytes_slice(&bytes[..len], shape, dtype))
        }
    }

    /// [`into_data`](Self::into_data), blocking the calling thread until the values arrive.
    pub fn into_data_sync(self) -> Result<TensorData, ExecutionError> {
        read_sync(self.into_data())
    }

    /// Waits until every launch queued on the tensor's device has run; reports device faults
    /// and out-of-range indices given to earlier operations.
    pub fn sync(&self) -> Result<(), ExecutionError> {
        read_sync(self.client.sync()).map_err(execution_error)?;
        read_sync(crate::kernel::report_index_errors(self.device.clone()))
    }
}

/// The shape to allocate for a tensor of `shape`: CubeCL's allocator wants rank 1 or more, so a
/// scalar (rank 0) is allocated as one element.
fn alloc_shape(shape: &Shape) -> CubeShape {
    if shape.num_dims() == 0 {
        CubeShape::from(vec![1])
    } else {
        CubeShape::from(shape.dims.clone())
    }
}

/// The strides of an allocation made with [`alloc_shape`], for the tensor's own rank.
fn layout_strides(shape: &Shape, strides: &Strides) -> Vec<usize> {
    strides.iter().copied().take(shape.num_dims()).collect()
}

/// Re-encodes native booleans (one byte, 0 or 1) with the given store.
fn native_bool_to(data: TensorData, store: BoolStore) -> TensorData {
    let shape = data.shape.clone();
    match store {
        BoolStore::Native | BoolStore::U8 => {
            TensorData::from_bytes_slice(data.as_bytes(), shape, DType::Bool(BoolStore::U8))
        }
        BoolStore::U32 => {
            let words: Vec<u32> = data.as_bytes().iter().map(|&b| u32::from(b != 0)).collect();
            TensorData::from_bytes_slice(
                bytemuck::cast_slice(&words),
                shape,
                DType::Bool(BoolStore::U32),
            )
        }
    }
}
