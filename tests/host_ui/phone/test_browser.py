"""The phone page in a real browser: Debian's chromium and chromium-driver, driven headless with selenium. It loads,
shows the terminal's state, follows a commit and an undo, speaks the three languages, fits a phone and a tablet;
screenshots go to docs/screenshots/phone-*.png."""
from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.host_ui.phone.conftest import start_server, stop_server

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("chromium") is None or shutil.which("chromedriver") is None,
                                 reason="needs Debian's chromium and chromium-driver (apt-get install chromium "
                                        "chromium-driver; ./dev.sh test installs them)")]

SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars"]


@pytest.fixture
def browser() -> Iterator[object]:
    import os

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    os.environ["SE_OFFLINE"] = "true"  # selenium never downloads a browser or a driver
    profile = tempfile.mkdtemp(prefix="banquier-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait(condition, seconds: float = 5.0, what: str = ""):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except Exception as exc:  # the page is being redrawn
            last = exc
        time.sleep(0.05)
    raise AssertionError(f"{what} not seen within {seconds} s (last: {last!r})")


def shown(text: str) -> str:
    """``text`` as selenium reads it from the page (a no-break space read as a space)."""
    return text.replace("\xa0", " ")


def cash_on_page(driver) -> dict[str, str]:
    from selenium.webdriver.common.by import By
    out = {}
    for card in driver.find_elements(By.CSS_SELECTOR, "article.player"):
        out[card.get_attribute("data-player")] = card.find_element(By.CSS_SELECTOR, "table.money td").text
    return out


def viewport(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800})


def full_shot(driver, name: str, width: int, height: int) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    driver.save_screenshot(str(path))
    return path


def test_the_page_follows_the_game(table, tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from terminal.bank.money import format_amount
    # a few more operations, so the page has something to show
    game = table.open()
    try:
        game.buy("Chloé", 6)
        game.buy("Chloé", 8)
        game.buy("Chloé", 9)
        game.build("Chloé", 6)
        game.build("Chloé", 8)
        game.build("Chloé", 9)
        game.build("Chloé", 6)
        game.pay_rent("Anne", 6)
        game.buy("Anne", 5)
        game.mortgage("Anne", 5)
        game.pay_tax("Bruno", 4)
    finally:
        game.close()
    served = start_server(table, tmp_path / "rt")
    try:
        driver = browser
        viewport(driver, 360, 740)
        driver.get(served.base)
        wait(lambda: len(cash_on_page(driver)) == 3, 10, "the players")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr"
        game = table.open()
        try:
            def expected() -> dict[str, str]:
                return {p: shown(format_amount(game.cash(p), game.edition, "fr")) for p in game.players}
            assert wait(lambda: cash_on_page(driver) == expected(), 3, "the game's balances")
            assert "Boulevard de Belleville" in driver.find_element(By.ID, "players").text
            assert driver.find_elements(By.CSS_SELECTOR, "#chart svg polyline")
            full_shot(driver, "phone-360x740-fr.png", 360, 740)
            # a commit, then an undo, while the page is open
            t0 = time.monotonic()
            game.bank_pays("Bruno", 123)
            wait(lambda: cash_on_page(driver) == expected(), 2.5, "the commit")
            commit_s = time.monotonic() - t0
            assert "Bruno" in driver.find_element(By.ID, "last").text
            t0 = time.monotonic()
            game.undo()
            wait(lambda: cash_on_page(driver) == expected(), 2.5, "the undo")
            undo_s = time.monotonic() - t0
            print(f"page followed the commit in {commit_s:.2f} s and the undo in {undo_s:.2f} s")
        finally:
            game.close()
        # the "me" picker puts that player first and is remembered
        Select(driver.find_element(By.ID, "me")).select_by_value("Chloé")
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "article.player")[0].get_attribute("data-player")
             == "Chloé", 2, "me first")
        driver.refresh()
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "article.player")[0].get_attribute("data-player")
             == "Chloé", 5, "me first after a reload")
        full_shot(driver, "phone-360x740-me.png", 360, 740)
        # the last operations and the chart, further down
        driver.execute_script("document.getElementById('last-title').scrollIntoView()")
        time.sleep(0.2)
        full_shot(driver, "phone-360x740-last.png", 360, 740)
        driver.execute_script("document.getElementById('chart-title').scrollIntoView()")
        time.sleep(0.2)
        full_shot(driver, "phone-360x740-chart.png", 360, 740)
        driver.execute_script("window.scrollTo(0, 0)")
        # the three languages
        for lang, word in (("en", "Cash"), ("uk", "Готівка"), ("fr", "Argent")):
            Select(driver.find_element(By.ID, "language")).select_by_value(lang)
            wait(lambda lang=lang: driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang, 3, lang)
            wait(lambda word=word: word in driver.find_element(By.ID, "players").text, 3, word)
            if lang != "fr":
                full_shot(driver, f"phone-360x740-{lang}.png", 360, 740)
        # no sideways scrolling on a 320 px phone
        viewport(driver, 320, 640)
        time.sleep(0.3)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 320
        full_shot(driver, "phone-320x640-fr.png", 320, 640)
        # a tablet in landscape
        viewport(driver, 1280, 800)
        time.sleep(0.3)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 1280
        full_shot(driver, "phone-tablet-1280x800-fr.png", 1280, 800)
        Select(driver.find_element(By.ID, "language")).select_by_value("en")
        wait(lambda: "Cash" in driver.find_element(By.ID, "players").text, 3, "en")
        full_shot(driver, "phone-tablet-1280x800-en.png", 1280, 800)
        # the server restarts: the page reconnects by itself
        stop_server(served)
        wait(lambda: "offline" in driver.find_element(By.ID, "status").get_attribute("class"), 5, "offline")
        served = start_server(table, tmp_path / "rt", port=served.port)
        game = table.open()
        try:
            game.bank_pays("Anne", 77)
            wait(lambda: cash_on_page(driver)["Anne"] == shown(format_amount(game.cash("Anne"), game.edition, "en")), 8,
                 "reconnected")
        finally:
            game.close()
    finally:
        stop_server(served)
