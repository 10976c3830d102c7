# gltf_physics developer tasks. `make demo` and `make test` work on a fresh clone.
# Blender (bpy-as-a-module) release to test with: 5.2 (the newest LTS, default), 5.0, 4.5 or
# 4.2, e.g. `make test BLENDER=4.2`. bpy 5.2 is built for Python 3.13, the others for 3.11.
DEFAULT_BLENDER := 5.2
BLENDER ?= $(DEFAULT_BLENDER)
BPY_5.2 := 5.2.3
BPY_5.0 := 5.0.1
BPY_4.5 := 4.5.15
BPY_4.2 := 4.2.23
BPY_VERSION := $(BPY_$(BLENDER))
NUMPY := $(if $(filter 5.2,$(BLENDER)),2.5.5,1.26.4)
# python3.13 may be a pyenv shim that is not active: take the first interpreter that runs.
find_python = $(firstword $(foreach p,$(1),$(shell $(p) -c '' >/dev/null 2>&1 && echo $(p))))
PYTHON_3.11 ?= $(call find_python,python3.11 $(wildcard $(HOME)/.pyenv/versions/3.11*/bin/python3.11))
PYTHON_3.13 ?= $(call find_python,python3.13 $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3.13))
PYTHON_VERSION := $(if $(filter 5.2,$(BLENDER)),3.13,3.11)
PYTHON_SYSTEM ?= $(PYTHON_$(PYTHON_VERSION))
VENV := $(if $(filter $(DEFAULT_BLENDER),$(BLENDER)),.venv,.venv-$(BLENDER))
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(BPY_VERSION)

.PHONY: all setup test test-matrix unit lint demo build bench fuzz clean

all: test

$(STAMP): Makefile
	@test -n "$(BPY_VERSION)" || (echo "BLENDER must be 5.2, 5.0, 4.5 or 4.2" && exit 2)
	@test -n "$(PYTHON_SYSTEM)" || (echo "no Python for bpy $(BPY_VERSION) (5.2: python3.13, else python3.11)" && exit 2)
	@# a venv of another Python (an older default) is made afresh
	@$(PY) -c 'import sys; sys.exit(sys.version_info[:2] != tuple(map(int, "$(PYTHON_VERSION)".split("."))))' 2>/dev/null || rm -rf $(VENV)
	$(PYTHON_SYSTEM) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "bpy==$(BPY_VERSION)" numpy==$(NUMPY) pytest==9.2.0 jsonschema==4.26.0 hypothesis==6.170.15 ruff==0.17.5 coacd==1.0.14
	touch $(STAMP)

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

setup: $(STAMP) node_modules/.package-lock.json

lint: $(STAMP)
	$(VENV)/bin/ruff check .

unit: setup
	$(PY) -m pytest tests/unit -q

test: setup lint
	$(PY) -m pytest tests -q

# Speed and memory of export/import with and without physics, and of the hull tool.
bench: setup
	$(PY) scripts/bench.py

# A long importer fuzzing run (the default test run does 24 cases).
FUZZ_RUNS ?= 2000
fuzz: setup
	GLTF_PHYSICS_FUZZ_RUNS=$(FUZZ_RUNS) $(PY) -m pytest tests/integration/test_fuzz_import.py -q

# The whole suite on every supported Blender release (each in its own venv).
test-matrix:
	$(MAKE) test BLENDER=4.2
	$(MAKE) test BLENDER=4.5
	$(MAKE) test BLENDER=5.0
	$(MAKE) test BLENDER=5.2

demo: setup
	$(PY) scripts/demo.py

build: $(STAMP)
	$(PY) scripts/build.py

clean:
	rm -rf out dist
