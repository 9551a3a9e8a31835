"""Names people would take for one another (Unicode's confusables, UTS #39 skeletons)
and the characters no name may hold (issue 25 item 8)."""

from __future__ import annotations

import pytest

from app.rooms.errors import BadRequest
from app.rooms.names import BIDI_CONTROLS, clean_name, same_name, skeleton


@pytest.mark.parametrize(("a", "b"), [
    ("Anna", "\u0410nna"),  # Cyrillic capital A
    ("anna", "\u0430nn\u0430"),  # Cyrillic small a, twice
    ("Bert", "\u0412ert"),  # Cyrillic capital Ve
    ("Sepp", "Se\u0440\u0440"),  # Cyrillic er
    ("Resi", "R\u0435si"),  # Cyrillic ie
    ("Vroni", "Vron\u0456"),  # Ukrainian i
    ("Max", "\u041c\u0430\u0445"),  # Cyrillic em, a, ha
    ("Otto", "0tto"),  # a zero
    ("Carmen", "Carrnen"),  # r n looks like m
    ("Hans", "HANS"),
    ("J\u00f6rg", "Jo\u0308rg"),  # composed and decomposed o umlaut
    ("Anna", "\uff21nna"),  # fullwidth A
])
def test_look_alikes_are_the_same_name(a: str, b: str) -> None:
    assert same_name(a, b) and same_name(b, a)


@pytest.mark.parametrize(("a", "b"), [
    ("Anna", "Anne"), ("Bert", "Berta"), ("J\u00f6rg", "Jorg"), ("\u00dcmit", "Umit"),
    ("Zo\u00eb", "Zoe"), ("Li", "Lj"), ("Sepp", "Seppi"),
])
def test_other_names_are_other_people(a: str, b: str) -> None:
    assert not same_name(a, b)


def test_a_skeleton_maps_every_look_alike_to_one_prototype() -> None:
    assert skeleton("\u0410nna") == skeleton("Anna")
    assert skeleton("m") == skeleton("rn")
    assert skeleton("Anna") != skeleton("Anne")


@pytest.mark.parametrize("control", sorted(BIDI_CONTROLS))
def test_direction_controls_are_refused_in_names(control: str) -> None:
    with pytest.raises(BadRequest) as refused:
        clean_name(f"Be{control}rt")
    assert "writing direction" in refused.value.message


def test_the_direction_controls_are_those_of_unicode() -> None:
    expected = {*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C}
    assert {ord(c) for c in BIDI_CONTROLS} == expected
    assert clean_name("  Vroni   Huber ") == "Vroni Huber"
    with pytest.raises(BadRequest):
        clean_name("Bert\u200b")  # zero-width space: a formatting character
