"""One card is one role on every reader: the card set keeps canonical UIDs, each reader's form is turned into
them (hal.uid.UidForm), old card sets keep working, and a card that another reader could take for another card
is refused with a one-line reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards.errors import AmbiguousCard
from cards.registry import BankerCard, CardRegistry, Enrolment, PlayerCard, reversed_uid
from hal.uid import UidForm, normalize_uid
from hal.uid import reversed_uid as hal_reversed


def test_a_card_enrolled_on_one_reader_is_recognised_on_readers_that_write_it_otherwise(tmp_path):
    registry = CardRegistry.load(tmp_path / "cards.txt")
    registry.enrol("04A1B2C3", PlayerCard(1))  # as the MFRC522 reads it
    forms = [UidForm("sent", "hex"), UidForm("reversed", "hex"), UidForm("reversed", "decimal"),
             UidForm("sent", "decimal"), UidForm("reversed", "auto")]
    for form in forms:
        typed = form.write("04A1B2C3")  # what that reader types or prints
        assert registry.lookup(form.canonical(typed)) == PlayerCard(1), (form, typed)
    assert UidForm("reversed", "decimal").write("04A1B2C3") == "3283263748"


def test_an_old_card_set_in_any_spelling_loads_and_matches_then_is_rewritten_canonical(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text("04:a1:b2:c3 = player 1\n0x1a2b3c4d = banker\n", encoding="utf-8")
    registry = CardRegistry.load(path)
    assert registry.lookup("04A1B2C3") == PlayerCard(1) and registry.lookup("1A2B3C4D") == BankerCard()
    registry.enrol("0A00BC614E", PlayerCard(2))
    text = path.read_text(encoding="utf-8")
    assert "04A1B2C3" in text and "1A2B3C4D" in text and "04:a1" not in text


def test_a_card_that_is_another_read_backwards_is_refused_with_one_line(tmp_path):
    path = tmp_path / "cards.txt"
    registry = CardRegistry.load(path)
    registry.enrol("04A1B2C3", PlayerCard(1))
    before = path.read_bytes()
    with pytest.raises(AmbiguousCard) as caught:
        registry.enrol("C3B2A104", PlayerCard(2))
    message = str(caught.value)
    assert "\n" not in message and "C3B2A104 read backwards is card 04A1B2C3" in message and "player 1" in message
    assert caught.value.params["other_uid"] == "04A1B2C3"
    assert path.read_bytes() == before and registry.lookup("C3B2A104") is None
    with pytest.raises(AmbiguousCard):
        registry.import_text("C3B2A104 = player 3\n")
    assert path.read_bytes() == before
    registry.enrol("A1B2B2A1", PlayerCard(4))  # a palindrome is its own reverse: one card, no ambiguity


def test_the_guided_enrolment_refuses_it_and_stays_on_the_step():
    registry = CardRegistry(None)
    registry.enrol("04A1B2C3", PlayerCard(1))
    enrolment = Enrolment(registry, [PlayerCard(2)])
    result = enrolment.present("C3B2A104")
    assert result.outcome == "ambiguous" and not result.accepted and result.code == "card_ambiguous"
    assert enrolment.prompt is not None and enrolment.prompt.role == PlayerCard(2)
    assert enrolment.present("11223344").accepted


def test_re_enrolling_a_lost_card_with_its_own_reverse_replaces_it():
    registry = CardRegistry(None)
    registry.enrol("04A1B2C3", PlayerCard(1))
    enrolment = Enrolment.single(registry, PlayerCard(1))
    assert enrolment.present("C3B2A104").outcome == "replaced"


def test_an_old_card_set_holding_such_a_pair_still_loads(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text("04A1B2C3 = player 1\nC3B2A104 = player 2\n", encoding="utf-8")
    registry = CardRegistry.load(path)
    assert registry.lookup("C3B2A104") == PlayerCard(2)


@given(raw=st.binary(min_size=4, max_size=10).filter(lambda b: len(b) in (4, 5, 7, 10)))
def test_reversing_agrees_with_the_hardware_layer(raw):
    uid = raw.hex().upper()
    assert reversed_uid(uid) == hal_reversed(uid) and reversed_uid(reversed_uid(uid)) == uid
    assert normalize_uid(reversed_uid(uid)) == reversed_uid(uid)
