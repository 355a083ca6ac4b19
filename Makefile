# Sierra: the two commands (see README.md). Both install missing system packages first.
CARGO ?= cargo
export WGPU_BACKEND ?= vulkan

.PHONY: setup demo test bench soak

setup:
	@bash scripts/setup.sh

## Render the demo island (a window when a display exists, else PNG frames + trace + stats in out/demo).
demo: setup
	$(CARGO) run --release -p sierra -- demo

## Run every test (one release build shared with the demo).
test: setup
	$(CARGO) test --release --workspace
