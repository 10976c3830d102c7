# SPDX-License-Identifier: GPL-3.0-or-later
"""The physics file checker (scripts/check_physics.py): the extension rules written as data
(schema.py, specs.py), the cross-references schemas cannot express (links.py), risky but
legal content (risks.py), legacy revisions (revisions.py), and the entry points (checker.py).
Pure: no bpy and no files outside the add-on."""
