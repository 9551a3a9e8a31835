"""The running settlement ("Abrechnung") of a game paid in cents (``GameInfo.ledger``
is ``CENTS``): per deal, what each seat got or paid and its balance after, read from
the ledger rows the database keeps (the history, the ledger page) or from the public
``deal_end`` events (the replay). Amounts are cents; pages write them as euros
(``money`` filter, :func:`app.i18n.format_money`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.db.repo import ChipTransfer
from app.games import CENTS, GAMES

START = "start"  # the reason of a ledger's opening rows (deal 0)


def in_money(game: str) -> bool:
    """Whether a game's scores are money: balances in cents (``GameInfo.ledger``)."""
    info = GAMES.get(game)
    return info is not None and info.ledger == CENTS


@dataclass(frozen=True)
class SettledDeal:
    """One deal's line of the sheet: each seat's cents (0: nothing moved) and its
    balance after the deal; ``reasons`` are the ledger's reasons of the deal (the
    game that was played, "ramsch", ...)."""

    deal_no: int
    amounts: list[int]
    balances: list[int]
    reasons: list[str]

    @property
    def total(self) -> int:
        """What the deal's amounts add up to: 0 in a settlement that holds."""
        return sum(self.amounts)


def from_ledger(rows: Iterable[ChipTransfer], players: int,
                deal_nos: Sequence[int] = ()) -> list[SettledDeal]:
    """The sheet of a match from its ledger rows (:func:`app.db.repo.ledger`), one
    line per deal of ``deal_nos`` (the finished deals: one where nobody paid shows
    zeros) and per deal with rows, in deal order. The balances start from the
    opening rows (0 each in a settlement)."""
    amounts: dict[int, list[int]] = {no: [0] * players for no in deal_nos}
    reasons: dict[int, list[str]] = {no: [] for no in deal_nos}
    balance = [0] * players
    for row in rows:
        if row.deal_no == 0 and row.reason == START:
            balance[row.seat] += row.amount
            continue
        amounts.setdefault(row.deal_no, [0] * players)[row.seat] += row.amount
        seen = reasons.setdefault(row.deal_no, [])
        if row.reason not in seen:
            seen.append(row.reason)
    sheet = []
    for no in sorted(amounts):
        balance = [b + a for b, a in zip(balance, amounts[no], strict=True)]
        sheet.append(SettledDeal(no, amounts[no], balance, reasons[no]))
    return sheet


def from_event(event: dict[str, Any], players: int) -> SettledDeal:
    """A deal's line from its public ``deal_end`` event (its ``transfers``, and its
    ``scores``: the balances after it)."""
    amounts = [0] * players
    reasons: list[str] = []
    for transfer in event.get("transfers") or []:
        amounts[int(transfer["seat"])] += int(transfer["amount"])
        if transfer["reason"] not in reasons:
            reasons.append(str(transfer["reason"]))
    return SettledDeal(int(event["deal_no"]), amounts, [int(s) for s in event["scores"]],
                       reasons)


__all__ = ["START", "SettledDeal", "from_event", "from_ledger", "in_money"]
