#!/usr/bin/env bash
# Re-renders the README's pictures (docs/rendering.md, "The demo at 960×540"):
#   docs/images/demo_aerial.png    sierra demo --headless --size 960x540, frame 0 (the aerial flight)
#   docs/images/demo_beach.png     the same run, frame 12 (the beach, crowds, platforms)
#   docs/images/demo_platform.png  the same run, frame 32 (follow camera, the player on the red platform)
#   docs/images/demo_walk.png      sierra demo --headless --camera-path walk --frames 120 --size 960x540, frame 40
#   docs/images/demo_contact_sheet.png  sierra demo --headless (480x270, 60 frames), its contact sheet
# Look at every image before committing them; name what changed in the commit message.
set -euo pipefail
cd "$(dirname "$0")/.."
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/sierra-runtime-$(id -u)}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

cargo build --release -p sierra
sierra=target/release/sierra
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$sierra demo --headless --mute --size 960x540 --out "$tmp/demo" >/dev/null
$sierra demo --headless --mute --camera-path walk --frames 120 --size 960x540 --out "$tmp/walk" >/dev/null
$sierra demo --headless --mute --out "$tmp/sheet" >/dev/null

mkdir -p docs/images
cp "$tmp/demo/frame_0000.png" docs/images/demo_aerial.png
cp "$tmp/demo/frame_0012.png" docs/images/demo_beach.png
cp "$tmp/demo/frame_0032.png" docs/images/demo_platform.png
cp "$tmp/walk/frame_0040.png" docs/images/demo_walk.png
cp "$tmp/sheet/contact_sheet.png" docs/images/demo_contact_sheet.png
echo "wrote docs/images/demo_{aerial,beach,platform,walk,contact_sheet}.png"
