"""The three editions built from declared cards (examples/cards/pokemon.toml, motu.toml,
official-2018.toml) play like the presets ``pokemon``, ``motu`` and ``official-2018``.

1. Each file is its preset with the edition's special cards declared instead of built
   in: the same rules, deck size and card points.
2. The kernel playing the file against the independent reference engine playing the
   preset (its built-in Snorlax, Greninja, Grayskull, Shuffle Hands and Customizable),
   and against the reference reading the same declarations: every section 6 mean and
   every seat's win rate within 5 standard errors at fixed seeds (``random`` players).
3. ``heuristic`` players, kernel against kernel: the file and the preset on different
   seeds (the declared kinds have other numbers, so the same seed deals other games).
4. The new primitives in scripted rounds traced by hand: ``spend_turn next``,
   ``draw_until_colour next``, a second ``name_colour``, a Snorlax victim who wins, and a
   spent turn at the ``max_turns`` limit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import unosim
from tests.reference import engine as ref
from tests.scenarios.test_reference_parity import assert_same_distribution
from unosim.game.rules import OFFICIAL, PRESETS, resolve
from unosim.kernel.core import layout as L
from unosim.verify.checker import check_trace

CARDS = Path(__file__).resolve().parents[2] / "examples" / "cards"
# (file, preset, players)
EDITIONS = (("pokemon", "pokemon", 4), ("motu", "motu", 3), ("official-2018", "official-2018", 4))
IDS = [e[0] for e in EDITIONS]


def path(name: str) -> str:
    return str(CARDS / f"{name}.toml")


@pytest.mark.parametrize("name,preset,n", EDITIONS, ids=IDS)
def test_the_file_is_the_preset_with_its_cards_declared(name, preset, n):
    rs, pre = resolve(path(name)), PRESETS[preset]
    assert rs.deck_size() == pre.deck_size() == 112
    # nothing else differs: the preset's rules but its special wilds, the file's but its cards
    assert rs.replace(cards=(), name="x") == pre.replace(deck=OFFICIAL.deck, name="x")
    assert all(c.wild and c.points == 50 for c in rs.cards)
    deck, points = rs.deck_counts(), rs.points_table()
    pdeck, ppoints = pre.deck_counts(), pre.points_table()
    special = [k for k in range(59) if pdeck[k] != deck[k]]  # the preset's built-in specials
    declared = [k for k in range(59, deck.size) if deck[k]]
    assert sorted(pdeck[special]) == sorted(deck[declared])  # the same copies
    assert (ppoints[special] == 50).all() and (points[declared] == 50).all()


def compare(name: str, preset: str, n: int, kernel_games: int, ref_games: int, seed: int):
    kern = unosim.simulate(path(name), kernel_games, n, "random", seed=seed)
    assert (kern["truncated"] == 0).all()
    built_in = pd.DataFrame(ref.simulate(preset, n, ref_games, seed))
    assert_same_distribution(kern, built_in, n, f"{name} file vs the reference's {preset}")
    declared = pd.DataFrame(ref.simulate(path(name), n, ref_games, seed + 1))
    assert_same_distribution(kern, declared, n, f"{name} file vs the reference reading it")


@pytest.mark.parametrize("name,preset,n", EDITIONS, ids=IDS)
def test_an_edition_file_plays_like_its_preset(name, preset, n):
    compare(name, preset, n, 100_000, 1500, 2024)


MANY = EDITIONS + tuple((name, preset, 2) for name, preset, _ in EDITIONS)


@pytest.mark.slow
@pytest.mark.parametrize("name,preset,n", MANY, ids=[f"{e[0]}-{e[2]}" for e in MANY])
def test_an_edition_file_plays_like_its_preset_many_rounds(name, preset, n):
    compare(name, preset, n, 200_000, 20_000, 77)


@pytest.mark.parametrize("name,preset,n", EDITIONS, ids=IDS)
def test_heuristic_players_play_an_edition_file_like_its_preset(name, preset, n):
    a = unosim.simulate(path(name), 200_000, n, "heuristic", seed=77)
    b = unosim.simulate(preset, 200_000, n, "heuristic", seed=78)
    assert_same_distribution(a, b, n, f"{name} file vs {preset}, heuristic")


# ----------------------------------------------------------------- scripted scenarios
def scripted(rs, strategies, deal, first, drawn):
    """One scripted round: ``deal`` seat 0's hand, then seat 1's, ..., ``first``
    turned, then ``drawn`` on top of the draw pile; returns (row, trace)."""
    from unosim.game.cards import parse_kind
    from unosim.kernel.drivers.batch import run_one
    from unosim.players.seats import parse as parse_seats

    k = lambda t: parse_kind(t, rs.card_names)  # noqa: E731
    front = [k(t) for t in deal.split()] + [k(first)] + [k(t) for t in drawn.split()]
    rest = list(np.repeat(np.arange(rs.deck_counts().size), rs.deck_counts()))
    for c in front:
        rest.remove(c)
    order = np.array((front + rest)[::-1], dtype=np.int8)  # scripted: the last comes first
    n = len(strategies)
    sid, sp = parse_seats(list(strategies), n)[:2]
    out, *_, trace = run_one(
        rs.to_array(), sid, sp, rs.deck_counts(), rs.points_table(), n, 1, 0, order, 1, 200
    )
    assert not check_trace(trace, rs, n, row=out, strict=False)
    return out, trace


def events(trace):
    return [L.EVENT_NAMES[e] for e in trace[:, L.EV_TYPE]]


def colours_named(trace):
    return [int(c) for c in trace[:, L.EV_KIND][trace[:, L.EV_TYPE] == L.E_COLOUR]]


def test_greninja_scripted_round():
    """Seat 0 holds wild_greninja R5, seat 1 G1 G2; B3 is turned first. Seat 0's one legal
    card is the Greninja; holding only R5, the heuristic names red. Seat 1's turn is spent
    (turn 2): it draws Y7, G9, R2 and stops at the red R2; seat 0 names red again. Seat 1
    misses the turn, seat 0 plays R5 (turn 3) and is out: seat 1 keeps
    1 + 2 + 7 + 9 + 2 = 21 points; 3 cards drawn, 2 played."""
    rs = resolve(path("pokemon")).replace(hand_size=2)
    out, trace = scripted(
        rs, ("heuristic", "heuristic"), "wild_greninja R5 G1 G2", "B3", "Y7 G9 R2 B9"
    )
    assert events(trace) == (
        ["deal", "start", "play", "colour", "effect"]
        + ["drew"] * 3
        + ["colour", "skipped", "play", "win"]
    )
    assert colours_named(trace) == [0, 0]  # red, then red again
    assert out[L.C_WINNER] == 0 and out[L.C_TURNS] == 3
    assert out[L.C_CARDS_DRAWN] == 3 and out[L.C_CARDS_PLAYED] == 2
    assert out[L.C_POINTS] == 21 and out[L.C_HAND_SIZE + 1] == 5


def test_snorlax_scripted_round_the_victim_wins():
    """Seat 0 holds wild_snorlax R5, seat 1 R1 R2; B3 is turned first. Seat 0 plays the
    Snorlax and names red (it holds R5). Seat 1's turn is spent (turn 2): it draws R7,
    R8, R9 and throws away every red card, all five: its hand is empty and it wins with
    seat 0's R5 (5 points); 2 turns, 3 cards drawn, 1 + 5 played."""
    rs = resolve(path("pokemon")).replace(hand_size=2)
    out, trace = scripted(
        rs, ("heuristic", "heuristic"), "wild_snorlax R5 R1 R2", "B3", "R7 R8 R9 B9"
    )
    assert events(trace) == ["deal", "start", "play", "colour", "effect"] + ["drew"] * 3 + [
        "discard",
        "win",
    ]
    assert colours_named(trace) == [0]
    assert trace[trace[:, L.EV_TYPE] == L.E_DISCARD][0, L.EV_AUX] == 5
    assert out[L.C_WINNER] == 1 and out[L.C_TURNS] == 2
    assert out[L.C_CARDS_DRAWN] == 3 and out[L.C_CARDS_PLAYED] == 6 and out[L.C_POINTS] == 5


def test_a_spent_turn_at_the_turn_limit_truncates_the_round():
    """As above with max_turns = 1: seat 0's Snorlax is turn 1, so seat 1's turn cannot
    be spent; the round ends truncated before any card is drawn."""
    rs = resolve(path("pokemon")).replace(hand_size=2, max_turns=1)
    out, trace = scripted(
        rs, ("heuristic", "heuristic"), "wild_snorlax R5 R1 R2", "B3", "R7 R8 R9 B9"
    )
    assert events(trace) == ["deal", "start", "play", "colour", "effect", "truncated"]
    assert out[L.C_TRUNCATED] == 1 and out[L.C_TURNS] == 1 and out[L.C_CARDS_DRAWN] == 0
