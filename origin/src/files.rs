//! Static files: safe path resolution, content types, an mtime-validated in-memory cache,
//! directory listings and the 200/206/304/416 logic for a representation.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::Hasher;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

use crate::conditional::{self, RangeOutcome};
use crate::gen::escape_html;
use crate::http::{percent_decode, percent_encode_path, Body, Payload, Request, Response};

#[derive(Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// 400: undecodable, contains NUL/backslash or a `..` segment.
    BadPath,
    /// 403: resolves (through a symlink) outside the root.
    Forbidden,
    /// 404
    NotFound,
}

impl ResolveError {
    pub fn response(&self) -> Response {
        match self {
            ResolveError::BadPath => Response::html_status(400, "Invalid path."),
            ResolveError::Forbidden => Response::html_status(403, "Outside the document root."),
            ResolveError::NotFound => Response::html_status(404, "No such file."),
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    File(PathBuf),
    Dir(PathBuf),
}

/// Maps an already percent-decoded URL path (or `file=` parameter) onto `root`, which must be
/// canonical. `..` is rejected outright rather than normalised, and the final canonical path must
/// stay under `root` so symlinks cannot escape it either.
pub fn resolve(root: &Path, decoded: &str) -> Result<Target, ResolveError> {
    if decoded.contains(['\0', '\\']) {
        return Err(ResolveError::BadPath);
    }
    let mut path = root.to_path_buf();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(ResolveError::BadPath),
            s => path.push(s),
        }
    }
    let canonical = path.canonicalize().map_err(|_| ResolveError::NotFound)?;
    if !canonical.starts_with(root) {
        return Err(ResolveError::Forbidden);
    }
    let meta = std::fs::metadata(&canonical).map_err(|_| ResolveError::NotFound)?;
    if meta.is_dir() {
        Ok(Target::Dir(canonical))
    } else if meta.is_file() {
        Ok(Target::File(canonical))
    } else {
        Err(ResolveError::NotFound)
    }
}

/// Percent-decodes a raw URL path; `None` if the result is not UTF-8.
pub fn decode_url_path(raw: &str) -> Option<String> {
    String::from_utf8(percent_decode(raw, false)).ok()
}

/// Content-Type by extension. HTML deliberately has no charset parameter: corpus pages declare
/// their encoding in `<meta>`, and the converter must find it there.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html",
        "xhtml" => "application/xhtml+xml",
        "md" | "markdown" => "text/markdown; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "pdf" => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// Strong validator: hash of the bytes plus their length.
pub fn etag_for(data: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    h.write(data);
    h.write_usize(data.len());
    format!("\"{:016x}-{:x}\"", h.finish(), data.len())
}

pub struct FileEntry {
    pub data: Arc<Vec<u8>>,
    pub etag: String,
    pub modified: SystemTime,
    gzip: OnceLock<Arc<Vec<u8>>>,
    brotli: OnceLock<Arc<Vec<u8>>>,
}

impl FileEntry {
    pub fn new(data: Vec<u8>, modified: SystemTime) -> FileEntry {
        FileEntry {
            etag: etag_for(&data),
            data: Arc::new(data),
            modified,
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
        }
    }

    /// Gzip of the file, computed once per cached entry.
    pub fn gzip(&self) -> Arc<Vec<u8>> {
        Arc::clone(self.gzip.get_or_init(|| {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            // Writing into a Vec cannot fail.
            let _ = enc.write_all(&self.data);
            Arc::new(enc.finish().unwrap_or_default())
        }))
    }

    /// Brotli of the file, computed once per cached entry.
    pub fn brotli(&self) -> Arc<Vec<u8>> {
        Arc::clone(self.brotli.get_or_init(|| {
            let mut enc = brotli::CompressorWriter::new(Vec::new(), 64 * 1024, 6, 22);
            let _ = enc.write_all(&self.data);
            let _ = enc.flush();
            Arc::new(enc.into_inner())
        }))
    }
}

/// Files larger than this are read per request instead of cached.
const MAX_CACHED_FILE: u64 = 64 * 1024 * 1024;
/// When the cached bytes would exceed this, the cache starts over.
const CACHE_BUDGET: u64 = 512 * 1024 * 1024;

struct Cached {
    modified: SystemTime,
    len: u64,
    entry: Arc<FileEntry>,
}

/// In-memory file cache keyed by path and validated against mtime and size on every hit, so
/// edits to the corpus show up immediately.
#[derive(Default)]
pub struct FileCache {
    map: Mutex<HashMap<PathBuf, Cached>>,
}

