//! Evaluation of a short program over a large output in steps of [`STEP`] values: per step,
//! each computing instruction is one call of a [`Kernel`] (a function pointer chosen when the
//! plan is made), reading contiguous inputs in place and writing the output directly.
//!
//! Why steps this small: a chain is bound by memory when its inputs are, and a core keeps only
//! as many loads in flight as its out-of-order window spans. Over blocks of hundreds of values
//! (`eval.rs`), the loads of a block come in a burst and the arithmetic after them (an `exp`'s
//! two dozen vector operations per vector) runs with none in flight, so time is spent waiting
//! for memory and computing in turn. In steps of two vectors the window spans several steps:
//! the loads of the next steps issue while this one computes, as in a loop compiled for the
//! chain. On a Sapphire Rapids host (2 cores) a standalone `exp(a*b + c)` over 2^24 values took
//! 10.4–11.3 ms (medians of six rounds) in steps of 32 values, 10.0–11.5 ms as one hand-fused
//! loop and 11.5–13.4 ms in blocks of 512 with the next block prefetched. In Flex, alternated
//! in one process on the same host in a slower phase (medians of four rounds), in steps against
//! in blocks: 2^20 values (4 MiB, beyond L2) 0.69–0.89 against 0.75–0.97 ms; eight adds and
//! multiplies of 2^24 values 19.5–23.0 against 21.2–25.1 ms; W2's 2^24 values 15.9–17.9
//! against 16.8–17.7 ms, no difference there.
//!
//! On an AMD Zen 4 host (2 cores, no prefetching: see `stream.rs`), once the blocks no longer
//! zeroed a prefetch table per block, steps lost everywhere but there: `x*2 + 1` over
//! `[8, 64, 3136]` (6.4 MB, in the L3 cache) 0.22–0.28 ms in steps against 0.13 in blocks,
//! `exp(x*2 + 1)` over 4 MB 0.28–0.33 against 0.22–0.25, eight adds and multiplies of 2^24
//! values 11.6–13.7 against 5.1–6.4 ms, `x*2 + 1` over 2^24 values 4.0–4.6 against 2.6–3.2;
//! while W2 took 7.3–7.4 ms in steps against 7.9–9.1 in blocks (three alternated pairs). So
//! plans are made only where that held on both hosts: an output streamed past the caches
//! (`stream::STREAM_FROM_BYTES`) of a chain with a costly function (`Unary::is_costly`).
//!
//! A kernel call costs a few cycles, so a long chain of cheap operations (each two vector
//! operations per step) would be bound by the calls: plans are made only for chains of at most
//! [`MAX_STEPS`] computing instructions.

use super::kernels::{Kernel, STEP, binary_kernel, scalar_kernel, unary_kernel};
use super::program::{Instr, Program};
use super::registers::Registers;
use crate::element::FloatElement;
use crate::stream;

/// The most computing instructions a planned program has.
pub const MAX_STEPS: usize = 8;

/// Where a step reads an operand or writes its result.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// A register: the same [`STEP`] values every step.
    Register(usize),
    /// Input `i`, read in place along the row.
    Input(usize),
    /// The output.
    Output,
}

/// The scalar operand of a step.
#[derive(Debug, Clone, Copy)]
enum StepScalar<E> {
    /// A value of the program (or none: zero for kernels that take no scalar).
    Value(E),
    /// Input `i`, constant along the row: its value at the segment's start.
    RowConstant(usize),
}

/// One computing instruction.
struct Step<E> {
    kernel: Kernel<E>,
    dst: Place,
    a: Place,
    b: Place,
    scalar: StepScalar<E>,
}

/// A step with its places resolved to pointers for one row segment: each pointer advances by
/// `STEP` values per step times its `inc` (1 along the row, 0 for a register).
#[derive(Clone, Copy)]
struct Resolved<E> {
    kernel: Kernel<E>,
    dst: (*mut E, usize),
    a: (*const E, usize),
    b: (*const E, usize),
    scalar: E,
}

/// A program as steps, for one thread.
pub struct Plan<E> {
    steps: Vec<Step<E>>,
    /// `(input, register)`: inputs broadcast along the row, copied into their register once per
    /// row segment.
    fills: Vec<(usize, usize)>,
    /// Whether the output is written with streaming stores from the last register.
    streamed: bool,
    /// The steps of the current segment.
    resolved: Vec<Resolved<E>>,
}

