"""The configuration file: locations, defaults, every refusal naming its key, environment overrides,
the shipped example, and the round trip through ``Config.to_toml``."""
from __future__ import annotations

from pathlib import Path

import pytest

from cards.editions import RULE_FLAGS
from host_ui.shell.config import (
    ENV_OVERRIDES,
    Config,
    ConfigError,
    ConfigFileError,
    load_config,
    parse_config,
    user_config_path,
)
from terminal.errors import GameError
from terminal.table.settings import TerminalSettings

EXAMPLE = Path(__file__).resolve().parents[3] / "deploy" / "config.example.toml"


@pytest.fixture
def home(tmp_path) -> dict[str, str]:
    """An environment with a private HOME and nothing else."""
    (tmp_path / "home").mkdir()
    return {"HOME": str(tmp_path / "home")}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def refused(text: str, **kwargs) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        parse_config(text, source=Path("/etc/banquier/config.toml"), **kwargs)
    return info.value


# --------------------------------------------------------------------------------------- defaults
def test_a_pc_with_no_file_runs_the_simulator(tmp_path, home):
    config = load_config(env=home, root=tmp_path / "fakeroot")
    assert config.source is None
    assert (config.reader.backend, config.beeper.backend, config.buttons.backend) == ("sim", "sim", "sim")
    assert config.display.output == "window"
    assert config.storage.data_dir == Path(home["HOME"]) / ".local" / "share" / "banquier"
    assert config.storage.backups == config.storage.data_dir / "backups"
    assert config == Config(storage=config.storage)


def test_a_raspberry_pi_with_no_file_uses_its_hardware(tmp_path, home):
    root = tmp_path / "pi"
    write(root / "proc" / "device-tree" / "model", "Raspberry Pi 4 Model B Rev 1.5\0")
    config = load_config(env=home, root=root)
    assert (config.reader.backend, config.beeper.backend, config.buttons.backend) == ("mfrc522", "gpio", "none")


def test_auto_follows_the_machine(tmp_path):
    text = '[hardware.reader]\nbackend = "auto"\n'
    assert parse_config(text, on_device=True).reader.backend == "mfrc522"
    assert parse_config(text, on_device=False).reader.backend == "sim"


def test_data_dir_default_is_systemds_state_directory_under_the_service():
    config = parse_config({}, {"STATE_DIRECTORY": "/var/lib/banquier", "HOME": "/x"})
    assert config.storage.data_dir == Path("/var/lib/banquier")
    config = parse_config({}, {"XDG_DATA_HOME": "/data", "HOME": "/x"})
    assert config.storage.data_dir == Path("/data/banquier")


def test_the_default_config_is_hashable_and_equal_to_itself():
    assert Config() == Config()
    hash(Config())


# -------------------------------------------------------------------------------------- locations
def test_explicit_path_wins_over_everything(tmp_path, home):
    user = write(user_config_path(home), '[game]\nlanguage = "en"\n')
    env = {**home, "BANQUIER_CONFIG": str(write(tmp_path / "env.toml", '[game]\nlanguage = "uk"\n'))}
    explicit = write(tmp_path / "explicit.toml", '[game]\nlanguage = "fr"\n')
    assert load_config(explicit, env, root=tmp_path).game.language == "fr"
    assert load_config(None, env, root=tmp_path).source == tmp_path / "env.toml"
    assert load_config(None, home, root=tmp_path).source == user


def test_user_file_comes_before_the_system_file(tmp_path, home):
    root = tmp_path / "root"
    system = write(root / "etc" / "banquier" / "config.toml", '[game]\nlanguage = "uk"\n')
    assert load_config(env=home, root=root).source == system
    assert load_config(env=home, root=root).game.language == "uk"
    write(user_config_path(home), '[game]\nlanguage = "en"\n')
    assert load_config(env=home, root=root).game.language == "en"


def test_xdg_config_home_is_honoured(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    write(tmp_path / "xdg" / "banquier" / "config.toml", "[logging]\nlevel = 'debug'\n")
    assert load_config(env=env, root=tmp_path).logging.level == "debug"


@pytest.mark.parametrize("how", ["argument", "variable"])
def test_a_named_file_that_does_not_exist_is_refused(tmp_path, home, how):
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigFileError) as info:
        if how == "argument":
            load_config(missing, home, root=tmp_path)
        else:
            load_config(None, {**home, "BANQUIER_CONFIG": str(missing)}, root=tmp_path)
    assert str(missing) in str(info.value)
    assert isinstance(info.value, OSError) and isinstance(info.value, GameError)


