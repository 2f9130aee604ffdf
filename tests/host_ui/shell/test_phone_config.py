"""``[phone]``: the phone page's port, the addresses it binds, its language and the idle screen's QR code; every
bad value refused in one line naming the key (hypothesis draws the garbage), and the default port the page's own
(host_ui.phone.access.DEFAULT_PORT)."""
from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host_ui.phone import access
from host_ui.shell.config import PHONE_LISTEN, ConfigError, parse_config


def test_the_defaults():
    config = parse_config({})
    assert config.phone.port == access.DEFAULT_PORT
    assert config.phone.listen == PHONE_LISTEN == ("0.0.0.0", "::")
    assert config.phone.qr_on_idle is False
    assert config.phone.language is None
    assert config.phone_language == "fr"
    assert parse_config({"game": {"language": "uk"}}).phone_language == "uk"
    assert parse_config({"game": {"language": "uk"}, "phone": {"language": "en"}}).phone_language == "en"


def test_values_are_read_and_written_back():
    config = parse_config({"phone": {"port": 9000, "listen": ["192.168.1.20", "fe80::1%wlan0", " ::1 "],
                                     "language": "uk", "qr_on_idle": True}})
    assert config.phone.port == 9000
    assert config.phone.listen == ("192.168.1.20", "fe80::1%wlan0", "::1")
    assert config.phone.language == "uk" and config.phone.qr_on_idle is True
    assert parse_config(config.to_toml()) == config


@pytest.mark.parametrize("phone, key, reason", [
    ({"port": 80}, "phone.port", "out of range: use 1024..65535"),
    ({"port": 65536}, "phone.port", "out of range"),
    ({"port": "8737"}, "phone.port", "expected a whole number"),
    ({"port": True}, "phone.port", "expected a whole number"),
    ({"listen": []}, "phone.listen", "at least one address"),
    ({"listen": "0.0.0.0"}, "phone.listen", "expected a list of IP addresses"),
    ({"listen": ["localhost"]}, "phone.listen", "is not an IP address"),
    ({"listen": ["10.0.0.300"]}, "phone.listen", "is not an IP address"),
    ({"listen": [8737]}, "phone.listen", "expected an IP address in quotes"),
    ({"listen": ["::", "0::0"]}, "phone.listen", "named twice"),
    ({"listen": ["10.0.0.1"] * 17}, "phone.listen", "at most 16"),
    ({"language": "de"}, "phone.language", "is not one of"),
    ({"qr_on_idle": "yes"}, "phone.qr_on_idle", "expected true or false"),
    ({"token": "x"}, "phone.token", "unknown key"),
])
def test_bad_values_are_refused_naming_the_key(phone, key, reason):
    with pytest.raises(ConfigError) as caught:
        parse_config({"phone": phone})
    message = str(caught.value)
    assert f"{key}: " in message and reason in message and "\n" not in message


def test_a_phone_that_is_not_a_table_is_refused():
    with pytest.raises(ConfigError, match=r"expected a table \[phone\]"):
        parse_config({"phone": 3})


def _valid(key: str, value: object) -> bool:
    if key == "port":
        return type(value) is int and 1024 <= value <= 65535
    if key == "qr_on_idle":
        return isinstance(value, bool)
    if key == "language":
        return value in ("fr", "en", "uk", "")
    if not isinstance(value, list) or not 1 <= len(value) <= 16:
        return False
    try:
        found = [str(ipaddress.ip_address(v.strip())) for v in value]
    except (ValueError, AttributeError):
        return False
    return len(set(found)) == len(found)


garbage = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
                       | st.text(max_size=40) | st.sampled_from(["::", "10.0.0.2", "fe80::1%eth0", "fr", "1.2.3"]),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                                  max_size=2), max_leaves=6)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(key=st.sampled_from(["port", "listen", "language", "qr_on_idle"]), value=garbage)
def test_garbage_is_read_or_refused_in_one_line(key, value):
    if value is None:  # TOML has no null: a key left out
        return
    try:
        config = parse_config({"phone": {key: value}})
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith(f"configuration: phone.{key}: ") and "\n" not in message
        assert not _valid(key, value), message
        return
    assert _valid(key, value), (key, value)
    assert parse_config(config.to_toml()) == config
