"""The card registry: roles, UIDs, the card-set file (format, refusals, atomic writes) and the enrolment."""
from __future__ import annotations

import os
import stat

import pytest

from cards.editions import available_editions, load_edition
from cards.errors import (
    AlreadyEnrolled,
    CardsError,
    CardSetError,
    CardSetFileError,
    EnrolmentStateError,
    InvalidRoleError,
    InvalidUidError,
    NotEnrolled,
    RoleHasCard,
)
from cards.registry import (
    UID_LENGTHS,
    BankerCard,
    CardRegistry,
    DeedCard,
    Enrolment,
    PlayerCard,
    deed_squares,
    default_card_set_path,
    describe,
    normalize_uid,
    parse_role,
)

FR = load_edition("fr")
CARD_4 = "04A1B2C3"
CARD_7 = "04A1B2C3D4E5F6"  # shares its first four bytes with CARD_4: another card
CARD_10 = "04A1B2C3D4E5F6071829"
EM4100 = "1A2B3C4D5E"


def uids(n: int) -> list[str]:
    """``n`` distinct 4-byte UIDs."""
    return [f"0A{i:06X}" for i in range(1, n + 1)]


@pytest.fixture
def path(tmp_path):
    return tmp_path / "banquier" / "cards.txt"


@pytest.fixture
def registry(path):
    return CardRegistry.load(path, edition=FR)


def reloaded(path) -> CardRegistry:
    return CardRegistry.load(path, edition=FR)


# --- Roles --------------------------------------------------------------------------------------------------


def test_role_labels_and_parsing_round_trip():
    roles = [BankerCard(), *(PlayerCard(n) for n in range(1, 9)), *(DeedCard(s) for s in deed_squares())]
    assert [PlayerCard(3).label, DeedCard(39).label, BankerCard().label] == ["player 3", "deed 39", "banker"]
    assert str(PlayerCard(3)) == "player 3"
    for role in roles:
        assert parse_role(role.label) == role
    assert parse_role("  Player   7 ") == PlayerCard(7) and parse_role("BANKER") == BankerCard()
    assert len({PlayerCard(1), PlayerCard(1), BankerCard(), BankerCard()}) == 2  # hashable values
    with pytest.raises(AttributeError):
        PlayerCard(1).number = 2  # frozen


@pytest.mark.parametrize("make", [lambda: PlayerCard(0), lambda: PlayerCard(9), lambda: PlayerCard(True),
                                  lambda: PlayerCard("1"), lambda: DeedCard(0), lambda: DeedCard(4),
                                  lambda: DeedCard(10), lambda: DeedCard(40), lambda: DeedCard(-1)])
def test_impossible_roles_are_refused(make):
    with pytest.raises(InvalidRoleError) as info:
        make()
    assert isinstance(info.value, ValueError) and isinstance(info.value, CardsError)


def test_role_refusal_messages():
    with pytest.raises(InvalidRoleError, match="There is no player 9: players are numbered 1 to 8"):
        PlayerCard(9)
    with pytest.raises(InvalidRoleError, match="Square 4 is not a title deed") as info:
        DeedCard(4)
    assert (info.value.code, info.value.params) == ("not_a_deed", {"square": 4})


@pytest.mark.parametrize("label", ["", "player", "player 9", "deed 4", "deed 40", "bank", "player one",
                                   "player 1 extra", "deed -1"])
def test_bad_labels_are_refused(label):
    with pytest.raises(InvalidRoleError):
        parse_role(label)


def test_deed_squares_are_the_deeds_of_every_shipped_edition():
    assert len(deed_squares()) == 28
    for name in available_editions():
        if not load_edition(name).is_ultimate:  # the electronic board has its own 36 squares
            assert {s.index for s in load_edition(name).deeds()} == deed_squares()


def test_describe_names_the_card():
    assert describe(PlayerCard(2)) == "player 2's bank card"
    assert describe(BankerCard()) == "the banker card"
    assert describe(DeedCard(39)) == "the sticker on deed 39"
    assert describe(DeedCard(39), FR) == "the sticker on Rue de la Paix"
    assert describe(DeedCard(39), load_edition("us")) == "the sticker on Boardwalk"


