//! Evaluates a [`Program`] in one pass: the output is walked in blocks of [`BLOCK`] values; for
//! each block every instruction fills a small register (in L1), so each input is read once and
//! the output written once, whatever the chain's length. Blocks are shared across threads.

use super::kernels::{ElemOp, STEP, with_binary, with_unary};
use super::pair::Pair;
use super::program::{Binary, Instr, MAX_INPUTS, MAX_INSTRUCTIONS, Program, Unary};
use super::registers::Registers;
use super::steps::Plan;
use super::walk::Walk;
use crate::FlexTensor;
use crate::element::FloatElement;
use crate::ops::map::PAR_THRESHOLD;
use crate::parallel;
use crate::simd::vectorized;
use crate::stream::{self, PREFETCH_FROM_BYTES, STREAM_FROM_BYTES};
use crate::tensor::{Buffer, Storable, iter, pool};

/// Values per register: a program of a dozen registers stays in the L1 cache.
pub const BLOCK: usize = 512;

/// The most registers a program may use: [`MAX_INSTRUCTIONS`] plus what the last operation may
/// add past it.
const MAX_REGISTERS: usize = MAX_INSTRUCTIONS + 4;

/// Whether instruction `k` of `count`, a load along a last-dim `stride`, is read in place from
/// its input rather than copied into a register (every contiguous load but the last, which
/// writes the output).
fn reads_in_place(stride: isize, k: usize, count: usize) -> bool {
    stride == 1 && k + 1 < count
}

/// How an evaluation treats inputs and outputs too large for the caches.
#[derive(Debug, Clone, Copy, Default)]
struct Large {
    /// The output is written with streaming stores (see [`stream`]; the caller fences).
    streamed: bool,
    /// Each block's contiguous inputs are prefetched one block ahead, a share before each
    /// computing pass of the block rather than all at its start (on a Sapphire Rapids host W2
    /// was faster in four of five alternated pairs, 7–13 % in the first three: the burst stalled
    /// the core until the line-fill buffers drained, and the passes without loads left the
    /// memory bus idle).
    prefetch: bool,
}

/// One register per instruction, for one thread whose first block reads its inputs and writes
/// its output from flat position `start` on, into `out`: placed away from those streams (see
/// `registers.rs`). The last instruction's is used only when the output is `streamed`.
fn registers<E: FloatElement>(
    program: &Program,
    data: &[&[E]],
    walk: &Walk,
    start: usize,
    out: &[E],
    streamed: bool,
) -> Registers<E> {
    let row_len = walk.row_len();
    let (row, col) = (start / row_len, start % row_len);
    let last = walk.dims.len() - 1;
    let count = program.instrs.len();
    let mut streams = vec![out.as_ptr() as usize];
    let written: Vec<bool> = program
        .instrs
        .iter()
        .enumerate()
        .map(|(k, instr)| match *instr {
            Instr::Load(_) if walk.row_constant[k] => false,
            Instr::Load(i) if reads_in_place(walk.strides[i][last], k, count) => {
                let at = walk
                    .position(i, row, col)
                    .min(data[i].len().saturating_sub(1));
                streams.push(data[i][at..].as_ptr() as usize);
                false
            }
            // The last instruction writes straight into `out`, unless it is streamed.
            _ => k + 1 < count || streamed,
        })
        .collect();
    Registers::new(&written, &streams)
}

/// Whether `program` is one computing operation whose loads are all read in place (contiguous
/// along the row) or row constants: each block then goes from the inputs straight to the
/// output.
fn single_pass(program: &Program, walk: &Walk) -> bool {
    let count = program.instrs.len();
    let mut passes = 0;
    for (k, instr) in program.instrs.iter().enumerate() {
        match *instr {
            Instr::Load(_) if walk.row_constant[k] => {}
            Instr::Load(i) if !reads_in_place(walk.row_stride(i), k, count) => return false,
            Instr::Load(_) => {}
            _ => passes += 1,
        }
    }
    passes == 1
}

/// The output buffer of `program`.
pub fn eval(program: &Program) -> Buffer {
    with_float!(program.dtype, "fused element-wise chain", E => {
        E::into_buffer(eval_typed::<E>(program))
    })
}

