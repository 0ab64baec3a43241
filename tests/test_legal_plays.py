"""Only legal plays are made: every move of traced rounds, judged outside the kernel
from the state and the hand recorded before it (RULES.md 4.1, 4.3, 8.1, 8.3, 8.6)."""
from __future__ import annotations

import numpy as np
import pytest

from unosim import strategies as strat
from unosim.cards import COLOUR, DRAW_TWO, N_COLOURED, N_KINDS, RANK, WILD_DRAW_FOUR
from unosim.kernel import layout as L
from unosim.kernel.batch import run_one
from unosim.rules import PRESETS


def legal(k: int, top: int, colour: int, hand: np.ndarray, restricted: bool) -> bool:
    if k >= N_COLOURED:
        if k == WILD_DRAW_FOUR and restricted:
            held = hand[:N_COLOURED].reshape(4, 13)[colour].sum()
            return held == 0
        return True
    return COLOUR[k] == colour or (top < N_COLOURED and RANK[k] == RANK[top])


def stackable(k: int, top: int, colour: int, mode: str) -> bool:
    if top == WILD_DRAW_FOUR:
        return k == WILD_DRAW_FOUR or (mode == "progressive" and RANK[k] == DRAW_TWO
                                       and COLOUR[k] == colour)
    return RANK[k] == DRAW_TWO or (mode == "progressive" and k == WILD_DRAW_FOUR)


def check_trace(rules, trace, random_players: bool) -> int:
    """Judge every move; each row shows the state after it, so the state before a move
    is the previous row's, and the mover's hand before a play is its hand plus the card."""
    restricted = rules.wd4_restriction == "colour"
    prev = None
    for i, ev in enumerate(trace):
        typ, p, k = int(ev[L.EV_TYPE]), int(ev[L.EV_SEAT]), int(ev[L.EV_KIND])
        if i == 0:
            assert typ == L.E_DEAL
            prev = ev
            continue
        top, colour, pend = (int(prev[L.EV_TOP]), int(prev[L.EV_COLOUR]),
                             int(prev[L.EV_PEND]))
        base = L.EV_HANDS + max(p, 0) * N_KINDS
        hand = ev[base:base + N_KINDS].astype(int)
        where = f"event {L.EVENT_NAMES[typ]} seat {p} card {k} top {top} colour {colour}"
        if typ in (L.E_PLAY, L.E_DRAWN, L.E_STACK, L.E_JUMP, L.E_EXTRA):
            before = hand.copy()
            before[k] += 1  # the card was in the hand
            assert ev[L.EV_TOP] == k, f"{where}: not on the discard pile"
        if typ in (L.E_PLAY, L.E_DRAWN):
            assert pend == 0, f"{where}: a penalty was pending"
            if ev[L.EV_FLAGS] & L.F_BLUFF:
                assert k == WILD_DRAW_FOUR and not legal(k, top, colour, before, restricted)
            else:
                assert legal(k, top, colour, before, restricted), f"{where}: illegal"
        elif typ == L.E_STACK:
            assert rules.stacking != "none" and pend > 0, where
            assert stackable(k, top, colour, rules.stacking), f"{where}: not stackable"
        elif typ == L.E_JUMP:
            assert rules.jump_in and k == top and k < N_COLOURED, f"{where}: bad jump-in"
        elif typ == L.E_EXTRA:
            assert rules.multi_play and k < N_COLOURED
            same = k == top
            run = (COLOUR[k] == COLOUR[top] and RANK[k] < 10 and RANK[top] < 10
                   and abs(int(RANK[k]) - int(RANK[top])) == 1)
            assert same or run, f"{where}: not a multi-card play"
        elif typ == L.E_DRAW and random_players:
            # `random` never draws while it holds a legal card (RULES.md section 10)
            options = [c for c in range(N_KINDS) if hand[c] and
                       legal(c, top, colour, hand, restricted)]
            assert not options, f"{where}: drew while holding {options}"
        prev = ev
    return len(trace)


