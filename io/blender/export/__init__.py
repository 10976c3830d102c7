# SPDX-License-Identifier: GPL-3.0-or-later
"""Export side of the bridge: which glTF node stands for which object, scene and instance."""
