# Sierra: the two commands (see README.md). Both install missing system packages first.
CARGO ?= cargo
export WGPU_BACKEND ?= vulkan
# A private runtime dir keeps Mesa/winit from warning about an invalid XDG_RUNTIME_DIR.
export XDG_RUNTIME_DIR ?= /tmp/sierra-runtime-$(shell id -u)

.PHONY: setup demo test bench soak stall-guard web

setup:
	@bash scripts/setup.sh
	@mkdir -p -m 700 $(XDG_RUNTIME_DIR)
	@# three.js and gltfpack (pinned in tools/js/package-lock.json) for sierra_gltf/tests/threejs.rs
	@# and gltfpack.rs; installed again when the lock file is newer than the installed tree.
	@if [ ! -d tools/js/node_modules ] || [ tools/js/package-lock.json -nt tools/js/node_modules/.package-lock.json ]; then \
		if command -v npm >/dev/null 2>&1; then (cd tools/js && npm ci --no-audit --no-fund); \
		else echo "setup: npm not found; the three.js interoperability test needs Node.js and npm" >&2; fi; \
	fi

## Render the demo island (a window when a display exists, else PNG frames + trace + stats in out/demo).
demo: setup
	$(CARGO) run --release -p sierra -- demo

## Build the web viewer (wasm32 + wasm-bindgen, docs/web.md) and serve it on 127.0.0.1; prints the URL.
WEB_PORT ?= 8080
web: setup
	@bash scripts/web-build.sh target/web/site
	$(CARGO) run --release -p sierra_web --bin sierra-web-serve -- target/web/site --port $(WEB_PORT)

## Run every test (one release build shared with the demo): `cargo test --release --workspace
## --no-fail-fast`, then one line counting the skipped tests by reason (docs/testing.md).
test: setup
	@CARGO="$(CARGO)" bash scripts/test.sh

## The walk-through with no stalled frame (docs/stalls.md); timed, so run alone (.ci/run does).
stall-guard: setup
	$(CARGO) test --release -p sierra --test stall_guard -- --ignored
