"""The independent move checker (unosim.verify.checker) over traced rounds.

1. It passes on 1,000 traced rounds of every preset and of every house-rule switch
   (RULES.md sections 8 and 9), mixing player counts and strategies (plain ``random``
   seats are judged strictly: RULES.md section 10), and each case really contains the
   events it is meant to exercise.
2. It catches each of a list of deliberately corrupted traces, at the corrupted row.
3. Only legal plays are made: every move of traced rounds of every preset and the house
   rules, for every strategy (RULES.md 4.1, 4.3, 8.1, 8.3, 8.6, 8.8-8.10); and game G of
   a run, replayed alone with its trace, gives the run's row.
"""

from __future__ import annotations

import numpy as np
import pytest

import unosim
from unosim.game.cards import (
    COLOUR,
    DRAW_TWO,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_KINDS,
    RANK,
    REVERSE,
    WILD_DRAW_FOUR,
)
from unosim.game.rules import PRESETS, apply
from unosim.kernel.core import layout as L
from unosim.kernel.drivers.batch import run_one
from unosim.players.seats import parse as parse_seats
from unosim.sim import engine
from unosim.sim.results import rounds_frame
from unosim.sim.simulate import make_job
from unosim.verify.checker import Violation, check_trace, strict_seats

ROUNDS = 1000
SEED = 20240611
# (players, strategies): rounds of a case cycle through these
MIXES = [
    (4, "random"),
    (2, "random,heuristic:bluff=0.3;challenge=0.5;forget_uno=0.2"),
    (3, "heuristic,random:bluff=0.3;challenge=0.5;forget_uno=0.3;stack=0.5;jump=0.5,random"),
    (
        5,
        "heuristic:bluff=0.2;forget_uno=0.2,random,heuristic,"
        "random:bluff=0.5;challenge=1;forget_uno=0.5,random",
    ),
    (4, "points-dumper,aggressive:bluff=0.3,colour-counter,weighted:forget_uno=0.3"),
]
E = L  # event codes: E.E_PLAY ...
NB = N_BUILTIN_KINDS  # a trace's hand columns per seat (rule sets without declared cards)

