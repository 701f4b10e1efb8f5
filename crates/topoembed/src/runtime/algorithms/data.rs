//! Deterministic inputs: every rank generates its own share from the global
//! index, so no rank has to hold or send the whole input.

/// splitmix64 (Steele, Lea & Flood): a well-mixed 64-bit hash of `x`.
#[inline]
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A value in [-1, 1) for element `index` of stream `stream`.
#[inline]
pub fn unit(stream: u64, index: u64) -> f64 {
    let bits = mix(mix(stream) ^ index) >> 11;
    bits as f64 / (1u64 << 52) as f64 - 1.0
}

/// An integer in `0..range` for element `index` of stream `stream`.
#[inline]
pub fn below(stream: u64, index: u64, range: u64) -> u64 {
    mix(mix(stream) ^ index) % range
}

/// Streams, one per input.
pub const FFT_INPUT: u64 = 1;
pub const SORT_KEYS: u64 = 2;
pub const REDUCE_VALUES: u64 = 3;
pub const MATRIX_A: u64 = 4;
pub const MATRIX_B: u64 = 5;
