//! The bool tensor operations.

/// Hands the bool operation table to `$callback` (see the [module docs](super)).
#[macro_export]
macro_rules! bool_operations {
    ($callback:ident) => {
        $crate::bool_operations!(@table $callback, [
                Transpose = bool_transpose(tensor: B) -> B => |c| rules::transpose(c, &tensor);
        ]);
    };
    ($callback:ident, decomposed) => {
        $crate::bool_operations!(@table $callback, []);
    };
    (@table $callback:ident, [$($composite:tt)*]) => {
        $callback! {
            BoolOperationIr, BoolTensorOps, "bool";
            lazy {
                Empty = bool_empty(shape: Val[Shape], device: Dev, dtype: Val[DType]) -> B
                    => |c| rules::new(c, &shape, dtype);
                Zeros = bool_zeros(shape: Val[Shape], device: Dev, dtype: Val[DType]) -> B
                    => |c| rules::new(c, &shape, dtype);
                Ones = bool_ones(shape: Val[Shape], device: Dev, dtype: Val[DType]) -> B
                    => |c| rules::new(c, &shape, dtype);
                IntoInt = bool_into_int(tensor: B, out_dtype: Val[IntDType]) -> I => |c| rules::cast(c, &tensor, out_dtype);
                IntoFloat = bool_into_float(tensor: B, out_dtype: Val[FloatDType]) -> F => |c| rules::cast(c, &tensor, out_dtype);

                SwapDims = bool_swap_dims(tensor: B, dim1: Val[usize], dim2: Val[usize]) -> B
                    => |c| rules::swap_dims(c, &tensor, dim1, dim2);
                Permute = bool_permute(tensor: B, axes: Slice[usize]) -> B => |c| rules::permute(c, &tensor, &axes);
                Flip = bool_flip(tensor: B, axes: Slice[usize]) -> B => |c| rules::same(c, &tensor);
                Reshape = bool_reshape(tensor: B, shape: Val[Shape]) -> B => |c| rules::reshape(c, &tensor, &shape);
                Expand = bool_expand(tensor: B, shape: Val[Shape]) -> B => |c| rules::expand(c, &tensor, &shape);
                SliceOp = bool_slice(tensor: B, slices: Slice[Slice]) -> B => |c| rules::slice(c, &tensor, &slices);
                SliceAssign = bool_slice_assign(tensor: B, slices: Slice[Slice], value: B) -> B => |c| rules::same(c, &tensor);
                Gather = bool_gather(dim: Val[usize], tensor: B, indices: I) -> B => |c| rules::gather(c, &tensor, &indices);
                Select = bool_select(tensor: B, dim: Val[usize], indices: I) -> B => |c| rules::select(c, &tensor, dim, &indices);
                MaskWhere = bool_mask_where(tensor: B, mask: B, value: B) -> B => |c| rules::mask_where(c, &tensor, &mask, &value);
                MaskFill = bool_mask_fill(tensor: B, mask: B, value: Val[Scalar]) -> B => |c| rules::mask_fill(c, &tensor, &mask);
                Cat = bool_cat(tensors: VecB, dim: Val[usize]) -> B => |c| rules::cat(c, &tensors, dim);
                RepeatDim = bool_repeat_dim(tensor: B, dim: Val[usize], times: Val[usize]) -> B
                    => |c| rules::repeat_dim(c, &tensor, dim, times);

                Equal = bool_equal(lhs: B, rhs: B) -> B => |c| rules::broadcast(c, &lhs, &rhs);
                NotEqual = bool_not_equal(lhs: B, rhs: B) -> B => |c| rules::broadcast(c, &lhs, &rhs);
                Not = bool_not(tensor: B) -> B => |c| rules::same(c, &tensor);
                And = bool_and(lhs: B, rhs: B) -> B => |c| rules::broadcast(c, &lhs, &rhs);
                Or = bool_or(lhs: B, rhs: B) -> B => |c| rules::broadcast(c, &lhs, &rhs);
                Xor = bool_xor(lhs: B, rhs: B) -> B => |c| rules::broadcast(c, &lhs, &rhs);
                $($composite)*
            }
            eager {
                ArgWhere = bool_argwhere(tensor: B) -> I;
            }
        }
    };
}
