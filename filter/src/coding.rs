//! Content codings the filter undoes itself before converting: `gzip`, `deflate`, `br`.
//!
//! Why not Envoy's decompressor filter in front of this one: at end of stream it adds
//! response trailers (byte counts), and Envoy's filter manager never delivers trailers added
//! that way to a later filter that is buffering the body (envoyproxy/envoy#29879), so every
//! compressed response the filter tries to convert would hang until a timeout. Decoding
//! here also keeps the bytes of unconverted responses exactly the origin's.
//!
//! Decoding is bounded: output beyond the limit (`max_body_bytes`) stops it, so a small
//! compressed body cannot expand into an unbounded buffer.

use std::io::Read;

use crate::headers::{trim_ows, values, Header};

/// Longest chain of codings accepted (`Content-Encoding: gzip, br` is two).
pub const MAX_CODINGS: usize = 4;

/// A content coding the filter can decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Gzip,
    Deflate,
    Brotli,
}

/// The response's `Content-Encoding`, as far as the filter is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Codings {
    /// Absent, empty or only `identity`.
    Identity,
    /// Codings in the order they were applied.
    Known(Vec<Coding>),
    /// Something the filter cannot decode.
    Unsupported,
}

impl Codings {
    pub fn from_headers(headers: &[Header]) -> Codings {
        let mut out = Vec::new();
        for value in values(headers, "content-encoding") {
            for member in value.split(|&b| b == b',').map(trim_ows) {
                let coding = if member.is_empty() || member.eq_ignore_ascii_case(b"identity") {
                    continue;
                } else if member.eq_ignore_ascii_case(b"gzip")
                    || member.eq_ignore_ascii_case(b"x-gzip")
                {
                    Coding::Gzip
                } else if member.eq_ignore_ascii_case(b"deflate") {
                    Coding::Deflate
                } else if member.eq_ignore_ascii_case(b"br") {
                    Coding::Brotli
                } else {
                    return Codings::Unsupported;
                };
                if out.len() == MAX_CODINGS {
                    return Codings::Unsupported;
                }
                out.push(coding);
            }
        }
        if out.is_empty() {
            Codings::Identity
        } else {
            Codings::Known(out)
        }
    }
}

/// Why a body could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// The decoded body is larger than the limit.
    OverLimit,
    /// Not valid data for the declared coding.
    Corrupt,
}

/// Undo `codings` (applied in order, so undone last-first), producing at most `limit` bytes.
pub fn decode(body: &[u8], codings: &[Coding], limit: u64) -> Result<Vec<u8>, DecodeError> {
    let mut data = body.to_vec();
    for coding in codings.iter().rev() {
        data = decode_one(&data, *coding, limit)?;
    }
    Ok(data)
}

fn decode_one(input: &[u8], coding: Coding, limit: u64) -> Result<Vec<u8>, DecodeError> {
    match coding {
        Coding::Gzip => read_limited(flate2::read::MultiGzDecoder::new(input), limit),
        // RFC 9110 `deflate` is the zlib format, but some servers send raw deflate.
        Coding::Deflate => {
            read_limited(flate2::read::ZlibDecoder::new(input), limit).or_else(|e| match e {
                DecodeError::Corrupt => {
                    read_limited(flate2::read::DeflateDecoder::new(input), limit)
                }
                DecodeError::OverLimit => Err(e),
            })
        }
        Coding::Brotli => read_limited(
            brotli_decompressor::Decompressor::new(input, 64 * 1024),
            limit,
        ),
    }
}

fn read_limited(reader: impl Read, limit: u64) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|_| DecodeError::Corrupt)?;
    if u64::try_from(out.len()).map_or(true, |n| n > limit) {
        return Err(DecodeError::OverLimit);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] =
        b"<html><body><p>Hello, compressed world. Hello, compressed world.</p></body></html>";

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn raw_deflate(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn brotli(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
            w.write_all(data).unwrap();
        }
        out
    }

    fn ce(v: &str) -> Codings {
        Codings::from_headers(&[("content-encoding".into(), v.as_bytes().to_vec())])
    }

    #[test]
    fn parses_codings() {
        assert_eq!(Codings::from_headers(&[]), Codings::Identity);
        assert_eq!(ce("identity"), Codings::Identity);
        assert_eq!(ce(""), Codings::Identity);
        assert_eq!(ce("GZIP"), Codings::Known(vec![Coding::Gzip]));
        assert_eq!(ce("x-gzip"), Codings::Known(vec![Coding::Gzip]));
        assert_eq!(
            ce("deflate, identity, br"),
            Codings::Known(vec![Coding::Deflate, Coding::Brotli])
        );
        assert_eq!(ce("zstd"), Codings::Unsupported);
        assert_eq!(ce("gzip, compress"), Codings::Unsupported);
        assert_eq!(ce("gzip,gzip,gzip,gzip,gzip"), Codings::Unsupported);
        let two_lines = vec![
            ("content-encoding".to_owned(), b"gzip".to_vec()),
            ("content-encoding".to_owned(), b"br".to_vec()),
        ];
        assert_eq!(
            Codings::from_headers(&two_lines),
            Codings::Known(vec![Coding::Gzip, Coding::Brotli])
        );
    }

    #[test]
    fn decodes_each_coding() {
        assert_eq!(decode(&gzip(TEXT), &[Coding::Gzip], 1000).unwrap(), TEXT);
        assert_eq!(decode(&zlib(TEXT), &[Coding::Deflate], 1000).unwrap(), TEXT);
        assert_eq!(
            decode(&raw_deflate(TEXT), &[Coding::Deflate], 1000).unwrap(),
            TEXT
        );
        assert_eq!(
            decode(&brotli(TEXT), &[Coding::Brotli], 1000).unwrap(),
            TEXT
        );
    }

    #[test]
    fn decodes_a_chain_last_applied_first() {
        // Content-Encoding: gzip, br  — gzip applied first, then br.
        let body = brotli(&gzip(TEXT));
        assert_eq!(
            decode(&body, &[Coding::Gzip, Coding::Brotli], 1000).unwrap(),
            TEXT
        );
        assert_eq!(
            decode(&body, &[Coding::Brotli, Coding::Gzip], 1000),
            Err(DecodeError::Corrupt)
        );
    }

    #[test]
    fn output_is_bounded() {
        let big = vec![b'a'; 1 << 20];
        let bomb = gzip(&big);
        assert!(bomb.len() < 4096);
        assert_eq!(
            decode(&bomb, &[Coding::Gzip], (1 << 20) - 1),
            Err(DecodeError::OverLimit)
        );
        assert_eq!(
            decode(&bomb, &[Coding::Gzip], 1 << 20).unwrap().len(),
            1 << 20
        );
    }

    #[test]
    fn corrupt_data_is_reported() {
        assert_eq!(
            decode(TEXT, &[Coding::Gzip], 1000),
            Err(DecodeError::Corrupt)
        );
        assert_eq!(
            decode(b"\xff\xff\xff", &[Coding::Brotli], 1000),
            Err(DecodeError::Corrupt)
        );
        let mut truncated = gzip(TEXT);
        truncated.truncate(truncated.len() / 2);
        assert_eq!(
            decode(&truncated, &[Coding::Gzip], 1000),
            Err(DecodeError::Corrupt)
        );
    }
}
