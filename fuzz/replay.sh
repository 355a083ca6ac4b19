#!/usr/bin/env bash
# Replays every fuzz target's committed corpus and crash regressions once (`-runs=0`): a CI
# check that no input found so far crashes again (docs/fuzzing.md). Needs the nightly
# toolchain and cargo-fuzz; says so and exits 0 when either is missing.
set -euo pipefail
cd "$(dirname "$0")"
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz replay skipped: no nightly toolchain (rustup toolchain install nightly)"
  exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz replay skipped: cargo-fuzz not installed (cargo install cargo-fuzz)"
  exit 0
fi
# The budget of docs/fuzzing.md: 2 GiB of RSS, 512 MiB per allocation, 10 s per input.
budget=(-rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10)
for target in $(cargo +nightly fuzz list); do
  mkdir -p "corpus/$target" "regressions/$target"
  echo "fuzz replay: $target ($(ls "corpus/$target" | wc -l) corpus, $(ls "regressions/$target" | wc -l) regression inputs)"
  extra=()
  if [ "$target" = level ]; then extra=(../assets/levels); fi
  cargo +nightly fuzz run --sanitizer none "$target" "corpus/$target" "regressions/$target" "${extra[@]}" -- \
    -runs=0 "${budget[@]}"
done
