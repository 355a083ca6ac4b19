#!/usr/bin/env bash
# Re-measures every performance figure the docs quote and regenerates the docs from that one run:
#   docs/performance-report.md  the output of `sierra bench report`, committed as written
#   docs/performance.md         its copy between <!-- perf-report:begin --> and <!-- perf-report:end -->
# Usage: scripts/perf-report.sh [ROUNDS]   (default 5; SIERRA=path/to/sierra skips the build)
# Run it on a quiet machine: the report records the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
if [ -z "${SIERRA:-}" ]; then
    cargo build --release -p sierra --bin sierra
    SIERRA=target/release/sierra
fi
report=docs/performance-report.md
"$SIERRA" bench report --rounds "$rounds" --out "$report"

# splice FILE BEGIN END CONTENT: replaces the lines between the marker lines BEGIN and END.
splice() {
    local file=$1 begin=$2 end=$3 content=$4
    grep -qxF "$begin" "$file" && grep -qxF "$end" "$file" || {
        echo "perf-report.sh: $file lacks the lines $begin and $end" >&2
        exit 1
    }
    awk -v b="$begin" -v e="$end" -v f="$content" '
        $0 == b { print; while ((getline line < f) > 0) print line; skip = 1; next }
        $0 == e { skip = 0 }
        !skip { print }' "$file" > "$file.tmp"
    mv "$file.tmp" "$file"
}

splice docs/performance.md '<!-- perf-report:begin -->' '<!-- perf-report:end -->' "$report"
echo "perf-report.sh: wrote $report and docs/performance.md" >&2
