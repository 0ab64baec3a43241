"""UNO inside OpenSpiel: the registered game ``python_unosim`` against OpenSpiel's own
checks, its searches (ISMCTS, determinized MCTS) playing whole rounds, and a test that a
search never reads the cards its seat cannot see."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import unosim.table.openspiel_seat  # noqa: E402, F401  (the openspiel: seats)
from unosim.env.openspiel import (  # noqa: E402
    SEED_BYTES,
    HiddenRead,
    builtin_bot,
    determinized_mcts_bot,
    guarded,
    ismcts_bot,
    play_round,
    random_bot,
)

MIX = "official+stacking=same+seven_zero=true+jump_in=true"


def load(players=4, rules="official", **more):
    return pyspiel.load_game("python_unosim", {"players": players, "rules": rules, **more})


def dealt(game, seed):
    """A state just after the deal of ``seed`` (chance's bytes applied)."""
    state = game.new_initial_state()
    for b in seed.to_bytes(SEED_BYTES, "big"):
        state.apply_action(b)
    return state


def test_registered_with_parameters():
    game = load(4, "official+stacking=same")
    assert game.num_players() == 4
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.rules.stacking == "same"
    assert load(3, jump_in=True).rules.jump_in
    assert load(2, stacking="progressive").rules.stacking == "progressive"
    assert pyspiel.load_game("python_unosim(players=2,rules=pokemon)").num_players() == 2


@pytest.mark.parametrize(
    "params, message",
    [
        ({"rules": "nonsense"}, "unknown preset"),
        ({"rules": "official+stacking=sometimes"}, "stacking"),
        ({"players": 11}, "players"),
        ({"reward": "glory"}, "reward"),
        ({"stacking": "maybe"}, "stacking"),
    ],
)
def test_bad_parameters_are_refused_in_one_line(params, message):
    with pytest.raises(Exception, match=message) as e:
        pyspiel.load_game("python_unosim", params)
    assert "\n" not in str(e.value).strip()


@pytest.mark.parametrize("rules, players", [("official", 4), (MIX, 3), ("official", 2)])
def test_random_sim_test(rules, players):
    pyspiel.random_sim_test(load(players, rules), num_sims=1, serialize=True, verbose=False)


def test_clone_plays_the_same_future():
    game = load(4)
    state = dealt(game, 12345)
    rng = np.random.default_rng(0)
    for _ in range(10):
        state.apply_action(int(rng.choice(state.legal_actions())))
    twin = state.clone()
    while not state.is_terminal():
        a = int(rng.choice(state.legal_actions()))
        assert twin.legal_actions() == state.legal_actions()
        state.apply_action(a)
        twin.apply_action(a)
        assert str(twin) == str(state)
    assert twin.returns() == state.returns()


def test_information_state_is_kept_by_resampling_and_hides_the_rest():
    game = load(4)
    state = dealt(game, 7)
    rng = np.random.default_rng(1)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    world = state.resample_from_infostate(p, sampler)
    assert world.information_state_string(p) == state.information_state_string(p)
    assert world.observation_string(p) == state.observation_string(p)
    assert world.information_state_tensor(p) == state.information_state_tensor(p)
    assert world.legal_actions() == state.legal_actions()
    assert str(world) != str(state)  # the other hands dealt afresh
    # tensors of the declared shapes for every seat, before the deal too
    size = game.information_state_tensor_size()
    assert all(len(state.information_state_tensor(q)) == size for q in range(4))
    assert len(game.new_initial_state().observation_tensor(0)) == game.observation_tensor_size()


def _colours_held(world, seat):
    """float[4]: cards of each colour in ``seat``'s hand (wild-type cards left out)."""
    hand = world.round.observation(seat).hand[:52]
    return hand.reshape(4, 13).sum(axis=1).astype(float)


def test_resampling_reads_only_the_information_state():
    """Two states the seat cannot tell apart (the true one and a world resampled from
    it) give worlds with the same distribution of the hidden cards: an opponent's
    colours average alike over 60 worlds of each (within 5 sigma), while the two
    states' own hands for that opponent differ by more than that bound, so a resample
    that kept any of the true hidden cards would fail."""
    game = load(4)
    state = dealt(game, 99)
    rng = np.random.default_rng(2)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    q = (p + 1) % 4
    for seed in range(20):  # another truth with q's colours far from the true ones
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(seed, 0, 1))
        gap = np.abs(_colours_held(other, q) - _colours_held(state, q))
        if gap.max() >= 3:
            break
    assert gap.max() >= 3
    worlds = 60
    means, spread = [], []
    for truth in (state, other):
        sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
        held = np.array(
            [_colours_held(truth.resample_from_infostate(p, sampler), q) for _ in range(worlds)]
        )
        means.append(held.mean(axis=0))
        spread.append(held.var(axis=0, ddof=1))
    bound = 5 * np.sqrt((spread[0] + spread[1]) / worlds) + 1e-9
    assert (np.abs(means[0] - means[1]) < bound).all(), (means, bound)
    assert (bound < gap).any()  # a resample keeping the true hand would be caught


def test_a_guarded_state_refuses_to_show_hidden_cards():
    game = load(4)
    state = dealt(game, 3)
    p = state.current_player()
    with guarded(state, p):
        state.information_state_string(p)
        state.legal_actions()
        with pytest.raises(HiddenRead):
            state.clone()
        with pytest.raises(HiddenRead):
            str(state)
        with pytest.raises(HiddenRead):
            state.observation_string((p + 1) % 4)
    state.clone()  # unguarded again


