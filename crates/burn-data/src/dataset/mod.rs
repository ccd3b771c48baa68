//! Datasets: indexed collections of items.

mod base;
mod transform;

pub use base::{Dataset, DatasetIterator, InMemDataset};
pub use transform::{PartialDataset, ShuffledDataset};
