"""The banker menu's "Phones" and the idle screen's QR code, driven by taps through the real tap machine over the
real files of host_ui.phone.access (a data folder and a runtime folder of the test's own), drawn by the real
renderer: the switch, the QR code of the published link (read back module by module), the message when the page
publishes nothing, the renewal of the token."""
from __future__ import annotations

from pathlib import Path

import pytest

from hal.sim_beeper import SimBeeper
from host_ui.demo import BANKER_UID, FakeClock, make_registry
from host_ui.phone import access
from host_ui.phone.switch import PhoneSwitch
from host_ui.screen.qr import QUIET_ZONE, qr_modules
from host_ui.screen.render import SIZES, Renderer
from terminal.bank.game import Game
from terminal.table.machine import Terminal
from terminal.table.settings import TerminalSettings

KEY = bytes(range(32))


@pytest.fixture
def table(tmp_path: Path, pg):
    data, runtime = tmp_path / "data", tmp_path / "run"
    data.mkdir()
    clock = FakeClock()
    game = Game.create(tmp_path / "game.db", "fr", ["Anne", "Bohdan"], key=KEY)
    phone = PhoneSwitch(data, runtime)
    term = Terminal(game, make_registry(2), SimBeeper(audio=False, clock=clock), clock,
                    TerminalSettings(language="en", banker_pin="1234"), phone=phone)
    yield term, phone, data, runtime, clock
    game.close()


def open_phones(term: Terminal, clock: FakeClock) -> None:
    clock.advance(2.0)
    term.present(BANKER_UID)
    assert term.view.screen == "banker"
    term.choose("phone")
    assert term.view.screen == "phone"


def publish(runtime: Path, data: Path, host: str = "192.168.1.42") -> str:
    link = access.page_url(host, access.DEFAULT_PORT, access.token(data))
    access.publish_links(runtime, [link, access.page_url("fe80::1", access.DEFAULT_PORT, access.token(data))])
    return link