impl<E: FloatElement> Plan<E> {
    /// The plan of `program` over rows whose last-dim strides are `row_strides` (per input):
    /// `None` when an input is read along the row with a stride other than 0 or 1, when the
    /// program computes nothing (a lone load), or when it has more than [`MAX_STEPS`]
    /// computing instructions. The loads flagged in `row_constant` (see `walk.rs`) are read as
    /// the scalars of the steps that use them.
    pub fn new(
        program: &Program,
        row_strides: &[isize],
        row_constant: &[bool],
        streamed: bool,
    ) -> Option<Self> {
        let count = program.instrs.len();
        let computing = program
            .instrs
            .iter()
            .filter(|instr| !matches!(instr, Instr::Load(_)))
            .count();
        if computing > MAX_STEPS {
            return None;
        }
        let mut places = Vec::with_capacity(count);
        let mut steps = Vec::new();
        let mut fills = Vec::new();
        for (k, instr) in program.instrs.iter().enumerate() {
            let dst = if k + 1 == count && !streamed {
                Place::Output
            } else {
                Place::Register(k)
            };
            let step = |kernel, a: usize, b: usize, scalar| Step {
                kernel,
                dst,
                a: places[a],
                b: places[b],
                scalar,
            };
            let constant_of = |r: usize| match program.instrs[r] {
                Instr::Load(i) if row_constant[r] => Some(i),
                _ => None,
            };
            let step = match *instr {
                Instr::Load(_) if row_constant[k] => {
                    // Never read as a place: its uses take it as their scalar.
                    places.push(Place::Register(k));
                    continue;
                }
                Instr::Load(i) => {
                    if k + 1 == count {
                        return None;
                    }
                    match row_strides[i] {
                        1 => places.push(Place::Input(i)),
                        0 => {
                            fills.push((i, k));
                            places.push(Place::Register(k));
                        }
                        _ => return None,
                    }
                    continue;
                }
                Instr::Unary(op, a) => {
                    step(unary_kernel::<E>(op), a, a, StepScalar::Value(E::zero()))
                }
                // A row constant on the right, or on the left of a commutative operation.
                Instr::Binary(op, a, b) => match (constant_of(b), constant_of(a)) {
                    (Some(i), _) => step(scalar_kernel::<E>(op), a, a, StepScalar::RowConstant(i)),
                    (None, Some(i)) => {
                        step(scalar_kernel::<E>(op), b, b, StepScalar::RowConstant(i))
                    }
                    (None, None) => {
                        step(binary_kernel::<E>(op), a, b, StepScalar::Value(E::zero()))
                    }
                },
                Instr::Scalar(op, a, s) => step(
                    scalar_kernel::<E>(op),
                    a,
                    a,
                    StepScalar::Value(s.elem::<E>()),
                ),
            };
            places.push(dst);
            steps.push(step);
        }
        Some(Self {
            steps,
            fills,
            streamed,
            resolved: Vec::new(),
        })
    }

    /// Fills `out`, a whole number of steps along one row, whose first value reads input `i` at
    /// `starts[i]` (for every input; the broadcast ones there only).
    pub fn run_segment(
        &mut self,
        data: &[&[E]],
        starts: &[usize],
        out: &mut [E],
        regs: &mut Registers<E>,
    ) {
        let len = out.len();
        assert!(
            len.is_multiple_of(STEP),
            "fused step evaluation: a segment of {len} values is not a whole number of steps"
        );
        let (base, register_starts) = regs.raw();
        let register = |k: usize| base.wrapping_add(register_starts[k]);
        for &(i, k) in &self.fills {
            let value = data[i][starts[i]];
            // SAFETY: register k holds at least STEP values (a register holds a block) and no
            // reference into the arena is alive.
            unsafe { std::slice::from_raw_parts_mut(register(k), STEP) }.fill(value);
        }
        let out_ptr = out.as_mut_ptr();
        let place = |p: Place| -> (*mut E, usize) {
            match p {
                Place::Register(k) => (register(k), 0),
                Place::Input(i) => {
                    let input = data[i];
                    assert!(
                        starts[i] + len <= input.len(),
                        "fused step evaluation: input {i} of {} values read at {}..{}",
                        input.len(),
                        starts[i],
                        starts[i] + len
                    );
                    (input[starts[i]..].as_ptr().cast_mut(), 1)
                }
                Place::Output => (out_ptr, 1),
            }
        };
        self.resolved.clear();
        for step in &self.steps {
            let (a, b) = (place(step.a), place(step.b));
            self.resolved.push(Resolved {
                kernel: step.kernel,
                dst: place(step.dst),
                a: (a.0.cast_const(), a.1),
                b: (b.0.cast_const(), b.1),
                scalar: match step.scalar {
                    StepScalar::Value(value) => value,
                    StepScalar::RowConstant(i) => data[i][starts[i]],
                },
            });
        }
        let last = self.steps.len() - 1;
        let result = self.resolved[last].dst.0.cast_const();
        for offset in (0..len).step_by(STEP) {
            for r in &self.resolved {
                // SAFETY: every pointer addresses STEP values: registers hold a block, inputs
                // were checked to reach `len` values past their start and the output has `len`;
                // a step writes a register of its own or the output, never one of its operands
                // (SSA registers; the output is not an input).
                unsafe {
                    (r.kernel)(
                        r.dst.0.wrapping_add(offset * r.dst.1),
                        r.a.0.wrapping_add(offset * r.a.1),
                        r.b.0.wrapping_add(offset * r.b.1),
                        r.scalar,
                    )
                };
            }
            if self.streamed {
                // SAFETY: the last step's register, STEP values, written above; no mutable
                // reference into the arena is alive.
                let values = unsafe { std::slice::from_raw_parts(result, STEP) };
                stream::stream_copy(&mut out[offset..offset + STEP], values);
            }
        }
    }
}
