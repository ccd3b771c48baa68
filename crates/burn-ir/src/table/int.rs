//! The int tensor operations.

/// Hands the int operation table to `$callback` (see the [module docs](super)).
#[macro_export]
macro_rules! int_operations {
    ($callback:ident) => {
        $crate::int_operations!(@table $callback, [
                Neg = int_neg(tensor: I) -> I => |c| rules::same(c, &tensor);
                Sign = int_sign(tensor: I) -> I => |c| rules::same(c, &tensor);
                Clamp = int_clamp(tensor: I, min: Val[Scalar], max: Val[Scalar]) -> I => |c| rules::same(c, &tensor);
                PowiScalar = int_powi_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                Transpose = int_transpose(tensor: I) -> I => |c| rules::transpose(c, &tensor);
                MaxAbs = int_max_abs(tensor: I) -> I => |c| rules::reduce_all(c, &tensor);
                MaxAbsDim = int_max_abs_dim(tensor: I, dim: Val[usize]) -> I => |c| rules::reduce_dim(c, &tensor, dim);
        ]);
    };
    ($callback:ident, decomposed) => {
        $crate::int_operations!(@table $callback, []);
    };
    (@table $callback:ident, [$($composite:tt)*]) => {
        $callback! {
            IntOperationIr, IntTensorOps, "int";
            lazy {
                Random = int_random(shape: Val[Shape], distribution: Val[Distribution], device: Dev, dtype: Val[IntDType]) -> I
                    => |c| rules::new(c, &shape, dtype);
                Empty = int_empty(shape: Val[Shape], device: Dev, dtype: Val[IntDType]) -> I
                    => |c| rules::new(c, &shape, dtype);
                Zeros = int_zeros(shape: Val[Shape], device: Dev, dtype: Val[IntDType]) -> I
                    => |c| rules::new(c, &shape, dtype);
                Ones = int_ones(shape: Val[Shape], device: Dev, dtype: Val[IntDType]) -> I
                    => |c| rules::new(c, &shape, dtype);
                Full = int_full(shape: Val[Shape], value: Val[Scalar], device: Dev, dtype: Val[IntDType]) -> I
                    => |c| rules::new(c, &shape, dtype);
                ArangeStep = int_arange_step(range: Val[Range<i64>], step: Val[usize], device: Dev, dtype: Val[IntDType]) -> I
                    => |c| rules::arange(c, &range, step, dtype);
                IntoFloat = int_into_float(tensor: I, out_dtype: Val[FloatDType]) -> F
                    => |c| rules::cast(c, &tensor, out_dtype);
                Cast = int_cast(tensor: I, dtype: Val[IntDType]) -> I => |c| rules::cast(c, &tensor, dtype);

                Add = int_add(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                AddScalar = int_add_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                Sub = int_sub(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                SubScalar = int_sub_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                Mul = int_mul(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                MulScalar = int_mul_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                Div = int_div(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                DivScalar = int_div_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                Remainder = int_remainder(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                RemainderScalar = int_remainder_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                Powi = int_powi(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                Matmul = int_matmul(lhs: I, rhs: I) -> I => |c| rules::matmul(c, &lhs, &rhs);
                Abs = int_abs(tensor: I) -> I => |c| rules::same(c, &tensor);
                ClampMin = int_clamp_min(tensor: I, min: Val[Scalar]) -> I => |c| rules::same(c, &tensor);
                ClampMax = int_clamp_max(tensor: I, max: Val[Scalar]) -> I => |c| rules::same(c, &tensor);

                BitwiseAnd = bitwise_and(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                BitwiseAndScalar = bitwise_and_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                BitwiseOr = bitwise_or(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                BitwiseOrScalar = bitwise_or_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                BitwiseXor = bitwise_xor(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                BitwiseXorScalar = bitwise_xor_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                BitwiseNot = bitwise_not(tensor: I) -> I => |c| rules::same(c, &tensor);
                BitwiseLeftShift = bitwise_left_shift(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                BitwiseLeftShiftScalar = bitwise_left_shift_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);
                BitwiseRightShift = bitwise_right_shift(lhs: I, rhs: I) -> I => |c| rules::broadcast(c, &lhs, &rhs);
                BitwiseRightShiftScalar = bitwise_right_shift_scalar(lhs: I, rhs: Val[Scalar]) -> I => |c| rules::same(c, &lhs);

                SwapDims = int_swap_dims(tensor: I, dim1: Val[usize], dim2: Val[usize]) -> I
                    => |c| rules::swap_dims(c, &tensor, dim1, dim2);
                Permute = int_permute(tensor: I, axes: Slice[usize]) -> I => |c| rules::permute(c, &tensor, &axes);
                Flip = int_flip(tensor: I, axes: Slice[usize]) -> I => |c| rules::same(c, &tensor);
                Reshape = int_reshape(tensor: I, shape: Val[Shape]) -> I => |c| rules::reshape(c, &tensor, &shape);
                Expand = int_expand(tensor: I, shape: Val[Shape]) -> I => |c| rules::expand(c, &tensor, &shape);
                SliceOp = int_slice(tensor: I, slices: Slice[Slice]) -> I => |c| rules::slice(c, &tensor, &slices);
                SliceAssign = int_slice_assign(tensor: I, slices: Slice[Slice], value: I) -> I => |c| rules::same(c, &tensor);
                Gather = int_gather(dim: Val[usize], tensor: I, indices: I) -> I => |c| rules::gather(c, &tensor, &indices);
                Scatter = int_scatter(dim: Val[usize], tensor: I, indices: I, value: I, update: Val[IndexingUpdateOp]) -> I
                    => |c| rules::same(c, &tensor);
                Select = int_select(tensor: I, dim: Val[usize], indices: I) -> I => |c| rules::select(c, &tensor, dim, &indices);
                SelectAdd = int_select_add(tensor: I, dim: Val[usize], indices: I, value: I) -> I => |c| rules::same(c, &tensor);
                MaskWhere = int_mask_where(tensor: I, mask: B, value: I) -> I => |c| rules::mask_where(c, &tensor, &mask, &value);
                MaskFill = int_mask_fill(tensor: I, mask: B, value: Val[Scalar]) -> I => |c| rules::mask_fill(c, &tensor, &mask);
                Cat = int_cat(tensors: VecI, dim: Val[usize]) -> I => |c| rules::cat(c, &tensors, dim);
                RepeatDim = int_repeat_dim(tensor: I, dim: Val[usize], times: Val[usize]) -> I
                    => |c| rules::repeat_dim(c, &tensor, dim, times);

                Equal = int_equal(lhs: I, rhs: I) -> B => |c| rules::compare(c, &lhs, &rhs);
                EqualElem = int_equal_elem(lhs: I, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                NotEqual = int_not_equal(lhs: I, rhs: I) -> B => |c| rules::compare(c, &lhs, &rhs);
                NotEqualElem = int_not_equal_elem(lhs: I, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                Greater = int_greater(lhs: I, rhs: I) -> B => |c| rules::compare(c, &lhs, &rhs);
                GreaterElem = int_greater_elem(lhs: I, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                GreaterEqual = int_greater_equal(lhs: I, rhs: I) -> B => |c| rules::compare(c, &lhs, &rhs);
                GreaterEqualElem = int_greater_equal_elem(lhs: I, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                Lower = int_lower(lhs: I, rhs: I) -> B => |c| rules::compare(c, &lhs, &rhs);
                LowerElem = int_lower_elem(lhs: I, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);
                LowerEqual = int_lower_equal(lhs: I, rhs: I) -> B => |c| rules::compare(c, &lhs, &rhs);
                LowerEqualElem = int_lower_equal_elem(lhs: I, rhs: Val[Scalar]) -> B => |c| rules::compare_scalar(c, &lhs);

                Sum = int_sum(tensor: I) -> I => |c| rules::reduce_all(c, &tensor);
                Prod = int_prod(tensor: I) -> I => |c| rules::reduce_all(c, &tensor);
                Max = int_max(tensor: I) -> I => |c| rules::reduce_all(c, &tensor);
                Min = int_min(tensor: I) -> I => |c| rules::reduce_all(c, &tensor);
                SumDim = int_sum_dim(tensor: I, dim: Val[usize]) -> I => |c| rules::reduce_dim(c, &tensor, dim);
                ProdDim = int_prod_dim(tensor: I, dim: Val[usize]) -> I => |c| rules::reduce_dim(c, &tensor, dim);
                MeanDim = int_mean_dim(tensor: I, dim: Val[usize]) -> I => |c| rules::reduce_dim(c, &tensor, dim);
                MaxDim = int_max_dim(tensor: I, dim: Val[usize]) -> I => |c| rules::reduce_dim(c, &tensor, dim);
                MinDim = int_min_dim(tensor: I, dim: Val[usize]) -> I => |c| rules::reduce_dim(c, &tensor, dim);
                ArgMax = int_argmax(tensor: I, dim: Val[usize]) -> I => |c| rules::arg_dim(c, &tensor, dim);
                ArgMin = int_argmin(tensor: I, dim: Val[usize]) -> I => |c| rules::arg_dim(c, &tensor, dim);
                CumSum = int_cumsum(tensor: I, dim: Val[usize]) -> I => |c| rules::same(c, &tensor);
                CumProd = int_cumprod(tensor: I, dim: Val[usize]) -> I => |c| rules::same(c, &tensor);
                CumMin = int_cummin(tensor: I, dim: Val[usize]) -> I => |c| rules::same(c, &tensor);
                CumMax = int_cummax(tensor: I, dim: Val[usize]) -> I => |c| rules::same(c, &tensor);
                Sort = int_sort(tensor: I, dim: Val[usize], descending: Val[bool]) -> I => |c| rules::same(c, &tensor);
                SortWithIndices = int_sort_with_indices(tensor: I, dim: Val[usize], descending: Val[bool]) -> II
                    => |c| rules::with_indices(c, rules::same(c, &tensor));
                ArgSort = int_argsort(tensor: I, dim: Val[usize], descending: Val[bool]) -> I
                    => |c| rules::cast(c, &tensor, c.settings.int_dtype);
                $($composite)*
            }
            eager {}
        }
    };
}
