# The README's two commands: `make demo` and `make test`. Both install what is missing first.
BUILD   ?= build
JOBS    ?= $(shell nproc)
CMAKE_FLAGS ?=
PACKAGES := cmake make g++ pkg-config libboost-dev libboost-program-options-dev libboost-regex-dev \
            libfmt-dev libre2-dev libsimdjson-dev doctest-dev libseccomp-dev libxxhash-dev xxhash libssl-dev libcurl4-openssl-dev python3 python3-numpy python3-scipy \
            python3-dev python3-pybind11 pybind11-dev
BROWSER_PACKAGES := chromium chromium-driver python3-selenium
# examples/python's torch example (tests/python): optional like the browser test.
TORCH_PACKAGES := python3-torch
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps configure build test demo bench clean

all: build

deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	command -v npm >/dev/null || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@# The review page's browser test: optional, skipped (saying why) where Chromium cannot be installed.
	@missing=""; for p in $(BROWSER_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing (for the browser test):$$missing"; \
	  ( $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing ) || \
	    echo "could not install$$missing: the review page's browser test will be skipped"; \
	fi
	@missing=""; for p in $(TORCH_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing (for the torch example):$$missing"; \
	  ( $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing ) || \
	    echo "could not install$$missing: the torch example's test will be skipped"; \
	fi

configure: deps
	@[ -f $(BUILD)/CMakeCache.txt ] || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -LE gpu -j $(JOBS)

# The demo builds only what it runs, the rubric executable; the tests build under `make test`.
demo: configure
	cmake --build $(BUILD) -j $(JOBS) --target rubric
	$(BUILD)/rubric check examples/kv_cache/kv_cache.rubric \
	  --submission examples/kv_cache/submissions/good --reference examples/kv_cache/reference; \
	  echo "exit code: $$?"

bench: build
	cmake --build $(BUILD) -j $(JOBS) --target benchmarks
	bash bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD)
