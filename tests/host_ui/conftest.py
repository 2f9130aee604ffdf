"""Shared fixtures: pygame on SDL's dummy driver, and every screen's scene per language (built once)."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(scope="session")
def pg():
    import pygame
    pygame.display.init()
    pygame.font.init()
    yield pygame


@pytest.fixture(scope="session")
def scenes_by_language(pg, tmp_path_factory):
    from host_ui.scenes import build_scenes
    out = {}
    for language in ("fr", "en", "uk"):
        out[language] = build_scenes(tmp_path_factory.mktemp(f"scenes-{language}"), language)
    return out
