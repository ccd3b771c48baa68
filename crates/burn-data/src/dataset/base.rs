//! `Dataset` and the in-memory dataset.

/// An indexed collection of items.
pub trait Dataset<I>: Send + Sync {
    /// The item at `index`, `None` past the end.
    fn get(&self, index: usize) -> Option<I>;
    /// The number of items.
    fn len(&self) -> usize;
    /// Whether there is no item.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The items in order.
    fn iter(&self) -> DatasetIterator<'_, I>
    where
        Self: Sized,
    {
        DatasetIterator {
            dataset: self,
            index: 0,
        }
    }
}

/// Iterates a dataset in index order.
pub struct DatasetIterator<'a, I> {
    dataset: &'a dyn Dataset<I>,
    index: usize,
}

impl<I> Iterator for DatasetIterator<'_, I> {
    type Item = I;
    fn next(&mut self) -> Option<I> {
        let item = self.dataset.get(self.index)?;
        self.index += 1;
        Some(item)
    }
}

/// A dataset held in a `Vec`.
#[derive(Debug, Clone)]
pub struct InMemDataset<I> {
    items: Vec<I>,
}

impl<I> InMemDataset<I> {
    /// A dataset of `items`.
    pub fn new(items: Vec<I>) -> Self {
        Self { items }
    }
}

impl<I: Clone + Send + Sync> Dataset<I> for InMemDataset<I> {
    fn get(&self, index: usize) -> Option<I> {
        self.items.get(index).cloned()
    }
    fn len(&self) -> usize {
        self.items.len()
    }
}

impl<I, D: Dataset<I> + ?Sized> Dataset<I> for std::sync::Arc<D> {
    fn get(&self, index: usize) -> Option<I> {
        (**self).get(index)
    }
    fn len(&self) -> usize {
        (**self).len()
    }
}
