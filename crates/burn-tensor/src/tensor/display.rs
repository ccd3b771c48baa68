//! `Display` for tensors (the values as nested lists, then shape, device, kind and dtype), and
//! the process-wide [`PrintOptions`] it follows.

use crate::Tensor;
use crate::kind::Basic;
use burn_backend::{DType, TensorData};
use core::fmt;
use std::sync::RwLock;

/// How tensors print ([`set_print_options`]): past `threshold` elements every dim longer than
/// `2 * edge_items` shows only its first and last `edge_items` entries; floats print with
/// `precision` digits after the point when set (a precision in the format string, `{:.2}`,
/// wins over it).
#[derive(Clone, Debug)]
pub struct PrintOptions {
    /// The element count above which dims are summarized.
    pub threshold: usize,
    /// How many entries a summarized dim shows at each end.
    pub edge_items: usize,
    /// Digits after the decimal point of floats; the shortest exact form when `None`.
    pub precision: Option<usize>,
}

impl PrintOptions {
    /// The defaults (threshold 1000, 3 edge items, no fixed precision), usable in a `const`.
    pub const fn const_default() -> Self {
        Self {
            threshold: 1000,
            edge_items: 3,
            precision: None,
        }
    }
}

impl Default for PrintOptions {
    fn default() -> Self {
        Self::const_default()
    }
}

static PRINT_OPTIONS: RwLock<PrintOptions> = RwLock::new(PrintOptions::const_default());

/// Sets how every tensor prints from now on, in every thread.
pub fn set_print_options(options: PrintOptions) {
    *PRINT_OPTIONS.write().unwrap_or_else(|e| e.into_inner()) = options;
}

impl<const D: usize, K: Basic> fmt::Display for Tensor<D, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let options = PRINT_OPTIONS
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let data = self.to_data();
        let layout = Layout {
            summarize: data.num_elements() > options.threshold,
            edge_items: options.edge_items,
            precision: f.precision().or(options.precision),
        };
        writeln!(f, "Tensor {{")?;
        writeln!(f, "  data:")?;
        layout.write_nested(f, &data, 0, 0)?;
        writeln!(f, ",")?;
        writeln!(f, "  shape:  {:?},", data.shape.dims)?;
        writeln!(f, "  device:  {},", self.device())?;
        writeln!(f, "  kind:  \"{}\",", K::NAME)?;
        writeln!(f, "  dtype:  \"{}\",", data.dtype)?;
        write!(f, "}}")
    }
}

/// The print options resolved for one tensor.
struct Layout {
    summarize: bool,
    edge_items: usize,
    precision: Option<usize>,
}

impl Layout {
    /// Writes the sub-array of dim `dim` starting at flat `offset` (row-major).
    fn write_nested(
        &self,
        f: &mut fmt::Formatter<'_>,
        data: &TensorData,
        dim: usize,
        offset: usize,
    ) -> fmt::Result {
        let dims = &data.shape.dims;
        if dims.is_empty() {
            return self.write_value(f, data, 0);
        }
        let size = dims[dim];
        let inner: usize = dims[dim + 1..].iter().product();
        let edge = self.edge_items;
        let indices: Vec<Option<usize>> = if self.summarize && size > 2 * edge {
            (0..edge)
                .map(Some)
                .chain(core::iter::once(None))
                .chain((size - edge..size).map(Some))
                .collect()
        } else {
            (0..size).map(Some).collect()
        };
        write!(f, "[")?;
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
                Some(i) if dim + 1 == dims.len() => self.write_value(f, data, offset + i)?,
                Some(i) => self.write_nested(f, data, dim + 1, offset + i * inner)?,
            }
        }
        write!(f, "]")
    }

    fn write_value(
        &self,
        f: &mut fmt::Formatter<'_>,
        data: &TensorData,
        index: usize,
    ) -> fmt::Result {
        if matches!(data.dtype, DType::QFloat(_)) {
            return write!(f, "?");
        }
        burn_backend::with_dtype!(data.dtype, E => {
            let values = data.as_slice::<E>().map_err(|_| fmt::Error)?;
            match self.precision {
                Some(p) if data.dtype.is_float() => write!(f, "{:.*}", p, values[index]),
                // Debug keeps the decimal point of whole floats (`14.0`, not `14`).
                _ if data.dtype.is_float() => write!(f, "{:?}", values[index]),
                _ => write!(f, "{}", values[index]),
            }
        })
    }
}
