//! The kernels, each a `#[cube]` function written once and compiled at run time for the dtype
//! of its operands (`#[define]` element types, no Rust monomorphisation per dtype), plus the
//! host functions that check their inputs and launch them.
//!
//! Every host function panics with a message naming the operation when its inputs are misused
//! (shapes that do not broadcast, mixed dtypes, tensors on different devices, a dtype the device
//! cannot compute with). Execution errors surface at the next read or sync.

/// Writes an operation enum from a table (`Variant => "name",` with a doc per variant): the
/// enum, `name()` for panic messages, and `ALL`, every operation in order (for tests).
macro_rules! op_table {
    ($(#[$doc:meta])* $ty:ident { $($(#[$vdoc:meta])* $variant:ident => $name:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
        pub enum $ty {
            $($(#[$vdoc])* $variant,)*
        }

        impl $ty {
            /// The operation's name, as used in panic messages.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }

            /// Every operation of the table.
            pub const ALL: [$ty; [$(stringify!($variant)),*].len()] = [$($ty::$variant),*];
        }
    };
}

mod binary;
mod bitwise;
mod bounds;
mod cast;
mod compare;
mod contiguous;
mod conv;
mod fill;
pub mod fused;
mod host;
mod index;
pub(crate) mod int_matmul;
mod interpolate;
mod logic;
mod mask;
mod matmul;
mod max_pool;
mod nn;
mod pool;
mod precision;
mod random;
mod reduce;
mod scalar;
mod scan;
mod scatter;
mod slice;
mod sort;
mod unary;

pub use binary::{BinaryOp, binary, binary_scalar};
pub use bitwise::{BitwiseOp, bitwise, bitwise_not, bitwise_scalar, int_abs, int_powi};
pub use cast::cast;
pub use compare::{CompareOp, compare, compare_scalar};
pub use contiguous::into_contiguous;
pub use conv::{conv_transpose2d, conv2d};
pub use fill::{arange, full, ones, zeros};
pub use index::{gather, select};
pub use int_matmul::int_matmul;
pub use interpolate::{interpolate, interpolate_backward};
pub use logic::{bool_and, bool_not, bool_or};
pub use mask::{mask_fill, mask_where};
pub use matmul::matmul;
pub use max_pool::{max_pool2d_with_indices, max_pool2d_with_indices_backward};
pub use pool::{
    adaptive_avg_pool2d, adaptive_avg_pool2d_backward, avg_pool2d, avg_pool2d_backward,
};
pub use random::random;
pub use reduce::{ReduceOp, reduce};
pub use scan::{ScanOp, scan};
pub use scatter::{scatter, select_add};
pub use slice::{flip, slice, slice_assign};
pub use sort::{argsort, sort, sort_with_indices};
pub use unary::{UnaryOp, unary};

pub(crate) use bounds::report as report_index_errors;
pub(crate) use contiguous::copy_strided;
