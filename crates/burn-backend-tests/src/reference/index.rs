//! Indexing: select, gather, scatter, one-hot, coordinates of non-zeros, triangles.

use super::RefArray;

impl RefArray {
    /// The slices at `indices` along `dim` (`torch.index_select`).
    pub fn select(&self, dim: usize, indices: &[usize]) -> Self {
        let mut shape = self.shape.clone();
        shape[dim] = indices.len();
        Self::from_fn(&shape, |index| {
            let mut source = index.to_vec();
            source[dim] = indices[index[dim]];
            self.at(&source)
        })
    }

    /// `self` with the slices of `values` added at `indices` along `dim` (`index_add`).
    pub fn select_add(&self, dim: usize, indices: &[usize], values: &Self) -> Self {
        let mut out = self.clone();
        for (index, v) in values.indexed() {
            let mut target = index.clone();
            target[dim] = indices[index[dim]];
            let old = out.at(&target);
            out.set(&target, old + v);
        }
        out
    }

    /// `out[p] = self[p with dim replaced by indices[p]]` (`torch.gather`).
    pub fn gather(&self, dim: usize, indices: &Self) -> Self {
        Self::from_fn(&indices.shape, |index| {
            let mut source = index.to_vec();
            source[dim] = indices.at(index) as usize;
            self.at(&source)
        })
    }

    /// `self` with `out[p with dim replaced by indices[p]] = f(old, values[p])` for every
    /// position `p` of `indices`, in row-major order (`torch.scatter_reduce`, self included).
    pub fn scatter(
        &self,
        dim: usize,
        indices: &Self,
        values: &Self,
        f: impl Fn(f64, f64) -> f64,
    ) -> Self {
        let mut out = self.clone();
        for (index, i) in indices.indexed() {
            let mut target = index.clone();
            target[dim] = i as usize;
            let old = out.at(&target);
            out.set(&target, f(old, values.at(&index)));
        }
        out
    }

    /// One-hot rows along a new last dim of `classes` entries.
    pub fn one_hot(&self, classes: usize) -> Self {
        let mut shape = self.shape.clone();
        shape.push(classes);
        Self::from_fn(&shape, |index| {
            let (last, lead) = index.split_last().expect("rank >= 1");
            (self.at(lead) as usize == *last) as u8 as f64
        })
    }

    /// The coordinates of the non-zero elements, `[count, rank]`, row-major order.
    pub fn argwhere(&self) -> Self {
        let coords: Vec<Vec<usize>> = self
            .indexed()
            .filter(|(_, v)| *v != 0.0)
            .map(|(i, _)| i)
            .collect();
        let data = coords.iter().flatten().map(|&c| c as f64).collect();
        Self::new(&[coords.len(), self.rank()], data)
    }

    /// Elements strictly above the `diagonal`-th diagonal of the last two dims set to zero.
    pub fn tril(&self, diagonal: i64) -> Self {
        self.triangle(|r, c| c - r <= diagonal)
    }

    /// Elements strictly below the `diagonal`-th diagonal of the last two dims set to zero.
    pub fn triu(&self, diagonal: i64) -> Self {
        self.triangle(|r, c| c - r >= diagonal)
    }

    fn triangle(&self, keep: impl Fn(i64, i64) -> bool) -> Self {
        let rank = self.rank();
        Self::from_fn(&self.shape, |index| {
            let (r, c) = (index[rank - 2] as i64, index[rank - 1] as i64);
            if keep(r, c) { self.at(index) } else { 0.0 }
        })
    }
}
