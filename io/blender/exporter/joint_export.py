# SPDX-License-Identifier: GPL-3.0-or-later
"""Export of joints: checking both sides and placing the joint and its connected frame."""

from dataclasses import replace
from typing import Any

import bpy

from ... import axes
from ...joints import settings_to_gltf
from ...model import Joint, JointSettings
from ...structure import joint_needs_own_node
from .. import gltf_compat
from ..bridge.joint_bridge import body_of, bone_body, settings_of


def has_body_or_shape(props: Any) -> bool:
    return props.motion_type != "NONE" or props.shape_type != "NONE" or props.is_compound_trigger


def _carries_content(node: Any) -> bool:
    """A node with a mesh, camera, skin or an extension (a light): OMI wants a joint on a
    node of its own, not on such a node."""
    return node.mesh is not None or node.camera is not None or node.skin is not None \
        or bool(node.extensions)


def near_identity(values: tuple[float, ...], identity: tuple[float, ...]) -> bool:
    return all(abs(v - i) < 1e-6 for v, i in zip(values, identity, strict=True))


class JointExport:
    """The joint part of the export extension (uses its `index`, `on_bones`, `joints`,
    `joint_settings`, `object_settings`, `format` and `report`).

    A joint is resolved per exported node of its object: its bodies and connected frame are
    the nodes of the same scene and instance (`NodeIndex.node_of`), and the connected frame
    is placed from that instance's world matrices."""

    def _resolve_joint(self, obj: bpy.types.Object, node: Any, yup: bool) -> None:
        """Check a joint's two sides and record it on its frame node (reported when skipped)."""
        live = obj.gltf_physics
        derived = self.object_settings.get(obj)
        props = live if derived is None else derived.props  # plain values, read once
        body_a = self._body_at(obj, node)
        attachment = live.joint_attachment
        body_b = live.joint_connected_body if attachment is None \
            else self._body_at(attachment, self.index.node_of(attachment, node))
        problem = "; ".join(filter(None, (
            self._body_left_out(obj, node, body_a),
            self._body_left_out(attachment, node, body_b)))) \
            or self._joint_problem(obj, node, body_a, body_b)
        if problem is not None:
            self.report.warn("joint-skipped", obj.name, problem)
            return
        # (without listed limits or drives, equal settings make the same joint: made once)
        key = None if derived is None or live.joint_limits or live.joint_drives \
            else (id(props), yup)
        made = None if key is None else self.joint_settings.get(key)
        if made is None:
            made = self._joint_settings(props, live, yup)
            if key is not None:
                self.joint_settings[key] = made
        settings, problem, flipped = made
        if flipped:
            self.report.warn("limit-reversed", obj.name, f"{flipped} limit(s) with min above "
                             "max: written swapped")
        if settings is None:
            self.report.warn("joint-skipped", obj.name, problem)
            return
        if attachment is not None:
            connected = self.index.node_of(attachment, node)
            if body_b is not None and not self._exported_under(attachment, connected, body_b):
                # (Flatten Object Hierarchy wrote it away from its body: a frame in its
                # place under the body, as the file has nothing else to join)
                connected = self._attachment_node(attachment, connected, body_b, yup)
            elif self.index.turn_of(connected) is not None:
                connected = self._own_frame(attachment, connected, "connected", yup)
        else:
            connected = self._attachment_node(obj, node, body_b, yup)
        frame = node
        if body_a is not None and not self._exported_under(obj, node, body_a):
            # e.g. a joint Empty on a bone whose body is a separate bone child: a joint
            # belongs to the body above its node, so it goes on a node under body A
            frame = self._attachment_node(obj, node, body_a, yup, "joint")
        elif self.index.turn_of(node) is not None or joint_needs_own_node(
                self.format, not has_body_or_shape(props) and not _carries_content(node)):
            frame = self._own_frame(obj, node, "joint", yup)
        joint = Joint(settings, connected, props.joint_enable_collision)
        self.joints.append((frame, joint))

    def _body_at(self, obj: bpy.types.Object, node: Any, above: bool = False,
                 as_written: bool = False) -> bpy.types.Object | None:
        """The body at `obj`'s `node` (`above`: strictly above it) or nearest above: up the
        export tree (`NodeIndex.parent_vnode`), so an instancer with a body counts for the
        objects of the collection it instances (Blender's parenting where the tree does not
        list the node)."""
        index = self.index
        vnode = None if node is None else index.vnode_of(node)
        if vnode is None:
            return body_of(obj.parent if above else obj)
        if not above and obj.gltf_physics.motion_type != "NONE":
            return obj
        if above or vnode.blender_bone is None:  # (a bone's node: its stand-in's body)
            vnode = index.parent_vnode(vnode, as_written)
        while vnode is not None:
            source = vnode.blender_object
            if vnode.keep_tag and isinstance(source, bpy.types.Object):
                if vnode.blender_bone is not None:
                    body = bone_body(source, vnode.blender_bone.name)
                    if body is not None:
                        return body
                elif source.gltf_physics.motion_type != "NONE":
                    return source
            vnode = index.parent_vnode(vnode, as_written)
        return None

    def _body_left_out(self, obj: bpy.types.Object | None, node: Any, found: Any
                       ) -> str | None:
        """Why the joint is skipped when the export's filter left out the body above `obj`
        in Blender (the export's tree then finds none: the side would be written anchored
        to the world); None when it did not, or when `found` is that side's body."""
        if obj is None or found is not None:
            return None
        body = body_of(obj)
        if body is None or self.index.node_of(body, node) is not None:
            return None
        return self._left_out(node, body)

    def _left_out(self, node: Any, body: bpy.types.Object) -> str:
        """Why the joint at `node` is skipped: `body` is not written with it (only in another
        exported scene, said so: the file has it, away from the joint's scene)."""
        scene = self.index.scene_of(node)
        elsewhere = [other.name for other in body.users_scene
                     if other in self.exported_scenes and other != scene]
        where = f" in {scene.name} (only in {elsewhere[0]})" if scene and elsewhere else ""
        return f"the body {body.name} is not exported{where}"

    def _own_frame(self, obj: bpy.types.Object, node: Any, suffix: str, yup: bool) -> Any:
        """A new child of `node` at `obj`'s own frame there: the node's, turned back where
        the exporter turned it (a camera's or light's: `NodeIndex.turn_of`). OMI wants a
        joint on a node of its own."""
        turn = self.index.turn_of(node)
        rotation = None if turn is None else axes.quat_to_gltf(tuple(turn.inverted()), yup)
        frame = gltf_compat.new_child_node(f"{obj.name}.{suffix}", None, rotation)
        node.children.append(frame)
        return frame

    @staticmethod
    def _joint_settings(props: Any, live: Any, yup: bool
                        ) -> tuple[JointSettings | None, str | None, int]:
        """The joint's settings in glTF axes, or None and why it is skipped; and how many
        limits were written swapped (a min above its max: the spec wants min ≤ max, and a
        reader takes them swapped)."""
        blender_settings = settings_of(props, live)
        if not blender_settings.finite():
            return None, "a limit or drive of the joint is not a finite number (set by a " \
                "script?)", 0
        flipped = [limit for limit in blender_settings.limits if limit.min is not None
                   and limit.max is not None and limit.min > limit.max]
        if flipped:
            blender_settings = replace(blender_settings, limits=tuple(
                replace(limit, min=limit.max, max=limit.min) if limit in flipped else limit
                for limit in blender_settings.limits))
        settings = settings_to_gltf(blender_settings, yup)
        if not settings.limits and not settings.drives:
            return None, "the joint has no limits or drives", len(flipped)
        return settings, None, len(flipped)

    def _joint_problem(
        self, obj: bpy.types.Object, node: Any, body_a: Any, body_b: Any
    ) -> str | None:
        props = obj.gltf_physics
        attachment = props.joint_attachment
        if attachment is not None and self.index.node_of(attachment, node) is None:
            return f"its connected frame {attachment.name} is not exported"
        if attachment is None and body_b is None:
            return "no connected body is set"
        if body_b is not None and body_b.gltf_physics.motion_type == "NONE":
            return f"the connected object {body_b.name} is not a body"
        for side in (body_a, body_b):
            if side is not None and self.index.node_of(side, node) is None:
                return self._left_out(node, side)
        if body_a is not None and body_a == body_b:
            return f"both sides are the same body {body_a.name}"
        if self.format == "OMI" and (body_a is None or body_b is None):
            return "OMI joints need a body on both sides (parent it under a body, or make the " \
                "world side a Static body)"
        kinds = {side.gltf_physics.motion_type for side in (body_a, body_b) if side is not None}
        if "DYNAMIC" not in kinds:
            return "neither joined body is dynamic"
        return None

    def _exported_under(self, obj: bpy.types.Object, node: Any, body: bpy.types.Object
                        ) -> bool:
        """True when `body`'s node is an ancestor of (or is) `obj`'s `node` in the export."""
        vnode = self.index.vnode_of(node)
        body_node = self.index.node_of(body, node)
        if vnode is not None and body_node is not None:
            while vnode is not None:
                if vnode.node is body_node:
                    return True
                vnode = self.index.parent_vnode(vnode, as_written=True)
            return False
        while obj is not None:
            if obj == body:
                return True
            if obj.parent_type == "BONE" and obj.parent is not None and body in \
                    self.on_bones and body.parent == obj.parent:
                bone = obj.parent.data.bones.get(obj.parent_bone)
                while bone is not None:
                    if bone.name == body.parent_bone:
                        return True
                    bone = bone.parent
            obj = obj.parent
        return False

    def _attachment_node(
        self, obj: bpy.types.Object, node: Any, body: bpy.types.Object, yup: bool,
        suffix: str = "connected",
    ) -> Any:
        """A node under `body`'s node (the one of `node`'s instance) at the joint's world
        frame in that instance."""
        body_node = self.index.node_of(body, node)
        local = self.index.world_of(body_node, body).inverted_safe() \
            @ self.index.frame_world(node, obj)
        location, rotation, _scale = local.decompose()
        translation = axes.vector_to_gltf(tuple(location), yup)
        quaternion = axes.quat_to_gltf(tuple(rotation), yup)
        frame = gltf_compat.new_child_node(
            f"{obj.name}.{suffix}",
            None if near_identity(translation, (0.0, 0.0, 0.0)) else translation,
            None if near_identity(quaternion, (0.0, 0.0, 0.0, 1.0)) else quaternion,
        )
        body_node.children.append(frame)
        return frame
