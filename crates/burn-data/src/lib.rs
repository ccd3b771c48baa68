//! Datasets, batchers and data loaders: what a training loop iterates over.
//!
//! ```
//! use burn_data::dataloader::{DataLoaderBuilder, batcher::Batcher};
//! use burn_data::dataset::{Dataset, InMemDataset};
//! use burn_tensor::{Device, Tensor, TensorData};
//!
//! #[derive(Clone)]
//! struct Stack;
//! impl Batcher<f32, Tensor<1>> for Stack {
//!     fn batch(&self, items: Vec<f32>, device: &Device) -> Tensor<1> {
//!         let len = items.len();
//!         Tensor::from_data(TensorData::new(items, [len]), device)
//!     }
//! }
//!
//! let dataset = InMemDataset::new((0..10).map(|i| i as f32).collect());
//! let loader = DataLoaderBuilder::new(Stack).batch_size(4).shuffle(7).build(dataset);
//! let sizes: Vec<usize> = loader.iter().map(|batch| batch.dims()[0]).collect();
//! assert_eq!(sizes, vec![4, 4, 2]);
//! ```
#![warn(missing_docs)]

pub mod dataloader;
pub mod dataset;
