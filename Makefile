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

# $(call install_optional,PACKAGES,FOR,TEST): install the missing PACKAGES, which FOR needs; where
# that fails, say that TEST will be skipped and go on.
define install_optional
missing=""; for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "installing (for $(2)):$$missing"; \
  ( $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing ) || \
    echo "could not install$$missing: $(3) will be skipped"; \
fi
endef

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
	@# Optional packages: where they cannot be installed, their tests are skipped, saying why.
	@$(call install_optional,$(BROWSER_PACKAGES),the browser test,the review page's browser test)
	@$(call install_optional,$(TORCH_PACKAGES),the torch example,the torch example's test)

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
