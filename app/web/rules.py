"""The rules of each game, in the page's language: ``GET /rules/{game}``.

Made from ``docs/rules/<game>.md`` (English) and ``docs/rules/<game>.de.md`` (German)
with markdown-it-py (CommonMark plus tables). A card code in backticks that belongs
to the game's deck (`` `EO` ``, `` `bM` ``) is drawn as that card's face, with its
name in the page's language; any other code stays code. The HTML is rendered once
per game and language and kept (the documents do not change while the server runs).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup, escape

from app import i18n
from app.games import GAMES
from app.web.presentation import RULES, find
from app.web.render import card_face, templates

router = APIRouter(include_in_schema=False)


def source(game: str, language: str) -> Path | None:
    """The rules document of ``game`` in ``language`` (English when there is no
    translation), or None when the game has no rules document."""
    names = ([f"{game}.{language}.md"] if language != "en" else []) + [f"{game}.md"]
    return next((RULES / n for n in names if (RULES / n).is_file()), None)


def _card_html(game: str, code: str) -> str:
    p = find(game)
    assert p is not None
    f = p.face(code)
    inner = card_face(f)
    trump = " trump" if p.is_trump(code, {}) else ""
    return (f'<span class="card {escape(f.colour)}{trump}" title="{escape(f.title)}" '
            f'data-card="{escape(code)}">{inner}</span>')


def _markdown(game: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"typographer": False}).enable("table")
    deck = find(game).deck if find(game) is not None else frozenset()  # type: ignore[union-attr]

    def code_inline(self: RendererHTML, tokens: list[Token], idx: int,
                    options: OptionsDict, env_: EnvType) -> str:
        code = tokens[idx].content
        if code in deck:
            return _card_html(game, code)
        return f"<code>{escape(code)}</code>"

    md.add_render_rule("code_inline", code_inline)
    return md


@lru_cache(maxsize=64)
def rules_html(game: str, language: str) -> tuple[str, str] | None:
    """(title, HTML body) of the rules of ``game`` in ``language``; None when there are
    none. Rendered in that language (card names) and kept."""
    path = source(game, language)
    if path is None:
        return None
    text = path.read_text(encoding="utf-8")
    with i18n.language(language):
        body = _markdown(game).render(text)
    first = text.lstrip().splitlines()[0] if text.strip() else game
    title = first.lstrip("#").strip() or game
    return title, body


@router.get("/rules/{game}", response_class=HTMLResponse, name="rules")
async def rules_page(game: str, request: Request) -> HTMLResponse:
    language = i18n.get_language()
    found = rules_html(game, language) if game in GAMES else None
    context: dict[str, Any] = {"game": game, "info": GAMES.get(game),
                               "P": find(game) if game in GAMES else None}
    if found is None:
        return templates.TemplateResponse(request, "rules.html", context, status_code=404)
    title, body = found
    context.update(title=title, body=Markup(body))  # noqa: S704 - our own documents
    return templates.TemplateResponse(request, "rules.html", context)