def decoded(frame, role: str = "qr") -> tuple[tuple[bool, ...], ...]:
    """The QR code drawn in ``frame``, read back: each module's centre pixel, dark or not."""
    square = next(w.rect for w in frame.widgets if w.role == role)
    surface = frame.surface
    n = None
    # the side is a whole number of modules: find it from the symbol's own count (the quiet zone is white)
    for count in range(21 + 2 * QUIET_ZONE, 177 + 2 * QUIET_ZONE + 1, 4):
        if square.w % count == 0:
            n = count
            break
    assert n is not None, square
    size = square.w // n
    return tuple(tuple(surface.get_at((square.x + x * size + size // 2, square.y + y * size + size // 2))[0] < 128
                       for x in range(n)) for y in range(n))


def test_switch_on_then_the_published_link_as_a_qr_code(table):
    term, _phone, data, runtime, clock = table
    open_phones(term, clock)
    view = term.view
    assert view.extra["phone_on"] is False and view.extra["link"] is None
    assert view.extra["status"].code == "phone_status_off"
    assert [o.id for o in view.options] == ["phone_on", "phone_renew", "back"]
    term.choose("phone_on")
    assert (data / access.SWITCH_FILE).read_text() == "on\n"
    assert access.read_token(data) is not None  # made before the page is asked to serve it
    # switched on, but no page publishes a link: said instead of a code
    assert term.view.extra["link"] is None
    assert term.view.extra["status"].code == "phone_status_not_running"
    frame = Renderer((480, 320)).render(term.view)
    assert not [w for w in frame.widgets if w.role == "qr"]
    assert any("not running" in t.block for t in frame.texts_with("status"))
    # the page starts and publishes its links: the next tick shows the first one
    link = publish(runtime, data)
    version = term.version
    term.tick()
    assert term.version > version
    assert term.view.extra["link"] == link
    assert term.view.extra["status"].code == "phone_status_scan"
    frame = Renderer((480, 320)).render(term.view)
    assert decoded(frame) == qr_modules(link)
    module = next(w.rect for w in frame.widgets if w.role == "qr").w // len(qr_modules(link))
    assert module >= 3, "on the smallest screen each module is at least 3 pixels: a phone's camera reads it"
    assert "".join(t.text for t in frame.texts_with("link")) == link
    # switched off: the switch file says so, and no code is shown even while the links file is still there
    term.choose("phone_off")
    assert not access.is_on(data)
    assert term.view.extra["link"] is None and term.view.extra["status"].code == "phone_status_off"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("portrait", [False, True])
def test_the_qr_code_is_read_back_at_every_size(table, size, portrait):
    term, _phone, data, runtime, clock = table
    open_phones(term, clock)
    term.choose("phone_on")
    link = publish(runtime, data)
    term.tick()
    frame = Renderer(size[::-1] if portrait else size).render(term.view)
    assert decoded(frame) == qr_modules(link)


def test_renew_asks_first_then_changes_the_token_and_the_link(table):
    term, _phone, data, runtime, clock = table
    open_phones(term, clock)
    term.choose("phone_on")
    old = access.read_token(data)
    publish(runtime, data)
    term.choose("phone_renew")
    assert term.view.extra["confirming"] is True
    # one way out, as on every confirmation: the screen's cancel button (no "Keep it" doing the same)
    assert [o.id for o in term.view.options] == ["phone_renew_yes"]
    assert access.read_token(data) == old  # asked, not done
    term.cancel()
    assert term.view.screen == "idle" and access.read_token(data) == old
    open_phones(term, clock)
    assert term.view.extra["confirming"] is False
    term.choose("phone_renew")
    term.choose("phone_renew_yes")
    new = access.read_token(data)
    assert new is not None and new != old
    assert term.view.message is not None and term.view.message.code == "phone_renewed"
    # the page has not published again yet: the link shown already carries the new token
    assert term.view.extra["link"] == access.page_url("192.168.1.42", access.DEFAULT_PORT, new)
    assert not access.token_matches(data, old)


def test_a_data_folder_that_cannot_be_written_changes_nothing(tmp_path, pg):
    clock = FakeClock()
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    term = Terminal(None, make_registry(2), SimBeeper(audio=False, clock=clock), clock,
                    TerminalSettings(language="en", banker_protection=False), phone=PhoneSwitch(not_a_folder,
                                                                                               tmp_path / "run"))
    open_phones(term, clock)
    term.choose("phone_on")
    assert term.view.message.code == "phone_cannot_write" and term.view.message_kind == "error"
    assert term.view.extra["phone_on"] is False
    assert not_a_folder.read_text() == "x"


def test_no_phone_page_no_option(tmp_path, pg):
    clock = FakeClock()
    term = Terminal(None, make_registry(2), SimBeeper(audio=False, clock=clock), clock,
                    TerminalSettings(language="en", banker_protection=False))
    clock.advance(2.0)
    term.present(BANKER_UID)
    option = {o.id: o for o in term.view.options}["phone"]
    assert not option.enabled
    term.choose("phone")
    assert term.view.screen == "banker" and term.view.message_kind == "error"


def test_back_goes_to_the_banker_menu(table):
    term, *_, clock = table
    open_phones(term, clock)
    term.choose("back")
    assert term.view.screen == "banker"


def test_idle_shows_a_small_qr_code_only_when_asked_on_and_running(table):
    term, phone, data, runtime, _clock = table
    assert term.view.extra["phone_link"] is None  # qr_on_idle is off by default
    phone.on_idle = True
    link = publish(runtime, data)
    term.tick()
    assert term.view.extra["phone_link"] is None  # published, but switched off
    access.set_on(data, True)
    term.tick()
    assert term.view.extra["phone_link"] == link
    for size in SIZES:
        for shown in (size, size[::-1]):
            frame = Renderer(shown).render(term.view)
            assert decoded(frame, "phone_qr") == qr_modules(link), shown
    (runtime / access.LINKS_FILE).unlink()  # the page stopped
    term.tick()
    assert term.view.extra["phone_link"] is None
    frame = Renderer((480, 320)).render(term.view)
    assert not [w for w in frame.widgets if w.role == "phone_qr"]


def test_the_switch_reads_cost_a_stat_while_nothing_changes(tmp_path, monkeypatch):
    data, runtime = tmp_path / "data", tmp_path / "run"
    data.mkdir()
    access.set_on(data, True)
    link = publish(runtime, data)
    phone = PhoneSwitch(data, runtime)
    assert phone.is_on() and phone.link() == link
    reads = []
    real, real_links = Path.read_text, access.read_links

    def counting(self, *args, **kwargs):
        reads.append(self.name)
        return real(self, *args, **kwargs)

    def counting_links(folder):
        reads.append(access.LINKS_FILE)
        return real_links(folder)
    monkeypatch.setattr(Path, "read_text", counting)
    monkeypatch.setattr(access, "read_links", counting_links)
    for _ in range(5):
        assert phone.is_on() and phone.link() == link
    # the switch's file is not read again (its stat is unchanged); the links are read each time (their publisher
    # may have died: its liveness is its lock, not in the file's stat)
    assert reads == [access.LINKS_FILE] * 5
    reads.clear()
    access.set_on(data, False)
    assert not phone.is_on()
    assert reads == [access.SWITCH_FILE]


def test_a_publisher_that_died_is_seen_at_the_next_tick(table, monkeypatch):
    """The links file stays as it was when the page that published it is killed (kill -9): read_links (with its
    liveness lock) then gives [], and the screens must ask it again at each tick, not keep what the file's stat
    gave. Phones and the idle QR both say "not running" at the next tick, and show the link again when it is back."""
    term, phone, data, runtime, clock = table
    phone.on_idle = True
    access.set_on(data, True)
    link = publish(runtime, data)
    term.tick()
    assert term.view.extra["phone_link"] == link
    dead = {"now": False}
    real = access.read_links
    monkeypatch.setattr(access, "read_links", lambda folder: [] if dead["now"] else real(folder))
    dead["now"] = True  # the file is untouched: same mtime, size and inode
    term.tick()
    assert term.view.extra["phone_link"] is None
    open_phones(term, clock)
    assert term.view.extra["link"] is None and term.view.extra["status"].code == "phone_status_not_running"
    dead["now"] = False  # the page came back
    term.tick()
    assert term.view.extra["link"] == link and term.view.extra["status"].code == "phone_status_scan"
