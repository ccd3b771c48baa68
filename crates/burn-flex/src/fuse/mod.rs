//! Element-wise fusion on the CPU: chains of float element-wise operations on large tensors are
//! deferred and then computed in one pass over cache-sized blocks.
//!
//! A float add/sub/mul/div (tensor or scalar) or `exp`/`log`/`neg`/`abs`/`sqrt`/`recip`/`tanh`
//! whose output has at least [`DEFER_THRESHOLD`] elements returns a tensor holding a
//! [`Program`] instead of values. An operation on such a tensor that nothing else shares extends
//! its program, so `exp(a * b + c)` becomes one program reading `a`, `b` and `c` once and writing
//! the output once (in blocks of 512 values, or for outputs past the L2 cache and chains of a
//! few operations in steps of 32, see `steps.rs`). The values are computed (once, then kept)
//! when anything needs them: any other operation, a read, a clone that is then extended,
//! [`Flex::sync`](burn_backend::Backend::sync), or a chain growing past [`MAX_INSTRUCTIONS`] /
//! [`MAX_DEPTH`]. A deferred tensor dropped unread is never computed. Results are bit-identical
//! to the eager operations (the same element functions run per element, `kernels.rs`).
//!
//! Small tensors stay eager: recording costs a few allocations, more than a short operation
//! (this is also why Flex fuses here rather than through the `Fusion<B>` decorator, whose
//! per-operation recording measured 0.8 µs against Flex's 0.05 µs per small operation).

mod eval;
mod kernels;
mod pair;
mod program;
mod registers;
mod steps;
mod walk;

pub use program::{Binary, Instr, MAX_DEPTH, MAX_INPUTS, MAX_INSTRUCTIONS, Program, Unary};

use crate::ops::map::broadcast_shape;
use crate::ops::reduce::{LineReduce, reduce_line};
use crate::tensor::{Buffer, FlexTensor, Layout, Storable};
use burn_std::{DType, Scalar, Shape};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

/// Outputs with fewer elements run eagerly.
pub const DEFER_THRESHOLD: usize = 1 << 15;

/// The state behind a deferred tensor: its program until computed, then its values.
pub struct Deferred {
    dtype: DType,
    shape: Shape,
    depth: usize,
    program: Mutex<Option<Program>>,
    result: OnceLock<Arc<Buffer>>,
}

impl std::fmt::Debug for Deferred {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deferred")
            .field("dtype", &self.dtype)
            .field("shape", &self.shape)
            .field("computed", &self.result.get().is_some())
            .finish()
    }
}

impl Deferred {
    /// The output dtype.
    #[inline]
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The output shape.
    #[inline]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// How many deferred programs this one waits on, nested.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The values, computed on first use; the program (and its inputs) are released then.
    pub(crate) fn result(&self) -> &Arc<Buffer> {
        self.result.get_or_init(|| {
            let program = self.lock_program().take();
            match program {
                Some(program) => Arc::new(eval::eval(&program)),
                // Only [`compute_pending`] can get here: the tensor's one owner inlined the
                // program into another between its check and this call, so nothing can read
                // these values any more.
                None => Arc::new(with_elem!(self.dtype, E => E::into_buffer(Vec::<E>::new()))),
            }
        })
    }

    /// Whether no handle outside this state holds the computed values (true before they are
    /// computed: nothing can hold them yet).
    pub fn result_is_unshared(&self) -> bool {
        self.result.get().is_none_or(|b| Arc::strong_count(b) == 1)
    }

    /// The values, taking them out when this is the last handle.
    pub(crate) fn into_result(self: Arc<Self>) -> Arc<Buffer> {
        match Arc::try_unwrap(self) {
            Ok(deferred) => {
                deferred.result();
                deferred.result.into_inner().expect("just computed")
            }
            Err(shared) => shared.result().clone(),
        }
    }

    fn lock_program(&self) -> std::sync::MutexGuard<'_, Option<Program>> {
        self.program.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `(inputs, instructions)` of the program while it is not computed.
    pub(crate) fn pending_size(&self) -> Option<(usize, usize)> {
        let program = self.lock_program();
        program.as_ref().map(|p| (p.inputs.len(), p.instrs.len()))
    }

    /// `f(program)` while the values are not computed (the program stays).
    pub(crate) fn with_program<R>(&self, f: impl FnOnce(&Program) -> R) -> Option<R> {
        self.lock_program().as_ref().map(f)
    }

    /// The program, leaving this state empty; for the only handle, which is being consumed.
    pub(crate) fn take_program(&self) -> Option<Program> {
        self.lock_program().take()
    }
}

/// Deferred tensors not yet computed, for [`compute_pending`].
static PENDING: Mutex<Vec<Weak<Deferred>>> = Mutex::new(Vec::new());

/// Computes every deferred tensor still alive (what `sync` means on Flex).
pub fn compute_pending() {
    let pending = std::mem::take(&mut *PENDING.lock().unwrap_or_else(PoisonError::into_inner));
    for deferred in pending.iter().filter_map(Weak::upgrade) {
        deferred.result();
    }
}

/// The tensor of a finished program.
fn finish(program: Program) -> FlexTensor {
    let deferred = Arc::new(Deferred {
        dtype: program.dtype,
        shape: program.shape.clone(),
        depth: program.depth,
        program: Mutex::new(Some(program)),
        result: OnceLock::new(),
    });
    let mut pending = PENDING.lock().unwrap_or_else(PoisonError::into_inner);
    if pending.len() >= 256 {
        pending.retain(|w| w.strong_count() > 0);
    }
    pending.push(Arc::downgrade(&deferred));
    drop(pending);
    FlexTensor::from_deferred(deferred)
}

