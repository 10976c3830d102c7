# gltf_physics developer tasks. `make demo` and `make test` work on a fresh clone.
PYTHON_SYSTEM ?= python3.11
# Blender (bpy-as-a-module) release to test with: 5.0 (default), 4.5 or 4.2, e.g. `make test BLENDER=4.2`.
BLENDER ?= 5.0
BPY_5.0 := 5.0.1
BPY_4.5 := 4.5.15
BPY_4.2 := 4.2.23
BPY_VERSION := $(BPY_$(BLENDER))
VENV := $(if $(filter 5.0,$(BLENDER)),.venv,.venv-$(BLENDER))
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(BPY_VERSION)

.PHONY: all setup test test-matrix unit lint demo build bench fuzz clean

all: test

$(STAMP): Makefile
	@test -n "$(BPY_VERSION)" || (echo "BLENDER must be 5.0, 4.5 or 4.2" && exit 2)
	$(PYTHON_SYSTEM) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "bpy==$(BPY_VERSION)" numpy==1.26.4 pytest==9.2.0 jsonschema==4.26.0 hypothesis==6.170.15 ruff==0.17.5
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

demo: setup
	$(PY) scripts/demo.py

build: $(STAMP)
	$(PY) scripts/build.py

clean:
	rm -rf out dist
