# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender-side storage: `Object.gltf_physics` and `Scene.gltf_physics`.

Property names are format-neutral; JSON keys live only in the codecs. Lengths are in the
object's local (unscaled) space, Blender axes: capsules and cylinders run along local Z.
"""


import bpy
from bpy.app.handlers import persistent
from bpy.props import (
    BoolProperty,
    BoolVectorProperty,
    CollectionProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntProperty,
    PointerProperty,
    StringProperty,
)

from ...field_table import ENGINE_COMBINE_ITEM, FIELDS, blender_min, rows
from ...layer_names import unique_name
from ...model import MESH_SHAPES
from ...rules import MIN_SIZE
from ..gravity.properties import (
    GltfPhysicsGravityFields,
    GltfPhysicsGravityPoint,
    GltfPhysicsWorldGravityFields,
)
from . import override_groups
from .field_props import annotations
from .joint_properties import (
    GltfPhysicsJointDriveProperties,
    GltfPhysicsJointFields,
    GltfPhysicsJointLimitProperties,
)

MAX_LAYERS = 32
#: Blender enum item → model value for the motion and shape enums ("NONE" has none).
MOTION_KIND = {"STATIC": "static", "KINEMATIC": "kinematic", "DYNAMIC": "dynamic"}
SHAPE_KIND = {"BOX": "box", "SPHERE": "sphere", "CAPSULE": "capsule", "CYLINDER": "cylinder",
              "CONVEX": "convex", "TRIMESH": "trimesh", "PLANE": "plane"}
#: Model value → Blender enum item.
MOTION_ITEM = {kind: item for item, kind in MOTION_KIND.items()}
SHAPE_ITEM = {kind: item for item, kind in SHAPE_KIND.items()}
#: The shape items that use a mesh (the model's MESH_SHAPES).
MESH_SHAPE_ITEMS = frozenset(item for item, kind in SHAPE_KIND.items() if kind in MESH_SHAPES)
#: The object types Blender makes a mesh from (`BlendData.meshes.new_from_object`; the
#: glTF exporter writes theirs as a node's mesh).
MESH_LIKE_TYPES = frozenset({"MESH", "CURVE", "SURFACE", "FONT", "META"})

MOTION_ITEMS = (
    ("NONE", "None", "Not a body: a shape here joins the nearest body above, or is static"),
    ("STATIC", "Static", "A body that never moves"),
    ("KINEMATIC", "Kinematic", "Moved by animation or code, pushes dynamic bodies"),
    ("DYNAMIC", "Dynamic", "Simulated: falls, collides and reacts to forces"),
)
SHAPE_ITEMS = (
    ("NONE", "None", "No collision shape on this object"),
    ("BOX", "Box", "A box"),
    ("SPHERE", "Sphere", "A sphere"),
    ("CAPSULE", "Capsule", "A capsule along local Z, with separate top and bottom radii"),
    ("CYLINDER", "Cylinder", "A cylinder or cone along local Z"),
    ("CONVEX", "Convex Hull", "The convex hull of a mesh"),
    ("TRIMESH", "Triangle Mesh", "An exact triangle mesh (best for static level geometry)"),
    ("PLANE", "Plane", "A plane with normal +Z (KHR only; written as a thin box for OMI)"),
)
#: The combine item that is not a mode of the file: the engine chooses.
ENGINE_COMBINE = ENGINE_COMBINE_ITEM[0]
MASS_MODE_ITEMS = (
    ("VALUE", "Value", "The mass below"),
    ("AUTO", "Auto", "Computed by the engine from the colliders (KHR only; OMI writes 1 kg)"),
    ("INFINITE", "Infinite", "Forces and contacts never move the body, though it may still "
     "turn (KHR only; OMI writes a kinematic body)"),
)


def _poll_mesh_object(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.type == "MESH"


def _poll_seat(_self: bpy.types.PropertyGroup, obj: bpy.types.Object) -> bool:
    return obj.gltf_physics.is_seat


PART_ITEMS = (
    ("NONE", "None", "Not a vehicle part"),
    ("WHEEL", "Wheel", "A wheel: a circle in the local YZ plane, width along X, rolling "
     "forward along −Y"),
    ("THRUSTER", "Thruster", "A thruster pushing along its local −Y (the nozzle points +Y)"),
    ("HOVER_THRUSTER", "Hover Thruster", "A hover thruster pushing along local −Y, stronger "
     "near the ground"),
)


def _unique_layer_name(layer: bpy.types.PropertyGroup, _context: bpy.types.Context) -> None:
    """Renamed to a name another layer of its scene has: made unique (`Name.001`)."""
    others = [other.name for other in layer.id_data.gltf_physics.layers
              if other.as_pointer() != layer.as_pointer()]
    name = unique_name(layer.name, others)
    if name != layer.name:
        layer.name = name


@persistent
def distinct_layer_names(_file: str = "") -> None:
    """On load: a file saved before layer names were kept unique may hold two layers of one
    name (export would make them one collision system); the later ones are renamed
    `Name.001`... Linked scenes are left as they are."""
    for scene in bpy.data.scenes:
        layers = scene.gltf_physics.layers
        if scene.library is not None or len({layer.name for layer in layers}) == len(layers):
            continue
        for index, layer in enumerate(layers):
            if any(earlier.name == layer.name for earlier in layers[:index]):
                layer.name = unique_name(layer.name, [other.name for i, other in
                                                      enumerate(layers) if i != index])


class GltfPhysicsLayerProperties(bpy.types.PropertyGroup):
    """A named collision layer (a collision system in the file)."""

    name: StringProperty(name="Name", description="Name of the collision layer", default="Layer",
                         update=_unique_layer_name)


class GltfPhysicsWheelMaterialProperties(bpy.types.PropertyGroup):
    """A wheel's own physics material, when it differs from its object's collider's."""

    use_material: BoolProperty(
        name="Physics Material", description="Give the wheel friction and restitution values",
    )


