# SPDX-License-Identifier: GPL-3.0-or-later
"""gltf_physics: author rigid bodies and collision shapes; export and import them as glTF
OMI or KHR physics through Blender's glTF add-on.

This module stays bpy-free at import time so the format core can be tested with plain
Python; the glTF add-on finds the hook classes through `__getattr__` (PEP 562).
"""

from importlib import import_module

_HOOKS = {
    "glTF2ExportUserExtension": (".io.blender.exporter.export_hooks", "PhysicsExportExtension"),
    "glTF2ImportUserExtension": (".io.blender.importer.import_hooks", "PhysicsImportExtension"),
}
_SUBPACKAGES = (".io.blender.settings.properties", ".operators", ".panels")


def __getattr__(name: str) -> object:
    # The glTF add-on probes with hasattr(): anything but AttributeError would break exports.
    if name not in _HOOKS:
        raise AttributeError(name)
    module_name, attr = _HOOKS[name]
    return getattr(import_module(module_name, __package__), attr)


def register() -> None:
    """Register properties, operators and panels, in that order, and load the glTF hooks
    now rather than inside the first export or import."""
    for name in _SUBPACKAGES:
        import_module(name, __package__).register()
    for module_name, _ in _HOOKS.values():
        import_module(module_name, __package__)


def unregister() -> None:
    """Unregister everything `register` added, in reverse order."""
    for name in reversed(_SUBPACKAGES):
        import_module(name, __package__).unregister()
