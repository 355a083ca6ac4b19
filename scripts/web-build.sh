#!/usr/bin/env bash
# Builds the web viewer (docs/web.md) into SITE (default target/web/site): sierra_web for
# wasm32-unknown-unknown (release), bound by wasm-bindgen --target web (no wasm-opt: Debian's
# binaryen breaks wasm-bindgen's output), beside the page's files from web/. The wasm build has
# its own target folder (target/web-build, or $SIERRA_WEB_TARGET) so it can run while another
# cargo holds target/ (the browser test runs it from inside `cargo test`).
set -euo pipefail
cd "$(dirname "$0")/.."
site=${1:-target/web/site}
wasm_target=${SIERRA_WEB_TARGET:-target/web-build}
want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "web-build: wasm-bindgen $want (Cargo.lock's) is needed, found '${have:-none}': run scripts/setup.sh" >&2
  exit 1
fi
CARGO_TARGET_DIR="$wasm_target" ${CARGO:-cargo} build --release --target wasm32-unknown-unknown -p sierra_web --lib
mkdir -p "$site"
rm -rf "$site/pkg"
wasm-bindgen --target web --no-typescript --out-dir "$site/pkg" \
  "$wasm_target/wasm32-unknown-unknown/release/sierra_web.wasm"
cp web/*.html web/*.js "$site/"
echo "web-build: $site ($(du -h "$site/pkg/sierra_web_bg.wasm" | cut -f1) wasm)"
