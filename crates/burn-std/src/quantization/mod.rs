//! Quantized tensors: the schemes (`QuantScheme` and its parts), a device's quantization
//! settings, the byte format of quantized data, and a host reference of quantization.
//!
//! A quantized float tensor holds one small integer code per value plus scales: `x ≈ code ·
//! scale`, with one scale per tensor or per block of values (see [`QuantScheme`]). Its
//! `TensorData` has dtype [`DType::QFloat`](crate::DType::QFloat) and the bytes described in
//! [`QuantizedBytes`]; [`TensorData::quantized`](crate::TensorData::quantized) builds it.
//!
//! This implementation quantizes `Symmetric` schemes with integer values (`Q8S`, `Q8F`, `Q4S`,
//! `Q4F`, `Q2S`, `Q2F`), `Native` or `PackedU32` stores, scales in `F32`, `F16` or `BF16`, one
//! level ([`QuantScheme::is_supported`]); the other variants exist so schemes from elsewhere can
//! be named, compared and serialized.
//!
//! ```
//! use burn_std::quantization::{QuantScheme, QuantValue, ScaleDtype, quantize_values};
//! use burn_std::TensorData;
//!
//! let scheme = QuantScheme::default().with_value(QuantValue::Q8S).per_tensor(ScaleDtype::F32);
//! let (codes, scales) = quantize_values(&[-1.8, -1.0, 0.0, 0.5], &[4], &scheme);
//! assert_eq!(codes, [-127, -71, 0, 35]);
//! let data = TensorData::quantized(codes.clone(), [4], scheme, &scales);
//! assert_eq!(data.as_quantized().unwrap().into_vec_i8(), (codes, scales));
//! ```

mod block;
mod bytes;
mod config;
mod packing;
mod reference;
mod scale;
mod scheme;
mod value;

pub use block::{BlockLayout, BlockScale, BlockSize, block_index};
pub use bytes::{QPARAM_ALIGN, QuantizedBytes, params_shape, quantized_data_len};
pub use config::{Calibration, QParams, QuantAcc, QuantConfig, QuantPropagation};
pub use reference::{dequantize_values, quantize_values};
pub use scale::ScaleDtype;
pub use scheme::QuantScheme;
pub use value::{QuantMode, QuantStore, QuantValue};
