"""Loading pygame without what it loads for nobody here.

``import pygame`` imports ``pygame.pkgdata``, which imports setuptools' ``pkg_resources`` when it is installed:
about 100 ms of a start without compiled bytecode on the development machine (half of pygame's import, a
second or more on a Pi), for ``pkgdata.getResource``, which falls back to reading the file beside the module
when ``pkg_resources`` is missing (and Banquier loads its fonts by path anyway). :func:`load_pygame` imports
pygame with ``pkg_resources`` hidden, then forgets the hiding: a later ``import pkg_resources`` works as usual.
"""
from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["load_pygame"]


def load_pygame() -> ModuleType:
    """Import pygame (once) without importing ``pkg_resources`` on the way; return the module."""
    loaded = sys.modules.get("pygame")
    if loaded is not None:
        return loaded
    hide = "pkg_resources" not in sys.modules
    if hide:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        import pygame
    finally:
        if hide and sys.modules.get("pkg_resources", False) is None:
            del sys.modules["pkg_resources"]
    return pygame