@pytest.mark.parametrize("make_bot", ["ismcts", "mcts"])
def test_searches_play_whole_rounds_without_seeing_hidden_cards(make_bot):
    """Every decision of the searching seat runs with the true state guarded: the search
    may ask it for the seat's information state, legal actions and resampled worlds, and
    anything else (a clone, another seat's view, its string) raises ``HiddenRead``."""
    game = load(3, "official")
    for seed in range(1):
        rng = np.random.default_rng(seed)
        if make_bot == "ismcts":
            bot = ismcts_bot(game, simulations=4, seed=seed)
        else:
            bot = determinized_mcts_bot(game, simulations=4, worlds=1, seed=seed)
        bots = [bot, random_bot(game, seed), builtin_bot(game)]
        returns = play_round(game, bots, rng, guard=(0,))
        assert sorted(returns) in ([0.0, 0.0, 1.0], [0.0, 0.0, 0.0])


def test_a_bot_that_peeks_is_caught():
    """The check above can fail: a bot that looks at the true state (its string shows
    every hand) raises ``HiddenRead`` on a guarded seat."""

    class Peeker(pyspiel.Bot):
        def __init__(self):
            pyspiel.Bot.__init__(self)

        def step(self, state):
            str(state)  # every hand
            return state.legal_actions()[0]

    game = load(2)
    with pytest.raises(HiddenRead):
        play_round(game, [Peeker(), builtin_bot(game)], np.random.default_rng(0), guard=(0,))
    play_round(game, [Peeker(), builtin_bot(game)], np.random.default_rng(0))  # unguarded


def test_ismcts_against_random_reports_its_win_rate():
    game = load(4)
    wins, rounds = 0, 2
    for seed in range(rounds):
        rng = np.random.default_rng(100 + seed)
        bots = [ismcts_bot(game, simulations=8, seed=seed)] + [builtin_bot(game)] * 3
        wins += play_round(game, bots, rng)[0] == 1.0
    print(f"ISMCTS (8 simulations) against 3 built-in random: {wins}/{rounds} rounds won")
    assert 0 <= wins <= rounds


@pytest.mark.slow
def test_ismcts_plays_100_rounds():
    """ISMCTS at seat 0 against 3 built-in random plays 100 whole rounds; its win rate is
    printed (with 16 simulations per decision it is far below random's: most decisions
    have more legal actions than simulations, so it plays nearly at random among them,
    drawing with playable cards and staying silent at UNO)."""
    from unosim.stats import wilson_ci

    game = load(4)
    wins, rounds = 0, 100
    for seed in range(rounds):
        rng = np.random.default_rng(1000 + seed)
        bots = [ismcts_bot(game, simulations=16, seed=seed)] + [builtin_bot(game)] * 3
        returns = play_round(game, bots, rng, guard=(0,))
        assert sorted(returns) in ([0.0, 0.0, 0.0, 1.0], [0.0] * 4)
        wins += returns[0] == 1.0
    low, high = wilson_ci(wins, rounds)
    print(
        f"ISMCTS (16 simulations) against 3 built-in random: {wins}/{rounds} "
        f"[{low:.2f}, {high:.2f}]"
    )


# -------------------------------------------------- an OpenSpiel bot at simulate's seats
def test_an_openspiel_seat_is_evaluated_against_builtin_strategies():
    """``openspiel:ismcts`` seated as an agent (``simulate``, ``unosim evaluate``'s
    rows): it plays whole rounds on its own copy of each round, guarded for its seat, and
    the rounds are the table's (the same records as the table's)."""
    from unosim.analysis.evaluate import _wins
    from unosim.sim.simulate import make_job, run_block

    spec = "openspiel:ismcts:simulations=4,seed=1"
    job = make_job("official", 3, 3, [spec, "random", "heuristic"], 5)
    assert job.labels[0] == "openspiel:ismcts:simulations=4;uct_c=2.0;seed=1"
    rec = run_block(job, 0, 3)
    assert rec.shape[0] == 3 and set(rec[:, 0]) <= {-1, 0, 1, 2}
    np.testing.assert_array_equal(run_block(job, 0, 3), rec)  # seeded per round
    won, played = _wins("openspiel:random", "random", "official", 2, 2, 3, None)
    assert played == 4 and 0 <= won <= played


def test_an_openspiel_seat_refuses_other_agents_and_bad_specs_in_one_line():
    from unosim.players.strategies import StrategyError
    from unosim.sim.simulate import make_job, run_block

    for spec, message in [
        ("openspiel:alphazero", "unknown OpenSpiel bot"),
        ("openspiel:ismcts:simulations=0", "simulations must be 1 to"),
        ("openspiel:mcts:depth=3", "mcts takes simulations, worlds"),
        ("openspiel:ismcts:uct_c=x", "uct_c must be a number"),
    ]:
        with pytest.raises(StrategyError, match=message) as e:
            make_job("official", 1, 2, [spec, "random"], 0)
        assert "\n" not in str(e.value)
    job = make_job("official", 1, 2, ["openspiel:random", lambda obs: obs.legal[0]], 0)
    with pytest.raises(StrategyError, match="built-in strategies only, seat 1"):
        run_block(job, 0, 1)


def test_an_openspiel_seat_without_openspiel_says_so_in_one_line(monkeypatch):
    import sys

    from unosim.players.strategies import StrategyError
    from unosim.sim.simulate import make_job

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel: ImportError
    with pytest.raises(StrategyError, match="OpenSpiel is not installed") as e:
        make_job("official", 1, 2, ["openspiel:ismcts", "random"], 0)
    assert "\n" not in str(e.value)
