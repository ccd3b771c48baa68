//! Data loaders: a dataset cut into batches (shuffled per epoch) and turned into tensors by
//! a [`batcher::Batcher`].

pub mod batcher;
mod loader;

pub use loader::{DataLoader, DataLoaderBuilder};
