#!/usr/bin/env bash
# Fuzzing as CI runs it (docs/fuzzing.md): builds every target, replays each target's committed
# corpus and crash inputs once, then fuzzes each target for SECONDS (one target at a time) and
# prints a table of executions, coverage and corpus growth. Any crash, leak of the budget or hang
# is a finding: the script exits 1 naming the target and the input libFuzzer saved.
#
# Usage: fuzz/run.sh [SECONDS]   (default 60 per target; 0 = build and replay only)
#
# Needs the nightly toolchain and cargo-fuzz (fuzz/install.sh installs both; .ci/run calls it).
# Without them the script fails under CI (`CI` set) and otherwise says it skipped.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET=${1:-60}
[[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || { echo "usage: fuzz/run.sh [SECONDS]" >&2; exit 2; }

missing=""
cargo +nightly --version >/dev/null 2>&1 || missing="the nightly toolchain"
[[ -z "$missing" ]] && { cargo +nightly fuzz --version >/dev/null 2>&1 || missing="cargo-fuzz"; }
if [[ -n "$missing" ]]; then
  if [[ -n "${CI:-}" ]]; then
    echo "fuzz: $missing is missing and CI is set (run fuzz/install.sh)" >&2
    exit 1
  fi
  echo "fuzz: SKIPPED, $missing is missing (fuzz/install.sh installs it)"
  exit 0
fi

# The budget of docs/fuzzing.md: 2 GiB of RSS, 512 MiB per allocation, 10 s per input.
BUDGET=(-rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10)
SHARED_GLTF=${SIERRA_SHARED:-../../shared}/assets/gltf

# Seed folders besides the committed corpus and crash inputs: inputs the repository ships, and
# the shared sample models where they are beside the checkout (read in place, never copied).
seeds() {
  case "$1" in
    level) echo ../assets/levels ;;
    gltf_import)
      echo ../assets/levels/models
      if [[ -d "$SHARED_GLTF" ]]; then echo "$SHARED_GLTF"; fi ;;
  esac
}

echo "fuzz: building every target ($(cargo +nightly --version))"
cargo +nightly fuzz build --sanitizer none
mapfile -t TARGETS < <(cargo +nightly fuzz list)

LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT
failed=0
declare -a ROWS=()
for target in "${TARGETS[@]}"; do
  mkdir -p "corpus/$target" "regressions/$target" "work/$target"
  mapfile -t extra < <(seeds "$target")
  inputs=(corpus/$target regressions/$target "${extra[@]}")
  echo "fuzz: $target: replaying $(find "${inputs[@]}" -type f | wc -l) committed and seed inputs"
  if ! cargo +nightly fuzz run --sanitizer none "$target" "${inputs[@]}" -- -runs=0 "${BUDGET[@]}" \
      >"$LOG/$target.replay" 2>&1; then
    echo "fuzz: FAILED: $target crashed on a committed input:" >&2
    grep -E "panicked|ERROR|Test unit written|SUMMARY|^Base64|^artifact" "$LOG/$target.replay" | head -20 >&2
    failed=1
    ROWS+=("$target|replay failed|-|-|-")
    continue
  fi
  if [[ "$SECONDS_PER_TARGET" -eq 0 ]]; then
    ROWS+=("$target|replayed|-|-|-")
    continue
  fi
  echo "fuzz: $target: fuzzing for ${SECONDS_PER_TARGET} s"
  before=$(find "work/$target" -type f | wc -l)
  # New inputs go to work/TARGET (ignored); the committed corpus is never rewritten.
  if ! cargo +nightly fuzz run --sanitizer none "$target" "work/$target" "${inputs[@]}" -- \
      -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 "${BUDGET[@]}" \
      >"$LOG/$target.run" 2>&1; then
    echo "fuzz: FAILED: $target found a crash:" >&2
    grep -E "panicked|ERROR|Test unit written|SUMMARY" "$LOG/$target.run" | head -20 >&2
    failed=1
  fi
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$LOG/$target.run" | grep -oE "[0-9]+$" || echo "?")
  per_s=$(grep -oE "stat::average_exec_per_sec: *[0-9]+" "$LOG/$target.run" | grep -oE "[0-9]+$" || echo "?")
  cov=$(grep -oE "cov: [0-9]+" "$LOG/$target.run" | tail -1 | grep -oE "[0-9]+" || echo "?")
  after=$(find "work/$target" -type f | wc -l)
  ROWS+=("$target|${SECONDS_PER_TARGET} s|$runs|$per_s|$cov|$((after - before))")
done

echo
echo "| target | ran | executions | executions/s | coverage (edges) | new inputs |"
echo "|---|---|---:|---:|---:|---:|"
for row in "${ROWS[@]}"; do echo "| ${row//|/ | } |"; done
if [[ $failed -ne 0 ]]; then
  echo "fuzz: FAILED (see above; libFuzzer's crash inputs are in fuzz/artifacts/)" >&2
  exit 1
fi
echo "fuzz: ${#TARGETS[@]} targets built, replayed and run, no finding"
