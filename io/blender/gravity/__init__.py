# SPDX-License-Identifier: GPL-3.0-or-later
"""OMI_physics_gravity on the Blender side: storage (`properties`), settings ↔ model
(`bridge`), what an export writes (`export`) and the preview's per-step forces (`preview`)."""
