# SPDX-License-Identifier: GPL-3.0-or-later
"""Check Physics fixes that need more than a setting change (io/blender/tools/validation.py)."""
