# SPDX-License-Identifier: GPL-3.0-or-later
"""The one reader of a glTF file's external resources (buffers and images), for files from
strangers. Pure: no bpy.

`data:` URIs are decoded; URLs (http: and the like) are not read. Any other URI is
percent-decoded and must resolve, symlinks followed, to a regular file inside the asset's
folder (the folder of the .gltf/.glb): an absolute path or `file:` URL, a `..` or a symlink
leading out, a symlink loop, a folder, a device, a
named pipe or a socket is refused (`ResourceError`, naming the URI) before anything is
opened. A buffer's `byteLength` is checked against the file's size and `MAX_BUFFER_BYTES`
before anything is read or allocated, and no read goes past it.
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from collections.abc import Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, BinaryIO, Final
from urllib.parse import unquote, unquote_to_bytes, urlsplit

#: Largest buffer read: a bigger `byteLength` is refused, not allocated.
MAX_BUFFER_BYTES: Final = 1 << 30
#: Largest .gltf or .glb file read.
MAX_ASSET_BYTES: Final = 1 << 30
GLB_CHUNK: Final = "the GLB binary chunk"
_FLAGS: Final = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) \
    | getattr(os, "O_NOFOLLOW", 0)


class ResourceError(ValueError):
    """A resource that is refused (`refused`) or missing; the message names its URI."""

    def __init__(self, uri: str, reason: str, refused: bool = True) -> None:
        super().__init__(f"{_shown(uri)} {reason}")
        self.uri, self.reason, self.refused = uri, reason, refused


def _shown(uri: str) -> str:
    if uri == GLB_CHUNK:
        return uri
    text = uri if len(uri) <= 120 else f"{uri[:60]}…{uri[-40:]}"
    return repr(text) if not text.startswith("data:") else repr(f"{text[:40]}…")


def resolve(uri: str, folder: Path | str) -> tuple[Path, int]:
    """The regular file a relative `uri` names inside `folder`, and its size; raises
    ResourceError when it is refused or missing. Nothing is opened."""
    relative = _relative_path(uri)
    root = os.path.realpath(folder)
    if not _inside(root, os.path.realpath(Path(folder) / relative)):  # symlinks so far
        raise ResourceError(uri, "leads outside the asset's folder (through '..' or a "
                            "symlink): not read")
    try:
        target = os.path.realpath(Path(folder) / relative, strict=True)
        info = Path(target).stat()
    except FileNotFoundError:
        raise ResourceError(uri, "does not exist in the asset's folder", refused=False) from None
    except (OSError, ValueError) as exc:  # ELOOP (a symlink loop), a name too long, ...
        reason = getattr(exc, "strerror", None) or exc
        raise ResourceError(uri, f"cannot be resolved ({reason})") from None
    if not _inside(root, target):
        raise ResourceError(uri, "leads outside the asset's folder (through '..' or a "
                            "symlink): not read")
    if stat.S_ISDIR(info.st_mode):
        raise ResourceError(uri, "is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ResourceError(uri, "is not a regular file (a device, named pipe or socket): "
                            "not read")
    return Path(target), info.st_size


def _relative_path(uri: Any) -> str:
    """The percent-decoded relative path of a URI; ResourceError for anything else."""
    if not isinstance(uri, str):
        raise ResourceError(repr(uri), "is not a string")
    try:
        scheme = urlsplit(uri).scheme.lower()
    except ValueError as exc:  # "Invalid IPv6 URL" for "//[x", ...
        raise ResourceError(uri, f"is not a valid URI ({exc})") from None
    if len(scheme) > 1 and scheme != "file":  # http: and the like (one letter: a drive)
        raise ResourceError(uri, "is a URL: only files in the asset's folder are read",
                            refused=False)
    if scheme or uri.startswith(("/", "\\")):
        raise ResourceError(uri, "is an absolute URI or path: only files in the asset's "
                            "folder are read")
    try:
        relative = unquote(uri, errors="strict")
    except UnicodeDecodeError:
        raise ResourceError(uri, "is not UTF-8 once percent-decoded") from None
    if "\0" in relative or PureWindowsPath(relative).drive or relative.startswith(("/", "\\")):
        raise ResourceError(uri, "is an absolute path once decoded: only files in the asset's "
                            "folder are read")
    if not PurePosixPath(relative.replace("\\", "/")).name:
        raise ResourceError(uri, "names no file")
    return relative


def _inside(root: str, target: str) -> bool:
    try:
        return target != root and os.path.commonpath([root, target]) == root
    except ValueError:  # another drive
        return False


def byte_length(buffer: Mapping[str, Any]) -> int:
    """A buffer's declared `byteLength`, within `MAX_BUFFER_BYTES` (ResourceError if not)."""
    length = buffer.get("byteLength")
    uri = buffer.get("uri")
    name = uri if isinstance(uri, str) else GLB_CHUNK
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        raise ResourceError(name, f"has no valid byteLength ({length!r})")
    if length > MAX_BUFFER_BYTES:
        raise ResourceError(name, f"declares byteLength {length:,}, more than the "
                            f"{MAX_BUFFER_BYTES:,} bytes read at most: not read")
    return length


