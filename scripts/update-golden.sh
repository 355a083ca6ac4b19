#!/usr/bin/env bash
# Regenerates the golden frames that `crates/sierra/tests/golden.rs` compares against:
# the demo's headless frames 0, 12 and 47 and the platforms level's frame 30, at 320x180.
#
# Run it only in a commit that changes these frames on purpose, and name the change in that
# commit's message; tests/golden/README.md records the commit and the commands.
set -euo pipefail
cd "$(dirname "$0")/.."
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/sierra-runtime-$(id -u)}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

cargo build --release -p sierra
sierra=target/release/sierra
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

demo_cmd="sierra demo --headless --mute --frames 48 --size 320x180"
platforms_cmd="sierra render assets/levels/platforms.json --frames 31 --size 320x180"
$sierra demo --headless --mute --frames 48 --size 320x180 --out "$tmp/demo" >/dev/null
$sierra render assets/levels/platforms.json --frames 31 --size 320x180 --out "$tmp/platforms" >/dev/null

mkdir -p tests/golden
for n in 0000 0012 0047; do
  cp "$tmp/demo/frame_$n.png" "tests/golden/demo_frame_$n.png"
done
cp "$tmp/platforms/frame_0030.png" tests/golden/platforms_frame_0030.png

commit=$(git rev-parse HEAD)
if ! git diff --quiet HEAD -- crates assets Cargo.lock; then commit="$commit (with uncommitted changes)"; fi
cat > tests/golden/README.md <<MD
# Golden frames

Reference images for \`crates/sierra/tests/golden.rs\`, rendered headless (lavapipe) at 320x180:

| file | command | frame |
|---|---|---|
| \`demo_frame_0000.png\`, \`demo_frame_0012.png\`, \`demo_frame_0047.png\` | \`$demo_cmd\` | 0, 12, 47 |
| \`platforms_frame_0030.png\` | \`$platforms_cmd\` | 30 |

Generated at commit \`$commit\` by \`scripts/update-golden.sh\`.

A frame matches when at least 99.5 % of its pixels are within 1 LSB per channel of the golden
one, none is off by more than 6, and the mean absolute difference is at most 0.2 LSB. A change
that alters these frames on purpose regenerates them with \`scripts/update-golden.sh\` in a
commit whose message names the change.
MD
echo "golden frames written to tests/golden/ (commit $commit)"
