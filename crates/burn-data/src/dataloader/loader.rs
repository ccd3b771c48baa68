//! `DataLoader` and its builder.

use super::batcher::Batcher;
use crate::dataset::Dataset;
use burn_tensor::Device;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::cell::Cell;
use std::sync::Arc;

/// Builds a [`DataLoader`]: batch size, shuffling seed, device.
pub struct DataLoaderBuilder<I, O> {
    batcher: Arc<dyn Batcher<I, O>>,
    batch_size: usize,
    shuffle: Option<u64>,
    device: Device,
}

impl<I: 'static, O: 'static> DataLoaderBuilder<I, O> {
    /// A builder with `batcher`, batch size 1, no shuffling, the default device.
    pub fn new(batcher: impl Batcher<I, O> + 'static) -> Self {
        Self {
            batcher: Arc::new(batcher),
            batch_size: 1,
            shuffle: None,
            device: Device::default(),
        }
    }

    /// Items per batch (the last batch may be smaller).
    pub fn batch_size(mut self, batch_size: usize) -> Self {
        assert!(
            batch_size > 0,
            "DataLoaderBuilder::batch_size: expected a positive size, got 0"
        );
        self.batch_size = batch_size;
        self
    }

    /// Shuffle the items every epoch, reproducibly from `seed`.
    pub fn shuffle(mut self, seed: u64) -> Self {
        self.shuffle = Some(seed);
        self
    }

    /// Build batches on `device`.
    pub fn set_device(mut self, device: Device) -> Self {
        self.device = device;
        self
    }

    /// The loader over `dataset`.
    pub fn build(self, dataset: impl Dataset<I> + 'static) -> DataLoader<I, O> {
        DataLoader {
            dataset: Arc::new(dataset),
            batcher: self.batcher,
            batch_size: self.batch_size,
            shuffle: self.shuffle,
            device: self.device,
            epoch: Cell::new(0),
        }
    }
}

/// A dataset cut into batches; each call to [`iter`](Self::iter) is one epoch (with a new
/// shuffled order when shuffling).
pub struct DataLoader<I, O> {
    dataset: Arc<dyn Dataset<I>>,
    batcher: Arc<dyn Batcher<I, O>>,
    batch_size: usize,
    shuffle: Option<u64>,
    device: Device,
    epoch: Cell<u64>,
}

impl<I, O> DataLoader<I, O> {
    /// The batches of the next epoch (each call advances the epoch count, so shuffled orders
    /// differ from epoch to epoch).
    pub fn iter(&self) -> impl Iterator<Item = O> + '_ {
        let epoch = self.epoch.get();
        self.epoch.set(epoch + 1);
        self.iter_epoch(epoch)
    }

    /// The batches of epoch `epoch` (from 0): the order depends only on the seed and the
    /// epoch, so a resumed run sees the same batches as an uninterrupted one.
    pub fn iter_epoch(&self, epoch: u64) -> impl Iterator<Item = O> + '_ {
        let mut order: Vec<usize> = (0..self.dataset.len()).collect();
        if let Some(seed) = self.shuffle {
            order.shuffle(&mut StdRng::seed_from_u64(seed.wrapping_add(epoch)));
        }
        let chunks: Vec<Vec<usize>> = order
            .chunks(self.batch_size)
            .map(<[usize]>::to_vec)
            .collect();
        chunks.into_iter().map(move |indices| {
            let items = indices
                .into_iter()
                .map(|i| self.dataset.get(i).expect("index within the dataset"))
                .collect();
            self.batcher.batch(items, &self.device)
        })
    }

    /// The number of items per epoch.
    pub fn num_items(&self) -> usize {
        self.dataset.len()
    }

    /// The number of batches per epoch.
    pub fn num_batches(&self) -> usize {
        self.dataset.len().div_ceil(self.batch_size)
    }

    /// The device batches are built on.
    pub fn device(&self) -> &Device {
        &self.device
    }
}
