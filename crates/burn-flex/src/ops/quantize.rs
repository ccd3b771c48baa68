//! Quantizing and dequantizing in one pass over the values.
//!
//! For `f32` tensors whose scheme is per tensor or has blocks along the last dim only, the
//! scales take one pass (the largest magnitude of each block) and the values another,
//! vectorized and split across threads for large tensors. Other cases take the composed
//! version (`ComposedQTensor`), which computes the same numbers through Flex's operations:
//! `scale = max|x| · 2 / (b − a)` (rounded through the scale dtype, at least the smallest
//! positive `f32`), `q = clamp(round_half_even(x / scale), a, b)`, `x̂ = q · scale`.

use crate::backend::Flex;
use crate::parallel;
use crate::tensor::pool;
use crate::{FlexTensor, ops::creation};
use burn_backend::quantization::{ComposedQTensor, QuantScheme, ScaleDtype};
use burn_backend::{DType, FloatDType, Shape};
use half::{bf16, f16};

type QTensor = ComposedQTensor<Flex>;

/// Elements per parallel task.
const CHUNK: usize = 1 << 16;

/// The length of the runs of consecutive elements that share a scale, when the fast path
/// applies: the whole tensor per tensor, the block's extent for blocks along the last dim.
fn run_length(tensor: &FlexTensor, scheme: &QuantScheme) -> Option<usize> {
    if tensor.dtype() != DType::F32 || !scheme.is_supported() || tensor.num_elements() == 0 {
        return None;
    }
    let shape = tensor.shape();
    match scheme.block_size() {
        None => Some(shape.num_elements()),
        Some(block) if block.as_slice().len() == 1 => {
            let extent = block.as_slice()[0] as usize;
            let last = *shape.dims.last()?;
            (last % extent == 0).then_some(extent)
        }
        Some(_) => None,
    }
}

/// The elements of one parallel task: whole runs of one scale (several short runs, or a
/// long run cut into pieces of `CHUNK` where it divides evenly).
fn piece_len(run: usize) -> usize {
    if run < CHUNK {
        CHUNK - CHUNK % run
    } else if run.is_multiple_of(CHUNK) {
        CHUNK
    } else {
        run
    }
}

/// `out[i] = f(src[i], scales[i / run])`: one scale per run of `run` elements, in parallel
/// pieces of whole runs, each compiled for the CPU's vector width.
fn map_runs<I: Copy + Sync, O: Send>(
    src: &[I],
    out: &mut [O],
    run: usize,
    scales: &[f32],
    f: impl Fn(I, f32) -> O + Sync,
) {
    let piece = piece_len(run);
    parallel::for_each_chunk_mut(out, piece, |c, out| {
        let src = &src[c * piece..][..out.len()];
        crate::simd::vectorized(|| {
            let len = run.min(piece);
            for (b, (out, src)) in out.chunks_mut(len).zip(src.chunks(len)).enumerate() {
                let s = scales[(c * piece) / run + b];
                for (o, &v) in out.iter_mut().zip(src) {
                    *o = f(v, s);
                }
            }
        })
    });
}

/// The scales of `scheme` from the largest magnitude of each block.
fn scale_of(scheme: &QuantScheme, alpha: f32) -> f32 {
    let (a, b) = scheme.value.range();
    let scale = alpha * (2.0 / (b as f64 - a as f64)) as f32;
    let scale = match scheme.scale_dtype() {
        ScaleDtype::F16 => f16::from_f32(scale).to_f32(),
        ScaleDtype::BF16 => bf16::from_f32(scale).to_f32(),
        _ => scale,
    };
    if scale < f32::MIN_POSITIVE {
        f32::MIN_POSITIVE
    } else {
        scale
    }
}

/// `tensor` quantized with `scheme`, the scales from its values.
pub fn quantize_dynamic(tensor: FlexTensor, scheme: &QuantScheme) -> QTensor {
    let Some(run) = run_length(&tensor, scheme) else {
        return QTensor::quantize_dynamic(tensor, scheme);
    };
    let x = tensor.values::<f32>();
    let scales: Vec<f32> = if run == x.len() {
        // One scale: the largest magnitude of pieces, in parallel.
        let alpha = parallel::map_chunks(&x, CHUNK, |_, piece| {
            crate::simd::vectorized(|| max_abs(piece))
        })
        .into_iter()
        .fold(0.0, f32::max);
        vec![scale_of(scheme, alpha)]
    } else {
        // Whole blocks per task, about `CHUNK` elements each.
        let per_task = (CHUNK / run).max(1) * run;
        parallel::map_chunks(&x, per_task, |_, piece| {
            piece
                .chunks(run)
                .map(|block| scale_of(scheme, crate::simd::vectorized(|| max_abs(block))))
                .collect::<Vec<f32>>()
        })
        .into_iter()
        .flatten()
        .collect()
    };
    let scales = if scales.is_empty() {
        vec![f32::MIN_POSITIVE]
    } else {
        scales
    };
    quantized(&x, tensor.shape(), scheme, run, scales)
}

