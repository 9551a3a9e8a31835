"""The review of a deal (issue 28, :mod:`app.bots.review`): every legal option of
every decision weighed from what the seat knew then; the same review whatever the
seat could not see; planted blunders marked with the better option; the strong
bot's own deal with few marks."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from app.bots import choose_action, make_bot
from app.bots.review import (
    CHALLENGE_DID_NOT_PAY,
    THRESHOLDS,
    TOOK_TRICK,
    WORTH_PLAYING,
    DecisionPoint,
    Reviewed,
    may_pass,
    review_point,
    review_points,
)
from app.bots.search import SILENCE
from app.games import Match, new_match
from app.games.schafkopf_classic import RAMSCH, RUFSPIEL
from tests.bots.test_search import _differ_hidden

REVIEWED_GAMES = ["beutelschneider", "schafkopf", "schafkopf_classic", "mauscheln",
                  "luegenbeutel"]
PLAYERS = {"beutelschneider": 4, "schafkopf": 4, "schafkopf_classic": 4, "mauscheln": 4,
           "luegenbeutel": 3}
OPTIONS: dict[str, dict[str, Any]] = {"mauscheln": {"chips": 20},
                                      "schafkopf_classic": {"deals": 1}}
SAMPLES = 6  # worlds per decision: quick and deterministic (no time budget)


def _tokens(value: Any) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(value, default=str)))


def _check_shape(game: str, point: DecisionPoint, got: Reviewed) -> None:
    """The options are the legal actions in order (then silence where the seat
    acted though it need not have), each with a number; the loss is the best's lead."""
    actions = [o.action for o in got.options]
    silent = may_pass(game, point)
    assert actions == point.legal + ([silent] if silent else [])
    estimate = {o.action: o.estimate for o in got.options}
    assert got.best in estimate and got.chosen == point.chosen
    assert got.loss == pytest.approx(estimate[got.best] - estimate[got.chosen])
    assert got.loss >= 0
    assert got.mistake == (got.reason is not None)
    if got.mistake:
        assert got.loss > THRESHOLDS[game]


def twin_matches(game: str, players: int, seed: int) -> tuple[Match, Match]:
    """Two matches of ``game`` whose first deals differ only in cards seat 0 cannot
    see (the same seed, the same options)."""
    deal_a, deal_b = _differ_hidden(game, players, seed)
    options = dict(OPTIONS.get(game, {}), dealer=players - 1)
    a = new_match(game, players, options, seed=seed, deals=[deal_a])
    b = new_match(game, players, options, seed=seed, deals=[deal_b])
    assert a.snapshot() != b.snapshot()  # the deals differ
    return a, b


# ----- the same review whatever the seat could not see ---------------------------------
@pytest.mark.parametrize("game", REVIEWED_GAMES)
def test_two_deals_differing_only_in_hidden_cards_get_the_same_review(game: str) -> None:
    players = PLAYERS[game]
    compared = 0
    for seed in range(3):
        a, b = twin_matches(game, players, seed)
        points_a: list[DecisionPoint] = []
        points_b: list[DecisionPoint] = []
        rng = random.Random(seed)
        for step in range(60):
            if a.view(0) != b.view(0) or a.is_over or a.deal_no != 1 or b.deal_no != 1:
                break
            seats = sorted(a.to_act() & b.to_act())
            if not seats:
                break
            seat = 0 if 0 in seats and rng.random() < 0.7 else rng.choice(seats)
            common = [x for x in a.legal_actions(seat) if x in b.legal_actions(seat)]
            if not common:
                break
            action = (choose_action(game, a.view(seat), common, rng)
                      if rng.random() < 0.7 else rng.choice(common))
            if seat == 0:
                points_a.append(DecisionPoint(step, 0, a.view(0), a.legal_actions(0), action))
                points_b.append(DecisionPoint(step, 0, b.view(0), b.legal_actions(0), action))
            a.apply(seat, action)
            b.apply(seat, action)
        if not points_a:
            continue
        review_a = review_points(game, points_a, budget_ms=None, seed=seed, max_samples=3)
        review_b = review_points(game, points_b, budget_ms=None, seed=seed, max_samples=3)
        assert review_a == review_b
        assert [str(r.reason) for r in review_a] == [str(r.reason) for r in review_b]
        # nothing in the review the seat could not know: its actions and reasons
        # are spelled only with what its views and legal actions showed
        known: set[str] = set(SILENCE.values())
        for point, got in zip(points_a, review_a, strict=True):
            known |= _tokens(point.view) | _tokens(point.legal)
            _check_shape(game, point, got)
            assert _tokens([o.action for o in got.options]) <= known
            if got.reason is not None:
                named = [v for v in got.reason.params.values() if isinstance(v, str)]
                assert _tokens(named) <= known
        compared += len(points_a)
    assert compared >= 3


