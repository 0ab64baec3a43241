"""Random play under every preset and combination of switches: after every round all
cards are accounted for, kind by kind, and the recorded row is self-consistent."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unosim
from unosim.game.cards import N_KINDS
from unosim.game.rules import PRESETS
from unosim.kernel.core import layout as L
from unosim.kernel.drivers.batch import run_one
from unosim.players.seats import parse as parse_seats

SWITCHES = st.fixed_dictionaries(
    {
        "stacking": st.sampled_from(["none", "same", "progressive"]),
        "seven_zero": st.booleans(),
        "jump_in": st.booleans(),
        "draw_rule": st.sampled_from(["one", "until_playable"]),
        "wd4_restriction": st.sampled_from(["colour", "none"]),
        "multi_play": st.booleans(),
        "challenge": st.booleans(),
        "blank_card": st.sampled_from(["wild", "swap_hands"]),
    }
)
STRATEGIES = st.sampled_from(
    [
        "random",
        "heuristic",
        "random:bluff=0.5;challenge=0.5;forget_uno=0.5",
        "heuristic:bluff=0.3;forget_uno=0.2",
        "random,heuristic",
    ]
)


def play_once(rules, n, strategies, seed):
    sid, sp, _ = parse_seats(
        strategies if "," not in strategies else ",".join((strategies.split(",") * n)[:n]), n
    )
    deck = rules.deck_counts()
    order = np.repeat(np.arange(N_KINDS), deck).astype(np.int8)
    np.random.default_rng(seed).shuffle(order)
    return deck, run_one(
        rules.to_array(), sid, sp, deck, rules.points_table(), n, seed, 0, order, 1, 0
    )[:6]


def check_round(rules, n, deck, result):
    out, rd, hands, hinfo, pile, disc = result
    # every card is in a hand, the draw pile or the discard pile, kind by kind
    held = hands[:n].sum(axis=0) + np.bincount(pile, minlength=N_KINDS) + disc
    np.testing.assert_array_equal(held, deck)
    np.testing.assert_array_equal(hinfo[:n, L.H_TOTAL], hands[:n].sum(axis=1))
    assert disc[int(rd.game_state[L.G_TOP])] >= 1
    assert 0 <= rd.game_state[L.G_COLOUR] < 4
    winner, truncated = out[L.C_WINNER], out[L.C_TRUNCATED]
    points = rules.points_table().astype(int)
    hp = hands[:n].astype(int) @ points
    np.testing.assert_array_equal(out[L.C_HAND_POINTS : L.C_HAND_POINTS + n], hp)
    np.testing.assert_array_equal(out[L.C_HAND_SIZE : L.C_HAND_SIZE + n], hands[:n].sum(axis=1))
    assert out[L.C_TURNS] <= rules.max_turns
    if truncated:
        assert winner == -1 and out[L.C_POINTS] == 0
        assert out[L.C_TURNS] == rules.max_turns
    else:
        assert 0 <= winner < n
        assert hands[winner].sum() == 0  # exactly one player is out of cards
        assert (hands[:n].sum(axis=1) == 0).sum() == 1
        assert out[L.C_POINTS] == hp.sum()
    assert out[L.C_FIRST] in (0, 1, n - 1)
    assert out[L.C_MAX_STACK] >= 0 and out[L.C_CARDS_DRAWN] >= 0


@settings(max_examples=400, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    switches=SWITCHES,
    n=st.integers(2, 10),
    seed=st.integers(0, 2**40),
    strategies=STRATEGIES,
)
def test_cards_conserved_every_preset_and_switch(preset, switches, n, seed, strategies):
    rules = PRESETS[preset].replace(**switches, max_turns=800)
    deck, result = play_once(rules, n, strategies, seed)
    check_round(rules, n, deck, result)


@pytest.mark.parametrize("n", range(2, 11))
def test_cards_conserved_every_player_count(n):
    rules = PRESETS["official"]
    for seed in range(150):
        deck, result = play_once(rules, n, "random", seed)
        check_round(rules, n, deck, result)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_batch_rows_consistent(preset):
    n = 5
    df = unosim.simulate(preset, 5000, n, "random,heuristic,random,heuristic,random", seed=3)
    sizes = df[[f"hand_size_{s}" for s in range(n)]].to_numpy()
    pts = df[[f"hand_points_{s}" for s in range(n)]].to_numpy().astype(int)
    done = ~df["truncated"].to_numpy()
    w = df["winner"].to_numpy()
    assert (w[done] >= 0).all() and (w[~done] == -1).all()
    assert (sizes[done, w[done]] == 0).all()
    assert ((sizes == 0).sum(axis=1)[done] == 1).all()
    others = pts.sum(axis=1) - pts[np.arange(len(df)), np.maximum(w, 0)]
    np.testing.assert_array_equal(df["points"].to_numpy()[done], others[done])
    assert (df["turns"] <= PRESETS[preset].max_turns).all()
    assert df["game"].tolist() == list(range(5000))


def test_truncation_is_kept_and_flagged():
    df = unosim.simulate(PRESETS["official"].replace(max_turns=30), 2000, 4, seed=1)
    t = df["truncated"]
    assert 0 < t.sum() < len(df)
    assert (df.loc[t, "turns"] == 30).all()
    assert (df.loc[t, "winner"] == -1).all() and (df.loc[t, "points"] == 0).all()
    assert len(df) == 2000


def test_large_custom_points_are_recorded_exactly():
    """Points are a rule up to 10,000 a card (RULES.md 2): hand points and match totals
    must not wrap around in the frames (they once were int16 / int32)."""
    big = tuple(10_000 for _ in PRESETS["official"].points)
    rs = PRESETS["official"].replace(name="big-points", points=big)
    df = unosim.simulate(rs, 3000, 4, seed=1)
    pts = df[[f"hand_points_{s}" for s in range(4)]].to_numpy().astype(np.int64)
    sizes = df[[f"hand_size_{s}" for s in range(4)]].to_numpy().astype(np.int64)
    np.testing.assert_array_equal(pts, 10_000 * sizes)  # every card is worth 10,000
    assert pts.max() > 2**15  # the case that used to wrap
    w = df["winner"].to_numpy()
    np.testing.assert_array_equal(df["points"].to_numpy(), pts.sum(1) - pts[np.arange(len(df)), w])
    # nobody is ever penalised among random players: the match runs to max_rounds
    matches, rounds = unosim.simulate_matches(
        rs.replace(penalty_elimination=True, max_rounds=70_000), 1, 4, seed=1
    )
    totals = matches[[f"score_{p}" for p in range(4)]].to_numpy()[0]
    won = rounds["winner_player"].to_numpy()
    done = won >= 0
    want = np.bincount(won[done], weights=rounds["points"].to_numpy()[done], minlength=4)
    np.testing.assert_array_equal(totals, want.astype(np.int64))
    assert totals.max() > 2**31
