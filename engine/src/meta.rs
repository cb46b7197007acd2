//! Document metadata: ETag and YAML front matter.
use sha2::{Digest, Sha256};

/// Strong ETag of `bytes`: the first 128 bits of SHA-256 as 32 lowercase hex digits, quoted.
pub fn etag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(34);
    out.push('"');
    for b in &digest[..16] {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
    out.push('"');
    out
}