ALL_SPECIALS = apply(
    PRESETS["official-2018"],
    {"deck": {"snorlax": 2, "greninja": 2, "grayskull": 4}},
    name="all-specials",
)
# name -> (rule set, events that must occur among its rounds)
PRESET_EVENTS = {
    "official": {E.E_CHALLENGE, E.E_UNO},
    "official-2018": {E.E_SHUFFLE},
    "pokemon": {E.E_SNORLAX, E.E_DISCARD, E.E_GRENINJA},
    "copag": {E.E_EXTRA},
    "stacking": {E.E_STACK},
    "progressive": {E.E_STACK},
    "seven-zero": {E.E_SWAP, E.E_ROTATE},
    "jump-in": {E.E_JUMP},
    "draw-until-playable": {E.E_DRAWN},
}
CASES = {
    **{name: (rs, PRESET_EVENTS.get(name, set())) for name, rs in PRESETS.items()},
    # RULES.md section 8, each switch (on a base other than `official` when the presets
    # already give official + switch)
    "copag+stacking=same": (apply(PRESETS["copag"], {"stacking": "same"}), {E.E_STACK}),
    "pokemon+stacking=progressive": (
        apply(PRESETS["pokemon"], {"stacking": "progressive"}),
        {E.E_STACK},
    ),
    "official-2018+seven_zero": (
        apply(PRESETS["official-2018"], {"seven_zero": True}),
        {E.E_SWAP, E.E_ROTATE, E.E_SHUFFLE},
    ),
    "copag+jump_in": (apply(PRESETS["copag"], {"jump_in": True}), {E.E_JUMP, E.E_EXTRA}),
    "official-2018+draw_rule=until_playable": (
        apply(PRESETS["official-2018"], {"draw_rule": "until_playable"}),
        {E.E_DRAWN},
    ),
    "official+wd4_restriction=none": (
        apply(PRESETS["official"], {"wd4_restriction": "none"}),
        {E.E_CHALLENGE},
    ),
    "official+multi_play": (apply(PRESETS["official"], {"multi_play": True}), {E.E_EXTRA}),
    "official+uno_penalty=1,catch_uno=0.5": (
        apply(PRESETS["official"], {"uno_penalty": 1, "catch_uno": 0.5}),
        {E.E_UNO},
    ),
    "official+challenge_penalty=4": (
        apply(PRESETS["official"], {"challenge_penalty": 4}),
        {E.E_CHALLENGE},
    ),
    "official+challenge=off": (apply(PRESETS["official"], {"challenge": False}), set()),
    "official+voluntary_draw=off": (apply(PRESETS["official"], {"voluntary_draw": False}), set()),
    "official-2018+blank_card=swap_hands": (
        apply(PRESETS["official-2018"], {"blank_card": "swap_hands"}),
        {E.E_SWAP},
    ),
    "official+max_turns=25": (apply(PRESETS["official"], {"max_turns": 25}), {E.E_TRUNCATED}),
    "stacking+hand_size=12": (apply(PRESETS["stacking"], {"hand_size": 12}), {E.E_RESHUFFLE}),
    # RULES.md 8.8-8.10, alone and with the rules they interact with
    "official+last_card=number": (
        apply(PRESETS["official"], {"last_card": "number"}),
        {E.E_CHALLENGE},
    ),
    "copag+last_card=number,stacking,jump_in": (
        apply(
            PRESETS["copag"], {"last_card": "number", "stacking": "progressive", "jump_in": True}
        ),
        {E.E_STACK, E.E_JUMP, E.E_EXTRA},
    ),
    "official+after_draw=pass": (
        apply(PRESETS["official"], {"after_draw": "pass"}),
        {E.E_CHALLENGE},
    ),
    "official+wd4_restriction=strict": (
        apply(PRESETS["official"], {"wd4_restriction": "strict"}),
        {E.E_CHALLENGE},
    ),
    "official-2018+all-three": (
        apply(
            PRESETS["official-2018"],
            {
                "last_card": "number",
                "after_draw": "pass",
                "wd4_restriction": "strict",
                "stacking": "same",
                "jump_in": True,
                "multi_play": True,
            },
        ),
        {E.E_CHALLENGE, E.E_STACK, E.E_JUMP, E.E_EXTRA},
    ),
    # every special card and switch at once; max_turns 500 because heuristic seats swap
    # hands with whoever is about to win, so many such rounds never end (legal moves, slow)
    "all-specials+every-switch": (
        apply(
            ALL_SPECIALS,
            {
                "stacking": "progressive",
                "seven_zero": True,
                "jump_in": True,
                "multi_play": True,
                "wd4_restriction": "none",
                "blank_card": "swap_hands",
                "draw_rule": "until_playable",
                "max_turns": 500,
            },
        ),
        {
            E.E_STACK,
            E.E_JUMP,
            E.E_SWAP,
            E.E_ROTATE,
            E.E_SNORLAX,
            E.E_GRENINJA,
            E.E_SHUFFLE,
            E.E_EXTRA,
            E.E_TRUNCATED,
        },
    ),
}
# events every case must show somewhere in its rounds
COMMON = {
    E.E_DEAL,
    E.E_RETURN,
    E.E_START,
    E.E_PLAY,
    E.E_DRAW,
    E.E_DREW,
    E.E_DRAWN,
    E.E_PENALTY,
    E.E_SKIPPED,
    E.E_COLOUR,
    E.E_EFFECT,
    E.E_RESHUFFLE,
    E.E_WIN,
}


def traced(rules, n: int, strategies: str, seed: int, games):
    """(game, record, trace, strict seats) of games of the run (rules, n, strategies, seed)."""
    job = make_job(rules, 1, n, strategies, seed)
    for game in games:
        out, trace = engine.trace(job.kernel, seed, game)
        yield game, out, trace, strict_seats(job.labels)


def message(violations: list[Violation]) -> str:
    return "\n".join(map(str, violations[:5]))


@pytest.mark.parametrize("case", list(CASES))
def test_checker_passes_on_traced_rounds(case):
    rules, wanted = CASES[case]
    seen: set[int] = set()
    rounds = 0
    per_mix = ROUNDS // len(MIXES)
    for n, strategies in MIXES:
        for game, out, trace, strict in traced(rules, n, strategies, SEED, range(per_mix)):
            violations = check_trace(trace, rules, n, row=out, strict=strict)
            assert not violations, (
                f"{case}, {n} players, {strategies}, seed {SEED}, game "
                f"{game}:\n{message(violations)}"
            )
            seen.update(np.unique(trace[:, L.EV_TYPE]).tolist())
            rounds += 1
    assert rounds >= ROUNDS
    common = COMMON if rules.max_turns >= 100 else COMMON - {E.E_RESHUFFLE}
    if rules.after_draw == "pass":  # 8.9: a drawn card is never played
        common = common - {E.E_DRAWN}
        assert E.E_DRAWN not in seen
    missing = (common | wanted) - seen
    assert not missing, f"{case}: no {', '.join(L.EVENT_NAMES[m] for m in missing)} event"


