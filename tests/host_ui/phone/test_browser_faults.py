"""The page in a real browser (Debian's chromium, headless, selenium) when its server hangs (SIGSTOP), when the
link is replaced (a new token) while it is open or while the server is down, and when the page is switched off."""
from __future__ import annotations

import signal
import time

import pytest

from host_ui.phone import access
from terminal.table.i18n import translate
from tests.host_ui.phone import test_browser as _chromium
from tests.host_ui.phone.conftest import stop_server
from tests.host_ui.phone.test_browser import cash_on_page, wait
from tests.host_ui.phone.test_faults import start_server_with

pytestmark = _chromium.pytestmark
#: chromium, headless, as test_browser drives it.
browser = _chromium.browser
#: The server's keep-alive here (``$BANQUIER_PHONE_KEEPALIVE``): the page counts itself offline after 2.5 of them.
KEEP_ALIVE = 1.0


def status(driver) -> tuple[str, str]:
    from selenium.webdriver.common.by import By
    s = driver.find_element(By.ID, "status")
    return s.get_attribute("class") or "", s.text


def ended_text(driver) -> str:
    from selenium.webdriver.common.by import By
    e = driver.find_element(By.ID, "ended")
    return "" if e.get_attribute("hidden") is not None else e.text


def stale(driver) -> bool:
    from selenium.webdriver.common.by import By
    return "stale" in (driver.find_element(By.ID, "main").get_attribute("class") or "")


def open_page(driver, served) -> None:
    driver.get(served.base)
    wait(lambda: len(cash_on_page(driver)) == 3, 10, "the players")
    wait(lambda: status(driver)[0] == "status", 5, "live")


@pytest.fixture
def quick(table, tmp_path):
    served = start_server_with(table, tmp_path, {"BANQUIER_PHONE_KEEPALIVE": str(KEEP_ALIVE)})
    yield served
    served.process.send_signal(signal.SIGCONT)
    stop_server(served)


def test_a_hung_server_is_noticed_and_the_page_comes_back(quick, browser):
    driver = browser
    open_page(driver, quick)
    quick.process.send_signal(signal.SIGSTOP)
    t0 = time.monotonic()
    try:
        wait(lambda: "offline" in status(driver)[0], 10, "offline while the server hangs")
        noticed = time.monotonic() - t0
        assert status(driver)[1] == translate("phone_offline", {}, "fr")
        assert stale(driver)
        time.sleep(3 * KEEP_ALIVE)  # it stays so, reconnecting
        assert "offline" in status(driver)[0]
    finally:
        quick.process.send_signal(signal.SIGCONT)
    wait(lambda: status(driver)[0] == "status", 10, "live again after SIGCONT")
    assert not stale(driver)
    print(f"a hung server noticed in {noticed:.1f} s (keep-alive {KEEP_ALIVE} s)")
    # and it still follows the game
    game = quick.table.open()
    try:
        game.bank_pays("Anne", 55)
        from terminal.bank.money import format_amount
        want = format_amount(game.cash("Anne"), game.edition, "fr").replace("\xa0", " ")
        wait(lambda: cash_on_page(driver)["Anne"] == want, 5, "the commit after SIGCONT")
    finally:
        game.close()


def test_a_renewed_link_says_so_on_the_open_page(quick, browser):
    driver = browser
    open_page(driver, quick)
    t0 = time.monotonic()
    access.renew_token(quick.table.data)
    wait(lambda: ended_text(driver) == translate("phone_link_replaced", {}, "fr"), 5, "the replaced link's message")
    took = time.monotonic() - t0
    assert "ended" in status(driver)[0] and status(driver)[1] == translate("phone_link_replaced_short", {}, "fr")
    assert stale(driver)
    time.sleep(3)  # it does not go back to "reconnecting"
    assert ended_text(driver) == translate("phone_link_replaced", {}, "fr")
    print(f"the replaced link shown in {took:.1f} s")
    _chromium.viewport(driver, 360, 740)
    _chromium.full_shot(driver, "phone-360x740-replaced-fr.png", 360, 740)


def test_a_link_replaced_while_the_server_was_down_says_so(table, tmp_path, browser):
    driver = browser
    served = start_server_with(table, tmp_path, {"BANQUIER_PHONE_KEEPALIVE": str(KEEP_ALIVE)})
    open_page(driver, served)
    port = served.port
    stop_server(served)
    wait(lambda: "offline" in status(driver)[0], 5, "offline")
    access.renew_token(table.data)
    from tests.host_ui.phone import conftest
    real = conftest.clean_env
    conftest.clean_env = lambda extra: real({**extra, "BANQUIER_PHONE_KEEPALIVE": str(KEEP_ALIVE)})
    try:
        served = conftest.start_server(table, tmp_path / "rt", port=port)
    finally:
        conftest.clean_env = real
    try:
        wait(lambda: ended_text(driver) == translate("phone_link_replaced", {}, "fr"), 12, "404: the link replaced")
        assert stale(driver)
    finally:
        stop_server(served)


def test_switched_off_at_the_terminal_says_so(quick, browser):
    driver = browser
    open_page(driver, quick)
    access.set_on(quick.table.data, False)
    wait(lambda: ended_text(driver) == translate("phone_page_switched_off", {}, "fr"), 5, "switched off")
    assert stale(driver) and status(driver)[1] == translate("phone_page_switched_off_short", {}, "fr")
    access.set_on(quick.table.data, True)  # switched on again: the page comes back by itself (a look every 10 s)
    wait(lambda: status(driver)[0] == "status" and not ended_text(driver), 15, "back after switched on")
    assert not stale(driver)
