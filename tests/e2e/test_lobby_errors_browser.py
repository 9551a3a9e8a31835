"""A refused lobby form in a browser, with JavaScript and without: the page comes
back with the game, the players, every option of every game and every table
option as entered, the message next to the fields it is about (marked for screen
readers), and opens the table once the field is changed. Screenshots of the
refused form (phone 390 × 844 and 360 × 740, desktop 1280 × 800, German and
English, light and dark) are saved under test-results/ for people to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server

SIZES = {"390x844": (390, 844), "360x740": (360, 740), "1280x800": (1280, 800)}
BELLI_WELI = {"en": "Belli and Weli cannot be played together",
              "de": "Belli und Weli gehen nicht zusammen"}
WELI_SIX = {"en": "32-card pack", "de": "32er-Blatt"}


def _fill(page: Any, js: bool, players: str, belli: bool) -> None:
    """The host's form: Lügenbeutel's target set on the way, then Mauscheln with
    house rules, and the table's own options."""
    page.check("#game-luegenbeutel")
    page.select_option('select[name="luegenbeutel.target"]', "300")
    page.check("#game-mauscheln")
    if js:  # only the chosen game's options are shown
        assert page.is_hidden(".opts-luegenbeutel") and page.is_visible(".opts-mauscheln")
    page.select_option('select[name="mauscheln.players"]', players)
    if belli:
        page.check('[name="mauscheln.belli"]')
    page.check('[name="mauscheln.weli"]')
    page.check('[name="mauscheln.knock"]')
    page.fill('[name="mauscheln.chips"]', "33")
    page.select_option('select[name="table.turn_clock"]', "60")
    page.fill('[name="table.away_seconds"]', "90")
    page.uncheck('[name="table.spectator_chat"]')
    page.click("form.create button[type=submit]")
    page.wait_for_load_state()


def _kept(page: Any, players: str, belli: bool) -> None:
    assert page.is_checked("#game-mauscheln")
    assert page.input_value('select[name="mauscheln.players"]') == players
    assert page.is_checked('[name="mauscheln.belli"]') is belli
    assert page.is_checked('[name="mauscheln.weli"]')
    assert page.is_checked('[name="mauscheln.knock"]')
    assert not page.is_checked('[name="mauscheln.quartets"]')
    assert page.input_value('[name="mauscheln.chips"]') == "33"
    assert page.input_value('select[name="luegenbeutel.target"]') == "300"
    assert page.input_value('select[name="table.turn_clock"]') == "60"
    assert page.input_value('[name="table.away_seconds"]') == "90"
    assert not page.is_checked('[name="table.spectator_chat"]')


def _marked(page: Any, fields: list[str], words: str) -> None:
    """Each field is invalid and described by the message, shown once, next to the
    last of them; the notice above the form says it too."""
    shown = page.locator(".field-error")
    assert shown.count() == 1 and words in shown.inner_text()
    error_id = shown.get_attribute("id")
    for name in fields:
        field = page.locator(f'[name="{name}"]')
        assert field.get_attribute("aria-invalid") == "true", name
        assert error_id in (field.get_attribute("aria-describedby") or "").split(), name
    assert words in page.inner_text(".notice.error")
    # the message sits right after the last field it is about
    last = fields[-1]
    follows = page.evaluate("""([name, id]) => {
        const field = document.querySelector(`[name="${name}"]`).closest('label');
        let next = field.nextElementSibling;
        return next && next.id === id;
    }""", [last, error_id])
    assert follows, f"the message follows {last}"


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_refused_lobby_form_comes_back_as_entered_with_the_message_at_the_field(
        browser: Any, sqlite_server: Server, shots: Path, js: bool, lang: str) -> None:
    schemes = ["light", "dark"] if js else ["light"]
    for scheme in schemes:
        for size, (w, h) in SIZES.items():
            context = browser.new_context(viewport={"width": w, "height": h},
                                          java_script_enabled=js, color_scheme=scheme)
            page = context.new_page()
            page.goto(f"{sqlite_server.base}/?lang={lang}")
            _fill(page, js, "5", belli=True)
            _kept(page, "5", belli=True)
            _marked(page, ["mauscheln.belli", "mauscheln.weli"], BELLI_WELI[lang])
            if js:  # the chosen game's options are shown, and the first field has focus
                assert page.is_visible(".opts-mauscheln")
                assert page.is_hidden(".opts-luegenbeutel")
                assert page.evaluate("document.activeElement.name") == "mauscheln.belli"
            else:  # without JavaScript every game's options stay on the page
                assert page.is_visible(".opts-luegenbeutel")
            page.screenshot(path=str(shots / f"{lang}-{scheme}-{size}.png"))
            page.locator(".opts-mauscheln").screenshot(
                path=str(shots / f"{lang}-{scheme}-{size}-mauscheln.png"))
            context.close()

    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  java_script_enabled=js)
    page = context.new_page()
    page.goto(f"{sqlite_server.base}/?lang={lang}")
    # Weli with six players: the player count and Weli are marked
    _fill(page, js, "6", belli=False)
    _kept(page, "6", belli=False)
    _marked(page, ["mauscheln.players", "mauscheln.weli"], WELI_SIX[lang])
    # the message said what to change: five players open the table
    page.select_option('select[name="mauscheln.players"]', "5")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/r/*")
    context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_lobby_offers_lugenbeutel_targets_with_how_long_a_match_lasts(
        browser: Any, sqlite_server: Server, shots: Path, lang: str) -> None:
    words = {"en": ("500 (about half an hour)", "200 (about 10 minutes)"),
             "de": ("500 (etwa eine halbe Stunde)", "200 (etwa 10 Minuten)")}[lang]
    for size in ("360x740", "1280x800"):
        w, h = SIZES[size]
        context = browser.new_context(viewport={"width": w, "height": h})
        page = context.new_page()
        page.goto(f"{sqlite_server.base}/?lang={lang}")
        page.check("#game-luegenbeutel")
        target = page.locator('select[name="luegenbeutel.target"]')
        offered = target.locator("option").all_inner_texts()
        assert words[0] in offered and words[1] in offered and len(offered) == 4
        assert target.input_value() == "500"  # the default stays
        page.locator(".opts-luegenbeutel").screenshot(path=str(shots / f"{lang}-{size}.png"))
        target.select_option("1000")
        page.click("form.create button[type=submit]")
        page.wait_for_url("**/r/*")
        context.close()
