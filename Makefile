# Markdown for agents, inside Envoy.
#
#   make run        set up, build, start two origins + Envoy (Ctrl-C stops); ORIGIN_ROOT=dir to serve your pages
#                   ENVOY_CONFIG=envoy/envoy.cache.yaml: with Envoy's HTTP cache in front of the filter
#   make test       set up, unit tests, build, make validate, integration tests against real Envoy
#   make build      release wasm filter + origin + md-convert
#   make lint       rustfmt check + clippy (native and wasm32-wasip1), warnings are errors
#   make validate   every shipped Envoy config (envoy/, compose, Istio) through envoy --mode validate,
#                   compose/deploy YAML parsed and cross-checked (scripts/validate.py)
#   make adversarial  hostile inputs at n and 4n through md-convert (time, RSS, ratio)
#   make conformance  md-convert against six other converters' test suites (conformance/), gated
#                   on conformance/baseline.json (seconds; docs/CONFORMANCE.md; in `make test`)
#   make realdocs   md-convert on 79 real documentation pages of 34 generators from Debian's -doc
#                   packages, man pages, TypeDoc and JSDoc (apt-get download, npm; not in `make test`): headings, links, code, cells, words
#   make oci        OCI image of the filter (deploy/oci/Dockerfile) where Docker runs; prints its sha256
#   make web        the engine as an npm package (wasm-pack, bundler target) in web/pkg
#   make playground build the browser playground and serve it on 127.0.0.1:8088 (PLAYGROUND_PORT)
#   make test-browser  the playground in headless Chromium vs md-convert (part of make test)
#   make bench      criterion + k6 load tests through Envoy with/without the filter; regenerates
#                   docs/BENCHMARKS.md (~25 min; BENCH_QUICK=1 smoke pass, BENCH_DURATION=10s per cell)
#   make bench-cache  envoy/envoy.cache.yaml vs envoy/envoy.yaml: cache hit/miss/HTML latency
#                   (p50/p95/p99), the HTTP cache section of docs/BENCHMARKS.md (~2 min)
#   make bench-istio  Envoy instructions per request with deploy/istio/envoyfilter.yaml's Accept
#                   gate, without the filter and ungated (callgrind, ~6 min; docs/DEPLOYMENT.md)
#   make soak       k6 soak, mixed traffic (SOAK_DURATION=10m): 0 failed checks, Envoy RSS slope;
#                   recorded in docs/BENCHMARKS.md
#   make fuzz       cargo-fuzz targets (fuzz/; nightly + cargo-fuzz installed if missing), each for
#                   FUZZ_SECONDS (60), one after another; fails on a crash. FUZZ_TARGETS=... to pick
#
# scripts/setup.sh installs what is missing (wasm target, .venv with Envoy 1.40, func-e, certs);
# scripts/web-setup.sh what the wasm-pack build and the browser test need (wasm-pack,
# wasm-bindgen-cli in .tools/bin; with --browser Debian chromium and npm ci in tests/browser).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

CARGO ?= cargo
WASM_TARGET := wasm32-wasip1
WASM := target/$(WASM_TARGET)/release/markdown_filter.wasm
TRAP_WASM := target/trap/$(WASM_TARGET)/release/markdown_filter.wasm
PYTEST_ARGS ?= -q
# Resolved when used, i.e. after setup has installed it.
ENVOY = $(shell scripts/envoy-path.sh)

OCI_IMAGE ?= markdown-filter:dev

.PHONY: setup build wasm wasm-trap wasm-stages native run test test-unit test-integration lint validate oci adversarial \
	web web-setup playground playground-build test-browser
.PHONY: fuzz conformance readability realdocs

setup:
	scripts/setup.sh

wasm:
	$(CARGO) build -p markdown-filter --target $(WASM_TARGET) --release
	scripts/wasm-opt.sh "$${CARGO_TARGET_DIR:-target}/$(WASM_TARGET)/release/markdown_filter.wasm"

# Test-only build that traps on `x-markdown-test-trap: 1` (failure_policy tests). Its own
# target dir, so it never overwrites the real filter.
wasm-trap:
	$(CARGO) build -p markdown-filter --target $(WASM_TARGET) --release --features test-trap --target-dir target/trap