def test_another_seed_may_draw_other_worlds_but_the_same_seed_repeats() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=2)
    point = DecisionPoint(1, 0, m.view(0), m.legal_actions(0), m.legal_actions(0)[0])
    once = review_point("schafkopf", point, budget_ms=None, seed=5, max_samples=4)
    again = review_point("schafkopf", point, budget_ms=None, seed=5, max_samples=4)
    assert once == again
    assert len(once.options) == len(point.legal) == 8


def test_a_decision_with_one_legal_action_is_listed_with_its_estimate() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=2)
    rng = random.Random(2)
    points: list[DecisionPoint] = []
    while not m.is_over and m.deal_no == 1:
        seat = next(iter(m.to_act()))
        legal = m.legal_actions(seat)
        action = choose_action("schafkopf", m.view(seat), legal, rng)
        if seat == 0:
            points.append(DecisionPoint(len(points), 0, m.view(0), legal, action))
        m.apply(seat, action)
    assert len(points[-1].legal) == 1  # the last card
    got = review_points("schafkopf", points[-2:], budget_ms=None, seed=1, max_samples=3)
    last = got[-1]
    assert [o.action for o in last.options] == points[-1].legal
    assert last.best == last.chosen and last.loss == 0 and not last.mistake


def test_a_chosen_action_that_was_not_legal_is_refused() -> None:
    m = new_match("schafkopf", 4, {"dealer": 3}, seed=2)
    point = DecisionPoint(1, 0, m.view(0), m.legal_actions(0), "play:nothing")
    with pytest.raises(ValueError, match="not one of the seat"):
        review_point("schafkopf", point, budget_ms=None, seed=5, max_samples=2)


def test_the_budget_bounds_a_decision() -> None:
    import time

    m = new_match("mauscheln", 4, {"dealer": 3, "chips": 20}, seed=3)
    for _ in range(40):  # to the exchange: the most options a decision has
        seat = next(iter(m.to_act()))
        if m.view(seat)["phase"] == "exchange":
            break
        legal = m.legal_actions(seat)
        m.apply(seat, choose_action("mauscheln", m.view(seat), legal, random.Random(0)))
    seat = next(iter(m.to_act()))
    legal = m.legal_actions(seat)
    point = DecisionPoint(9, seat, m.view(seat), legal, legal[0])
    start = time.perf_counter()
    got = review_point("mauscheln", point, budget_ms=150, seed=1)
    took = (time.perf_counter() - start) * 1000
    assert len(got.options) == len(legal)
    assert took < 150 * 2 + 100  # one world may be finished past the budget


# ----- planted blunders ------------------------------------------------------------------
def _side_of(game: str, view: dict[str, Any], seat: int) -> Callable[[int], bool] | None:
    """Who plays with ``seat``, as its view tells it (None: it cannot know yet)."""
    if game == "schafkopf":
        return lambda other: other % 2 == seat % 2
    if game == "beutelschneider":
        return lambda other: other == seat
    declared, declarer = view.get("declared"), view.get("declarer")
    if declared is None or declared == RAMSCH or declarer is None:
        return None
    if declared == RUFSPIEL:
        partner = view.get("partner")
        if partner is None:
            return None
        team = {declarer, partner}
    else:
        team = {declarer}
    return lambda other: (other in team) == (seat in team)


def _trick_outcomes(m: Match, seat: int, legal: list[str]) -> dict[str, tuple[int, int]]:
    """For each card the seat may play last in the trick: (winner, trick points), as
    the engine has it."""
    got = {}
    for action in legal:
        probe = m.copy()
        for event in probe.simulate(seat, action):
            if event["type"] == "trick":
                got[action] = (int(event["winner"]), int(event.get("points", 0)))
    return got


def _swing(game: str, outcomes: dict[str, tuple[int, int]], ours: Callable[[int], bool],
           view: dict[str, Any]) -> tuple[set[str], str] | None:
    """A costly card to throw away: the seat, last in the trick, could take it (the
    cards of ``wins``) and instead hands the most points to the other side
    (``blunder``)."""
    wins = [a for a, (w, _) in outcomes.items() if ours(w)]
    losses = [a for a, (w, _) in outcomes.items() if not ours(w)]
    if not wins or not losses:
        return None
    blunder = max(losses, key=lambda a: (outcomes[a][1], a))
    win = max(wins, key=lambda a: (outcomes[a][1], a))
    big = {"schafkopf": 25, "schafkopf_classic": 25, "beutelschneider": 15}.get(game)
    if big is not None and outcomes[blunder][1] + outcomes[win][1] < 2 * big:
        return None
    return set(wins), blunder


