"""The seam the terminal and the phone page share (host_ui.phone.access): the switch, the token, the clients
served, the links."""
from __future__ import annotations

import ipaddress
import os
import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host_ui.phone import access


def test_the_switch_is_off_by_default_and_when_damaged(tmp_path):
    assert not access.is_on(tmp_path)
    access.set_on(tmp_path, True)
    assert access.is_on(tmp_path)
    assert stat.S_IMODE((tmp_path / access.SWITCH_FILE).stat().st_mode) == access.FILE_MODE
    access.set_on(tmp_path, False)
    assert not access.is_on(tmp_path)
    for damaged in (b"On\n", b"yes", b"\xff\xfe", b"", b"on on"):
        (tmp_path / access.SWITCH_FILE).write_bytes(damaged)
        assert not access.is_on(tmp_path), damaged
    (tmp_path / access.SWITCH_FILE).write_bytes(b"  on \n")
    assert access.is_on(tmp_path)


def test_the_token_is_made_once_kept_and_renewed(tmp_path):
    assert access.read_token(tmp_path) is None
    assert not access.token_matches(tmp_path, "")
    tok = access.token(tmp_path)
    assert access.TOKEN_RE.fullmatch(tok) and access.token(tmp_path) == tok == access.read_token(tmp_path)
    assert stat.S_IMODE((tmp_path / access.TOKEN_FILE).stat().st_mode) == access.FILE_MODE
    assert access.token_matches(tmp_path, tok)
    for wrong in (tok + "x", tok[:-1], tok.swapcase(), "", tok + "\n", "é" * 22, "\udcff" * 22):
        assert not access.token_matches(tmp_path, wrong)
    new = access.renew_token(tmp_path)
    assert new != tok and not access.token_matches(tmp_path, tok) and access.token_matches(tmp_path, new)


def test_a_damaged_token_is_none_and_made_anew(tmp_path):
    (tmp_path / access.TOKEN_FILE).write_text("short\n")
    assert access.read_token(tmp_path) is None and not access.token_matches(tmp_path, "short")
    assert access.TOKEN_RE.fullmatch(access.token(tmp_path))


TABLE = [("127.0.0.1", True), ("127.255.0.9", True), ("10.0.0.1", True), ("172.16.0.1", True),
         ("172.31.255.255", True), ("172.32.0.1", False), ("172.15.255.255", False), ("192.168.1.20", True),
         ("192.169.0.1", False), ("8.8.8.8", False), ("100.64.0.1", False), ("169.254.1.1", False),
         ("0.0.0.0", False), ("255.255.255.255", False), ("::1", True), ("fe80::1", True), ("fe80::1%wlan0", True),
         ("fd12:3456::1", True), ("fc00::1", True), ("2001:db8::1", False), ("::", False),
         ("::ffff:192.168.0.2", True), ("::ffff:8.8.8.8", False), ("ff02::1", False), (None, False), ("", False),
         ("localhost", False), ("/run/x.sock", False), ("192.168.1", False), ("1.2.3.4.5", False),
         ("testclient", False)]


@pytest.mark.parametrize(("host", "allowed"), TABLE)
def test_allowed_client_table(host, allowed):
    assert access.allowed_client(host) is allowed


