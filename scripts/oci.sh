#!/usr/bin/env bash
# Build the OCI image of the filter (deploy/oci/Dockerfile) and print the checksums that Istio's
# WasmPlugin `sha256` (and EnvoyFilter's remote `sha256`) want. Run by `make oci`, after `make wasm`.
#
#   scripts/oci.sh [IMAGE]        IMAGE defaults to $OCI_IMAGE, else markdown-filter:dev
#
# The image is built only where a Docker engine answers (`docker info`); otherwise this says so
# and still prints the module's SHA-256, exiting 0: the checksum is what most callers need.
# Which checksum goes where:
#   - url: https://.../markdown_filter.wasm   sha256 = SHA-256 of the .wasm (printed below)
#   - url: oci://REGISTRY/REPO:TAG            sha256 = the image's manifest digest, known once
#     pushed (`docker push` prints "digest: sha256:<hex>"; use the hex part)
set -euo pipefail

cd "$(dirname "$0")/.."

IMAGE=${1:-${OCI_IMAGE:-markdown-filter:dev}}
WASM=target/wasm32-wasip1/release/markdown_filter.wasm
DOCKERFILE=deploy/oci/Dockerfile

say() { printf 'oci: %s\n' "$*"; }
die() { printf 'oci: error: %s\n' "$*" >&2; exit 1; }

[[ -f $WASM ]] || die "$WASM missing: run \`make wasm\` first"
sum=$(sha256sum "$WASM" | cut -d' ' -f1)

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    # A context holding only the module: nothing else is sent to the engine, and the
    # Dockerfile's single COPY makes the image's single layer.
    ctx=$(mktemp -d)
    trap 'rm -rf "$ctx"' EXIT
    cp "$WASM" "$ctx/markdown_filter.wasm"
    say "docker build -t $IMAGE -f $DOCKERFILE <context with markdown_filter.wasm>"
    docker build -t "$IMAGE" -f "$DOCKERFILE" "$ctx"
    say "built $IMAGE (image id $(docker image inspect --format '{{.Id}}' "$IMAGE"))"
    say "push it with: docker push $IMAGE   (its output ends with the manifest digest)"
else
    if command -v docker >/dev/null; then
        why="the docker client is installed but no Docker engine answers (docker info failed)"
    else
        why="docker is not installed"
    fi
    say "NOT building the image: $why."
    say "Where Docker runs: \`make oci\` there, or from a directory holding only markdown_filter.wasm"
    say "  docker build -t $IMAGE -f <this repository>/$DOCKERFILE ."
fi

say "$WASM: $(stat -c %s "$WASM") bytes"
say "sha256 of the module (plugin.wasm): $sum"
say "  WasmPlugin with an https:// url, or EnvoyFilter remote.sha256:  sha256: \"$sum\""
say "  WasmPlugin with an oci:// url: use the manifest digest \`docker push\` prints instead"
