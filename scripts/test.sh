#!/usr/bin/env bash
# `make test`: the README's test command (`cargo test --release --workspace --no-fail-fast`,
# extra arguments passed on), then one last line counting the tests that skipped, by reason.
#
# Tests skip only through `sierra_testkit::skip`, which appends `test<TAB>reason<TAB>detail`
# to `$SIERRA_SKIP_DIR/skips.tsv`; this script points that at a fresh folder, keeps the log as
# `${CARGO_TARGET_DIR:-target}/skips.tsv`, and exits with cargo's status. Under CI (`CI` set,
# not `false`/`0`) a skip fails its test unless its reason is in tests/skip-allowlist.txt.
# See docs/testing.md.
set -uo pipefail
cd "$(dirname "$0")/.."

skip_dir=$(mktemp -d "${TMPDIR:-/tmp}/sierra-skips.XXXXXX")
trap 'rm -rf "$skip_dir"' EXIT
export SIERRA_SKIP_DIR="$skip_dir"
log="$skip_dir/skips.tsv"
: >"$log"

"${CARGO:-cargo}" test --release --workspace --no-fail-fast "$@"
status=$?

target="${CARGO_TARGET_DIR:-target}"
kept="$target/skips.tsv"
mkdir -p "$target" && cp "$log" "$kept"

ci=0
case "${CI:-}" in "" | false | 0) ;; *) ci=1 ;; esac
allowed=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' tests/skip-allowlist.txt 2>/dev/null | grep -v '^$' | tr '\n' ' ')

# Distinct tests per reason (a test logs each of its reasons once per detail; count it once).
awk -F'\t' -v kept="$kept" -v ci="$ci" -v allowed=" $allowed" '
  NF >= 2 {
    if (!(($1, $2) in seen)) { seen[$1, $2] = 1; count[$2]++ }
    if (!($1 in tests)) { tests[$1] = 1; total++ }
  }
  END {
    if (total == 0) { print "skips: none"; exit }
    n = 0
    for (r in count) order[++n] = r
    # Most skipped reason first (insertion sort: a handful of reasons).
    for (i = 2; i <= n; i++) {
      r = order[i]; j = i - 1
      while (j > 0 && (count[order[j]] < count[r] || (count[order[j]] == count[r] && order[j] > r))) {
        order[j + 1] = order[j]; j--
      }
      order[j + 1] = r
    }
    line = ""; failed = ""
    for (i = 1; i <= n; i++) {
      r = order[i]
      ok = index(allowed " ", " " r " ") > 0
      line = line (i > 1 ? ", " : "") r " " count[r] (ok ? " (allow-listed)" : "")
      if (!ok) failed = failed (failed == "" ? "" : ", ") r
    }
    msg = "skips: " total " test" (total == 1 ? "" : "s") " skipped — " line " (list: " kept ")"
    if (ci && failed != "") msg = msg "; under CI these failed: " failed
    print msg
  }' "$log"
exit "$status"
