//! Envoy proxy-wasm HTTP filter: serve HTML as GitHub-flavoured Markdown to clients that
//! ask for it with `Accept: text/markdown`. Everyone else gets the original bytes.
//!
//! The filter is thin glue over the engine ([`agent_markdown::convert`]); every decision is
//! a plain function tested natively:
//! [`negotiate`] (Accept q-values), [`eligibility`] (what converts, why the rest passes),
//! [`conditional`] (If-None-Match), [`headers`] (Vary, Cache-Control, request URL),
//! [`config`] (plugin configuration), [`coding`] (gzip/deflate/br), [`metrics`] (names), and
//! [`stream`] (the per-request state machine over a small host trait). [`host`] binds them
//! to proxy-wasm.
//!
//! # Envoy requirements (verified with Envoy 1.40)
//! - `allow_on_headers_stop_iteration: true` in the plugin config: the filter pauses the
//!   response headers while it buffers the body, and changes them once it has converted.
//! - Buffer limits above `max_body_bytes` plus one upstream read, so Envoy never answers
//!   500 (`rs_too_large`) itself: `per_connection_buffer_limit_bytes` on the listener and
//!   the cluster, and for HTTP/2 downstreams also the HCM's
//!   `http2_protocol_options.initial_stream_window_size` (and connection window), which
//!   sets the per-stream buffer limit (64 MiB each works for the 10 MiB default cap).
//! - No `envoy.filters.http.decompressor` before this filter on the response path: it adds
//!   trailers at end of stream that Envoy never delivers to a later buffering filter
//!   (envoyproxy/envoy#29879), so converted responses would hang until a timeout. The
//!   filter decodes `gzip`, `deflate` and `br` itself ([`coding`]).
//! - A compressor in front of the filter (listed before it) with `text/markdown` in its
//!   content types compresses Markdown for clients that accept it. Envoy's compressor
//!   removes strong ETags from the responses it compresses, so compressed Markdown carries
//!   no ETag (identity responses keep it).
//!
//! # Response behaviour
//! Converted: Markdown body (from the decoded HTML when the origin used `gzip`, `deflate`
//! or `br`); `content-type: text/markdown; charset=utf-8`; exact
//! `content-length`; `etag` = the engine's strong ETag (not in `ims_only`); the token-count
//! header; `vary` merged with `Accept`; optional `content-signal`; `accept-ranges`,
//! `content-encoding`, `content-md5`, `digest`, `content-digest`, `repr-digest`,
//! `content-range` and `transfer-encoding` removed; everything else (`last-modified`,
//! `cache-control`, `set-cookie`, `content-location`, ...) kept. Upstream trailers, if any,
//! follow unchanged.
//!
//! `HEAD` with `head: convert` is forwarded as `GET`, converted, and answered with the
//! headers the `GET` would get (same `content-length`, `etag`, token count) and no body. A
//! `HEAD` forwarded as `GET` never gets body bytes, whatever the outcome.
//!
//! Conditional modes (`conditional`):
//! - `full` (default): on Markdown requests `If-None-Match` and `If-Modified-Since` are not
//!   forwarded (the upstream must send the full HTML so the Markdown ETag can be computed);
//!   after conversion the client's `If-None-Match` is compared (weakly; lists and `*`) with
//!   the Markdown ETag, answering `304` with `etag`, `vary`, `cache-control`,
//!   `last-modified` (and other non-representation headers) but no body, `content-type`
//!   or `content-length`. `If-Modified-Since` alone is ignored (always `200`): the Markdown
//!   can change without the HTML changing. A Markdown request for something that turns out
//!   not to be convertible also loses its conditional headers (a `200` instead of a `304`).
//! - `ims_only`: request headers are forwarded untouched; the upstream's `304` passes
//!   through with `Vary: Accept` added; converted responses carry no ETag (the upstream's is
//!   removed, as it describes the HTML).
//! - `off`: request headers untouched, converted responses carry the Markdown ETag, the
//!   filter never answers `304` itself (an upstream `304` passes through with Vary).
//!
//! Passthrough: an HTML response that could have been converted but was not asked for gets
//! `Vary: Accept` (unless `vary_on_passthrough: false`); its bytes are untouched (still
//! compressed if the origin compressed them). A body that grows past `max_body_bytes`
//! while buffering, or decodes to more than that, is released unchanged, as is a body that
//! does not decode. An upstream `304` to a Markdown request gets `Vary: Accept` and loses
//! the upstream's ETag (it names the HTML). On any host-call failure the original response
//! passes and `markdown.errors` increments.
//!
//! Conversion memo ([`memo`], `memo_bytes`): a converted page whose body bytes, URL,
//! `Content-Type` and content codings equal a recent conversion's is answered from the
//! worker's memo, byte-identical to converting it again; the upstream is still asked.
//!
//! VM failure: a trap (only reachable in `test-trap` builds, or through a bug) is handled by
//! Envoy's `failure_policy`. Measured with Envoy 1.40: the request that trapped gets `503`
//! under every policy; afterwards `FAIL_OPEN` bypasses the filter for good (clients get the
//! original HTML, nothing is converted until Envoy restarts), `FAIL_RELOAD` answers `503`
//! for about a second of backoff and then converts again with a fresh VM, and `FAIL_CLOSED`
//! answers `503` from then on.
//!
//! # Metrics
//! Defined via the proxy-wasm metrics API. Envoy's names (`/stats`) carry the `wasmcustom.`
//! prefix; `/stats/prometheus` drops it, e.g. `wasmcustom.markdown.passthrough.over_cap`
//! is `markdown_passthrough_over_cap`:
//!
//! | counter                               | meaning                                     |
//! |---------------------------------------|---------------------------------------------|
//! | `markdown.converted`                  | converted responses (incl. `HEAD`)          |
//! | `markdown.not_modified`               | `304`s answered by the filter               |
//! | `markdown.passthrough.<reason>`       | unconverted responses, `<reason>` one of `not_requested`, `method`, `status`, `content_type`, `no_transform`, `range`, `content_encoding`, `over_cap`, `error` |
//! | `markdown.errors`                     | engine/host-call failures (also `passthrough.error`) |
//! | `markdown.bytes_in`                   | HTML bytes converted (after decoding)       |
//! | `markdown.bytes_out`                  | Markdown body bytes sent                    |
//! | `markdown.memo.hit`                   | conversions served from the memo ([`memo`]) |
//! | `markdown.memo.miss`                  | conversions run while the memo is enabled   |
//!
//! and the histogram `markdown.conversion_us` (conversion time in microseconds). Every
//! response the filter sees is counted once in `converted`, `not_modified` or a
//! `passthrough.<reason>`; a stream reset while buffering counts as `passthrough.error`.
//!
//! # Benchmark build
//! With the cargo feature `stage-metrics` (`make wasm-stages`, for `make bench` only), each
//! conversion also adds its per-stage times to counters `markdown.stage_ns.<stage>`
//! ([`stages`]).
//!
//! # Test build
//! With the cargo feature `test-trap` (for testing Envoy's `failure_policy` only), a request
//! carrying `x-markdown-test-trap: 1` panics inside the VM. Normal builds have no such code.

