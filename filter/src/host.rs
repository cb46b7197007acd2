//! proxy-wasm implementations of [`Host`] and [`Sink`], plus the root and HTTP contexts.
//!
//! Host calls go through `proxy_wasm::hostcalls`, whose `Result`s are mapped to
//! [`HostError`]. (The SDK itself traps on statuses it does not expect, such as writing a
//! header map Envoy has released; [`crate::stream`] is structured so that never happens.)

use std::rc::Rc;
use std::time::UNIX_EPOCH;

use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, BufferType, ContextType, LogLevel, MapType, MetricType};

use crate::config::Config;
use crate::headers::Header;
use crate::memo::{Memo, SharedMemo};
use crate::metrics::{Counter, Sink, CONVERSION_US, COUNTERS};
use crate::stream::{Host, HostError, Stream};

/// Metric ids from `define_metric`; `None` where definition failed (the metric is skipped).
#[derive(Debug, Default)]
pub struct HostMetrics {
    counters: [Option<u32>; COUNTERS],
    conversion_us: Option<u32>,
}

impl HostMetrics {
    fn define() -> HostMetrics {
        let mut m = HostMetrics::default();
        for c in Counter::all() {
            if let Some(slot) = m.counters.get_mut(c.index()) {
                *slot = hostcalls::define_metric(MetricType::Counter, &c.name()).ok();
            }
        }
        m.conversion_us = hostcalls::define_metric(MetricType::Histogram, CONVERSION_US).ok();
        m
    }
}

impl Sink for HostMetrics {
    fn add(&self, counter: Counter, n: u64) {
        let id = self.counters.get(counter.index()).copied().flatten();
        if let (Some(id), true) = (id, n > 0) {
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            // A metric that cannot be bumped must not affect the response.
            let _ = hostcalls::increment_metric(id, n);
        }
    }

    fn record_conversion_us(&self, micros: u64) {
        if let Some(id) = self.conversion_us {
            let _ = hostcalls::record_metric(id, micros);
        }
    }
}

/// The live proxy, for one HTTP stream.
struct ProxyHost {
    metrics: Rc<HostMetrics>,
}

fn set_map(map: MapType, name: &str, value: Option<&[u8]>) -> Result<(), HostError> {
    hostcalls::set_map_value_bytes(map, name, value).map_err(|_| HostError)
}

impl Host for ProxyHost {
    fn request_headers(&self) -> Vec<Header> {
        hostcalls::get_map_bytes(MapType::HttpRequestHeaders).unwrap_or_default()
    }

    fn set_request_header(&self, name: &str, value: Option<&[u8]>) -> Result<(), HostError> {
        set_map(MapType::HttpRequestHeaders, name, value)
    }

    fn response_headers(&self) -> Vec<Header> {
        hostcalls::get_map_bytes(MapType::HttpResponseHeaders).unwrap_or_default()
    }

    fn set_response_header(&self, name: &str, value: Option<&[u8]>) -> Result<(), HostError> {
        set_map(MapType::HttpResponseHeaders, name, value)
    }

    fn response_body(&self, len: usize) -> Result<Vec<u8>, HostError> {
        match hostcalls::get_buffer(BufferType::HttpResponseBody, 0, len) {
            Ok(Some(body)) if body.len() == len => Ok(body),
            // The host answers "nothing" for a zero-length read.
            Ok(None) if len == 0 => Ok(Vec::new()),
            _ => Err(HostError),
        }
    }

    fn replace_response_body(&self, body: &[u8]) -> Result<(), HostError> {
        // start 0 with a length at least the buffer's replaces the whole buffer in Envoy.
        hostcalls::set_buffer(BufferType::HttpResponseBody, 0, usize::MAX, body)
            .map_err(|_| HostError)
    }

    fn now_micros(&self) -> Option<u64> {
        let now = hostcalls::get_current_time().ok()?;
        let since = now.duration_since(UNIX_EPOCH).ok()?;
        u64::try_from(since.as_micros()).ok()
    }

    fn set_log_field(&self, name: &str, value: &str) {
        // Envoy stores this as filter state `wasm.<name>`, a mutable string. The SDK traps on
        // any status but Ok; Envoy 1.40 fails a property write only outside a stream (this
        // is called from stream callbacks only, `on_log` included) or when the value does
        // not fit a property declared read-only or typed (this filter declares none).
        let _ = hostcalls::set_property(vec![name], Some(value.as_bytes()));
    }
}

impl Sink for ProxyHost {
    fn add(&self, counter: Counter, n: u64) {
        self.metrics.add(counter, n);
    }

    fn record_conversion_us(&self, micros: u64) {
        self.metrics.record_conversion_us(micros);
    }
}

/// Root context: validates the plugin configuration and hands a snapshot of it to each
/// stream.
#[derive(Default)]
pub struct Root {
    config: Rc<Config>,
    /// One per configuration: its options are part of what a memoised conversion means.
    memo: SharedMemo,
    metrics: Option<Rc<HostMetrics>>,
}

impl Context for Root {}

impl RootContext for Root {
    fn on_configure(&mut self, _plugin_configuration_size: usize) -> bool {
        let raw = hostcalls::get_buffer(BufferType::PluginConfiguration, 0, usize::MAX)
            .ok()
            .flatten()
            .unwrap_or_default();
        match Config::parse(&raw) {
            Ok(cfg) => {
                let budget = usize::try_from(cfg.memo_bytes).unwrap_or(usize::MAX);
                self.memo = Rc::new(Memo::new(budget));
                self.config = Rc::new(cfg);
                if self.metrics.is_none() {
                    self.metrics = Some(Rc::new(HostMetrics::define()));
                }
                true
            }
            Err(e) => {
                // Envoy refuses the configuration when this returns false; the log line is
                // how an operator learns which key was wrong.
                let _ = hostcalls::log(
                    LogLevel::Error,
                    &format!("markdown-filter: invalid configuration: {e}"),
                );
                false
            }
        }
    }

    fn create_http_context(&self, _context_id: u32) -> Option<Box<dyn HttpContext>> {
        let metrics = self.metrics.clone().unwrap_or_default();
        Some(Box::new(Http {
            stream: Stream::new(Rc::clone(&self.config), Rc::clone(&self.memo)),
            host: ProxyHost { metrics },
        }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}

/// One HTTP stream: forwards callbacks to [`Stream`].
struct Http {
    stream: Stream,
    host: ProxyHost,
}

impl Context for Http {}

impl HttpContext for Http {
    fn on_http_request_headers(&mut self, _num_headers: usize, _end_of_stream: bool) -> Action {
        self.stream.on_request_headers(&self.host)
    }

    fn on_http_response_headers(&mut self, _num_headers: usize, end_of_stream: bool) -> Action {
        self.stream.on_response_headers(&self.host, end_of_stream)
    }

    fn on_http_response_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        self.stream
            .on_response_body(&self.host, body_size, end_of_stream)
    }

    fn on_http_response_trailers(&mut self, _num_trailers: usize) -> Action {
        self.stream.on_response_trailers(&self.host)
    }

    fn on_log(&mut self) {
        self.stream.on_log(&self.host);
    }
}
