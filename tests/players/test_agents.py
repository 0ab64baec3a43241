"""Python agents at the table (unosim/sim/outside.py, unosim/kernel/outside/protocol.py).

The example random agent plays RULES.md 10's ``random`` through the agent interface,
so its games must agree in distribution with the built-in ``random``'s (5 standard
errors); observations must hide what the seat cannot see; an illegal action is an
error naming it; traced games with agents pass the move checker.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from unosim.game.rules import resolve
from unosim.kernel.core import layout as L
from unosim.kernel.outside import protocol as K
from unosim.sim import outside as O
from unosim.sim.simulate import make_job, simulate
from unosim.verify.checker import check_trace

ROOT = Path(__file__).resolve().parents[2]
AGENT_FILE = ROOT / "examples" / "agents" / "random_agent.py"


def _load(name):
    spec = importlib.util.spec_from_file_location(
        f"ex_{name}", ROOT / "examples" / "agents" / f"{name}.py"
    )
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.agent


random_agent = _load("random_agent")
rule_agent = _load("rule_agent")

MIXES = [("official", None), ("official", "stacking=same,seven_zero=true")]


def _stats(df, n):
    """{metric: (mean, standard error)}: each seat's win rate, mean turns, mean points."""
    out = {}
    for s in range(n):
        w = (df.winner == s).to_numpy(float)
        out[f"win_{s}"] = (w.mean(), w.std(ddof=1) / np.sqrt(len(w)))
    for c in ("turns", "points"):
        x = df[c].to_numpy(float)
        out[c] = (x.mean(), x.std(ddof=1) / np.sqrt(len(x)))
    return out


def _agree(rules, house, games, ref_games):
    agent = simulate(
        rules,
        games,
        4,
        [str(AGENT_FILE) + ":agent", "random", "random", "random"],
        seed=11,
        house=house,
    )
    ref = simulate(rules, ref_games, 4, "random", seed=12, house=house)
    a, r = _stats(agent, 4), _stats(ref, 4)
    for k in a:
        z = (a[k][0] - r[k][0]) / np.hypot(a[k][1], r[k][1])
        assert abs(z) < 5, (
            f"{rules} {house} {k}: agent {a[k][0]:.4f} against built-in {r[k][0]:.4f}, z = {z:.1f}"
        )
    assert agent.truncated.sum() == 0
    return agent


@pytest.mark.parametrize("rules,house", MIXES)
def test_random_agent_plays_like_random_quick(rules, house):
    _agree(rules, house, 4_000, 100_000)


@pytest.mark.slow
@pytest.mark.parametrize("rules,house", MIXES)
def test_random_agent_plays_like_random(rules, house):
    _agree(rules, house, 100_000, 1_000_000)


def test_the_test_can_fail():
    """The same comparison tells a different player apart: the rule-based agent wins
    far more often than 1/4 at seat 0."""
    df = simulate("official", 4_000, 4, [rule_agent, "random", "random", "random"], seed=3)
    w = (df.winner == 0).mean()
    assert (w - 0.25) / np.sqrt(0.25 * 0.75 / len(df)) > 5


def test_reproducible_and_chunk_free():
    """A game depends on (seed, game) only: blocks and in-flight batches change nothing."""
    spec = [random_agent, "heuristic", random_agent, "random"]
    a = simulate("official", 300, 4, spec, seed=5, house="jump_in=true")
    b = simulate("official", 300, 4, spec, seed=5, house="jump_in=true", block=37)
    assert a.equals(b)
    job = make_job("official", 300, 4, spec, 5, "jump_in=true")
    rs = job.rules
    c = O.play_games(
        rs.to_array(),
        job.sid,
        job.sparams,
        rs.deck_counts(),
        rs.points_table(),
        4,
        5,
        0,
        300,
        job.agents,
        in_flight=7,
    )
    d = O.play_games(
        rs.to_array(),
        job.sid,
        job.sparams,
        rs.deck_counts(),
        rs.points_table(),
        4,
        5,
        0,
        300,
        job.agents,
        in_flight=300,
    )
    assert (c == d).all()


def test_label_records_the_agent_and_its_file():
    job = make_job("official", 1, 4, [str(AGENT_FILE) + ":agent", "random"] * 2)
    import hashlib

    h = hashlib.sha256(AGENT_FILE.read_bytes()).hexdigest()[:12]
    assert job.labels[0] == f"agent:random_agent.py:agent@{h}"
    assert job.sid[0] == K.OUTSIDE and job.sid[1] == 0


class Recorder:
    """Plays like the random agent and keeps every observation it saw."""

    def __init__(self):
        self.seen = []

    def act(self, obs):
        self.seen.append(obs)
        return random_agent(obs)


