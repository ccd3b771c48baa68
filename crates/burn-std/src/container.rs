//! [`TensorContainer`]: values of any type (tensors, typically gradients) kept under an id.

use core::any::Any;
use core::fmt::Debug;
use core::hash::Hash;
use std::collections::HashMap;

/// A map from ids to values of any `Clone + Send` type, each read back as the type it was
/// registered with (Burn keeps a backward pass's gradients in one). Reading an entry as another
/// type panics, naming the id and both types.
pub struct TensorContainer<ID> {
    entries: HashMap<ID, Entry>,
}

/// A registered value and the name of its type, for the mismatch message.
struct Entry {
    value: Box<dyn Any + Send>,
    type_name: &'static str,
}

impl<ID: Hash + PartialEq + Eq + Debug> Default for TensorContainer<ID> {
    fn default() -> Self {
        Self::new()
    }
}

impl<ID: Debug> Debug for TensorContainer<ID> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(id, entry)| (id, entry.type_name)))
            .finish()
    }
}

impl<ID: Hash + PartialEq + Eq + Debug> TensorContainer<ID> {
    /// An empty container.
    pub fn new() -> Self {
        Self {
            entries: HashMap::new(),
        }
    }

    /// A clone of the value under `id`, or `None` when there is none.
    pub fn get<T: Clone + Send + 'static>(&self, id: &ID) -> Option<T> {
        let entry = self.entries.get(id)?;
        let value = entry.value.downcast_ref::<T>();
        Some(
            value
                .unwrap_or_else(|| mismatch::<T>(id, entry.type_name))
                .clone(),
        )
    }

    /// The value under `id`, to change in place, or `None` when there is none.
    pub fn get_mut_ref<T: Clone + Send + 'static>(&mut self, id: &ID) -> Option<&mut T> {
        let entry = self.entries.get_mut(id)?;
        let type_name = entry.type_name;
        Some(
            entry
                .value
                .downcast_mut::<T>()
                .unwrap_or_else(|| mismatch::<T>(id, type_name)),
        )
    }

    /// Stores `value` under `id`, replacing what was there.
    pub fn register<T: Clone + Send + 'static>(&mut self, id: ID, value: T) {
        let entry = Entry {
            value: Box::new(value),
            type_name: core::any::type_name::<T>(),
        };
        self.entries.insert(id, entry);
    }

    /// Takes the value under `id` out of the container.
    pub fn remove<T: Clone + Send + 'static>(&mut self, id: &ID) -> Option<T> {
        let entry = self.entries.remove(id)?;
        let type_name = entry.type_name;
        let value = entry
            .value
            .downcast::<T>()
            .unwrap_or_else(|_| mismatch::<T>(id, type_name));
        Some(*value)
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the container holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The ids of the values, in no particular order.
    pub fn ids(&self) -> Vec<&ID> {
        self.entries.keys().collect()
    }
}

/// Panics for a read of the value under `id` as `T` when it holds a `stored`.
fn mismatch<T>(id: &dyn Debug, stored: &str) -> ! {
    panic!(
        "TensorContainer: the value under {id:?} is a {stored}, read as a {}",
        core::any::type_name::<T>()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_back_as_registered() {
        let mut container = TensorContainer::<u32>::new();
        assert!(container.is_empty());
        container.register(1, vec![1.0f32, 2.0]);
        container.register(2, String::from("two"));
        assert_eq!(container.len(), 2);
        assert_eq!(container.get::<Vec<f32>>(&1), Some(vec![1.0, 2.0]));
        container.get_mut_ref::<Vec<f32>>(&1).unwrap().push(3.0);
        assert_eq!(container.remove::<Vec<f32>>(&1), Some(vec![1.0, 2.0, 3.0]));
        assert_eq!(container.get::<Vec<f32>>(&1), None);
        assert_eq!(container.ids(), vec![&2]);
    }

    #[test]
    #[should_panic(expected = "is a alloc::string::String, read as a u8")]
    fn reading_as_another_type_panics_with_both_types() {
        let mut container = TensorContainer::<&str>::new();
        container.register("name", String::from("x"));
        container.get::<u8>(&"name");
    }
}
