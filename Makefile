# gltf_physics developer tasks. `make demo` and `make test` work on a fresh clone.
# Blender (bpy-as-a-module) release to test with: 5.2 (the newest LTS) when the machine has
# Python 3.13, else 5.0 on Python 3.11 (said in one line); `make test BLENDER=4.2` forces a
# release (5.2, 5.0, 4.5 or 4.2). scripts/pick_python.sh finds the release's Python (or has uv
# install 3.13) and says what to install when there is none. From the environment BLENDER
# counts only when it is one of those releases: many export BLENDER=/path/to/blender for
# other tools, and that value is ignored.
DEFAULT_BLENDER := 5.2
RELEASES := 5.2 5.0 4.5 4.2
FORCED := $(if $(filter command line,$(origin BLENDER)),$(BLENDER),$(if $(filter environment,$(origin BLENDER)),$(if $(filter-out $(RELEASES),$(BLENDER)),,$(BLENDER))))
ifneq ($(MAKECMDGOALS),clean)
CHOICE := $(shell $(SHELL) scripts/pick_python.sh $(FORCED))
endif
override BLENDER := $(word 1,$(CHOICE) $(DEFAULT_BLENDER))
PYTHON_SYSTEM := $(filter-out -,$(word 2,$(CHOICE)))
PYTHON_NOTE := $(wordlist 3,999,$(CHOICE))
BPY_5.2 := 5.2.3
BPY_5.0 := 5.0.1
BPY_4.5 := 4.5.15
BPY_4.2 := 4.2.23
BPY_VERSION := $(BPY_$(BLENDER))
NUMPY := $(if $(filter 5.2,$(BLENDER)),2.5.5,1.26.4)
VENV := $(if $(filter $(DEFAULT_BLENDER),$(BLENDER)),.venv,.venv-$(BLENDER))
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(BPY_VERSION)
version_of = $(1) -c 'import sys; print(sys.version_info[:2])'

.PHONY: all python which-python setup test test-matrix unit lint demo build bench fuzz clean

all: test

# The release and interpreter chosen; the fallback or the missing Python said in one line.
python:
	@$(if $(PYTHON_SYSTEM),$(if $(PYTHON_NOTE),echo "$(PYTHON_NOTE)",:),$(error $(PYTHON_NOTE)))

which-python: python
	@echo "$(BLENDER) $(PYTHON_SYSTEM) $(VENV)"

$(STAMP): Makefile | python
	@# a venv of another Python (an older default) is made afresh
	@test "$$($(call version_of,$(PY)) 2>/dev/null)" = "$$($(call version_of,$(PYTHON_SYSTEM)))" || rm -rf $(VENV)
	$(PYTHON_SYSTEM) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "bpy==$(BPY_VERSION)" numpy==$(NUMPY) pytest==9.2.0 jsonschema==4.26.0 hypothesis==6.170.15 ruff==0.17.5 coacd==1.0.14
	touch $(STAMP)

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --no-update-notifier --loglevel=error

setup: python $(STAMP) node_modules/.package-lock.json

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
