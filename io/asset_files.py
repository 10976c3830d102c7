# SPDX-License-Identifier: GPL-3.0-or-later
"""glTF files for the converter: .gltf and .glb in and out, external resources. Pure.

`read_asset`/`write_asset` keep a GLB binary chunk byte for byte; a .gltf's external
resources are not rewritten: `copy_resources` copies them next to an output written to
another folder so relative URIs stay valid. Every read goes through `external_reader`.
"""

from __future__ import annotations

import contextlib
import filecmp
import json
import os
import shutil
import struct
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote

from .diagnostics import Report
from .external_reader import (
    MAX_BUFFER_BYTES,
    ResourceError,
    open_file,
    read_asset_bytes,
    resolve,
)
from .json_read import as_dict, as_list

GLB_MAGIC: Final = b"glTF"
GLB_VERSION: Final = 2
GLB_JSON: Final = 0x4E4F534A
GLB_BIN: Final = 0x004E4942
GLB_HEADER: Final = struct.Struct("<4sII")
GLB_CHUNK: Final = struct.Struct("<II")
#: an existing different file where a resource would be copied (an error: kept)
RESOURCE_CONFLICT: Final = "resource-exists"
#: a copied resource would land on a file the run writes or reads (OUTPUT, the report,
#: INPUT or a file INPUT names): never written, --overwrite or not
RESOURCE_CLASH: Final = "resource-clash"



#: a glTF's JSON that readers differ on, which glTF forbids (`read_asset`'s `lax`)
JSON_LAX: Final = "json-not-strict"
_BOM: Final = b"\xef\xbb\xbf"


def read_asset(path: Path | str, lax: list[str] | None = None
               ) -> tuple[dict[str, Any], bytes | None]:
    """The JSON of a .gltf or .glb file and the GLB binary chunk (None for .gltf or a GLB
    without one). Raises ValueError (or OSError) for unreadable files: a folder, a device or
    pipe, more than `external_reader.MAX_ASSET_BYTES`. What glTF forbids but is read anyway
    goes to `lax` (`JSON_LAX`): a byte order mark, a key given twice in one object (its last
    value is read; another reader may take the first)."""
    try:
        data = read_asset_bytes(path)
    except ValueError as exc:
        raise ValueError(f"{path} {exc}") from None
    repeated: list[str] = []
    if data[:4] == GLB_MAGIC:
        gltf, binary, bom = *_read_glb(data, repeated), False
    else:
        bom = data.startswith(_BOM)
        try:
            gltf = _strict_json(data[len(_BOM) if bom else 0:].decode("utf-8"), repeated)
        except UnicodeDecodeError as exc:
            raise ValueError(f"{path}: not UTF-8 JSON") from exc
        binary = None
    if not isinstance(gltf, dict):
        raise ValueError(f"{path}: the glTF JSON is not an object")
    if lax is not None:
        if bom:
            lax.append("the JSON starts with a byte order mark (glTF: UTF-8 without one)")
        if repeated:
            names = ", ".join(repr(key) for key in dict.fromkeys(repeated[:20]))
            lax.append(f"{len(repeated)} key(s) appear twice in one JSON object ({names}): the "
                       "last value is read, another reader may take the first (glTF: keys "
                       "MUST be unique)")
    return gltf, binary


def _strict_json(text: str, repeated: list[str]) -> Any:
    """`json.loads`, noting in `repeated` each key an object gives again."""
    def pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        made = dict(pairs)
        if len(made) != len(pairs):
            seen: set[str] = set()
            repeated.extend(key for key, _value in pairs if key in seen or seen.add(key))
        return made

    return json.loads(text, object_pairs_hook=pairs_to_dict)


def _read_glb(data: bytes, repeated: list[str]) -> tuple[Any, bytes | None]:
    if len(data) < GLB_HEADER.size + GLB_CHUNK.size:
        raise ValueError("truncated GLB")
    _magic, version, total = GLB_HEADER.unpack_from(data, 0)
    if version != GLB_VERSION or total > len(data):
        raise ValueError(f"unsupported or truncated GLB (version {version}, length {total})")
    chunks = list(_glb_chunks(data[:total]))
    if not chunks or chunks[0][0] != GLB_JSON:
        raise ValueError("the first GLB chunk is not JSON")
    binary = chunks[1][1] if len(chunks) > 1 and chunks[1][0] == GLB_BIN else None
    return _strict_json(chunks[0][1].decode("utf-8"), repeated), binary


