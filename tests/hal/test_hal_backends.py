"""Every reader backend declares itself in its own module (hal.backends); the configuration, the doctor, the
service's device check and the registry read those declarations and name no backend."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from hal import registry
from hal.backends import Option, ReaderBackend
from hal.uid import UidForm
from host_ui.shell.config import ENV_OVERRIDES, parse_config
from tests.hal.test_hal_contract_reader import HARNESSES

ROOT = Path(__file__).resolve().parents[2]
DECLARED = registry.reader_backends()


def _class(backend: ReaderBackend):
    module, _, name = backend.target.partition(":")
    return getattr(importlib.import_module(module), name)


def test_every_listed_module_declares_one_backend_that_the_registry_loads_by_name():
    names = [importlib.import_module(m).BACKEND.name for m in registry.READER_MODULES]
    assert names == list(DECLARED)[:len(names)] and len(set(names)) == len(names)
    assert set(names) <= set(registry.backends("reader"))


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_each_declared_option_is_a_keyword_of_the_backend(name):
    backend = DECLARED[name]
    accepted = registry._accepted_options(_class(backend))
    assert {o.keyword for o in backend.options} <= accepted
    assert _class(backend).backend == name


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_each_declared_backend_runs_the_reader_contract(name):
    assert any(h == name or h.startswith(name + "-") for h in HARNESSES), f"no contract harness for {name}"


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_the_units_device_rules_cover_each_backend(name):
    unit = (ROOT / "deploy/banquier.service").read_text()
    allowed = set(re.findall(r"^DeviceAllow=(.+)$", unit, re.M))
    for rule in DECLARED[name].device_classes:
        assert rule in allowed, f"{name}: DeviceAllow={rule} is missing from deploy/banquier.service"


def test_a_key_shared_by_two_backends_has_one_check():
    seen: dict[str, Option] = {}
    for backend in DECLARED.values():
        for option in backend.options:
            if option.key in seen:
                other = seen[option.key]
                assert (other.kind, other.lo, other.hi, other.choices) == \
                    (option.kind, option.lo, option.hi, option.choices), option.key
            seen.setdefault(option.key, option)


def test_an_option_environment_variable_overrides_its_key():
    assert ENV_OVERRIDES["BANQUIER_SERIAL_PORT"] == "hardware.reader.port"
    config = parse_config('[hardware.reader]\nbackend = "serial"\n', {"BANQUIER_SERIAL_PORT": "/dev/ttyS9"})
    assert config.reader.hal_options()["port"] == "/dev/ttyS9"


def test_a_backend_declared_later_gets_its_options_checked_by_the_configuration(monkeypatch):

    monkeypatch.setattr(registry, "_declared", dict(registry._declared))
    monkeypatch.setitem(registry._registry, "reader", dict(registry._registry["reader"]))
    registry.declare(ReaderBackend(name="toy", target="hal.sim_reader:SimReader", summary="a toy",
                                   options=(Option("loudness", "int", 3, arg="poll_interval_s", lo=1, hi=5),),
                                   uid_form=UidForm("reversed", "decimal")))
    with pytest.raises(ValueError, match=r"hardware\.reader\.loudness: 9 is out of range: use 1\.\.5"):
        parse_config('[hardware.reader]\nbackend = "toy"\nloudness = 9\n')
    config = parse_config('[hardware.reader]\nbackend = "toy"\nloudness = 4\n')
    assert config.reader.hal_options() == {"poll_interval_s": 4}
    assert config.reader.uid_form == UidForm("reversed", "decimal")
    assert parse_config(config.to_toml()) == config


def test_unknown_reader_keys_list_every_backends_keys():
    with pytest.raises(ValueError, match=r"unknown key \(known keys: backend, baudrate"):
        parse_config("[hardware.reader]\ncolour = 1\n")