// Talc instead of wasi-libc's dlmalloc: a conversion makes a few hundred allocations. In
// interleaved in-Envoy A/Bs (10 KB page, memo off, h1 c=10) the conversion's p50 was 3-6 %
// lower with it; CPU per request moved within one run's noise. Same RSS. Single-threaded
// module (no `atomics`), as proxy-wasm VMs are.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub mod coding;
pub mod conditional;
pub mod config;
pub mod eligibility;
pub mod headers;
pub mod host;
pub mod memo;
pub mod metrics;
pub mod negotiate;
#[cfg(all(feature = "stage-metrics", target_family = "wasm"))]
pub mod stages;
pub mod stream;

/// The lines of one `## ` section of the README, for the tests that hold its reference
/// tables (configuration, metrics) to the code.
#[cfg(test)]
fn readme_section(heading: &str) -> impl Iterator<Item = &'static str> + '_ {
    include_str!("../../README.md")
        .lines()
        .skip_while(move |l| l.strip_prefix("## ") != Some(heading))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
}

proxy_wasm::main! {{
    // Installs the SDK's logger and panic hook, so a trap leaves a critical log line.
    proxy_wasm::set_log_level(proxy_wasm::types::LogLevel::Info);
    proxy_wasm::set_root_context(|_| -> Box<dyn proxy_wasm::traits::RootContext> {
        Box::new(host::Root::default())
    });
}}