def test_checker_passes_on_ten_players():
    rules = apply(PRESETS["pokemon"], {"jump_in": True, "stacking": "same"})
    n = 10
    for game, out, trace, strict in traced(rules, n, "random", SEED, range(100)):
        violations = check_trace(trace, rules, n, row=out, strict=strict)
        assert not violations, f"game {game}:\n{message(violations)}"


# ---------------------------------------------------------------------------------
# corrupted traces
# ---------------------------------------------------------------------------------
def find(rules, n, strategies, pred, games=range(400)):
    """The first traced round where ``pred(trace)`` gives a row index (not None)."""
    for _game, out, trace, strict in traced(rules, n, strategies, SEED, games):
        assert not check_trace(trace, rules, n, row=out, strict=strict)
        i = pred(trace)
        if i is not None:
            return out.copy(), trace.copy(), strict, int(i)
    raise AssertionError("no traced round has what this test needs")


def rows_of(trace, typ):
    return np.flatnonzero(trace[:, L.EV_TYPE] == typ)


def hand(trace, i, p):
    return trace[i, L.EV_HANDS + p * NB : L.EV_HANDS + (p + 1) * NB]


def first_violation(trace, rules, n, out=None, strict=True) -> Violation:
    violations = check_trace(trace, rules, n, row=out, strict=strict)
    assert violations, "the corrupted trace passed the checker"
    return violations[0]


def assert_caught(v: Violation, row: int, *words: str):
    assert v.row == row, f"caught at row {v.row}, not {row}: {v}"
    for w in words:
        assert w in v.message, f"{w!r} not in: {v}"


OFFICIAL = PRESETS["official"]


def test_catches_an_illegal_play():
    def pred(t):
        for i in rows_of(t, L.E_PLAY):
            p = t[i, L.EV_SEAT]
            before = hand(t, i - 1, p)
            top, colour = t[i - 1, L.EV_TOP], t[i - 1, L.EV_COLOUR]
            for x in range(N_COLOURED):
                if (
                    before[x]
                    and COLOUR[x] != colour
                    and (top >= N_COLOURED or RANK[x] != RANK[top])
                ):
                    return i * 100 + x
        return None

    out, t, strict, code = find(OFFICIAL, 4, "random", pred)
    i, x = divmod(code, 100)
    p, k = t[i, L.EV_SEAT], t[i, L.EV_KIND]
    t[i, L.EV_KIND] = t[i, L.EV_TOP] = x  # x is played instead of k
    t[i, L.EV_COLOUR] = COLOUR[x]
    h = L.EV_HANDS + p * NB
    t[i:, h + k] += 1
    t[i:, h + x] -= 1
    assert_caught(first_violation(t, OFFICIAL, 4, out), i, "illegal play")


def test_catches_a_skipped_penalty():
    def pred(t):
        for i in rows_of(t, L.E_PENALTY):
            a = t[i, L.EV_AUX]
            if (
                i + a + 1 < len(t)
                and (t[i + 1 : i + a + 1, L.EV_TYPE] == L.E_DREW).all()
                and t[i + a + 1, L.EV_TYPE] != L.E_WIN
            ):
                return i
        return None

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    a = t[i, L.EV_AUX]
    t = np.delete(t, range(i, i + a + 1), axis=0)  # the penalty and its draws vanish
    assert_caught(first_violation(t, OFFICIAL, 4), i, "wrong player", "faces a draw penalty")


def test_catches_a_penalty_drawn_short():
    def pred(t):
        for i in rows_of(t, L.E_PENALTY):
            a = t[i, L.EV_AUX]
            if (t[i + 1 : i + a + 1, L.EV_TYPE] == L.E_DREW).all():
                return i
        return None

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    a = t[i, L.EV_AUX]
    t = np.delete(t, i + a, axis=0)  # the penalty's last card is not drawn
    assert_caught(
        first_violation(t, OFFICIAL, 4), i + a, "expected drew by seat", f"a penalty of {a}"
    )