# Benchmark-only build with per-stage conversion counters (src/stages.rs), for make bench.
wasm-stages:
	$(CARGO) build -p markdown-filter --target $(WASM_TARGET) --release --features stage-metrics --target-dir target/stages
	scripts/wasm-opt.sh target/stages/$(WASM_TARGET)/release/markdown_filter.wasm

native:
	$(CARGO) build --release -p md-origin -p md-convert

build: wasm native

run: setup build
	scripts/run.sh

test-unit:
	$(CARGO) test --workspace

test-integration:
	.venv/bin/pytest tests/integration $(PYTEST_ARGS)

# Sequential on purpose: the machine (and CI) may have 2 cores.
test: setup
	$(MAKE) --no-print-directory test-unit
	$(MAKE) --no-print-directory build wasm-trap
	$(MAKE) --no-print-directory adversarial ADVERSARIAL_ARGS="--max-ratio 10 --max-rss-mb 512"
	$(MAKE) --no-print-directory conformance
	$(MAKE) --no-print-directory readability
	$(MAKE) --no-print-directory validate
	$(MAKE) --no-print-directory bench-check
	$(MAKE) --no-print-directory test-integration
	$(MAKE) --no-print-directory test-browser

lint: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p markdown-filter --target $(WASM_TARGET) -- -D warnings
	$(CARGO) clippy -p markdown-filter --target $(WASM_TARGET) --features test-trap -- -D warnings
	$(CARGO) clippy -p markdown-filter --target $(WASM_TARGET) --features stage-metrics -- -D warnings
	scripts/web-setup.sh --rust-only
	$(CARGO) clippy -p agent-markdown-web --target wasm32-unknown-unknown --all-targets -- -D warnings

# envoy/envoy.yaml, envoy/envoy.compose.yaml (container paths mapped to the compose mounts) and
# the Istio manifests' Envoy fragments (wrapped into a bootstrap) through the real
# `envoy --mode validate`; docker-compose.yml and deploy/**/*.yaml parsed and cross-checked.
validate: setup wasm
	.venv/bin/python scripts/validate.py --envoy "$(ENVOY)"

# The filter as an OCI image (Wasm image spec, compat variant) when a Docker engine answers;
# prints the module's sha256 either way. OCI_IMAGE=registry/repo:tag to name it.
oci: wasm
	scripts/oci.sh "$(OCI_IMAGE)"

# Hostile inputs at n and 4n through the release md-convert: time, RSS, output size and the
# 4n/n time ratio (measurement; results in docs/SECURITY.md). Fails only on a crash or a
# conversion over 60 s.
# `make test` also judges time (4n/n ratio ≤ 10 where n takes ≥ 10 ms) and memory.
ADVERSARIAL_ARGS ?=
adversarial: native
	python3 scripts/adversarial.py --bin target/release/md-convert $(ADVERSARIAL_ARGS)

# md-convert against other converters' test suites (conformance/suites, vendored with their
# licences; docs/CONFORMANCE.md). Fails when a suite's strict pass count drops below
# conformance/baseline.json (or leaks rise), listing the cases that newly fail. A few seconds;
# part of `make test`.
# CONFORMANCE_ARGS="--diffs" prints every failure with its note; --write-baseline records a new baseline.
CONFORMANCE_ARGS ?=
conformance: setup
	$(CARGO) build --release -p md-convert
	.venv/bin/python scripts/conformance.py --bin "$${CARGO_TARGET_DIR:-target}/release/md-convert" --check $(CONFORMANCE_ARGS)

