#!/usr/bin/env bash
# Installs what fuzzing needs (docs/fuzzing.md), only what is missing, from the registries: a
# nightly toolchain through rustup (libFuzzer's instrumentation needs it) and cargo-fuzz (pinned).
# Idempotent: a machine that has both (CI's cache, a developer's) installs nothing.
set -euo pipefail
CARGO_FUZZ_VERSION=0.13.2
if ! cargo +nightly --version >/dev/null 2>&1; then
  command -v rustup >/dev/null || { echo "fuzz install: rustup is needed to install the nightly toolchain" >&2; exit 1; }
  echo "fuzz install: rustup toolchain install nightly --profile minimal"
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  echo "fuzz install: cargo install cargo-fuzz --version $CARGO_FUZZ_VERSION --locked"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
echo "fuzz install: $(cargo +nightly --version), $(cargo fuzz --version)"
