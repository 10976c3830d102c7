# SPDX-License-Identifier: GPL-3.0-or-later
"""The Blender bridge: the only part of `io` that imports bpy (and, in gltf_compat, io_scene_gltf2)."""
