//! The `#[cube]` side of the sort: the order of slots, and the kernels that fill the work
//! buffers, run the bitonic network's stages and write the results (see the parent module).

use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// Whether `value` is NaN, written so that it holds on targets whose `!=` is ordered (NaN is
/// the one value not equal to itself; always false for integers).
#[cube]
#[allow(clippy::eq_op)]
fn is_nan<C: Numeric>(value: C) -> bool {
    let equal = value == value;
    !equal
}

/// Whether the slot `(a, ia)` goes before `(b, ib)`: padding (an index of `n` or more) after
/// everything, else by value in the requested direction with NaN the largest value, ties by
/// original index. Indices are distinct, so this is a strict total order.
#[cube]
fn goes_before<C: Numeric>(
    a: C,
    ia: u32,
    b: C,
    ib: u32,
    n: u32,
    #[comptime] descending: bool,
) -> bool {
    let a_nan = is_nan::<C>(a);
    let b_nan = is_nan::<C>(b);
    let mut less = a < b || (!a_nan && b_nan);
    if comptime![descending] {
        less = b < a || (!b_nan && a_nan);
    }
    let tie = a == b || (a_nan && b_nan);
    let by_value = less || (tie && ia < ib);
    let a_pad = ia >= n;
    let b_pad = ib >= n;
    let padded = a_pad || b_pad;
    (padded && (!a_pad || (b_pad && ia < ib))) || (!padded && by_value)
}

/// The offset of row `row`'s first element: its coordinates along the other dims (`sizes`,
/// row-major) times their `strides`.
#[cube]
fn row_offset(row: usize, sizes: &Sequence<FastDivmod<usize>>, strides: &Sequence<usize>) -> usize {
    let rank = comptime![sizes.len()];
    let mut remaining = row;
    let mut offset = 0;
    #[unroll]
    for i in 0..rank {
        let dim = comptime![rank - 1 - i];
        let (quotient, coordinate) = sizes[dim].div_mod(remaining);
        offset += coordinate * strides[dim];
        remaining = quotient;
    }
    offset
}

/// Slot `s` of row `s >> log_m` takes element `s & (m - 1)` of that row (read at `stride`
/// steps from the row's offset) and that index; slots past the row's `n` elements are padding.
#[cube(launch, address_type = "dynamic")]
pub(super) fn init_kernel<C: Numeric>(
    input: &[C],
    keys: &mut [C],
    order: &mut [u32],
    sizes: Sequence<FastDivmod<usize>>,
    strides: Sequence<usize>,
    stride: usize,
    n: usize,
    log_m: usize,
    slots: usize,
    #[define(C)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= slots {
        terminate!();
    }
    let row = ABSOLUTE_POS >> log_m;
    let i = ABSOLUTE_POS - (row << log_m);
    order[ABSOLUTE_POS] = u32::cast_from(i);
    if i < n {
        keys[ABSOLUTE_POS] = input[row_offset(row, &sizes, &strides) + i * stride];
    } else {
        keys[ABSOLUTE_POS] = C::from_int(0);
    }
}

/// Whether the pair `(a, ia)`, `(b, ib)` (in slot order) must be exchanged: `up` pairs end in
/// [`goes_before`] order, the others in reverse (which builds the bitonic sequences the later
/// stages merge).
#[cube]
fn must_swap<C: Numeric>(
    a: C,
    ia: u32,
    b: C,
    ib: u32,
    up: bool,
    n: u32,
    #[comptime] descending: bool,
) -> bool {
    let b_first = goes_before::<C>(b, ib, a, ia, n, descending);
    (up && b_first) || (!up && !b_first)
}

/// Orders slots `s` and `t` of the work buffers, ascending when bit `k` of `s`'s position in
/// its row is clear (see [`must_swap`]).
#[cube]
#[allow(clippy::too_many_arguments)]
fn compare_exchange<C: Numeric>(
    keys: &mut [C],
    order: &mut [u32],
    s: usize,
    t: usize,
    k: usize,
    row_mask: usize,
    n: u32,
    #[comptime] descending: bool,
) {
    let a = keys[s];
    let ia = order[s];
    let b = keys[t];
    let ib = order[t];
    if must_swap::<C>(a, ia, b, ib, (s & row_mask & k) == 0, n, descending) {
        keys[s] = b;
        order[s] = ib;
        keys[t] = a;
        order[t] = ia;
    }
}

/// The slot of the `p`-th pair of stage `j`: the `p`-th slot whose bit `j` is clear (its
/// partner is `j` slots further).
#[cube]
fn pair_slot(p: usize, j: usize) -> usize {
    let low = p & (j - 1);
    ((p - low) << 1) + low
}