impl FileCache {
    pub fn load(&self, path: &Path) -> io::Result<Arc<FileEntry>> {
        let meta = std::fs::metadata(path)?;
        let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let len = meta.len();
        if let Some(hit) = self.lock().get(path) {
            if hit.modified == modified && hit.len == len {
                return Ok(Arc::clone(&hit.entry));
            }
        }
        let data = std::fs::read(path)?;
        // Key on the metadata seen before reading; if the file changed meanwhile, the next
        // request sees a different mtime/len and reloads.
        let entry = Arc::new(FileEntry::new(data, modified));
        if len <= MAX_CACHED_FILE {
            let mut map = self.lock();
            let used: u64 = map.values().map(|c| c.len).sum();
            if used + len > CACHE_BUDGET {
                map.clear();
            }
            map.insert(
                path.to_path_buf(),
                Cached {
                    modified,
                    len,
                    entry: Arc::clone(&entry),
                },
            );
        }
        Ok(entry)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Cached>> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// HTML index of a directory; `url_path` is the decoded request path ending in `/`.
pub fn listing(dir: &Path, url_path: &str) -> io::Result<Vec<u8>> {
    let mut names: Vec<(String, bool)> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if name.starts_with('.') {
                return None;
            }
            // Follow symlinks so linked directories are listed as directories.
            let is_dir = std::fs::metadata(e.path()).ok()?.is_dir();
            Some((name, is_dir))
        })
        .collect();
    names.sort();
    let title = escape_html(&format!("Index of {url_path}"));
    let mut out = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n\
         <body>\n<h1>{title}</h1>\n<ul>\n"
    );
    if url_path != "/" {
        out.push_str("<li><a href=\"../\">../</a></li>\n");
    }
    for (name, is_dir) in names {
        let slash = if is_dir { "/" } else { "" };
        let href = percent_encode_path(&format!("{url_path}{name}{slash}"));
        let _ = writeln!(
            out,
            "<li><a href=\"{href}\">{}{slash}</a></li>",
            escape_html(&name)
        );
    }
    out.push_str("</ul>\n</body></html>\n");
    Ok(out.into_bytes())
}

/// Builds the response for one static representation: 304 on a matching conditional, 206/416
/// for a single byte range, 200 otherwise.
pub fn represent(
    req: &Request,
    data: Payload,
    etag: &str,
    modified: SystemTime,
    content_type: &str,
) -> Response {
    let last_modified = httpdate::fmt_http_date(modified);
    let validators = |r: Response| {
        r.header("ETag", etag)
            .header("Last-Modified", last_modified.as_str())
    };
    let inm = req.header_joined("if-none-match");
    let ims = req.header("if-modified-since");
    if conditional::is_not_modified(inm.as_deref(), ims, etag, modified) {
        return validators(Response::new(304));
    }
    let base = |status: u16| {
        validators(Response::new(status))
            .header("Content-Type", content_type)
            .header("Accept-Ranges", "bytes")
    };
    let len = data.len() as u64;
    let range = match req.header("range") {
        Some(r) if conditional::if_range_allows(req.header("if-range"), etag, modified) => {
            conditional::parse_range(r, len)
        }
        _ => RangeOutcome::Ignore,
    };
    match range {
        RangeOutcome::Ignore => base(200).body(Body::Full(data)),
        RangeOutcome::Unsatisfiable => Response::html_status(416, "Range not satisfiable.")
            .header("Content-Range", format!("bytes */{len}")),
        RangeOutcome::Partial { start, end } => {
            // start <= end < len, and len came from a usize.
            let slice = data.slice(start as usize..end as usize + 1);
            base(206)
                .header("Content-Range", format!("bytes {start}-{end}/{len}"))
                .body(Body::Full(slice))
        }
    }
}

/// GET/HEAD of a path under `root`.
pub fn serve_static(req: &Request, root: &Path, cache: &FileCache) -> Response {
    let Some(decoded) = decode_url_path(req.path()) else {
        return ResolveError::BadPath.response();
    };
    let target = match resolve(root, &decoded) {
        Ok(t) => t,
        Err(e) => return e.response(),
    };
    match target {
        Target::File(path) => serve_file(req, &path, cache),
        Target::Dir(dir) => {
            if !req.path().ends_with('/') {
                // Relative links inside index pages need the trailing slash.
                let query = req.query();
                let location = if query.is_empty() {
                    format!("{}/", req.path())
                } else {
                    format!("{}/?{query}", req.path())
                };
                return Response::html_status(301, "Moved to the directory URL.")
                    .header("Location", location);
            }
            let index = dir.join("index.html");
            if index.is_file() {
                return serve_file(req, &index, cache);
            }
            match listing(&dir, &decoded) {
                Ok(page) => {
                    let modified = std::fs::metadata(&dir)
                        .and_then(|m| m.modified())
                        .unwrap_or(SystemTime::UNIX_EPOCH);
                    let etag = etag_for(&page);
                    represent(req, Payload::from_vec(page), &etag, modified, "text/html")
                }
                Err(_) => Response::html_status(403, "Directory not readable."),
            }
        }
    }
}

