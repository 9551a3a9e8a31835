"""The evening's story as a picture: every player's score (or chips, or balance in
euros and cents) after each deal, one line per player, drawn server-side as an SVG
(no JavaScript).

Accessible: the SVG is ``role="img"`` with a ``<title>`` and a ``<desc>`` that say
the numbers, every point has its own ``<title>`` (a tooltip), and on request the
numbers follow as a table for screen readers. Colours are SVG presentation
attributes (no inline styles) and each line also has its own dash pattern, so
the lines can be told apart without colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from app.i18n import _, format_money

WIDTH, HEIGHT = 600, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 12, 30
# the width of a character of an axis label, in the picture's units, at the largest
# size the page draws them (18 on a phone, where the picture is scaled down:
# static/css/social.css)
AXIS_CHAR_W = 10.5
COLOURS = ("#2f6fb0", "#b0452f", "#2e7d32", "#8a5a00", "#7b3fa0", "#00838f", "#c2185b",
           "#455a64")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 2", "10 4", "3 3 1 3")
MAX_X_LABELS = 12
SAME_SHIFT = 3  # how far a line equal to an earlier one is drawn below it


def nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2, 5 times a power of ten) that cuts ``span`` into about
    ``ticks`` parts."""
    raw = max(span / ticks, 1e-9)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def score_chart(names: Sequence[str | None], deals: Sequence[tuple[int, Sequence[int]]],
                measure: str, *, chart_id: str = "score-chart",
                table: bool = False, money: bool = False) -> Markup:
    """``deals`` are ``(deal_no, every seat's score after it)``; one point per deal
    and player. Empty when no deal has finished yet. ``money``: the scores are
    balances in cents (a settlement), written as euros and cents in the page's
    language (axis, tooltips, legend, table); ``measure`` is not said then."""
    if not deals:
        return Markup("")
    say: Callable[[int], str] = format_money if money else str
    players = len(deals[0][1])
    labels = [str(n) if n else _("Seat {n}").format(n=i + 1)
              for i, n in enumerate(list(names)[:players])]
    labels += [_("Seat {n}").format(n=i + 1) for i in range(len(labels), players)]
    values = [v for _no, scores in deals for v in scores]
    lo, hi = min(0, *values), max(0, *values)
    step = nice_step(hi - lo or 1)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if hi == lo:
        hi = lo + step
    # room for the longest label of the axis (euros are longer than counts), at the
    # largest size the page gives its words (AXIS_CHAR_W)
    left = max(LEFT, round(14 + AXIS_CHAR_W * max(len(say(lo)), len(say(hi)))))
    plot_w, plot_h = WIDTH - left - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return left + (plot_w / 2 if len(deals) == 1 else plot_w * i / (len(deals) - 1))

    def y(v: float, shift: float = 0) -> float:
        return TOP + plot_h * (hi - v) / (hi - lo) + shift

    title = _("Balance after each deal") if money else _("%(measure)s after each deal") % {
        "measure": measure.capitalize()}
    desc = "; ".join(
        f"{labels[p]}: " + ", ".join(say(scores[p]) for _no, scores in deals)
        for p in range(players))
    desc = _("Deals {first} to {last}. {numbers}.").format(
        first=deals[0][0], last=deals[-1][0], numbers=desc)
    out: list[str] = [
        f'<figure class="score-chart" id="{escape(chart_id)}">',
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" preserveAspectRatio="xMidYMid meet" '
        f'aria-labelledby="{escape(chart_id)}-t {escape(chart_id)}-d">',
        f'<title id="{escape(chart_id)}-t">{escape(title)}</title>',
        f'<desc id="{escape(chart_id)}-d">{escape(desc)}</desc>',
        '<g class="grid" aria-hidden="true">',
    ]
    tick = lo
    while tick <= hi:
        ty = _fmt(y(tick))
        cls = "axis zero" if tick == 0 else "axis"
        out.append(f'<line class="{cls}" x1="{left}" x2="{WIDTH - RIGHT}" y1="{ty}" y2="{ty}"'
                   f' stroke="{"#8d8676" if tick == 0 else "#ddd6c6"}" stroke-width="1"/>')
        out.append(f'<text x="{left - 6}" y="{ty}" text-anchor="end" dominant-baseline="middle"'
                   f' font-size="11" fill="#6b6b66">{escape(say(tick))}</text>')
        tick += step
    every = max(1, math.ceil(len(deals) / MAX_X_LABELS))
    for i, (no, _scores) in enumerate(deals):
        if i % every == 0 or i == len(deals) - 1:
            out.append(f'<text x="{_fmt(x(i))}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle"'
                       f' font-size="11" fill="#6b6b66">{no}</text>')
    out.append("</g>")
    series = [[scores[p] for _no, scores in deals] for p in range(players)]
    for p in range(players):
        colour, dash = COLOURS[p % len(COLOURS)], DASHES[p % len(DASHES)]
        # partners with the same score all evening would hide each other: a line
        # equal to earlier ones is drawn a little lower (its numbers stay exact)
        shift = SAME_SHIFT * sum(series[q] == series[p] for q in range(p))
        points = " ".join(f"{_fmt(x(i))},{_fmt(y(scores[p], shift))}"
                          for i, (_no, scores) in enumerate(deals))
        # c0..c7: the colour's place in COLOURS, for the dark scheme's lighter lines
        out.append(f'<g class="series c{p % len(COLOURS)}" data-seat="{p}">')
        if len(deals) > 1:
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<polyline points="{points}" fill="none" stroke="{colour}"'
                       f' stroke-width="2.5" stroke-linejoin="round"{dash_attr}/>')
        for i, (no, scores) in enumerate(deals):
            tip = _("{name} after deal {no}: {value}").format(
                name=labels[p], no=no, value=say(scores[p])) if money else _(
                "{name} after deal {no}: {value} {measure}").format(
                name=labels[p], no=no, value=scores[p], measure=measure)
            out.append(f'<circle class="pt" cx="{_fmt(x(i))}" cy="{_fmt(y(scores[p], shift))}"'
                       ' r="3.5"'
                       f' fill="{colour}"><title>{escape(tip)}</title></circle>')
        out.append("</g>")
    out.append("</svg>")
    out.append('<figcaption><ul class="chart-legend">')
    for p in range(players):
        colour, dash = COLOURS[p % len(COLOURS)], DASHES[p % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<li class="c{p % len(COLOURS)}">'
                   '<svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">'
                   f'<line x1="0" y1="4" x2="24" y2="4" stroke="{colour}" stroke-width="3"'
                   f'{dash_attr}/></svg>{escape(labels[p])} '
                   f'<strong>{escape(say(deals[-1][1][p]))}</strong></li>')
    out.append("</ul></figcaption>")
    if table:
        out.append(f'<div class="sr"><table><caption>{escape(title)}</caption><thead><tr>'
                   f'<th>{escape(_("Deal"))}</th>')
        out.extend(f"<th>{escape(name)}</th>" for name in labels)
        out.append("</tr></thead><tbody>")
        for no, scores in deals:
            out.append(f"<tr><td>{no}</td>" + "".join(f"<td>{escape(say(v))}</td>" for v in scores)
                       + "</tr>")
        out.append("</tbody></table></div>")
    out.append("</figure>")
    return Markup("".join(out))
