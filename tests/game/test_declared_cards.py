"""Declared cards (docs/cards.md): a rule file's ``[cards.NAME]`` tables, end to end.

1. Validation: every bad declaration is one line naming the file, the card and the field.
2. The kernel against the independent reference engine (tests/reference), which reads
   the same files and implements the primitives itself: mean turns, seat win rates and
   mean points (and the other section 6 means) agree within 5 standard errors at fixed
   seeds, for each example file (a few thousand rounds here; many more under ``slow``).
3. The move checker, with its own reading of the primitives, passes on traced rounds of
   each file with every built-in strategy.
4. Replays name declared cards; outside seats refuse them in one line (the expert plays
   them: tests/players/test_expert_cards.py); a built-in rule set's array, hash and TOML do not
   change.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import unosim
from tests.reference import engine as ref
from tests.scenarios.test_reference_parity import assert_same_distribution
from unosim.game.cards import kind_name
from unosim.game.rules import OFFICIAL, PRESETS, RuleError, apply, resolve
from unosim.kernel.core import layout as L
from unosim.sim import engine
from unosim.sim.replay import format_text, replay
from unosim.sim.simulate import make_job, run_block
from unosim.verify.checker import check_trace, strict_seats

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "examples" / "cards"
FILES = ("wild-draw-six", "skip-everyone", "discard-all", "mixed")
EDITIONS = ("pokemon", "motu", "official-2018")  # against their presets: test_editions.py
STRATEGIES = ("random", "heuristic", "points-dumper", "aggressive", "colour-counter", "weighted")


def path(name: str) -> str:
    return str(CARDS / f"{name}.toml")


# --------------------------------------------------------------------------- validation
def write(tmp_path, body: str, name: str = "bad.toml") -> str:
    p = tmp_path / name
    p.write_text('preset = "official"\n' + body)
    return str(p)


BAD = [
    ('[cards.x]\neffect = ["fly away"]\n', "card 'x': effect step 1 'fly away': unknown primitive"),
    ('[cards.x]\neffect = ["draw 11 next"]\n', "card 'x': effect step 1 'draw 11 next': N must be"),
    ('[cards.x]\neffect = ["draw 0 next"]\n', "N must be 1 to 10"),
    ('[cards.x]\neffect = ["draw 2 everyone"]\n', "target must be one of next, others"),
    ('[cards.x]\neffect = ["skip", "reverse"]\n', "effect step 1 'skip': target must be"),
    ('[cards.x]\neffect = ["reverse now"]\n', "reverse takes no target"),
    ('[cards.skip]\neffect = ["reverse"]\n', "card 'skip': the name of a built-in card"),
    ('[cards.wild_draw_four]\neffect = ["reverse"]\n', "the name of a built-in card"),
    ('[cards.X]\neffect = ["reverse"]\n', "card 'X': a name is 1-24 lower-case"),
    ('[cards.x]\ncolours = "wild"\neffect = ["skip next"]\n', "must include name_colour"),
    ('[cards.x]\ncolours = "red"\n', "card 'x': colours must be 'each' or 'wild'"),
    ("[cards.x]\ncopies = 0\n", "card 'x': copies must be a whole number from 1 to 20"),
    ("[cards.x]\npoints = -5\n", "card 'x': points must be"),
    ('[cards.x]\nmatches = "shape"\n', "card 'x': matches must be one of rank, colour"),
    ('[cards.x]\ncolours = "wild"\nmatches = "rank"\neffect = ["name_colour"]\n', "'anything'"),
    ('[cards.x]\nstack = "yes"\n', "card 'x': stack must be true or false"),
    ('[cards.x]\nstack = true\neffect = ["draw 2 next", "skip next"]\n', "stack = true needs"),
    ('[cards.x]\ncolor = "each"\n', "card 'x': unknown field 'color'"),
    (
        '[cards.x]\neffect = ["reverse", "reverse", "reverse", "reverse", "reverse"]\n',
        "card 'x': effect has 5 steps, at most 4",
    ),
    ('[cards.x]\neffect = "reverse"\n', "card 'x': effect must be a list of steps"),
    (
        "".join(f'[cards.c{i}]\neffect = ["reverse"]\n' for i in range(5)),
        "cards: 5 cards declared, at most 4",
    ),
]


@pytest.mark.parametrize("body,words", BAD, ids=[w for _, w in BAD])
def test_a_bad_declaration_is_one_line_naming_file_card_and_field(tmp_path, body, words):
    p = write(tmp_path, body)
    with pytest.raises(RuleError) as e:
        resolve(p)
    msg = str(e.value)
    assert "\n" not in msg
    # the file first, then the line of the declaration (every error of a file names both)
    assert msg.startswith(f"rule file {p!r}, line "), msg
    assert words in msg, msg


def test_cards_cannot_be_given_as_a_house_switch():
    with pytest.raises(RuleError, match="unknown rule 'cards'"):
        resolve("official", "cards=x")


def test_a_built_in_rule_set_is_unchanged_by_the_declared_cards():
    # the rule array past the kernel rules is zeros, the hash and the TOML as before
    a = OFFICIAL.to_array()
    assert a.size == L.N_RULE_ARRAY and not a[L.N_RULES :].any()
    assert "cards" not in OFFICIAL.to_toml()
    assert OFFICIAL.hash() == "f66448c0bb972b16"


def test_a_declared_card_round_trips_through_toml_and_changes_the_hash(tmp_path):
    rs = resolve(path("mixed"))
    p = tmp_path / "again.toml"
    p.write_text(rs.to_toml())
    back = resolve(str(p))
    assert back == rs and back.hash() == rs.hash() != PRESETS["progressive"].hash()
    assert rs.card_names == ("storm", "trade", "carousel", "wild_draw_three")
    # 108 + 2 storm + 4 trade + 4 carousel + 2 wild_draw_three
    assert rs.deck_size() == 120


def test_deck_and_points_of_declared_kinds():
    rs = resolve(path("discard-all"))
    deck, points = rs.deck_counts(), rs.points_table()
    kinds = [k for k in range(deck.size) if k >= 59 and deck[k]]
    assert [kind_name(k, rs.card_names) for k in kinds] == [
        "R:discard_all",
        "Y:discard_all",
        "G:discard_all",
        "B:discard_all",
    ]
    assert all(deck[k] == 1 and points[k] == 30 for k in kinds)
    assert rs.deck_size() == 112


# ----------------------------------------------------------------- kernel vs reference
def compare(name: str, n: int, games: int, seed: int) -> None:
    kern = unosim.simulate(path(name), n_games=games, n_players=n, strategies="random", seed=seed)
    refr = pd.DataFrame(ref.simulate(path(name), n, games, seed))
    assert (kern["truncated"] == 0).all() and not refr["truncated"].any()
    assert_same_distribution(kern, refr, n, f"{name}, {n} players")


@pytest.mark.parametrize("name", FILES)
def test_kernel_agrees_with_the_reference_engine(name):
    compare(name, 4, 4000, 11)


@pytest.mark.slow
@pytest.mark.parametrize("n", (2, 3, 5))
@pytest.mark.parametrize("name", FILES)
def test_kernel_agrees_with_the_reference_engine_many_rounds(name, n):
    compare(name, n, 30000, 23)


def test_the_examples_use_every_primitive():
    from unosim.game.declare import OPS

    used = {
        " ".join(w.split()[::2]) if w.startswith("draw ") else w
        for name in FILES + EDITIONS
        for c in resolve(path(name)).cards
        for w in c.effect
    }
    assert set(OPS) <= used


# ---------------------------------------------------------------------------- checker
@pytest.mark.parametrize("name", FILES + EDITIONS)
def test_the_checker_passes_on_traced_rounds_with_every_strategy(name):
    rs = resolve(path(name))
    seen: set[int] = set()
    for i, strategy in enumerate(STRATEGIES):
        for n in (2, 4):
            strategies = ",".join([strategy, "random", "heuristic", "weighted"][:n])
            job = make_job(rs, 1, n, strategies, 5 + i)
            for game in range(12):
                out, trace = engine.trace(job.kernel, job.seed, game)
                assert trace.shape[1] == L.EV_W_DECL
                v = check_trace(trace, rs, n, row=out, strict=strict_seats(job.labels))
                assert not v, f"{name} {strategies} game {game}: " + "; ".join(map(str, v[:3]))
                kinds = trace[:, L.EV_KIND][trace[:, L.EV_TYPE] == L.E_EFFECT]
                seen.update(int(k) for k in kinds if k >= 59)
    want = {k for k in range(59, 79) if rs.deck_counts()[k]}
    assert want <= seen, f"{name}: declared kinds never played: {sorted(want - seen)}"


def test_the_checker_catches_a_wrong_declared_effect():
    rs = resolve(path("wild-draw-six"))
    job = make_job(rs, 1, 4, "random", 3)
    other = apply(
        rs,
        {
            "cards": {
                "wild_draw_six": {
                    "colours": "wild",
                    "effect": ["name_colour", "draw 5 next", "skip next"],
                }
            }
        },
    )
    for game in range(50):
        out, trace = engine.trace(job.kernel, job.seed, game)
        if (trace[:, L.EV_TYPE] == L.E_EFFECT).any() and (trace[:, L.EV_KIND] == 59).any():
            assert not check_trace(trace, rs, 4, row=out, strict=True)
            assert check_trace(trace, other, 4, row=out, strict=True)
            return
    raise AssertionError("no Wild Draw Six was played")


# --------------------------------------------------------------------- replays, refusals
def test_a_replay_names_declared_cards():
    rs = resolve(path("mixed"))
    for game in range(40):
        text = format_text(replay(rs, 4, "random", 1, game))
        if "storm" in text and ":trade" in text:
            assert "storm: name_colour, draw 2 others, discard_colour victim, again" in text
            return
    raise AssertionError("no round shows both cards")


def test_outside_seats_play_declared_cards():
    from unosim.sim.outside import ACTIONS, card_of

    rs = resolve(path("discard-all"))
    played = []

    def agent(obs):  # a declared card whenever one is legal
        mine = [a for a in obs.legal if card_of(a) >= 59]
        if mine:
            played.append(ACTIONS[mine[0]])
            return mine[0]
        return obs.legal[int(obs.rng.integers(len(obs.legal)))]

    rec = run_block(make_job(rs, 30, 2, [agent, "random"], 1), 0, 30)
    assert rec.shape[0] == 30 and played, "the agent never held a playable declared card"
    from unosim.env import aec_env

    env = aec_env(rules=path("discard-all"), n_players=2)
    env.reset(seed=3)
    for _ in env.agent_iter(max_iter=200):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))


def test_simulate_counts_every_card_of_a_declared_deck():
    df = unosim.simulate(path("mixed"), n_games=300, n_players=3, strategies="heuristic", seed=2)
    assert len(df) == 300 and df["winner"].between(-1, 2).all()
    sizes = df[[f"hand_size_{s}" for s in range(3)]].to_numpy()
    assert (sizes.sum(axis=1) < 120).all() and np.all(sizes[np.arange(300), df.winner] == 0)


# ----------------------------------------------------------------- a scripted scenario
def test_discard_all_scripted_round():
    """Seat 0 holds R:discard_all R3 R4, seat 1 G1 G2 G3; B:discard_all is turned first
    (no effect at setup, colour blue). Seat 0's one legal card is R:discard_all (the same
    card as the top); red is now the colour and seat 0 throws R3 R4 away: out in 1 turn,
    3 cards played; seat 1 keeps 1 + 2 + 3 = 6 points."""
    from unosim.game.cards import parse_kind
    from unosim.kernel.drivers.batch import run_one
    from unosim.players.seats import parse as parse_seats

    rs = resolve(path("discard-all")).replace(hand_size=3)
    names = rs.card_names
    k = lambda t: parse_kind(t, names)  # noqa: E731
    deal = [k(t) for t in "R:discard_all R3 R4 G1 G2 G3".split()]  # seat 0's, seat 1's
    first = k("B:discard_all")
    rest = list(np.repeat(np.arange(rs.deck_counts().size), rs.deck_counts()))
    for c in deal + [first]:
        rest.remove(c)
    order = np.array((deal + [first] + rest)[::-1], dtype=np.int8)  # scripted: last first
    sid, sp = parse_seats(["random", "random"], 2)[:2]
    out, *_, trace = run_one(
        rs.to_array(), sid, sp, rs.deck_counts(), rs.points_table(), 2, 1, 0, order, 1, 200
    )
    assert out[L.C_WINNER] == 0 and out[L.C_TURNS] == 1  # R:discard_all, then out
    assert out[L.C_CARDS_PLAYED] == 3 and out[L.C_POINTS] == 6  # G1 + G2 + G3
    events = [L.EVENT_NAMES[e] for e in trace[:, L.EV_TYPE]]
    assert events == ["deal", "start", "play", "effect", "discard", "win"]
    assert not check_trace(trace, rs, 2, row=out, strict=True)