def buffer_refusal(buffer: Mapping[str, Any], folder: Path | str | None,
                   binary: bytes | None = None) -> ResourceError | None:
    """Why a buffer would not be read (None when it would, or when it is the GLB chunk and
    no `binary` is given); a file is only `stat`ed, never opened (a `data:` URI is decoded
    to be measured)."""
    uri = buffer.get("uri")
    if uri is None and binary is None:
        return None
    try:
        length = byte_length(buffer)
        if uri is None:
            _check_size(GLB_CHUNK, length, len(binary))
            return None
        if isinstance(uri, str) and uri.startswith("data:"):  # (held already: decoded)
            _check_size(uri, length, len(decode_data_uri(uri)))
            return None
        if folder is None:
            raise ResourceError(uri, "is a file, but no folder was given", refused=False)
        _path, size = resolve(uri, folder)
        _check_size(uri, length, size)
    except ResourceError as exc:
        return exc
    return None


def refusals(gltf: Mapping[str, Any], folder: Path | str | None, binary: bytes | None = None
             ) -> list[tuple[str, ResourceError]]:
    """(JSON pointer, why) of every buffer and image that would not be read, missing files
    included (their `refused` is False); a GLB's first buffer is checked against `binary`.
    Nothing is opened."""
    found = []
    for key in ("buffers", "images"):
        items = gltf.get(key)
        for index, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, Mapping) or ("uri" not in item and (
                    key == "images" or index > 0)):
                continue
            if key == "buffers":
                problem = buffer_refusal(item, folder, binary if index == 0 else None)
            else:
                problem = image_refusal(item["uri"], folder)
            if problem is not None:
                where = f"/{key}/{index}" + ("/uri" if "uri" in item else "/byteLength")
                found.append((where, problem))
    return found


def image_refusal(uri: Any, folder: Path | str | None) -> ResourceError | None:
    """Why an image URI would not be read (None when it would)."""
    if isinstance(uri, str) and uri.startswith("data:"):
        return None
    try:
        if folder is None:
            raise ResourceError(str(uri), "is a file, but no folder was given", refused=False)
        resolve(uri, folder)
    except ResourceError as exc:
        return exc
    return None


def _check_size(uri: str, length: int, size: int) -> None:
    if length > size:
        raise ResourceError(uri, f"declares byteLength {length:,}, more than its "
                            f"{size:,} bytes: not read")


def read_buffer(buffer: Mapping[str, Any], folder: Path | str | None,
                binary: bytes | None) -> bytes:
    """The first `byteLength` bytes of a buffer: the GLB `binary` chunk, a `data:` URI or a
    file in `folder`. Raises ResourceError (a ValueError) naming the URI."""
    length = byte_length(buffer)
    uri = buffer.get("uri")
    if uri is None:
        if binary is None:
            raise ResourceError(GLB_CHUNK, "is absent", refused=False)
        _check_size(GLB_CHUNK, length, len(binary))
        return binary[:length]
    if isinstance(uri, str) and uri.startswith("data:"):
        data = decode_data_uri(uri)
        _check_size(uri, length, len(data))
        return data[:length]
    if folder is None:
        raise ResourceError(uri, "is a file, but no folder was given", refused=False)
    path, size = resolve(uri, folder)
    _check_size(uri, length, size)
    return read_file(uri, path, length)


def open_file(uri: str, path: Path) -> BinaryIO:
    """A file `resolve` returned, opened for reading without blocking or following a
    symlink, and checked again to be a regular file once open."""
    try:
        file = os.fdopen(os.open(path, _FLAGS), "rb")
    except OSError as exc:
        raise ResourceError(uri, f"cannot be opened ({exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
        file.close()
        raise ResourceError(uri, "is not a regular file: not read")
    return file


def read_file(uri: str, path: Path, limit: int) -> bytes:
    """Exactly `limit` bytes of a file `resolve` returned (ResourceError if shorter)."""
    with open_file(uri, path) as file:
        data = file.read(limit)
    if len(data) < limit:
        raise ResourceError(uri, f"ended after {len(data):,} of {limit:,} bytes")
    return data


def decode_data_uri(uri: str) -> bytes:
    """The bytes of a `data:` URI (base64 or percent-encoded)."""
    header, comma, payload = uri.partition(",")
    if not comma:
        raise ResourceError(uri, "is a data URI without a comma")
    try:
        if header.endswith(";base64"):
            return base64.b64decode(payload)
        return unquote_to_bytes(payload)
    except (binascii.Error, ValueError) as exc:
        raise ResourceError(uri, f"is not valid base64 ({exc})") from None


def read_asset_bytes(path: Path | str) -> bytes:
    """The bytes of a .gltf/.glb file given by the user: a regular file of at most
    `MAX_ASSET_BYTES` (ValueError if not, OSError if it cannot be read), opened without
    blocking."""
    info = Path(path).stat()  # OSError (FileNotFoundError, ...) as it is
    if stat.S_ISDIR(info.st_mode):
        raise ValueError("is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("is not a regular file (a device, named pipe or socket): not read")
    if info.st_size > MAX_ASSET_BYTES:
        raise ValueError(f"has {info.st_size:,} bytes, more than the {MAX_ASSET_BYTES:,} "
                         "read at most")
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    with os.fdopen(os.open(path, flags), "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise ValueError("is not a regular file: not read")
        return file.read(MAX_ASSET_BYTES + 1)[:MAX_ASSET_BYTES]