SETS = [("official", {}), ("stacking", {}), ("progressive", {}), ("seven-zero", {}),
        ("jump-in", {}), ("draw-until-playable", {}), ("official-2018", {}), ("pokemon", {}),
        ("motu", {}), ("copag", {}), ("portugal", {}),
        ("official", dict(stacking="progressive", jump_in=True, seven_zero=True,
                          wd4_restriction="none", multi_play=True))]


@pytest.mark.parametrize("preset,changes", SETS, ids=[f"{p}{'+' if c else ''}" for p, c in SETS])
@pytest.mark.parametrize("strategies", ["random", "heuristic",
                                        "random:bluff=0.5;challenge=0.5", "table",
                                        "points-dumper,aggressive,colour-counter,weighted"])
def test_every_traced_move_is_legal(preset, changes, strategies):
    rules = PRESETS[preset].replace(**changes)
    n = 4
    sid, sp, _ = strat.parse(strategies, n)
    deck = rules.deck_counts()
    order = np.repeat(np.arange(N_KINDS), deck).astype(np.int8)
    events = 0
    for game in range(80):
        events += check_trace(rules, traced(rules, sid, sp, deck, order, n, game),
                              strategies == "random")
    assert events > 80 * 20


def traced(rules, sid, sp, deck, order, n, game, seed=7):
    """The trace of one game; rerun with room for every event if 4096 rows were short."""
    cap = 4096
    while True:
        out, g, *_, trace = run_one(rules.to_array(), sid, sp, deck, rules.points_table(),
                                    n, seed, game, order, 0, cap)
        if g[L.G_TRACE_N] <= cap:
            return trace
        cap = int(g[L.G_TRACE_N])


def test_trace_replays_the_run():
    """Game G of a run, replayed alone with its trace, gives the same row."""
    import unosim
    from unosim.simulate import make_job, run_block

    job = make_job("stacking", 300, 4, "random", seed=1)
    rows = run_block(job, 0, 300)
    rules = job.rules
    order = np.repeat(np.arange(N_KINDS), rules.deck_counts()).astype(np.int8)
    for game in (0, 17, 299):
        out, *_ = run_one(rules.to_array(), job.sid, job.sparams, rules.deck_counts(),
                          rules.points_table(), 4, 1, game, order, 0, 0)
        np.testing.assert_array_equal(out, rows[game])
    assert unosim  # the public package imports


def test_checker_catches_corrupted_traces():
    rules = PRESETS["official"]
    sid, sp, _ = strat.parse("random", 4)
    deck = rules.deck_counts()
    order = np.repeat(np.arange(N_KINDS), deck).astype(np.int8)
    trace = traced(rules, sid, sp, deck, order, 4, 3)
    check_trace(rules, trace, True)
    plays = np.flatnonzero(trace[:, L.EV_TYPE] == L.E_PLAY)
    i = plays[0]
    before = trace[i - 1]
    # an illegal card: another colour, another rank
    bad = next(k for k in range(N_COLOURED) if COLOUR[k] != before[L.EV_COLOUR]
               and (before[L.EV_TOP] >= N_COLOURED or RANK[k] != RANK[before[L.EV_TOP]]))
    corrupt = trace.copy()
    corrupt[i, L.EV_KIND] = bad
    corrupt[i, L.EV_TOP] = bad
    with pytest.raises(AssertionError, match="illegal"):
        check_trace(rules, corrupt, True)
    # a draw while holding a legal card (the hand before the play still held it)
    corrupt = trace.copy()
    corrupt[i, L.EV_TYPE] = L.E_DRAW
    p = int(trace[i, L.EV_SEAT])
    corrupt[i, L.EV_HANDS + p * N_KINDS + int(trace[i, L.EV_KIND])] += 1
    with pytest.raises(AssertionError, match="drew while holding"):
        check_trace(rules, corrupt, True)
    # a jump-in under rules without Jump-In
    corrupt = trace.copy()
    corrupt[i, L.EV_TYPE] = L.E_JUMP
    with pytest.raises(AssertionError, match="jump-in"):
        check_trace(rules, corrupt, True)