def test_catches_a_wrong_next_player():
    def pred(t):
        plays = rows_of(t, L.E_PLAY)
        for i in plays[2:]:
            if t[i - 1, L.EV_TYPE] == L.E_PLAY:  # a plain number card before it
                return i
        return None

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    t[i, L.EV_SEAT] = (t[i, L.EV_SEAT] + 1) % 4
    assert_caught(first_violation(t, OFFICIAL, 4), i, "wrong player")


def test_catches_an_ignored_skip():
    out, t, strict, i = find(
        OFFICIAL, 4, "random", lambda t: next(iter(rows_of(t, L.E_SKIPPED)), None)
    )
    t = np.delete(t, i, axis=0)  # the skipped player's loss of turn vanishes
    assert_caught(first_violation(t, OFFICIAL, 4), i, "wrong player", "to be skipped")


def test_catches_a_wrong_score():
    out, t, strict, _ = find(OFFICIAL, 4, "random", lambda t: 0)
    out = out.copy()
    out[L.C_POINTS] += 5
    assert_caught(first_violation(t, OFFICIAL, 4, out), len(t) - 1, "points")


def test_catches_a_wrong_winner_and_turn_count():
    out, t, strict, _ = find(OFFICIAL, 4, "random", lambda t: 0)
    bad = out.copy()
    bad[L.C_WINNER] = (bad[L.C_WINNER] + 1) % 4
    assert_caught(first_violation(t, OFFICIAL, 4, bad), len(t) - 1, "winner")
    bad = out.copy()
    bad[L.C_TURNS] += 1
    assert_caught(first_violation(t, OFFICIAL, 4, bad), len(t) - 1, "turns")


def test_catches_a_wrong_direction():
    def pred(t):
        for i in rows_of(t, L.E_EFFECT):
            if t[i, L.EV_KIND] < N_COLOURED and RANK[t[i, L.EV_KIND]] == REVERSE:
                return i
        return None

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    t[i:, L.EV_DIR] *= -1  # the Reverse does not turn play around (recorded state)
    assert_caught(first_violation(t, OFFICIAL, 4), i, "direction recorded")


def test_catches_a_draw_while_holding_a_legal_card():
    out, t, strict, i = find(
        OFFICIAL, 4, "random", lambda t: next(iter(rows_of(t, L.E_PLAY)), None)
    )
    t[i, L.EV_TYPE] = L.E_DRAW
    p, k = t[i, L.EV_SEAT], t[i, L.EV_KIND]
    t[i:, L.EV_HANDS + p * NB + k] += 1
    turn = t[i, L.EV_TURN]
    t[i, L.EV_KIND : L.EV_HANDS] = t[i - 1, L.EV_KIND : L.EV_HANDS]  # nothing played
    t[i, L.EV_KIND], t[i, L.EV_TURN] = -1, turn
    assert_caught(first_violation(t, OFFICIAL, 4, strict=True), i, "`random` never draws")
    # a non-strict seat may draw (voluntary_draw), so that alone is no violation there
    v = first_violation(t, OFFICIAL, 4, strict=False)
    assert v.row > i


def test_catches_stacking_when_it_is_off():
    def pred(t):
        for i in rows_of(t, L.E_PENALTY):
            p = t[i, L.EV_SEAT]
            if t[i - 1, L.EV_TOP] < N_COLOURED and any(
                hand(t, i, p)[c * 13 + DRAW_TWO] for c in range(4)
            ):
                return i
        return None

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    p = t[i, L.EV_SEAT]
    k = next(c * 13 + DRAW_TWO for c in range(4) if hand(t, i, p)[c * 13 + DRAW_TWO])
    t[i, L.EV_TYPE], t[i, L.EV_KIND], t[i, L.EV_AUX] = L.E_STACK, k, 0
    assert_caught(first_violation(t, OFFICIAL, 4), i, "stacking is off")


