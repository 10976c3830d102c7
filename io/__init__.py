# SPDX-License-Identifier: GPL-3.0-or-later
"""Format core: the physics model and its OMI/KHR codecs.

Pure Python (stdlib only) except `io.blender`, the bridge to Blender. Nothing outside
`io/blender` may import bpy, mathutils, bmesh or io_scene_gltf2.
"""
