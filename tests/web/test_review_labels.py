"""The review's words (issue 28): each option in the game's words and the reason in
the page's language, the action it names included."""

from __future__ import annotations

from app import i18n
from app.bots.review import BETTER, PASS_BETTER
from app.web.review import option_label, reason_text


def _in(language: str, fn, *args):  # noqa: ANN001, ANN002, ANN202
    token = i18n.set_language(language)
    try:
        return fn(*args)
    finally:
        i18n.reset_language(token)


def test_options_are_named_in_the_game_s_words_in_both_languages() -> None:
    cases = [("schafkopf_classic", "play:GU", "Gras Unter (leaves)", "Gras-Unter"),
             ("schafkopf_classic", "kontra", "Kontra!", "Kontra!"),
             ("luegenbeutel", "lay:2", "Lay number 2", "Zahl 2 ablegen"),
             ("luegenbeutel", "challenge:1", "“Lügenbeutel!” on card 1",
              "„Lügenbeutel!“ auf Karte 1"),
             ("luegenbeutel", "silent", "Let it pass", "Nichts sagen"),
             ("mauscheln", "exchange:", "Keep every card", "Alle Karten behalten")]
    for game, action, english, german in cases:
        assert _in("en", option_label, game, action) == english
        assert _in("de", option_label, game, action) == german


def test_a_kept_reason_is_told_in_the_request_s_language() -> None:
    better = {"key": BETTER, "text": "play:GU was better: it wins 1.5 more on average",
              "params": {"best": "play:GU", "points": 1.5}}
    assert _in("en", reason_text, "schafkopf_classic", better) == \
        "Gras Unter (leaves) was better: it wins 1.5 more on average"
    assert _in("de", reason_text, "schafkopf_classic", better) == \
        "Gras-Unter war besser: Es bringt im Schnitt 1,5 mehr."
    passing = {"key": PASS_BETTER, "text": "", "params": {"points": 12.0}}
    assert _in("de", reason_text, "luegenbeutel", passing) == \
        "Nichts zu sagen war besser: Es bringt im Schnitt 12,0 mehr."
    assert reason_text("schafkopf", None) == ""
    nested = {"key": "{why}", "text": "x", "params": {"why": better}}
    assert _in("en", reason_text, "schafkopf_classic", nested).startswith("Gras Unter (leaves)")
