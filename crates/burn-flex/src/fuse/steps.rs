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

/// One computing instruction.
struct Step<E> {
    kernel: Kernel<E>,
    dst: Place,
    a: Place,
    b: Place,
    scalar: E,
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
    /// computing instructions.
    pub fn new(program: &Program, row_strides: &[isize], streamed: bool) -> Option<Self> {
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
            let step = match *instr {
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
                Instr::Unary(op, a) => step(unary_kernel::<E>(op), a, a, E::zero()),
                Instr::Binary(op, a, b) => step(binary_kernel::<E>(op), a, b, E::zero()),
                Instr::Scalar(op, a, s) => step(scalar_kernel::<E>(op), a, a, s.elem::<E>()),
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
                scalar: step.scalar,
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
