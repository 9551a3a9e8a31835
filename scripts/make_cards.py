"""Draw the card faces of every deck as SVG sprites under ``static/cards/``.

    .venv/bin/python scripts/make_cards.py     # rewrites static/cards/*.svg

One sprite per deck, one ``<symbol id="<card code>">`` per card (viewBox 0 0 100 150),
plus ``back.svg`` (the back, one picture). A symbol draws the card's picture: its pips or figure
and small suit marks in the corners. The big rank in the corner and any name on the
card (the Beutelschneider court, the Lügenbeutel specials) are drawn by the page in
HTML over the picture, so they follow the page's language
(``templates/table/card_face.html``). Suits differ by shape, never by colour alone.

The generated files are committed; run this again after changing a drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.games.beutelschneider import DECK as BS_DECK  # noqa: E402
from app.games.cards import SCHAFKOPF_DECK  # noqa: E402
from app.games.luegenbeutel import COPIES as LB_COPIES  # noqa: E402
from app.games.mauscheln import RANKS as FR_RANKS  # noqa: E402
from app.games.mauscheln import SUITS as FR_SUITS  # noqa: E402

OUT = ROOT / "static" / "cards"
W, H = 100, 150
INK = "#1d1d1b"

# ----- suit marks (each drawn in a 32 x 32 box) -------------------------------------
SUIT_PATHS: dict[str, str] = {
    # German suits (Schafkopf)
    "herz": '<path fill="#c8102e" stroke="#7d0a1d" stroke-width="1" d="M16 29C6 21 2 16 2 10.5 '
            '2 6 5.5 3 9.5 3 12.5 3 14.8 4.8 16 7.2 17.2 4.8 19.5 3 22.5 3 26.5 3 30 6 30 10.5'
            ' 30 16 26 21 16 29Z"/>',
    "eichel": '<path fill="#8a5a1e" stroke="#3d2608" stroke-width="1" d="M8 14C8 24 12 30 16 30 '
              '20 30 24 24 24 14Z"/><path fill="#4e3412" stroke="#2a1a06" stroke-width="1" '
              'd="M6 14C6 9 10.5 6 16 6 21.5 6 26 9 26 14Z"/><path fill="#4e3412" '
              'd="M15 1h2v6h-2z"/><path fill="none" stroke="#a98352" stroke-width="1.2" '
              'd="M9 10.5h14M7.5 12.8h17"/>',
    "gras": '<path fill="#2e7d32" stroke="#13401a" stroke-width="1" d="M16 1C26 8 28 18 16 '
            '28 4 18 6 8 16 1Z"/><path fill="none" stroke="#b9e3bb" stroke-width="1.4" '
            'd="M16 4v27M16 11l-5-4M16 11l5-4M16 17l-6-4M16 17l6-4M16 23l-5-3.5M16 23l5-3.5"/>',
    "schellen": '<circle cx="16" cy="17" r="12" fill="#e8a800" stroke="#7a5200" '
                'stroke-width="1.5"/><path fill="#c62828" d="M5 14h22v4H5z"/><circle cx="16" '
                'cy="23.5" r="2.4" fill="#4a3200"/><path fill="none" stroke="#7a5200" '
                'stroke-width="1.2" d="M16 18v3"/><circle cx="16" cy="4" r="2.2" fill="none" '
                'stroke="#7a5200" stroke-width="1.5"/>',
    # French suits (Mauscheln)
    "spade": f'<path fill="{INK}" d="M16 2C16 2 3 11.5 3 19 3 23.5 6.5 26.5 10.5 26.5 13 26.5 '
             '14.6 25.2 15.2 23.6 15 26.5 13.8 28.5 11.5 30.5H20.5C18.2 28.5 17 26.5 16.8 23.6 '
             '17.4 25.2 19 26.5 21.5 26.5 25.5 26.5 29 23.5 29 19 29 11.5 16 2 16 2Z"/>',
    "heart": '<path fill="#c62828" d="M16 29C6 21 2 16 2 10.5 2 6 5.5 3 9.5 3 12.5 3 14.8 4.8 '
             '16 7.2 17.2 4.8 19.5 3 22.5 3 26.5 3 30 6 30 10.5 30 16 26 21 16 29Z"/>',
    "diamond": '<path fill="#c62828" d="M16 1.5 28 16 16 30.5 4 16Z"/>',
    "club": f'<g fill="{INK}"><circle cx="16" cy="8.5" r="6.3"/><circle cx="8.6" cy="18" '
            'r="6.3"/><circle cx="23.4" cy="18" r="6.3"/><path d="M14.6 15 15 16.5C15 23 '
            '14 27 11 30.5H21C18 27 17 23 17 16.5L17.4 15Z"/><circle cx="16" cy="16.5" '
            'r="3"/></g>',
    # Beutelschneider's four coloured suits: triangle, coin, square, star
    "bs-g": '<path fill="#2e7d32" stroke="#12451a" stroke-width="1.2" d="M16 2.5 30 28.5H2Z"/>',
    "bs-y": '<circle cx="16" cy="16" r="13" fill="#f2c200" stroke="#8a6a00" '
            'stroke-width="1.5"/><circle cx="16" cy="16" r="8.5" fill="none" stroke="#8a6a00"'
            ' stroke-width="1.3"/>',
    "bs-r": '<rect x="4" y="4" width="24" height="24" rx="2" fill="#c62828" stroke="#6d1010"'
            ' stroke-width="1.2"/>',
    "bs-b": '<path fill="#1e56a0" stroke="#0d2c57" stroke-width="1" d="M16 1.5 20.1 11.2 30.5 '
            '12 22.6 18.8 25 29 16 23.5 7 29 9.4 18.8 1.5 12 11.9 11.2Z"/>',
}

SUIT_COLOUR = {"herz": "#c8102e", "eichel": "#5b3a12", "gras": "#2e7d32",
               "schellen": "#9a6b00", "spade": INK, "heart": "#c62828", "diamond": "#c62828",
               "club": INK, "bs-g": "#2e7d32", "bs-y": "#9a7400", "bs-r": "#c62828",
               "bs-b": "#1e56a0"}
PAPER = {"bs-g": "#f1f8f0", "bs-y": "#fffbe6", "bs-r": "#fdf0ef", "bs-b": "#eaf1fb"}


def mark(suit: str, x: float, y: float, size: float, rotate: bool = False) -> str:
    """The suit mark ``suit`` with its top-left corner at (x, y), ``size`` units wide."""
    scale = size / 32
    turn = f" rotate(180 {16} {16})" if rotate else ""
    return f'<g transform="translate({x:g} {y:g}) scale({scale:g}){turn}">{SUIT_PATHS[suit]}</g>'


def frame(suit: str, paper: str = "#fffdf8") -> str:
    """The card's paper and the small suit marks under the corner indices."""
    return (f'<rect x="1" y="1" width="98" height="148" rx="9" fill="{paper}"/>'
            + mark(suit, 6, 35, 14))