def test_catches_a_stack_of_the_wrong_card():
    rules = PRESETS["stacking"]  # same: no +4 on a +2

    def pred(t):
        for i in rows_of(t, L.E_STACK):
            if (
                t[i, L.EV_KIND] != WILD_DRAW_FOUR
                and hand(t, i - 1, t[i, L.EV_SEAT])[WILD_DRAW_FOUR]
            ):
                return i
        return None

    out, t, strict, i = find(rules, 4, "random", pred, range(2000))
    p, k = t[i, L.EV_SEAT], t[i, L.EV_KIND]
    t[i, L.EV_KIND] = t[i, L.EV_TOP] = WILD_DRAW_FOUR
    t[i:, L.EV_HANDS + p * NB + k] += 1
    t[i:, L.EV_HANDS + p * NB + WILD_DRAW_FOUR] -= 1
    assert_caught(first_violation(t, rules, 4), i, "cannot be stacked")


def test_catches_random_not_stacking():
    rules = PRESETS["stacking"]
    out, t, strict, i = find(rules, 4, "random", lambda t: next(iter(rows_of(t, L.E_STACK)), None))
    t[i, L.EV_TYPE], t[i, L.EV_AUX] = L.E_PENALTY, t[i - 1, L.EV_PEND]
    assert_caught(first_violation(t, rules, 4), i, "`random` stacks when it can")


def test_catches_a_wrong_challenge_outcome():
    s = "random:bluff=0.5;challenge=1"
    out, t, strict, i = find(OFFICIAL, 4, s, lambda t: next(iter(rows_of(t, L.E_CHALLENGE)), None))
    t[i, L.EV_FLAGS] ^= L.F_CAUGHT
    assert_caught(first_violation(t, OFFICIAL, 4, strict=False), i, "wrong challenge outcome")


def test_catches_an_unmarked_bluff():
    s = "random:bluff=0.5;challenge=1"

    def pred(t):
        rows = rows_of(t, L.E_PLAY)
        return next((i for i in rows if t[i, L.EV_FLAGS] & L.F_BLUFF), None)

    out, t, strict, i = find(OFFICIAL, 4, s, pred)
    t[i, L.EV_FLAGS] = 0
    assert_caught(first_violation(t, OFFICIAL, 4, strict=False), i, "illegal Wild Draw Four")


def test_catches_a_challenge_when_challenges_are_off():
    s = "random:bluff=0.5;challenge=1"
    out, t, strict, i = find(OFFICIAL, 4, s, lambda t: next(iter(rows_of(t, L.E_CHALLENGE)), None))
    rules = OFFICIAL.replace(challenge=False)
    assert_caught(first_violation(t, rules, 4, strict=False), i, "`challenge` is off")


def test_catches_a_skipped_uno_penalty():
    s = "random:forget_uno=1"
    out, t, strict, i = find(OFFICIAL, 4, s, lambda t: next(iter(rows_of(t, L.E_UNO)), None))
    a = t[i, L.EV_AUX]
    t = np.delete(t, range(i + 1, i + 1 + a), axis=0)
    assert_caught(first_violation(t, OFFICIAL, 4, strict=False), i + 1, "UNO penalty")


def test_catches_an_uno_penalty_random_never_gets():
    s = "random:forget_uno=1"
    out, t, strict, i = find(OFFICIAL, 4, s, lambda t: next(iter(rows_of(t, L.E_UNO)), None))
    assert_caught(first_violation(t, OFFICIAL, 4, strict=True), i, "never forgets")


def test_catches_a_reshuffle_of_a_non_empty_pile():
    out, t, strict, i = find(
        OFFICIAL, 4, "random", lambda t: next(iter(rows_of(t, L.E_DREW)), None)
    )
    extra = t[i - 1].copy()  # a reshuffle just before a draw from a full pile
    extra[L.EV_TYPE], extra[L.EV_SEAT], extra[L.EV_KIND] = L.E_RESHUFFLE, -1, -1
    extra[L.EV_FLAGS], extra[L.EV_AUX] = 0, extra[L.EV_DISC] - 1
    t = np.insert(t, i, extra, axis=0)
    assert_caught(first_violation(t, OFFICIAL, 4), i, "reshuffle while the draw pile")


def test_catches_a_draw_from_an_empty_pile():
    rules = PRESETS["stacking"].replace(hand_size=12)
    out, t, strict, i = find(
        rules, 8, "random", lambda t: next(iter(rows_of(t, L.E_RESHUFFLE)), None)
    )
    t = np.delete(t, i, axis=0)
    assert_caught(first_violation(t, rules, 8), i, "must be reshuffled first")


