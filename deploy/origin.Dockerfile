# The demo/test origin (`md-origin`, origin/) as a container image, for docker-compose.yml.
#
#   docker build -f deploy/origin.Dockerfile -t markdown-filter-origin:dev .    # context: repo root
#   docker run --rm -p 127.0.0.1:8081:8080 -v "$PWD/corpus:/srv/www:ro" markdown-filter-origin:dev
#
# Two stages: the Rust workspace builds the `origin` binary, a slim Debian of the same release
# runs it (same glibc). The build context is limited by deploy/origin.Dockerfile.dockerignore
# (BuildKit reads it instead of a root .dockerignore) to the workspace manifests and the five
# member crates: cargo needs every member's manifest and targets to load the workspace.

# RUST_VERSION of the build stage's toolchain (the workspace needs >= 1.87).
ARG RUST_VERSION=1.95
# DEBIAN_RELEASE of both stages, so the binary runs against the glibc it was linked with.
ARG DEBIAN_RELEASE=trixie

FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY engine ./engine
COPY filter ./filter
COPY cli ./cli
COPY origin ./origin
COPY web ./web
# Registry and target dir as cache mounts: a rebuild after a source change recompiles only
# the changed crates. The binary is copied out of the cache mount, which the next stage cannot see.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p md-origin \
    && install -D -m 0755 target/release/origin /out/origin

FROM debian:${DEBIAN_RELEASE}-slim
COPY --from=build /out/origin /usr/local/bin/origin
# Any unprivileged uid: the origin only reads the (read-only mounted) document root.
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/origin"]
# Overridden per service in docker-compose.yml (adds --id).
CMD ["--listen", "0.0.0.0:8080", "--root", "/srv/www"]
