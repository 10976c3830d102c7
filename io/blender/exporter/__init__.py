# SPDX-License-Identifier: GPL-3.0-or-later
"""Export: the glTF exporter hooks and what they compute per exported node."""
