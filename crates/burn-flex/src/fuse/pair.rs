//! Two scalar operations on one input in one loop: `(x op₁ s₁) op₂ s₂`, each `s` a scalar of
//! the program or an input constant along the row (`x·s + t`, BatchNorm in inference;
//! `(x - mean)·r`; `x·2 + 1`).
//!
//! Through registers (`eval.rs`), each block of such a chain is stored twice, into a register
//! and into the output. Where the values come from the caches, stores bound a cheap operation:
//! on a Zen 4 host `x·2 + 1` over `[8, 64, 3136]` took 0.13 ms in blocks against 0.08 for
//! `x + 1`. Here the intermediate stays in a vector register, one loop per pair of operations
//! (sixteen loops, the four binary operations twice over).

use super::kernels::{ElemOp, with_binary};
use super::program::{Binary, Instr, Program};
use super::walk::Walk;
use crate::element::FloatElement;
use burn_std::Scalar;

/// The second operand of one operation of a [`Pair`].
#[derive(Debug, Clone, Copy)]
enum Operand {
    /// A scalar of the program.
    Value(Scalar),
    /// Input `i`, constant along the row (see `walk.rs`).
    RowConstant(usize),
}

/// A program that is `(x op₁ s₁) op₂ s₂` for one input `x` read in place along the row.
#[derive(Debug, Clone, Copy)]
pub struct Pair {
    /// The input `x`.
    input: usize,
    /// The two operations, in order, with their second operands.
    ops: [(Binary, Operand); 2],
}

impl Pair {
    /// `program` as a pair, if it is one: its loads are one input contiguous along the row
    /// and row constants, and its two computing instructions each take the previous value
    /// (on the left, or on either side of a commutative operation) and a scalar or a row
    /// constant.
    pub fn of(program: &Program, walk: &Walk) -> Option<Self> {
        let mut input = None;
        let mut current = None;
        let mut ops = Vec::with_capacity(2);
        for (k, instr) in program.instrs.iter().enumerate() {
            let operand = match *instr {
                Instr::Load(_) if walk.row_constant[k] => continue,
                Instr::Load(i) if input.is_none() && walk.row_stride(i) == 1 => {
                    (input, current) = (Some(i), Some(k));
                    continue;
                }
                Instr::Scalar(op, a, s) if Some(a) == current => (op, Operand::Value(s)),
                Instr::Binary(op, a, b) => {
                    let other = if Some(a) == current {
                        b
                    } else if Some(b) == current && op.commutes() {
                        a
                    } else {
                        return None;
                    };
                    match program.instrs[other] {
                        Instr::Load(i) if walk.row_constant[other] => (op, Operand::RowConstant(i)),
                        _ => return None,
                    }
                }
                _ => return None,
            };
            ops.push(operand);
            current = Some(k);
        }
        let last = program.instrs.len().checked_sub(1);
        match (input, ops.as_slice()) {
            (Some(input), &[first, second]) if current == last => Some(Self {
                input,
                ops: [first, second],
            }),
            _ => None,
        }
    }

    /// Fills `out`, the outputs from flat position `start` on, one row segment at a time.
    #[inline(always)]
    pub fn run<E: FloatElement>(&self, data: &[&[E]], walk: &Walk, start: usize, out: &mut [E]) {
        let value = |operand: Operand, row: usize| match operand {
            Operand::Value(s) => s.elem::<E>(),
            Operand::RowConstant(i) => walk.constant(i, data, row),
        };
        let [(op1, first), (op2, second)] = self.ops;
        for [row, col, done, len] in walk.segments(start, out.len()) {
            let from = walk.position(self.input, row, col);
            let x = &data[self.input][from..from + len];
            let dst = &mut out[done..done + len];
            let (s1, s2) = (value(first, row), value(second, row));
            with_binary!(op1, F1 => with_binary!(op2, F2 => {
                for (d, &v) in dst.iter_mut().zip(x) {
                    *d = F2::apply(F1::apply(v, s1), s2);
                }
            }));
        }
    }
}