GltfPhysicsWheelMaterialProperties.__annotations__.update(annotations(rows("material")))


def _hard_min(prop: str) -> dict[str, float]:
    """A quirk property's hard minimum as keyword arguments: none where a written family states
    no bound (OMI's mass and inertia: every schema-valid value is kept)."""
    least = blender_min(prop)
    return {} if least is None else {"min": least}


class GltfPhysicsObjectProperties(GltfPhysicsJointFields, GltfPhysicsGravityFields,
                                  bpy.types.PropertyGroup):
    """Per-object rigid body, shape, material, filter, joint and vehicle settings; the plain
    fields of io/field_table.py are added from its rows."""

    motion_type: EnumProperty(name="Motion", description="How the body moves", items=MOTION_ITEMS)
    mass_mode: EnumProperty(
        name="Mass", description="Where the body's mass comes from", items=MASS_MODE_ITEMS,
    )
    mass: FloatProperty(
        name="Mass", description="Mass of the body in kilograms", default=1.0,
        **_hard_min("mass"), soft_min=0.001, soft_max=10000.0, unit="MASS",
    )
    center_of_mass_mode: EnumProperty(
        name="Center of Mass", description="Where the centre of mass is",
        items=(("AUTO", "Auto", "Computed by the engine from the shapes"),
               ("CUSTOM", "Custom", "At the given point in object space")),
    )
    center_of_mass: FloatVectorProperty(
        name="Center", description="Centre of mass in object space", size=3, subtype="TRANSLATION",
        unit="LENGTH",
    )
    inertia_mode: EnumProperty(
        name="Inertia", description="The body's resistance to rotation",
        items=(("AUTO", "Auto", "Computed by the engine from the shapes and mass"),
               ("CUSTOM", "Custom", "Principal moments and their orientation")),
    )
    inertia_diagonal: FloatVectorProperty(
        name="Principal Inertia", description="Principal moments of inertia (kg·m²); KHR "
        "writes only positive ones (OMI any)",
        size=3, default=(1.0, 1.0, 1.0), **_hard_min("inertia_diagonal"), soft_min=1e-6,
    )
    inertia_orientation: FloatVectorProperty(
        name="Inertia Orientation",
        description="Rotation from the principal axes to object space (quaternion w, x, y, z)",
        size=4, subtype="QUATERNION", default=(1.0, 0.0, 0.0, 0.0),
    )
    lock_rotation: BoolVectorProperty(
        name="Lock Rotation", description="Infinite moment of inertia about these axes: the "
        "body never turns about them (the principal axes with custom inertia, else object "
        "axes; KHR only, OMI writes a large moment)", size=3, subtype="XYZ",
    )

    shape_type: EnumProperty(name="Shape", description="Collision shape", items=SHAPE_ITEMS)
    shape_name: StringProperty(
        name="Shape Name",
        description="Name written with this shape in the glTF file (optional; empty writes none)",
    )
    shape_role: EnumProperty(
        name="Role", description="Whether the shape collides or only detects overlaps",
        items=(("COLLIDER", "Collider", "A solid shape that collides"),
               ("TRIGGER", "Trigger", "A volume that reports overlaps and does not collide")),
    )
    size_mode: EnumProperty(
        name="Dimensions", description="Where the shape's dimensions come from",
        items=(("FIT", "Fit to Mesh", "Fitted to the object's evaluated mesh bounds at export"),
               ("CUSTOM", "Custom", "The values below, in object space")),
    )
    box_size: FloatVectorProperty(
        name="Size", description="Full box extents in object space", size=3,
        default=(1.0, 1.0, 1.0), min=blender_min("box_size"), soft_min=MIN_SIZE,
        subtype="XYZ_LENGTH",
        unit="LENGTH",
    )
    radius: FloatProperty(
        name="Radius", description="Sphere radius", default=0.5, min=blender_min("radius"),
        soft_min=MIN_SIZE, unit="LENGTH",
    )
    height: FloatProperty(
        name="Height",
        description="Capsule: distance between the hemisphere centres. Cylinder: full height",
        default=1.0, min=blender_min("height"), soft_min=MIN_SIZE, unit="LENGTH",
    )
    radius_top: FloatProperty(
        name="Top Radius", description="Radius at the +Z end", default=0.5,
        min=blender_min("radius_top"), unit="LENGTH",
    )
    radius_bottom: FloatProperty(
        name="Bottom Radius", description="Radius at the −Z end", default=0.5,
        min=blender_min("radius_bottom"), unit="LENGTH",
    )
    plane_size: FloatVectorProperty(
        name="Plane Size", description="Plane extents along X and Y; 0 means infinite", size=2,
        default=(0.0, 0.0), min=0.0, unit="LENGTH",
    )
    plane_double_sided: BoolProperty(
        name="Double Sided", description="Collide from both sides of the plane",
    )
    shape_offset: FloatVectorProperty(
        name="Offset", description="Shape centre relative to the object origin (custom dimensions)",
        size=3, subtype="TRANSLATION", unit="LENGTH",
    )
    shape_rotation: FloatVectorProperty(
        name="Rotation", description="Shape orientation relative to the object (custom "
        "dimensions; set by fitting to the principal axes)", size=4, subtype="QUATERNION",
        default=(1.0, 0.0, 0.0, 0.0),
    )
    mesh_source: EnumProperty(
        name="Mesh Source", description="Which mesh a convex hull or triangle mesh uses",
        items=(("SELF", "This Object", "This object's evaluated mesh"),
               ("OBJECT", "Other Object", "Another mesh object (a collision proxy)")),
    )
    mesh_object: PointerProperty(
        name="Proxy", description="Mesh object whose geometry is used as the collision mesh",
        type=bpy.types.Object, poll=_poll_mesh_object,
    )
    collision_only: BoolProperty(
        name="Collision Only",
        description="Use this object's mesh for collision only: it is not exported as visible "
        "geometry",
    )
    is_compound_trigger: BoolProperty(
        name="Compound Trigger",
        description="This object is one trigger made of the trigger shapes of its descendants",
    )
    join_compound_trigger: BoolProperty(
        name="Join Compound Trigger", default=True,
        description="A trigger shape below a compound trigger is one of its parts",
    )

    use_material: BoolProperty(
        name="Physics Material", description="Give the shape friction and restitution values",
    )

    is_vehicle: BoolProperty(
        name="Vehicle", description="This dynamic body is a piloted vehicle (OMI_vehicle_body)",
    )
    vehicle_pilot_seat: PointerProperty(
        name="Pilot Seat", type=bpy.types.Object, poll=_poll_seat,
        description="The seat (an object marked Seat) whose occupant steers the vehicle",
    )
    vehicle_part: EnumProperty(
        name="Vehicle Part", description="This object is a part of the vehicle above it",
        items=PART_ITEMS,
    )
    is_seat: BoolProperty(name="Seat", description="This object is a seat (OMI_seat)")
    wheel_own_material: BoolProperty(
        name="Own Wheel Material",
        description="The wheel has its own physics material (else the object's Physics "
        "Material, which its collider uses too)",
    )
    wheel_material: PointerProperty(
        type=GltfPhysicsWheelMaterialProperties, name="Wheel Material",
        description="The wheel's own physics material",
    )

    use_filter: BoolProperty(
        name="Collision Filter", description="Restrict which collision layers this shape meets",
    )
    filter_layers: BoolVectorProperty(
        name="Layers", description="Collision layers this shape belongs to", size=MAX_LAYERS,
    )
    filter_mode: EnumProperty(
        name="Collides", description="Which layers this shape collides with",
        items=(("ALL", "With All", "Collide with every layer"),
               ("ONLY", "Only With", "Collide only with the ticked layers"),
               ("EXCEPT", "All Except", "Collide with every layer but the ticked ones")),
    )
    filter_targets: BoolVectorProperty(
        name="Targets", description="Layers named by the collide rule", size=MAX_LAYERS,
    )
    filter_name: StringProperty(
        name="Filter Name", description="Name written with this collision filter in the glTF "
        "file (optional; empty writes none)",
    )


