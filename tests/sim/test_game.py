"""The stepwise game API (``unosim.Game`` / ``State``): the same rules engine as
``simulate`` (the built-in ``random`` choice at every seat plays ``simulate``'s rounds,
every record field equal), legality read from the state, copies that play the same
future, observations for any seat, fixed tensors, and hidden cards dealt anew."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import unosim
from unosim.game.rules import PRESETS
from unosim.sim.game import INFORMATION_STATE_SHAPE, OBSERVATION_SHAPE, Game
from unosim.sim.outside import IllegalAction
from unosim.sim.simulate import make_job, run_block

CARD_FILES = sorted((Path(__file__).resolve().parents[2] / "examples" / "cards").glob("*.toml"))
CARDS = CARD_FILES[0]

HOUSE_MIX = dict(stacking="same", jump_in=True, seven_zero=True, multi_play=True, draw_rule="one")


def _played_like_simulate(rules, n, seed, games, **house):
    g = Game(rules, n, seed=seed, **house)
    job = make_job(g.rules, games, n, "random", seed)
    ref = run_block(job, 0, games)
    for i in range(games):
        s = g.new_round(i)
        steps = 0
        while not s.is_terminal():
            s.play_builtin("random")
            steps += 1
            assert steps < 100_000
        np.testing.assert_array_equal(s.record(), ref[i], err_msg=f"{rules} {house} round {i}")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_at_every_seat_is_simulate_for_every_preset(preset):
    _played_like_simulate(preset, 4, 11, 12)


@pytest.mark.parametrize("n", [2, 3, 10])
def test_random_at_every_seat_is_simulate_with_a_house_mix(n):
    _played_like_simulate("official", n, 5, 12, **HOUSE_MIX)


def test_random_at_every_seat_is_simulate_with_challenges_and_draw_until_playable():
    _played_like_simulate("draw-until-playable", 3, 3, 12, stacking="progressive", challenge=True)


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.stem)
def test_random_at_every_seat_is_simulate_with_declared_cards(path):
    rs = unosim.resolve(str(path))
    assert rs.cards
    _played_like_simulate(rs, 4, 11, 12)


def test_random_at_every_seat_is_simulate_with_declared_cards_and_a_house_mix():
    rs = unosim.resolve(str(CARD_FILES[0]), dict(HOUSE_MIX, stacking="same"))
    _played_like_simulate(rs, 3, 7, 12)


def _walk(s, rng, limit=200_000):
    while not s.is_terminal() and limit:
        s.apply(int(rng.choice(s.legal_actions())))
        limit -= 1
    return s


def test_an_illegal_action_is_refused_and_changes_nothing():
    s = Game("official", 3, seed=2, auto_uno=True, draw_only_when_stuck=True).new_round(0)
    before = s.snapshot()
    illegal = next(a for a in range(98) if a not in s.legal_actions())
    for a in (illegal, -1, 98, 1.5, "x", True):
        with pytest.raises(IllegalAction, match="not legal"):
            s.apply(a)
    after = s.snapshot()
    for x, y in zip(before[0], after[0]):
        np.testing.assert_array_equal(x, y)
    _walk(s, np.random.default_rng(0))
    with pytest.raises(IllegalAction, match="over"):
        s.apply(80)


def test_a_clone_and_a_restored_snapshot_play_the_same_future():
    g = Game("official", 4, seed=9, jump_in=True, seven_zero=True)
    s = g.new_round(3)
    rng = np.random.default_rng(1)
    for _ in range(30):
        s.apply(int(rng.choice(s.legal_actions())))
    c = s.clone()
    snap = s.snapshot()
    a = _walk(s, np.random.default_rng(7)).record()
    b = _walk(c, np.random.default_rng(7)).record()
    np.testing.assert_array_equal(a, b)
    s.restore(snap)
    np.testing.assert_array_equal(_walk(s, np.random.default_rng(7)).record(), a)
    d = _walk(g.new_round(3), np.random.default_rng(8))  # another future is possible
    assert d.is_terminal()


def test_observations_for_every_seat_hold_what_it_may_know():
    g = Game("official", 4, seed=4, jump_in=True)
    s = g.new_round(0)
    rng = np.random.default_rng(2)
    seen = 0
    while not s.is_terminal():
        p = s.current_player
        for q in range(4):
            o = s.observation(q)
            assert o.seat == q
            assert int(o.hand.sum()) == int(o.hand_sizes[q])
            assert (o.legal == s.legal_actions()) if q == p else o.legal == []
            t = s.observation_tensor(q)
            assert t.shape == OBSERVATION_SHAPE and t.dtype == np.float32
            assert t.min() >= 0.0 and t.max() <= 1.0
            i = s.information_state_tensor(q)
            assert i.shape == INFORMATION_STATE_SHAPE and i.dtype == np.float32
            assert i.min() >= 0.0 and i.max() <= 1.0
            seen += 1
        total = sum(int(s.observation(q).hand.sum()) for q in range(4))
        o = s.observation(p)
        assert total + o.draw_pile + o.discard_pile == 108  # every card somewhere
        s.apply(int(rng.choice(s.legal_actions())))
    assert seen > 40
    assert s.returns().tolist().count(1.0) == 1


def test_returns_win_points_and_rank():
    s = _walk(Game("official", 4, seed=1).new_round(0), np.random.default_rng(3))
    w = int(np.argmax(s.returns()))
    assert s.returns("points")[w] == s.record()[4] or s.returns("points")[w] > 0
    r = s.returns("rank")
    assert r[w] == 1.0 and r.min() >= -1.0 and r.max() <= 1.0
    with pytest.raises(ValueError):
        s.returns("money")


def test_resample_hidden_keeps_what_the_seat_knows_and_changes_the_rest():
    g = Game("official", 4, seed=3)
    changed = 0
    for i in range(6):
        s = g.new_round(i)
        _ = [s.apply(s.legal_actions()[0]) for _ in range(5) if not s.is_terminal()]
        if s.is_terminal():
            continue
        p = s.current_player
        for seat in (p, (p + 1) % 4):
            before = [s.observation(q) for q in range(4)]
            legal = s.legal_actions()
            t = s.clone()
            assert t.resample_hidden(seat, np.random.default_rng(i))
            after = [t.observation(q) for q in range(4)]
            assert t.current_player == p and t.decision == s.decision
            np.testing.assert_array_equal(after[seat].hand, before[seat].hand)
            np.testing.assert_array_equal(after[seat].hand_sizes, before[seat].hand_sizes)
            np.testing.assert_array_equal(after[seat].discarded, before[seat].discarded)
            if seat == p:
                assert t.legal_actions() == legal
            changed += any(
                not np.array_equal(after[q].hand, before[q].hand) for q in range(4) if q != seat
            )
            _walk(t, np.random.default_rng(0))  # the redealt state plays on to its end
            assert int(t.record()[0]) >= -1
    assert changed >= 6


def test_auto_uno_and_draw_only_when_stuck():
    g = Game("official", 2, seed=6, auto_uno=True, draw_only_when_stuck=True)
    s = g.new_round(0)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        assert s.decision != "uno"
        legal = s.legal_actions()
        if s.decision == "turn" and any(a < 80 for a in legal):
            assert 80 not in legal or s.observation(s.current_player).bluff
        s.apply(int(rng.choice(legal)))


def _chooser(obs):
    """A deterministic agent: its action depends on what it sees only."""
    legal = obs.legal
    return legal[(obs.turn * 7 + obs.draw_pile * 3 + obs.discard_pile + obs.seat) % len(legal)]


def _history_tensor(hist, seat, n):
    """``kernel.stepwise.tensors.encode_history`` of the public events ``hist`` (oldest
    first), written out in Python: newest first, type, seat from ``seat`` on, card."""
    from unosim.kernel.outside import protocol as K
    from unosim.kernel.stepwise import tensors as T

    out = np.zeros(T.H_EVENTS * T.H_W, np.float32)
    for e, (typ, q, k, _, _) in enumerate(hist[::-1][: T.H_EVENTS]):
        b = e * T.H_W
        out[b + typ] = 1.0
        if q >= 0:
            out[b + 26 + (q - seat) % n] = 1.0
        out[b + 26 + 10 + (k if 0 <= k < K.N_SEEN else K.N_SEEN)] = 1.0
    return out


@pytest.mark.parametrize("rules", ["official", CARDS])
def test_public_history_is_what_the_whole_round_outside_seat_sees(rules):
    from unosim.kernel.stepwise.tensors import N_T
    from unosim.sim.outside import play_games

    n, seed = 3, 4
    seen = []

    def agent(obs):
        seen.append((obs.seat, obs.legal, obs.history.copy()))
        return _chooser(obs)

    job = make_job(str(rules), 1, n, [agent] * n, seed)
    rs = job.rules
    ref = play_games(
        rs.to_array(),
        job.sid,
        job.sparams,
        rs.deck_counts(),
        rs.points_table(),
        n,
        seed,
        0,
        1,
        job.agents,
        voluntary=rs.voluntary_draw,
    )
    s = Game(rs, n, seed=seed, single_moves=False).new_round(0)
    for i, (seat, legal, hist) in enumerate(seen):
        assert s.current_player == seat and s.legal_actions() == legal, f"decision {i}"
        for q in range(n):
            h = s.observation(q).history
            assert len(h) == min(len(hist), 64), f"decision {i} seat {q}"
            np.testing.assert_array_equal(h, hist[len(hist) - len(h) :])
            t = s.information_state_tensor(q)[N_T:]
            np.testing.assert_array_equal(t, _history_tensor(hist, q, n))
            if i >= 3:
                assert t.any(), f"decision {i}: no public event in the tensor"
        s.apply(_chooser(s.observation(seat)))
    assert s.is_terminal()
    np.testing.assert_array_equal(s.record(), ref[0])
