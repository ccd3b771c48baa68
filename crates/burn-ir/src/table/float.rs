//! The float tensor operations.

/// Hands the float operation table to `$callback` (see the [module docs](super)).
#[macro_export]
macro_rules! float_operations {
    ($callback:ident) => {
        $crate::float_operations!(@table $callback, [
                Powi = float_powi(lhs: F, rhs: I) -> F => |c| rules::broadcast(c, &lhs, &rhs);
                PowiScalar = float_powi_scalar(lhs: F, rhs: Val[Scalar]) -> F => |c| rules::same(c, &lhs);
                IsInf = float_is_inf(tensor: F) -> B => |c| rules::compare_scalar(c, &tensor);
                Transpose = float_transpose(tensor: F) -> F => |c| rules::transpose(c, &tensor);
                MaxAbs = float_max_abs(tensor: F) -> F => |c| rules::reduce_all(c, &tensor);
                MaxAbsDim = float_max_abs_dim(tensor: F, dim: Val[usize]) -> F => |c| rules::reduce_dim(c, &tensor, dim);
        ]);
    };
    ($callback:ident, decomposed) => {
        $crate::float_operations!(@table $callback, []);
    };
    (@table $callback:ident, [$($composite:tt)*]) => {
        $callback! {
            FloatOperationIr, FloatTensorOps, "float";
            lazy {
                Random = float_random(shape: Val[Shape], distribution: Val[Distribution], device: Dev, dtype: Val[FloatDType]) -> F
                    => |c| rules::new(c, &shape, dtype);
                Empty = float_empty(shape: Val[Shape], device: Dev, dtype: Val[FloatDType]) -> F
                    => |c| rules::new(c, &shape, dtype);
                Zeros = float_zeros(shape: Val[Shape], device: Dev, dtype: Val[FloatDType]) -> F
                    => |c| rules::new(c, &shape, dtype);
                Ones = float_ones(shape: Val[Shape], device: Dev, dtype: Val[FloatDType]) -> F
                    => |c| rules::new(c, &shape, dtype);
                Full = float_full(shape: Val[Shape], value: Val[Scalar], device: Dev, dtype: Val[FloatDType]) -> F
                    => |c| rules::new(c, &shape, dtype);
                IntoInt = float_into_int(tensor: F, out_dtype: Val[IntDType]) -> I
                    => |c| rules::cast(c, &tensor, out_dtype);
                Cast = float_cast(tensor: F, dtype: Val[FloatDType]) -> F
                    => |c| rules::cast(c, &tensor, dtype);

                Add = float_add(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                AddScalar = float_add_scalar(lhs: F, rhs: Val[Scalar]) -> F => |c| rules::same(c, &lhs);
                Sub = float_sub(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                SubScalar = float_sub_scalar(lhs: F, rhs: Val[Scalar]) -> F => |c| rules::same(c, &lhs);
                Mul = float_mul(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                MulScalar = float_mul_scalar(lhs: F, rhs: Val[Scalar]) -> F => |c| rules::same(c, &lhs);
                Div = float_div(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                DivScalar = float_div_scalar(lhs: F, rhs: Val[Scalar]) -> F => |c| rules::same(c, &lhs);
                Remainder = float_remainder(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                RemainderScalar = float_remainder_scalar(lhs: F, rhs: Val[Scalar]) -> F => |c| rules::same(c, &lhs);
                Powf = float_powf(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                PowfScalar = float_powf_scalar(lhs: F, rhs: Val[Scalar]) -> F => |c| rules::same(c, &lhs);
                Atan2 = float_atan2(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                Hypot = float_hypot(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
                Matmul = float_matmul(lhs: F, rhs: F) -> F => |c| rules::matmul(c, &lhs, &rhs);

                Neg = float_neg(tensor: F) -> F => |c| rules::same(c, &tensor);
                Recip = float_recip(tensor: F) -> F => |c| rules::same(c, &tensor);
                Exp = float_exp(tensor: F) -> F => |c| rules::same(c, &tensor);
                Log = float_log(tensor: F) -> F => |c| rules::same(c, &tensor);
                Log1p = float_log1p(tensor: F) -> F => |c| rules::same(c, &tensor);
                Sqrt = float_sqrt(tensor: F) -> F => |c| rules::same(c, &tensor);
                Abs = float_abs(tensor: F) -> F => |c| rules::same(c, &tensor);
                Cos = float_cos(tensor: F) -> F => |c| rules::same(c, &tensor);
                Sin = float_sin(tensor: F) -> F => |c| rules::same(c, &tensor);
                Tan = float_tan(tensor: F) -> F => |c| rules::same(c, &tensor);
                Cosh = float_cosh(tensor: F) -> F => |c| rules::same(c, &tensor);
                Sinh = float_sinh(tensor: F) -> F => |c| rules::same(c, &tensor);
                Tanh = float_tanh(tensor: F) -> F => |c| rules::same(c, &tensor);
                Asin = float_asin(tensor: F) -> F => |c| rules::same(c, &tensor);
                Acos = float_acos(tensor: F) -> F => |c| rules::same(c, &tensor);
                Atan = float_atan(tensor: F) -> F => |c| rules::same(c, &tensor);
                Asinh = float_asinh(tensor: F) -> F => |c| rules::same(c, &tensor);
                Acosh = float_acosh(tensor: F) -> F => |c| rules::same(c, &tensor);
                Atanh = float_atanh(tensor: F) -> F => |c| rules::same(c, &tensor);
                Erf = float_erf(tensor: F) -> F => |c| rules::same(c, &tensor);
                Round = float_round(tensor: F) -> F => |c| rules::same(c, &tensor);
                Floor = float_floor(tensor: F) -> F => |c| rules::same(c, &tensor);
                Ceil = float_ceil(tensor: F) -> F => |c| rules::same(c, &tensor);
                Trunc = float_trunc(tensor: F) -> F => |c| rules::same(c, &tensor);
                Sign = float_sign(tensor: F) -> F => |c| rules::same(c, &tensor);
                IsNan = float_is_nan(tensor: F) -> B => |c| rules::compare_scalar(c, &tensor);
                ClampMin = float_clamp_min(tensor: F, min: Val[Scalar]) -> F => |c| rules::same(c, &tensor);
                ClampMax = float_clamp_max(tensor: F, max: Val[Scalar]) -> F => |c| rules::same(c, &tensor);
                Clamp = float_clamp(tensor: F, min: Val[Scalar], max: Val[Scalar]) -> F => |c| rules::same(c, &tensor);

                SwapDims = float_swap_dims(tensor: F, dim1: Val[usize], dim2: Val[usize]) -> F
                    => |c| rules::swap_dims(c, &tensor, dim1, dim2);
                Permute = float_permute(tensor: F, axes: Slice[usize]) -> F => |c| rules::permute(c, &tensor, &axes);
                Flip = float_flip(tensor: F, axes: Slice[usize]) -> F => |c| rules::same(c, &tensor);
                Reshape = float_reshape(tensor: F, shape: Val[Shape]) -> F => |c| rules::reshape(c, &tensor, &shape);
                Expand = float_expand(tensor: F, shape: Val[Shape]) -> F => |c| rules::expand(c, &tensor, &shape);
                SliceOp = float_slice(tensor: F, slices: Slice[Slice]) -> F => |c| rules::slice(c, &tensor, &slices);
                SliceAssign = float_slice_assign(tensor: F, slices: Slice[Slice], value: F) -> F
                    => |c| rules::same(c, &tensor);
                Gather = float_gather(dim: Val[usize], tensor: F, indices: I) -> F => |c| rules::gather(c, &tensor, &indices);
                Scatter = float_scatter(dim: Val[usize], tensor: F, indices: I, value: F, update: Val[IndexingUpdateOp]) -> F
                    => |c| rules::same(c, &tensor);
                Select = float_select(tensor: F, dim: Val[usize], indices: I) -> F
                    => |c| rules::select(c, &tensor, dim, &indices);
                SelectAdd = float_select_add(tensor: F, dim: Val[usize], indices: I, value: F) -> F
                    => |c| rules::same(c, &tensor);
                MaskWhere = float_mask_where(tensor: F, mask: B, value: F) -> F
                    => |c| rules::mask_where(c, &tensor, &mask, &value);
                MaskFill = float_mask_fill(tensor: F, mask: B, value: Val[Scalar]) -> F
                    => |c| rules::mask_fill(c, &tensor, &mask);
                Cat = float_cat(tensors: VecF, dim: Val[usize]) -> F => |c| rules::cat(c, &tensors, dim);
                RepeatDim = float_repeat_dim(tensor: F, dim: Val[usize], times: Val[usize]) -> F
                    => |c| rules::repeat_dim(c, &tensor, dim, times);

                Equal = float_equal(lhs: F, rhs: F) -> B => |c| rules::compare(c, &lhs, &rhs);
                EqualElem = float_equal_elem(lhs: F, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                NotEqual = float_not_equal(lhs: F, rhs: F) -> B => |c| rules::compare(c, &lhs, &rhs);
                NotEqualElem = float_not_equal_elem(lhs: F, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                Greater = float_greater(lhs: F, rhs: F) -> B => |c| rules::compare(c, &lhs, &rhs);
                GreaterElem = float_greater_elem(lhs: F, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                GreaterEqual = float_greater_equal(lhs: F, rhs: F) -> B => |c| rules::compare(c, &lhs, &rhs);
                GreaterEqualElem = float_greater_equal_elem(lhs: F, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                Lower = float_lower(lhs: F, rhs: F) -> B => |c| rules::compare(c, &lhs, &rhs);
                LowerElem = float_lower_elem(lhs: F, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                LowerEqual = float_lower_equal(lhs: F, rhs: F) -> B => |c| rules::compare(c, &lhs, &rhs);
                LowerEqualElem = float_lower_equal_elem(lhs: F, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);

                Sum = float_sum(tensor: F) -> F => |c| rules::reduce_all(c, &tensor);
                Mean = float_mean(tensor: F) -> F => |c| rules::reduce_all(c, &tensor);
                Prod = float_prod(tensor: F) -> F => |c| rules::reduce_all(c, &tensor);
                Max = float_max(tensor: F) -> F => |c| rules::reduce_all(c, &tensor);
                Min = float_min(tensor: F) -> F => |c| rules::reduce_all(c, &tensor);
                SumDim = float_sum_dim(tensor: F, dim: Val[usize]) -> F => |c| rules::reduce_dim(c, &tensor, dim);
                ProdDim = float_prod_dim(tensor: F, dim: Val[usize]) -> F => |c| rules::reduce_dim(c, &tensor, dim);
                MeanDim = float_mean_dim(tensor: F, dim: Val[usize]) -> F => |c| rules::reduce_dim(c, &tensor, dim);
                MaxDim = float_max_dim(tensor: F, dim: Val[usize]) -> F => |c| rules::reduce_dim(c, &tensor, dim);
                MinDim = float_min_dim(tensor: F, dim: Val[usize]) -> F => |c| rules::reduce_dim(c, &tensor, dim);
                MaxDimWithIndices = float_max_dim_with_indices(tensor: F, dim: Val[usize]) -> FI
                    => |c| rules::with_indices(c, rules::reduce_dim(c, &tensor, dim));
                MinDimWithIndices = float_min_dim_with_indices(tensor: F, dim: Val[usize]) -> FI
                    => |c| rules::with_indices(c, rules::reduce_dim(c, &tensor, dim));
                ArgMax = float_argmax(tensor: F, dim: Val[usize]) -> I => |c| rules::arg_dim(c, &tensor, dim);
                ArgMin = float_argmin(tensor: F, dim: Val[usize]) -> I => |c| rules::arg_dim(c, &tensor, dim);
                CumSum = float_cumsum(tensor: F, dim: Val[usize]) -> F => |c| rules::same(c, &tensor);
                CumProd = float_cumprod(tensor: F, dim: Val[usize]) -> F => |c| rules::same(c, &tensor);
                CumMin = float_cummin(tensor: F, dim: Val[usize]) -> F => |c| rules::same(c, &tensor);
                CumMax = float_cummax(tensor: F, dim: Val[usize]) -> F => |c| rules::same(c, &tensor);
                Sort = float_sort(tensor: F, dim: Val[usize], descending: Val[bool]) -> F => |c| rules::same(c, &tensor);
                SortWithIndices = float_sort_with_indices(tensor: F, dim: Val[usize], descending: Val[bool]) -> FI
                    => |c| rules::with_indices(c, rules::same(c, &tensor));
                ArgSort = float_argsort(tensor: F, dim: Val[usize], descending: Val[bool]) -> I
                    => |c| rules::cast(c, &tensor, c.settings.int_dtype);
                $($composite)*
            }
            eager {}
        }
    };
}
