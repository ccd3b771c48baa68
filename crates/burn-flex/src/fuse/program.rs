//! The program of a deferred element-wise chain: inputs, straight-line instructions in SSA form
//! (instruction `k` writes register `k`; the last one is the result), and how a new operation
//! extends a chain it consumes.

use crate::tensor::{FlexTensor, Layout};
use burn_std::{DType, Scalar, Shape};
use std::sync::Arc;

/// The most instructions one program holds; a longer chain starts a new program.
pub const MAX_INSTRUCTIONS: usize = 48;

/// The most inputs one program reads.
pub const MAX_INPUTS: usize = 12;

/// How many deferred programs may wait on one another before one is computed at once (keeps the
/// evaluation's recursion shallow).
pub const MAX_DEPTH: usize = 8;

/// A float function of one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unary {
    /// `e^x`.
    Exp,
    /// `ln x`.
    Log,
    /// `-x`.
    Neg,
    /// `|x|`.
    Abs,
    /// `√x`.
    Sqrt,
    /// `1 / x`.
    Recip,
    /// `tanh x`.
    Tanh,
    /// `max(x, 0)`, NaN kept.
    Relu,
}

/// A float function of two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
}

impl Unary {
    /// Whether the function takes tens of vector operations per vector (a polynomial after a
    /// range reduction), not one or two.
    pub fn is_costly(self) -> bool {
        matches!(self, Unary::Exp | Unary::Log | Unary::Tanh)
    }
}

impl Binary {
    /// Whether `a op b == b op a` for every `a`, `b` (bit for bit).
    pub fn commutes(self) -> bool {
        matches!(self, Binary::Add | Binary::Mul)
    }
}

/// One step of a program.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Instr {
    /// The values of input `i`.
    Load(usize),
    /// `f(register)`.
    Unary(Unary, usize),
    /// `register op register`.
    Binary(Binary, usize, usize),
    /// `register op scalar` (the scalar converted to the program's dtype).
    Scalar(Binary, usize, Scalar),
}

/// A deferred element-wise computation of one contiguous output.
#[derive(Debug)]
pub struct Program {
    /// The output dtype (every input has it too).
    pub dtype: DType,
    /// The output shape.
    pub shape: Shape,
    /// The inputs, each seen through a layout broadcast to `shape`.
    pub inputs: Vec<FlexTensor>,
    /// The instructions; the last one's register is the output.
    pub instrs: Vec<Instr>,
    /// 1 + the deepest deferred input's depth (0 for none).
    pub depth: usize,
}

impl Program {
    /// An empty program producing `shape` values of `dtype`.
    pub fn new(dtype: DType, shape: Shape) -> Self {
        Self {
            dtype,
            shape,
            inputs: Vec::new(),
            instrs: Vec::new(),
            depth: 0,
        }
    }

    /// Appends `instr` and returns its register.
    pub fn push(&mut self, instr: Instr) -> usize {
        self.instrs.push(instr);
        self.instrs.len() - 1
    }

    /// The register holding `tensor`'s values (broadcast to this program's shape): `tensor`'s own
    /// program inlined when it is a deferred chain nothing else shares and that has room,
    /// else a load of it as an input.
    pub fn operand(&mut self, mut tensor: FlexTensor) -> usize {
        if let Some(program) = self.take_inlinable(&tensor) {
            return self.inline(program);
        }
        if let Some(depth) = tensor.deferred_depth() {
            if depth >= MAX_DEPTH {
                tensor.settle();
            } else {
                self.depth = self.depth.max(depth + 1);
            }
        }
        let layout = tensor.layout().expand(&self.shape);
        let input = tensor.with_layout_deferred(layout);
        self.inputs.push(input);
        self.push(Instr::Load(self.inputs.len() - 1))
    }

    /// Whether one more input and `extra` instructions still fit.
    pub fn has_room(&self, extra_inputs: usize, extra: usize) -> bool {
        self.inputs.len() + extra_inputs <= MAX_INPUTS
            && self.instrs.len() + extra < MAX_INSTRUCTIONS
    }

    /// `tensor`'s program when it can be inlined here: deferred, not computed, unshared,
    /// contiguous with this program's shape, and small enough to fit.
    fn take_inlinable(&self, tensor: &FlexTensor) -> Option<Program> {
        let layout = Layout::contiguous(self.shape.clone());
        if tensor.layout() != &layout {
            return None;
        }
        let deferred = tensor.deferred_state()?;
        if Arc::strong_count(deferred) != 1 || deferred.shape() != &self.shape {
            return None;
        }
        let (inputs, instrs) = deferred.pending_size()?;
        if !self.has_room(inputs, instrs + 1) {
            return None;
        }
        deferred.take_program()
    }

    /// Appends `other`'s inputs and instructions (renumbered); returns its output register.
    fn inline(&mut self, other: Program) -> usize {
        let (input_base, reg_base) = (self.inputs.len(), self.instrs.len());
        self.inputs.extend(other.inputs);
        self.depth = self.depth.max(other.depth);
        for instr in other.instrs {
            self.instrs.push(match instr {
                Instr::Load(i) => Instr::Load(i + input_base),
                Instr::Unary(op, a) => Instr::Unary(op, a + reg_base),
                Instr::Binary(op, a, b) => Instr::Binary(op, a + reg_base, b + reg_base),
                Instr::Scalar(op, a, s) => Instr::Scalar(op, a + reg_base, s),
            });
        }
        self.instrs.len() - 1
    }
}
