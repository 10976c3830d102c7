# SPDX-License-Identifier: GPL-3.0-or-later
"""The physics file checker behind scripts/check_physics.py. Pure: no bpy, no ../shared.

`checker.py` has the entry points; `facts.py` reads a document once (tree, payloads, the
decoders' model); `schema.py` is a small rule language and `specs.py` the extensions' schema
rules in it; `links.py` (references, declarations, numbers) and `placement.py` (triggers,
joints, vehicles) add the errors schemas cannot express; `geometry.py` and `risks.py` the
warnings, with the rules shared with the Blender scene check in io/rules.py; `revisions.py`
the legacy notes; `resources.py` the buffers and images `io/external_reader.py` refuses;
`codes.py` the catalogue of codes."""