#: The collision filter's properties (copied together to a decomposition's parts and to a
#: compound trigger's members).
FILTER_FIELDS = frozenset({"use_filter", "filter_layers", "filter_mode", "filter_targets",
                           "filter_name"})

GltfPhysicsObjectProperties.__annotations__.update(annotations(FIELDS))


class GltfPhysicsProblemProperties(bpy.types.PropertyGroup):
    """One validation finding shown in the scene panel."""

    obj: StringProperty(name="Object", description="The object the problem is about")
    target_uid: IntProperty(
        name="Object Identity",
        description="The session identity of the object the problem is about: Select and Fix "
        "act on this one, never on another of its name (a pointer would keep a deleted object "
        "in the file)",
    )
    code: StringProperty(name="Code", description="Stable problem code")
    message: StringProperty(name="Problem", description="What is wrong")
    fix: StringProperty(name="Fix", description="The available fix, if any")


class GltfPhysicsSceneProperties(GltfPhysicsWorldGravityFields, bpy.types.PropertyGroup):
    """Scene-wide physics export settings and collision layers."""

    export_format: EnumProperty(
        name="Physics Format", description="Which physics extensions the glTF export writes",
        items=(("KHR", "KHR", "KHR_physics_rigid_bodies + KHR_implicit_shapes"),
               ("OMI", "OMI", "OMI_physics_body + OMI_physics_shape"),
               ("NONE", "Off", "Write no physics")),
    )
    khr_geometry: EnumProperty(
        name="KHR Mesh Geometry", description="How KHR colliders reference meshes",
        items=(("MESH", "Mesh (2026-01)", "geometry.mesh: a direct mesh index"),
               ("NODE", "Node (2025-10)", "geometry.node: an orphan node carrying the mesh")),
    )
    omi_round_layout: EnumProperty(
        name="OMI Capsules", description="How OMI capsules and cylinders are written",
        items=(("CURRENT", "Current", "radiusTop/radiusBottom and the mid-height (the current "
                "OMI_physics_shape; what every up-to-date reader expects)"),
               ("GODOT4", "Godot 4 (pre-2025)", "One radius and a capsule's full height, for "
                "Godot 4 releases that still read the old layout; tapered shapes lose their "
                "taper")),
    )
    layers: CollectionProperty(type=GltfPhysicsLayerProperties, name="Collision Layers")
    active_layer: IntProperty(name="Active Layer", description="Selected collision layer")
    problems: CollectionProperty(type=GltfPhysicsProblemProperties, name="Problems")
    problems_session: StringProperty(
        name="Problems' Session", options={"HIDDEN"},
        description="The Blender session the problems were found in: their object identities "
        "mean nothing in another (a list saved with the file is stale once it is opened)",
    )
    active_problem: IntProperty(name="Active Problem", description="Selected problem")
    show_shapes: BoolProperty(
        name="Physics Shapes", default=True,
        description="Draw every collider (green) and trigger (orange) as its collision shape",
    )
    show_joints: BoolProperty(
        name="Physics Joints", default=True,
        description="Draw each joint's frame and its links to the two bodies in the viewport",
    )


