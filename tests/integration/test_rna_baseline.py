# SPDX-License-Identifier: GPL-3.0-or-later
"""Saved .blend files keep working: every stored property of Object.gltf_physics and
Scene.gltf_physics (and the groups they nest) keeps its name, type, array length, default,
enum identifiers and the numbers Blender stores for them (an ID property holds an enum as its
item's value: an item inserted before others would shift theirs and change what saved files
mean). New properties and enum items may be added, and are then added to the baseline
(tests/support/rna_baseline.json; it only grows, so they are guarded from then on: the 17
added after the field-table work were recorded on 2026-11-26); removing or retyping one needs
a versioned migration. Regenerate it after adding, or together with such a migration:

    .venv/bin/python -c "from tests.integration.test_rna_baseline import write; write()"
"""

import json
from pathlib import Path
from typing import Any

import bpy

BASELINE = Path(__file__).resolve().parents[1] / "support" / "rna_baseline.json"


def _default(prop: Any) -> Any:
    if prop.type == "ENUM":
        return sorted(prop.default_flag) if prop.is_enum_flag else prop.default
    if getattr(prop, "is_array", False) and prop.array_length:
        return [round(v, 6) if isinstance(v, float) else v for v in prop.default_array]
    if prop.type == "FLOAT":
        return round(prop.default, 6)
    return getattr(prop, "default", None)


def snapshot_struct(struct: Any, prefix: str, out: dict[str, Any]) -> None:
    """Every property of an RNA struct, nested groups included, as plain data."""
    for prop in struct.properties:
        if prop.identifier == "rna_type":
            continue
        name = f"{prefix}.{prop.identifier}"
        entry: dict[str, Any] = {"type": prop.type}
        if prop.type in ("BOOLEAN", "INT", "FLOAT"):
            entry["array_length"] = prop.array_length
        if prop.type == "ENUM":
            entry["items"] = [item.identifier for item in prop.enum_items]
            entry["values"] = {item.identifier: item.value for item in prop.enum_items}
        if prop.type in ("POINTER", "COLLECTION"):
            entry["fixed_type"] = prop.fixed_type.identifier
            if issubclass(type(prop.fixed_type), bpy.types.PropertyGroup) or \
                    prop.fixed_type.identifier.startswith("GltfPhysics"):
                snapshot_struct(prop.fixed_type, name, out)
        else:
            entry["default"] = _default(prop)
        out[name] = entry


def snapshot() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for owner in (bpy.types.Object, bpy.types.Scene):
        group = owner.bl_rna.properties["gltf_physics"]
        snapshot_struct(group.fixed_type, f"{owner.__name__}.gltf_physics", out)
    return out


def write() -> None:
    """Record the current RNA as the baseline (with a migration only)."""
    import tests.integration.conftest  # noqa: F401 (enables the add-on)

    BASELINE.write_text(json.dumps(snapshot(), indent=1, sort_keys=True) + "\n")


def test_no_stored_property_is_removed_or_retyped() -> None:
    baseline = json.loads(BASELINE.read_text())
    now = snapshot()
    missing = sorted(set(baseline) - set(now))
    assert missing == [], f"properties removed without a migration: {missing}"
    changed = {}
    for name, entry in baseline.items():
        current = dict(now[name])
        if "items" in entry:  # new enum items may be added; none removed or renamed
            kept = [item for item in current.pop("items") if item in entry["items"]]
            current["items"] = kept
            values = current.pop("values")  # and each keeps the number saved files hold
            current["values"] = {item: values.get(item) for item in entry["values"]}
        if current != entry:
            changed[name] = (entry, now[name])
    assert changed == {}, f"properties retyped without a migration: {changed}"


def test_every_stored_property_is_in_the_baseline() -> None:
    """A new property (or enum item) is recorded when it is added, so that from then on it
    is guarded like the others."""
    baseline = json.loads(BASELINE.read_text())
    now = snapshot()
    unrecorded = sorted(set(now) - set(baseline))
    assert unrecorded == [], f"record the new properties (see this module's docstring): " \
        f"{unrecorded}"
    new_items = {name: sorted(set(entry["items"]) - set(baseline[name]["items"]))
                 for name, entry in now.items() if "items" in entry}
    assert not any(new_items.values()), f"record the new enum items: {new_items}"
