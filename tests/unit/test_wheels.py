# SPDX-License-Identifier: GPL-3.0-or-later
"""The wheels the manifest lists are pinned, and a changed or unknown file is refused."""

import pytest

from scripts import wheels


def test_every_listed_wheel_has_a_pinned_digest_and_lives_in_wheels():
    listed = wheels.manifest_wheels()
    assert len(listed) == 4
    assert {path.name for path in listed} == set(wheels.SHA256)
    assert all(path.parent == wheels.ROOT / "wheels" for path in listed)


def test_a_changed_or_unknown_wheel_is_refused(tmp_path):
    name = next(iter(wheels.SHA256))
    changed = tmp_path / name
    changed.write_bytes(b"not the wheel")
    with pytest.raises(SystemExit, match="is not the pinned"):
        wheels.verify(changed)
    unknown = tmp_path / "coacd-9.9.9-cp39-abi3-win_amd64.whl"
    unknown.write_bytes(b"")
    with pytest.raises(SystemExit, match="no pinned SHA-256"):
        wheels.verify(unknown)
