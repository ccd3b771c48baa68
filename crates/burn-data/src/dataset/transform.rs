//! Views of a dataset: a shuffled order and a contiguous part (for train/valid splits).

use super::base::Dataset;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::marker::PhantomData;

/// `dataset` in an order shuffled once with `seed`.
pub struct ShuffledDataset<D, I> {
    dataset: D,
    order: Vec<usize>,
    _item: PhantomData<fn() -> I>,
}

impl<D: Dataset<I>, I> ShuffledDataset<D, I> {
    /// The items of `dataset` in a fixed order drawn with `seed`.
    pub fn with_seed(dataset: D, seed: u64) -> Self {
        let mut order: Vec<usize> = (0..dataset.len()).collect();
        order.shuffle(&mut StdRng::seed_from_u64(seed));
        Self {
            dataset,
            order,
            _item: PhantomData,
        }
    }
}

impl<D: Dataset<I>, I> Dataset<I> for ShuffledDataset<D, I> {
    fn get(&self, index: usize) -> Option<I> {
        self.dataset.get(*self.order.get(index)?)
    }
    fn len(&self) -> usize {
        self.order.len()
    }
}

/// The items `start..end` of `dataset`.
pub struct PartialDataset<D, I> {
    dataset: D,
    start: usize,
    end: usize,
    _item: PhantomData<fn() -> I>,
}

impl<D: Dataset<I>, I> PartialDataset<D, I> {
    /// The items `start..end` (clamped to the dataset).
    pub fn new(dataset: D, start: usize, end: usize) -> Self {
        let end = end.min(dataset.len());
        Self {
            dataset,
            start: start.min(end),
            end,
            _item: PhantomData,
        }
    }
}

impl<D: Dataset<I>, I> Dataset<I> for PartialDataset<D, I> {
    fn get(&self, index: usize) -> Option<I> {
        if index < self.end - self.start {
            self.dataset.get(self.start + index)
        } else {
            None
        }
    }
    fn len(&self) -> usize {
        self.end - self.start
    }
}
