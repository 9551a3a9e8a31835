"""Money on the pages (issue 27): cents written as euros and cents in the page's
language, the settlement sheet read from ledger rows or from a public deal_end
event, and the score chart of a game paid in cents."""

from __future__ import annotations

import re

from app.db.repo import ChipTransfer
from app.i18n import format_money, language
from app.web.charts import score_chart
from app.web.settlement import from_event, from_ledger, in_money


def test_cents_are_euros_and_cents_in_each_language() -> None:
    with language("de"):
        assert [format_money(c) for c in (120, -5, 0)] == ["1,20\xa0€", "-0,05\xa0€",
                                                          "0,00\xa0€"]
        assert format_money(30, signed=True) == "+0,30\xa0€"
        assert format_money(-30, signed=True) == "-0,30\xa0€"
    with language("en"):
        assert [format_money(c) for c in (120, -5, 0)] == ["€1.20", "-€0.05", "€0.00"]
        assert format_money(123456, signed=True) == "+€1,234.56"


def test_the_sheet_runs_the_balances_deal_by_deal() -> None:
    rows = [ChipTransfer(0, s, 0, "start") for s in range(4)] + [
        ChipTransfer(1, 0, 90, "solo"), ChipTransfer(1, 1, -30, "solo"),
        ChipTransfer(1, 2, -30, "solo"), ChipTransfer(1, 3, -30, "solo"),
        ChipTransfer(3, 2, 20, "rufspiel"), ChipTransfer(3, 3, 20, "rufspiel"),
        ChipTransfer(3, 0, -20, "rufspiel"), ChipTransfer(3, 1, -20, "rufspiel")]
    sheet = from_ledger(rows, 4, deal_nos=[1, 2, 3])
    assert [line.deal_no for line in sheet] == [1, 2, 3]  # deal 2 was thrown in
    assert [line.amounts for line in sheet] == [[90, -30, -30, -30], [0, 0, 0, 0],
                                                [-20, -20, 20, 20]]
    assert [line.balances for line in sheet] == [[90, -30, -30, -30], [90, -30, -30, -30],
                                                 [70, -50, -10, -10]]
    assert all(line.total == 0 for line in sheet)
    assert sheet[0].reasons == ["solo"] and sheet[1].reasons == []
    event = {"type": "deal_end", "deal_no": 3, "scores": [70, -50, -10, -10],
             "transfers": [{"seat": 2, "amount": 20, "reason": "rufspiel"},
                           {"seat": 3, "amount": 20, "reason": "rufspiel"},
                           {"seat": 0, "amount": -20, "reason": "rufspiel"},
                           {"seat": 1, "amount": -20, "reason": "rufspiel"}], "pot": 0}
    assert from_event(event, 4) == sheet[2]


def test_only_a_game_declared_in_cents_is_money() -> None:
    assert not in_money("mauscheln") and not in_money("schafkopf")
    assert not in_money("no-such-game")


def test_a_chart_in_cents_says_euros_and_cents_everywhere() -> None:
    deals = [(1, [90, -30, -30, -30]), (2, [70, -50, -10, -10])]
    with language("de"):
        svg = score_chart(["Anna", "Bert", "Cilli", "Done"], deals, "cents", chart_id="m",
                          table=True, money=True)
        assert '<title id="m-t">Stand nach jedem Spiel</title>' in svg
        assert "Anna nach Spiel 2: 0,70\xa0€" in svg
        assert "<strong>-0,50\xa0€</strong>" in svg and "<td>-0,10\xa0€</td>" in svg
        ticks = re.findall(r'font-size="11" fill="#6b6b66">([^<]+)</text>', svg)
        assert "0,00\xa0€" in ticks and all("€" in t for t in ticks if "," in t)
        assert " cents" not in svg
    with language("en"):
        svg = score_chart(["Anna", "Bert", "Cilli", "Done"], deals, "cents", money=True)
        assert "Balance after each deal" in svg and "Anna after deal 1: €0.90" in svg
    # the points of a chart stay inside the picture with the wider axis labels
    for cx, cy in re.findall(r'<circle class="pt" cx="([\d.]+)" cy="([\d.]+)"', svg):
        assert 0 <= float(cx) <= 600 and 0 <= float(cy) <= 220
    plain = score_chart(["A", "B"], [(1, [5, -5])], "points")
    assert "€" not in plain and "A after deal 1: 5 points" in plain
