# gltf_physics developer tasks. `make demo` and `make test` work on a fresh clone.
PYTHON_SYSTEM ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
BPY_VERSION ?= 5.0.1
STAMP := $(VENV)/.installed-$(BPY_VERSION)

.PHONY: all setup test unit lint demo build clean

all: test

$(STAMP): Makefile
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

demo: setup
	$(PY) scripts/demo.py

build: $(STAMP)
	$(PY) scripts/build.py

clean:
	rm -rf out dist
