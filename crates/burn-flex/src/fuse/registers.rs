//! The registers of one thread's evaluation, placed so that they do not alias the streams.
//!
//! A CPU checks each load against the stores still in flight by the low 12 bits of their
//! addresses (4 KiB aliasing): a load whose address matches a recent store's in those bits
//! waits for it even though the two never overlap. A fused chain's passes load a block of an
//! input (or of a register) and store a register (or the output) at the same index, so when the
//! store's address sits just above the load's modulo 4 KiB, every load of the pass stalls.
//! Registers allocated one by one land wherever the allocator puts them; on W2 (`exp(a*b + c)`,
//! inputs at the same offset modulo 4 KiB, as large allocations are) an unlucky placement cost
//! 15–20 % (measured by placing the registers at chosen offsets).
//!
//! So the registers live in one arena, each at an offset modulo the aliasing period chosen in
//! the widest gap between the streams' offsets (inputs read in place, the output), spread
//! evenly there and cache-line aligned. A stream advances one block per step and a block is a
//! whole fraction of 4 KiB, so only offsets modulo the block's bytes (at most 4 KiB) matter.

use super::eval::BLOCK;

/// The period of the address bits loads are checked against stores by.
const ALIAS_PERIOD: usize = 4096;

/// A cache line: registers start on one.
const LINE: usize = 64;

/// `count` registers of [`BLOCK`] values of `E`, at offsets away from the streams.
pub struct Registers<E> {
    arena: Vec<E>,
    /// Where register `k` starts in `arena`, increasing with `k`.
    starts: Vec<usize>,
}

impl<E: Copy + Default> Registers<E> {
    /// Registers for a program of `count` instructions, of which `written[k]` says whether
    /// register `k` is ever stored (a load read in place is not), away from the `streams`
    /// (addresses at which blocks of inputs are read and of the output written).
    pub fn new(written: &[bool], streams: &[usize]) -> Self {
        let size = std::mem::size_of::<E>().max(1);
        let block_bytes = BLOCK * size;
        let circle = block_bytes.min(ALIAS_PERIOD);
        let offsets = spread_offsets(written, streams, circle);
        // Register k at byte `k * block_bytes + offsets[k]` past a base aligned to `circle`:
        // the offsets do not decrease, so the registers do not overlap.
        let count = written.len();
        let arena_bytes = (count + 1) * block_bytes + circle;
        let arena = vec![E::default(); arena_bytes.div_ceil(size)];
        let address = arena.as_ptr() as usize;
        let base = (circle - address % circle) % circle;
        let starts = (0..count)
            .map(|k| (base + k * block_bytes + offsets[k]) / size)
            .collect();
        Self { arena, starts }
    }

    /// The first `len` values of register `k`.
    pub fn get(&self, k: usize, len: usize) -> &[E] {
        let start = self.starts[k];
        &self.arena[start..start + len]
    }

    /// The arena's first value, for access through pointers, and where each register starts
    /// past it (each holds [`BLOCK`] values).
    pub fn raw(&mut self) -> (*mut E, &[usize]) {
        (self.arena.as_mut_ptr(), &self.starts)
    }

    /// Registers `0..k` (read) and register `k` (written), `len` values each.
    pub fn split(&mut self, k: usize, len: usize) -> (Before<'_, E>, &mut [E]) {
        let (before, rest) = self.arena.split_at_mut(self.starts[k]);
        (
            Before {
                arena: before,
                starts: &self.starts[..k],
                len,
            },
            &mut rest[..len],
        )
    }
}

/// The registers before the one being written.
pub struct Before<'a, E> {
    arena: &'a [E],
    starts: &'a [usize],
    len: usize,
}

impl<E> Before<'_, E> {
    /// Register `r` (`r` below the one being written).
    #[inline(always)]
    pub fn get(&self, r: usize) -> &[E] {
        let start = self.starts[r];
        &self.arena[start..start + self.len]
    }
}

/// Byte offsets (below `circle`, non-decreasing in `k`) for the written registers, spread
/// evenly over the widest gap between the streams' offsets modulo `circle` and line aligned;
/// registers never written get the previous offset (they take no cache).
fn spread_offsets(written: &[bool], streams: &[usize], circle: usize) -> Vec<usize> {
    let mut points: Vec<usize> = streams.iter().map(|s| s % circle).collect();
    points.sort_unstable();
    points.dedup();
    // The widest gap: from `start`, `width` bytes up (wrapping) without a stream.
    let (start, width) = if points.is_empty() {
        (0, circle)
    } else {
        (0..points.len())
            .map(|i| {
                let next = points.get(i + 1).copied().unwrap_or(points[0] + circle);
                (points[i], next - points[i])
            })
            .max_by_key(|&(_, width)| width)
            .expect("a point")
    };
    let used = written.iter().filter(|&&w| w).count();
    let mut raw: Vec<usize> = (0..used)
        .map(|j| {
            let at = start + width * (j + 1) / (used + 1);
            (at / LINE * LINE) % circle
        })
        .collect();
    raw.sort_unstable();
    let mut next = raw.into_iter();
    let mut last = 0;
    written
        .iter()
        .map(|&w| {
            if w {
                last = next.next().expect("one offset per written register");
            }
            last
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The least distance, modulo `circle`, from `offset` to any stream.
    fn clearance(offset: usize, streams: &[usize], circle: usize) -> usize {
        streams
            .iter()
            .map(|s| {
                let d = (offset + circle - s % circle) % circle;
                d.min(circle - d)
            })
            .min()
            .unwrap_or(circle)
    }

    #[test]
    fn registers_keep_away_from_the_streams_and_from_one_another() {
        // W2: three inputs and the output at 16 bytes past a page, as large allocations are.
        let streams = [
            0x7f00_0000_0010,
            0x7f10_0000_0010,
            0x7f20_0000_0010,
            0x7f30_0000_0010,
        ];
        let written = [false, false, true, false, true, true];
        let offsets = spread_offsets(&written, &streams, 2048);
        let mut used: Vec<usize> = written
            .iter()
            .zip(&offsets)
            .filter(|(w, _)| **w)
            .map(|(_, &o)| o)
            .collect();
        for &o in &used {
            assert_eq!(o % LINE, 0, "{o} is not line aligned");
            assert!(
                clearance(o, &streams, 2048) >= 448,
                "offset {o:#x} near a stream"
            );
        }
        used.dedup();
        assert_eq!(used.len(), 3, "registers share an offset: {offsets:?}");
        assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "{offsets:?}");
    }

    #[test]
    fn the_arena_places_registers_where_planned_without_overlap() {
        let streams = [0x1000_0010, 0x2000_0400];
        let written = [true; 6];
        let mut regs = Registers::<f32>::new(&written, &streams);
        let offsets = spread_offsets(&written, &streams, 2048);
        for (k, &offset) in offsets.iter().enumerate() {
            let (before, reg) = regs.split(k, BLOCK);
            assert_eq!(reg.as_ptr() as usize % 2048, offset);
            for r in 0..k {
                let prev = before.get(r);
                let end = prev.as_ptr() as usize + BLOCK * 4;
                assert!(end <= reg.as_ptr() as usize, "register {r} overlaps {k}");
            }
            reg.fill(k as f32);
        }
        // Each register kept its own values.
        for k in 1..6 {
            let (before, _) = regs.split(k, BLOCK);
            assert!(before.get(k - 1).iter().all(|&v| v == (k - 1) as f32));
        }
        // No streams: spread over the whole circle.
        let offsets = spread_offsets(&[true, true, true], &[], 1024);
        assert_eq!(offsets, [256, 512, 768]);
    }
}