def _glb_chunks(data: bytes) -> Iterator[tuple[int, bytes]]:
    offset = GLB_HEADER.size
    while offset + GLB_CHUNK.size <= len(data):
        length, kind = GLB_CHUNK.unpack_from(data, offset)
        start = offset + GLB_CHUNK.size
        if start + length > len(data):
            raise ValueError("a GLB chunk runs past the end of the file")
        yield kind, data[start:start + length]
        offset = start + length


class StagedFiles:
    """Files written under temporary names beside their targets and moved into place only
    together (`commit`): a failure or an interrupt before then leaves no partial file and
    changes no existing one (leaving the `with` block removes what was not committed)."""

    def __init__(self) -> None:
        self._moves: list[tuple[Path, Path]] = []

    def write(self, target: Path, data: bytes) -> None:
        """Stage `data` for `target`."""
        self.copy(target, [data])

    def copy(self, target: Path, chunks: Any) -> None:
        """Stage the bytes of `chunks` (an iterable of bytes, or a binary file) for
        `target`."""
        handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                        suffix=".part")
        temp = Path(name)
        try:
            # the mode a plain write gives (mkstemp's is owner-only), or the replaced file's
            mode = target.stat().st_mode & 0o7777 if target.is_file() else _new_file_mode()
            os.fchmod(handle, mode)
            with os.fdopen(handle, "wb") as out:
                if hasattr(chunks, "read"):
                    shutil.copyfileobj(chunks, out)
                else:
                    for chunk in chunks:
                        out.write(chunk)
        except BaseException:
            temp.unlink()
            raise
        self._moves.append((temp, target))

    def commit(self) -> None:
        """Move every staged file into place (a rename within each folder; should one fail,
        those moved stay and the rest are removed when the block ends)."""
        while self._moves:
            temp, target = self._moves[0]
            temp.replace(target)
            self._moves.pop(0)

    def __enter__(self) -> StagedFiles:
        return self

    def __exit__(self, *_exc: object) -> None:
        for temp, _target in self._moves:
            with contextlib.suppress(OSError):
                temp.unlink()
        self._moves.clear()