# --- UIDs ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, canonical", [
    ("04a1b2c3", CARD_4), ("04:A1:B2:C3", CARD_4), ("0x04A1B2C3", CARD_4), (" 04 a1 b2 c3 ", CARD_4),
    ("04-a1-b2-c3-d4-e5-f6", CARD_7), (CARD_10.lower(), CARD_10), (EM4100, EM4100)])
def test_uids_of_4_5_7_and_10_bytes_are_normalised(text, canonical):
    assert normalize_uid(text) == canonical


@pytest.mark.parametrize("text", ["", "0x", "XYZ12345", "04A1B2C", "04A1B2", "04A1B2C3D4E5", "04" * 11,
                                  "04A1B2C3D4E5F607", "04A1B2C3\n=", None, 0x04A1B2C3, b"04A1B2C3"])
def test_invalid_uids_are_refused(text, registry):
    with pytest.raises(InvalidUidError) as info:
        normalize_uid(text)
    assert isinstance(info.value, ValueError)
    with pytest.raises(InvalidUidError):
        registry.enrol(text, PlayerCard(1))
    assert len(registry) == 0 and not registry.path.exists()


def test_uids_agree_with_the_hardware_layer():
    """cards does not import hal; this contract test keeps the two UID validators in step."""
    from hal.errors import InvalidUidError as HalInvalidUid
    from hal.uid import UID_LENGTHS as HAL_LENGTHS
    from hal.uid import normalize_uid as hal_normalize
    assert UID_LENGTHS == HAL_LENGTHS
    for text in ("04a1b2c3", "04:A1:B2:C3:D4:E5:F6", "0x" + CARD_10, EM4100):
        assert normalize_uid(text) == hal_normalize(text)
    for text in ("", "04A1B2", "XYZ12345", "04A1B2C3D4E5"):
        with pytest.raises(InvalidUidError):
            normalize_uid(text)
        with pytest.raises(HalInvalidUid):
            hal_normalize(text)


def test_a_7_byte_and_a_4_byte_uid_sharing_first_bytes_are_different_cards(registry, path):
    assert CARD_7.startswith(CARD_4)
    registry.enrol(CARD_4, PlayerCard(1))
    assert registry.lookup(CARD_7) is None
    registry.enrol(CARD_7, DeedCard(39))
    registry.enrol(CARD_10, DeedCard(37))
    fresh = reloaded(path)
    assert (fresh.lookup(CARD_4), fresh.lookup(CARD_7), fresh.lookup(CARD_10)) == (
        PlayerCard(1), DeedCard(39), DeedCard(37))


# --- The registry -------------------------------------------------------------------------------------------


def test_missing_file_is_an_empty_set_created_on_first_change(registry, path):
    assert len(registry) == 0 and registry.roles() == {} and not path.exists()
    assert registry.lookup(CARD_4) is None and registry.uid_of(PlayerCard(1)) is None
    assert registry.enrol("04:a1:b2:c3", PlayerCard(1)) is None
    assert path.is_file()
    assert reloaded(path).lookup(CARD_4) == PlayerCard(1)


def test_every_change_is_saved(registry, path):
    a, b, c, d = uids(4)
    registry.enrol(a, BankerCard())
    registry.enrol(b, PlayerCard(2))
    registry.enrol(c, DeedCard(1))
    assert reloaded(path).roles() == {BankerCard(): a, PlayerCard(2): b, DeedCard(1): c}
    assert registry.forget(b) == PlayerCard(2)
    assert reloaded(path).roles() == {BankerCard(): a, DeedCard(1): c}
    assert registry.enrol(d, DeedCard(1), replace=True) == c
    fresh = reloaded(path)
    assert fresh.roles() == {BankerCard(): a, DeedCard(1): d} and fresh.lookup(c) is None
    assert c not in fresh and d in fresh and "not a uid" not in fresh


def test_roles_are_listed_banker_players_then_deeds_in_board_order(registry):
    a, b, c, d, e = uids(5)
    registry.enrol(a, DeedCard(39))
    registry.enrol(b, PlayerCard(3))
    registry.enrol(c, DeedCard(1))
    registry.enrol(d, BankerCard())
    registry.enrol(e, PlayerCard(1))
    assert list(registry.roles()) == [BankerCard(), PlayerCard(1), PlayerCard(3), DeedCard(1), DeedCard(39)]