# pip positions in the middle field, per count (x, y of the pip's centre); the field
# keeps clear of the big corner rank (top left) so a "10" never covers a pip
COL_L, COL_M, COL_R = 42, 63, 84
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(COL_M, 87)],
    2: [(COL_M, 50), (COL_M, 124)],
    3: [(COL_M, 50), (COL_M, 87), (COL_M, 124)],
    4: [(COL_L, 52), (COL_R, 52), (COL_L, 122), (COL_R, 122)],
    5: [(COL_L, 52), (COL_R, 52), (COL_M, 87), (COL_L, 122), (COL_R, 122)],
    6: [(COL_L, 50), (COL_R, 50), (COL_L, 87), (COL_R, 87), (COL_L, 124), (COL_R, 124)],
    7: [(COL_L, 50), (COL_R, 50), (COL_M, 68), (COL_L, 87), (COL_R, 87), (COL_L, 124),
        (COL_R, 124)],
    8: [(COL_L, 50), (COL_R, 50), (COL_M, 68), (COL_L, 87), (COL_R, 87), (COL_M, 106),
        (COL_L, 124), (COL_R, 124)],
    9: [(COL_L, 46), (COL_R, 46), (COL_L, 72), (COL_R, 72), (COL_M, 87), (COL_L, 98),
        (COL_R, 98), (COL_L, 124), (COL_R, 124)],
    10: [(COL_L, 46), (COL_R, 46), (COL_M, 59), (COL_L, 72), (COL_R, 72), (COL_L, 98),
         (COL_R, 98), (COL_M, 111), (COL_L, 124), (COL_R, 124)],
}


def pips(suit: str, count: int) -> str:
    size = 20 if count <= 6 else 18 if count <= 8 else 16
    return "".join(mark(suit, x - size / 2, y - size / 2, size, rotate=y > 90)
                   for x, y in PIPS[count])