def test_catches_a_card_from_nowhere_and_a_wrong_turn_count():
    out, t, strict, _ = find(OFFICIAL, 4, "random", lambda t: 0)
    i = len(t) // 2
    bad = t.copy()
    bad[i:, L.EV_HANDS + 2 * NB + 5] += 1
    assert_caught(first_violation(bad, OFFICIAL, 4), i, "hand of seat 2", "R5 too many")
    bad = t.copy()
    bad[i, L.EV_TURN] += 1
    assert_caught(first_violation(bad, OFFICIAL, 4), i, "turns recorded")


def test_catches_a_drawn_card_not_in_the_pile():
    def pred(t):
        for i in rows_of(t, L.E_DREW):
            held = t[i - 1, L.EV_HANDS : L.EV_HANDS + 4 * NB].reshape(4, NB).sum(0)
            k = next((k for k in range(N_COLOURED) if RANK[k] == 0 and held[k] == 1), None)
            if k is not None:  # the one zero of a colour is in a hand already
                return i * 100 + k
        return None

    out, t, strict, code = find(OFFICIAL, 4, "random", pred)
    i, k = divmod(code, 100)
    p, d = t[i, L.EV_SEAT], t[i, L.EV_KIND]
    t[i, L.EV_KIND] = k
    t[i:, L.EV_HANDS + p * NB + d] -= 1
    t[i:, L.EV_HANDS + p * NB + k] += 1
    assert_caught(first_violation(t, OFFICIAL, 4), i, "not in the draw pile")


def test_catches_a_jump_in_without_the_rule_and_by_a_non_holder():
    rules = PRESETS["jump-in"]
    out, t, strict, i = find(rules, 4, "random", lambda t: next(iter(rows_of(t, L.E_JUMP)), None))
    assert_caught(first_violation(t, OFFICIAL, 4), i, "jump_in is off")
    bad = t.copy()
    j, k = bad[i, L.EV_SEAT], bad[i, L.EV_KIND]
    others = [q for q in range(4) if q != j and not hand(bad, i - 1, q)[k]]
    if others:
        bad[i, L.EV_SEAT] = others[0]
        v = first_violation(bad, rules, 4)
        assert v.row == i and ("does not hold" in v.message or "played it" in v.message), v


def test_catches_a_random_seat_that_does_not_jump_in():
    rules = PRESETS["jump-in"]

    def pred(t):
        for i in rows_of(t, L.E_JUMP):
            if i + 1 < len(t) and t[i + 1, L.EV_TYPE] == L.E_PLAY:
                return i
        return None

    out, t, strict, i = find(rules, 4, "random", pred)
    # make it look as if nobody jumped: drop the jump-in, give the card back
    j, k = t[i, L.EV_SEAT], t[i, L.EV_KIND]
    t = np.delete(t, i, axis=0)
    t[i:, L.EV_HANDS + j * NB + k] += 1
    v = first_violation(t, rules, 4)
    assert v.row == i and "always jumps in" in v.message, v


def test_catches_a_greninja_turn_that_stops_early():
    rules = PRESETS["pokemon"]

    def pred(t):
        for i in rows_of(t, L.E_GRENINJA):
            j = i + 1
            while t[j, L.EV_TYPE] == L.E_DREW:
                j += 1
            if j - i >= 3 and t[j, L.EV_TYPE] == L.E_COLOUR:
                return j - 1  # the last card drawn (of the named colour)
        return None

    out, t, strict, i = find(rules, 4, "random", pred)
    p, k = t[i, L.EV_SEAT], t[i, L.EV_KIND]
    t = np.delete(t, i, axis=0)
    t[i:, L.EV_HANDS + p * NB + k] -= 1
    t[i:, L.EV_PILE] += 1
    assert_caught(first_violation(t, rules, 4), i, "expected drew", "Greninja")


def test_catches_a_snorlax_victim_keeping_a_card_of_the_named_colour():
    rules = PRESETS["pokemon"]

    def pred(t):
        return next((i for i in rows_of(t, L.E_DISCARD) if t[i, L.EV_AUX] >= 2), None)

    out, t, strict, i = find(rules, 4, "random", pred)
    t[i, L.EV_AUX] -= 1
    assert_caught(first_violation(t, rules, 4), i, "(aux), expected")


