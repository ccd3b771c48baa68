//! The operation IR of the fusion decorator: what each backend operation reads and writes,
//! recorded without running it.
//!
//! Every operation of the backend contract that `Fusion<B>` records lazily has a variant here,
//! generated from the tables in [`table`] (one line per operation: its variant, its arguments by
//! kind, its output rule). Tensors are named by [`TensorId`] and carry their shape, dtype and
//! [`TensorStatus`]. Every operation serializes (serde), so a recorded sequence can be stored
//! or sent and replayed elsewhere.

#[macro_use]
pub mod table;
pub mod execute;
mod operation;
mod record;
mod relative;
pub mod rules;
mod tensor;

pub use execute::{ExecutionContext, Handle, execute};
pub use operation::*;
pub use relative::{RelativeKey, relative_key};
pub use rules::{RuleCtx, TensorSpec};
pub use tensor::{TensorId, TensorIr, TensorStatus};

/// The IR form of each argument kind of the operation tables (see [`table`]).
#[macro_export]
#[doc(hidden)]
macro_rules! ir_arg_ty {
    (F) => { $crate::TensorIr };
    (I) => { $crate::TensorIr };
    (B) => { $crate::TensorIr };
    (OptF) => { ::core::option::Option<$crate::TensorIr> };
    (OptB) => { ::core::option::Option<$crate::TensorIr> };
    (VecF) => { ::std::vec::Vec<$crate::TensorIr> };
    (VecI) => { ::std::vec::Vec<$crate::TensorIr> };
    (VecB) => { ::std::vec::Vec<$crate::TensorIr> };
    (Dev) => { () };
    (Val $t:ty) => { $t };
    (Slice $t:ty) => { ::std::vec::Vec<$t> };
}

/// The IR form of each output kind of the operation tables.
#[macro_export]
#[doc(hidden)]
macro_rules! ir_out_ty {
    (F) => {
        $crate::TensorIr
    };
    (I) => {
        $crate::TensorIr
    };
    (B) => {
        $crate::TensorIr
    };
    (FI) => {
        [$crate::TensorIr; 2]
    };
    (II) => {
        [$crate::TensorIr; 2]
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_backend::{ConvOptions, DType, Distribution, FloatDType, Scalar, Shape, Slice};

    fn tensor(id: u64, dims: &[usize], status: TensorStatus) -> TensorIr {
        TensorIr {
            id: TensorId(id),
            shape: Shape::new(dims.to_vec()),
            dtype: DType::F32,
            status,
        }
    }

    #[test]
    fn operations_round_trip_through_json() {
        let ops: Vec<OperationIr> = vec![
            FloatOperationIr::AddScalar {
                lhs: tensor(0, &[2, 3], TensorStatus::ReadWrite),
                rhs: Scalar::Float(0.5),
                out: tensor(1, &[2, 3], TensorStatus::NotInit),
            }
            .into(),
            FloatOperationIr::SliceOp {
                tensor: tensor(1, &[2, 3], TensorStatus::ReadOnly),
                slices: vec![Slice::new(0, Some(1), 1), Slice::new(-2, None, 1)],
                out: tensor(2, &[1, 2], TensorStatus::NotInit),
            }
            .into(),
            FloatOperationIr::Random {
                shape: Shape::new([4]),
                distribution: Distribution::Normal(0.0, 2.0),
                device: (),
                dtype: FloatDType::F32,
                out: tensor(3, &[4], TensorStatus::NotInit),
            }
            .into(),
            ModuleOperationIr::Conv2d {
                x: tensor(4, &[1, 1, 4, 4], TensorStatus::ReadOnly),
                weight: tensor(5, &[1, 1, 3, 3], TensorStatus::ReadOnly),
                bias: None,
                options: ConvOptions::new([1, 2], [1, 0], [1, 1], 1),
                out: tensor(6, &[1, 1, 4, 1], TensorStatus::NotInit),
            }
            .into(),
        ];
        let json = serde_json::to_string(&ops).unwrap();
        let back: Vec<OperationIr> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ops);
        assert_eq!(back[3].name(), "conv2d");
    }

    #[test]
    fn relative_keys_ignore_ids_and_scalars_but_not_statuses() {
        let op = |base: u64, value: f64, status| -> OperationIr {
            FloatOperationIr::MulScalar {
                lhs: tensor(base, &[8], status),
                rhs: Scalar::Float(value),
                out: tensor(base + 1, &[8], TensorStatus::NotInit),
            }
            .into()
        };
        let a = relative_key(&[op(10, 0.1, TensorStatus::ReadWrite)]);
        let b = relative_key(&[op(70, 0.2, TensorStatus::ReadWrite)]);
        let c = relative_key(&[op(10, 0.1, TensorStatus::ReadOnly)]);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