/// The `stages` consecutive stages `(k, j)`, `(k, j/2)`, … down to `(k, lo)` over every row in
/// one pass: unit `u` loads the `2^stages` slots `base + e·lo`, `base` being `u` with
/// `stages` zero bits inserted at bit `lo`; those stages exchange these slots only among
/// themselves, so the unit applies them in registers and writes the slots back once.
#[cube(launch, address_type = "dynamic")]
#[allow(clippy::too_many_arguments)]
pub(super) fn merge_kernel<C: Numeric>(
    keys: &mut [C],
    order: &mut [u32],
    groups: usize,
    n: u32,
    row_mask: usize,
    k: usize,
    lo: usize,
    #[comptime] stages: usize,
    #[comptime] descending: bool,
    #[define(C)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= groups {
        terminate!();
    }
    let size = comptime![1usize << stages];
    let low = ABSOLUTE_POS & (lo - 1);
    let base = (ABSOLUTE_POS - low) * size + low;
    // Every slot of the group shares `base`'s bit `k` (the offsets stay below `k`).
    let up = (base & row_mask & k) == 0;
    let mut values = Array::<C>::new(size);
    let mut indices = Array::<u32>::new(size);
    #[unroll]
    for e in 0..size {
        values[e] = keys[base + e * lo];
        indices[e] = order[base + e * lo];
    }
    #[unroll]
    for r in 0..stages {
        let d = comptime![1usize << (stages - 1 - r)];
        #[unroll]
        for e in 0..size {
            if comptime![e & d == 0] {
                let a = values[e];
                let ia = indices[e];
                let b = values[e + d];
                let ib = indices[e + d];
                if must_swap::<C>(a, ia, b, ib, up, n, descending) {
                    values[e] = b;
                    indices[e] = ib;
                    values[e + d] = a;
                    indices[e + d] = ia;
                }
            }
        }
    }
    #[unroll]
    for e in 0..size {
        keys[base + e * lo] = values[e];
        order[base + e * lo] = indices[e];
    }
}

/// Every stage `(k, j)` with `k` from `k_first` to `k_last` (doubling) and `j < chunk`, one
/// unit per chunk of `chunk` consecutive slots (a power of two dividing the padded row
/// length, so a chunk lies within one row and its stages touch no other chunk).
///
/// A cube-wide version in shared memory would share the work among more units, but CubeCL
/// 0.11's SPIR-V for shared memory on drivers without explicit workgroup layouts (lavapipe:
/// the workgroup variable is declared as a pointer to a pointer) crashes the driver's
/// compiler, so each unit works in the global buffers.
#[cube(launch, address_type = "dynamic")]
#[allow(clippy::too_many_arguments)]
pub(super) fn chunk_kernel<C: Numeric>(
    keys: &mut [C],
    order: &mut [u32],
    chunks: usize,
    chunk: usize,
    n: u32,
    row_mask: usize,
    k_first: usize,
    k_last: usize,
    #[comptime] descending: bool,
    #[define(C)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= chunks {
        terminate!();
    }
    let base = ABSOLUTE_POS * chunk;
    let half = chunk >> 1;
    let mut k = k_first;
    while k <= k_last {
        let mut j = select(k < chunk, k >> 1, half);
        while j > 0 {
            for p in 0..half {
                let s = base + pair_slot(p, j);
                compare_exchange::<C>(keys, order, s, s + j, k, row_mask, n, descending);
            }
            j >>= 1;
        }
        k <<= 1;
    }
}

/// Element `i` of row `row` (unit `row · n + i`) of the outputs takes sorted slot
/// `(row << log_m) + i`: the value into `values`, the original index as `I` into `indices`
/// (each written only when asked for).
#[cube(launch, address_type = "dynamic")]
pub(super) fn finish_kernel<C: Numeric, I: Numeric>(
    keys: &[C],
    order: &[u32],
    values: &mut [C],
    indices: &mut [I],
    sizes: Sequence<FastDivmod<usize>>,
    strides: Sequence<usize>,
    stride: usize,
    n: FastDivmod<usize>,
    log_m: usize,
    units: usize,
    #[comptime] write_values: bool,
    #[comptime] write_indices: bool,
    #[define(C, I)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= units {
        terminate!();
    }
    let (row, i) = n.div_mod(ABSOLUTE_POS);
    let slot = (row << log_m) + i;
    let at = row_offset(row, &sizes, &strides) + i * stride;
    if comptime![write_values] {
        values[at] = keys[slot];
    }
    if comptime![write_indices] {
        indices[at] = I::cast_from(order[slot]);
    }
}