# Article extraction against Firefox's Reader View on Mozilla Readability's 118 test pages
# (issue 2's news criteria: recall, precision, tokens; docs/CONFORMANCE.md). The pages are
# other sites' content and are not vendored: they come from the pinned go-readability module
# (MIT) through the Go module proxy. Gated on conformance/readability-baseline.json: a page
# that met a criterion must still meet it (`make test` runs it; ~1 min). After an
# improvement: `make readability READABILITY_ARGS=--write-baseline` and review the diff.
READABILITY_MODULE ?= github.com/go-shiori/go-readability@v0.0.0-20251205110129-5db1dc9836f0
READABILITY_ARGS ?= --check
readability: setup
	$(CARGO) build --release -p md-convert
	.venv/bin/pip install -q tiktoken==0.14.0
	dir=$$(GOFLAGS=-modcacherw go mod download -json $(READABILITY_MODULE) | \
		python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])') && \
	.venv/bin/python scripts/readability_eval.py --bin "$${CARGO_TARGET_DIR:-target}/release/md-convert" \
		--pages "$$dir/test-pages" $(READABILITY_ARGS)

# Faithfulness on real generated documentation (Doxygen, AsciiDoc, Sphinx with seven themes, qdoc,
# vim2html, SQLite, Haddock, erl_docgen, pod2html, pydoc, rustdoc, gtk-doc, gi-docgen, mandoc,
# Javadoc, TypeDoc, JSDoc, YARD, cppreference and more, 34 generators): pages from Debian's -doc packages and man
# pages, TypeDoc's and JSDoc's from npm (apt-get download, Debian only, npm; not part of
# `make test`); see docs/CONFORMANCE.md.
realdocs:
	$(CARGO) build --release -p md-convert
	scripts/realdocs/setup.sh
	$${REALDOCS_DIR:-.run/realdocs}/venv/bin/python scripts/realdocs/eval.py \
		--bin "$${CARGO_TARGET_DIR:-target}/release/md-convert" $(REALDOCS_ARGS)

# libFuzzer over the engine and every header/config parser; not part of `make test` (the
# committed corpora and crashes are replayed there by engine/ and filter/ fuzz_regressions
# tests). Results and how long each ran: docs/SECURITY.md "Fuzzing".
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh $(FUZZ_TARGETS)

# The engine for JavaScript (web/, wasm-bindgen): wasm-pack with the tools web-setup.sh puts
# in .tools/bin. `web` is the npm package (bundler target); the playground uses the
# `--target web` build plus a manifest of corpus/ pages, served by playground/serve.py.
PLAYGROUND_PORT ?= 8088

web-setup:
	scripts/web-setup.sh

web:
	scripts/web-build.sh bundler web/pkg

playground-build:
	scripts/web-build.sh web playground/build/pkg
	python3 playground/make_manifest.py

playground: playground-build
	python3 playground/serve.py --port $(PLAYGROUND_PORT)

# Headless Debian Chromium (installed by web-setup.sh --browser) against the native md-convert.
test-browser: native playground-build
	scripts/web-setup.sh --browser
	cd tests/browser && node --test playground.test.mjs

# Load tests and the benchmark report (scripts/bench.py; k6 v1.8.1 installed into .tools/bin by
# scripts/k6.sh when missing). Not part of `make test`: they take minutes and measure, not assert.
# With valgrind installed (Debian `valgrind`), `make bench` also counts Envoy's instructions per
# request under callgrind (~5 minutes); without it that table is skipped.
.PHONY: bench soak bench-check

bench: setup build wasm-stages
	.venv/bin/python scripts/bench.py run

soak: setup build
	.venv/bin/python scripts/bench.py soak

# Cache hits against misses and no cache, one keep-alive client (scripts/bench.py cache; no k6).
# run.sh and bench.py take ENVOY_CONFIG / CARGO_TARGET_DIR from the environment (make exports
# command-line variables), so `make run ENVOY_CONFIG=...` needs nothing more here.
.PHONY: bench-cache
bench-cache: setup build
	.venv/bin/python scripts/bench.py cache

# Envoy instructions per request (callgrind) on a sidecar-shaped listener patched with
# deploy/istio/envoyfilter.yaml: no filter, the Accept gate, the filter ungated (~6 min).
.PHONY: bench-istio
bench-istio: setup build
	.venv/bin/python scripts/bench.py istio

# k6 inspect (or node --check) of bench/k6/*.js; installs nothing, skips when neither is there.
bench-check:
	python3 scripts/bench.py check
