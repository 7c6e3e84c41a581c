# The two set-up commands of README.md. Each installs what is missing first.
#   make demo   install, build (Release, with the runtime), run the demo on samples/
#   make test   install, build, run every test through ctest
#   make bench  install, build, run every scripts/bench-*.sh one after another
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build demo test bench clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@bash scripts/demo.sh $(BUILD_DIR)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Every benchmark that exists, in this order; one failing does not stop the others.
BENCHES = frontend check runtime instrument train precision mutation

bench: build
	@status=0; for b in $(BENCHES); do \
	  if [ -f scripts/bench-$$b.sh ]; then \
	    echo "== make bench: scripts/bench-$$b.sh"; \
	    bash scripts/bench-$$b.sh $(BUILD_DIR) || { echo "== make bench: bench-$$b.sh failed" >&2; status=1; }; \
	  fi; \
	done; exit $$status

clean:
	rm -rf $(BUILD_DIR)
