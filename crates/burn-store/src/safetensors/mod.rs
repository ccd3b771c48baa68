//! The safetensors format: encoding, parsing, and the store.

mod format;
mod quantized;
mod store;

pub use store::SafetensorsStore;
