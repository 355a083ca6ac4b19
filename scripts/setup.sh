#!/usr/bin/env bash
# Installs the system packages Sierra needs on Debian/Ubuntu, only those missing.
# Idempotent; works as root or through sudo. Says what it installs.
#   mesa-vulkan-drivers libvulkan1  software Vulkan (lavapipe) when there is no GPU
#   xvfb xauth                      a virtual X display for window tests
#   libasound2-dev pkg-config       ALSA headers for the audio crate (kira/cpal)
#   libx11-dev libxkbcommon-x11-0   X11 windows through winit
#   gcc                             the C baselines of `sierra bench` (benchmarks/c), built at run time
#   chromium chromium-driver        headless Chromium with WebGPU on SwiftShader for the browser test
# Then, for the web build (docs/web.md), only where missing: rustup's wasm32-unknown-unknown
# target and wasm-bindgen-cli at exactly Cargo.lock's wasm-bindgen version (a cold install
# compiles it: about 15 CPU-minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS=(mesa-vulkan-drivers libvulkan1 xvfb xauth libasound2-dev pkg-config libxkbcommon-x11-0 libx11-xcb1 libxcursor1 libxi6 libxrandr2 python3-minimal gcc chromium chromium-driver)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
web_tools() {
  if command -v rustup >/dev/null 2>&1; then
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
      echo "setup: adding the wasm32-unknown-unknown target"
      rustup target add wasm32-unknown-unknown
    fi
  elif [ ! -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ]; then
    echo "setup: no rustup and no wasm32-unknown-unknown target; the web build needs it" >&2
    exit 1
  fi
  local want have
  want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    echo "setup: installing wasm-bindgen-cli $want (found '${have:-none}')"
    # Not --locked: with it one of its dependencies is missing from the registry (issue #45).
    cargo install wasm-bindgen-cli --version "$want"
  fi
}
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all system packages present"
  web_tools
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: missing ${missing[*]} and apt-get is not available; install them with your package manager" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
web_tools
echo "setup: done"
