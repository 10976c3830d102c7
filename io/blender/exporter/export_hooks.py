# SPDX-License-Identifier: GPL-3.0-or-later
"""glTF exporter hooks: gather per-object physics, encode once every index is final.

Flow (one instance per export):
- `gather_tree_filter_tag_hook` (once per exported scene): that scene's collision layers;
  each object's settings are read here, once per export (`_settings_of`).
- `gather_node_hook`: notes each object's glTF node (and strips leaked extras).
- `gather_scene_hook`: object settings → model parts for every node of the scene, in one
  loop; collision meshes and shape-offset child nodes are made here, before the exporter's
  traversal assigns indices. Each node is its own identity: an object exported in several
  scenes or instances gets one record per node. The scene's export tree then tells each
  node's scene and instance (`export.node_index`), so partners (joint bodies, seats,
  compound members) are found in the same instance.
- `gather_gltf_hook`: collision-only meshes (and KHR `geometry.node` orphans) are parked in
  the active scene's extensions so the traversal writes them into the buffer.
- `gather_gltf_extensions_hook`: everything has its final index; the pure codecs encode the
  whole scene and the payloads are attached as plain dicts.
"""

import json
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any

import bpy
import numpy as np

from ... import axes, rules
from ...codecs.common import Encoded
from ...codecs.registry import encode_document
from ...diagnostics import Report, listing
from ...layer_names import unique_name
from ...model import ZERO3, Collider, Joint, Motion, NodePhysics, PhysicsScene, Trigger
from ...numbers import non_finite_seen
from ...structure import STATIC_IN_MOVING_CODE, kind_in_target
from ...vehicle_model import VehicleNode, VehicleScene
from .. import gltf_compat
from ..bridge.collision_mesh import COLLISION_SUFFIX, gltf_mesh_from_object
from ..bridge.joint_bridge import on_bone_node
from ..bridge.to_model import (
    MOTION_KEY,
    SHAPE_PART_KEY,
    ShapePlacement,
    compound_trigger_members,
    filter_of,
    material_of,
    motion_of,
    placement_of,
)
from ..bridge.turned_nodes import TurnedBack
from ..bridge.vehicle_bridge import NOT_DYNAMIC_VEHICLE, has_vehicle_data, vehicle_node_of
from ..gravity.bridge import shape_mesh_object
from ..gravity.export import (
    export_gravity,
    has_world_gravity,
    may_carry_volume,
    say_gravity_without_record,
)
from ..instances import children_map
from ..settings.properties import MESH_LIKE_TYPES, MESH_SHAPE_ITEMS
from ..settings.stored_settings import SharedSnapshots
from ..tools.ownership import IMPORT_ORPHANS, made_by
from .evaluated import Evaluated, loses_evaluation, written_evaluated
from .joint_export import JointExport, has_body_or_shape
from .mass_bridge import BodyMass, body_scale
from .node_index import NodeIndex, is_stray_dupli
from .trigger_merge import merge_trigger_children

PENDING_KEY = "gltf_physics_pending"
OBJECT = bpy.types.Object  # looked up once: each bpy.types access costs ~0.7 µs per node
COLLECTION = bpy.types.Collection
#: The exporter's settings that leave objects out (selected, visible, renderable objects, the
#: active collection, a collection): with any on, what goes with a body is read among the
#: objects its trees keep.
FILTERS = ("gltf_selected", "gltf_visible", "gltf_renderable", "gltf_active_collection",
           "gltf_collection")
EXTRAS_KEY = "gltf_physics"


@dataclass(slots=True)
class _Record:
    """One exported object: its node, the node carrying its shape, and its physics."""

    obj: Any
    node: Any
    shape_node: Any
    body: NodePhysics
    shape_part: NodePhysics | None
    trigger_members: tuple[Any, ...] = ()
    gravity: bool = False  # the object has a gravity volume


@dataclass(slots=True)
class _Derived:
    """What the export makes of one set of stored settings, shared by every object that has
    it (a level's objects repeat a few settings many times)."""

    props: Any  # the plain settings (a shared snapshot: read pointers from the object)
    body_or_shape: bool
    physics: bool  # a body, a shape or a joint
    joint: bool
    vehicle: bool
    collision_only: bool
    motion: Motion | None
    needs_mass: bool  # the format cannot leave the motion's mass properties to the engine
    trigger_only: bool = False  # a shaped trigger and nothing else (`trigger_merge`)
    error: str | None = None  # why these settings make no physics (reported per object)
    custom_placement: Any = None  # a custom-size analytic shape's (the settings place it)
    #: (id(placement), id(motion), same node) → (body part, shape part, placement, motion):
    #: the model parts these settings make with them (the entry keeps both ids' objects)
    parts: dict[tuple[int, int, bool], tuple] = field(default_factory=dict)


def _trigger_only(props: Any) -> bool:
    """A shaped trigger, and no other physics (what the importer's trigger child holds)."""
    return props.shape_role == "TRIGGER" and props.shape_type != "NONE" \
        and props.motion_type == "NONE" and props.joint_type == "NONE" \
        and props.gravity_type == "NONE" and not props.is_compound_trigger \
        and not has_vehicle_data(props)


def _has_physics(props: Any) -> bool:
    return has_body_or_shape(props) or props.joint_type != "NONE"


def _stands_for_bone(obj: Any, yup: bool) -> bool:
    """An object (with physics: the caller knows) at its parent bone's node frame, with no
    children to keep: it stands for the bone's glTF node (as the importer makes for physics
    on bones)."""
    return obj.type == "EMPTY" and on_bone_node(obj, yup) and all(
        child.gltf_physics.collision_only and not _has_physics(child.gltf_physics)
        and not child.children for child in obj.children
    )


def _emptied_orphans(collection: Any) -> bool:
    """An import's collection of orphan nodes that the import emptied: it would be written
    as an empty node (in every instance of a kit made from the import)."""
    return made_by(collection, IMPORT_ORPHANS) and not collection.all_objects \
        and not collection.children


