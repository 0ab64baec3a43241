"""How the steps of one declared card combine (docs/cards.md, "How the steps of one card
combine"): every skip waits for the seat its step names, and a seat misses one turn for
each skip waiting for it.

1. Scenarios traced by hand, each played from the same deal by the kernel (a scripted
   deck through ``kernel.drivers.batch.run_one``, as tests/helpers.py plays its scripted
   rounds), judged by the move checker on the kernel's trace, and played by the
   reference engine (tests/reference): the seats that play and that are skipped, in
   order, must be the traced ones in all three.
2. Random declared decks whose cards combine skip-like steps: the kernel agrees with the
   reference engine (section 6 means and win rates within 5 standard errors) and the
   checker accepts every traced round with every built-in strategy.

The deal of the scenarios (hand size 4, the rest of the deck under the cards named):
seat 0 holds R:combo and red numbers, the others red numbers only, and G:combo is
turned first (no effect at setup, section 3; the colour is green). Seat 0's one legal
card is R:combo (the same card of another colour, 4.1); after it the colour is red,
every seat holds only red numbers and every play is a red number, which has no effect:
the order of the seats is the combo card's alone, whatever number the ``random`` player
picks. Notation: ``P0`` seat 0 plays a card, ``S1`` seat 1 misses a turn to a skip;
``1:2`` two skips wait for seat 1.
"""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

import unosim
from tests.reference import engine as ref
from tests.scenarios.test_reference_parity import assert_same_distribution
from unosim.game.cards import parse_kind
from unosim.game.rules import resolve
from unosim.kernel.core import layout as L
from unosim.kernel.drivers.batch import run_one
from unosim.players.seats import parse as parse_seats
from unosim.sim import engine
from unosim.sim.simulate import make_job
from unosim.verify.checker import check_trace, strict_seats

HANDS = {
    2: ["R:combo R1 R2 R3", "R4 R5 R6 R7"],
    4: ["R:combo R1 R2 R3", "R4 R5 R6 R7", "R8 R9 R1 R2", "R3 R4 R5 R6"],
}
FIRST = "G:combo"
DRAW = "R0 R7 R8 R9"  # the top of the draw pile, first drawn first

# (effect, players, the seats in order, what the code before this reading did instead;
# or None and the seats in order, where it did the same), then the hands if not HANDS[n]
SCENARIOS = [
    (
        # 1:2 2:1 3:1. The round goes on from seat 0: S1 (1:1), S2, S3; seat 0 has no
        # skip and plays; seat 1's second skip: S1; then P2, P3, P0, P1.
        ["skip next", "again"],
        4,
        "P0 S1 S2 S3 P0 S1 P2 P3 P0 P1",
        "4 skips for whoever acts next: S1 S2 S3 S0 P1",
    ),
    (
        # skip next: 1:1 (seat 1 is next); reverse: direction 0, 3, 2, 1. P3, P2, then
        # seat 1's turn: S1; P0, P3.
        ["skip next", "reverse"],
        4,
        "P0 P3 P2 S1 P0 P3",
        "the skip fell on the new neighbour: S3 P2 P1",
    ),
    (
        # reverse first: seat 3 is next, 3:1: S3, then P2, P1, P0, P3 (as before)
        ["reverse", "skip next"],
        4,
        None,
        "P0 S3 P2 P1 P0 P3",
    ),
    (
        # 1:2: S1 (1:1), P2, P3, P0, S1 (1:0), P2
        ["skip next", "skip next"],
        4,
        "P0 S1 P2 P3 P0 S1 P2",
        "the next two players: S1 S2 P3",
    ),
    (
        # 1:2 2:2 3:2: S1 S2 S3 (one each), P0, S1 S2 S3 (the second each), P0, P1
        ["skip everyone", "again"],
        4,
        "P0 S1 S2 S3 P0 S1 S2 S3 P0 P1",
        "6 skips for whoever acts next: S1 S2 S3 S0 S1 S2 P3",
    ),
    (
        # again: 1:1 2:1 3:1; draw 2 next: seat 1 (next, skipped or not) draws 2.
        # S1 S2 S3, P0, P1 (as before)
        ["again", "draw 2 next"],
        4,
        None,
        "P0 S1 S2 S3 P0 P1",
    ),
    (
        # spend_turn next: seat 1's turn is spent (turn 2) and 1:1; again: 1:2 2:1 3:1.
        # S1, S2, S3, P0 (turn 3), S1, P2 (turn 4), P3, P0
        ["spend_turn next", "again"],
        4,
        "P0 S1 S2 S3 P0 S1 P2 P3 P0",
        "4 skips for whoever acts next: S1 S2 S3 S0 P1",
    ),
    (
        # a penalty waiting for a seat is met first, and its skip waits on. 1:1, direction
        # 0, 3, 2, 1: P3; seat 2 plays R+2 (its one red card); seat 1 draws R0 R7 and loses
        # the turn, 1:1 still; P0, P3; seat 2 has no red card, draws R8 and plays it; S1;
        # P0
        ["skip next", "reverse"],
        4,
        "P0 P3 P2 P0 P3 P2 S1 P0",
        "the skip fell on the new neighbour: S3 P2, and seat 1 played after its penalty",
        ["R:combo R1 R2 R3", "R4 R5 R6 R7", "R+2 Y7 Y8 Y9", "R3 R4 R5 R6"],
    ),
    (
        # 2 players, 1:2: S1 (1:1), P0, S1 (1:0), P0, P1
        ["skip next", "skip next"],
        2,
        "P0 S1 P0 S1 P0 P1",
        "2 skips for whoever acts next: S1 S0 P1",
    ),
    (
        # 2 players: reverse is a skip (4.5) for seat 1, then skip next: 1:2, as above
        ["reverse", "skip next"],
        2,
        "P0 S1 P0 S1 P0 P1",
        "2 skips for whoever acts next: S1 S0 P1",
    ),
]