def test_a_directory_named_as_the_file_is_refused(tmp_path, home):
    directory = tmp_path / "dir.toml"
    directory.mkdir()
    (directory / "x").write_text("")
    # A directory named as the file: is_file() is false, so it is "not a file".
    with pytest.raises(ConfigFileError):
        load_config(directory, home, root=tmp_path)


# --------------------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("text, key, reason", [
    ("[hardware.reader]\nbackend = \"nfc\"\n", "hardware.reader.backend", "not a reader backend"),
    ("[hardware.reader]\nspi_bus = 7\n", "hardware.reader.spi_bus", "out of range"),
    ("[hardware.reader]\nspi_bus = \"0\"\n", "hardware.reader.spi_bus", "expected a whole number"),
    ("[hardware.reader]\nspi_bus = true\n", "hardware.reader.spi_bus", "expected a whole number"),
    ("[hardware.reader]\nspi_speed_hz = 50000\n", "hardware.reader.spi_speed_hz", "out of range"),
    ("[hardware.reader]\nreset_pin = 1\n", "hardware.reader.reset_pin", "not a GPIO header pin"),
    ("[hardware.reader]\nformat = \"wiegand\"\n", "hardware.reader.format", "is not one of"),
    ("[hardware.reader]\nbaudrate = 100\n", "hardware.reader.baudrate", "out of range"),
    ("[hardware.reader]\nbackend = \"serial\"\n", "hardware.reader.port", "needs its device"),
    ("[hardware.reader]\nbackend = \"serial\"\nport = \"ttyUSB0\"\n", "hardware.reader.port", "relative"),
    ("[hardware.reader]\ncolour = 1\n", "hardware.reader.colour", "unknown key"),
    ("[hardware.beeper]\ntype = \"loud\"\n", "hardware.beeper.type", "is not one of"),
    ("[hardware.beeper]\nfrequency_hz = 50\n", "hardware.beeper.frequency_hz", "out of range"),
    ("[hardware.beeper]\nvolume = 2\n", "hardware.beeper.volume", "out of range"),
    ("[hardware.beeper]\npin = 3.5\n", "hardware.beeper.pin", "expected a GPIO header pin"),
    ("[hardware.beeper]\nbackend = \"speaker\"\n", "hardware.beeper.backend", "not a beeper backend"),
    ("[hardware.buttons]\nbackend = \"gpio\"\n", "hardware.buttons", "at least one button pin"),
    ("[hardware.buttons]\nf5 = 29\n", "hardware.buttons.f5", "unknown key"),
    ("[hardware.buttons]\ndebounce_s = 1\n", "hardware.buttons.debounce_s", "out of range"),
    ("[hardware.lights]\npin = 3\n", "hardware.lights", "unknown key"),
    ("[hardware]\nreader = \"mfrc522\"\n", "hardware.reader", "expected a table"),
    ("[display]\nrotation = 45\n", "display.rotation", "is not one of 0, 90, 180, 270"),
    ("[display]\nwidth = 100\n", "display.width", "out of range"),
    ("[display]\noutput = \"x11\"\n", "display.output", "is not one of"),
    ("[display]\nfullscreen = \"yes\"\n", "display.fullscreen", "true or false"),
    ("[display]\ntouch_device = \"event0\"\n", "display.touch_device", "relative path"),
    ("[game]\nlanguage = \"de\"\n", "game.language", "is not one of"),
    ("[game]\nedition = \"uk\"\n", "game.edition", "not a shipped edition"),
    ("[game]\nmode = \"speed\"\n", "game.mode", "is not one of"),
    ("[game]\nbanker_pin = 1234\n", "game.banker_pin", "in quotes"),
    ("[game]\nbanker_pin = \"12a4\"\n", "game.banker_pin", "not 4 to 8 digits"),
    ("[game]\nbanker_pin = \"123\"\n", "game.banker_pin", "not 4 to 8 digits"),
    ("[game.rules]\nfree_parking = true\n", "game.rules.free_parking", "unknown rule flag"),
    ("[game.rules]\ninterest_rounding = \"nearest\"\n", "game.rules.interest_rounding", "is not one of"),
    ("[game.rules]\nfree_parking_jackpot = 1\n", "game.rules.free_parking_jackpot", "is not one of"),
    ("[game.timeouts]\ntimeout_s = 1\n", "game.timeouts.timeout_s", "out of range"),
    ("[game.timeouts]\ntimeout_s = 100\nlong_timeout_s = 50\n", "game.timeouts.long_timeout_s", "shorter"),
    ("[game.timeouts]\nidle_s = 5\n", "game.timeouts.idle_s", "unknown key"),
    ("[storage]\ndata_dir = \"games\"\n", "storage.data_dir", "relative path"),
    ("[storage]\ndata_dir = \"\"\n", "storage.data_dir", "empty"),
    ("[storage]\nbackups_kept = 0\n", "storage.backups_kept", "out of range"),
    ("[storage]\nbackup_every = -1\n", "storage.backup_every", "out of range"),
    ("[logging]\nlevel = \"verbose\"\n", "logging.level", "is not one of"),
    ("[network]\nwifi = true\n", "network", "unknown section"),
    ("language = \"fr\"\n", "language", "unknown section"),
])
def test_bad_keys_and_values_are_refused_with_the_key_and_the_reason(text, key, reason):
    error = refused(text)
    assert error.params["key"] == key
    assert reason in error.params["reason"], error.params["reason"]
    assert str(error).startswith(f"/etc/banquier/config.toml: {key}: ")
    assert isinstance(error, ValueError) and isinstance(error, GameError)


