# SPDX-License-Identifier: GPL-3.0-or-later
"""The Blender bridge: the only part of `io` importing bpy (io_scene_gltf2: gltf_compat only)."""