def _planted_trick_blunder(game: str, seeds: range
                           ) -> tuple[list[DecisionPoint], set[str]]:
    """A deal played by the house bots until a seat, last in a trick, may take a fat
    trick; the planted decision throws it to the other side instead. Returns the
    seat's decisions (the last the blunder) and the cards that would have taken it."""
    players = PLAYERS[game]
    for seed in seeds:
        m = new_match(game, players, dict(OPTIONS.get(game, {}), dealer=seed % players),
                      seed=seed)
        rng = random.Random(seed)
        points: dict[int, list[DecisionPoint]] = {s: [] for s in range(players)}
        for step in range(400):
            if m.is_over or m.deal_no != 1:
                break
            seats = sorted(m.to_act())
            seat = m.view(seats[0]).get("turn", seats[0])
            if seat is None or seat not in seats:
                seat = seats[0]
            view, legal = m.view(seat), m.legal_actions(seat)
            action = choose_action(game, view, legal, rng)
            ours = _side_of(game, view, seat)
            outcomes = (_trick_outcomes(m, seat, legal)
                        if view.get("phase") == "play" and len(legal) > 1 and ours else {})
            if len(outcomes) == len(legal) > 1:  # the seat plays the trick's last card
                assert ours is not None
                found = _swing(game, outcomes, ours, view)
                if found is not None:
                    wins, blunder = found
                    points[seat].append(DecisionPoint(step, seat, view, legal, blunder))
                    return points[seat], wins
            points[seat].append(DecisionPoint(step, seat, view, legal, action))
            m.apply(seat, action)
    raise AssertionError(f"no fat trick to throw away in {game}")


@pytest.mark.parametrize("game", ["schafkopf", "schafkopf_classic", "beutelschneider"])
def test_throwing_away_a_fat_trick_one_could_take_is_marked(game: str) -> None:
    points, wins = _planted_trick_blunder(game, range(40))
    got = review_points(game, points, budget_ms=None, seed=3, max_samples=24)[-1]
    _check_shape(game, points[-1], got)
    assert got.mistake, got
    assert got.best != got.chosen
    assert got.best in wins  # the better option takes the trick
    assert got.reason is not None and got.reason.key == TOOK_TRICK
    assert got.reason.params["best"] == got.best
    assert str(got.reason).startswith(f"{got.best} would have taken this trick")


def test_folding_a_hand_of_the_top_trumps_is_marked() -> None:
    """Mauscheln: the seat holds the trump Ace and two more trumps, certain tricks
    of a pot worth playing for, and passes (or folds): playing was better."""
    game = "mauscheln"
    for seed in range(60):
        m = new_match(game, 4, {"chips": 20, "dealer": seed % 4}, seed=seed)
        rng = random.Random(seed)
        for step in range(12):
            seat = sorted(m.to_act())[0]
            view, legal = m.view(seat), m.legal_actions(seat)
            if view["phase"] not in ("bidding", "joining"):
                break
            trumps = [c for c in view["hand"] if c[0] == view["trump"]]
            give_up = next((a for a in legal if a in ("pass", "fold")), None)
            if (give_up is not None and len(trumps) >= 3 and view["trump"] + "A" in trumps
                    and view["trick_value"] >= 2):
                point = DecisionPoint(step, seat, view, legal, give_up)
                got = review_point(game, point, budget_ms=None, seed=3, max_samples=40)
                _check_shape(game, point, got)
                assert got.mistake, got
                assert got.best in ("mauschel", "join")
                assert got.reason is not None and got.reason.key == WORTH_PLAYING
                return
            m.apply(seat, choose_action(game, view, legal, rng))
    raise AssertionError("no hand of the top trumps to give up")


def test_challenging_a_true_plausible_claim_is_marked() -> None:
    """Lügenbeutel: the seat on turn calls the liar on a claim of one card that the
    accused, holding many cards, could well make, and that is true (the engine
    knows): playing on was better."""
    from app.games.luegenbeutel import is_true

    game = "luegenbeutel"
    for seed in range(30):
        m = new_match(game, 3, {"dealer": seed % 3}, seed=seed)
        rng = random.Random(seed)
        points: dict[int, list[DecisionPoint]] = {s: [] for s in range(3)}
        for step in range(200):
            if m.is_over or m.deal_no != 1 or m.view(0).get("turn") is None:
                break
            seat = m.view(0)["turn"]
            view, legal = m.view(seat), m.legal_actions(seat)
            stack, open_turn = view.get("stack") or {}, m.snapshot()["state"]["open_turn"]
            accused = view["challenge"]["accused"]
            if ("challenge:1" in legal and open_turn is not None
                    and len(open_turn["cards"]) == 1 and accused is not None
                    and view["hand_counts"][accused] >= 5
                    and is_true(open_turn["cards"][0], str(stack.get("claim")))):
                point = DecisionPoint(step, seat, view, legal, "challenge:1")
                got = review_points(game, [*points[seat], point], budget_ms=None, seed=3,
                                    max_samples=120)[-1]  # (dumps in the rollouts: noisier worlds)
                _check_shape(game, point, got)
                assert got.mistake, got
                assert not got.best.startswith("challenge")
                assert got.reason is not None and got.reason.key == CHALLENGE_DID_NOT_PAY
                return
            action = choose_action(game, view, legal, rng)
            points[seat].append(DecisionPoint(step, seat, view, legal, action))
            m.apply(seat, action)
    raise AssertionError("no true claim of one card to challenge")