fn eval_typed<E: FloatElement>(program: &Program) -> Vec<E> {
    let n = program.shape.num_elements();
    let mut out = pool::for_overwrite::<E>(n);
    if n == 0 {
        return out;
    }
    // A transposed matrix among the inputs is copied row-major first, by the tiled transpose:
    // read along the output's rows it would cost a cache line per value (`x.t() + 1` on
    // `[2048, 2048]` took 12.5 ms that way on a Zen 4 host).
    let inputs: Vec<FlexTensor> = program
        .inputs
        .iter()
        .map(|t| {
            if iter::is_transposed(t.layout()) {
                t.clone().to_contiguous()
            } else {
                t.clone()
            }
        })
        .collect();
    let data: Vec<&[E]> = inputs.iter().map(|t| t.storage::<E>()).collect();
    let walk = Walk::new(program, &inputs);
    let threads = parallel::threads();
    let bytes = n * std::mem::size_of::<E>();
    let streamed = bytes >= STREAM_FROM_BYTES;
    let large = Large {
        streamed,
        prefetch: bytes >= PREFETCH_FROM_BYTES && stream::prefetch_pays(),
    };
    // A streamed output of a chain with a costly function is computed in steps where the
    // program allows (see `steps.rs` for why, and for the measurements behind the condition).
    let last = walk.dims.len() - 1;
    let row_strides: Vec<isize> = walk.strides.iter().map(|s| s[last]).collect();
    let costly = program
        .instrs
        .iter()
        .any(|instr| matches!(instr, Instr::Unary(op, _) if op.is_costly()));
    let plan = || {
        (streamed && costly && inputs.len() <= MAX_INPUTS && !single_pass(program, &walk))
            .then(|| Plan::<E>::new(program, &row_strides, &walk.row_constant, streamed))
            .flatten()
    };
    if n >= PAR_THRESHOLD && threads > 1 {
        let chunk = n
            .div_ceil(threads * 4)
            .next_multiple_of(BLOCK)
            .max(BLOCK * 8);
        parallel::for_each_chunk_mut(&mut out, chunk, |i, o| {
            let mut regs = registers(program, &data, &walk, i * chunk, o, streamed);
            let mut plan = plan();
            vectorized(
                #[inline(always)]
                || {
                    run(
                        program,
                        &data,
                        &walk,
                        i * chunk,
                        o,
                        &mut regs,
                        large,
                        plan.as_mut(),
                    )
                },
            );
            if streamed {
                stream::fence();
            }
        });
    } else {
        let mut regs = registers(program, &data, &walk, 0, &out, streamed);
        let mut plan = plan();
        vectorized(
            #[inline(always)]
            || {
                run(
                    program,
                    &data,
                    &walk,
                    0,
                    &mut out,
                    &mut regs,
                    large,
                    plan.as_mut(),
                )
            },
        );
        if streamed {
            stream::fence();
        }
    }
    out
}

/// `f(row)` for every row (along the last dim) of `program`'s output, each row computed into a
/// scratch buffer and never stored: a reduction over a deferred chain in one pass. Rows are
/// split across threads.
pub fn fold_rows<E: FloatElement>(
    program: &Program,
    row_len: usize,
    f: impl Fn(&[E]) -> E + Sync,
) -> Vec<E> {
    let n = program.shape.num_elements();
    let rows = n / row_len;
    let mut out = vec![E::zero(); rows];
    let data: Vec<&[E]> = program.inputs.iter().map(|t| t.storage::<E>()).collect();
    let walk = Walk::new(program, &program.inputs);
    let threads = parallel::threads();
    let per_task = if n >= PAR_THRESHOLD && threads > 1 {
        rows.div_ceil(threads * 4).max(1)
    } else {
        rows.max(1)
    };
    parallel::for_each_chunk_mut(&mut out, per_task, |i, o| {
        vectorized(
            #[inline(always)]
            || {
                let mut scratch = vec![E::zero(); row_len];
                let mut regs = registers(
                    program,
                    &data,
                    &walk,
                    i * per_task * row_len,
                    &scratch,
                    false,
                );
                for (j, slot) in o.iter_mut().enumerate() {
                    let row = i * per_task + j;
                    run(
                        program,
                        &data,
                        &walk,
                        row * row_len,
                        &mut scratch,
                        &mut regs,
                        Large::default(),
                        None,
                    );
                    *slot = f(&scratch);
                }
            },
        )
    });
    out
}

