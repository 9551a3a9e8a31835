"""Names at a table, and what no name or chat line may hold.

- :func:`clean_name`: a display name, NFKC-normalised, trimmed, 1..24 printable
  characters; no control or formatting characters, and a clear word for the
  bidirectional controls (:data:`BIDI_CONTROLS`), which would let a name or a chat
  line show its characters in another order than they are stored.
- :func:`same_name`: two names people would take for one: equal case-folded, or with
  the same *skeleton* (Unicode's confusables, UTS #39), so a Cyrillic "Аnna" is
  Anna, and "0tto" is Otto. The confusables data is Unicode's ``confusables.txt`` as
  the ``confusable-homoglyphs`` package ships it: for each character the characters
  it can be confused with (a look-alike maps to its prototype, a prototype to its
  look-alikes). A character's skeleton is the prototype of its class; the skeleton
  of a name is that of each character of its NFD form.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

from confusable_homoglyphs import confusables

from app.rooms.errors import BadRequest

NAME_MAX = 24
# the characters that change the order text is shown in (embeddings, overrides,
# isolates, the marks): U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C
BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"])


def has_bidi_control(text: str) -> bool:
    return any(ch in BIDI_CONTROLS for ch in text)


def clean_name(raw: Any) -> str:
    """A display name: NFKC-normalised (so a fullwidth "Ａnna" becomes "Anna"),
    trimmed, 1..24 printable characters. HTML is not stripped (names are always
    escaped when shown) but control and formatting characters (zero-width ones
    included) are refused, the bidirectional controls with their own words. Names are
    compared with :func:`same_name`."""
    if not isinstance(raw, str):
        raise BadRequest("Please type a name.")
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise BadRequest("Please type a name.")
    if len(name) > NAME_MAX:
        raise BadRequest("A name has at most {limit} characters.", limit=NAME_MAX)
    if has_bidi_control(name):
        raise BadRequest("A name cannot contain characters that change the writing "
                         "direction.")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadRequest("A name cannot contain control characters.")
    return name


def _look_alikes(ch: str) -> set[str]:
    """What ``ch`` can be confused with, by Unicode's confusables (the package marks
    right-to-left ones with U+200E around them: left out)."""
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[])
    if not found:
        return set()
    return {h["c"].replace("\u200e", "").replace("\u200f", "") for h in found[0]["homoglyphs"]}


@lru_cache(maxsize=8192)
def _prototype(ch: str) -> str:
    """The one string that stands for ``ch``'s class of look-alikes: its prototype
    when that is a sequence ("rn" for "m"), else the class's lowest character."""
    near = _look_alikes(ch)
    if not near:
        return ch
    members = {ch} | near
    for other in near:
        if len(other) == 1:
            members |= _look_alikes(other)
    members.discard("")
    sequences = sorted(m for m in members if len(m) > 1)
    return sequences[0] if sequences else min(members)


def skeleton(text: str) -> str:
    """``text`` with every character replaced by its prototype (NFD first, as UTS #39
    does; a prototype's characters are mapped again until nothing changes)."""
    out = unicodedata.normalize("NFD", text)
    for _round in range(3):
        mapped = unicodedata.normalize("NFD", "".join(_prototype(ch) for ch in out))
        if mapped == out:
            break
        out = mapped
    return out


def same_name(a: str, b: str) -> bool:
    """Two display names that people would take for the same one: equal once
    case-folded, or alike in their skeletons (as written, or case-folded)."""
    a, b = unicodedata.normalize("NFKC", a), unicodedata.normalize("NFKC", b)
    if a.casefold() == b.casefold():
        return True
    return skeleton(a) == skeleton(b) or skeleton(a.casefold()) == skeleton(b.casefold())
