# SPDX-License-Identifier: GPL-3.0-or-later
"""Imported data is never code and its sizes are bounded; files from strangers (hostile
URIs: outside the asset's folder, special files, huge byteLengths) are refused by both
command-line tools without opening anything outside, without a traceback, within a memory
limit and a timeout, while legitimate external files in the folder still work."""

from __future__ import annotations

import ast
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gltf_physics.io.codecs import registry
from gltf_physics.io.diagnostics import Report
from gltf_physics.io.document import DocumentView
from gltf_physics.io.external_reader import MAX_BUFFER_BYTES, ResourceError, read_buffer, resolve
from gltf_physics.io.json_read import MAX_LIST
from tests.conftest import CORPUS, ROOT

FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}
FORBIDDEN_MODULES = {"pickle", "shelve"}
#: marshal may key our own parsed values (io/json_read.json_key), never read bytes back
FORBIDDEN_FUNCTIONS = {("marshal", "load"), ("marshal", "loads")}
SCANNED_BY_NAME = {module for module, _ in FORBIDDEN_FUNCTIONS}  # so no alias, no `*`
PRODUCT = ("io", "operators", "panels", "__init__.py")


def product_files() -> list[Path]:
    files = []
    for part in PRODUCT:
        path = ROOT / part
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def unsafe_uses(tree: ast.AST) -> list[str]:
    """Dynamic code and deserialising imports or calls in a module, as `line name`."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in FORBIDDEN_CALLS:
            found.append(f"{node.lineno} {node.func.id}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and (node.value.id, node.attr) in FORBIDDEN_FUNCTIONS:
            found.append(f"{node.lineno} {node.value.id}.{node.attr}")
        if isinstance(node, ast.Import | ast.ImportFrom):
            module = getattr(node, "module", None) or ""
            names = [a.name for a in node.names] + [module]
            found += [f"{node.lineno} {n}" for n in names
                      if n.split(".")[0] in FORBIDDEN_MODULES]
            found += [f"{node.lineno} {module}.{a.name}" for a in node.names
                      if (module, a.name) in FORBIDDEN_FUNCTIONS or (
                          module in SCANNED_BY_NAME and a.name == "*")]
            found += [f"{node.lineno} {a.name} as {a.asname}" for a in node.names
                      if a.name in SCANNED_BY_NAME and a.asname]
    return found


def test_no_dynamic_code_or_unsafe_deserialisation() -> None:
    found = [f"{path.relative_to(ROOT)}:{use}" for path in product_files()
             for use in unsafe_uses(ast.parse(path.read_text(), str(path)))]
    assert found == []


@pytest.mark.parametrize(("source", "found"), [
    ("import pickle", ["1 pickle"]), ("from shelve import open", ["1 shelve"]),
    ("import marshal\nmarshal.loads(b'')", ["2 marshal.loads"]),
    ("from marshal import load", ["1 marshal.load"]), ("eval('1')", ["1 eval"]),
    ("import marshal as m", ["1 marshal as m"]), ("from marshal import *", ["1 marshal.*"]),
    ("import marshal\nmarshal.dumps({}, 2)", []),
])
def test_the_unsafe_use_scan_finds_what_it_forbids(source: str, found: list[str]) -> None:
    assert unsafe_uses(ast.parse(source)) == found


def test_huge_arrays_are_refused_before_copying() -> None:
    report = Report()
    huge = [{"type": "box"}] * (MAX_LIST + 1)
    view = DocumentView.from_json({"nodes": [], "extensions": {"KHR_implicit_shapes": {
        "shapes": huge}}})
    registry.decode_document(view, report)
    assert any("exceeds" in issue.message for issue in report.issues)


# -- files from strangers: both command-line tools, in a subprocess --------------------------

CHECKER, CONVERTER = ROOT / "scripts" / "check_physics.py", ROOT / "scripts" / "convert.py"
MEMORY_LIMIT = 2 << 30  # the limit the issue's converter died under with a MemoryError
TIMEOUT = 60  # a tool blocked on a named pipe would be stopped here, and the test fail
TETRAHEDRON = struct.pack("<12f", 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)
posix_only = pytest.mark.skipif(os.name != "posix", reason="named pipes, symlinks, /dev/zero")


def asset(folder: Path, uri: str, byte_length: int = len(TETRAHEDRON),
          image: str | None = None) -> Path:
    """A KHR dynamic body whose convex-hull collider is mesh 0, read from buffer `uri` (so
    both tools read the buffer: the hull check, the centre of mass)."""
    gltf = {
        "asset": {"version": "2.0"}, "extensionsUsed": ["KHR_physics_rigid_bodies"],
        "buffers": [{"uri": uri, "byteLength": byte_length}],
        "bufferViews": [{"buffer": 0, "byteLength": len(TETRAHEDRON)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 1]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0, "extensions": {"KHR_physics_rigid_bodies": {
            "motion": {"mass": 2.0},
            "collider": {"geometry": {"mesh": 0, "convexHull": True}}}}}],
        "scenes": [{"nodes": [0]}], "scene": 0,
    }
    if image is not None:
        gltf["images"] = [{"uri": image}]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "model.gltf"
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def limited() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def tool(script: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True,
                          text=True, timeout=TIMEOUT, check=False, preexec_fn=limited)


@pytest.fixture
def stranger(tmp_path: Path) -> dict[str, Path]:
    """An asset folder, and outside it a named pipe and a secret where a leak would land."""
    outside = tmp_path / "outside"
    outside.mkdir()
    os.mkfifo(outside / "secret.bin")  # opening it for reading blocks until a writer comes
    os.mkfifo(outside / "secret.png")
    folder = tmp_path / "asset"
    (folder / "sub").mkdir(parents=True)
    (folder / "small.bin").write_bytes(TETRAHEDRON)
    (folder / "link.bin").symlink_to(outside / "secret.bin")
    (folder / "link.png").symlink_to(outside / "secret.png")
    (folder / "loop.bin").symlink_to(folder / "loop2.bin")
    (folder / "loop2.bin").symlink_to(folder / "loop.bin")
    os.mkfifo(folder / "pipe.bin")
    return {"folder": folder, "outside": outside, "out": tmp_path / "converted"}


HOSTILE = {  # buffer URI, byteLength, image URI
    "dot-dot": ("../outside/secret.bin", 48, None),
    "absolute": ("{outside}/secret.bin", 48, None),
    "percent-encoded dot-dot": ("%2E%2E%2Foutside%2Fsecret.bin", 48, None),
    "percent-encoded absolute": ("%2F{outside_encoded}%2Fsecret.bin", 48, None),
    "file URL": ("file://{outside}/secret.bin", 48, None),
    "symlink out": ("link.bin", 48, None),
    "symlink loop": ("loop.bin", 48, None),
    "a folder": ("sub", 48, None),
    "a named pipe inside": ("pipe.bin", 48, None),
    "/dev/zero, byteLength 10^12": ("/dev/zero", 10**12, None),
    "byteLength past the file": ("small.bin", 10**12, None),
    "byteLength past the cap": ("small.bin", MAX_BUFFER_BYTES + 1, None),
    "image: symlink out": ("small.bin", 48, "link.png"),
    "image: dot-dot": ("small.bin", 48, "sub/../../outside/secret.png"),
}


@posix_only
@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_files_are_refused_by_both_tools(case: str, stranger: dict[str, Path]) -> None:
    uri, length, image = HOSTILE[case]
    outside = str(stranger["outside"])
    names = {"outside": outside, "outside_encoded": outside.strip("/").replace("/", "%2F")}
    uri, image = uri.format(**names), image and image.format(**names)
    path = asset(stranger["folder"], uri, length, image)
    refused = image if image is not None else uri
    checked = tool(CHECKER, path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "[resource-refused]" in checked.stdout and repr(refused) in checked.stdout
    output = stranger["out"] / "model.gltf"
    converted = tool(CONVERTER, path, output, "--to", "omi")
    assert converted.returncode == 1 and repr(refused) in converted.stderr, converted.stderr
    assert "not converted" in converted.stderr and not stranger["out"].exists()
    for done in (checked, converted):
        assert "Traceback" not in done.stdout + done.stderr


@posix_only
def test_legitimate_external_files_in_the_folder_and_subfolders_still_work(
        tmp_path: Path) -> None:
    folder = tmp_path / "asset"
    (folder / "data").mkdir(parents=True)
    (folder / "tex dir").mkdir()
    (folder / "data" / "mesh.bin").write_bytes(TETRAHEDRON + b"pad!")  # longer: fine
    (folder / "tex dir" / "a b.png").write_bytes(b"\x89PNG not really")
    (folder / "alias.bin").symlink_to(folder / "data" / "mesh.bin")  # a symlink inside
    for uri in ("data/mesh.bin", "data/../data/mesh.bin", "alias.bin", "data%2Fmesh.bin"):
        path = asset(folder, uri, image="tex%20dir/a%20b.png")
        checked = tool(CHECKER, path, "--json")
        assert checked.returncode == 0, checked.stdout + checked.stderr
        findings = json.loads(checked.stdout)["files"][0]["findings"]
        assert not [f for f in findings if f["code"] in {"resource-refused", "mesh-not-read"}]
        out = tmp_path / f"out-{len(uri)}" / "model.gltf"
        converted = tool(CONVERTER, path, out, "--to", "omi")
        assert converted.returncode == 0, converted.stderr
        assert (out.parent / "tex dir" / "a b.png").read_bytes() == b"\x89PNG not really"
        copied = out.parent / os.path.normpath(uri.replace("%2F", "/"))
        assert copied.read_bytes() == TETRAHEDRON + b"pad!" and not copied.is_symlink()


def test_data_uris_and_the_glb_chunk_are_read_up_to_the_byte_length(tmp_path: Path) -> None:
    data = "data:application/octet-stream;base64," + base64.b64encode(TETRAHEDRON).decode()
    assert read_buffer({"uri": data, "byteLength": 12}, None, None) == TETRAHEDRON[:12]
    assert read_buffer({"byteLength": 8}, None, TETRAHEDRON) == TETRAHEDRON[:8]
    with pytest.raises(ResourceError, match="more than its 48 bytes"):
        read_buffer({"uri": data, "byteLength": 49}, None, None)
    with pytest.raises(ResourceError, match="the GLB binary chunk declares byteLength"):
        read_buffer({"byteLength": 10**12}, None, TETRAHEDRON)
    with pytest.raises(ResourceError, match="no valid byteLength"):
        read_buffer({"uri": data, "byteLength": -1}, None, None)
    (tmp_path / "a.bin").write_bytes(TETRAHEDRON)
    assert read_buffer({"uri": "a.bin", "byteLength": 4}, tmp_path, None) == TETRAHEDRON[:4]
    assert resolve("a.bin", tmp_path) == (tmp_path.resolve() / "a.bin", 48)
    with pytest.raises(ResourceError, match="does not exist") as missing:
        resolve("b.bin", tmp_path)
    assert not missing.value.refused


@pytest.mark.parametrize("payload, length, why", [
    (base64.b64encode(TETRAHEDRON).decode(), 49, "more than its 48 bytes"),
    ("!!!!not-base64", 48, "is not valid base64"),
])
def test_a_data_uri_shorter_than_its_byte_length_is_refused_by_both_tools(
        payload: str, length: int, why: str, tmp_path: Path) -> None:
    """As a file's would be: the checker said only that the mesh was unread, and the
    converter wrote the broken buffer on (the glTF validator: BUFFER_BYTE_LENGTH_MISMATCH)."""
    path = asset(tmp_path / "asset", "data:application/octet-stream;base64," + payload, length)
    checked = tool(CHECKER, path)
    assert checked.returncode == 1, checked.stdout
    [line] = [line for line in checked.stdout.splitlines() if "[resource-refused]" in line]
    assert line.startswith(f"{path}:/buffers/0/uri: error:") and why in line, line
    converted = tool(CONVERTER, path, tmp_path / "out" / "model.gltf", "--to", "khr")
    assert converted.returncode == 1 and why in converted.stderr, converted.stderr
    assert "has buffers or images the converter does not read" in converted.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("uri", ["//[oops/a.bin", "//a]b/x.bin", "http://[x/a.bin"])
def test_a_uri_urlsplit_rejects_is_refused_naming_it(uri: str, tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="is not a valid URI") as bad:
        resolve(uri, tmp_path)
    assert repr(uri) in str(bad.value)
    if uri.startswith("//"):
        path = asset(tmp_path / "asset", uri)
        checked = tool(CHECKER, path)
        assert checked.returncode == 1 and "[resource-refused]" in checked.stdout
        assert repr(uri) in checked.stdout and "failed" not in checked.stdout, checked.stdout
        converted = tool(CONVERTER, path, tmp_path / "out" / "m.gltf", "--to", "khr")
        assert converted.returncode == 1 and repr(uri) in converted.stderr, converted.stderr
        assert "internal failure" not in converted.stderr


def test_urls_are_not_read_but_not_refused(tmp_path: Path) -> None:
    """A remote image is legal glTF: neither tool reads it, and neither calls it an error."""
    with pytest.raises(ResourceError, match="is a URL") as url:
        resolve("https://example.com/a.png", tmp_path)
    assert not url.value.refused
    path = asset(tmp_path, "small.bin", image="https://example.com/a.png")
    (tmp_path / "small.bin").write_bytes(TETRAHEDRON)
    checked = tool(CHECKER, path)
    assert checked.returncode == 0 and "resource-refused" not in checked.stdout
    converted = tool(CONVERTER, path, tmp_path / "out" / "model.gltf", "--to", "omi")
    assert converted.returncode == 0, converted.stderr


@posix_only
@pytest.mark.parametrize("given", ["pipe", "/dev/zero", "folder"])
def test_the_named_file_itself_must_be_a_regular_file(given: str, tmp_path: Path) -> None:
    path = {"pipe": tmp_path / "input.gltf", "/dev/zero": Path("/dev/zero"),
            "folder": tmp_path}[given]
    if given == "pipe":
        os.mkfifo(path)
    checked = tool(CHECKER, path)
    converted = tool(CONVERTER, path, tmp_path / "out.gltf", "--to", "khr")
    reason = "a folder" if given == "folder" else "not a regular file"
    assert checked.returncode == 2 and reason in checked.stdout, checked.stdout
    assert converted.returncode in (1, 2) and "Traceback" not in converted.stderr
    assert "Traceback" not in checked.stdout + checked.stderr


# A folder with a file, a subfolder and a symlink out, for any URI at all.

FUZZ_FOLDER = tempfile.TemporaryDirectory(prefix="gltf_physics_uris_")
for _name in ("asset/in", "outside"):
    (Path(FUZZ_FOLDER.name) / _name).mkdir(parents=True)
for _name in ("asset/x.bin", "asset/in/x.bin", "outside/x.bin"):
    (Path(FUZZ_FOLDER.name) / _name).write_bytes(b"x")
if os.name == "posix":
    (Path(FUZZ_FOLDER.name) / "asset" / "out").symlink_to(Path(FUZZ_FOLDER.name) / "outside")


@posix_only
@given(st.lists(st.sampled_from(["..", ".", "a", "in", "out", "%2E%2E", "%2F", "/", "\\",
                                 "%00", "C:", "file:", "x.bin", "%", "%ZZ", "é", "[", "]",
                                 ":", "//", "//[x", "?", "#", "@", "%5B", "::1", "\n", " "]),
                max_size=8))
@settings(max_examples=300, deadline=None)
def test_any_uri_resolves_inside_the_folder_or_is_refused(parts: list[str]) -> None:
    root = Path(FUZZ_FOLDER.name)
    uri = "/".join(parts) if len(parts) % 2 else "".join(parts)
    try:
        path, size = resolve(uri, root / "asset")
    except ResourceError:
        return
    assert path.is_relative_to((root / "asset").resolve()) and path.is_file() and size >= 0



def corpus_with_external_buffers() -> list[Path]:
    found = []
    for path in sorted(CORPUS.rglob("*.gltf")):
        buffers = json.loads(path.read_text(encoding="utf-8-sig")).get("buffers", [])
        if any(isinstance(b, dict) and isinstance(b.get("uri"), str)
               and not b["uri"].startswith("data:") for b in buffers):
            found.append(path)
    return found


@posix_only
@pytest.mark.corpus
def test_the_corpus_gltf_files_with_bin_files_pass_both_tools(tmp_path: Path) -> None:
    """Every corpus .gltf with external buffers: the checker (one run, all files) refuses
    nothing and reads every convex mesh; the converter writes each, with its files copied."""
    files = corpus_with_external_buffers()
    assert len(files) >= 50
    checked = tool(CHECKER, "--json", *files)
    report = json.loads(checked.stdout)
    assert all(f["readable"] for f in report["files"]) and "Traceback" not in checked.stderr
    codes = {finding["code"] for f in report["files"] for finding in f["findings"]}
    assert not codes & {"resource-refused", "mesh-not-read"}
    for index, path in enumerate(files):
        out = tmp_path / str(index) / path.name
        converted = tool(CONVERTER, path, out, "--to", "khr")
        assert converted.returncode == 0, converted.stderr
        gltf = json.loads(out.read_text(encoding="utf-8"))
        for buffer in gltf.get("buffers", []):
            uri = buffer.get("uri", "data:")
            assert uri.startswith("data:") or (out.parent / uri).stat().st_size >= \
                buffer["byteLength"]


# -- accessor counts: what a file claims is never allocated -----------------------------------

CLAIMED = 5_000_000  # elements; 120 MB of float64 rows the file need not contain
ACCESSORS = {  # how the POSITION accessor claims its elements
    "no bufferView": {},
    "sparse, no bufferView": {"sparse": {"count": 1, "indices": {"bufferView": 0,
                                                                    "componentType": 5125},
                                         "values": {"bufferView": 0}}},
    "a bufferView of 48 bytes": {"bufferView": 0},
}


def claiming(folder: Path, accessor: dict[str, object]) -> Path:
    """A 48-byte buffer, and a hull collider whose POSITION accessor claims `CLAIMED`."""
    path = asset(folder, "small.bin")
    (folder / "small.bin").write_bytes(TETRAHEDRON)
    gltf = json.loads(path.read_text(encoding="utf-8"))
    gltf["accessors"] = [{"componentType": 5126, "count": CLAIMED, "type": "VEC3",
                          "min": [0, 0, 0], "max": [1, 1, 1], **accessor}]
    path.write_text(json.dumps(gltf), encoding="utf-8")
    return path


def peak_tool(script: Path, *args: str | Path) -> tuple[subprocess.CompletedProcess[str], int]:
    """`tool`, and the tool's peak resident memory in bytes (measured by a fresh parent)."""
    measure = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
               "usage = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; "
               "print(usage * (1 if sys.platform == 'darwin' else 1024), file=sys.stderr); "
               "sys.exit(done.returncode)")
    done = subprocess.run([sys.executable, "-c", measure, sys.executable, str(script),
                           *map(str, args)], capture_output=True, text=True, timeout=TIMEOUT,
                          check=False, preexec_fn=limited)
    *lines, peak = done.stderr.rstrip("\n").split("\n")
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout,
                                       "\n".join(lines)), int(peak)


