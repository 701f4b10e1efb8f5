//! Binary-reflected Gray code (BRGC) conversions and bit-field helpers.
//!
//! Lecture notes (metrics), eq. (1): `G(n) = B(n) XOR (B(n) >> 1)`; the inverse
//! is a prefix XOR from the most significant bit down (their figure 5).

/// Binary to Gray: `x ^ (x >> 1)`.
#[inline]
pub fn btog(x: u64) -> u64 {
    x ^ (x >> 1)
}

/// Gray to binary: bit k of the result is the XOR of Gray bits k and above,
/// computed in log2(64) shifts.
#[inline]
pub fn gtob(mut g: u64) -> u64 {
    g ^= g >> 1;
    g ^= g >> 2;
    g ^= g >> 4;
    g ^= g >> 8;
    g ^= g >> 16;
    g ^= g >> 32;
    g
}

/// ⌈log2 x⌉: the bits that number x things (0 for x ≤ 1).
#[inline]
pub fn ceil_log2(x: u64) -> u32 {
    64 - x.saturating_sub(1).leading_zeros()
}

/// Bit widths of power-of-two sides: `[8, 4]` -> `[3, 2]`; `None` if a side is
/// not a power of two.
pub fn pow2_widths(sides: &[u64]) -> Option<Vec<u32>> {
    sides
        .iter()
        .map(|&s| s.is_power_of_two().then(|| s.trailing_zeros()))
        .collect()
}

/// Mask with the highest bit of every field set, fields laid out from bit 0
/// upward with the given widths (width-0 fields are skipped).
pub fn field_top_bits(widths: &[u32]) -> u64 {
    let mut mask = 0;
    let mut offset = 0;
    for &w in widths {
        if w > 0 {
            mask |= 1 << (offset + w - 1);
        }
        offset += w;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lecture notes' three-bit table (figure 2 of the Gray/trees notes).
    #[test]
    fn three_bit_table() {
        let gray = [0b000, 0b001, 0b011, 0b010, 0b110, 0b111, 0b101, 0b100];
        for (b, &g) in gray.iter().enumerate() {
            assert_eq!(btog(b as u64), g);
            assert_eq!(gtob(g), b as u64);
        }
    }

    /// The worked conversion G = 1101 -> B = 1001 (metrics notes, figure 5).
    #[test]
    fn worked_conversion() {
        assert_eq!(gtob(0b1101), 0b1001);
    }

    #[test]
    fn inverse_on_many_values() {
        for x in (0..1u64 << 16).chain([u64::MAX, 1 << 63, 0xdead_beef_cafe]) {
            assert_eq!(gtob(btog(x)), x);
            assert_eq!(
                u64::from((btog(x) ^ btog(x.wrapping_add(1))).count_ones()),
                1
            );
        }
    }

    #[test]
    fn field_masks() {
        assert_eq!(pow2_widths(&[8, 4]), Some(vec![3, 2]));
        assert_eq!(pow2_widths(&[8, 6]), None);
        assert_eq!(field_top_bits(&[3, 3]), 0b100_100);
        assert_eq!(field_top_bits(&[1, 2]), 0b101);
    }
}
