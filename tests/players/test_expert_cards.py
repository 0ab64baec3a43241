"""The ``expert`` on rule sets with declared cards (docs/cards.md).

1. Its candidates: a declared card once per colour it names and once per opponent its
   ``chosen`` step may pick; a declared ``stack`` card facing a penalty.
2. The move checker passes on traced rounds of each example card file with every
   built-in strategy (the registry in ``unosim.players.strategies``) at every seat, and
   with the expert at one seat (``EXPERT``, a small budget): a few rounds each here,
   1,000 each under ``slow``. The expert plays the declared cards and chooses
   opponents other than its policy's.
3. It is not broken on declared cards: against 3 ``random`` under Wild Draw Six it wins
   clearly more than 1/4 (5 sigma, fixed seed).
4. Outside seats still refuse declared cards, in one line that names only them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from unosim.game.cards import parse_kind
from unosim.game.rules import OFFICIAL, apply, resolve
from unosim.kernel.core import layout as L
from unosim.players.strategies import STRATEGIES
from unosim.sim import engine
from unosim.sim.simulate import make_job, run_block
from unosim.verify.checker import check_trace, strict_seats

CARDS = Path(__file__).resolve().parents[2] / "examples" / "cards"
FILES = ("wild-draw-six", "skip-everyone", "discard-all", "mixed")
# a small budget, z=0 and draw=1: the search's own choices replace its policy's often,
# so the checker judges them
EXPERT = "expert:rollouts=8;z=0;draw=1"
OPPONENTS = ("random", "heuristic", "weighted", "random", "colour-counter")
PLAYERS = (2, 3, 4, 5)  # rounds cycle through these player counts


def path(name: str) -> str:
    return str(CARDS / f"{name}.toml")


def check_rounds(name: str, seats: list[str], rounds: int, seed: int) -> np.ndarray:
    """Trace ``rounds`` rounds of ``name`` (the player counts of ``PLAYERS`` in turn,
    ``seats[:n]``), assert the move checker passes each; returns the traces' rows of
    declared cards played, as (seat, kind, event)."""
    rs = resolve(path(name))
    played = []
    per = -(-rounds // len(PLAYERS))
    for n in PLAYERS:
        job = make_job(rs, 1, n, seats[:n], seed + n)
        strict = strict_seats(job.labels)
        for game in range(per):
            out, trace = engine.trace(job.kernel, job.seed, game)
            v = check_trace(trace, rs, n, row=out, strict=strict)
            assert not v, f"{name} {seats[:n]} game {game}: " + "; ".join(map(str, v[:3]))
            ev = trace[:, L.EV_TYPE]
            mine = (trace[:, L.EV_KIND] >= 59) & np.isin(ev, (L.E_PLAY, L.E_DRAWN, L.E_STACK))
            played.append(trace[mine][:, [L.EV_SEAT, L.EV_KIND, L.EV_TYPE]])
    return np.concatenate(played)


# --------------------------------------------------------------------------- candidates
def _position(rules, hands: dict[int, str], top: str, n: int = 4):
    """A table of ``n`` seats (seat 0 an expert's policy) holding ``hands``, ``top`` on
    the discard pile (its colour in play), nothing pending."""
    from unosim.kernel.core.piles import add_card
    from unosim.kernel.core.state import Table, new_round
    from unosim.players.seats import parse as parse_seats

    sid, sp, _ = parse_seats(["heuristic"] * n, n)
    deck = rules.deck_counts()
    tb = Table(rules.to_array(), sid, sp, deck, rules.points_table())
    rd = new_round(np.int64(deck.sum()), np.int64(0))
    for q, text in hands.items():
        for t in text.split():
            add_card(rd, np.int64(q), np.int64(parse_kind(t, rules.card_names)))
    k = parse_kind(top, rules.card_names)
    rd.disc[k] += 1
    rd.game_state[L.G_N], rd.game_state[L.G_DIR], rd.game_state[L.G_TOP] = n, 1, k
    rd.game_state[L.G_COLOUR] = 0
    rd.game_state[L.G_PEND_SPECIAL] = -1
    return tb, rd


def _candidates(tb, rd, at: int, scope: int = 1) -> list[tuple[int, int]]:
    from unosim.kernel.expert.moves import candidates
    from unosim.kernel.expert.params import MAX_CANDIDATES

    cand = np.zeros(MAX_CANDIDATES, np.int64)
    ccol = np.zeros(MAX_CANDIDATES, np.int64)
    m = candidates(tb, rd, 0, rd.game_state[L.G_N], at, 0, 0, scope, cand, ccol)
    return list(zip(cand[:m].tolist(), ccol[:m].tolist()))


def test_candidates_of_declared_cards():
    """mixed.toml, red in play: a red Trade (draws 1 from and swaps with a chosen
    opponent) once per opponent; a Storm and a Wild Draw Three (wild) once per colour;
    a green Carousel (colour only) not at all; a red 5 once; under ``scope=turn`` the
    Trade once (its opponent the policy's)."""
    from unosim.kernel.expert.params import AT_TURN
    from unosim.kernel.rules.declared import choice, chosen_target

    rs = resolve(path("mixed"))
    names = rs.card_names
    k = lambda t: parse_kind(t, names)  # noqa: E731
    tb, rd = _position(rs, {0: "R:trade storm wild_draw_three G:carousel R5", 1: "B1"}, "R1")
    got = _candidates(tb, rd, AT_TURN)
    want = (
        [(k("R5"), -1)]
        + [(k("R:trade"), choice(0, q)) for q in (1, 2, 3)]
        + [(k("storm"), c) for c in range(4)]
        + [(k("wild_draw_three"), c) for c in range(4)]
    )
    assert sorted(got) == sorted(want)
    assert [chosen_target(c) for kk, c in got if kk == k("R:trade")] == [1, 2, 3]
    turn = _candidates(tb, rd, AT_TURN, scope=0)
    assert [c for kk, c in turn if kk == k("R:trade")] == [-1]


def test_candidates_name_a_colour_and_an_opponent_and_stack_a_declared_card():
    """A wild card that names a colour and draws from a chosen opponent: 4 colours x 2
    opponents (3 players); facing a Wild Draw Three under progressive stacking, the
    Wild Draw Three (per colour) and taking the penalty."""
    from unosim.kernel.expert.params import AT_PENALTY, AT_TURN
    from unosim.kernel.rules.declared import choice

    rs = apply(
        OFFICIAL,
        {
            "stacking": "progressive",
            "cards": {
                "curse": {"colours": "wild", "effect": ["name_colour", "draw 2 chosen"]},
                "wd3": {"colours": "wild", "stack": True, "effect": ["name_colour", "draw 3 next"]},
            },
        },
    )
    curse, wd3 = (parse_kind(x, rs.card_names) for x in ("curse", "wd3"))
    tb, rd = _position(rs, {0: "curse B7", 1: "G1", 2: "G2"}, "R1", n=3)
    assert sorted(_candidates(tb, rd, AT_TURN)) == sorted(
        [(curse, choice(c, q)) for c in range(4) for q in (1, 2)]
    )
    tb, rd = _position(rs, {0: "wd3 B7", 1: "G1", 2: "G2"}, "wd3", n=3)
    rd.game_state[L.G_PEND_DRAW] = 3
    assert _candidates(tb, rd, AT_PENALTY) == [(wd3, c) for c in range(4)] + [(-1, -1)]


# ------------------------------------------------------------------------------ checker
@pytest.mark.parametrize("name", FILES)
def test_the_checker_passes_with_every_strategy_and_the_expert(name):
    for i, strategy in enumerate(STRATEGIES):
        check_rounds(name, [strategy] * 5, 24, 100 + 10 * i)
    played = check_rounds(name, [EXPERT, *OPPONENTS], 24, 7)
    assert (played[:, 0] == 0).any(), f"{name}: the expert never played a declared card"


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_the_checker_passes_on_1000_rounds_with_every_strategy_and_the_expert(name):
    rs = resolve(path(name))
    want = {k for k in range(59, 79) if rs.deck_counts()[k]}
    for i, strategy in enumerate(STRATEGIES):
        played = check_rounds(name, [strategy] * 5, 1000, 1000 + 10 * i)
        assert want <= set(played[:, 1].tolist()), (name, strategy)
    played = check_rounds(name, [EXPERT, *OPPONENTS], 1000, 2000)
    assert want <= set(played[played[:, 0] == 0, 1].tolist()), f"{name}: expert"


def test_the_expert_chooses_opponents_and_colours_of_declared_cards():
    """In mixed.toml rounds the search replaces its policy's choice at normal turns and
    picks a declared card's opponent other than the policy's (``T_TARGET``)."""
    from unosim.kernel.expert.rounds import AT_TURN, T_CHANGED, T_TARGET

    job = make_job(path("mixed"), 1, 4, [EXPERT, "heuristic", "random", "random"], 5)
    tally = engine.expert_tally(job.kernel, job.seed, 0, 40)
    assert tally[T_CHANGED + AT_TURN] > 0 and tally[T_TARGET] > 0, tally


# ----------------------------------------------------------------------------- strength
@pytest.mark.slow
def test_the_expert_beats_random_players_with_wild_draw_six():
    """The expert (default budget) against 3 ``random`` under Wild Draw Six, each seat in
    turn: its win rate is above 1/4 by 5 standard errors."""
    deals = 300
    wins = np.zeros(deals)
    for r in range(4):
        seats = ["random"] * 4
        seats[r] = "expert"
        rec = run_block(make_job(path("wild-draw-six"), deals, 4, seats, 31), 0, deals)
        wins += (rec[:, L.C_WINNER] == r) / 4
    rate, se = wins.mean(), wins.std(ddof=1) / np.sqrt(deals)
    assert rate - 5 * se > 0.25, (rate, se)


# ------------------------------------------------------------------ every kind of seat
def test_experts_and_outside_seats_play_declared_cards():
    job = make_job(path("discard-all"), 4, 2, "expert:rollouts=4,random", 1)
    assert run_block(job, 0, 4).shape[0] == 4
    job = make_job(path("discard-all"), 4, 2, [lambda obs: obs.legal[0], "random"], 1)
    rec = run_block(job, 0, 4)
    assert rec.shape[0] == 4