def figure(colour: str, hat: str, *, robe: str = "#f6efe0", accent: str = "#e0b400") -> str:
    """A simple court figure in the middle field: hat, face, collar, robe."""
    hats = {
        "crown": f'<path fill="{accent}" stroke="#6b5200" stroke-width="1" d="M45 44 47 30 '
                 '52 38 58 27 64 38 69 30 71 44Z"/>',
        "feather": f'<path fill="{colour}" d="M44 45C44 36 50 32 58 32 66 32 72 36 72 45Z"/>'
                   f'<path fill="none" stroke="{accent}" stroke-width="3" '
                   'd="M66 33C72 24 80 22 84 24"/>',
        "cap": f'<path fill="{colour}" d="M45 46C45 38 51 35 58 35 65 35 71 38 71 46Z"/>'
               f'<path fill="{accent}" d="M43 45h30v4H43z"/>',
        "veil": f'<path fill="{colour}" d="M42 60C40 40 48 32 58 32 68 32 76 40 74 60 70 50 '
                '66 46 58 46 50 46 46 50 42 60Z"/><circle cx="58" cy="33" r="3" '
                f'fill="{accent}"/>',
        "hood": f'<path fill="{colour}" d="M42 62C40 40 48 30 58 30 68 30 76 40 74 62 70 52 '
                '66 47 58 47 50 47 46 52 42 62Z"/>',
        "helmet": '<path fill="#9aa3ad" stroke="#4b5560" stroke-width="1" d="M45 48C45 36 51 '
                  '32 58 32 65 32 71 36 71 48Z"/><path fill="#c62828" d="M56 22h4v11h-4z"/>',
        "none": "",
    }
    return (f'<path fill="{robe}" stroke="{colour}" stroke-width="2" d="M36 132C36 100 44 '
            '82 58 82 72 82 80 100 80 132Z"/>'
            f'<path fill="{colour}" d="M48 84 58 104 68 84C65 82 62 81 58 81 54 81 51 82 48 '
            '84Z"/>'
            '<circle cx="58" cy="60" r="14" fill="#f3d6b8" stroke="#8a6a4a" stroke-width="1"/>'
            '<circle cx="53" cy="58" r="1.6" fill="#3a2a1a"/><circle cx="63" cy="58" r="1.6" '
            'fill="#3a2a1a"/><path fill="none" stroke="#8a4a3a" stroke-width="1.4" '
            'd="M53 66Q58 69 63 66"/>' + hats[hat])


def symbol(code: str, body: str) -> str:
    return f'<symbol id="{code}" viewBox="0 0 {W} {H}">{body}</symbol>'


def sprite(symbols: list[str], title: str) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg">\n'
            f"<!-- {title}: generated by scripts/make_cards.py, do not edit by hand -->\n"
            + "\n".join(symbols) + "\n</svg>\n")


# ----- Schafkopf: German suits ------------------------------------------------------
SK_SUITS = {"E": "eichel", "G": "gras", "H": "herz", "S": "schellen"}


def schafkopf(code: str) -> str:
    suit, rank = SK_SUITS[code[0]], code[1:]
    colour = SUIT_COLOUR[suit]
    body = frame(suit)
    if rank.isdigit():
        body += pips(suit, int(rank) if rank != "10" else 10)
    elif rank == "A":  # the Sau: one big mark on a banner
        body += (mark(suit, 28, 40, 60)
                 + f'<path fill="{colour}" d="M26 112h64l-6 8 6 8H26l6-8z"/>')
    else:  # Ober holds the suit mark high, Unter low; the König wears a crown
        hat = {"K": "crown", "O": "feather", "U": "cap"}[rank]
        body += figure(colour, hat)
        if rank == "O":
            body += mark(suit, 68, 16, 20)
        elif rank == "U":
            body += mark(suit, 70, 116, 22)
        else:
            body += mark(suit, 74, 96, 18)
    return symbol(code, body)


# ----- Mauscheln: French suits ------------------------------------------------------
FR = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


def french(code: str) -> str:
    suit, rank = FR[code[0]], code[1:]
    colour = SUIT_COLOUR[suit]
    body = frame(suit)
    if rank == "A":
        body += mark(suit, 32, 45, 52)
    elif rank.isdigit():
        body += pips(suit, int(rank))
    else:
        hat = {"K": "crown", "Q": "veil", "J": "cap"}[rank]
        body += figure(colour, hat, accent="#e0b400") + mark(suit, 72, 96, 18)
    return symbol(code, body)