@pytest.mark.parametrize("role, message", [
    (PlayerCard(2), "This card is already player 2's bank card"),
    (BankerCard(), "This card is already the banker card"),
    (DeedCard(39), "This card is already the sticker on Rue de la Paix"),
])
def test_a_card_already_enrolled_is_refused_with_its_role(registry, path, role, message):
    registry.enrol(CARD_4, role)
    before = path.read_bytes()
    for other in (PlayerCard(5), role):  # another role, and even the same one
        with pytest.raises(AlreadyEnrolled, match=message) as info:
            registry.enrol(CARD_4.lower(), other, replace=True)
        assert isinstance(info.value, ValueError)
        assert info.value.code == "card_already_enrolled"
        assert info.value.params["uid"] == CARD_4 and info.value.params["role"] == role.label
    assert path.read_bytes() == before and registry.roles() == {role: CARD_4}


def test_a_role_with_a_card_is_refused_unless_replacing(registry, path):
    registry.enrol(CARD_4, PlayerCard(1))
    with pytest.raises(RoleHasCard, match=r"Player 1 already has a bank card \(04A1B2C3\)") as info:
        registry.enrol(CARD_7, PlayerCard(1))
    assert isinstance(info.value, ValueError)
    assert info.value.params == {"role": "player 1", "kind": "player", "number": 1, "current_uid": CARD_4}
    assert registry.lookup(CARD_7) is None
    registry.enrol(CARD_10, DeedCard(39))
    with pytest.raises(RoleHasCard, match="Rue de la Paix already has a sticker"):
        registry.enrol(CARD_7, DeedCard(39))
    # Re-enrolling a lost card: the old UID is forgotten.
    assert registry.enrol(CARD_7, PlayerCard(1), replace=True) == CARD_4
    fresh = reloaded(path)
    assert fresh.lookup(CARD_4) is None and fresh.uid_of(PlayerCard(1)) == CARD_7


def test_forgetting_an_unknown_card_is_refused(registry):
    with pytest.raises(NotEnrolled, match="Card 04A1B2C3 is not enrolled") as info:
        registry.forget("04a1b2c3")
    assert isinstance(info.value, LookupError)


def test_a_role_must_be_a_role_object(registry):
    with pytest.raises(InvalidRoleError, match="parse_role"):
        registry.enrol(CARD_4, "player 1")
    with pytest.raises(InvalidRoleError):
        registry.uid_of(3)


def test_an_in_memory_registry_saves_nowhere(tmp_path):
    registry = CardRegistry(None, {CARD_4: PlayerCard(1)})
    registry.enrol(CARD_7, BankerCard())
    registry.save()
    assert registry.roles() == {BankerCard(): CARD_7, PlayerCard(1): CARD_4}
    assert list(tmp_path.iterdir()) == []


def test_default_path_is_in_the_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(tmp_path))
    assert default_card_set_path() == tmp_path / "cards.txt"


# --- The file format, export and import -------------------------------------------------------------------


def test_the_file_is_readable_text_with_deed_names(registry, path):
    registry.enrol(CARD_7, DeedCard(39))
    registry.enrol(CARD_4, PlayerCard(1))
    registry.enrol(EM4100, BankerCard())
    text = path.read_text(encoding="utf-8")
    assert text == registry.export_text()
    assert text.startswith("# Banquier card set")
    body = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert body == [f"{EM4100:<20} = banker", f"{CARD_4:<20} = player 1",
                    f"{CARD_7:<20} = deed 39  # Rue de la Paix"]
    assert "# Title deed stickers" in text and "# Bank cards" in text


def test_export_import_round_trip(registry, path, tmp_path):
    cards = dict(zip(uids(37), [BankerCard(), *(PlayerCard(n) for n in range(1, 9)),
                                *(DeedCard(s) for s in sorted(deed_squares()))], strict=True))
    for uid, role in cards.items():
        registry.enrol(uid, role)
    text = registry.export_text()
    other = CardRegistry.load(tmp_path / "other" / "cards.txt")
    assert other.import_text(text) == 37
    assert {u: r for r, u in other.roles().items()} == cards
    assert CardRegistry.load(other.path).roles() == registry.roles()
    assert other.import_text(text) == 0  # importing the same cards again changes nothing
    # Without an edition there are no deed names, and the text still reads back the same.
    assert "Rue de la Paix" not in other.export_text() and "Rue de la Paix" in text
    assert CardRegistry(None).import_text(other.export_text()) == 37