def scenario_id(s) -> str:
    return f"{'+'.join(s[0]).replace(' ', '_')}-{s[1]}p" + ("-penalty" if len(s) > 4 else "")


def hands_of(s) -> list[str]:
    return s[4] if len(s) > 4 else HANDS[s[1]]


def rule_file(tmp_path, effect: list[str]) -> str:
    p = tmp_path / "combo.toml"
    steps = ", ".join(f'"{s}"' for s in effect)
    p.write_text(f'preset = "official"\nhand_size = 4\n\n[cards.combo]\neffect = [{steps}]\n')
    return str(p)


def expected(s) -> str:
    """The traced seats: the new ones, or the old ones where the reading keeps them."""
    return s[2] if s[2] is not None else s[3]


def kernel_round(rules: str, hands: list[str], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The scenario's deal played by the kernel: (record, trace)."""
    rs = resolve(rules)
    n = len(hands)
    kind = lambda t: parse_kind(t, rs.card_names)  # noqa: E731
    seq = [kind(t) for h in hands for t in h.split()] + [kind(FIRST)]
    seq += [kind(t) for t in DRAW.split()]
    deck = rs.deck_counts()
    rest = list(np.repeat(np.arange(deck.size), deck))  # the rest of the deck, in kind order
    for k in seq:
        rest.remove(k)
    order = np.array((seq + rest)[::-1], dtype=np.int8)  # the kernel deals from the end
    sid, sp, _ = parse_seats("random", n)
    out, rd, *_, trace = run_one(
        rs.to_array(), sid, sp, deck, rs.points_table(), n, seed, 0, order, 1, 4000
    )
    assert int(rd.trace_flags[L.TR_EVENTS]) <= 4000, "the trace did not fit"
    return out, trace[: int(rd.trace_flags[L.TR_EVENTS])]


def seats_of_trace(trace: np.ndarray) -> list[str]:
    out = []
    for typ, p in trace[:, [L.EV_TYPE, L.EV_SEAT]]:
        if typ in (L.E_PLAY, L.E_DRAWN):
            out.append(f"P{p}")
        elif typ == L.E_SKIPPED:
            out.append(f"S{p}")
    return out


def reference_round(rules: str, hands: list[str], seed: int) -> list[str]:
    """The scenario's deal played by the reference engine: its seats in order."""
    r = ref.resolve_rules(rules)
    n = len(hands)
    dealt = [[_ref_card(t) for t in h.split()] for h in hands]
    deck = ref.arrange_deck(r, n, dealt, _ref_card(FIRST), [_ref_card(t) for t in DRAW.split()])
    log: list = []
    ref.play_round(r, n, random.Random(seed), deck=deck, checks=True, log=log)
    return [f"{'P' if e[0] == 'play' else 'S'}{e[1]}" for e in log if e[0] in ("play", "skipped")]


def _ref_card(text: str) -> ref.Card:
    colour = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}[text[0]]
    rank = text.split(":")[1] if ":" in text else text[1:]
    return ref.Card(colour, "draw2" if rank == "+2" else rank)


# ------------------------------------------------------------------ hand-traced scenarios
@pytest.mark.parametrize("scenario", SCENARIOS, ids=scenario_id)
def test_the_kernel_plays_the_traced_seats(tmp_path, scenario):
    effect = scenario[0]
    want = expected(scenario).split()
    for seed in range(4):  # the random player's picks do not change the seats
        out, trace = kernel_round(rule_file(tmp_path, effect), hands_of(scenario), seed)
        got = seats_of_trace(trace)[: len(want)]
        assert got == want, f"seed {seed}: {' '.join(got)}"
        if effect == ["spend_turn next", "again"]:  # P0, seat 1's spent turn, P0, P2
            plays = trace[np.isin(trace[:, L.EV_TYPE], (L.E_PLAY, L.E_DRAWN))]
            assert list(plays[:3, L.EV_TURN]) == [1, 3, 4]
        if effect == ["again", "draw 2 next"]:  # seat 1 draws 2 as the card is played
            drew = trace[trace[:, L.EV_TYPE] == L.E_DREW]
            assert list(drew[:2, L.EV_SEAT]) == [1, 1]
        if len(scenario) > 4:  # seat 1 takes the penalty of 2 before its skip
            i = list(trace[:, L.EV_TYPE]).index(L.E_PENALTY)
            assert trace[i, L.EV_SEAT] == 1 and trace[i, L.EV_AUX] == 2
            assert trace[i, L.EV_SKIP] == 1  # still waiting for seat 1