/// Fills `out`, the outputs from flat position `start` on. Contiguous loads are read in place and
/// the last instruction writes straight into `out`, so a block's values are copied only where a
/// register is needed; a `streamed` output is written from the last register with streaming
/// stores instead (see [`stream`]; the caller fences). With a `plan`, the whole steps of each
/// row are computed by it and only the rest in blocks.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn run<'a, E: FloatElement>(
    program: &Program,
    data: &[&'a [E]],
    walk: &Walk,
    start: usize,
    out: &mut [E],
    regs: &mut Registers<E>,
    large: Large,
    mut plan: Option<&mut Plan<E>>,
) {
    let Large { streamed, prefetch } = large;
    let count = program.instrs.len();
    assert!(
        count <= MAX_REGISTERS,
        "fused program of {count} instructions"
    );
    let mut direct: [Option<&'a [E]>; MAX_REGISTERS] = [None; MAX_REGISTERS];
    let passes = program
        .instrs
        .iter()
        .filter(|instr| !matches!(instr, Instr::Load(_)))
        .count();
    let row_len = walk.row_len();
    let last = walk.dims.len() - 1;
    if !streamed && !prefetch {
        if single_pass(program, walk) {
            run_direct(program, data, walk, start, out);
            return;
        }
        if let Some(pair) = Pair::of(program, walk) {
            pair.run(data, walk, start, out);
            return;
        }
    }
    // `(input, position of its next block)` per prefetched input: declared once, as zeroing it
    // per block cost a tenth of a cheap chain's time in stores.
    let mut ahead = [(0usize, 0usize); MAX_REGISTERS];
    let mut done = 0;
    while done < out.len() {
        let pos = start + done;
        let (row, col) = (pos / row_len, pos % row_len);
        let segment = (row_len - col).min(out.len() - done);
        let mut len = BLOCK.min(segment);
        // A streamed output's values up to its next line boundary are computed as one short
        // block, so that every later block or step writes whole lines with streaming stores
        // (large buffers start 16 bytes past a line; the partial lines at either end of each
        // block were written plainly, each read from memory first). Then, with a plan, the
        // whole steps of the row are computed by it.
        let skew = if streamed {
            stream::values_to_line(&out[done..])
        } else {
            0
        };
        if skew > 0 && segment > skew {
            len = skew;
        } else if let Some(plan) = plan.as_deref_mut()
            && segment >= STEP
        {
            let whole = segment / STEP * STEP;
            let mut starts = [0usize; MAX_INPUTS];
            for (i, start) in starts.iter_mut().enumerate().take(data.len()) {
                *start = walk.position(i, row, col);
            }
            plan.run_segment(
                data,
                &starts[..data.len()],
                &mut out[done..done + whole],
                regs,
            );
            done += whole;
            continue;
        }
        // The next block of each contiguous input, while this one is computed: a share of it
        // before each computing pass, so the requests do not all wait at the block's start (a
        // program without a computing pass, a lone load, prefetches nothing).
        let mut streams = 0;
        let next = if prefetch && col + len < row_len {
            len.min(row_len - col - len)
        } else {
            0
        };
        if next > 0 {
            for instr in &program.instrs {
                if let Instr::Load(i) = *instr
                    && walk.strides[i][last] == 1
                {
                    ahead[streams] = (i, walk.position(i, row, col) + len);
                    streams += 1;
                }
            }
        }
        let share = next.div_ceil(passes.max(1));
        let mut pass = 0;
        for (k, instr) in program.instrs.iter().enumerate() {
            let (before, register) = regs.split(k, len);
            let dst = if k + 1 == count && !streamed {
                &mut out[done..done + len]
            } else {
                register
            };
            let reg = |r: usize| direct[r].unwrap_or_else(|| before.get(r));
            if streams > 0 && !matches!(instr, Instr::Load(_)) {
                let (from, to) = ((pass * share).min(next), ((pass + 1) * share).min(next));
                for &(i, at) in &ahead[..streams] {
                    stream::prefetch(&data[i][at + from..at + to]);
                }
                pass += 1;
            }
            match *instr {
                Instr::Load(_) if walk.row_constant[k] => {}
                Instr::Load(i) => {
                    let (from, stride) = (walk.position(i, row, col), walk.strides[i][last]);
                    if reads_in_place(stride, k, count) {
                        direct[k] = Some(&data[i][from..from + len]);
                    } else {
                        load(dst, data[i], from, stride);
                    }
                }
                Instr::Unary(op, a) => unary(op, dst, reg(a)),
                Instr::Binary(op, a, b) => match row_constant_operand(program, walk, a, b) {
                    Some((other, i)) => scalar(op, dst, reg(other), walk.constant(i, data, row)),
                    None => binary(op, dst, reg(a), reg(b)),
                },
                Instr::Scalar(op, a, s) => scalar(op, dst, reg(a), s.elem::<E>()),
            }
        }
        if streamed {
            stream::stream_copy(&mut out[done..done + len], regs.get(count - 1, len));
        }
        done += len;
    }
}

/// [`run`] for a [`single_pass`] program: each row segment goes from the inputs to `out` in
/// one loop, with no registers and no blocks.
#[inline(always)]
fn run_direct<E: FloatElement>(
    program: &Program,
    data: &[&[E]],
    walk: &Walk,
    start: usize,
    out: &mut [E],
) {
    for [row, col, done, len] in walk.segments(start, out.len()) {
        let input = |r: usize| match program.instrs[r] {
            Instr::Load(i) => {
                let from = walk.position(i, row, col);
                &data[i][from..from + len]
            }
            _ => unreachable!("a single pass computes from loads only"),
        };
        let dst = &mut out[done..done + len];
        match program.instrs[program.instrs.len() - 1] {
            Instr::Unary(op, a) => unary(op, dst, input(a)),
            Instr::Binary(op, a, b) => match row_constant_operand(program, walk, a, b) {
                Some((other, i)) => scalar(op, dst, input(other), walk.constant(i, data, row)),
                None => binary(op, dst, input(a), input(b)),
            },
            Instr::Scalar(op, a, s) => scalar(op, dst, input(a), s.elem::<E>()),
            Instr::Load(_) => unreachable!("a single pass ends with its operation"),
        }
    }
}

/// For `a op b` with a row-constant operand (see [`Walk::row_constant`]): the other operand's
/// register and the constant's input. `b` when it is one, else `a` (then `op` commutes).
#[inline(always)]
fn row_constant_operand(
    program: &Program,
    walk: &Walk,
    a: usize,
    b: usize,
) -> Option<(usize, usize)> {
    let input = |k: usize| match program.instrs[k] {
        Instr::Load(i) if walk.row_constant[k] => Some(i),
        _ => None,
    };
    input(b)
        .map(|i| (a, i))
        .or_else(|| input(a).map(|i| (b, i)))
}

#[inline(always)]
fn load<E: Copy>(dst: &mut [E], src: &[E], start: usize, stride: isize) {
    match stride {
        1 => dst.copy_from_slice(&src[start..start + dst.len()]),
        0 => dst.fill(src[start]),
        // A flipped row, read forwards and written backwards (vectorizes).
        -1 => {
            let source = &src[start + 1 - dst.len()..=start];
            for (d, &x) in dst.iter_mut().zip(source.iter().rev()) {
                *d = x;
            }
        }
        _ => {
            let mut p = start as isize;
            for d in dst {
                *d = src[p as usize];
                p += stride;
            }
        }
    }
}

#[inline(always)]
fn map1<E: Copy>(dst: &mut [E], a: &[E], f: impl Fn(E) -> E) {
    for (d, &x) in dst.iter_mut().zip(a) {
        *d = f(x);
    }
}

#[inline(always)]
fn map2<E: Copy>(dst: &mut [E], a: &[E], b: &[E], f: impl Fn(E, E) -> E) {
    for (d, (&x, &y)) in dst.iter_mut().zip(a.iter().zip(b)) {
        *d = f(x, y);
    }
}

#[inline(always)]
fn unary<E: FloatElement>(op: Unary, dst: &mut [E], a: &[E]) {
    with_unary!(op, F => map1(dst, a, |x| F::apply(x, x)))
}

#[inline(always)]
fn binary<E: FloatElement>(op: Binary, dst: &mut [E], a: &[E], b: &[E]) {
    with_binary!(op, F => map2(dst, a, b, F::apply))
}

#[inline(always)]
fn scalar<E: FloatElement>(op: Binary, dst: &mut [E], a: &[E], s: E) {
    with_binary!(op, F => map1(dst, a, |x| F::apply(x, s)))
}
