"""The gettext catalogs (terminal/table/locale/<lang>/LC_MESSAGES/banquier.po) and what the screen reads from them.

Every language has the same message ids, every entry is translated (none fuzzy), every translation keeps the
English entry's ``{placeholders}`` exactly, a plural entry has the number of forms its language's
``Plural-Forms`` says, and the compiled ``.mo`` shipped beside each ``.po`` is what compiling it gives.
"""
from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from terminal.table import i18n
from terminal.table.i18n import LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / "banquier.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as f:
        return read_po(f, locale=language)


CATALOGS = {language: read(language) for language in LANGUAGES}


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def forms(message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)


def test_the_catalogs_live_in_the_package_and_load_through_gettext():
    assert LOCALE_DIR == ROOT / "terminal" / "table" / "locale"
    for language in LANGUAGES:
        assert i18n.catalog(language).info()["language"] == language
    i18n.check_catalogs()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_the_same_ids(language):
    ids = {m.id for m in CATALOGS["en"] if m.id}
    assert {m.id for m in CATALOGS[language] if m.id} == ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    catalog = CATALOGS[language]
    assert not catalog.fuzzy
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, f"{language}: {message.id} is fuzzy"
        assert all(form.strip() for form in forms(message)), f"{language}: {message.id} is not translated"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders(language):
    english = {m.id: m for m in CATALOGS["en"] if m.id}
    for message in CATALOGS[language]:
        if not message.id:
            continue
        wanted = set().union(*(placeholders(form) for form in forms(english[message.id])))
        for form in forms(message):
            assert placeholders(form) == wanted, (
                f"{language}: {message.id} has {sorted(placeholders(form))} instead of {sorted(wanted)}: {form!r}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_entries_have_their_languages_forms(language):
    catalog = CATALOGS[language]
    assert catalog.num_plurals == {"fr": 2, "en": 2, "uk": 3}[language]
    for message in catalog:
        if message.pluralizable:
            assert message.id[1] == message.id[0] + i18n.PLURAL_SUFFIX, message.id
            assert len(message.string) == catalog.num_plurals, (language, message.id)
            assert i18n.COUNT in placeholders(message.string[0]), (language, message.id)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shipped_mo_is_the_compiled_po(language):
    compiled = io.BytesIO()
    write_mo(compiled, CATALOGS[language])
    shipped = po_path(language).with_suffix(".mo").read_bytes()
    assert shipped == compiled.getvalue(), f"{language}: the .mo is stale: run ./dev.sh i18n"


def test_a_missing_catalog_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.catalog.cache_clear()
    try:
        with pytest.raises(i18n.MissingCatalog, match="'uk' text catalog is missing") as info:
            i18n.catalog("uk")
        assert isinstance(info.value, FileNotFoundError)
        assert "reinstall Banquier" in str(info.value)
    finally:
        i18n.catalog.cache_clear()


def test_doctor_reports_a_missing_catalog(tmp_path, monkeypatch):
    from host_ui.shell import doctor
    assert doctor._check_texts().status == "ok"
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.catalog.cache_clear()
    try:
        found = doctor._check_texts()
    finally:
        i18n.catalog.cache_clear()
    assert found.status == "fail" and "'fr' text catalog is missing" in found.what and "reinstall" in found.fix


def test_the_package_ships_the_catalogs():
    """pyproject's package data takes every .po, .mo and the template (the wheel, so the Pi's reinstall)."""
    import fnmatch
    import tomllib
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["terminal"]
    files = [p.relative_to(ROOT / "terminal").as_posix() for p in LOCALE_DIR.rglob("*") if p.is_file()]
    assert len(files) == 1 + 2 * len(LANGUAGES)
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


def test_there_is_one_catalog_per_screen_language():
    from cards.editions import LANGUAGES as EDITION_LANGUAGES
    assert LANGUAGES is EDITION_LANGUAGES
    assert sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir()) == sorted(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_player_may_take_the_name_a_screen_gives_the_bank_or_the_pot(tmp_path, key, language):
    # a player called "Banque" made messages read "Bob → Banque 60 €" about a player
    from terminal.bank.game import Game
    from terminal.bank.players import RESERVED_NAMES
    from terminal.errors import RuleViolation
    for code in ("ui_bank_name", "ui_pot_name"):
        name = i18n.translate(code, {}, language)
        assert name.casefold() in RESERVED_NAMES, (language, name)
        with pytest.raises(RuleViolation) as refused:
            Game.create(tmp_path / f"{code}.db", "fr", ["Ann", name.upper()], key=key)
        assert refused.value.code == "player_name_reserved"
        assert not (tmp_path / f"{code}.db").exists()
