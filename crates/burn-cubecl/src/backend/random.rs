//! Seeding: after `Backend::seed`, every random tensor draws from a seed derived from the user's
//! seed and a counter, so a seeded program produces the same tensors on every run.

use std::sync::Mutex;

/// The user's seed and how many random tensors were drawn since it was set.
static STATE: Mutex<Option<(u64, u64)>> = Mutex::new(None);

/// Seeds the random tensors that follow (on every CubeCL device).
pub(super) fn seed(seed: u64) {
    *STATE.lock().unwrap_or_else(|e| e.into_inner()) = Some((seed, 0));
}

/// The seed of the next random tensor, or `None` when the user never seeded (CubeCL then
/// seeds from entropy).
pub(super) fn next_seed() -> Option<u64> {
    let mut state = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let (seed, count) = state.as_mut()?;
    *count += 1;
    Some(splitmix64(seed.wrapping_add(count.wrapping_mul(0x9e37_79b9_7f4a_7c15))))
}

/// One step of SplitMix64: spreads consecutive inputs over the whole range.
fn splitmix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
