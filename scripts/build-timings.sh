#!/usr/bin/env bash
# Build cost of `sierra`, re-measured (docs/building.md): a cold release build from an empty target
# folder of the full binary (default features) and of the headless one (`--no-default-features`),
# then the incremental rebuild of each after one renderer file changes. With a git revision as
# argument (e.g. `scripts/build-timings.sh origin/main`), that revision's full build is measured
# first in the same sitting, for comparison. CPU time is user + system seconds of cargo and every
# compiler it ran (GNU time); wall time depends on the load, which is printed. Cargo's own
# timing reports (`--timings`) are kept in the output folder.
#   usage: scripts/build-timings.sh [BASE_REV]      output: out/build-timings/
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/out/build-timings"
scratch=$(mktemp -d /tmp/sierra-build-timings.XXXXXX)
trap 'git -C "$root" worktree remove --force "$scratch/base" 2>/dev/null || true; rm -rf "$scratch"' EXIT
mkdir -p "$out"
command -v /usr/bin/time >/dev/null || { echo "build-timings: needs GNU time (Debian package time)" >&2; exit 1; }
cargo fetch --locked >/dev/null

# measure NAME DIR TARGET_DIR [cargo args...]: one build, a table row.
measure() {
  local name=$1 dir=$2 target=$3; shift 3
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  (cd "$dir" && /usr/bin/time -f "%U %S %e" -o "$scratch/time" \
    cargo build --release --locked -p sierra --timings --target-dir "$target" "$@" >"$scratch/log" 2>&1) || {
    cat "$scratch/log" >&2; exit 1; }
  read -r user sys wall <"$scratch/time"
  cp "$target/cargo-timings/cargo-timing.html" "$out/$name.html" 2>/dev/null || true
  awk -v n="$name" -v u="$user" -v s="$sys" -v w="$wall" -v l="$load" \
    'BEGIN { printf "| %s | %.0f | %.0f | %s |\n", n, u + s, w, l }' | tee -a "$out/table.md"
}

printf '| build | CPU s (user+sys) | wall s | load before |\n|---|---:|---:|---:|\n' | tee "$out/table.md"
if [ $# -ge 1 ]; then
  git worktree add --detach "$scratch/base" "$1" >/dev/null 2>&1
  measure "full, cold, $(git rev-parse --short "$1")" "$scratch/base" "$scratch/target-base"
fi
measure "full, cold" "$root" "$scratch/target-full"
measure "headless, cold" "$root" "$scratch/target-headless" --no-default-features
# One renderer file edited: its mtime moves, as a save would (the content is left alone).
touch crates/sierra_render/src/passes/bloom.rs
measure "full, after editing passes/bloom.rs" "$root" "$scratch/target-full"
touch crates/sierra_render/src/passes/bloom.rs
measure "headless, after editing passes/bloom.rs" "$root" "$scratch/target-headless" --no-default-features
echo "build-timings: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); table in $out/table.md"