def test_import_accepts_hand_written_text(registry):
    text = ("\ufeff# my cards\r\n\r\n04:a1:b2:c3 = Player 1   # Ann\r\n"
            "0x04a1b2c3d4e5f6=deed 39\r\n   \r\n1A2B3C4D5E = banker\r\n")
    assert registry.import_text(text) == 3
    assert registry.roles() == {BankerCard(): EM4100, PlayerCard(1): CARD_4, DeedCard(39): CARD_7}


def test_import_refuses_conflicts_and_changes_nothing(registry, path):
    a, b, c = uids(3)
    registry.enrol(a, PlayerCard(1))
    before = path.read_bytes()
    with pytest.raises(AlreadyEnrolled, match=r"imported text, line 2: This card is already player 1's bank card"):
        registry.import_text(f"{b} = player 2\n{a} = player 3\n")
    with pytest.raises(RoleHasCard, match=r"imported text, line 3: Player 1 already has a bank card") as info:
        registry.import_text(f"{b} = player 2\n\n{c} = player 1\n")
    assert info.value.params["line"] == 3
    assert path.read_bytes() == before and registry.roles() == {PlayerCard(1): a}


@pytest.mark.parametrize("text, line, reason", [
    ("{a} = player 1\n{a} = player 2\n", 2, "card {a} is already listed on line 1"),
    ("{a} = player 1\n# x\n{b} = Player 1\n", 3, "player 1 already has card {a} on line 1"),
])
def test_import_refuses_duplicates(registry, path, text, line, reason):
    a, b = uids(2)
    with pytest.raises(CardSetError) as info:
        registry.import_text(text.format(a=a, b=b))
    assert str(info.value).startswith(f"imported text, line {line}: {reason.format(a=a)}")
    assert info.value.params["line"] == line
    assert len(registry) == 0 and not path.exists()


def test_import_replace_all(registry, path):
    a, b, c = uids(3)
    registry.enrol(a, PlayerCard(1))
    registry.enrol(b, PlayerCard(2))
    assert registry.import_text(f"{c} = player 1\n{a} = banker\n", replace_all=True) == 2
    assert reloaded(path).roles() == {BankerCard(): a, PlayerCard(1): c}
    with pytest.raises(CardSetError):
        registry.import_text("garbage\n", replace_all=True)
    assert reloaded(path).roles() == {BankerCard(): a, PlayerCard(1): c}


@pytest.mark.parametrize("bad_line, reason", [
    ("04A1B2C3 player 1", "expected 'UID = role'"),
    ("04A1B2C3 = player 1 = banker", "expected 'UID = role'"),
    ("04A1B2C3 =", "'' is not a role"),
    ("= player 1", "'' is not a card UID"),
    ("04A1B2C = player 1", "is 3.5 bytes long"),
    ("04A1B2C3D4 E5 = player 1", "is 6 bytes long"),
    ("ZZA1B2C3 = player 1", "is not a card UID"),
    ("04A1B2C3 = player 9", "There is no player 9"),
    ("04A1B2C3 = deed 4", "Square 4 is not a title deed"),
    ("04A1B2C3 = wallet", "'wallet' is not a role"),
    ("\x00\x00\x00\x00", "expected 'UID = role'"),
])
def test_a_malformed_file_is_refused_naming_the_line_and_kept(path, bad_line, reason):
    path.parent.mkdir(parents=True)
    content = f"# cards\n\n0A000001 = banker\n{bad_line}\n0A000002 = player 2\n"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CardSetError) as info:
        CardRegistry.load(path)
    message = str(info.value)
    assert message.startswith(f"{path}, line 4: ") and reason in message
    assert isinstance(info.value, ValueError) and info.value.params["line"] == 4
    assert path.read_text(encoding="utf-8") == content  # never replaced by an empty set


def test_an_empty_file_is_taken_for_damage_not_for_an_empty_set(path):
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    with pytest.raises(CardSetError, match="empty"):
        CardRegistry.load(path)
    assert path.read_bytes() == b""


def test_a_file_that_is_not_text_is_refused(path):
    path.parent.mkdir(parents=True)
    path.write_bytes(b"0A000001 = banker\n\xff\xfe\x00garbage\n")
    with pytest.raises(CardSetError, match="line 2: not UTF-8"):
        CardRegistry.load(path)


