#!/usr/bin/env bash
# Runs every example command of the README and of docs/commands.md as written (issue #28), so
# the docs cannot drift from the binary. Called by .ci/run after `make test`.
#
# Which commands: every inline code span of the README's "## Command line" section and of
# docs/commands.md that starts with `sierra `, `echo ` (a pipe into sierra),
# `cargo bench` or `cargo run --release --example` (the library examples), and holds no
# placeholder in capitals (COMMAND, LEVEL.json, ...). Each runs under
# `bash -c` with `sierra` standing for target/release/sierra (the README's own shorthand), under
# a timeout: `sierra` commands in a fresh copy of the checkout as a user's clone has it (the files
# git tracks or would track, nothing ignored, no out/) with NO `../shared` beside it, so no README
# command can lean on the shared sample models; `cargo` commands in the repository with
# `SIERRA_SHARED` pointing at an empty folder, for the same reason. Before the commands, every
# level shipped in assets/levels/ renders one small frame from that copy.
# Where the README follows a command with `→ \`OUTPUT\``, its stdout must be exactly that.
#
# The only changes made to a command are the ones listed in OVERRIDES below (fewer frames, smaller
# sizes, the documented quick flags of `bench soak` and criterion); every other command runs
# verbatim. A command the README gains is run as written until it is listed here. The whole run
# takes about 4 minutes on a 2-core VM after `make test` (criterion's five benchmarks in quick
# mode are half of it; `--workspace` keeps their build the one `make test` already made).
#
# Without a display variable set, window commands run headless (as `sierra demo` does on a
# machine without a display); the window itself is tested by crates/sierra/tests/window*.rs.
#
# Usage: scripts/readme-examples.sh [--list]   (--list: print the commands, run nothing)
set -euo pipefail
cd "$(dirname "$0")/.."

# README command -> command run. Keys must match the README exactly; an override whose key is no
# longer in the README is an error (the table would silently stop applying).
declare -A OVERRIDES=(
  ["sierra render assets/levels/platforms.json --frames 60 --size 640x360 --out out/platforms"]="sierra render assets/levels/platforms.json --frames 8 --size 320x180 --out out/platforms"
  ["sierra demo"]="sierra demo --frames 4 --size 160x90"
  ["sierra demo --headless --camera-path walk --frames 120"]="sierra demo --headless --camera-path walk --frames 8"
  ["sierra demo --input assets/input/window_tour.json"]="sierra demo --input assets/input/window_tour.json --frames 4 --size 160x90"
  ["sierra bench scene --frames 120 --json"]="sierra bench scene --frames 10 --json"
  ["sierra bench scene --backend both --frames 60"]="sierra bench scene --backend both --frames 4 --size 160x90"
  ["sierra bench soak"]="sierra bench soak --frames 210"
  ["sierra bench crowd --instances 100,1000 --frames 10"]="sierra bench crowd --instances 100,1000 --frames 3 --size 160x90"
  ["sierra bench water --json"]="sierra bench water --json --sizes 256"
  ["cargo bench --workspace --bench anim --bench ik --bench propagation --bench noise --bench water"]="cargo bench --workspace --bench anim --bench ik --bench propagation --bench noise --bench water -- --quick"
)
# Seconds one command may take (cargo bench includes building the benchmarks).
TIMEOUT_S=${README_EXAMPLES_TIMEOUT_S:-240}

command -v python3 >/dev/null || { echo "readme-examples: python3 is needed to read README.md" >&2; exit 1; }

# One example per line: COMMAND<TAB>EXPECTED_STDOUT (the latter may be empty).
examples() {
  python3 - <<'PY'
import re, sys
# The README's "## Command line" section (up to the next "## " heading) and the full
# reference, docs/commands.md, whole.
readme = open("README.md", encoding="utf-8").read()
start = readme.index("\n## Command line")
end = readme.index("\n## ", start + 1)
sections = [readme[start:end], open("docs/commands.md", encoding="utf-8").read()]
seen = set()
for section in sections:
  spans = list(re.finditer(r"`([^`\n]+)`", section))
  for i, m in enumerate(spans):
      cmd = m.group(1).replace("\\|", "|")
      if not re.match(r"(sierra |echo .*\| *sierra |cargo bench |cargo run --release --example )", cmd):
          continue
      if re.search(r"\b[A-Z][A-Z_]{2,}\b|…", cmd):
          continue  # a placeholder: a form, not an example
      if cmd in seen:
          continue
      seen.add(cmd)
      expected = ""
      after = section[m.end():m.end() + 4]
      if after.startswith(" → `") and i + 1 < len(spans):
          expected = spans[i + 1].group(1)
      print(f"{cmd}\t{expected}")
PY
}