@pytest.mark.parametrize("text, key, other", [
    (("[hardware.reader]\nbackend = \"mfrc522\"\nreset_pin = 22\n"
      "[hardware.beeper]\nbackend = \"gpio\"\npin = 22\n"), "hardware.beeper.pin", "hardware.reader.reset_pin"),
    ("[hardware.reader]\nbackend = \"mfrc522\"\nreset_pin = 24\n", "hardware.reader.reset_pin", "chip select"),
    (("[hardware.beeper]\nbackend = \"gpio\"\npin = 12\n"
      "[hardware.buttons]\nbackend = \"gpio\"\nconfirm = 16\nf1 = 12\n"), "hardware.buttons.f1",
     "hardware.beeper.pin"),
    ("[hardware.buttons]\nbackend = \"gpio\"\nconfirm = 16\ncancel = 16\n", "hardware.buttons.cancel",
     "hardware.buttons.confirm"),
    ("[hardware.reader]\nbackend = \"mfrc522\"\n[hardware.beeper]\nbackend = \"gpio\"\npin = 19\n",
     "hardware.beeper.pin", "SPI MOSI"),
])
def test_one_header_pin_for_two_devices_is_refused(text, key, other):
    error = refused(text)
    assert error.params["key"] == key
    assert other in str(error)


def test_pins_of_unused_backends_do_not_clash():
    config = parse_config("[hardware.reader]\nbackend = \"sim\"\nreset_pin = 12\n"
                          "[hardware.beeper]\nbackend = \"gpio\"\npin = 12\n")
    assert config.beeper.pin == 12


def test_spi_bus_1_does_not_reserve_spi0_pins():
    config = parse_config("[hardware.reader]\nbackend = \"mfrc522\"\nspi_bus = 1\n"
                          "[hardware.beeper]\nbackend = \"gpio\"\npin = 19\n")
    assert config.reader.hal_options()["bus"] == 1


def test_invalid_toml_names_the_file():
    error = refused("[hardware\nreader = 1\n")
    assert "not valid TOML" in str(error) and "/etc/banquier/config.toml" in str(error)