# ----- Beutelschneider: coloured suits and the blue court -------------------------
BS_COURT = {  # the court and the Beutelschneider: hat and an emblem of the power
    "bG": ("helmet", '<path fill="#1e56a0" stroke="#0d2c57" stroke-width="1.5" d="M66 96h18v10'
                     'C84 116 75 121 75 121 75 121 66 116 66 106Z"/>'),
    "bM": ("hood", '<path fill="#9aa3ad" stroke="#333" stroke-width="1" d="M70 118 84 92 87 94'
                   ' 74 120Z"/><path fill="#333" d="M67 116h9v4h-9z"/>'),
    "bA": ("feather", '<path fill="none" stroke="#6b4a1a" stroke-width="3" d="M68 120 86 94"/>'
                      '<circle cx="86" cy="94" r="3" fill="#e0b400"/>'),
    "bC": ("veil", '<path fill="#c2185b" d="M76 118C66 110 64 104 64 100 64 96 67 94 70 94 '
                   '73 94 75 96 76 98 77 96 79 94 82 94 85 94 88 96 88 100 88 104 86 110 76 '
                   '118Z"/>'),
    "bF": ("crown", '<circle cx="76" cy="104" r="8" fill="#e0b400" stroke="#6b5200"/>'
                    '<path fill="#6b5200" d="M75 88h2v8h-2z"/>'),
    "rX": ("hood", '<g fill="none" stroke="#333" stroke-width="2.4"><circle cx="70" cy="116" '
                   'r="4"/><circle cx="82" cy="116" r="4"/><path d="M72 113 86 92M80 113 66 '
                   '92"/></g>'),
}
BS_FOLK = {"B": "none", "S": "veil", "W": "cap", "K": "crown"}  # Bettler .. Kaufmann


def beutelschneider(code: str) -> str:
    suit_code, rank = code[0], code[1:]
    suit = "bs-" + suit_code
    colour = SUIT_COLOUR[suit]
    body = frame(suit, PAPER[suit])
    if code in BS_COURT:
        hat, emblem = BS_COURT[code]
        robe = "#dfe9f7" if suit_code == "b" else "#2b2b2b"
        body += figure(colour, hat, robe=robe) + emblem
    elif rank.isdigit():
        count = int(rank)
        if count == 10:
            body += (mark(suit, 28, 40, 44)
                     + f'<text x="50" y="118" font-family="Georgia,serif" font-size="30" '
                       f'font-weight="700" fill="{colour}" text-anchor="middle">10</text>')
        else:
            body += pips(suit, count)
    else:
        body += figure(colour, BS_FOLK[rank]) + mark(suit, 72, 98, 16)
    return symbol(code, body)


# ----- Lügenbeutel ---------------------------------------------------------------
LB_COLOURS = ["#1e56a0", "#2e7d32", "#8a5a00", "#c62828", "#6a3ea1"]


def luegenbeutel(code: str) -> str:
    body = '<rect x="1" y="1" width="98" height="148" rx="9" fill="#fffdf8"/>'
    if code.isdigit():
        n = int(code)
        colour = LB_COLOURS[(n - 1) % len(LB_COLOURS)]
        body += (f'<rect x="12" y="12" width="76" height="126" rx="8" fill="none" '
                 f'stroke="{colour}" stroke-width="2.5"/>'
                 f'<text x="50" y="95" font-family="Georgia,serif" '
                 f'font-size="{58 if n < 10 else 50}"'
                 f' font-weight="700" fill="{colour}" text-anchor="middle">{n}</text>'
                 + "".join(f'<circle cx="{22 + 6.2 * i:g}" cy="128" r="2.2" fill="{colour}"/>'
                           for i in range(n)))
    elif code == "J":  # the Joker: a jester's cap
        body += ('<rect x="1" y="1" width="98" height="148" rx="9" fill="#f3e9ff"/>'
                 '<path fill="#6a3ea1" d="M20 96C26 70 38 58 50 54 62 58 74 70 80 96Z"/>'
                 '<path fill="#e0b400" d="M50 54C44 44 30 40 18 46 26 50 32 58 34 70Z"/>'
                 '<path fill="#c62828" d="M50 54C56 44 70 40 82 46 74 50 68 58 66 70Z"/>'
                 '<circle cx="18" cy="46" r="5" fill="#e0b400"/><circle cx="82" cy="46" r="5"'
                 ' fill="#e0b400"/><circle cx="50" cy="50" r="5" fill="#e0b400"/>'
                 '<path fill="#6a3ea1" d="M18 96h64v8H18z"/>')
    elif code == "L":  # the Lügenbeutel: a tied bag with a question mark
        body += ('<rect x="1" y="1" width="98" height="148" rx="9" fill="#ffece4"/>'
                 '<path fill="#b23c17" stroke="#5e1d08" stroke-width="1.5" d="M36 52C30 60 '
                 '20 76 20 96 20 116 34 124 50 124 66 124 80 116 80 96 80 76 70 60 64 52Z"/>'
                 '<path fill="#b23c17" stroke="#5e1d08" stroke-width="1.5" d="M36 52 30 38 '
                 '42 44 50 34 58 44 70 38 64 52Z"/><path fill="#e0b400" d="M34 50h32v5H34z"/>'
                 '<text x="50" y="110" font-family="Georgia,serif" font-size="40" '
                 'font-weight="700" fill="#fff" text-anchor="middle">?</text>')
    else:  # Aussetzen: a "no entry" sign
        body += ('<rect x="1" y="1" width="98" height="148" rx="9" fill="#e6f4f1"/>'
                 '<circle cx="50" cy="80" r="28" fill="#fff" stroke="#1f6f5f" '
                 'stroke-width="7"/><path stroke="#1f6f5f" stroke-width="7" d="M31 61 69 99"/>')
    return symbol(code, body)