/// `tensor` quantized with `scheme` and the given scales.
pub fn quantize(tensor: FlexTensor, scheme: &QuantScheme, scales: FlexTensor) -> QTensor {
    let run = run_length(&tensor, scheme);
    let expected = run.map(|r| tensor.num_elements().checked_div(r).unwrap_or(0).max(1));
    match run {
        Some(run) if scales.dtype() == DType::F32 && Some(scales.num_elements()) == expected => {
            let x = tensor.values::<f32>();
            quantized(&x, tensor.shape(), scheme, run, scales.to_vec::<f32>())
        }
        _ => QTensor::quantize(tensor, scheme, scales),
    }
}

/// The values `x` (row-major, `shape`) quantized with one scale per run of `run` elements.
fn quantized(
    x: &[f32],
    shape: &Shape,
    scheme: &QuantScheme,
    run: usize,
    scales: Vec<f32>,
) -> QTensor {
    let (lo, hi) = scheme.value.range();
    let mut values = pool::for_overwrite::<i8>(x.len());
    map_runs(x, &mut values, run, &scales, |v, s| {
        round_half_even((v / s).clamp(lo, hi)) as i8
    });
    let grid = grid_shape(shape, scheme, run);
    QTensor::new(
        FlexTensor::from_vec(values, shape.clone()),
        FlexTensor::from_vec(scales, grid),
        *scheme,
    )
}

/// The scale grid of a fast-path tensor: `[1]`, or the shape with the last dim in blocks.
fn grid_shape(shape: &Shape, scheme: &QuantScheme, run: usize) -> Shape {
    if scheme.block_size().is_none() {
        return Shape::from([1]);
    }
    let mut dims = shape.dims.clone();
    if let Some(last) = dims.last_mut() {
        *last /= run;
    }
    Shape::from(dims)
}

/// The float values `q · scale`, in `dtype`.
pub fn dequantize(tensor: QTensor, dtype: FloatDType) -> FlexTensor {
    let run = match tensor.scheme.block_size() {
        None => Some(tensor.values.num_elements()),
        Some(block) if block.as_slice().len() == 1 => Some(block.as_slice()[0] as usize),
        Some(_) => None,
    };
    let fast = tensor.values.dtype() == DType::I8 && tensor.values.num_elements() > 0;
    let Some(run) = run.filter(|&r| {
        fast && r > 0
            && tensor
                .values
                .shape()
                .dims
                .last()
                .is_some_and(|l| r == tensor.values.num_elements() || l % r == 0)
    }) else {
        return tensor.dequantize(dtype);
    };
    let q = tensor.values.values::<i8>();
    let scales = tensor.scales.values::<f32>();
    let mut out = pool::for_overwrite::<f32>(q.len());
    map_runs(&q, &mut out, run, &scales, |v, s| v as f32 * s);
    let out = FlexTensor::from_vec(out, tensor.values.shape().clone());
    match dtype {
        FloatDType::F32 => out,
        other => creation::cast(out, other.into()),
    }
}

/// `v` rounded to the nearest integer, ties to even, for `|v| < 2^22` (the callers clamp to
/// the value range first, which commutes with rounding to integer bounds). Adding and
/// subtracting 1.5 · 2^23 rounds in the FPU's default mode without a library call
/// (`f32::round_ties_even` is one on the baseline target), so the loop vectorizes.
#[inline(always)]
fn round_half_even(v: f32) -> f32 {
    const MAGIC: f32 = 12_582_912.0;
    (v + MAGIC) - MAGIC
}

/// The largest magnitude of `block` (NaN-free input assumed; a NaN is skipped).
fn max_abs(block: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 16];
    let mut chunks = block.chunks_exact(16);
    for chunk in &mut chunks {
        for (m, &v) in lanes.iter_mut().zip(chunk) {
            *m = m.max(v.abs());
        }
    }
    let tail = chunks
        .remainder()
        .iter()
        .fold(0.0f32, |m, &v| m.max(v.abs()));
    lanes.iter().fold(tail, |m, &v| m.max(v))
}
