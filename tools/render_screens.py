#!/usr/bin/env python3
"""Render every screen of the terminal to PNG, for the README and for review.

    python tools/render_screens.py                  # docs/screenshots: every screen in French at 800x480,
                                                    # the main screens in English and Ukrainian and at the
                                                    # other sizes, a portrait (rotated) idle screen, and the
                                                    # Ukrainian game (idle, rent, Chance, bankruptcy, end)
    python tools/render_screens.py --all --out /tmp/shots   # every screen x language x size x orientation
    python tools/render_screens.py --all --check --out /tmp/shots   # and list every text that does not fit

``--check`` runs the fit checks of the render tests (``host_ui.screen.fit``: a text cut, outside its room or
the screen, over another text or across a widget's edge) on every picture written, prints each problem and
exits with status 1 if there is one.

Runs headless (SDL's dummy driver) unless DISPLAY is set and --window is given (then under Xvfb or X).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host_ui.scenes import build_scenes  # noqa: E402 - the checkout's code, found through the line above

MAIN = ("idle", "idle_time_left", "confirm_rent", "own_deed", "keypad", "game_over", "history", "player", "banker",
        "confirm_long_buy", "confirm_long_each", "own_deed_refused", "keypad_bid", "confirm_second_go_tapped",
        "phone_qr")
#: A game in Ukrainian, with the edition's Ukrainian deed names and card texts: also at 800x480 by default.
UKRAINIAN = ("idle", "deed_owned", "confirm_rent", "choose_chance", "chance_repairs", "chance_advance",
             "choose_community_chest", "choose_deed", "bankruptcy", "confirm_bankruptcy", "confirm_bankruptcy_many",
             "game_over")
#: The electronic board's screens (host_ui.scenes.build_ultimate_scenes), in the three languages at 800x480.
ULTIMATE = ("ub_idle", "ub_idle_8", "ub_new_game", "ub_deed_for_sale", "ub_deed_owned", "ub_player", "ub_own_deed",
            "ub_event_pick",
            "ub_event_tap_player", "ub_event_own_property", "ub_event_opponent_property", "ub_event_group",
            "ub_event_side", "ub_event_opponent", "ub_confirm_event_swap", "ub_confirm_event_side", "ub_location",
            "ub_location_buy", "ub_confirm_location", "ub_confirm_rent", "ub_confirm_sell", "ub_confirm_bankruptcy",
            "ub_game_over", "ub_history", "ub_confirm_undo_event")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--all", action="store_true", help="the whole matrix (large: for review, not the README)")
    parser.add_argument("--window", action="store_true", help="use the real video driver (X11/Xvfb)")
    parser.add_argument("--check", action="store_true",
                        help="list every text that does not fit (cut, spilled, overlapping); exit 1 if any")
    args = parser.parse_args(argv)
    if not args.window:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("BANQUIER_KEY_FILE", str(Path(tempfile.mkdtemp()) / "device.key"))
    # pygame and the renderer (which imports it) are loaded late: after the SDL settings above
    import pygame

    from host_ui.screen.fit import frame_problems
    from host_ui.screen.render import SIZES, Renderer
    pygame.display.init()
    pygame.font.init()
    if args.window:
        pygame.display.set_mode((320, 200))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="banquier-shots-"))
    written = 0
    problems: list[str] = []
    for language in ("fr", "en", "uk"):
        scenes = build_scenes(tmp / language, language)
        for size in SIZES:
            for rotation in ((0, 90) if args.all else (0,)):
                renderer = Renderer(size if rotation == 0 else (size[1], size[0]), 0)
                for scene in scenes:
                    wanted = args.all or (language == "fr" and size == (800, 480)) or (
                        scene.name in MAIN and (language == "fr" or size == (800, 480))) or (
                        scene.name in UKRAINIAN and language == "uk" and size == (800, 480)) or (
                        scene.name in ULTIMATE and size == (800, 480))
                    if not wanted:
                        continue
                    renderer.game = scene.game
                    frame = renderer.render(scene.view, "20:15")
                    name = f"{scene.name}-{language}-{size[0]}x{size[1]}" + ("-portrait" if rotation else "")
                    pygame.image.save(frame.surface, str(out / f"{name}.png"))
                    written += 1
                    if args.check:
                        problems += frame_problems(frame, name)
        if not args.all and language == "fr":
            # the 3.5" panel mounted upright: the picture as it goes to the panel (rotation 90)
            renderer = Renderer((320, 480), 90)
            idle = next(s for s in scenes if s.name == "idle")
            pygame.image.save(renderer.render(idle.view, "20:15").surface, str(out / "idle-fr-320x480-portrait.png"))
            written += 1
    print(f"{written} screenshots in {out}")
    if args.check:
        print("\n".join(problems) if problems else "every text fits")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
