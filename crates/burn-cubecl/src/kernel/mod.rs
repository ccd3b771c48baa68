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
mod cast;
mod compare;
mod contiguous;
mod fill;
mod matmul;
mod precision;
mod random;
mod reduce;
mod scalar;
mod unary;

pub use binary::{BinaryOp, binary, binary_scalar};
pub use cast::cast;
pub use compare::{CompareOp, compare, compare_scalar};
pub use contiguous::into_contiguous;
pub use fill::{arange, full, ones, zeros};
pub use matmul::matmul;
pub use random::random;
pub use reduce::{ReduceOp, reduce};
pub use unary::{UnaryOp, unary};

pub(crate) use contiguous::copy_strided;
mod pending; pub use pending::*; // TEMP
