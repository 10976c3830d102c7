# SPDX-License-Identifier: GPL-3.0-or-later
"""Nothing of one import outlives it: the same file imported 200 times in one process keeps
the live objects, handlers, caches and reports of the first import; a large bad array is
reported in a bounded number of lines."""

import gc
import json
import logging
import sys
from pathlib import Path

import bpy
import pytest

from tests.conftest import CORPUS
from tests.integration.conftest import MODULE

SOURCE = CORPUS / "khr" / "samples" / "JointTypes" / "JointTypes.gltf"
IMPORTS = 200
BAD_LENGTH = 2_000
#: Live Python objects the later imports may add to the first one's: caches that a second
#: import warms (measured: about 200); the last 100 imports may add at most NOISE.
WARM_UP = 1000
NOISE = 100


@pytest.fixture
def bad_array_file(tmp_path: Path) -> Path:
    if not SOURCE.is_file():
        pytest.skip("../shared/corpus is not beside the checkout")
    gltf = json.loads(SOURCE.read_text())
    gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][5]["limits"] = list(
        range(BAD_LENGTH))
    for buffer in gltf["buffers"]:
        (tmp_path / buffer["uri"]).write_bytes((SOURCE.parent / buffer["uri"]).read_bytes())
    path = tmp_path / "bad_array.gltf"
    path.write_text(json.dumps(gltf))
    return path


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("gltf_physics:"):
            self.lines.append(message)


def _state() -> dict[str, int]:
    """What could accumulate across imports."""
    gc.collect()
    caches = {
        f"{name}.{attr}": value.cache_info().currsize
        for name, module in list(sys.modules.items()) if name.startswith(MODULE)
        for attr, value in vars(module).items() if hasattr(value, "cache_info")
    }
    handlers = {f"app.{name}": len(getattr(bpy.app.handlers, name))
                for name in dir(bpy.app.handlers) if not name.startswith("_")
                and isinstance(getattr(bpy.app.handlers, name), list)}
    loggers = {f"log.{name}": len(logging.getLogger(name).handlers)
               for name in ("glTFImporter", "glTFImporter_errors", MODULE)}
    return {"objects": len(gc.get_objects()), **caches, **handlers, **loggers}


def test_two_hundred_imports_leave_what_the_first_left(clean_scene, bad_array_file) -> None:
    lines = _Lines()
    logging.getLogger("glTFImporter").addHandler(lines)
    # pytest keeps every log record of a test: this one's must not reach it
    quiet = [logging.getLogger(name) for name in ("glTFImporter", "glTFImporter_errors", MODULE)]
    for logger in quiet:
        logger.propagate = False
    try:
        reports, states = [], []
        for number in range(IMPORTS):
            bpy.ops.wm.read_homefile(use_empty=True)
            lines.lines.clear()
            bpy.ops.import_scene.gltf(filepath=str(bad_array_file))
            if number in (0, IMPORTS - 1):  # only these: kept reports are live objects
                reports.append(list(lines.lines))
            if number in (0, IMPORTS // 2 - 1):
                states.append(_state())
        first, middle = states
        last = _state()
    finally:
        logging.getLogger("glTFImporter").removeHandler(lines)
        for logger in quiet:
            logger.propagate = True
    assert reports[-1] == reports[0]
    assert last["objects"] <= first["objects"] + WARM_UP
    assert last["objects"] <= middle["objects"] + NOISE
    assert {k: v for k, v in last.items() if k != "objects"} == \
        {k: v for k, v in first.items() if k != "objects"}


def test_a_large_bad_array_is_reported_in_bounded_lines(clean_scene, bad_array_file) -> None:
    from importlib import import_module

    limit = import_module(f"{MODULE}.io.diagnostics").LIST_LIMIT
    lines = _Lines()
    logging.getLogger("glTFImporter").addHandler(lines)
    try:
        bpy.ops.import_scene.gltf(filepath=str(bad_array_file))
    finally:
        logging.getLogger("glTFImporter").removeHandler(lines)
    bad = [line for line in lines.lines if "[not-an-object]" in line]
    assert len(bad) == limit + 1  # the listed ones, then the count of the rest
    assert f"{BAD_LENGTH - limit} more not-an-object issues not listed" in bad[-1]
    assert f"{BAD_LENGTH} physics problems (not-an-object×{BAD_LENGTH})" in lines.lines[-1]
    assert len([o for o in bpy.data.objects if o.type == "MESH"]) > 0  # geometry kept