ALL_HOUSE = "stacking=progressive,seven_zero=true,jump_in=true,multi_play=true"


def test_every_decision_kind_is_offered():
    rec = Recorder()
    simulate(
        "official-2018",
        400,
        4,
        [rec, "random", "random", "random"],
        seed=2,
        house=ALL_HOUSE + ",blank_card=swap_hands",
    )
    kinds = {o.decision for o in rec.seen}
    assert kinds >= {"turn", "penalty", "drawn", "colour", "target", "jump", "extra", "uno"}
    for o in rec.seen:
        assert len(o.legal) >= 2  # a decision with one legal action is not asked
        assert o.mask.sum() == len(o.legal) and o.mask.shape == (O.N_ACTIONS,)
        assert int(o.hand.sum()) == int(o.hand_sizes[o.seat])


def test_challenge_is_offered_and_bluffs_flagged():
    rec = Recorder()
    simulate("official", 300, 2, [rec, "table"], seed=4)
    pen = [o for o in rec.seen if o.decision == "penalty"]
    assert pen and all(K.A_CHALLENGE in o.legal for o in pen if o.challengeable)
    bluffs = [o for o in rec.seen if o.decision == "turn" and o.bluff]
    assert bluffs and all(any(56 <= a < 60 for a in o.legal) for o in bluffs)


def test_illegal_action_names_decision_action_and_legal():
    with pytest.raises(
        O.IllegalAction,
        match=r"turn decision: action .* is not legal; "
        r"legal: .*\(draw\)",
    ):
        simulate(
            "official",
            5,
            2,
            [lambda obs: 97 if obs.decision == "turn" else random_agent(obs), "random"],
        )
    with pytest.raises(O.IllegalAction, match="action 'x' is not legal"):
        simulate("official", 5, 2, [lambda obs: "x", "random"])


def _state_pair():
    """Two tables that differ only in the opponents' hands (sizes kept) and the pile."""
    rs = resolve("official", "stacking=same")
    job = make_job(rs, 1, 4, [random_agent, "random", "random", "random"], seed=9)
    t = O.Tables(rs.to_array(), job.sid, job.sparams, rs.deck_counts(), rs.points_table(), 4, 9, 2)
    t.start(0, 0)
    t.start(1, 0)
    st = t.advance(np.array([0, 1], dtype=np.int64))
    assert list(st) == [K.ST_ASKING] * 2
    return rs, t


def test_observations_reveal_nothing_hidden():
    from unosim.kernel.outside.rounds import _view

    rs, t = _state_pair()
    rd0, rd1 = _view(t.games, 0), _view(t.games, 1)
    rng = np.random.default_rng(0)
    # slot 1: deal the cards seat 0 cannot see (opponents' hands, pile) anew
    hidden = []
    for q in range(1, 4):
        for k in range(K.N_KINDS):
            hidden += [k] * int(rd1.hands[q, k])
    n_pile = int(rd1.game_state[L.G_PILE_N])
    hidden += list(rd1.pile[:n_pile])
    rng.shuffle(hidden)
    sizes = [int(rd1.hand_summary[q, L.H_TOTAL]) for q in range(4)]
    from unosim.kernel.core.piles import add_card

    for q in range(1, 4):
        rd1.hands[q, :] = 0
        rd1.hand_summary[q, :] = 0
    i = 0
    for q in range(1, 4):
        for _ in range(sizes[q]):
            add_card.py_func(rd1, q, np.int64(hidden[i]))
            i += 1
    rd1.pile[:n_pile] = hidden[i:]
    assert not (rd0.hands[1:4] == rd1.hands[1:4]).all()
    tb = t.tb
    for rd in (rd0, rd1):
        K.observe(
            tb,
            rd,
            np.int64(0),
            np.int64(K.D_TURN),
            np.int64(-1),
            np.int64(-1),
            np.int64(0),
            np.int64(0),
        )
        K.fill_mask(
            tb, rd, np.int64(0), np.int64(K.D_TURN), np.int64(-1), np.int64(-1), np.int64(0)
        )
    o0 = t.observation(0, lambda: None)
    o1 = t.observation(1, lambda: None)
    assert (o0.vector() == o1.vector()).all()
    assert (o0.history == o1.history).all()
    # and the observation does change with what the seat can see: its own hand
    rd1.hands[0, :] = np.roll(rd1.hands[0, :], 1)
    K.observe(
        tb,
        rd1,
        np.int64(0),
        np.int64(K.D_TURN),
        np.int64(-1),
        np.int64(-1),
        np.int64(0),
        np.int64(0),
    )
    assert not (t.observation(1, lambda: None).vector() == o0.vector()).all()


