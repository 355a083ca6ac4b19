#!/usr/bin/env bash
# Installs the system packages Sierra needs on Debian/Ubuntu, only those missing.
# Idempotent; works as root or through sudo. Says what it installs.
#   mesa-vulkan-drivers libvulkan1  software Vulkan (lavapipe) when there is no GPU
#   xvfb xauth                      a virtual X display for window tests
#   libasound2-dev pkg-config       ALSA headers for the audio crate (kira/cpal)
#   libx11-dev libxkbcommon-x11-0   X11 windows through winit
#   gcc                             the C baselines of `sierra bench` (benchmarks/c), built at run time
set -euo pipefail
PKGS=(mesa-vulkan-drivers libvulkan1 xvfb xauth libasound2-dev pkg-config libxkbcommon-x11-0 libx11-xcb1 libxcursor1 libxi6 libxrandr2 python3-minimal gcc)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all system packages present"
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
echo "setup: done"
