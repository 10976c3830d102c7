# SPDX-License-Identifier: GPL-3.0-or-later
"""Import: the glTF importer hooks."""