def test_a_header_only_file_is_an_empty_set(registry, path):
    registry.enrol(CARD_4, PlayerCard(1))
    registry.forget(CARD_4)
    assert path.read_text(encoding="utf-8").startswith("#")
    assert len(reloaded(path)) == 0


def test_an_unreadable_card_set_is_an_os_error(tmp_path):
    (tmp_path / "cards.txt").mkdir()
    with pytest.raises(CardSetFileError, match="Cannot read the card set") as info:
        CardRegistry.load(tmp_path / "cards.txt")
    assert isinstance(info.value, OSError)


# --- Atomic writes ----------------------------------------------------------------------------------------


def test_a_crash_before_the_rename_leaves_the_old_file(registry, path, monkeypatch):
    registry.enrol(CARD_4, PlayerCard(1))
    before = path.read_bytes()

    def power_cut(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(CardSetFileError, match="Cannot save the card set") as info:
        registry.enrol(CARD_7, PlayerCard(2))
    assert isinstance(info.value, OSError) and info.value.code == "card_set_unwritable"
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["cards.txt"]  # the temporary file is gone
    assert registry.lookup(CARD_7) is None  # memory still matches the file
    with pytest.raises(CardSetFileError):
        registry.forget(CARD_4)
    assert registry.lookup(CARD_4) == PlayerCard(1)
    monkeypatch.undo()
    registry.enrol(CARD_7, PlayerCard(2))
    assert reloaded(path).roles() == {PlayerCard(1): CARD_4, PlayerCard(2): CARD_7}


def test_an_interrupted_write_leaves_the_old_file(registry, path, monkeypatch):
    registry.enrol(CARD_4, PlayerCard(1))
    before = path.read_bytes()

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        registry.enrol(CARD_7, PlayerCard(2))
    assert path.read_bytes() == before and [p.name for p in path.parent.iterdir()] == ["cards.txt"]


def test_the_file_and_its_folder_are_synced_around_the_rename(registry, path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(src, dst):
        assert os.path.dirname(src) == os.path.dirname(dst)  # same folder, so the rename is atomic
        events.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    registry.enrol(CARD_4, PlayerCard(1))
    assert events == ["fsync file", "replace", "fsync folder"]


def test_a_temporary_file_left_by_a_crash_is_ignored(registry, path):
    registry.enrol(CARD_4, PlayerCard(1))
    (path.parent / ".cards.txt.abc123.tmp").write_text("04A1B2C3 = play", encoding="utf-8")
    assert reloaded(path).roles() == {PlayerCard(1): CARD_4}


def test_saving_where_no_folder_can_be_made_is_an_os_error(tmp_path):
    with pytest.raises(CardSetFileError, match="Cannot read the card set"):
        (tmp_path / "a-file").write_text("x")
        CardRegistry.load(tmp_path / "a-file" / "cards.txt")
    registry = CardRegistry.load(tmp_path / "folder" / "cards.txt")
    (tmp_path / "folder").write_text("a file where the folder should be")
    with pytest.raises(CardSetFileError, match="The previous file is kept"):
        registry.enrol(CARD_4, PlayerCard(1))
    assert len(registry) == 0


def test_the_file_mode_is_kept(registry, path):
    registry.enrol(CARD_4, PlayerCard(1))
    os.chmod(path, 0o640)
    registry.enrol(CARD_7, PlayerCard(2))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


# --- Enrolment --------------------------------------------------------------------------------------------


def test_the_default_enrolment_is_the_banker_then_eight_players(registry):
    enrolment = Enrolment(registry)
    assert [s.role for s in enrolment.steps] == [BankerCard(), *(PlayerCard(n) for n in range(1, 9))]
    step = enrolment.prompt
    assert (step.code, dict(step.params), step.text) == (
        "enrol_tap_banker", {"role": "banker", "kind": "banker"}, "Tap the banker card")
    step = enrolment.steps[1]
    assert (step.code, step.params["number"], step.text) == ("enrol_tap_player", 1, "Tap the card for player 1")


def test_deed_steps_follow_the_board_with_the_edition_names(registry):
    enrolment = Enrolment(registry, players=2, deeds=True)
    deeds = enrolment.steps[3:]
    assert [s.role for s in deeds] == [DeedCard(s.index) for s in FR.deeds()]
    assert (deeds[0].text, deeds[-1].text) == ("Tap the sticker on Boulevard de Belleville",
                                               "Tap the sticker on Rue de la Paix")
    assert deeds[-1].code == "enrol_tap_deed"
    assert dict(deeds[-1].params) == {"role": "deed 39", "kind": "deed", "square": 39, "name": "Rue de la Paix"}
    us = Enrolment(CardRegistry(None), [DeedCard(39)], edition=load_edition("us"))
    assert us.prompt.text == "Tap the sticker on Boardwalk"
    assert Enrolment(CardRegistry(None), [DeedCard(39)]).prompt.text == "Tap the sticker on deed 39"


def test_an_enrolment_with_skips(registry, path):
    banker, ann, cid = uids(3)
    enrolment = Enrolment(registry, players=3)
    result = enrolment.present(banker)
    assert result.accepted and (result.outcome, result.code) == ("enrolled", "enrol_enrolled")
    assert result.role == BankerCard() and result.uid == banker
    assert enrolment.prompt.role == PlayerCard(1)
    assert enrolment.present(ann).outcome == "enrolled"
    assert enrolment.skip().role == PlayerCard(3)  # player 2 skipped; returns the next step
    assert not enrolment.done
    result = enrolment.present(cid.lower())
    assert result.outcome == "enrolled" and enrolment.done and enrolment.prompt is None
    assert reloaded(path).roles() == {BankerCard(): banker, PlayerCard(1): ann, PlayerCard(3): cid}
    summary = enrolment.summary()
    assert summary.enrolled == (BankerCard(), PlayerCard(1), PlayerCard(3))
    assert summary.skipped == (PlayerCard(2),) and summary.pending == () and summary.replaced == ()
    assert summary.code == "enrol_summary" and summary.params["enrolled"] == 3
    assert summary.text == "3 enrolled, 0 replaced, 0 unchanged, 1 skipped, 0 left"


def test_a_card_already_enrolled_is_refused_and_the_step_stays(registry, path):
    enrolment = Enrolment(registry, players=2, edition=FR)
    enrolment.present(CARD_4)  # banker
    enrolment.present(CARD_7)  # player 1
    before = path.read_bytes()
    result = enrolment.present(CARD_7)  # the same card again (tapped twice) for player 2
    assert not result.accepted and result.outcome == "already_enrolled"
    assert result.code == "card_already_enrolled" and result.current_role == PlayerCard(1)
    assert result.text.startswith("This card is already player 1's bank card")
    assert result.params["role"] == "player 1" and result.params["uid"] == CARD_7
    assert enrolment.prompt.role == PlayerCard(2) and path.read_bytes() == before


def test_a_role_that_has_a_card_is_refused_unless_the_enrolment_replaces(registry):
    a, b, c = uids(3)
    registry.enrol(a, PlayerCard(1))
    enrolment = Enrolment(registry, [PlayerCard(1)])
    result = enrolment.present(b)
    assert (result.outcome, result.code, result.accepted) == ("role_has_card", "role_has_card", False)
    assert result.previous_uid == a and result.params["current_uid"] == a
    assert result.text.startswith("Player 1 already has a bank card (0A000001). Skip this step")
    result = enrolment.present(a)  # its own card: nothing to do, accepted
    assert (result.outcome, result.code, result.accepted) == ("unchanged", "enrol_unchanged", True)
    assert enrolment.done and enrolment.summary().unchanged == (PlayerCard(1),)
    replacing = Enrolment(registry, [PlayerCard(1)], replace=True)
    result = replacing.present(c)
    assert (result.outcome, result.code, result.previous_uid) == ("replaced", "enrol_replaced", a)
    assert "the old card 0A000001 no longer works" in result.text
    assert registry.lookup(a) is None and registry.uid_of(PlayerCard(1)) == c
    assert replacing.summary().replaced == (PlayerCard(1),)


def test_re_enrolling_a_single_lost_card(registry, path):
    registry.enrol(CARD_4, DeedCard(39))
    enrolment = Enrolment.single(registry, DeedCard(39))
    assert enrolment.prompt.text == "Tap the sticker on Rue de la Paix" and len(enrolment.steps) == 1
    result = enrolment.present(CARD_7)
    assert result.outcome == "replaced" and enrolment.done
    assert reloaded(path).roles() == {DeedCard(39): CARD_7}


def test_back_redoes_a_step_replacing_the_card_it_took(registry):
    first, wrong, right = uids(3)
    enrolment = Enrolment(registry, [PlayerCard(1), PlayerCard(2)])
    enrolment.present(first)
    enrolment.present(wrong)
    assert enrolment.done
    assert enrolment.back().role == PlayerCard(2)  # from done, back to the last step
    assert registry.uid_of(PlayerCard(2)) == wrong  # nothing forgotten yet
    result = enrolment.present(right)
    assert result.outcome == "replaced" and result.previous_uid == wrong and registry.lookup(wrong) is None
    assert enrolment.summary().enrolled == (PlayerCard(1), PlayerCard(2))
    enrolment.back()
    assert enrolment.back().role == PlayerCard(1)
    with pytest.raises(EnrolmentStateError, match="Can't go back from the first enrolment step"):
        enrolment.back()
    enrolment.skip()  # skipping a step already enrolled keeps its card and its status
    assert registry.uid_of(PlayerCard(1)) == first and enrolment.summary().enrolled[0] == PlayerCard(1)


def test_back_to_a_skipped_step_then_its_own_card(registry):
    a, = uids(1)
    registry.enrol(a, PlayerCard(1))
    enrolment = Enrolment(registry, [PlayerCard(1), PlayerCard(2)])
    enrolment.skip()
    assert enrolment.summary().skipped == (PlayerCard(1),)
    enrolment.back()
    assert enrolment.present(a).outcome == "unchanged"
    summary = enrolment.summary()
    assert summary.unchanged == (PlayerCard(1),) and summary.pending == (PlayerCard(2),)


def test_commands_after_the_end_are_refused(registry):
    enrolment = Enrolment(registry, [BankerCard()])
    assert enrolment.skip() is None and enrolment.done
    with pytest.raises(EnrolmentStateError, match="Can't present a card: the enrolment is finished"):
        enrolment.present(CARD_4)
    with pytest.raises(EnrolmentStateError, match="Can't skip a step: the enrolment is finished"):
        enrolment.skip()
    assert len(registry) == 0


def test_missing_only_leaves_out_roles_with_a_card(registry):
    registry.enrol(CARD_4, BankerCard())
    registry.enrol(CARD_7, PlayerCard(2))
    enrolment = Enrolment(registry, players=3, missing_only=True)
    assert [s.role for s in enrolment.steps] == [PlayerCard(1), PlayerCard(3)]


def test_bad_step_lists_are_refused(registry):
    with pytest.raises(InvalidRoleError, match="player 1 is listed twice"):
        Enrolment(registry, [PlayerCard(1), BankerCard(), PlayerCard(1)])
    with pytest.raises(InvalidRoleError):
        Enrolment(registry, ["player 1"])
    with pytest.raises(InvalidRoleError):
        Enrolment(registry, players=9)
    assert Enrolment(registry, []).done


def test_an_enrolment_whose_save_fails_stays_on_its_step(registry, path, monkeypatch):
    enrolment = Enrolment(registry)
    enrolment.present(CARD_4)
    monkeypatch.setattr(os, "replace", lambda src, dst: (_ for _ in ()).throw(OSError(28, "No space left")))
    with pytest.raises(CardSetFileError, match="No space left"):
        enrolment.present(CARD_7)
    assert enrolment.prompt.role == PlayerCard(1) and registry.lookup(CARD_7) is None
    monkeypatch.undo()
    assert enrolment.present(CARD_7).outcome == "enrolled"
    assert reloaded(path).roles() == {BankerCard(): CARD_4, PlayerCard(1): CARD_7}


def test_event_numbers_are_the_editions_cards_of_every_rules_version():
    from cards.editions import load_edition
    from cards.registry import EVENT_NUMBERS, EventCard
    edition = load_edition("ultimate")
    assert list(EVENT_NUMBERS) == [c.number for c in edition.events] == list(range(1, 25))
    assert set(EVENT_NUMBERS) == {c.number for v in (1, 2) for c in edition.deck(v)}
    with pytest.raises(InvalidRoleError, match="numbered 1 to 24") as info:
        EventCard(25)
    assert info.value.params == {"number": 25, "last": 24}