def _json_finite(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


def _zero_non_finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else 0.0
    if isinstance(value, dict):
        return {key: _zero_non_finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_zero_non_finite(item) for item in value]
    return value


def _uses_own_mesh(props: Any) -> bool:
    return props.shape_type in MESH_SHAPE_ITEMS and props.mesh_source == "SELF"


def _has_loose_parts(obj: bpy.types.Object) -> bool:
    """Whether `obj`'s mesh has edges or vertices no face uses (the export's Loose Edges and
    Loose Points write them into its visible mesh, which is then no solid's)."""
    mesh = obj.data
    if not isinstance(mesh, bpy.types.Mesh):
        return True  # (a curve's: read as a solid of its own)
    if not mesh.polygons:
        return bool(mesh.vertices)
    used = np.empty(len(mesh.loops), dtype=np.int32)
    mesh.loops.foreach_get("edge_index", used)
    if len(np.unique(used)) < len(mesh.edges):
        return True
    mesh.loops.foreach_get("vertex_index", used)
    return len(np.unique(used)) < len(mesh.vertices)


def _carries_gravity(props: Any) -> bool:
    """True when the object's gravity volume can be written (the rule the gravity export
    applies: a trigger without motion or collider); one that cannot is said by it."""
    shaped = props.shape_type != "NONE"
    return props.gravity_type != "NONE" and not rules.gravity_placement(
        props.motion_type != "NONE", shaped and props.shape_role == "COLLIDER",
        props.is_compound_trigger or (shaped and props.shape_role == "TRIGGER"))


def _strip_own_extras(holder: Any) -> None:
    """Remove the add-on's own keys from a glTF node's, scene's or mesh's extras: 4.2/4.5
    copy PropertyGroups into extras, and the tools' tags (gltf_physics_made_by…,
    io/blender/tools/ownership.py) are the add-on's, not the user's."""
    for key in [k for k in holder.extras if k.startswith(EXTRAS_KEY)]:
        holder.extras.pop(key)
    holder.extras = holder.extras or None


class PhysicsExportExtension(JointExport):
    """Writes gltf_physics object settings as OMI or KHR physics extensions."""

    def __init__(self) -> None:
        # The export's own settings: read once, from the scene the export was started in,
        # and applied to every scene it writes.
        settings = bpy.context.scene.gltf_physics
        self.format = settings.export_format
        self.geometry_form = "node" if settings.khr_geometry == "NODE" else "mesh"
        self.legacy_round = settings.omi_round_layout == "GODOT4"
        # Collision layers belong to each scene: set when that scene's tree is gathered.
        self.layer_names: tuple[str, ...] = self._layers_of(bpy.context.scene)
        self.layer_scene = bpy.context.scene.name  # (whose layers `layer_names` are)
        self.exported_scenes: list[bpy.types.Scene] = []  # (their world gravity: OMI's one)
        self.records: list[_Record] = []
        self.trigger_children: list[_Record] = []  # trigger-only records of child objects
        self.shape_node_of: dict[int, Any] = {}  # id(object's node) → node with its shape
        self.built_meshes: dict[tuple[int, int], Any] = {}
        #: an unmodified mesh's glTF mesh by (its data, its place in the body's space): the
        #: objects sharing one mesh in one place (Alt+D copies, an import's proxies) share it
        self.same_meshes: dict[tuple[int, tuple[float, ...]], Any] = {}
        #: the scenes this export writes (from its first tree): where those meshes are read
        self.writes_scenes: list[bpy.types.Scene] = []
        self.evaluated = Evaluated(self.writes_scenes)
        self.mesh_nodes: dict[int, Any] = {}
        self.index = NodeIndex()
        self.libraries = bool(bpy.data.libraries)  # (none: no object can be linked)
        # gathered in the scene being exported, not indexed yet (two flat lists: no object
        # is made per node for them)
        self.scene_nodes: list[Any] = []
        self.scene_objects: list[bpy.types.Object] = []
        # how many children each had then: a shape-offset child goes after those (the
        # exporter adds bone children and neutral bones to some nodes after their hook)
        self.scene_child_counts: list[int] = []
        # objects kept, not names: bpy.data.objects[name] scans the whole collection
        self.joint_objects: list[tuple[bpy.types.Object, Any]] = []
        self.joints: list[tuple[Any, Joint]] = []
        #: (id(shared settings), yup) → a joint's glTF settings made from them (JointExport)
        self.joint_settings: dict[tuple[int, bool], tuple] = {}
        self.vehicle_objects: list[tuple[bpy.types.Object, Any]] = []
        self.bounds: dict[Hashable, Any] = {}  # placements and fitted bounds, shared
        self.shared: dict[Hashable, Any] = {}  # model parts shared by equal settings
        self.filter_names: dict[tuple[bool, ...], tuple[str, ...]] = {}
        self.snapshots = SharedSnapshots()
        self.derived: dict[int, _Derived] = {}  # id(shared snapshot) → what it makes
        self.object_settings: dict[bpy.types.Object, _Derived] = {}  # per object
        self.placements: dict[tuple[str, int], ShapePlacement] = {}  # mesh shapes, shared
        self.yup = True
        self.report = Report()
        self.body_mass: BodyMass | None = None
        #: objects whose physics goes on their parent bone's node (the importer's stand-ins)
        self.on_bones: set[bpy.types.Object] = set()
        #: every object the export's trees keep, when it filters them (`FILTERS`; None when
        #: it writes every one): what belongs to a body is read among these
        self.kept_objects: set[bpy.types.Object] | None = None
        self.applies_modifiers = False  # (the export's Apply Modifiers: its visible meshes)
        #: the export writes loose edges or points into visible meshes (not a solid's)
        self.writes_loose = False
        #: collision-only objects of the exported trees (their visible mesh is left out)
        self.collision_only: set[bpy.types.Object] = set()
        #: the exporter's second copies of duplicated grandchildren (`is_stray_dupli`)
        self.stray: list[Any] = []
        # The exporter calls a hook only where the extension has one: the mesh hook is set
        # once a tree has a collision-only object (gather_tree_filter_tag_hook).
        self.gather_node_mesh_hook: Callable[[Any, Any, dict], None] | None = None

    @staticmethod
    def _layers_of(scene: Any) -> tuple[str, ...]:
        """The scene's layer names; two layers never share one in the file (a script may
        have added unnamed ones): a repeated name is written as `Name.001`."""
        settings = getattr(scene, "gltf_physics", None)
        names: list[str] = []
        for layer in () if settings is None else settings.layers:
            names.append(unique_name(layer.name, names))
        return tuple(names)

    # -- tree and node hooks ------------------------------------------------------------

    def gather_tree_filter_tag_hook(self, vtree: Any, export_settings: dict) -> None:
        """Leave out collision-only proxy objects that carry no physics of their own."""
        if self.format == "NONE":
            return
        self._start_tree(export_settings)
        settings_of, tag, kept = self._settings_of, self._tag, self.kept_objects
        for vnode in vtree.nodes.values():
            obj = vnode.blender_object
            if vnode.keep_tag and isinstance(obj, OBJECT):
                derived = settings_of(obj)  # (read here, once per export: the per-node cost)
                if derived.collision_only or ((derived.physics or derived.vehicle) and (
                        vnode.parent_uuid is not None or vnode.parent_bone_uuid is not None)):
                    tag(vnode, obj, derived, vtree)
                if kept is not None:  # (a proxy left out above is still the export's)
                    kept.add(obj)
            elif isinstance(obj, COLLECTION) and _emptied_orphans(obj):
                vnode.keep_tag = False
        if self.body_mass is not None and self.kept_objects is not None:
            self.body_mass.exported_more()  # (a second scene's tree: more objects kept)
        if self.collision_only:
            self.gather_node_mesh_hook = self._leave_out_collision_only_mesh
        if export_settings.get("gltf_flatten_obj_hierarchy"):  # (flattened after this hook)
            self.index.remember_parents(vtree)

    def _start_tree(self, export_settings: dict) -> None:
        """Note the scene whose tree this is (the exporter makes the scene it gathers the
        context's: VExportTree.construct), the scenes the export writes, and its layers."""
        if bpy.context.scene not in self.exported_scenes:
            self.exported_scenes.append(bpy.context.scene)
        if not self.writes_scenes:  # (as the exporter picks them: every scene, or this one)
            every = not export_settings.get("gltf_active_scene", True) \
                and not export_settings.get("gltf_collection")
            self.writes_scenes.extend(bpy.data.scenes if every else [bpy.context.scene])
        layers = self._layers_of(bpy.context.scene)
        self.layer_scene = bpy.context.scene.name
        if layers != self.layer_names:
            self.layer_names = layers
            self.filter_names = {}
            for derived in self.derived.values():
                derived.parts.clear()  # their colliders' filters name this scene's layers
        self.yup = export_settings["gltf_yup"]
        self.applies_modifiers = bool(export_settings.get("gltf_apply"))
        self.writes_loose = bool(export_settings.get("gltf_loose_edges")
                                 or export_settings.get("gltf_loose_points"))
        if self.kept_objects is None and any(export_settings.get(key) for key in FILTERS):
            self.kept_objects = set()

    def _tag(self, vnode: Any, obj: bpy.types.Object, derived: _Derived, vtree: Any) -> None:
        """Leave out a kept object's node the file needs no node for (a collision-only proxy
        without physics, a stand-in on a bone's node); note the exporter's stray copies.
        Called for a collision-only object, and for one with physics or vehicle data and a
        parent in the tree."""
        if derived.collision_only:
            self.collision_only.add(obj)
            if not derived.physics and not obj.children:
                vnode.keep_tag = False
                return
        if (derived.physics or derived.vehicle) and vnode.parent_uuid is not None \
                and obj.parent is not None and is_stray_dupli(vtree.nodes, vnode):
            self.stray.append(vnode)  # (its physics goes on the copy under its parent)
            return
        if derived.physics and vnode.parent_bone_uuid is not None \
                and _stands_for_bone(obj, self.yup):  # (under a bone's node in the tree)
            # Its physics is written on the bone's node (gather_joint_hook); its own node
            # would be an empty sibling of the bone's children.
            vnode.keep_tag = False
            self.on_bones.add(obj)

    def _leave_out_collision_only_mesh(
        self, hook_obj: Any, blender_object: Any, export_settings: dict
    ) -> None:
        """Skip the visible mesh of collision-only objects (gather_node_mesh_hook)."""
        if blender_object in self.collision_only:
            hook_obj.export_mesh = False

    def gather_node_hook(self, node: Any, blender_object: Any, export_settings: dict) -> None:
        """Strip leaked properties from extras and note the object's node (its physics is
        built with the scene's, in gather_scene_hook)."""
        if isinstance(node.extras, dict):
            _strip_own_extras(node)
        if self.format == "NONE" or not isinstance(blender_object, OBJECT):
            return
        self.scene_nodes.append(node)
        self.scene_objects.append(blender_object)
        self.scene_child_counts.append(len(node.children or ()))

    def gather_joint_hook(self, node: Any, blender_bone: Any, export_settings: dict) -> None:
        """A bone's node (the exporter calls gather_joint_hook, not gather_node_hook, for
        bones): note it for the objects standing for it."""
        if self.format == "NONE" or not self.on_bones:
            return
        armature = blender_bone.id_data
        for obj in armature.children:
            if obj in self.on_bones and obj.parent_bone == blender_bone.name:
                self.scene_nodes.append(node)
                self.scene_objects.append(obj)
                self.scene_child_counts.append(len(node.children or ()))

    def _build_scene(self, export_settings: dict) -> None:
        """The physics of the nodes gathered in this scene, in the order they were gathered;
        then the scene's node index. One loop: the per-node cost of the export."""
        settings_of, known = self._settings_of, self.object_settings
        joints, vehicles, record = self.joint_objects, self.vehicle_objects, self._record
        # taken first: whatever fails below, these nodes are never built twice
        nodes, objects = self.scene_nodes, self.scene_objects
        gathered = zip(nodes, objects, self.scene_child_counts, strict=True)
        self.scene_nodes, self.scene_objects, self.scene_child_counts = [], [], []
        if self.stray:  # (neither built nor indexed: a partner is never a stray copy)
            kept = self._without_stray(gathered)
            gathered = kept
            nodes, objects = [item[0] for item in kept], [item[1] for item in kept]
        # indexed first: a record looks up its node's place in the tree
        self.index.add_scene(export_settings.get("vtree"), nodes, objects)
        for node, obj, child_count in gathered:
            derived = known.get(obj) or settings_of(obj)  # (read in the tree hook: inline hit)
            if derived.joint or derived.vehicle or derived.props.gravity_type != "NONE":
                self._say_unplaced(obj, derived)
            if derived.joint:
                joints.append((obj, node))
            if derived.vehicle:
                vehicles.append((obj, node))
            if derived.body_or_shape:
                try:
                    record(node, obj, derived, child_count)
                except Exception as exc:
                    self.report.warn("export-failed", obj.name, f"physics skipped: {exc}")

    def _moved_back(self, value: tuple[float, float, float], offset: Any
                    ) -> tuple[float, float, float]:
        """A point of an instancer's own space in the frame of its node, which the exporter
        moves by its collection's Instance Offset (`NodeIndex.node_frame`)."""
        shift = axes.vector_to_gltf(tuple(offset), self.yup)
        return (value[0] + shift[0], value[1] + shift[1], value[2] + shift[2])

    def _say_unplaced(self, obj: bpy.types.Object, derived: _Derived) -> None:
        """For an object with a joint, vehicle data or a gravity volume: what is not written
        where it is in Blender, or not at all, is said."""
        if obj in self.index.offsets:
            self._say_instance_offset(obj, derived.props)
        if not derived.body_or_shape and derived.props.gravity_type != "NONE":
            say_gravity_without_record(obj, self.report)  # (a record's is said with it)

    def _say_instance_offset(self, obj: bpy.types.Object, props: Any) -> None:
        """Said, for an object with a joint, gravity volume, vehicle part or seat: the
        exporter writes a collection instancer's node moved by the collection's Instance
        Offset, and those are written at that node (its shape, centre of mass and seat
        points are moved back)."""
        moved = [name for name, on in (
            ("joint", props.joint_type != "NONE"), ("gravity volume", _carries_gravity(props)),
            (props.vehicle_part.lower().replace("_", " "), props.vehicle_part != "NONE"),
        ) if on]
        if not moved and not props.is_seat:
            return  # (a vehicle body: nothing of it is placed by the node)
        said = f"its collection {obj.instance_collection.name} has an Instance Offset: the " \
            "exporter moves this node by it"
        if moved:
            verb = "is" if len(moved) == 1 else "are"
            said += f", and the {' and the '.join(moved)} set on it {verb} written at the " \
                "moved node"
        if props.is_seat:
            said += ("; its seat's back, foot and knee points are moved back, so the seat stays "
                     "in place, but the seat's node is moved")
        self.report.warn("instance-offset-physics", obj.name, said + " (set the offset to "
                         "zero, or put that physics on an object in the collection)")

    def _without_stray(self, gathered: Any) -> list[tuple[Any, Any, int]]:
        """The gathered nodes but the exporter's stray dupli copies (`is_stray_dupli`), said
        once: their physics is written on the copy under their parent's."""
        stray = {id(vnode.node) for vnode in self.stray if vnode.node is not None}
        self.stray = []
        kept = [item for item in gathered if id(item[0]) not in stray]
        if stray:
            self.report.warn("dupli-written-twice", "",
                             f"the exporter writes {len(stray)} duplicated child(ren) of "
                             "children twice: the copies directly under the instancing parent "
                             "carry no physics, and the ones under a copy are placed as under "
                             "the original (away from any other vertex's copy, with their "
                             "physics): parent them to the instancing parent instead")
        return kept

    def _settings_of(self, obj: bpy.types.Object) -> _Derived:
        """The object's plain settings and what they make (shared by objects with equal
        settings); read once per object and export."""
        derived = self.object_settings.get(obj)
        if derived is None:
            props = self.snapshots.of(obj)
            if props.not_finite:  # (set by a script: the UI takes no NaN)
                self.report.warn("value-not-finite", obj.name,
                                 f"{', '.join(props.not_finite)} is not a finite number (set by "
                                 "a script?): written as its default where it is written")
            if props.is_vehicle and props.motion_type != "DYNAMIC":
                rule = rules.VEHICLE_NOT_DYNAMIC
                self.report.warn(rule.code, obj.name, rule.message(what=NOT_DYNAMIC_VEHICLE))
            derived = self.derived.get(id(props))  # equal settings: the same snapshot
            if derived is None:
                derived = self.derived[id(props)] = self._derived(props)
            self.object_settings[obj] = derived
        return derived

    def _derived(self, props: Any) -> _Derived:
        """What one set of settings makes; an error is kept and reported per object."""
        derived = _Derived(
            props=props, body_or_shape=has_body_or_shape(props), physics=_has_physics(props),
            joint=props.joint_type != "NONE", vehicle=has_vehicle_data(props),
            collision_only=props.collision_only, motion=None, needs_mass=False,
            trigger_only=_trigger_only(props))
        try:
            derived.motion = self._motion(props, self.yup)
            derived.needs_mass = derived.motion is not None \
                and self._needs_mass(derived.motion, props)
        except Exception as exc:  # reported for each object that has these settings
            derived.error = str(exc)
        return derived

    def gather_scene_hook(self, scene: Any, blender_scene: Any, export_settings: dict) -> None:
        """Strip leaked scene settings from extras (4.2/4.5); build the physics of the
        scene's nodes and index them."""
        if isinstance(scene.extras, dict):  # the settings, and the preview's tags
            _strip_own_extras(scene)
        if self.scene_nodes:
            self._build_scene(export_settings)

    def _record(self, node: Any, obj: bpy.types.Object, derived: _Derived,
                child_count: int) -> None:
        if derived.error is not None:
            raise RuntimeError(derived.error)
        props = derived.props
        motion = self._kind_written(derived.motion, obj, node)
        needs_mass = derived.needs_mass if motion is derived.motion \
            else motion is not None and self._needs_mass(motion, props)  # (another kind)
        offset = self.index.offsets.get(obj)
        if offset is not None and motion is not None and motion.center_of_mass is not None:
            moved = motion  # (a custom centre, in the frame of the node the exporter moved)
            motion = self._share(("moved", id(moved), tuple(offset)), lambda: replace(
                moved, center_of_mass=self._moved_back(moved.center_of_mass, offset)))
        placement, shape_node = self._placed_shape(node, obj, derived, child_count, offset)
        if needs_mass and self._mass().has_child_colliders(obj):
            # made of several objects: this body's own parts
            motion = self._resolved(motion, obj, placement)
            body, shape_part = self._made_parts(props, placement, motion, shape_node is node)
        else:
            body, shape_part = self._parts(derived, obj, placement, motion, shape_node is node,
                                           needs_mass)
        if self.libraries and props.use_filter and props.shape_type != "NONE":
            self._say_library_layers(obj)
        if node.skin is not None and props.shape_type != "NONE" and shape_node is node:
            self.report.warn("skinned-shape", obj.name, "a skinned mesh's node has no place of "
                             "its own in glTF (its skin's joints place its vertices), so its "
                             "shape is not where Blender shows it: put the shape on an object "
                             "parented to a bone")
        members: tuple[Any, ...] = ()
        if props.is_compound_trigger:
            members = compound_trigger_members(obj)
        turned = self._turned_back(node)
        if turned is not None:
            body = turned.body(body)
        self.shape_node_of[id(node)] = shape_node
        gravity = props.gravity_type != "NONE"
        self.records.append(_Record(obj, node, shape_node, body, shape_part, members, gravity))
        if derived.trigger_only and obj.parent is not None:  # (maybe the importer's child)
            self.trigger_children.append(self.records[-1])
        if gravity and may_carry_volume(obj, body):
            self._gravity_mesh(obj)  # built now: the meshes are parked before the encoding

    def _turned_back(self, node: Any) -> TurnedBack | None:
        """For a node the exporter turned (a camera's or light's), the object's frame in
        the node's; None for any other node."""
        turn = self.index.turn_of(node)
        return None if turn is None else TurnedBack(turn, self.yup)

    def _say_library_layers(self, obj: bpy.types.Object) -> None:
        """Said once per library: a linked (or overridden) object's collision filter ticks
        layers by number, and the numbers are read against this scene's layers, not those
        of the library's scene (which linking does not bring)."""
        library = obj.library
        if library is None and obj.override_library is not None:
            library = obj.override_library.reference.library
        if library is None:
            return
        names = ", ".join(self.layer_names) or "none"
        self.report.warn("filter-from-library", library.filepath,
                         "its objects' collision filters tick layers by number, read "
                         f"against this scene's layers ({names}), not the library scene's: "
                         "give this scene the library scene's layers, in the same order")

    def _kind_written(self, motion: Motion | None, obj: bpy.types.Object, node: Any
                      ) -> Motion | None:
        """`motion` with the kind the format writes it as (reported when it changes)."""
        if motion is None or motion.kind != "static":
            return motion  # only a static body can be written as another kind
        above = self._body_at(obj, node, above=True, as_written=True)
        moves_above = above is not None and above.gltf_physics.motion_type in (
            "DYNAMIC", "KINEMATIC")
        kind = kind_in_target(motion.kind, self.format, moves_above)
        if kind == motion.kind:
            return motion
        self.report.warn(STATIC_IN_MOVING_CODE, obj.name,
                         "a static body under a moving body is written as kinematic")
        return self._share(("kind", id(motion), kind), lambda: replace(motion, kind=kind))

    def _placed_shape(self, node: Any, obj: bpy.types.Object, derived: _Derived,
                      child_count: int, offset: Any) -> tuple[ShapePlacement | None, Any]:
        """The object's placed shape and the node carrying it (a new child for an offset,
        after the `child_count` children the node had when it was gathered); `offset`: the
        Instance Offset the exporter moves the object's node by (`NodeIndex.offsets`)."""
        if derived.props.shape_type == "NONE":
            return None, node
        placement = self._placement(node, obj, derived)
        if placement is None:
            self.report.warn("shape-mesh-missing", obj.name, "no collision mesh; shape skipped")
            return None, node
        if offset is not None:  # (the exporter wrote the node moved by the kit's offset)
            placement = replace(placement, translation=self._moved_back(
                placement.translation or ZERO3, offset))
        translation, rotation = placement.translation, placement.rotation
        turned = self._turned_back(node)
        if turned is not None:  # (a camera's or light's node: the shape turned back)
            translation = None if translation is None else turned.vector(translation)
            rotation = turned.quat(rotation)
        if translation is None and rotation is None:
            return placement, node
        shape_node = gltf_compat.new_child_node(f"{obj.name}.shape", translation, rotation)
        node.children.insert(child_count, shape_node)
        return placement, shape_node

    def _parts(self, derived: _Derived, obj: bpy.types.Object,
               placement: ShapePlacement | None, motion: Motion | None, same_node: bool,
               needs_mass: bool) -> tuple[NodePhysics, NodePhysics | None]:
        """`_made_parts`, for a body with only its own shape: equal settings, placement and
        motion make the same parts (and the same computed mass), built once. `needs_mass`
        (`_needs_mass`) follows from the settings and the motion; a locked rotation's
        moments follow the body's scale too."""
        scale = body_scale(obj, self.yup) if needs_mass and any(derived.props.lock_rotation) \
            else None
        key = (id(placement), id(motion), same_node, scale)  # both kept alive by the entry
        parts = derived.parts.get(key)
        if parts is None:
            resolved = motion
            if needs_mass and motion is not None:
                resolved = self._resolved(motion, obj, placement)
            made = self._made_parts(derived.props, placement, resolved, same_node)
            parts = derived.parts[key] = (*made, placement, motion)
        return parts[0], parts[1]

    def _made_parts(self, props: Any, placement: ShapePlacement | None,
                    motion: Motion | None, same_node: bool
                    ) -> tuple[NodePhysics, NodePhysics | None]:
        """The body's node physics, and its shape's when the shape has a node of its own."""
        shape_part = None if placement is None else self._shape_part(props, placement.shape)
        if same_node and shape_part is not None:
            return self._merged(motion, shape_part), None
        return self._merged(motion, None), shape_part

    # Objects with equal settings share their model parts: fewer objects to build and keep,
    # and the encoder writes each shared part once.

    def _share(self, key: Hashable, make: Callable[[], Any]) -> Any:
        if key not in self.shared:
            self.shared[key] = make()
        return self.shared[key]

    def _motion(self, props: Any, yup: bool) -> Motion | None:
        key = ("motion", yup, MOTION_KEY(props))
        return self._share(key, lambda: motion_of(props, yup))

    def _needs_mass(self, motion: Motion, props: Any) -> bool:
        """True when the format cannot leave the body's centre of mass or inertia to the
        engine (mass_properties.centre_in_target's cases, and OMI's lock about every axis)."""
        centre, inertia = motion.center_of_mass, motion.inertia_diagonal
        if self.format == "OMI" and inertia is not None and all(map(math.isinf, inertia)):
            return True  # locked about every axis: OMI writes the colliders' moments, scaled
        if not rules.has_simulated_centre(motion.kind) and inertia is None \
                and not any(props.lock_rotation):
            return False  # (a static body: nothing to compute)
        return not ((centre is not None if self.format == "OMI" else centre != ZERO3)
                    and (inertia is not None or not any(props.lock_rotation)))

    def _mass(self) -> BodyMass:
        if self.body_mass is None:
            self.body_mass = BodyMass(self.yup, self.report, self.index, self.kept_objects)
        return self.body_mass

    def _resolved(self, motion: Motion, obj: bpy.types.Object, own: Any) -> Motion:
        """The motion with what the format cannot leave to the engine computed (shared)."""
        resolved = self._mass().resolve(motion, obj, self.format, own)
        if resolved is motion:
            return motion
        key = ("resolved", id(motion), resolved.center_of_mass, resolved.inertia_diagonal)
        return self._share(key, lambda: resolved)

    def _shape_part(self, props: Any, shape: Any) -> NodePhysics:
        layers = self.layer_names if props.use_filter else None
        key = ("shape-part", shape, SHAPE_PART_KEY(props), layers)

        def make() -> NodePhysics:
            flt = filter_of(props, self.layer_names, self.filter_names)
            if props.use_filter:
                self._say_missing_layers(props)
            if props.use_filter and props.filter_mode == "ONLY" and flt is not None \
                    and not flt.collide_with_systems:
                self.report.warn("filter-only-none", "", "a collision filter's 'Collides Only "
                                 "With' ticks no layer of the scene: written as colliding with "
                                 "every layer (Check Physics names the objects)")
            if props.shape_role == "TRIGGER":
                return NodePhysics(trigger=Trigger(shape=shape, filter=flt))
            return NodePhysics(collider=Collider(shape=shape, material=material_of(props),
                                                 filter=flt))
        return self._share(key, make)

    def _say_missing_layers(self, props: Any) -> None:
        """Said: a filter ticks layers (by number) the scene being written does not have (a
        second scene with fewer layers, a script's ticks); the file's filter leaves them
        out."""
        ticks = [props.filter_layers] + ([props.filter_targets]
                                         if props.filter_mode in ("ONLY", "EXCEPT") else [])
        have = len(self.layer_names)
        missing = sorted({number + 1 for bits in ticks for number, on in enumerate(bits)
                          if on and number >= have})
        if missing:
            self.report.warn(
                "filter-layer-missing", "",
                f"a collision filter ticks layer {', '.join(map(str, missing))}, which scene "
                f"{self.layer_scene} does not have (it has {have}): left out of the "
                "filter written for it (give the scene those layers, or untick them)")

    def _merged(self, motion: Motion | None, shape_part: NodePhysics | None) -> NodePhysics:
        key = ("body", id(motion), id(shape_part))  # both shared, or kept alive by the value
        return self._share(key, lambda: NodePhysics(
            motion, shape_part and shape_part.collider, shape_part and shape_part.trigger))

    def _placement(self, node: Any, obj: bpy.types.Object, derived: _Derived
                   ) -> ShapePlacement | None:
        """The object's placed shape (shared by objects whose shape comes out the same)."""
        props = derived.props
        if props.shape_type not in MESH_SHAPE_ITEMS:
            if props.size_mode != "CUSTOM":  # fitted to the object's geometry
                return placement_of(obj, None, self.yup, self.bounds, props)
            if derived.custom_placement is None:  # the settings alone place a custom shape
                derived.custom_placement = placement_of(obj, None, self.yup, None, props)
            return derived.custom_placement
        mesh = self._mesh_ref(node, obj, props, self.yup)
        if mesh is None:
            return None
        key = (props.shape_type, id(mesh), props.shape_name)  # (the export keeps mesh alive)
        if key not in self.placements:
            self.placements[key] = placement_of(obj, mesh, self.yup, None, props)
        return self.placements[key]

    def _mesh_ref(self, node: Any, obj: bpy.types.Object, props: Any, yup: bool) -> Any:
        """The glTF mesh object a convex/trimesh shape uses (None for analytic shapes)."""
        if props.shape_type not in MESH_SHAPE_ITEMS:
            return None
        if _uses_own_mesh(props) and node.mesh is not None and not props.collision_only \
                and written_evaluated(obj, self.applies_modifiers) \
                and not (self.writes_loose and _has_loose_parts(obj)):
            return node.mesh  # the visible mesh: no duplicate geometry in the file
        # (without Apply Modifiers the visible mesh is the bare one: the shape is evaluated)
        source = obj if props.mesh_source == "SELF" else obj.gltf_physics.mesh_object
        if source is None or source.type not in MESH_LIKE_TYPES:  # (a curve's is made)
            return None
        return self._built_mesh(source, obj, yup)

    def _gravity_mesh(self, obj: bpy.types.Object) -> Any:
        """The glTF mesh of the convex/trimesh shape the object's shaped gravity pulls
        towards (built once; None for other volumes and in KHR, which has no gravity)."""
        source = shape_mesh_object(obj)
        if source is None or self.format != "OMI":
            return None
        return self._built_mesh(source, obj, self.yup)

    def _built_mesh(self, source: bpy.types.Object, obj: bpy.types.Object, yup: bool) -> Any:
        """`source`'s evaluated geometry in `obj`'s space as a glTF mesh (one per pair, or
        per unmodified mesh and place: `same_meshes`); when no exported scene evaluates it,
        its own mesh, said once per object when that loses its modifiers or shape keys."""
        key = (source.as_pointer(), obj.as_pointer())
        if key not in self.built_meshes:
            to_target = obj.matrix_world.inverted_safe() @ source.matrix_world
            same = None if source.type != "MESH" or loses_evaluation(source) else (
                source.data.as_pointer(),
                tuple(round(value, 6) + 0.0 for row in to_target for value in row))
            if same is not None and same in self.same_meshes:  # (a mesh met in this place)
                self.built_meshes[key] = self.same_meshes[same]
                return self.built_meshes[key]
            depsgraph = self.evaluated.reading(source)
            if depsgraph is None:
                depsgraph = bpy.context.evaluated_depsgraph_get()
                if loses_evaluation(source):
                    self.report.warn(
                        "mesh-object-not-evaluated", obj.name,
                        f"its mesh {source.name} is not evaluated in any exported scene (it "
                        "is in none, or excluded or disabled in viewports there, or its scene "
                        "was not shown since the file was opened): its own mesh is written, "
                        f"without its modifiers and shape keys (link {source.name} into "
                        f"{obj.name}'s scene)")
            name = source.name if source.name.endswith(COLLISION_SUFFIX) \
                else source.name + COLLISION_SUFFIX  # (an import's proxy is so named)
            self.built_meshes[key] = gltf_mesh_from_object(name, source, depsgraph,
                                                           to_target, yup)
            if same is not None:
                self.same_meshes[same] = self.built_meshes[key]
        return self.built_meshes[key]

    # -- document hooks -------------------------------------------------------------------

    def gather_gltf_hook(
        self, active_scene_idx: Any, scenes: list, animations: Any, export_settings: dict
    ) -> None:
        """Add joint frame nodes; park the collision meshes (and orphan mesh nodes) where the
        traversal writes them."""
        if self.scene_nodes:  # a scene the exporter gathered without its scene hook
            self._build_scene(export_settings)
        if self.index.unflattened:
            self._report_flattened()
        else:
            self._report_filtered()
        if self.trigger_children:
            self._merge_trigger_children()
        for obj, node in self.joint_objects:
            try:
                self._resolve_joint(obj, node, export_settings["gltf_yup"])
            except Exception as exc:  # one bad joint never drops the others
                self.report.warn("export-failed", obj.name, f"joint skipped: {exc}")
        meshes = list({id(m): m for m in self.built_meshes.values() if m is not None}.values())
        if self.format == "KHR" and self.geometry_form == "node":
            self.mesh_nodes = {
                id(m): gltf_compat.new_mesh_node(f"{m.name}.physicsMesh", m)
                for m in self._mesh_refs()
            }
            parked: dict[str, list] = {"nodes": list(self.mesh_nodes.values())}
        else:
            parked = {"meshes": meshes}
        if not scenes or not any(parked.values()):
            return
        scene = scenes[active_scene_idx or 0]
        scene.extensions = scene.extensions or {}
        scene.extensions[PENDING_KEY] = parked

    def _merge_trigger_children(self) -> None:
        """The importer's trigger children back on their parents' nodes (`trigger_merge`),
        before joint frames are added and the traversal indexes the nodes."""
        referenced = {member for record in self.records for member in record.trigger_members}
        for obj, _node in self.joint_objects:
            props = obj.gltf_physics
            referenced.update((props.joint_attachment, props.joint_connected_body))
        merged = merge_trigger_children(self.trigger_children, self.records, referenced)
        self.trigger_children = []
        if merged:
            self.records = [record for record in self.records if id(record) not in merged]

    def _report_flattened(self) -> None:
        """Said once: the exporter's "Flatten Object Hierarchy" writes every object at the
        root, so physics that belongs to the body or trigger above it (a compound body's
        collider, a wheel, a trigger's member) is written without it. (A joint goes on a
        node of its own under its body: `JointExport._exported_under` reads the file's
        tree.)"""
        known = self.object_settings

        def under_physics(obj: bpy.types.Object) -> bool:
            above = obj.parent
            while above is not None:
                derived = known.get(above)
                if derived is not None and (derived.physics or derived.vehicle
                                            or derived.props.is_compound_trigger):
                    return True
                above = above.parent
            return False

        lost = {obj for obj in [r.obj for r in self.records]
                + [obj for obj, _node in self.vehicle_objects] if under_physics(obj)}
        if lost:
            first = min(obj.name for obj in lost)
            self.report.warn(
                "flattened-hierarchy", "",
                f"Flatten Object Hierarchy writes every object at the root: {len(lost)} "
                f"object(s) ({first}…) lose the body, vehicle or trigger above them; turn "
                "the option off to keep them")

    def _report_filtered(self) -> None:
        """Said once: the export's object filter (selection, visible or renderable objects,
        a collection) writes a collider, trigger or vehicle part without the body, vehicle or
        compound trigger above it in Blender (a part alone is a static collider), or such an
        owner without some of its parts or joints."""
        kept = self.kept_objects
        if kept is None:
            return  # (the export writes every object: the usual one)
        children = children_map()
        written = dict.fromkeys([record.obj for record in self.records]
                                + [obj for obj, _node in self.vehicle_objects])
        cut: dict[str, str] = {}  # part → its owner left out, or owner → its parts left out
        for obj in written:
            owner = self._owner_above(obj)
            if owner is not None and owner not in kept:
                cut[obj.name] = f"{obj.name} without {owner.name}"
        for owner in [obj for obj in written if self._owns(obj)]:
            left = sorted(part.name for part in self._parts_below(owner, children)
                          if part not in kept)
            if left:
                cut[owner.name] = f"{owner.name} without {', '.join(left[:3])}" + (
                    f" and {len(left) - 3} more" if len(left) > 3 else "")
        if cut:
            said = [cut[name] for name in sorted(cut)]
            self.report.warn(
                "filtered-hierarchy", "",
                f"the export's object filter (selection, visible or renderable objects, or a "
                f"collection) writes {len(said)} object(s) apart from the physics that goes "
                f"with them: {'; '.join(said[:3])}"
                + (f"; and {len(said) - 3} more" if len(said) > 3 else "")
                + " (a collider without its body is a static one, a body without its "
                "colliders or joints has none of them); export them together")

    def _owns(self, obj: bpy.types.Object) -> bool:
        """A body, vehicle or compound trigger: what the parts below it in Blender belong to."""
        props = self._settings_of(obj).props
        return props.motion_type != "NONE" or props.is_vehicle or props.is_compound_trigger

    def _is_part(self, obj: bpy.types.Object) -> bool:
        """A collider, trigger or vehicle part without a motion of its own."""
        props = self._settings_of(obj).props
        return props.motion_type == "NONE" and (
            props.shape_type != "NONE" or props.vehicle_part != "NONE" or props.is_seat)

    def _owner_above(self, obj: bpy.types.Object) -> bpy.types.Object | None:
        """The nearest body, vehicle or compound trigger above part `obj` in Blender."""
        if not self._is_part(obj):
            return None
        above = obj.parent
        while above is not None and not self._owns(above):
            above = above.parent
        return above

    def _parts_below(self, owner: bpy.types.Object,
                     children: dict[bpy.types.Object, list[bpy.types.Object]]
                     ) -> list[bpy.types.Object]:
        """The parts (and joints) below `owner` in Blender, up to other owners."""
        found, pending = [], list(children.get(owner, ()))
        for obj in pending:  # (grows while walked)
            if self._owns(obj):
                continue
            if self._is_part(obj) or self._settings_of(obj).joint:
                found.append(obj)  # (a joint left out joins nothing)
            pending.extend(children.get(obj, ()))
        return found

    def _mesh_refs(self) -> list[Any]:
        refs: dict[int, Any] = {}
        for record in self.records:
            for part in (record.body, record.shape_part):
                for holder in (part and part.collider, part and part.trigger):
                    mesh = holder.shape.mesh if holder and holder.shape else None
                    if mesh is not None:
                        refs[id(mesh)] = mesh
        return list(refs.values())

    def gather_gltf_extensions_hook(self, gltf: Any, export_settings: dict) -> None:
        """Encode the physics with final node and mesh indices and attach it (and strip the
        tools' tags from mesh extras: a hull proxy's or a part's mesh is tagged too)."""
        if export_settings.get("gltf_extras"):
            for mesh in gltf.meshes or []:
                if isinstance(mesh.extras, dict):
                    _strip_own_extras(mesh)
        for scene in gltf.scenes or []:
            if scene.extensions and PENDING_KEY in scene.extensions:
                del scene.extensions[PENDING_KEY]
                scene.extensions = scene.extensions or None
        if self.format == "NONE" or not (self.records or self.joints or self.vehicle_objects
                                         or has_world_gravity(self.exported_scenes)):
            self._log(export_settings)
            return
        node_index = {id(n): i for i, n in enumerate(gltf.nodes or [])}
        mesh_index = {id(m): i for i, m in enumerate(gltf.meshes or [])}
        if export_settings.get("gltf_gpu_instances"):
            self._say_gpu_instanced(node_index)
        issues_before = len(self.report.issues)
        non_finite = non_finite_seen()
        encoded = self._encode(node_index, mesh_index)
        if non_finite_seen() != non_finite:  # (every number written goes through `canon`)
            self._leave_out_non_finite(encoded)
        if len(self.report.issues) > issues_before:
            self._name_nodes(issues_before, gltf.nodes or [])
        self._attach(gltf, encoded, node_index)
        self._log(export_settings)

    def _say_gpu_instanced(self, node_index: dict[int, int]) -> None:
        """The exporter's GPU Instances option merges a parent's children that share a mesh
        into one EXT_mesh_gpu_instancing node after every hook saw them: their physics has
        no node left (said once)."""
        merged = sorted({record.obj.name for record in self.records
                         if id(record.node) not in node_index})
        if merged:
            self.report.warn("gpu-instanced-physics", "",
                             f"the glTF exporter's GPU Instances option merged "
                             f"{listing(merged, 3)} into instanced meshes, which carry no "
                             "physics: their physics is not written (turn GPU Instances off)")

    def _encode(self, node_index: dict[int, int], mesh_index: dict[int, int]) -> Encoded:
        scene = PhysicsScene()
        for record in self.records:
            body = record.body
            if record.trigger_members and not self.index.unflattened:  # (else no member
                # is under the trigger's node in the file)
                members = tuple(
                    self.shape_node_of[id(node)] for member in record.trigger_members
                    for node in self._member_nodes(member, record.node)
                    if id(node) in self.shape_node_of
                )
                body = NodePhysics(body.motion, body.collider, Trigger(nodes=members))
            scene.nodes[record.node] = body
            if record.shape_part is not None:
                scene.nodes[record.shape_node] = record.shape_part
        for frame, joint in self.joints:
            scene.nodes[frame] = replace(scene.nodes.get(frame, NodePhysics()), joint=joint)

        def resolve_node(ref: Any) -> int | None:
            return node_index.get(id(ref))

        def resolve_mesh(ref: Any) -> int | None:
            return mesh_index.get(id(ref))

        mesh_nodes = self.mesh_nodes
        # OMI_physics_gravity (io/blender/gravity/export.py): volumes on their trigger nodes
        gravity = export_gravity(self.records, scene, self.yup, self.report,
                                 self._gravity_mesh, self.exported_scenes,
                                 written=self.format == "OMI",
                                 turned=self._turned_back)
        return encode_document(
            scene, self._vehicles(), self.format, resolve_node, resolve_mesh, self.report,
            khr_geometry=self.geometry_form, godot_capsules=self.legacy_round,
            resolve_mesh_node=lambda ref: resolve_node(mesh_nodes.get(id(ref))),
            gravity=gravity,
        )

    def _member_nodes(self, member: bpy.types.Object, trigger: Any) -> list[Any]:
        """The nodes of a compound trigger's member at its `trigger` node: in the trigger's
        instance (or one around it), else every copy made under it (the trigger on an
        instancing parent, its member duplicated at each vertex or face)."""
        node = self.index.node_of(member, trigger)
        return [node] if node is not None else self.index.nodes_below(member, trigger)

    def _leave_out_non_finite(self, encoded: Encoded) -> None:
        """The last guard against a NaN or infinity (a script's, in a value read live): a
        node's extension JSON cannot hold is left out; one in a root array becomes 0. Said,
        so the export never fails (Blender's exporter raises on a NaN)."""
        finite: dict[int, bool] = {}  # payload id → (the nodes share their payloads)
        for ref, payloads in encoded.nodes.items():
            for name, payload in list(payloads.items()):
                ok = finite.get(id(payload))
                if ok is None:
                    ok = finite[id(payload)] = _json_finite(payload)
                if not ok:
                    del payloads[name]
                    self.report.warn("value-not-finite", getattr(ref, "name", str(ref)),
                                     f"{name} left out: a value is not a finite number")
        for name, payload in encoded.root.items():
            if not _json_finite(payload):
                encoded.root[name] = _zero_non_finite(payload)
                self.report.warn("value-not-finite", "", f"{name}: a value that is not a "
                                 "finite number was written as 0")

    def _name_nodes(self, start: int, nodes: list[Any]) -> None:
        """Issues the codecs located at a node object name the node instead."""
        labels = {f"node {node}": f"node {node.name or index}" for index, node in enumerate(nodes)}
        self.report.issues[start:] = [
            replace(issue, where=labels.get(issue.where, issue.where))
            for issue in self.report.issues[start:]
        ]

    def _vehicles(self) -> VehicleScene:
        """Vehicle parts and seats of the exported objects."""
        vehicles = VehicleScene()
        offsets = self.index.offsets
        for obj, node in self.vehicle_objects:
            made = vehicle_node_of(
                obj, self.yup, lambda seat, near=node, car=obj: self._seat_node(car, seat, near),
                self._settings_of(obj).props)
            if made.seat is not None and offsets and obj in offsets:  # (said: _say_unplaced)
                shift = self._moved_back
                seat, offset = made.seat, offsets[obj]
                made = replace(made, seat=replace(
                    seat, back=shift(seat.back, offset), foot=shift(seat.foot, offset),
                    knee=shift(seat.knee, offset)))
            turned = self._turned_back(node)
            if turned is not None:  # (a camera's or light's node: its values turned back)
                made = turned.vehicle(made)
                self._say_turned_axes(obj, made)
            vehicles.nodes[node] = made
        if not self.yup and any(node.vehicle_body or node.wheel or node.thruster
                                or node.hover_thruster for node in vehicles.nodes.values()):
            self.report.warn("vehicle-z-up", "", "+Y Up is off: OMI's vehicles, wheels and "
                             "thrusters drive along their nodes' +Z, which in this file is "
                             "Blender's up (export with +Y Up on)")
        return vehicles

    def _say_turned_axes(self, obj: bpy.types.Object, made: VehicleNode) -> None:
        """A wheel or thruster is its node's axes (a wheel rolls forward along +Z, a thruster
        pushes along +Z), which no value can turn back: said on a turned node."""
        for part, name in ((made.wheel, "wheel"), (made.thruster, "thruster"),
                           (made.hover_thruster, "hover thruster")):
            if part is not None:
                self.report.warn("vehicle-part-turned", obj.name,
                                 f"its {name} is written on its camera's or light's node, which "
                                 "the glTF exporter turns a quarter turn: its axes turn with it "
                                 "(put the part on a child Empty)")

    def _seat_node(self, car: bpy.types.Object, seat: bpy.types.Object, near: Any) -> Any:
        """The node of the pilot seat of vehicle `car` (at node `near`): in the one instance
        under the car that has it (a seat in the kit the car instances, or in a kit instanced
        in the car's: the car's own, though the kit is also written elsewhere), else in the
        car's scope or one around it; None, said, when there is none."""
        node = self.index.node_below(seat, near)
        if node is None:
            node = self.index.node_of(seat, near)
        if node is None:
            self.report.warn(
                "pilot-seat-unresolved", car.name,
                f"its pilot seat {seat.name} is not exported with it (not in this scene or "
                "the export's selection, or in several instances under it): written without "
                "a pilot seat")
        return node

    def _attach(self, gltf: Any, encoded: Encoded, node_index: dict[int, int]) -> None:
        for ref, payload in encoded.nodes.items():
            index = node_index.get(id(ref))
            if index is None:
                continue  # filtered out of this export (selection, instancing)
            node = gltf.nodes[index]
            node.extensions = node.extensions or {}
            for name, value in payload.items():
                if name in node.extensions:
                    self.report.warn("overwritten", node.name or str(index), f"replaced {name}")
                node.extensions[name] = value
        gltf.extensions = gltf.extensions or {}
        gltf.extensions.update(encoded.root)
        used = gltf.extensions_used if gltf.extensions_used is not None else []
        used.extend(name for name in encoded.used() if name not in used)
        gltf.extensions_used = used

    def _log(self, export_settings: dict) -> None:
        log = export_settings.get("log")
        for issue in self.report.listed():
            if log is not None:
                log.warning(f"gltf_physics: {issue} [{issue.code}]")
        summary = self.report.summary()
        if summary and log is not None:
            log.warning(f"gltf_physics: {summary}", popup=True)
