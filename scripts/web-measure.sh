#!/usr/bin/env bash
# Re-measures the figures of docs/web.md: the wasm's size (raw and gzip -9) and the page's
# start-up time (navigation to the first frame with the sample model, headless Chromium on
# SwiftShader; printed by three runs of the browser test), with the CPU and load they ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/sierra-runtime-$(id -u)} WGPU_BACKEND=${WGPU_BACKEND:-vulkan}
site=target/web/measure
bash scripts/web-build.sh "$site" >/dev/null
wasm=$site/pkg/sierra_web_bg.wasm
echo "wasm: $(stat -c %s "$wasm") bytes raw, $(gzip -9 -c "$wasm" | wc -c) bytes gzip -9; JS glue $(stat -c %s "$site/pkg/sierra_web.js") bytes"
for _ in 1 2 3; do
  cargo test --release -p sierra_web --test browser -- --nocapture 2>&1 | grep -E "page start-up|browser vs native"
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) x $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