def test_non_utf8_file_is_refused(tmp_path, home):
    path = tmp_path / "latin1.toml"
    path.write_bytes("[game]\nlanguage = \"fr\" # \xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(path, home, root=tmp_path)


# -------------------------------------------------------------------------------------- overrides
def test_environment_overrides_single_keys(tmp_path, home):
    path = write(tmp_path / "c.toml", '[hardware.reader]\nbackend = "mfrc522"\n[game]\nlanguage = "fr"\n'
                                      '[storage]\ndata_dir = "/var/lib/banquier/data"\n')
    env = {**home, "BANQUIER_READER": "serial", "BANQUIER_SERIAL_PORT": "/dev/ttyUSB0",
           "BANQUIER_BEEPER": "none", "BANQUIER_BUTTONS": "sim", "BANQUIER_LANGUAGE": "uk",
           "BANQUIER_EDITION": "us", "BANQUIER_DATA_DIR": str(tmp_path / "data"),
           "BANQUIER_KEY_FILE": str(tmp_path / "k"), "BANQUIER_LOG_LEVEL": "DEBUG",
           "BANQUIER_DISPLAY_OUTPUT": "framebuffer", "BANQUIER_FULLSCREEN": "yes"}
    config = load_config(path, env, root=tmp_path)
    assert config.reader.backend == "serial"
    assert config.reader.hal_options() == {"port": "/dev/ttyUSB0", "protocol": "rdm6300", "baudrate": 9600,
                                           "uid_order": "sent", "uid_digits": "hex"}
    assert (config.beeper.backend, config.buttons.backend) == ("none", "sim")
    assert (config.game.language, config.game.edition) == ("uk", "us")
    assert config.storage.data_dir == tmp_path / "data"
    assert config.storage.key_file == tmp_path / "k"
    assert config.logging.level == "debug"
    assert (config.display.output, config.display.fullscreen) == ("framebuffer", True)


def test_every_override_names_a_real_key():
    for variable, dotted in ENV_OVERRIDES.items():
        node = Config()
        for part in dotted.split("."):
            assert hasattr(node, part), (variable, dotted)
            node = getattr(node, part)


@pytest.mark.parametrize("variable, value, reason", [
    ("BANQUIER_READER", "nfc", "not a reader backend"),
    ("BANQUIER_LANGUAGE", "de", "is not one of"),
    ("BANQUIER_FULLSCREEN", "maybe", "expected 1/true"),
    ("BANQUIER_DATA_DIR", "relative/dir", "relative path"),
])
def test_bad_override_names_the_variable(variable, value, reason):
    with pytest.raises(ConfigError) as info:
        parse_config({}, {variable: value})
    assert str(info.value).startswith(f"{variable}: {ENV_OVERRIDES[variable]}: ")
    assert reason in str(info.value)


def test_empty_variables_count_as_unset():
    config = parse_config("[game]\nlanguage = \"en\"\n", {"BANQUIER_LANGUAGE": " ", "BANQUIER_READER": ""})
    assert config.game.language == "en" and config.reader.backend == "sim"


# ------------------------------------------------------------------------------ values and helpers
def test_empty_text_leaves_an_optional_key_out():
    config = parse_config("[display]\ntouch_device = \"\"\n[game]\nbanker_pin = \"\"\n")
    assert config.display.touch_device is None and config.game.banker_pin is None


def test_pin_is_stored_as_a_hash_and_rules_are_read():
    from host_ui.shell.pin import hash_pin
    stored = hash_pin("0042")
    config = parse_config(f"[game]\nbanker_pin_hash = \"{stored}\"\n[game.rules]\nfree_parking_jackpot = true\n"
                          "interest_rounding = \"down\"\n")
    assert config.game.banker_pin_hash == stored and config.game.banker_pin is None
    settings = config.terminal_settings()
    assert settings.banker_pin.matches("0042") and not settings.banker_pin.matches("042")
    assert dict(config.game.rules) == {"free_parking_jackpot": True, "interest_rounding": "down"}
    with pytest.raises(TypeError):
        config.game.rules["x"] = 1  # type: ignore[index]


def test_hal_options_match_the_backends_constructors():
    from hal import registry
    config = parse_config("[hardware.reader]\nbackend = \"mfrc522\"\n[hardware.beeper]\nbackend = \"gpio\"\n"
                          "frequency_hz = 2700\n[hardware.buttons]\nbackend = \"gpio\"\nconfirm = 16\nf2 = 31\n")
    targets = {"reader": "hal.mfrc522_reader:Mfrc522Reader", "beeper": "hal.gpio_beeper:GpioBeeper",
               "buttons": "hal.gpio_buttons:GpioButtons"}
    import importlib
    for kind, options in (("reader", config.reader.hal_options()), ("beeper", config.beeper.hal_options()),
                          ("buttons", config.buttons.hal_options())):
        module, _, name = targets[kind].partition(":")
        accepted = registry._accepted_options(getattr(importlib.import_module(module), name))
        assert set(options) <= accepted, (kind, set(options) - accepted)
    assert config.buttons.hal_options()["pins"] == {"confirm": 16, "f2": 31}
    assert config.beeper.hal_options()["frequency_hz"] == 2700.0
    assert config.reader.devices() == ["/dev/spidev0.0"]


def test_sim_backends_load_through_hal_with_the_options():
    import hal
    config = parse_config("[hardware.beeper]\nvolume = 0.5\n")
    reader = hal.load_reader(config.reader.backend, env={}, **config.reader.hal_options())
    buttons = hal.load_buttons(config.buttons.backend, env={}, **config.buttons.hal_options())
    beeper = hal.load_beeper("none", env={}, **config.beeper.hal_options())
    try:
        assert beeper.volume == 0.5
    finally:
        for device in (reader, buttons, beeper):
            device.close()


def test_terminal_settings_come_from_the_game_section():
    config = parse_config("[game]\nlanguage = \"en\"\nbanker_protection = false\namount_display = \"km\"\n"
                          "[game.timeouts]\ntimeout_s = 15\nretap_guard_s = 2\n")
    settings = config.terminal_settings()
    assert settings == TerminalSettings(timeout_s=15.0, retap_guard_s=2.0, banker_protection=False,
                                        language="en", display="km")


# --------------------------------------------------------------------------- example and round trip
def test_the_shipped_example_loads_without_error(home, tmp_path):
    config = load_config(EXAMPLE, home, root=tmp_path)
    assert config.source == EXAMPLE
    assert config.reader.backend == "mfrc522" and config.beeper.backend == "gpio"
    assert config.display.output == "kmsdrm"
    assert config.storage.data_dir == Path("/var/lib/banquier/data")
    assert config.storage.key_file == Path("/var/lib/banquier/device.key")


def test_the_example_mentions_every_key():
    text = EXAMPLE.read_text(encoding="utf-8")
    from dataclasses import fields
    config = Config()
    for section, prefix in ((config.reader, "hardware.reader"), (config.beeper, "hardware.beeper"),
                            (config.buttons, "hardware.buttons"), (config.display, "display"),
                            (config.game, "game"), (config.game.timeouts, "game.timeouts"),
                            (config.storage, "storage"), (config.logging, "logging"), (config.phone, "phone")):
        for f in fields(section):
            if "rule" in f.metadata and f.metadata["rule"].kind != "rules":
                assert f"{f.name} =" in text, f"{prefix}.{f.name} is not documented in the example"
    for flag in RULE_FLAGS:
        assert flag in text
    for variable in ENV_OVERRIDES:
        assert variable in text


@pytest.mark.parametrize("text", [
    "",
    EXAMPLE.read_text(encoding="utf-8"),
    ("[hardware.reader]\nbackend = \"serial\"\nport = \"/dev/serial/by-id/usb-x\"\nformat = \"lines\"\n"
     "[hardware.beeper]\nbackend = \"gpio\"\nfrequency_hz = 2700.5\ntype = \"active\"\n"
    "[hardware.buttons]\nbackend = \"gpio\"\nconfirm = 16\nf4 = 35\n"
    "[display]\ntouch_device = \"/dev/input/event0\"\nrotation = 270\n"
    "[game]\nbanker_pin_hash = \"scrypt$16384$8$1$00112233445566778899aabbccddeeff$" + "ab" * 32 + "\"\n"
    "language = \"uk\"\n[game.rules]\nfree_parking_jackpot = true\n"
     "[storage]\nbackup_dir = \"/srv/b\\u00e9\"\ndata_dir = \"/srv/d \\\"q\\\"\"\n"),
])
def test_to_toml_reads_back_to_an_equal_config(text):
    config = parse_config(text, {"HOME": "/home/x"})
    again = parse_config(config.to_toml(), {"HOME": "/elsewhere"})
    assert again == config
    assert again.to_toml() == config.to_toml()


@pytest.mark.parametrize("value", ["1.5", "20000000"])
def test_range_messages_print_integers_as_integers(value):
    """A range of whole numbers reads as people write them: 100000..10000000 Hz, never 1e+07."""
    error = str(refused(f"[hardware.reader]\nbackend = \"mfrc522\"\nspi_speed_hz = {value}\n"))
    assert "100000..10000000 Hz" in error and "e+0" not in error, error


def test_hal_range_messages_print_integers_as_integers():
    from hal.errors import HalConfigError
    from hal.presence import check_range
    with pytest.raises(HalConfigError, match=r"use 100000\.\.10000000 Hz$"):
        check_range("spi_speed_hz", 1.5, 100_000, 10_000_000, unit="Hz")
    with pytest.raises(HalConfigError, match=r"use 0\.5\.\.2 s$"):
        check_range("poll_interval_s", 3, 0.5, 2.0)


@pytest.mark.parametrize("key, value", [("uid_digits", "decimal"), ("uid_order", "reversed")])
def test_a_uid_form_is_refused_outside_the_lines_format(key, value):
    """uid_order and uid_digits apply to a serial reader's "lines" format only: set with format "rdm6300" they
    are refused in one line that says so (accepted with "lines")."""
    base = '[hardware.reader]\nbackend = "serial"\nport = "/dev/ttyS0"\n'
    error = str(refused(base + f'format = "rdm6300"\n{key} = "{value}"\n'))
    assert key in error and 'only to format "lines"' in error and "\n" not in error.strip(), error
    assert parse_config(base + f'format = "lines"\n{key} = "{value}"\n').reader.options[key] == value


def test_the_serial_reader_refuses_a_uid_form_outside_lines(fake_serial):
    import hal
    from hal.errors import HalConfigError
    with pytest.raises(HalConfigError, match='only to format "lines"'):
        hal.load_reader("serial", env={}, port="/dev/ttyS0", protocol="rdm6300", uid_digits="decimal")
