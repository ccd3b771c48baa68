//! `Display` for tensors: the values as nested lists, then shape, device and dtype.

use crate::Tensor;
use crate::kind::Basic;
use burn_backend::{DType, TensorData};
use core::fmt;

/// Elements printed per dim before eliding the middle with `...`.
const EDGE_ITEMS: usize = 3;
/// Dims longer than this are elided.
const ELIDE_THRESHOLD: usize = 10;

impl<const D: usize, K: Basic> fmt::Display for Tensor<D, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let data = self.to_data();
        writeln!(f, "Tensor {{")?;
        writeln!(f, "  data:")?;
        write_nested(f, &data, 0, 0)?;
        writeln!(f, ",")?;
        writeln!(f, "  shape:  {:?},", data.shape.dims)?;
        writeln!(f, "  device:  {},", self.device())?;
        writeln!(f, "  kind:  \"{}\",", K::NAME)?;
        writeln!(f, "  dtype:  \"{}\",", data.dtype)?;
        write!(f, "}}")
    }
}

/// Writes the sub-array of dim `dim` starting at flat `offset` (row-major).
fn write_nested(
    f: &mut fmt::Formatter<'_>,
    data: &TensorData,
    dim: usize,
    offset: usize,
) -> fmt::Result {
    let dims = &data.shape.dims;
    if dims.is_empty() {
        return write_value(f, data, 0);
    }
    let size = dims[dim];
    let inner: usize = dims[dim + 1..].iter().product();
    write!(f, "[")?;
    let indices: Vec<Option<usize>> = if size > ELIDE_THRESHOLD {
        (0..EDGE_ITEMS)
            .map(Some)
            .chain(core::iter::once(None))
            .chain((size - EDGE_ITEMS..size).map(Some))
            .collect()
    } else {
        (0..size).map(Some).collect()
    };
    for (n, index) in indices.iter().enumerate() {
        if n > 0 {
            write!(f, ",")?;
            if dim + 1 < dims.len() {
                write!(f, "\n{}", " ".repeat(dim + 1))?;
            } else {
                write!(f, " ")?;
            }
        }
        match index {
            None => write!(f, "...")?,
            Some(i) if dim + 1 == dims.len() => write_value(f, data, offset + i)?,
            Some(i) => write_nested(f, data, dim + 1, offset + i * inner)?,
        }
    }
    write!(f, "]")
}

fn write_value(f: &mut fmt::Formatter<'_>, data: &TensorData, index: usize) -> fmt::Result {
    if matches!(data.dtype, DType::QFloat(_)) {
        return write!(f, "?");
    }
    burn_backend::with_dtype!(data.dtype, E => {
        let values = data.as_slice::<E>().map_err(|_| fmt::Error)?;
        match f.precision() {
            Some(p) => write!(f, "{:.*}", p, values[index]),
            // Debug keeps the decimal point of whole floats (`14.0`, not `14`).
            None if data.dtype.is_float() => write!(f, "{:?}", values[index]),
            None => write!(f, "{}", values[index]),
        }
    })
}
