# SPDX-License-Identifier: GPL-3.0-or-later
"""The physics preview with Blender's own rigid body world."""
