//! Reductions along one dimension through cubek's reduce.

use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, assert_storage, elem_type};
use burn_backend::{DType, ExecutionError, Scalar};
use cubecl::config::autotune::AutotuneLevel;
use cubek::reduce::components::instructions::ReduceOperationConfig;
use cubek::reduce::launch::{RoutineStrategy, VectorizationStrategy};
use cubek::reduce::routines::{BlueprintStrategy, unit::UnitStrategy};
use cubek::reduce::{ReduceStrategy, reduce as cubek_reduce};

op_table! {
    /// A reduction along one dimension.
    ReduceOp {
        /// The sum.
        Sum => "sum_dim",
        /// The mean.
        Mean => "mean_dim",
        /// The product.
        Prod => "prod_dim",
        /// The largest value.
        Max => "max_dim",
        /// The smallest value.
        Min => "min_dim",
        /// The index of the largest value (the first one on ties).
        ArgMax => "argmax",
        /// The index of the smallest value (the first one on ties).
        ArgMin => "argmin",
    }
}

impl ReduceOp {
    fn config(self) -> ReduceOperationConfig {
        match self {
            ReduceOp::Sum => ReduceOperationConfig::Sum,
            ReduceOp::Mean => ReduceOperationConfig::Mean,
            ReduceOp::Prod => ReduceOperationConfig::Prod,
            ReduceOp::Max => ReduceOperationConfig::Max,
            ReduceOp::Min => ReduceOperationConfig::Min,
            ReduceOp::ArgMax => ReduceOperationConfig::ArgMax,
            ReduceOp::ArgMin => ReduceOperationConfig::ArgMin,
        }
    }

    fn is_arg(self) -> bool {
        matches!(self, ReduceOp::ArgMax | ReduceOp::ArgMin)
    }
}

/// `op` along `dim` of `input`; the result keeps the rank, with `dim` of size 1. Values keep
/// the input dtype (float sums and means accumulate in f32, or f64 for f64 inputs); `ArgMax`
/// and `ArgMin` produce indices of `index_dtype` (an integer dtype). A dimension of size 0 gives
/// the identity (0 for sums, 1 for products, NaN for a float mean) and is refused for
/// max/min/arg*.
///
/// # Panics
///
/// When `dim` is out of range, the dtype is boolean or unsupported, `index_dtype` is not an
/// integer dtype, or the reduced dimension is empty for an operation without an identity.
///
/// # Errors
///
/// When cubek has no kernel for this device and problem.
pub fn reduce(
    op: ReduceOp,
    input: CubeTensor,
    dim: usize,
    index_dtype: DType,
) -> Result<CubeTensor, ExecutionError> {
    let rank = input.shape.num_dims();
    assert!(
        dim < rank,
        "{}: dim {dim} out of range for shape {:?}",
        op.name(),
        input.shape.dims
    );
    let dtype = input.dtype;
    assert!(
        !dtype.is_bool(),
        "{}: expected a numeric tensor, got {dtype}",
        op.name()
    );
    assert_arithmetic(op.name(), &input.client, dtype);
    let out_dtype = if op.is_arg() {
        assert!(
            index_dtype.is_int(),
            "{}: the index dtype must be an integer dtype, got {index_dtype}",
            op.name()
        );
        assert_storage(op.name(), &input.client, index_dtype);
        index_dtype
    } else {
        dtype
    };
    let mut out_shape = input.shape.clone();
    out_shape.dims[dim] = 1;
    let output = input.empty_contiguous_like(out_shape.clone(), out_dtype);
    if out_shape.num_elements() == 0 {
        return Ok(output);
    }
    if input.shape.dims[dim] == 0 {
        let identity = match op {
            ReduceOp::Sum => Scalar::Int(0),
            ReduceOp::Prod => Scalar::Int(1),
            ReduceOp::Mean => Scalar::Float(f64::NAN),
            _ => panic!(
                "{}: cannot reduce the empty dim {dim} of shape {:?}",
                op.name(),
                input.shape.dims
            ),
        };
        return Ok(super::fill::fill(output, identity));
    }
    let client = input.client.clone();
    let config = op.config();
    let dtypes = config.precision(elem_type(dtype), Some(elem_type(out_dtype)));
    let strategy = ReduceStrategy {
        routine: RoutineStrategy::Unit(BlueprintStrategy::Inferred(UnitStrategy)),
        vectorization: VectorizationStrategy {
            parallel_output_vectorization: false,
        },
        autotune_level: AutotuneLevel::default(),
    };
    cubek_reduce(
        &client,
        input.binding(),
        output.clone().binding(),
        dim,
        strategy,
        config,
        dtypes,
    )
    .map_err(|err| ExecutionError::unsupported(op.name(), format!("{err}")))?;
    Ok(output)
}