def test_staying_silent_is_an_option_where_the_seat_acted_off_turn() -> None:
    """A challenge off turn (Lügenbeutel's window) could have been let pass: the
    review lists silence after the legal actions and weighs it."""
    game = "luegenbeutel"
    for seed in range(20):
        m = new_match(game, 3, {"dealer": 0}, seed=seed)
        rng = random.Random(seed)
        for step in range(120):
            if m.is_over or m.deal_no != 1:
                break
            turn = m.view(0)["turn"]
            for seat in sorted(m.to_act() - {turn}):
                legal = m.legal_actions(seat)
                if any(a.startswith("challenge") for a in legal) and "accept" not in legal:
                    point = DecisionPoint(step, seat, m.view(seat), legal, legal[0])
                    got = review_point(game, point, budget_ms=None, seed=1, max_samples=4)
                    assert [o.action for o in got.options] == [*legal, SILENCE[game]]
                    _check_shape(game, point, got)
                    return
            if turn is None:
                break
            legal = m.legal_actions(turn)
            m.apply(turn, choose_action(game, m.view(turn), legal, rng))
    raise AssertionError("no challenge window off turn")


# ----- the strong bot's own deal -------------------------------------------------------
def _play_deal(game: str, m: Match, bots: list[Any], record: int) -> list[DecisionPoint]:
    """One deal played by ``bots`` as a room asks them (seats that may act off turn
    first, clockwise from the seat on turn or the accused; silence in a round's end
    is 'accept'); the decisions of seat ``record``."""
    points: list[DecisionPoint] = []
    players = m.players
    for step in range(2000):
        if m.is_over or m.deal_no != 1:
            return points
        seats = sorted(m.to_act())
        view0 = m.view(seats[0])
        turn = view0.get("turn")
        start = (view0.get("challenge") or {}).get("accused")
        start = turn if start is None else start
        said: tuple[int, str] | None = None
        for seat in sorted(seats, key=lambda s: (s - (start or 0)) % players):
            if len(seats) == 1 or seat == turn:
                continue
            legal = m.legal_actions(seat)
            answer = bots[seat].choose_optional(m.view(seat), legal)
            if answer is None and view0.get("phase") == "challenge":
                answer = "accept"
            if answer is not None:
                said = (seat, answer)
                break
        if said is None:
            seat = turn if turn in seats else seats[0]
            said = (seat, bots[seat].choose(m.view(seat), m.legal_actions(seat)))
        seat, action = said
        if seat == record:
            points.append(DecisionPoint(step, seat, m.view(seat), m.legal_actions(seat),
                                        action))
        m.apply(seat, action)
    raise AssertionError("the deal did not end")


@pytest.mark.slow
@pytest.mark.parametrize("game", REVIEWED_GAMES)
def test_the_strong_bots_own_deal_has_few_marks(game: str) -> None:
    players = PLAYERS[game]
    marked = decisions = 0
    for seed in range(2):
        m = new_match(game, players, dict(OPTIONS.get(game, {}), dealer=seed % players),
                      seed=seed)
        bots = [make_bot("search", game, seed=seed * 8 + s, budget_ms=None, max_samples=12)
                for s in range(players)]
        points = _play_deal(game, m, bots, 0)
        reviewed = review_points(game, points, budget_ms=None, seed=seed, max_samples=12)
        for point, got in zip(points, reviewed, strict=True):
            _check_shape(game, point, got)
        decisions += len(points)
        marked += sum(r.mistake for r in reviewed)
    assert decisions >= 4
    assert marked <= max(1, decisions // 5), (marked, decisions)


def test_a_review_travels_between_processes_as_it_is() -> None:
    """The server reviews in its process pool: a review pickles and comes back equal,
    its reason with the key and the parameters a translation needs."""
    import pickle

    points, _ = _planted_trick_blunder("schafkopf", range(40))
    reviewed = review_points("schafkopf", points, budget_ms=None, seed=3, max_samples=8)
    back = pickle.loads(pickle.dumps(reviewed))
    assert back == reviewed
    for got, again in zip(reviewed, back, strict=True):
        if got.reason is not None:
            assert again.reason is not None
            assert (again.reason.key, again.reason.params) == (got.reason.key,
                                                                 got.reason.params)
