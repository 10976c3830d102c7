# SPDX-License-Identifier: GPL-3.0-or-later
"""Validate the physics payloads of a glTF document against the official JSON schemas.

Pure Python (no bpy): the schemas are read at run time from the shared ``specs`` folder
(``omi/*/schema``, ``khr/*/schema``, ``khr/legacy-2024-03/*/schema``), registered by file name
and patched in memory for the upstream defects listed in the spec digest, section 6.1. A small
semantic layer adds the cheap cross-reference checks JSON Schema cannot express.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft4Validator, Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.jsonschema import DRAFT4, DRAFT202012

Json = dict[str, Any]

CURRENT = "current"
KHR_2024_03 = "2024-03"
READ = "read"
WRITE = "write"

CURRENT_EXTENSIONS = (
    "OMI_physics_shape",
    "OMI_physics_body",
    "OMI_physics_joint",
    "OMI_vehicle_body",
    "OMI_vehicle_wheel",
    "OMI_vehicle_thruster",
    "OMI_vehicle_hover_thruster",
    "OMI_seat",
    "OMI_physics_gravity",
    "KHR_implicit_shapes",
    "KHR_physics_rigid_bodies",
)
LEGACY_EXTENSIONS = ("KHR_collision_shapes", "KHR_physics_rigid_bodies")

# Stand-ins for the core glTF schemas the extension schemas refer to (valid in draft-04 and
# 2020-12 alike).
CORE_SCHEMAS: dict[str, Json] = {
    "glTFid.schema.json": {"type": "integer", "minimum": 0},
    "glTFProperty.schema.json": {
        "type": "object",
        "properties": {
            "extensions": {"type": "object", "additionalProperties": {"type": "object"}},
            "extras": {},
        },
    },
    "glTFChildOfRootProperty.schema.json": {
        "allOf": [{"$ref": "glTFProperty.schema.json"}],
        "properties": {"name": {"type": "string"}},
    },
}

MAX_MESSAGE = 200
LEGACY_BAD_AXIS = 3  # allowed by the 2024-03 drive schema, which should stop at 2


def load_gltf(path: Path) -> Json:
    """Read the JSON of a .gltf file, or the JSON chunk of a .glb file, with the add-on's
    one reader (io/asset_files.read_asset); raises ValueError for a malformed file."""
    from gltf_physics.io.asset_files import read_asset

    return read_asset(path)[0]


class PhysicsSchemaValidator:
    """Schema and semantic validation of the physics extensions of one glTF document.

    Args:
        specs_dir: the shared ``specs`` folder.
        revision: ``"current"`` (OMI and KHR 2025-10/2026-01) or ``"2024-03"`` (legacy
            ``KHR_collision_shapes`` + ``KHR_physics_rigid_bodies``, digest defect 6).
        profile: KHR ``geometry`` rules (defect 7). ``"read"``: exactly one of shape / node /
            mesh. ``"write"``: one of shape / mesh, plus node while ``node_geometry`` is true
            (the 2025-10 compatibility export); pass ``node_geometry=False`` to reject it.
    """

    def __init__(
        self,
        specs_dir: Path,
        revision: str = CURRENT,
        profile: str = WRITE,
        *,
        node_geometry: bool = True,
    ) -> None:
        if revision not in (CURRENT, KHR_2024_03) or profile not in (READ, WRITE):
            raise ValueError(f"unknown revision {revision!r} or profile {profile!r}")
        self.revision = revision
        specs_dir = Path(specs_dir)
        if revision == CURRENT:
            self.extensions = CURRENT_EXTENSIONS
            self._schemas = _load_current(specs_dir)
            geometry = ("shape", "node", "mesh") if profile == READ else ("shape", "mesh")
            if profile == WRITE and node_geometry:
                geometry += ("node",)
            _patch_current(self._schemas, geometry)
            self._validator_class: type[Validator] = Draft202012Validator
            specification = DRAFT202012
        else:
            self.extensions = LEGACY_EXTENSIONS
            self._schemas = _load_legacy(specs_dir)
            self._validator_class = Draft4Validator
            specification = DRAFT4
        self._schemas.update(copy.deepcopy(CORE_SCHEMAS))
        resources = [(n, specification.create_resource(s)) for n, s in self._schemas.items()]
        self._registry: Registry[Any] = Registry().with_resources(resources).crawl()
        self._validators: dict[str, Validator] = {}

    def has_schema(self, name: str) -> bool:
        """Tell whether a schema file of that name is registered."""
        return name in self._schemas

    def validator(self, name: str) -> Validator:
        """Return the cached validator of one registered schema, by file name."""
        if name not in self._validators:
            schema = {"$ref": name}
            self._validators[name] = self._validator_class(schema, registry=self._registry)
        return self._validators[name]

    def schema_errors(self, gltf: Json) -> list[str]:
        """Validate every document- and node-level payload of our extensions."""
        messages: list[str] = []
        root = _dict(gltf.get("extensions"))
        for name in self.extensions:
            document_schema = f"glTF.{name}.schema.json"
            if name in root and self.has_schema(document_schema):
                pointer = f"/extensions/{name}"
                messages += self._check(document_schema, root[name], pointer)
            node_schema = f"node.{name}.schema.json"
            if not self.has_schema(node_schema):
                continue
            for pointer, payload in _payloads(gltf, name, "node"):
                messages += self._check(node_schema, payload, pointer)
        return messages

    def semantic_errors(self, gltf: Json) -> list[str]:
        """Cross-reference checks the schemas cannot express (digest section 6.1, defect 9)."""
        messages = _declaration_errors(gltf, self.extensions)
        references = CURRENT_REFERENCES if self.revision == CURRENT else LEGACY_REFERENCES
        messages += _reference_errors(gltf, references)
        messages += _compound_trigger_errors(gltf, _KHR)
        if self.revision == CURRENT:
            messages += _compound_trigger_errors(gltf, "OMI_physics_body")
            messages += _pilot_seat_errors(gltf)
        else:
            messages += _legacy_errors(gltf)
        return messages

    def errors(self, gltf: Json) -> list[str]:
        """Return readable ``"<JSON pointer>: <problem>"`` messages; empty means valid."""
        return self.schema_errors(gltf) + self.semantic_errors(gltf)

    def warnings(self, gltf: Json) -> list[str]:
        """Return what the patches for defects 3 and 5 accept but a writer should not emit."""
        messages: list[str] = []
        root = _dict(gltf.get("extensions"))
        joints = _list(_dict(root.get("OMI_physics_joint")).get("physicsJoints"))
        for j, joint in enumerate(joints):
            for k, limit in enumerate(_list(_dict(joint).get("limits"))):
                if "linearAxes" in _dict(limit) and "angularAxes" in _dict(limit):
                    pointer = f"/extensions/OMI_physics_joint/physicsJoints/{j}/limits/{k}"
                    messages.append(f"{pointer}: limit mixes linear and angular axes (defect 3)")
        for index, node in enumerate(_list(gltf.get("nodes"))):
            extensions = _dict(_dict(node).get("extensions"))
            motion = _dict(_dict(extensions.get("KHR_physics_rigid_bodies")).get("motion"))
            pointer = f"/nodes/{index}/extensions/KHR_physics_rigid_bodies/motion"
            if motion.get("mass") == 0:
                messages.append(f"{pointer}/mass: 0 means infinite mass (defect 5)")
            if 0 in _list(motion.get("inertiaDiagonal")):
                messages.append(f"{pointer}/inertiaDiagonal: 0 means infinite inertia (defect 5)")
        return messages

    def _check(self, schema_name: str, instance: object, pointer: str) -> list[str]:
        found = self.validator(schema_name).iter_errors(instance)
        ordered = sorted(found, key=lambda error: str(error.path))
        # dict.fromkeys drops repeats: "type" is checked by a schema and by its glTFProperty base.
        return list(dict.fromkeys(_describe(error, pointer) for error in ordered))


# --- loading and patching ---------------------------------------------------------------------


def _read_folder(pattern_root: Path, pattern: str) -> dict[str, Json]:
    schemas: dict[str, Json] = {}
    for path in sorted(pattern_root.glob(pattern)):
        if path.name in schemas:
            raise ValueError(f"two schemas named {path.name} under {pattern_root}")
        text = path.read_text(encoding="utf-8")
        schemas[path.name] = _parse_schema(path.name, text)
    if not schemas:
        raise FileNotFoundError(f"no schemas match {pattern_root / pattern}")
    return schemas


def _parse_schema(name: str, text: str) -> Json:
    try:
        schema: Json = json.loads(text)
    except json.JSONDecodeError:
        # Defect 6 (KHR 2024-03): the joint_drive schema closes "properties" with "]" instead
        # of "}"; repair that one bracket and parse again.
        if not name.endswith("joint_drive.schema.json"):
            raise
        schema = json.loads(re.sub(r"\}(\s*)\](\s*,\s*\"required\")", r"}\1}\2", text, count=1))
    return schema


def _load_current(specs_dir: Path) -> dict[str, Json]:
    schemas = _read_folder(specs_dir, "omi/*/schema/*.json")
    khr = _read_folder(specs_dir, "khr/*/schema/*.json")
    if schemas.keys() & khr.keys():
        raise ValueError(f"OMI and KHR schema names collide: {schemas.keys() & khr.keys()}")
    schemas.update(khr)
    # Defect 2: some OMI joint "$id"s differ from their file names (one collides with the
    # document schema); every schema is registered by file name, so "$id" is overwritten.
    for name, schema in schemas.items():
        schema["$id"] = name
    return schemas


def _load_legacy(specs_dir: Path) -> dict[str, Json]:
    schemas = _read_folder(specs_dir, "khr/legacy-2024-03/*/schema/*.json")
    # Defect 6: the node schema refers to "...collider.schema.json" but the file is
    # "...collider.json"; register it under both names. The draft-04 dialect is honoured by
    # validating with Draft4Validator; the other 2024-03 defects are checked in _legacy_errors.
    alias = "node.KHR_physics_rigid_bodies.collider.json"
    if alias in schemas:
        schemas["node.KHR_physics_rigid_bodies.collider.schema.json"] = schemas[alias]
    return schemas


def _patch_current(schemas: dict[str, Json], geometry: tuple[str, ...]) -> None:
    # Defect 1: the OMI joint document schema requires "constraints" (the v1 key) instead of
    # "physicsJoints".
    schemas["glTF.OMI_physics_joint.schema.json"]["required"] = ["physicsJoints"]

    # Defect 3: the OMI limit "oneOf" rejects a limit with both axis kinds (the README weld);
    # "anyOf" still demands at least one. The KHR limit keeps its "oneOf".
    limit = schemas["glTF.OMI_physics_joint.joint.limit.schema.json"]
    if "oneOf" in limit:
        limit["anyOf"] = limit.pop("oneOf")

    # Defect 4: each OMI shape branch requires the type-named sub-object, which the README
    # makes optional; require only "type" (the "const" still picks the branch).
    for branch in schemas["glTF.OMI_physics_shape.shape.schema.json"]["oneOf"]:
        branch["required"] = ["type"]
    for branch in schemas["node.OMI_physics_gravity.schema.json"]["oneOf"]:
        branch["required"] = ["type"]

    # Defect 5: KHR mass and inertiaDiagonal items use exclusiveMinimum 0, while the README
    # says 0 means infinite; accept 0 (PhysicsSchemaValidator.warnings reports it).
    motion = schemas["node.KHR_physics_rigid_bodies.motion.schema.json"]["properties"]
    for bound in (motion["mass"], motion["inertiaDiagonal"]["items"]):
        bound.pop("exclusiveMinimum", None)
        bound["minimum"] = 0.0

    # Defect 7: the 2026-01 "geometry.mesh" is missing from the schema; add it and rebuild
    # the "oneOf" for the chosen profile.
    shape_geometry = schemas["geometry.schema.json"]
    shape_geometry["properties"]["mesh"] = {
        "allOf": [{"$ref": "glTFid.schema.json"}],
        "description": "The index of a mesh providing the geometry (2026-01).",
    }
    shape_geometry["oneOf"] = [{"required": [key]} for key in geometry]

    # Defect 8: the KHR drive pairs its targets with the draft-07 "dependencies", which
    # 2020-12 ignores; "dependentRequired" is the 2020-12 spelling.
    drive = schemas["glTF.KHR_physics_rigid_bodies.joint.drive.schema.json"]
    if "dependencies" in drive:
        drive["dependentRequired"] = drive.pop("dependencies")


# --- messages ---------------------------------------------------------------------------------


def _pointer(base: str, path: Iterable[object]) -> str:
    tokens = (str(token).replace("~", "~0").replace("/", "~1") for token in path)
    return base + "".join(f"/{token}" for token in tokens)


def _describe(error: ValidationError, base: str) -> str:
    message = error.message
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    if error.context:
        hint = best_match(error.context)
        if hint is not None:
            message += f" (closest: {_pointer(base, hint.absolute_path)}: {hint.message})"
    return f"{_pointer(base, error.absolute_path)}: {message}"


# --- semantic layer ---------------------------------------------------------------------------


def _dict(value: object) -> Json:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _used_extensions(gltf: Json, names: tuple[str, ...]) -> list[str]:
    used = set(_dict(gltf.get("extensions")))
    for node in _list(gltf.get("nodes")):
        used.update(_dict(_dict(node).get("extensions")))
    return [name for name in names if name in used]


def _declaration_errors(gltf: Json, names: tuple[str, ...]) -> list[str]:
    listed = _list(gltf.get("extensionsUsed"))
    messages = [
        f"/extensionsUsed: {name} is used but not listed"
        for name in _used_extensions(gltf, names)
        if name not in listed
    ]
    for index, name in enumerate(_list(gltf.get("extensionsRequired"))):
        if name in names:
            messages.append(f"/extensionsRequired/{index}: {name} must stay optional")
    return messages


# (extension, level, path, targets): "*" walks array items; a target (extension, key) is the
# document-level array of that extension, (None, key) a core glTF array. An index is valid when
# it is in range of any of its targets.
Reference = tuple[str, str, str, tuple[tuple[str | None, str], ...]]
_MESHES: tuple[tuple[str | None, str], ...] = ((None, "meshes"),)
_NODES: tuple[tuple[str | None, str], ...] = ((None, "nodes"),)


def _body_references(body: str, shapes: tuple[str, str], geometry: bool) -> list[Reference]:
    materials = ((body, "physicsMaterials"),)
    filters = ((body, "collisionFilters"),)
    refs: list[Reference] = [
        (body, "node", "collider/physicsMaterial", materials),
        (body, "node", "collider/collisionFilter", filters),
        (body, "node", "trigger/collisionFilter", filters),
        (body, "node", "trigger/nodes/*", _NODES),
    ]
    for part in ("collider", "trigger"):
        if geometry:
            refs += [
                (body, "node", f"{part}/geometry/shape", (shapes,)),
                (body, "node", f"{part}/geometry/node", _NODES),
                (body, "node", f"{part}/geometry/mesh", _MESHES),
            ]
        else:
            refs.append((body, "node", f"{part}/shape", (shapes,)))
    return refs


def _joint_references(extension: str, prefix: str) -> list[Reference]:
    return [
        (extension, "node", f"{prefix}joint", ((extension, "physicsJoints"),)),
        (extension, "node", f"{prefix}connectedNode", _NODES),
    ]


_KHR = "KHR_physics_rigid_bodies"
_ANY_MATERIALS: tuple[tuple[str | None, str], ...] = (
    ("OMI_physics_body", "physicsMaterials"),
    (_KHR, "physicsMaterials"),
)
CURRENT_REFERENCES: tuple[Reference, ...] = (
    ("OMI_physics_shape", "doc", "shapes/*/convex/mesh", _MESHES),
    ("OMI_physics_shape", "doc", "shapes/*/trimesh/mesh", _MESHES),
    *_body_references("OMI_physics_body", ("OMI_physics_shape", "shapes"), geometry=False),
    *_joint_references("OMI_physics_joint", ""),
    ("OMI_vehicle_body", "node", "pilotSeat", _NODES),
    ("OMI_physics_gravity", "node", "shaped/shape", (("OMI_physics_shape", "shapes"),)),
    ("OMI_vehicle_wheel", "doc", "wheels/*/physicsMaterial", _ANY_MATERIALS),
    ("OMI_vehicle_wheel", "node", "wheel", (("OMI_vehicle_wheel", "wheels"),)),
    ("OMI_vehicle_thruster", "node", "thruster", (("OMI_vehicle_thruster", "thrusters"),)),
    (
        "OMI_vehicle_hover_thruster",
        "node",
        "hoverThruster",
        (("OMI_vehicle_hover_thruster", "hoverThrusters"),),
    ),
    *_body_references(_KHR, ("KHR_implicit_shapes", "shapes"), geometry=True),
    *_joint_references(_KHR, "joint/"),
)
LEGACY_REFERENCES: tuple[Reference, ...] = (
    ("KHR_collision_shapes", "doc", "shapes/*/convex/mesh", _MESHES),
    ("KHR_collision_shapes", "doc", "shapes/*/trimesh/mesh", _MESHES),
    *_body_references(_KHR, ("KHR_collision_shapes", "shapes"), geometry=False),
    *_joint_references(_KHR, "joint/"),
)


def _walk(value: object, keys: list[str], pointer: str) -> Iterator[tuple[str, object]]:
    if not keys:
        yield pointer, value
        return
    key, rest = keys[0], keys[1:]
    if key == "*":
        for index, item in enumerate(_list(value)):
            yield from _walk(item, rest, f"{pointer}/{index}")
    elif isinstance(value, dict) and key in value:
        yield from _walk(value[key], rest, f"{pointer}/{key}")


def _payloads(gltf: Json, extension: str, level: str) -> Iterator[tuple[str, object]]:
    if level == "doc":
        root = _dict(gltf.get("extensions"))
        if extension in root:
            yield f"/extensions/{extension}", root[extension]
        return
    for index, node in enumerate(_list(gltf.get("nodes"))):
        extensions = _dict(_dict(node).get("extensions"))
        if extension in extensions:
            yield f"/nodes/{index}/extensions/{extension}", extensions[extension]


def _array_length(gltf: Json, target: tuple[str | None, str]) -> int:
    extension, key = target
    owner = gltf if extension is None else _dict(_dict(gltf.get("extensions")).get(extension))
    return len(_list(owner.get(key)))


def _reference_errors(gltf: Json, references: tuple[Reference, ...]) -> list[str]:
    messages: list[str] = []
    for extension, level, path, targets in references:
        for base, payload in _payloads(gltf, extension, level):
            for pointer, value in _walk(payload, path.split("/"), base):
                if not isinstance(value, int) or isinstance(value, bool):
                    continue  # a type error, reported by the schema
                if value == -1:
                    messages.append(f"{pointer}: -1 is a 'none' sentinel; omit the property")
                elif value < 0:
                    messages.append(f"{pointer}: negative index {value}")
                elif all(value >= _array_length(gltf, target) for target in targets):
                    names = " or ".join(_target_name(target) for target in targets)
                    messages.append(f"{pointer}: index {value} is out of range of {names}")
    return messages


def _target_name(target: tuple[str | None, str]) -> str:
    extension, key = target
    return f"/{key}" if extension is None else f"/extensions/{extension}/{key}"


def _parents(nodes: list[Any]) -> dict[int, int]:
    parents: dict[int, int] = {}
    for index, node in enumerate(nodes):
        for child in _list(_dict(node).get("children")):
            if isinstance(child, int):
                parents.setdefault(child, index)
    return parents


def _is_descendant(node: int, ancestor: int, parents: dict[int, int]) -> bool:
    seen: set[int] = set()
    while node in parents and node not in seen:
        seen.add(node)
        node = parents[node]
        if node == ancestor:
            return True
    return False


def _compound_trigger_errors(gltf: Json, extension: str) -> list[str]:
    """Compound trigger members must be descendants carrying their own trigger."""
    nodes = _list(gltf.get("nodes"))
    parents = _parents(nodes)
    messages: list[str] = []
    for index, node in enumerate(nodes):
        trigger = _dict(_dict(_dict(_dict(node).get("extensions")).get(extension)).get("trigger"))
        for position, member in enumerate(_list(trigger.get("nodes"))):
            if not isinstance(member, int) or not 0 <= member < len(nodes):
                continue  # reported by the schema or the range check
            pointer = f"/nodes/{index}/extensions/{extension}/trigger/nodes/{position}"
            member_payload = _dict(_dict(_dict(nodes[member]).get("extensions")).get(extension))
            if "trigger" not in member_payload:
                messages.append(f"{pointer}: node {member} has no {extension} trigger")
            if not _is_descendant(member, index, parents):
                messages.append(f"{pointer}: node {member} is not a descendant of node {index}")
    return messages


def _pilot_seat_errors(gltf: Json) -> list[str]:
    nodes = _list(gltf.get("nodes"))
    messages: list[str] = []
    for base, payload in _payloads(gltf, "OMI_vehicle_body", "node"):
        seat = _dict(payload).get("pilotSeat")
        if not isinstance(seat, int) or not 0 <= seat < len(nodes):
            continue  # reported by the schema or the range check
        if "OMI_seat" not in _dict(_dict(nodes[seat]).get("extensions")):
            messages.append(f"{base}/pilotSeat: node {seat} has no OMI_seat")
    return messages


def _legacy_errors(gltf: Json) -> list[str]:
    """Defect 6 leftovers: the 2024-03 shape branches do not tie "type" to its sub-object, and
    the drive "axis" allows 3."""
    messages: list[str] = []
    shapes = _list(_dict(_dict(gltf.get("extensions")).get("KHR_collision_shapes")).get("shapes"))
    builtin = ("sphere", "box", "capsule", "cylinder", "convex", "trimesh")
    for index, shape in enumerate(shapes):
        kind = _dict(shape).get("type")
        if kind in builtin and kind not in _dict(shape):
            pointer = f"/extensions/KHR_collision_shapes/shapes/{index}"
            messages.append(f"{pointer}: a {kind} shape needs its '{kind}' object")
    joints = _list(_dict(_dict(gltf.get("extensions")).get(_KHR)).get("physicsJoints"))
    for j, joint in enumerate(joints):
        for d, drive in enumerate(_list(_dict(joint).get("drives"))):
            if _dict(drive).get("axis") == LEGACY_BAD_AXIS:
                pointer = f"/extensions/{_KHR}/physicsJoints/{j}/drives/{d}/axis"
                messages.append(f"{pointer}: axis 3 does not exist (0-2)")
    return messages


__all__ = [
    "CURRENT",
    "CURRENT_EXTENSIONS",
    "KHR_2024_03",
    "LEGACY_EXTENSIONS",
    "READ",
    "WRITE",
    "PhysicsSchemaValidator",
    "load_gltf",
]
