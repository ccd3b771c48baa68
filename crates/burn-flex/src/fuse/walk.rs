//! How a program's output positions map to its inputs' positions, and which of its loads are
//! constant along the output's rows.

#[cfg(test)]
use super::program::Unary;
use super::program::{Instr, Program};
use crate::FlexTensor;

/// How the output positions map to input positions: dims merged where every input allows, so
/// that a contiguous or row-broadcast chain walks long rows.
pub struct Walk {
    /// Merged dims, outermost first; the last is the row.
    pub dims: Vec<usize>,
    /// Per input, its strides along `dims`.
    pub strides: Vec<Vec<isize>>,
    /// Per input, the buffer position of the first element.
    offsets: Vec<usize>,
    /// Per instruction, whether it is a [row constant](row_constants).
    pub row_constant: Vec<bool>,
}

impl Walk {
    /// The walk of `program`'s output over `inputs` (its inputs, or copies of them).
    pub fn new(program: &Program, inputs: &[FlexTensor]) -> Self {
        let shape = &program.shape.dims;
        let layouts: Vec<_> = inputs.iter().map(|t| t.layout()).collect();
        let mut dims: Vec<usize> = Vec::new();
        let mut strides: Vec<Vec<isize>> = vec![Vec::new(); layouts.len()];
        // Innermost first, then reversed.
        for d in (0..shape.len()).rev() {
            let size = shape[d];
            if size == 1 {
                continue;
            }
            let mergeable = !dims.is_empty()
                && layouts.iter().zip(&strides).all(|(l, s)| {
                    let (inner_size, inner_stride) = (*dims.last().unwrap(), *s.last().unwrap());
                    l.strides()[d] == inner_stride * inner_size as isize
                });
            if mergeable {
                *dims.last_mut().unwrap() *= size;
            } else {
                dims.push(size);
                for (s, l) in strides.iter_mut().zip(&layouts) {
                    s.push(l.strides()[d]);
                }
            }
        }
        if dims.is_empty() {
            dims.push(1);
            strides.iter_mut().for_each(|s| s.push(0));
        }
        dims.reverse();
        strides.iter_mut().for_each(|s| s.reverse());
        let offsets = layouts.iter().map(|l| l.offset()).collect();
        let last = dims.len() - 1;
        let row_constant = row_constants(program, |i| strides[i][last]);
        Self {
            dims,
            strides,
            offsets,
            row_constant,
        }
    }

    /// The length of a row (the last merged dim).
    pub fn row_len(&self) -> usize {
        *self.dims.last().unwrap()
    }

    /// Buffer position of input `i` at output row `row`, column `col`.
    pub fn position(&self, i: usize, row: usize, col: usize) -> usize {
        let strides = &self.strides[i];
        let last = self.dims.len() - 1;
        let mut pos = self.offsets[i] as isize + col as isize * strides[last];
        let mut rest = row;
        for d in (0..last).rev() {
            pos += (rest % self.dims[d]) as isize * strides[d];
            rest /= self.dims[d];
        }
        pos as usize
    }

    /// The row segments of the `len` outputs from flat position `start` on, in order:
    /// `(row, col, done, segment_len)`, `done` the outputs before the segment.
    #[inline(always)]
    pub fn segments(&self, start: usize, len: usize) -> impl Iterator<Item = [usize; 4]> {
        let row_len = self.row_len();
        let mut done = 0;
        std::iter::from_fn(move || {
            (done < len).then(|| {
                let pos = start + done;
                let (row, col) = (pos / row_len, pos % row_len);
                let segment = (row_len - col).min(len - done);
                done += segment;
                [row, col, done - segment, segment]
            })
        })
    }

    /// Input `i`'s stride along the row.
    pub fn row_stride(&self, i: usize) -> isize {
        self.strides[i][self.dims.len() - 1]
    }

    /// The value of input `i`, constant along the rows, at output row `row`.
    #[inline(always)]
    pub fn constant<E: Copy>(&self, i: usize, data: &[&[E]], row: usize) -> E {
        data[i][self.position(i, row, 0)]
    }
}

/// Per instruction, whether it is a load of an input constant along the row (row stride 0: a
/// per-channel scale, a bias over the spatial dims) that every use can take as a scalar: the
/// right operand of a binary operation, or either operand of a commutative one whose other
/// operand is not one too. Such a load is never filled into a register; each use reads its
/// value once per row segment, and `x * s` is then one pass of `x * value` per row.
pub fn row_constants(program: &Program, row_stride: impl Fn(usize) -> isize) -> Vec<bool> {
    let mut constant: Vec<bool> = program
        .instrs
        .iter()
        .map(|instr| matches!(*instr, Instr::Load(i) if row_stride(i) == 0))
        .collect();
    // The result is stored, not read as a scalar.
    if let Some(last) = constant.last_mut() {
        *last = false;
    }
    // Flags only ever turn false, and a use that keeps one relies only on the other operand
    // not being a constant, which stays so: the final flags satisfy every use.
    for instr in &program.instrs {
        match *instr {
            Instr::Binary(op, a, b) => {
                if constant[a] && (constant[b] || !op.commutes()) {
                    constant[a] = false;
                }
            }
            Instr::Unary(_, a) | Instr::Scalar(_, a, _) => constant[a] = false,
            Instr::Load(_) => {}
        }
    }
    constant
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuse::program::Binary;
    use burn_std::{DType, Shape};

    fn program(instrs: &[Instr]) -> Program {
        let mut program = Program::new(DType::F32, Shape::new([2, 3]));
        program.instrs = instrs.to_vec();
        program
    }

    #[test]
    fn a_row_constant_is_one_every_use_takes_as_a_scalar() {
        use Binary::{Add, Mul, Sub};
        use Instr::{Binary as B, Load, Scalar as S, Unary as U};
        // Inputs 0 and 2 along the row, 1 and 3 constant along it.
        let stride = |i: usize| if i.is_multiple_of(2) { 1 } else { 0 };
        let flags = |instrs: &[Instr]| row_constants(&program(instrs), stride);
        // x·s + t: both constants are scalars.
        let affine = [Load(0), Load(1), B(Mul, 0, 1), Load(3), B(Add, 2, 3)];
        assert_eq!(flags(&affine), [false, true, false, true, false]);
        // s·x commutes; s - x does not.
        assert_eq!(
            flags(&[Load(1), Load(0), B(Mul, 0, 1)]),
            [true, false, false]
        );
        assert_eq!(
            flags(&[Load(1), Load(0), B(Sub, 0, 1)]),
            [false, false, false]
        );
        // s + t: one of the two stays a register; a constant also read by a unary function
        // or a scalar operation is loaded; a constant that is the result is stored.
        assert_eq!(
            flags(&[Load(1), Load(3), B(Add, 0, 1)]),
            [false, true, false]
        );
        let exp = Unary::Exp;
        let mixed = [Load(1), Load(0), B(Mul, 1, 0), U(exp, 0), B(Add, 2, 3)];
        assert_eq!(flags(&mixed), [false; 5]);
        let scaled = [Load(1), S(Mul, 0, 2.0f32.into()), Load(0), B(Add, 2, 0)];
        assert_eq!(flags(&scaled), [false; 4]);
        assert_eq!(flags(&[Load(1)]), [false]);
    }
}