@pytest.mark.parametrize("scenario", SCENARIOS, ids=scenario_id)
def test_the_checker_accepts_the_traced_seats_and_refuses_a_lost_skip(tmp_path, scenario):
    effect, n = scenario[:2]
    rules = rule_file(tmp_path, effect)
    rs = resolve(rules)
    out, trace = kernel_round(rules, hands_of(scenario), 1)
    assert seats_of_trace(trace)[: len(expected(scenario).split())] == expected(scenario).split()
    v = check_trace(trace, rs, n, row=out, strict=True)
    assert not v, "; ".join(map(str, v[:3]))
    # the same trace with the last skip of the traced seats taken out: a skip was due
    want = expected(scenario).split()
    last = max(i for i, s in enumerate(want) if s.startswith("S"))
    rows = np.flatnonzero(np.isin(trace[:, L.EV_TYPE], (L.E_PLAY, L.E_DRAWN, L.E_SKIPPED)))
    forged = np.delete(trace, rows[last], axis=0)
    assert check_trace(forged, rs, n, row=out, strict=True)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=scenario_id)
def test_the_reference_engine_plays_the_traced_seats(tmp_path, scenario):
    want = expected(scenario).split()
    for seed in range(4):
        got = reference_round(rule_file(tmp_path, scenario[0]), hands_of(scenario), seed)
        got = got[: len(want)]
        assert got == want, f"seed {seed}: {' '.join(got)}"


# ------------------------------------------------------------------ random declared decks
SKIPPY = ["skip next", "skip everyone", "again", "reverse", "spend_turn next"]
OTHERS = ["draw 1 next", "draw 2 others", "discard_colour victim", "draw_until_colour next"]


def random_deck(seed: int) -> str:
    """A rule file of 1-3 declared cards, each with two to four steps of which at least
    two skip, reverse or spend a turn (some wild, some coloured)."""
    rng = random.Random(seed)
    body = ['preset = "official"', f'name = "combined-{seed}"']
    for d in range(rng.randint(1, 3)):
        wild = rng.random() < 0.4
        steps = ["name_colour"] if wild else []
        room = 4 - len(steps)
        steps += [rng.choice(SKIPPY) for _ in range(2)]
        steps += [rng.choice(SKIPPY + OTHERS) for _ in range(rng.randint(0, room - 2))]
        head = steps[:1] if wild else []
        tail = steps[len(head) :]
        rng.shuffle(tail)
        effect = ", ".join(f'"{s}"' for s in head + tail)
        body += [f"[cards.c{d}]", f'colours = "{"wild" if wild else "each"}"']
        body += [f"copies = {rng.randint(1, 4)}", f"effect = [{effect}]"]
    return "\n".join(body) + "\n"


@pytest.mark.parametrize("seed", range(4))
def test_random_combined_decks_agree_with_the_reference_engine(tmp_path, seed):
    p = tmp_path / "deck.toml"
    p.write_text(random_deck(seed))
    n = (2, 3, 4, 5)[seed]
    kern = unosim.simulate(str(p), n_games=3000, n_players=n, strategies="random", seed=seed)
    refr = pd.DataFrame(ref.simulate(str(p), n, 3000, seed + 100))
    assert (kern["truncated"] == 0).mean() > 0.99 and refr["truncated"].mean() < 0.01
    assert_same_distribution(kern, refr, n, p.read_text())


@pytest.mark.parametrize("seed", range(8))
def test_the_checker_accepts_random_combined_decks(tmp_path, seed):
    p = tmp_path / "deck.toml"
    p.write_text(random_deck(seed))
    rs = resolve(str(p))
    strategies = ("random", "heuristic", "aggressive", "weighted")
    for n in (2, 4):
        job = make_job(rs, 1, n, ",".join(strategies[:n]), seed)
        skipped = 0
        for game in range(10):
            out, trace = engine.trace(job.kernel, job.seed, game)
            v = check_trace(trace, rs, n, row=out, strict=strict_seats(job.labels))
            assert not v, f"{p.read_text()}\ngame {game}: " + "; ".join(map(str, v[:3]))
            skipped += int((trace[:, L.EV_TYPE] == L.E_SKIPPED).sum())
        assert skipped > 0