CLASSES = (
    GltfPhysicsLayerProperties,
    GltfPhysicsJointLimitProperties,
    GltfPhysicsJointDriveProperties,
    GltfPhysicsGravityPoint,
    GltfPhysicsWheelMaterialProperties,
    GltfPhysicsObjectProperties,
    GltfPhysicsProblemProperties,
    GltfPhysicsSceneProperties,
)


#: The object's groups: a library override keeps their edits (Blender keeps an override's
#: edits only of properties flagged overridable).
OVERRIDABLE = (GltfPhysicsJointLimitProperties, GltfPhysicsJointDriveProperties,
               GltfPhysicsWheelMaterialProperties, GltfPhysicsGravityPoint,
               GltfPhysicsObjectProperties)


def _make_overridable(cls: type) -> None:
    """Flag every property of `cls` (and the classes it mixes in) library-overridable;
    list items may be added to an override, placed by their index (the items have no names:
    Blender matched them by their empty names, and a reload lost all but one, out of order)."""
    for base in reversed(cls.__mro__):
        for prop in vars(base).get("__annotations__", {}).values():
            keywords = getattr(prop, "keywords", None)
            if keywords is None:
                continue
            flags = {"LIBRARY_OVERRIDABLE"}
            if prop.function is CollectionProperty:
                flags |= {"USE_INSERTION", "NO_PROPERTY_NAME"}
            keywords["override"] = flags


def register() -> None:
    """Register the property groups and attach the root pointers."""
    for cls in CLASSES:
        if cls in OVERRIDABLE:
            _make_overridable(cls)
        bpy.utils.register_class(cls)
    bpy.types.Object.gltf_physics = PointerProperty(
        type=GltfPhysicsObjectProperties, override={"LIBRARY_OVERRIDABLE"})
    bpy.types.Scene.gltf_physics = PointerProperty(type=GltfPhysicsSceneProperties)
    bpy.app.handlers.load_post.append(distinct_layer_names)
    override_groups.register()


def unregister() -> None:
    """Remove the root pointers and the property groups."""
    if distinct_layer_names in bpy.app.handlers.load_post:
        bpy.app.handlers.load_post.remove(distinct_layer_names)
    override_groups.unregister()
    del bpy.types.Scene.gltf_physics
    del bpy.types.Object.gltf_physics
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
