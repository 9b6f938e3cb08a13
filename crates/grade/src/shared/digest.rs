//! The digest a grading records of what decides its marks (each fixture's
//! bytes, a marking scheme, a submission's sources) and shards by (the
//! submissions' names): FNV-1a, 64 bits. It tells a changed file from an
//! unchanged one and is the same on every machine; it is no defence
//! against someone who crafts two files of one digest (nothing a grading
//! reads from such a person is trusted on its digest alone).

/// The FNV-1a digest of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_more(0xcbf2_9ce4_8422_2325, bytes)
}

/// The digest of what `digest` was of, followed by `bytes`.
pub fn fnv1a_more(digest: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(digest, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_test_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(fnv1a_more(fnv1a(b"foo"), b"bar"), fnv1a(b"foobar"));
    }
}
