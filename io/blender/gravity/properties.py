# SPDX-License-Identifier: GPL-3.0-or-later
"""Gravity storage: the gravity fields of `Object.gltf_physics` (a volume on a trigger) and
the world gravity fields of `Scene.gltf_physics`, mixed into their groups.

The plain values come from the GRAVITY and WORLD_GRAVITY rows of io/field_table.py (object
space, Blender axes); the type, a line's points and a shaped volume's shape are explicit here.
"""

from typing import Any

import bpy
from bpy.props import (
    BoolProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ...field_table import GRAVITY, WORLD_GRAVITY, family_min
from ...rules import MIN_SIZE
from ..settings.field_props import annotations

GRAVITY_TYPE_ITEMS = (
    ("NONE", "None", "No gravity volume on this trigger"),
    ("DIRECTIONAL", "Directional", "A uniform pull along a direction in object space"),
    ("POINT", "Point", "A pull towards the object's origin (a planet)"),
    ("DISC", "Disc", "A pull towards the nearest point of a filled circle in the object's XY "
     "plane"),
    ("TORUS", "Torus", "A pull towards the nearest point of a circle in the object's XY plane "
     "(a ring world)"),
    ("LINE", "Line", "A pull towards the nearest point of a polyline (capsule or snake "
     "planets)"),
    ("SHAPED", "Shaped", "A pull towards the nearest point of a shape centred on the object "
     "(a cube planet)"),
)
#: Blender enum item → model kind, and back.
GRAVITY_KIND = {item: item.lower() for item, *_ in GRAVITY_TYPE_ITEMS if item != "NONE"}
GRAVITY_ITEM = {kind: item for item, kind in GRAVITY_KIND.items()}
GRAVITY_SHAPE_ITEMS = (
    ("BOX", "Box", "A box"),
    ("SPHERE", "Sphere", "A sphere"),
    ("CAPSULE", "Capsule", "A capsule along local Z"),
    ("CYLINDER", "Cylinder", "A cylinder along local Z"),
    ("CONVEX", "Convex Hull", "The convex hull of a mesh object's vertices, in this object's "
     "space (a point inside it is pulled nowhere)"),
    ("TRIMESH", "Triangle Mesh", "The surface of a mesh object, in this object's space"),
)
#: The shape items made from a mesh object (`gravity_shape_object`).
GRAVITY_MESH_SHAPES = frozenset({"CONVEX", "TRIMESH"})
LINE_SOURCE_ITEMS = (
    ("POINTS", "Points", "The points listed below, in object space"),
    ("OBJECT", "Object", "The vertices of a curve or mesh object, in vertex order"),
)


#: The object types whose vertices can be a gravity line.
LINE_OBJECT_TYPES = ("CURVE", "MESH")


def _poll_line_object(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type in LINE_OBJECT_TYPES


def _poll_shape_object(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type == "MESH"


class GltfPhysicsGravityPoint(bpy.types.PropertyGroup):
    """One point of a line gravity volume."""

    co: FloatVectorProperty(
        name="Point", description="Point of the line in object space", size=3,
        subtype="TRANSLATION", unit="LENGTH",
    )


#: The priorities Blender stores (a 32-bit integer property); a file's may be larger.
STORED_PRIORITY = (-2**31, 2**31 - 1)


def _row_annotations(rows: Any) -> dict[str, Any]:
    """The rows' properties; the priority is an integer."""
    out = annotations(rows)
    for row in rows:
        if row.attr == "priority":
            out[row.prop] = IntProperty(name=row.label, description=row.tooltip,
                                        default=row.default, min=STORED_PRIORITY[0],
                                        max=STORED_PRIORITY[1])
    return out


class GltfPhysicsGravityFields:
    """The gravity fields of `Object.gltf_physics`."""

    gravity_type: EnumProperty(
        name="Gravity", description="The gravity volume this trigger is (OMI_physics_gravity)",
        items=GRAVITY_TYPE_ITEMS,
    )
    gravity_line_source: EnumProperty(
        name="Points From", description="Where the line's points come from",
        items=LINE_SOURCE_ITEMS,
    )
    gravity_line_object: PointerProperty(
        name="Line Object", type=bpy.types.Object, poll=_poll_line_object,
        description="Curve or mesh object whose vertices (in vertex order) are the line",
    )
    gravity_line_points: CollectionProperty(
        type=GltfPhysicsGravityPoint, name="Line Points",
        description="The line's points in object space",
    )
    gravity_active_point: IntProperty(name="Active Point", description="Selected line point")
    gravity_shape_type: EnumProperty(
        name="Pull Towards", description="The shape shaped gravity pulls towards",
        items=GRAVITY_SHAPE_ITEMS,
    )
    gravity_shape_object: PointerProperty(
        name="Shape Mesh", type=bpy.types.Object, poll=_poll_shape_object,
        description="Mesh object whose evaluated geometry, in this object's space, is the "
        "convex hull or triangle mesh pulled towards",
    )
    gravity_shape_size: FloatVectorProperty(
        name="Size", description="Full box extents in object space", size=3,
        default=(1.0, 1.0, 1.0), min=family_min("OMI", "box", "size"), soft_min=MIN_SIZE,
        subtype="XYZ_LENGTH", unit="LENGTH",
    )
    gravity_shape_radius: FloatProperty(
        name="Radius", description="Sphere radius", default=0.5,
        min=family_min("OMI", "sphere", "radius"), soft_min=MIN_SIZE,
        unit="LENGTH",
    )
    gravity_shape_height: FloatProperty(
        name="Height", description="Capsule: distance between the hemisphere centres. "
        "Cylinder: full height", default=1.0, min=family_min("OMI", "capsule", "height"),
        soft_min=MIN_SIZE, unit="LENGTH",
    )
    gravity_shape_radius_top: FloatProperty(
        name="Top Radius", description="Radius at the +Z end", default=0.5,
        min=family_min("OMI", "capsule", "radiusTop"),
        unit="LENGTH",
    )
    gravity_shape_radius_bottom: FloatProperty(
        name="Bottom Radius", description="Radius at the −Z end", default=0.5,
        min=family_min("OMI", "capsule", "radiusBottom"),
        unit="LENGTH",
    )
    gravity_shape_name: StringProperty(
        name="Shape Name", description="Name written with the shape pulled towards in the "
        "glTF file (optional; empty writes none)",
    )


GltfPhysicsGravityFields.__annotations__.update(_row_annotations(GRAVITY))


class GltfPhysicsWorldGravityFields:
    """The world gravity fields of `Scene.gltf_physics`."""

    use_world_gravity: BoolProperty(
        name="World Gravity", description="Write the world gravity (OMI_physics_gravity) into "
        "OMI exports; KHR has none",
    )
    show_gravity: BoolProperty(
        name="Physics Gravity", default=True,
        description="Draw each gravity volume's pull in the viewport: arrows the way it pulls "
        "and the point, disc, ring, line or shape it pulls towards (violet)",
    )


GltfPhysicsWorldGravityFields.__annotations__.update(_row_annotations(WORLD_GRAVITY))