#[inline]
fn deferrable(dtype: DType, shape: &Shape) -> bool {
    dtype.is_float() && shape.num_elements() >= DEFER_THRESHOLD
}

// `unary`, `scalar` and `binary` inline into every operation, so a small tensor goes back to its
// eager form without a call (W7's `x + 1` on 16 values); only deferring calls out.

/// `f(tensor)` deferred, or `tensor` back when it should run eagerly.
#[inline]
pub fn unary(op: Unary, tensor: FlexTensor) -> Result<FlexTensor, FlexTensor> {
    if !deferrable(tensor.dtype(), tensor.shape()) {
        return Err(tensor);
    }
    Ok(defer_unary(op, tensor))
}

#[inline(never)]
fn defer_unary(op: Unary, tensor: FlexTensor) -> FlexTensor {
    let mut program = Program::new(tensor.dtype(), tensor.shape().clone());
    let a = program.operand(tensor);
    program.push(Instr::Unary(op, a));
    finish(program)
}

/// `tensor op scalar` deferred, or `tensor` back when it should run eagerly.
#[inline]
pub fn scalar(op: Binary, tensor: FlexTensor, value: Scalar) -> Result<FlexTensor, FlexTensor> {
    if !deferrable(tensor.dtype(), tensor.shape()) {
        return Err(tensor);
    }
    Ok(defer_scalar(op, tensor, value))
}

#[inline(never)]
fn defer_scalar(op: Binary, tensor: FlexTensor, value: Scalar) -> FlexTensor {
    let mut program = Program::new(tensor.dtype(), tensor.shape().clone());
    let a = program.operand(tensor);
    program.push(Instr::Scalar(op, a, value));
    finish(program)
}

/// `lhs op rhs` (broadcasting) deferred, or both back when it should run eagerly (other dtypes,
/// small outputs, shapes that do not broadcast: the eager operation reports those).
// The operands come back by value on the eager path; boxing them would allocate per operation.
#[allow(clippy::result_large_err)]
#[inline]
pub fn binary(
    op: Binary,
    lhs: FlexTensor,
    rhs: FlexTensor,
) -> Result<FlexTensor, (FlexTensor, FlexTensor)> {
    // The common refusals without building the broadcast shape (an allocation).
    let dtype = lhs.dtype();
    if dtype != rhs.dtype()
        || !dtype.is_float()
        || (lhs.shape() == rhs.shape() && lhs.num_elements() < DEFER_THRESHOLD)
    {
        return Err((lhs, rhs));
    }
    defer_binary(op, lhs, rhs)
}

#[inline(never)]
#[allow(clippy::result_large_err)]
fn defer_binary(
    op: Binary,
    lhs: FlexTensor,
    rhs: FlexTensor,
) -> Result<FlexTensor, (FlexTensor, FlexTensor)> {
    let Some(shape) = lhs.shape().broadcast(rhs.shape()) else {
        return Err((lhs, rhs));
    };
    // The dtypes were checked by `binary`; the size is the broadcast output's.
    if !deferrable(lhs.dtype(), &shape) {
        return Err((lhs, rhs));
    }
    debug_assert_eq!(broadcast_shape("fused", lhs.shape(), rhs.shape()), shape);
    let mut program = Program::new(lhs.dtype(), shape);
    if is_one_chain_twice(&lhs, &rhs) {
        // `x * x` of a chain nothing else holds (`square`): dropping one handle leaves the
        // chain unshared, so it is inlined once and read as both operands instead of being
        // computed into memory and loaded twice.
        drop(rhs);
        let a = program.operand(lhs);
        program.push(Instr::Binary(op, a, a));
        return Ok(finish(program));
    }
    let a = program.operand(lhs);
    let b = program.operand(rhs);
    program.push(Instr::Binary(op, a, b));
    Ok(finish(program))
}

/// Whether `lhs` and `rhs` are the only two handles of one deferred chain, seen the same way.
fn is_one_chain_twice(lhs: &FlexTensor, rhs: &FlexTensor) -> bool {
    match (lhs.deferred_state(), rhs.deferred_state()) {
        (Some(a), Some(b)) => {
            Arc::ptr_eq(a, b) && Arc::strong_count(a) == 2 && lhs.layout() == rhs.layout()
        }
        _ => false,
    }
}

/// The longest row a fused reduction computes into its scratch buffer.
const MAX_FUSED_ROW: usize = 1 << 16;

/// `op` along the last dim of a deferred, not yet computed `tensor`, computed from its program
/// row by row without storing the values (they are computed again if something reads them
/// later: cheaper than writing and reading them back). Any other tensor comes back.
pub fn reduce(op: LineReduce, tensor: FlexTensor, dim: usize) -> Result<FlexTensor, FlexTensor> {
    let Some(deferred) = tensor.deferred_state() else {
        return Err(tensor);
    };
    let shape = deferred.shape().clone();
    let row_len = shape.dims.last().copied().unwrap_or(0);
    if dim + 1 != shape.num_dims()
        || !(1..=MAX_FUSED_ROW).contains(&row_len)
        || tensor.layout() != &Layout::contiguous(shape.clone())
    {
        return Err(tensor);
    }
    let mut out_shape = shape;
    out_shape[dim] = 1;
    let reduced = deferred.with_program(|program| {
        with_float!(program.dtype, "fused reduction", E => {
            let values = eval::fold_rows::<E>(program, row_len, |row| reduce_line(op, row));
            FlexTensor::from_vec(values, out_shape)
        })
    });
    reduced.ok_or(tensor)
}

#[cfg(test)]
mod tests;