if [[ "${1:-}" == "--list" ]]; then
  examples | cut -f1
  exit 0
fi

mapfile -t LINES < <(examples)
declare -A IN_README=()
for line in "${LINES[@]}"; do IN_README["${line%%$'\t'*}"]=1; done
for key in "${!OVERRIDES[@]}"; do
  if [[ -z "${IN_README[$key]:-}" ]]; then
    echo "readme-examples: the override for \`$key\` matches no README example; update OVERRIDES" >&2
    exit 1
  fi
done

export WGPU_BACKEND=${WGPU_BACKEND:-vulkan}
unset DISPLAY WAYLAND_DISPLAY
cargo build --release -p sierra --quiet
SIERRA_BIN="$PWD/target/release/sierra"
export SIERRA_BIN
REPO=$PWD
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
# A user's clone: what git tracks (and untracked files it does not ignore), as in the working
# tree; no target/, out/ or node_modules/, and nothing beside it.
mkdir "$SCRATCH/repo"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e "$f" ]] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$SCRATCH/repo"
mkdir "$SCRATCH/no-shared"
export SIERRA_SHARED="$SCRATCH/no-shared"
ERR="$SCRATCH/stderr"

failed=0
total_start=$SECONDS
# The README's commands must not name the shared samples: a clone has none.
for line in "${LINES[@]}"; do
  cmd=${line%%$'\t'*}
  if [[ "$cmd" == *"../shared"* || "$cmd" == *"shared:"* ]]; then
    echo "FAILED: \`$cmd\` names the shared samples, which a user's clone does not have" >&2
    failed=1
  fi
done
# Every shipped level loads and renders a frame from the clone.
levels=0
for level in "$SCRATCH"/repo/assets/levels/*.json; do
  name=assets/levels/$(basename "$level")
  [[ "$name" == */schema.json ]] && continue
  levels=$((levels + 1))
  if (cd "$SCRATCH/repo" && timeout "$TIMEOUT_S" "$SIERRA_BIN" render "$name" --frames 1 --size 64x36 \
      --out "$SCRATCH/levels/$(basename "$level" .json)" >/dev/null 2>"$ERR"); then
    echo "== level $name   ok"
  else
    echo "FAILED: the shipped level $name does not render from a clone without ../shared" >&2
    tail -5 "$ERR" >&2
    failed=1
  fi
done
declare -A RAN=()
for line in "${LINES[@]}"; do
  readme_cmd=${line%%$'\t'*}
  expected=${line#*$'\t'}
  run_cmd=${OVERRIDES[$readme_cmd]:-$readme_cmd}
  if [[ -n "${RAN[$run_cmd]:-}" ]]; then
    echo "== $readme_cmd   (runs as an earlier command did: skipped)"
    continue
  fi
  RAN["$run_cmd"]=1
  if [[ "$run_cmd" == "$readme_cmd" ]]; then
    echo "== $readme_cmd"
  else
    echo "== $readme_cmd   (run as: $run_cmd)"
  fi
  dir="$SCRATCH/repo"
  [[ "$run_cmd" == cargo* ]] && dir=$REPO
  start=$SECONDS
  set +e
  stdout=$(cd "$dir" && timeout "$TIMEOUT_S" bash -c 'set -o pipefail; sierra() { "$SIERRA_BIN" "$@"; }; eval "$1"' _ "$run_cmd" 2>"$ERR")
  status=$?
  set -e
  took=$((SECONDS - start))
  if [[ $status -ne 0 ]]; then
    echo "FAILED (exit $status after ${took} s): $run_cmd" >&2
    tail -20 "$ERR" >&2
    failed=1
  elif [[ -n "$expected" && "$stdout" != "$expected" ]]; then
    echo "FAILED: \`$run_cmd\` printed \`$stdout\`, the README says \`$expected\`" >&2
    failed=1
  else
    echo "   ok (${took} s)"
  fi
done
echo "readme-examples: $levels shipped levels and ${#LINES[@]} commands in $((SECONDS - total_start)) s, from a clone without ../shared"
exit $failed