def _new_file_mode() -> int:
    """The permissions a new file gets under the process's umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def asset_bytes(path: Path | str, gltf: Mapping[str, Any], binary: bytes | None) -> bytes:
    """The bytes of a .glb (JSON chunk padded with spaces, `binary` unchanged) or a .gltf
    (indented JSON; `binary` must be None: a .gltf keeps its external buffers). ValueError
    for a number JSON cannot hold (NaN or infinity: valid glTF has none)."""
    path = Path(path)
    if path.suffix.lower() == ".glb":
        return glb_bytes(gltf, binary)
    if binary is not None:
        raise ValueError(f"{path}: a GLB binary chunk cannot go into a .gltf file")
    return _json_bytes(gltf, indent=2) + b"\n"


def write_asset(path: Path | str, gltf: Mapping[str, Any], binary: bytes | None) -> None:
    """Write `asset_bytes` to `path`, whole or not at all."""
    path = Path(path)
    with StagedFiles() as staged:
        staged.write(path, asset_bytes(path, gltf, binary))
        staged.commit()


def _json_bytes(gltf: Mapping[str, Any], **layout: Any) -> bytes:
    """The document as UTF-8 JSON; a string holding a lone surrogate (JSON's `\\ud800`
    escape, which UTF-8 cannot carry) makes the whole text ASCII, so it is written escaped,
    as it was read."""
    try:
        text = json.dumps(gltf, ensure_ascii=False, allow_nan=False, **layout)
    except ValueError:
        raise ValueError("the file holds a number JSON cannot write (NaN or infinity, "
                         "from a literal too large for a float): valid glTF has none") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(gltf, ensure_ascii=True, allow_nan=False, **layout).encode("ascii")


def glb_bytes(gltf: Mapping[str, Any], binary: bytes | None) -> bytes:
    """A GLB container; the binary chunk is only zero-padded if misaligned."""
    text = _json_bytes(gltf, separators=(",", ":"))
    text += b" " * (-len(text) % 4)
    chunks = GLB_CHUNK.pack(len(text), GLB_JSON) + text
    if binary is not None:
        body = binary + b"\0" * (-len(binary) % 4)
        chunks += GLB_CHUNK.pack(len(body), GLB_BIN) + body
    return GLB_HEADER.pack(GLB_MAGIC, GLB_VERSION, GLB_HEADER.size + len(chunks)) + chunks


def file_resources(gltf: Mapping[str, Any]) -> list[str]:
    """The URIs of buffers and images that name files (not `data:` URIs)."""
    uris = []
    for key in ("buffers", "images"):
        for item in as_list(gltf.get(key)):
            uri = as_dict(item).get("uri")
            if isinstance(uri, str) and not uri.startswith("data:"):
                uris.append(uri)
    return uris


def named_files(gltf: Mapping[str, Any], source_dir: Path) -> list[Path]:
    """The files a .gltf's relative buffers and images name that `external_reader` would read
    (refused and missing ones left out)."""
    return [Path(item[0]) for item in _resolved(gltf, source_dir).values()
            if not isinstance(item, ResourceError)]


def _resolved(gltf: Mapping[str, Any], source_dir: Path
              ) -> dict[str, tuple[Path, int] | ResourceError]:
    """Each file URI of the .gltf: its file and size (`external_reader.resolve`), or why
    it is not read."""
    found: dict[str, tuple[Path, int] | ResourceError] = {}
    for uri in dict.fromkeys(file_resources(gltf)):
        try:
            found[uri] = resolve(uri, source_dir)
        except ResourceError as exc:
            found[uri] = exc
    return found


def copy_resources(
    gltf: Mapping[str, Any], source_dir: Path, target_dir: Path, report: Report,
    staged: StagedFiles | None = None, overwrite: bool = False,
    reserved: Mapping[Path, str] | None = None,
) -> None:
    """Copy a .gltf's (or a .glb's) relative buffers and images from `source_dir` to
    `target_dir` so its URIs stay valid. Sources are read through `external_reader` (only
    regular files inside `source_dir`, at most `MAX_BUFFER_BYTES` each); nothing is written
    outside `target_dir`. An existing different file is replaced only with `overwrite` (and
    never when it is not a plain file); otherwise it is kept and reported as an error
    (`RESOURCE_CONFLICT`: the written file would name another file's bytes). With `staged`,
    the copies are staged there (moved into place by its commit). `reserved`: files no copy
    may land on, whatever `overwrite` says (what each is, for the message): the run's own
    outputs and inputs; one that would is an error (`RESOURCE_CLASH`), as is a copy landing
    on another's target or on a file the .gltf names."""
    if source_dir.resolve() == target_dir.resolve():
        return
    if staged is None:
        with StagedFiles() as own:
            copy_resources(gltf, source_dir, target_dir, report, own, overwrite, reserved)
            own.commit()
        return
    root = os.path.realpath(target_dir)
    found = _resolved(gltf, source_dir)
    taken = {os.path.realpath(path): what for path, what in (reserved or {}).items()}
    taken.update((os.path.realpath(item[0]), "a file it names") for item in found.values()
                 if not isinstance(item, ResourceError))
    for uri, item in found.items():
        if isinstance(item, ResourceError):
            code = "resource-refused" if item.refused else "resource-missing"
            report.warn(code, uri, f"not copied: {item}")
            continue
        source, size = item
        target = target_dir / os.path.normpath(unquote(uri))
        clash = taken.get(os.path.realpath(target))
        if clash is not None:
            report.add("error", RESOURCE_CLASH, uri, f"its copy {target} would be {clash}: "
                       "not written")
            continue
        taken[os.path.realpath(target)] = f"the copy of {uri}"
        if size > MAX_BUFFER_BYTES:
            report.warn("resource-refused", uri, f"{size:,} bytes, more than the "
                        f"{MAX_BUFFER_BYTES:,} copied at most: not copied")
        elif target.is_symlink() or (target.exists() and not target.is_file()):
            report.add("error", RESOURCE_CONFLICT, uri,
                       f"{target} is not a plain file: not overwritten")
        elif os.path.commonpath([root, os.path.realpath(target)]) != root:
            report.add("error", RESOURCE_CONFLICT, uri, f"{target} is outside the output "
                       "folder (through a symbolic link): not copied")
        elif target.exists() and filecmp.cmp(source, target, shallow=False):
            continue  # (the same bytes are there already)
        elif target.exists() and not overwrite:
            report.add("error", RESOURCE_CONFLICT, uri,
                       f"{target} differs and was not overwritten")
        else:
            if target.exists():
                report.info("resource-replaced", uri, f"{target} held other bytes: replaced "
                            "(--overwrite)")
            target.parent.mkdir(parents=True, exist_ok=True)
            with open_file(uri, source) as src:
                staged.copy(target, src)