@pytest.mark.parametrize(
    "rules,house,n",
    [
        ("official", None, 4),
        ("official", ALL_HOUSE, 3),
        ("official-2018", "blank_card=swap_hands,stacking=same", 5),
        ("pokemon", None, 2),
        ("copag", None, 4),
        ("official", "draw_rule=until_playable,last_card=number", 4),
    ],
)
def test_checker_judges_games_with_agents(rules, house, n):
    rs = resolve(rules, house)
    spec = [random_agent if s % 2 == 0 else rule_agent for s in range(n)]
    job = make_job(rs, 1, n, spec, seed=21)
    t = O.Tables(
        rs.to_array(),
        job.sid,
        job.sparams,
        rs.deck_counts(),
        rs.points_table(),
        n,
        21,
        1,
        rs.voluntary_draw,
        capacity=6_000,
    )
    agents = job.agents
    for game in range(12):
        t.start(0, game)
        rngs = {}
        while True:
            st = t.advance(np.array([0], dtype=np.int64))
            if st[0] == K.ST_DONE:
                break
            q = int(t.outside_log[0, K.O_SEAT])
            obs = t.observation(
                0, lambda q=q, rngs=rngs: rngs.setdefault(q, np.random.default_rng(q))
            )
            t.act(0, O.check_action(obs, agents[q](obs)))
        assert t.games.trace_flags[0, L.TR_EVENTS] <= 6_000
        trace = t.trace(0)
        # the random agent's seats follow the random strategy to the letter
        strict = [s % 2 == 0 for s in range(n)]
        v = check_trace(trace, rs, n, row=t.out[0], strict=strict)
        assert not v, "\n".join(map(str, v[:5]))


def test_cli_seats_an_agent_file_and_a_module(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from unosim.cli.app import app

    runner = CliRunner()
    r = runner.invoke(
        app,
        ["simulate", "--games", "50", "--strategies", f"{AGENT_FILE}:agent,random,random,random"],
    )
    assert r.exit_code == 0, r.output
    assert "agent:random_agent.py:agent@" in r.output
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "bot.py").write_text("def play(obs):\n    return obs.legal[-1]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    r = runner.invoke(
        app,
        ["simulate", "--games", "20", "--players", "2", "--strategies", "mypkg.bot:play,random"],
    )
    assert r.exit_code == 0, r.output
    for bad, msg in [
        (f"{tmp_path}/none.py:agent,random", "no file"),
        (f"{AGENT_FILE}:nothing,random", "has no 'nothing'"),
        ("mypkg.nobot:play,random", "cannot import"),
    ]:
        r = runner.invoke(app, ["simulate", "--games", "5", "--players", "2", "--strategies", bad])
        assert r.exit_code == 2 and msg in r.output and "Traceback" not in r.output


def test_evaluate_ladder(tmp_path):
    from typer.testing import CliRunner

    from unosim.cli.app import app

    r = CliRunner().invoke(
        app,
        [
            "evaluate",
            f"{AGENT_FILE}:agent",
            "--games",
            "2000",
            "--expert-games",
            "40",
            "--expert",
            "expert:rollouts=8;more=1",
            "--out",
            str(tmp_path),
        ],
    )
    assert r.exit_code == 0, r.output
    import pandas as pd

    t = pd.read_csv(tmp_path / "ladder.csv")
    assert list(t.columns) == ["player", "opponents", "rounds", "win_rate", "ci_low", "ci_high"]
    row = t[(t.player == "agent") & (t.opponents == "random")].iloc[0]
    assert row.ci_low <= 0.25 <= row.ci_high
    ref = t[(t.player == "random") & (t.opponents == "random")].iloc[0]
    assert ref.win_rate == 0.25  # every deal is played from each seat: one win in four
    assert {"expert", "see-all-hands"} <= set(t.player)
    assert set(t.opponents) == {"random", "heuristic", "table", "tuned-weighted", "expert"}
    assert "expert expert:rollouts=8;more=1" in r.output


def test_agents_refused_where_the_kernel_plays_alone():
    """Matches and replays run the kernel's own loops, which cannot ask an agent."""
    from unosim.sim.match import make_match_job
    from unosim.sim.replay import ReplayError, replay_job

    with pytest.raises(ValueError, match="not matches"):
        make_match_job("official", 1, 2, [random_agent, "random"])
    with pytest.raises(ReplayError, match="cannot be replayed"):
        replay_job(make_job("official", 1, 2, [random_agent, "random"]), 0)


def test_tournament_takes_an_agent():
    from unosim.analysis.tournament import tournament

    df = tournament("official", 4, [random_agent, "heuristic", "random", "random"], 400)
    assert df.strategy[0].startswith("agent:") and len(df) == 4
    assert abs(df.win_rate.sum() - 1) < 1e-9