def test_catches_a_swap_with_oneself_and_a_wrong_rotation():
    rules = PRESETS["seven-zero"]
    out, t, strict, i = find(rules, 4, "random", lambda t: next(iter(rows_of(t, L.E_SWAP)), None))
    bad = t.copy()
    bad[i, L.EV_AUX] = bad[i, L.EV_SEAT]
    assert_caught(first_violation(bad, rules, 4), i, "not an opponent")
    out, t, strict, i = find(rules, 4, "random", lambda t: next(iter(rows_of(t, L.E_ROTATE)), None))
    old = t[i - 1, L.EV_HANDS : L.EV_HANDS + 4 * NB].reshape(4, NB)
    wrong = np.roll(old, -t[i, L.EV_DIR], axis=0).reshape(-1)  # passed the other way
    if not np.array_equal(wrong, t[i, L.EV_HANDS : L.EV_HANDS + 4 * NB]):
        t[i, L.EV_HANDS : L.EV_HANDS + 4 * NB] = wrong
        assert_caught(first_violation(t, rules, 4), i, "hand of seat")


def test_catches_an_early_truncation_and_a_wrong_first_player():
    def pred(t):
        plays = rows_of(t, L.E_PLAY)
        return next((i for i in plays[len(plays) // 2 :] if t[i - 1, L.EV_TYPE] == L.E_PLAY), None)

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    bad = t[: i + 1].copy()
    bad[i, L.EV_KIND :] = bad[i - 1, L.EV_KIND :]  # at a turn: the state stays
    bad[i, L.EV_TYPE], bad[i, L.EV_KIND] = L.E_TRUNCATED, -1
    v = first_violation(bad, OFFICIAL, 4)
    assert v.row == i and "truncated after" in v.message, v
    s = rows_of(t, L.E_START)[0]
    bad = t.copy()
    bad[s, L.EV_SEAT] = (bad[s, L.EV_SEAT] + 1) % 4
    assert_caught(first_violation(bad, OFFICIAL, 4), s, "wrong player")


def test_catches_a_missing_last_card_penalty():
    def pred(t):
        w = len(t) - 1
        i = rows_of(t, L.E_PENALTY)
        return (
            int(i[-1])
            if len(i)
            and t[i[-1] - 1, L.EV_TYPE] == L.E_PLAY
            and (t[w - 1, L.EV_TYPE] == L.E_DREW)
            and t[i[-1] + 1 : w, L.EV_TYPE].tolist() == [L.E_DREW] * (w - i[-1] - 1)
            else None
        )

    out, t, strict, i = find(OFFICIAL, 4, "random", pred, range(2000))
    t = np.delete(t, range(i, len(t) - 1), axis=0)
    assert_caught(first_violation(t, OFFICIAL, 4), i, "the penalty of seat")


def test_catches_a_wrong_colour_and_a_wrong_first_card():
    out, t, strict, i = find(
        OFFICIAL, 4, "random", lambda t: next(iter(rows_of(t, L.E_COLOUR)), None)
    )
    bad = t.copy()
    bad[i, L.EV_KIND] = 7
    assert_caught(first_violation(bad, OFFICIAL, 4), i, "names colour 7")
    bad = t.copy()
    bad[i:, L.EV_COLOUR] = (bad[i, L.EV_COLOUR] + 1) % 4  # recorded colour != named
    assert_caught(first_violation(bad, OFFICIAL, 4), i, "colour recorded")


def test_a_cut_trace_is_a_violation():
    out, t, strict, _ = find(OFFICIAL, 4, "random", lambda t: 0)
    v = first_violation(t[: len(t) // 2], OFFICIAL, 4)
    assert "ends early" in v.message


# ---------------------------------------------------------------------------------
# RULES.md 8.8-8.10: official rounds judged by rules they break
# ---------------------------------------------------------------------------------
def test_catches_a_drawn_card_played_under_after_draw_pass():
    out, t, strict, i = find(
        OFFICIAL, 4, "random", lambda t: next(iter(rows_of(t, L.E_DRAWN)), None)
    )
    rules = OFFICIAL.replace(after_draw="pass")
    assert_caught(first_violation(t, rules, 4, out), i, "after_draw = pass")


def test_catches_going_out_on_an_action_card_under_last_card_number():
    def pred(t):
        win = rows_of(t, L.E_WIN)
        if len(win) == 0:
            return None
        plays = [
            i
            for i in range(int(win[0]))
            if t[i, L.EV_TYPE] in (L.E_PLAY, L.E_DRAWN) and t[i, L.EV_SEAT] == t[win[0], L.EV_SEAT]
        ]
        k = t[plays[-1], L.EV_KIND]
        return plays[-1] if k >= N_COLOURED or RANK[k] > 9 else None

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    assert_caught(
        first_violation(t, OFFICIAL.replace(last_card="number"), 4, out), i, "last_card = number"
    )


def test_catches_a_wild_draw_four_beside_a_matching_card_under_strict():
    def pred(t):
        for i in rows_of(t, L.E_PLAY):
            if t[i, L.EV_KIND] != WILD_DRAW_FOUR:
                continue
            p, top = t[i, L.EV_SEAT], t[i - 1, L.EV_TOP]
            before = hand(t, i - 1, p)
            if before[N_COLOURED:].sum() > before[WILD_DRAW_FOUR] or (
                top < N_COLOURED and any(before[c * 13 + RANK[top]] for c in range(4))
            ):
                return i
        return None

    out, t, strict, i = find(OFFICIAL, 4, "random", pred)
    assert_caught(
        first_violation(t, OFFICIAL.replace(wd4_restriction="strict"), 4, out),
        i,
        "illegal Wild Draw Four",
        "another legal card",
    )


# -- 3. only legal plays are made ---------------------------------------------------------

SETS = [
    ("official", {}),
    ("stacking", {}),
    ("progressive", {}),
    ("seven-zero", {}),
    ("jump-in", {}),
    ("draw-until-playable", {}),
    ("official-2018", {}),
    ("pokemon", {}),
    ("motu", {}),
    ("copag", {}),
    ("portugal", {}),
    (
        "official",
        dict(
            stacking="progressive",
            jump_in=True,
            seven_zero=True,
            wd4_restriction="none",
            multi_play=True,
        ),
    ),
    (
        "official",
        dict(
            last_card="number",
            after_draw="pass",
            wd4_restriction="strict",
            stacking="progressive",
            jump_in=True,
            multi_play=True,
        ),
    ),
]


@pytest.mark.parametrize("preset,changes", SETS, ids=[f"{p}{'+' if c else ''}" for p, c in SETS])
@pytest.mark.parametrize(
    "strategies",
    [
        "random",
        "heuristic",
        "random:bluff=0.5;challenge=0.5",
        "table",
        "points-dumper,aggressive,colour-counter,weighted",
    ],
)
def test_every_traced_move_is_legal(preset, changes, strategies):
    rules = PRESETS[preset].replace(**changes)
    n = 4
    sid, sp, labels = parse_seats(strategies, n)
    deck = rules.deck_counts()
    order = np.repeat(np.arange(N_KINDS), deck).astype(np.int8)
    events = 0
    for game in range(80):
        out, trace = traced_with_room(rules, sid, sp, deck, order, n, game)
        violations = check_trace(trace, rules, n, row=out, strict=strict_seats(labels))
        assert not violations, f"game {game}: " + "\n".join(map(str, violations[:3]))
        events += len(trace)
    assert events > 80 * 20


def traced_with_room(rules, sid, sp, deck, order, n, game, seed=7):
    """The row and trace of one game; rerun with room for every event if 4096 rows were
    short."""
    cap = 4096
    while True:
        out, rd, *_, trace = run_one(
            rules.to_array(), sid, sp, deck, rules.points_table(), n, seed, game, order, 0, cap
        )
        if rd.trace_flags[L.TR_EVENTS] <= cap:
            return out, trace
        cap = int(rd.trace_flags[L.TR_EVENTS])


def test_trace_replays_the_run():
    """Game G of a run, replayed alone with its trace, gives the row of the public
    frame."""
    df = unosim.simulate("stacking", 300, 4, "random", seed=1)
    job = make_job("stacking", 300, 4, "random", seed=1)
    rules = job.rules
    order = np.repeat(np.arange(N_KINDS), rules.deck_counts()).astype(np.int8)
    for game in (0, 17, 299):
        out, *_ = run_one(
            rules.to_array(),
            job.sid,
            job.sparams,
            rules.deck_counts(),
            rules.points_table(),
            4,
            1,
            game,
            order,
            0,
            0,
        )
        mine = rounds_frame(out[None, :], 4, game).iloc[0]
        assert mine.to_dict() == df.iloc[game].to_dict()
