# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/export_physics.py: where each .blend file is written; no output overwrites
another's (same names in different folders, letter case aside)."""

from pathlib import Path

from gltf_physics.scripts.export_physics import output_paths


def _files(root: Path, *names: str) -> list[Path]:
    paths = []
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
        paths.append(path)
    return paths


def test_distinct_names_go_straight_into_the_output_folder(tmp_path: Path) -> None:
    a, b = _files(tmp_path, "levels/a.blend", "props/b.blend")
    out = tmp_path / "dist"
    assert output_paths([a, b], out, ".glb") == {a: out / "a.glb", b: out / "b.glb"}


def test_same_names_in_different_folders_never_share_an_output(tmp_path: Path) -> None:
    one, two, three, other = _files(
        tmp_path, "world/forest/level.blend", "world/desert/level.blend",
        "world/desert/night/LEVEL.blend", "world/props.blend")
    out = tmp_path / "dist"
    targets = output_paths([one, two, three, other], out, ".gltf")
    assert targets == {one: out / "forest/level.gltf", two: out / "desert/level.gltf",
                       three: out / "desert/night/LEVEL.gltf", other: out / "props.gltf"}
    assert len({str(t).casefold() for t in targets.values()}) == 4


def test_the_same_file_twice_is_one_output(tmp_path: Path) -> None:
    (a,) = _files(tmp_path, "a.blend")
    twice = output_paths([a, tmp_path / "." / "a.blend"], tmp_path / "out", ".glb")
    assert set(twice.values()) == {tmp_path / "out" / "a.glb"}


def test_same_names_in_one_folder_keep_their_whole_names(tmp_path: Path) -> None:
    """good.blend and its backup good.blend1 (one stem, one folder) went to one output."""
    blend, backup, other = _files(tmp_path, "good.blend", "good.blend1", "props/good.blend")
    out = tmp_path / "dist"
    assert output_paths([blend, backup], out, ".glb") == {
        blend: out / "good.blend.glb", backup: out / "good.blend1.glb"}
    targets = output_paths([blend, backup, other], out, ".glb")
    assert len(set(targets.values())) == 3, targets