def _lattice(x0: float, y0: float, x1: float, y1: float, step: float) -> str:
    """Diagonal lines both ways across a rectangle, clipped by hand (a sprite symbol
    used from another document cannot rely on its own patterns or clip paths)."""
    segments = []
    for sign in (1, -1):
        c = -(y1 - y0)
        while c < (x1 - x0) + (y1 - y0):
            points = []
            for t in (0.0, 1.0):  # walk along x from x0 to x1, clipped to y0..y1
                x = x0 + t * (x1 - x0)
                y = (y0 + (x - x0) - c) if sign == 1 else (y1 - (x - x0) + c)
                points.append((x, y))
            (ax, ay), (bx, by) = points
            # clip the line to the rectangle's y range
            def clip(px: float, py: float, qx: float, qy: float) -> tuple[float, float]:
                if py < y0:
                    return px + (y0 - py) * (qx - px) / (qy - py), y0
                if py > y1:
                    return px + (y1 - py) * (qx - px) / (qy - py), y1
                return px, py
            if (ay < y0 and by < y0) or (ay > y1 and by > y1):
                c += step
                continue
            ax, ay = clip(ax, ay, bx, by)
            bx, by = clip(bx, by, ax, ay)
            segments.append(f"M{ax:.1f} {ay:.1f}L{bx:.1f} {by:.1f}")
            c += step
    return "".join(segments)


BACK = (
    '<rect x="1" y="1" width="98" height="148" rx="9" fill="#fffdf8"/>'
    '<rect x="6" y="6" width="88" height="138" rx="6" fill="#2f6fb0"/>'
    f'<path fill="none" stroke="#6b9ad0" stroke-width="1.6" d="{_lattice(6, 6, 94, 144, 9)}"/>'
    '<rect x="6" y="6" width="88" height="138" rx="6" fill="none" stroke="#1d4e80" '
    'stroke-width="2"/>'
    '<circle cx="50" cy="75" r="17" fill="#fffdf8" stroke="#1d4e80" stroke-width="2"/>'
    '<text x="50" y="83" font-family="Georgia,serif" font-size="22" font-weight="700" '
    'fill="#1d4e80" text-anchor="middle">S</text>')


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    decks = {
        "schafkopf.svg": ("Schafkopf, German suits", [schafkopf(c) for c in SCHAFKOPF_DECK]),
        "french.svg": ("French suits (Mauscheln)",
                       [french(s + r) for s in FR_SUITS for r in FR_RANKS]),
        "beutelschneider.svg": ("Beutelschneider", [beutelschneider(c) for c in BS_DECK]),
        "luegenbeutel.svg": ("Lügenbeutel", [luegenbeutel(c) for c in LB_COPIES]),
    }
    for name, (title, symbols) in decks.items():
        (OUT / name).write_text(sprite(symbols, title), encoding="utf-8")
        print(f"{name}: {len(symbols)} cards")
    # the back is one picture (a CSS background), not a sprite
    (OUT / "back.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}">\n'
        "<!-- card back: generated by scripts/make_cards.py -->\n" + BACK + "\n</svg>\n",
        encoding="utf-8")


if __name__ == "__main__":
    main()