@posix_only
@pytest.mark.parametrize("case", list(ACCESSORS))
def test_an_accessor_count_the_file_only_claims_is_reported_not_allocated(
        case: str, tmp_path: Path) -> None:
    path = claiming(tmp_path / "asset", ACCESSORS[case])
    claimed = "a primitive's POSITION has no data" if case == "no bufferView" \
        else "accessor 0 claims 5,000,000 elements, more than "
    checked, checker_peak = peak_tool(CHECKER, path)
    assert checked.returncode == 0 and "[mesh-not-read]" in checked.stdout, checked.stdout
    assert claimed in checked.stdout and "Traceback" not in checked.stderr
    converted, converter_peak = peak_tool(CONVERTER, path, tmp_path / "out" / "m.gltf",
                                          "--to", "omi")
    said = converted.stdout + converted.stderr
    assert converted.returncode == 0 and "mesh-unreadable" in said, said
    assert claimed in said and "Traceback" not in said
    assert max(checker_peak, converter_peak) < 150 << 20  # ~35 MB; 0.5 GB when allocated


def test_mesh_data_caps_each_accessor_each_mesh_and_the_whole_document() -> None:
    import base64

    from gltf_physics.io.mesh_data import MAX_ACCESSOR_COUNT, MAX_DOCUMENT_COUNT, MeshData

    half = MAX_ACCESSOR_COUNT // 2 + 1
    blob = bytes(16)  # (a sparse part: one index, one value; the rest zeros it claims)
    views = [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}]
    sparse = {"sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5125},
                         "values": {"bufferView": 1}}}
    accessors = [{"componentType": 5126, "type": "VEC3", "count": half, **sparse},
                 {"componentType": 5125, "type": "SCALAR", "count": half, **sparse},
                 {"componentType": 5126, "type": "VEC3", "count": MAX_ACCESSOR_COUNT + 1,
                  **sparse},
                 {"componentType": 5126, "type": "VEC3", "count": -1, **sparse}]
    meshes = [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
              {"primitives": [{"attributes": {"POSITION": 2}}]},
              {"primitives": [{"attributes": {"POSITION": 3}}]}]
    meshes += [{"primitives": [{"attributes": {"POSITION": 0}}]}] * 9
    buffers = [{"byteLength": 16, "uri": "data:application/octet-stream;base64,"
                + base64.b64encode(blob).decode()}]
    data = MeshData({"accessors": accessors, "meshes": meshes, "bufferViews": views,
                     "buffers": buffers}, None, None)
    with pytest.raises(ValueError, match=r"mesh 0's accessors claim .* in one mesh"):
        data.mesh(0)
    with pytest.raises(ValueError, match="accessor 2 claims 1,048,577 elements"):
        data.mesh(1)
    with pytest.raises(ValueError, match="no valid count"):
        data.mesh(2)
    read = range(3, 3 + MAX_DOCUMENT_COUNT // half)
    for index in read:  # (a point and zeros: read, counted)
        assert len(data.mesh(index)[0]) == half
    with pytest.raises(ValueError, match="from all meshes together"):
        data.mesh(3 + len(read))


@pytest.mark.parametrize("indices, component", [([0, 1, -1], 5122), ([0, 1, 9], 5125)],
                         ids=["negative", "past-the-end"])
def test_mesh_data_refuses_indices_outside_the_vertices(indices: list[int],
                                                        component: int) -> None:
    """Signed or too large indices (glTF's are unsigned, below the vertex count): refused,
    not wrapped around to other vertices."""
    import base64
    import struct

    from gltf_physics.io.mesh_data import MeshData

    points = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    code = "<3h" if component == 5122 else "<3I"
    index_bytes = struct.pack(code, *indices)
    payload = points + index_bytes
    gltf = {
        "buffers": [{"byteLength": len(payload), "uri": "data:application/octet-stream;base64,"
                     + base64.b64encode(payload).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": 36},
                        {"buffer": 0, "byteOffset": 36, "byteLength": len(index_bytes)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3},
                      {"bufferView": 1, "componentType": component, "type": "SCALAR",
                       "count": 3}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    }
    with pytest.raises(ValueError, match=r"indices (are not unsigned|pass its 3 vertices)"):
        MeshData(gltf, None, None).mesh(0)


@pytest.mark.parametrize("view", [{"byteLength": "36"}, {"byteLength": 36, "byteStride": True},
                                  {"byteLength": 36, "byteStride": -12}, {}],
                         ids=["string-length", "bool-stride", "negative-stride", "no-length"])
def test_mesh_data_says_which_buffer_view_size_is_bad(view: dict) -> None:
    """A bufferView size that is no whole number is said by name (a string byteLength raised
    Python's own "unsupported operand type(s) for +: 'int' and 'str'")."""
    import base64
    import struct

    from gltf_physics.io.mesh_data import MeshData

    points = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    gltf = {
        "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,"
                     + base64.b64encode(points).decode()}],
        "bufferViews": [{"buffer": 0, **view}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
    }
    with pytest.raises(ValueError, match=r"(byteLength|byteStride) .* is not a valid size"):
        MeshData(gltf, None, None).mesh(0)
