# SPDX-License-Identifier: GPL-3.0-or-later
"""Joint operators: add a joint between bodies, edit a preset as custom, list editing."""

import bpy

from ..io.blender.bridge.joint_bridge import preset_of, settings_of, write_custom
from ..io.blender.tools.editable import poll_refusal, refuse, removal_problem
from ..io.blender.tools.ownership import JOINT, link_like, mark
from .context_checks import has_scene, in_view_layer, select_only

PRESET_ITEMS = [
    (key, label, tip) for key, label, tip in (
        ("FIXED", "Fixed", "Weld the bodies together"),
        ("PIN", "Pin", "Ball and socket"),
        ("HINGE", "Hinge", "Rotate about the joint's Z axis"),
        ("SLIDER", "Slider", "Slide along the joint's Z axis"),
        ("CONE_TWIST", "Cone Twist", "Swing within a cone about the joint's Z axis"),
        ("CUSTOM", "Custom", "Start from an empty list of limits"),
    )
]


def _is_body(obj: bpy.types.Object) -> bool:
    return obj.gltf_physics.motion_type != "NONE"


class GLTF_PHYSICS_OT_joint_add(bpy.types.Operator):
    """Join each selected body to the active body with a new joint Empty, parented under the selected body and placed at the active body's origin or the 3D cursor"""

    bl_idname = "gltf_physics.joint_add"
    bl_label = "Add Joint Between Selected Bodies"
    bl_options = {"REGISTER", "UNDO"}

    joint_type: bpy.props.EnumProperty(
        name="Type", description="Joint preset", items=PRESET_ITEMS, default="HINGE",
    )
    placement: bpy.props.EnumProperty(
        name="Place At", description="Where the joint frame starts",
        items=(("ACTIVE", "Active Body", "At the active (connected) body's origin"),
               ("CURSOR", "3D Cursor", "At the 3D cursor")),
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        active = context.active_object
        if active is None or not _is_body(active):
            cls.poll_message_set("The active object must be a glTF physics body")
            return False
        if not any(_is_body(o) and o != active for o in context.selected_objects):
            cls.poll_message_set("Select another body besides the active one")
            return False
        return has_scene(cls, context)

    def execute(self, context: bpy.types.Context) -> set[str]:
        active = context.active_object
        bodies = [o for o in context.selected_objects if _is_body(o) and o != active]
        # Only the new joints change (in editable collections): linked bodies are fine.
        hidden = [o.name for o in (active, *bodies) if not in_view_layer(context, o)]
        if hidden:
            self.report({"ERROR"}, "Not in this view layer (an excluded collection or another "
                        "scene), where the joints could be shown and selected: "
                        f"{', '.join(hidden)}; nothing was changed")
            return {"CANCELLED"}
        location = (
            context.scene.cursor.location.copy() if self.placement == "CURSOR"
            else active.matrix_world.translation.copy()
        )
        made = [self._joint(context, body, active, location) for body in bodies]
        select_only(context, made, active=made[-1])
        self.report({"INFO"}, f"Added {len(made)} joint(s) to {active.name}")
        return {"FINISHED"}

    def _joint(self, context, body, connected, location) -> bpy.types.Object:
        joint = bpy.data.objects.new(f"{body.name}.joint", None)
        link_like(joint, body, context.scene)
        mark(joint, JOINT, body)
        joint.empty_display_type = "ARROWS"
        joint.empty_display_size = 0.25
        joint.parent = body
        joint.matrix_parent_inverse = body.matrix_world.inverted_safe()
        joint.location = location
        props = joint.gltf_physics
        props.joint_type = self.joint_type
        props.joint_connected_body = connected
        return joint


class GLTF_PHYSICS_OT_joint_to_custom(bpy.types.Operator):
    """Turn the joint's preset into an editable list of custom limits (its drives are kept)"""

    bl_idname = "gltf_physics.joint_to_custom"
    bl_label = "Edit as Custom"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        if obj is None or preset_of(obj.gltf_physics) is None:
            cls.poll_message_set("The active object must be a joint using a preset (not Custom)")
            return False
        return poll_refusal(cls, [obj])

    def execute(self, context: bpy.types.Context) -> set[str]:
        obj = context.object
        if refuse(self, [obj]):
            return {"CANCELLED"}
        # the limits are written afresh (the drives are kept): a library override cannot
        # remove its library's limits
        problem = removal_problem(obj, lambda ref: ref.gltf_physics.joint_limits, 0, "Limit 1")
        if problem:
            self.report({"ERROR"}, f"{problem}, so the limits cannot be written afresh; "
                        "nothing was changed")
            return {"CANCELLED"}
        props = obj.gltf_physics
        write_custom(props, settings_of(props).limits)  # as read from a file when unedited
        return {"FINISHED"}


class _JointListEdit:
    bl_options = {"REGISTER", "UNDO"}

    items: bpy.props.EnumProperty(
        name="List", description="The joint's list to edit",
        items=(("LIMITS", "Limits", "The joint's limits"),
               ("DRIVES", "Drives", "The joint's drives")),
    )

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        if obj is None or obj.gltf_physics.joint_type == "NONE":
            cls.poll_message_set("The active object must be a joint")
            return False
        return poll_refusal(cls, [obj])

    def _collection(self, props):
        if self.items == "LIMITS":
            return props.joint_limits, "joint_active_limit"
        return props.joint_drives, "joint_active_drive"


class GLTF_PHYSICS_OT_joint_item_add(_JointListEdit, bpy.types.Operator):
    """Add a limit or drive to the joint"""

    bl_idname = "gltf_physics.joint_item_add"
    bl_label = "Add"

    def execute(self, context: bpy.types.Context) -> set[str]:
        props = context.object.gltf_physics
        collection, active = self._collection(props)
        collection.add()
        setattr(props, active, len(collection) - 1)
        return {"FINISHED"}


class GLTF_PHYSICS_OT_joint_item_remove(_JointListEdit, bpy.types.Operator):
    """Remove the selected limit or drive"""

    bl_idname = "gltf_physics.joint_item_remove"
    bl_label = "Remove"

    def execute(self, context: bpy.types.Context) -> set[str]:
        props = context.object.gltf_physics
        collection, active = self._collection(props)
        index = getattr(props, active)
        name = "limits" if self.items == "LIMITS" else "drives"
        if not 0 <= index < len(collection):
            self.report({"ERROR"}, f"No {name[:-1]} is selected; nothing was changed")
            return {"CANCELLED"}
        problem = removal_problem(
            context.object, lambda ref: getattr(ref.gltf_physics, f"joint_{name}"), index,
            f"{name[:-1].capitalize()} {index + 1}")
        if problem:
            self.report({"ERROR"}, problem)
            return {"CANCELLED"}
        collection.remove(index)
        setattr(props, active, max(0, min(index, len(collection) - 1)))
        return {"FINISHED"}


CLASSES = (
    GLTF_PHYSICS_OT_joint_add,
    GLTF_PHYSICS_OT_joint_to_custom,
    GLTF_PHYSICS_OT_joint_item_add,
    GLTF_PHYSICS_OT_joint_item_remove,
)
