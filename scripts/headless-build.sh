#!/usr/bin/env bash
# The headless build (docs/building.md): `sierra` without the window, overlay and sound-device
# stack (`--no-default-features`). Builds it, renders two demo frames with it, and checks that a
# window command says which feature it lacks. `.ci/run` runs it last: it replaces
# target/release/sierra with the headless binary (the next default build links it again).
set -euo pipefail
cd "$(dirname "$0")/.."
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/sierra-runtime-$(id -u)}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
cargo build --release --locked -p sierra --no-default-features
bin=target/release/sierra
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# With a display the headless binary still renders PNG frames, and says why.
DISPLAY="${DISPLAY:-:99}" "$bin" demo --frames 2 --out "$work/demo" >"$work/demo.log"
grep -q "built without the \`window\` feature" "$work/demo.log" || {
  echo "headless-build: the demo did not say it has no window:" >&2; cat "$work/demo.log" >&2; exit 1; }
for frame in frame_0000.png frame_0001.png; do
  [ -s "$work/demo/$frame" ] || { echo "headless-build: no $frame" >&2; ls -l "$work/demo" >&2; exit 1; }
done
if "$bin" view assets/levels/models/mannequin.glb --window >"$work/view.log" 2>&1; then
  echo "headless-build: \`view --window\` ran in a build without a window" >&2; exit 1
fi
grep -q "without the \`window\` feature" "$work/view.log" || {
  echo "headless-build: \`view --window\` did not name the missing feature:" >&2; cat "$work/view.log" >&2; exit 1; }
echo "headless-build: ok (2 demo frames rendered; view --window refused with the reason)"