def _expected(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if isinstance(address, ipaddress.IPv4Address):
        return any(address in ipaddress.ip_network(n) for n in ("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12",
                                                                  "192.168.0.0/16"))
    return address == ipaddress.ip_address("::1") or (int(address) >> 118) == 0x3FA or (int(address) >> 121) == 0x7E


@given(st.ip_addresses())
def test_allowed_client_over_every_address(address):
    assert access.allowed_client(str(address)) is _expected(address)


@given(st.ip_addresses(v=6), st.text(st.characters(codec="ascii", categories=["L", "N"]), min_size=1, max_size=8))
def test_a_zone_does_not_change_the_answer(address, zone):
    assert access.allowed_client(f"{address}%{zone}") is _expected(address)


@given(st.text(max_size=60))
def test_allowed_client_never_raises(text):
    assert access.allowed_client(text) in (True, False)


def test_page_url():
    assert access.page_url("192.168.1.5", 8737, "T" * 22) == f"http://192.168.1.5:8737/t/{'T' * 22}/"
    assert access.page_url("fe80::1", 80, "x") == "http://[fe80::1]:80/t/x/"


def test_links_are_published_and_read(tmp_path, monkeypatch):
    folder = tmp_path / "rt"
    assert access.read_links(folder) == []
    access.publish_links(folder, ["http://10.0.0.2:8737/t/x/", "http://localhost:8737/t/x/"])
    assert access.read_links(folder) == ["http://10.0.0.2:8737/t/x/", "http://localhost:8737/t/x/"]
    (folder / access.LINKS_FILE).write_text("javascript:alert(1)\nhttp://a/\n")
    assert access.read_links(folder) == ["http://a/"]
    monkeypatch.setenv("BANQUIER_PHONE_RUNTIME", str(folder))
    assert access.runtime_folder() == folder
    monkeypatch.delenv("BANQUIER_PHONE_RUNTIME")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    if not os.path.isdir("/run/banquier-phone"):
        assert access.runtime_folder() == tmp_path / "banquier-phone"


def test_page_links_best_first():
    from host_ui.phone.server import page_links
    links = page_links(["0.0.0.0", "::"], 8737, "T", primary=lambda: "192.168.1.7", ipv6=list)
    assert links == ["http://192.168.1.7:8737/t/T/", "http://localhost:8737/t/T/"]
    assert page_links(["0.0.0.0"], 1, "T", primary=lambda: "8.8.8.8", interfaces=lambda: ["8.8.8.8"]) == [
        "http://localhost:1/t/T/"]
    assert page_links(["10.0.0.3"], 1, "T") == ["http://10.0.0.3:1/t/T/"]


def test_page_links_offer_a_unique_local_ipv6_when_the_ipv4_is_not_private():
    from host_ui.phone.server import page_links
    links = page_links(["0.0.0.0", "::"], 8737, "T", primary=lambda: "192.0.2.2",
                       interfaces=lambda: ["127.0.0.1", "192.0.2.2"], ipv6=lambda: ["fd00::2"])
    assert links == ["http://[fd00::2]:8737/t/T/", "http://localhost:8737/t/T/"]
    # a private IPv4 first, then the IPv6 one
    assert page_links(["0.0.0.0", "::"], 1, "T", primary=lambda: "192.168.1.7", ipv6=lambda: ["fd12::5"]) == [
        "http://192.168.1.7:1/t/T/", "http://[fd12::5]:1/t/T/", "http://localhost:1/t/T/"]
    # listening on IPv4 only: no IPv6 link; a link-local address given is not a link (no zone in a URL)
    assert page_links(["0.0.0.0"], 1, "T", primary=lambda: "192.168.1.7", ipv6=lambda: ["fd12::5"]) == [
        "http://192.168.1.7:1/t/T/", "http://localhost:1/t/T/"]
    assert page_links(["fe80::1", "fd00::9"], 1, "T") == ["http://[fd00::9]:1/t/T/"]


def test_page_links_without_a_route_take_a_private_address_from_the_interfaces():
    from host_ui.phone.server import page_links
    links = page_links(["0.0.0.0"], 1, "T", primary=lambda: None,
                       interfaces=lambda: ["127.0.0.1", "203.0.113.4", "10.1.2.3", "192.168.0.9"], ipv6=list)
    assert links == ["http://10.1.2.3:1/t/T/", "http://localhost:1/t/T/"]


def test_the_interfaces_addresses_are_read_from_the_system():
    from host_ui.phone.server import interface_ipv4s
    found = interface_ipv4s()
    assert "127.0.0.1" in found  # loopback's, through SIOCGIFADDR
    assert all(ipaddress.ip_address(a).version == 4 for a in found)


def test_unique_local_ipv6_addresses_are_parsed_from_proc(tmp_path):
    from host_ui.phone.server import ipv6_addresses
    table = tmp_path / "if_inet6"
    table.write_text(
        "00000000000000000000000000000001 01 80 10 80       lo\n"
        "fd000000000000000000000000000002 04 40 00 82     eth0\n"
        "fe8000000000000000fc00fffe000001 04 40 20 80     eth0\n"
        "fd120000000000000000000000000005 04 40 00 20     eth0\n"   # deprecated
        "fd120000000000000000000000000006 04 40 00 40     eth0\n"   # tentative
        "20010db8000000000000000000000007 04 40 00 00     eth0\n"   # global: not the table's network
        "garbage\n")
    assert ipv6_addresses(str(table)) == ["fd00::2"]
    assert ipv6_addresses(str(tmp_path / "missing")) == []
    if os.path.exists("/proc/net/if_inet6"):
        assert all(ipaddress.ip_address(a) in ipaddress.ip_network("fc00::/7") for a in ipv6_addresses())