fn serve_file(req: &Request, path: &Path, cache: &FileCache) -> Response {
    match cache.load(path) {
        Ok(entry) => represent(
            req,
            Payload::new(Arc::clone(&entry.data)),
            &entry.etag,
            entry.modified,
            content_type(path),
        ),
        Err(_) => Response::html_status(404, "No such file."),
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh directory under the system temp dir, removed on drop.
    pub struct TempDir(pub PathBuf);

    impl TempDir {
        pub fn new(tag: &str) -> TempDir {
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "md-origin-{tag}-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir.canonicalize().unwrap())
        }

        pub fn write(&self, rel: &str, data: &[u8]) {
            let p = self.0.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, data).unwrap();
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn path_safety() {
        let root = TempDir::new("resolve");
        root.write("a/b.html", b"x");
        root.write("top.txt", b"y");
        let r = &root.0;
        assert_eq!(
            resolve(r, "/a/b.html"),
            Ok(Target::File(r.join("a/b.html")))
        );
        assert_eq!(
            resolve(r, "a//./b.html"),
            Ok(Target::File(r.join("a/b.html")))
        );
        assert_eq!(resolve(r, "/a/"), Ok(Target::Dir(r.join("a"))));
        assert_eq!(resolve(r, "/"), Ok(Target::Dir(r.clone())));
        assert_eq!(resolve(r, "/a/../top.txt"), Err(ResolveError::BadPath));
        assert_eq!(resolve(r, "/../etc/passwd"), Err(ResolveError::BadPath));
        assert_eq!(resolve(r, "/a\\b.html"), Err(ResolveError::BadPath));
        assert_eq!(resolve(r, "/a\0"), Err(ResolveError::BadPath));
        assert_eq!(resolve(r, "/missing"), Err(ResolveError::NotFound));
        // %2e%2e decodes to `..` before resolution, so encoding does not bypass the check.
        let decoded = decode_url_path("/a/%2e%2e/top.txt").unwrap();
        assert_eq!(resolve(r, &decoded), Err(ResolveError::BadPath));
        assert_eq!(decode_url_path("/%ff"), None);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_cannot_escape_root() {
        let outside = TempDir::new("outside");
        outside.write("secret.txt", b"s");
        let root = TempDir::new("root");
        std::os::unix::fs::symlink(outside.0.join("secret.txt"), root.0.join("link.txt")).unwrap();
        assert_eq!(resolve(&root.0, "/link.txt"), Err(ResolveError::Forbidden));
    }

    #[test]
    fn content_types() {
        assert_eq!(content_type(Path::new("a/x.HTML")), "text/html");
        assert_eq!(content_type(Path::new("x.htm")), "text/html");
        assert_eq!(
            content_type(Path::new("x.md")),
            "text/markdown; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("x.txt")),
            "text/plain; charset=utf-8"
        );
        assert_eq!(content_type(Path::new("x.xhtml")), "application/xhtml+xml");
        assert_eq!(content_type(Path::new("x.png")), "image/png");
        assert_eq!(content_type(Path::new("noext")), "application/octet-stream");
    }

    #[test]
    fn etags_are_strong_and_content_sensitive() {
        let a = etag_for(b"hello");
        assert!(a.starts_with('"') && a.ends_with('"') && !a.starts_with("W/"));
        assert_eq!(a, etag_for(b"hello"));
        assert_ne!(a, etag_for(b"hellp"));
        assert_ne!(etag_for(b""), etag_for(b"\0"));
    }

    #[test]
    fn cache_reloads_changed_files() {
        let root = TempDir::new("cache");
        root.write("f.html", b"one");
        let cache = FileCache::default();
        let path = root.0.join("f.html");
        let first = cache.load(&path).unwrap();
        assert!(Arc::ptr_eq(&first, &cache.load(&path).unwrap()));
        root.write("f.html", b"second");
        let second = cache.load(&path).unwrap();
        assert_eq!(second.data.as_slice(), b"second");
        assert_ne!(first.etag, second.etag);
    }

    #[test]
    fn listing_escapes_and_links() {
        let root = TempDir::new("listing");
        root.write("sub dir/x.html", b"");
        root.write("a&b.html", b"");
        root.write(".hidden", b"");
        let page = String::from_utf8(listing(&root.0, "/").unwrap()).unwrap();
        assert!(page.contains("<a href=\"/a%26b.html\">a&amp;b.html</a>"));
        assert!(page.contains("<a href=\"/sub%20dir/\">sub dir/</a>"));
        assert!(!page.contains("hidden"));
        assert!(!page.contains("../"));
        let page =
            String::from_utf8(listing(&root.0.join("sub dir"), "/sub dir/").unwrap()).unwrap();
        assert!(page.contains("href=\"/sub%20dir/x.html\""));
    }
}
