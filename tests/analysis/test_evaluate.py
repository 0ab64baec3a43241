"""The strength ladder's expert rows, and experts at the table with Python agents."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest

from unosim.analysis.evaluate import ladder, open_spec
from unosim.game.rules import resolve
from unosim.kernel.core import layout as L
from unosim.kernel.outside import protocol as K
from unosim.players.expert import TUNED
from unosim.sim import outside as O
from unosim.sim.simulate import make_job, run_block
from unosim.verify.checker import check_trace

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "ex_random_agent", ROOT / "examples" / "agents" / "random_agent.py"
)
_m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(_m)
random_agent = _m.agent

CHEAP = "expert:rollouts=16;more=1"  # a small budget: the tests' games stay fast


def test_ladder_has_the_expert_rows_and_seeing_all_hands_stands_above():
    # 2 players: a hand seen is the whole hidden table (but the pile's order), the
    # clearest margin per round. Measured: expert 0.696, see-all-hands 0.817 on these
    # 1,000 deals, +0.121, 6.4 standard errors (taking the rows as independent).
    lad = ladder(
        random_agent,
        "official",
        2,
        games=1000,
        seed=2026,
        opponents=("random",),
        expert_games=1000,
        expert=CHEAP,
    )
    t = lad.table.set_index("player")
    assert list(t.index) == ["agent", "random", lad.best, "expert", "see-all-hands"]
    agent, rnd = t.loc["agent"], t.loc["random"]
    assert agent.ci_low <= 0.5 <= agent.ci_high
    assert rnd.win_rate == 0.5  # each deal from both seats, the same game: one win in two
    x, o = t.loc["expert"], t.loc["see-all-hands"]
    assert x.rounds == o.rounds == 1000
    se = math.sqrt(
        x.win_rate * (1 - x.win_rate) / x.rounds + o.win_rate * (1 - o.win_rate) / o.rounds
    )
    assert o.win_rate - x.win_rate > 5 * se
    assert x.ci_low > 0.5  # and the expert beats random


def test_ladder_against_experts():
    lad = ladder(
        random_agent,
        "official",
        2,
        games=40,
        seed=1,
        opponents=("heuristic", "expert"),
        expert_games=20,
        expert=CHEAP,
    )
    t = lad.table
    vs = t[t.opponents == "expert"]
    assert list(vs.player) == ["agent", "random", lad.best]
    assert (vs.rounds == 20).all()
    assert list(t[t.opponents == "heuristic"].rounds) == [40, 40, 40, 20, 20]


def test_open_spec():
    assert open_spec("expert") == "expert:deal=open"
    assert open_spec("expert:rollouts=8") == "expert:rollouts=8;deal=open"


@pytest.mark.parametrize(
    "rules,house,n,expert",
    [
        ("official", None, 4, CHEAP),
        ("official", "stacking=progressive,seven_zero=true,jump_in=true", 3, CHEAP),
        # the opponents' own strategies in the rollouts: an agent's seat plays the policy
        ("official", "stacking=same", 4, "expert:model=actual;horizon=0;rollouts=8;more=1"),
        ("pokemon", None, 2, "expert:rollouts=8;deal=open"),
    ],
)
def test_checker_judges_games_of_agents_and_experts(rules, house, n, expert):
    rs = resolve(rules, house)
    spec_ = [random_agent if s % 2 == 0 else expert for s in range(n)]
    job = make_job(rs, 1, n, spec_, seed=5)
    assert job.kernel.xp is not None
    t = O.Tables(
        rs.to_array(),
        job.sid,
        job.sparams,
        rs.deck_counts(),
        rs.points_table(),
        n,
        5,
        1,
        rs.voluntary_draw,
        capacity=6_000,
        xp=job.kernel.xp,
    )
    for game in range(4):
        t.start(0, game)
        rngs = {}
        while True:
            st = t.advance(np.array([0], dtype=np.int64))
            if st[0] == K.ST_DONE:
                break
            q = int(t.outside_log[0, K.O_SEAT])
            assert q % 2 == 0  # only the agents' seats are asked
            obs = t.observation(
                0, lambda q=q, rngs=rngs: rngs.setdefault(q, np.random.default_rng(q))
            )
            t.act(0, O.check_action(obs, job.agents[q](obs)))
        assert t.games.trace_flags[0, L.TR_EVENTS] <= 6_000
        # the random agent's seats follow the random strategy to the letter; the
        # experts' moves are their search's, legal but not their policy's
        strict = [s % 2 == 0 for s in range(n)]
        v = check_trace(t.trace(0), rs, n, row=t.out[0], strict=strict)
        assert not v, "\n".join(map(str, v[:5]))


def test_games_of_agents_and_experts_do_not_depend_on_batching():
    job = make_job("official", 24, 3, [random_agent, CHEAP, "random"], seed=8)
    a = run_block(job, 0, 24)
    rs = job.rules
    args = (job.sid, job.sparams, rs.deck_counts(), rs.points_table(), 3, 8)
    for in_flight in (1, 5):
        b = O.play_games(
            rs.to_array(),
            *args,
            0,
            24,
            job.agents,
            voluntary=rs.voluntary_draw,
            in_flight=in_flight,
            xp=job.kernel.xp,
        )
        assert (a == b).all()
    # the last 10 on their own: a game depends on its (seed, index) only
    assert (run_block(job, 14, 10) == a[14:]).all()
    # and the search is on: its policy alone (which it plays exactly where the search
    # keeps the policy's move) plays other games
    pol = make_job("official", 24, 3, [random_agent, TUNED, "random"], seed=8)
    assert not (run_block(pol, 0, 24) == a).all()


def test_ladder_of_matches():
    lad = ladder(
        random_agent,
        "official",
        2,
        games=40,
        seed=3,
        opponents=("random",),
        expert_games=4,
        expert=CHEAP,
        matches=80,
    )
    m = lad.matches.set_index("player")
    assert list(m.columns) == ["opponents", "matches", "win_rate", "ci_low", "ci_high"]
    assert list(m.index) == ["agent", "random", lad.best]
    assert (m.matches == 80).all()
    # all-random matches are the same whoever is "the player": one win in two
    assert m.loc["random"].win_rate == 0.5
    assert m.loc["agent"].ci_low <= 0.5 <= m.loc["agent"].ci_high


def test_cli_evaluate_errors_are_one_line():
    from typer.testing import CliRunner

    from unosim.cli.app import app

    for args, msg in [
        (["--expert", "heuristic"], "--expert must be 'strong', 'strong-fast' or expert"),
        (["--expert-games", "2"], "--expert-games must be at least --players (4)"),
        (["--matches", "3"], "--matches must be 0 or at least --players (4)"),
        (["--expert", "expert:nope=1"], "unknown strategy parameter"),
    ]:
        r = CliRunner().invoke(app, ["evaluate", "random", *args])
        assert r.exit_code == 2, r.output
        assert msg in r.output and "Traceback" not in r.output
        assert len(r.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_experts_play_agents_as_they_play_builtins():
    """The random agent (RULES.md 10's ``random``, played in Python) and built-in
    ``random`` win alike against experts: the experts search as strongly in the outside
    seats' rounds as in the kernel's own, within 5 standard errors."""
    from unosim.analysis.evaluate import _wins

    xp = "expert:rollouts=16;more=1;z=0"  # z=0: many moves are not the policy's
    a, n = _wins(random_agent, xp, "official", 3, 1000, 4, None)
    b, m = _wins("random", xp, "official", 3, 1000, 4, None)
    p, q = a / n, b / m
    se = math.sqrt(p * (1 - p) / n + q * (1 - q) / m)
    assert abs(p - q) < 5 * se
    assert q < 1 / 3 - 5 * math.sqrt(q * (1 - q) / m)  # and the experts beat random


def test_cli_writes_the_matches_ladder(tmp_path):
    import pandas as pd
    from typer.testing import CliRunner

    from unosim.cli.app import app

    args = ["evaluate", "random", "--players", "2", "--games", "40", "--expert-games", "4"]
    args += ["--expert", "expert:rollouts=8;more=1", "--matches", "8", "--out", str(tmp_path)]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "see-all-hands" in r.output and "matches  win rate" in r.output
    m = pd.read_csv(tmp_path / "ladder_matches.csv")
    assert list(m.columns) == ["player", "opponents", "matches", "win_rate", "ci_low", "ci_high"]
    assert len(m) == 3 * 5 and (m.matches == 8).all()
    # built-in random against random, as either player: the same matches, one win in two
    assert m[(m.player == "random") & (m.opponents == "random")].win_rate.iloc[0] == 0.5


def test_cli_writes_the_ladders_page_with_its_figure(tmp_path):
    from typer.testing import CliRunner

    from unosim.cli.app import app

    args = ["evaluate", str(ROOT / "examples" / "agents" / "random_agent.py") + ":agent"]
    args += ["--players", "2", "--games", "40", "--expert-games", "4", "--out", str(tmp_path)]
    args += ["--expert", "expert:rollouts=8;more=1"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "row 1/" in r.output  # one progress line per row (on stderr)
    html = (tmp_path / "ladder.html").read_text()
    md = (tmp_path / "ladder.md").read_text()
    assert md.startswith("# Strength ladder: random\\_agent.py:agent\n")
    assert "Against a random player the agent wins" in md
    assert (tmp_path / "ladder" / "ladder.svg").stat().st_size > 10_000
    assert not (tmp_path / "ladder" / "ladder.png").exists()  # each figure stored once
    assert 'src="ladder/ladder.svg"' in html and "agent:random_agent.py:agent@" in html
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


def _fake_ladder(best="heuristic"):
    import pandas as pd

    from unosim.analysis.evaluate import COLUMNS, Ladder

    rows = [
        ("agent", "random", 4000, 0.262, 0.249, 0.276),
        ("random", "random", 4000, 0.250, 0.237, 0.264),
        (best, "random", 4000, 0.300, 0.286, 0.314),
        ("agent", "expert", 400, 0.180, 0.145, 0.221),
        ("random", "expert", 400, 0.150, 0.118, 0.188),
        (best, "expert", 400, 0.182, 0.147, 0.223),
    ]
    return Ladder(pd.DataFrame(rows, columns=COLUMNS), best, "expert")


def test_ladder_page_says_the_agents_standing_in_plain_words():
    from unosim.report.ladder_page import lead_sentences

    s = lead_sentences(_fake_ladder(), 4)
    assert s[0] == (
        "Against 3 random players the agent wins 26.2% of rounds (95% interval 24.9% to "
        "27.6%), 3.8 percentage points less than built-in heuristic, the best built-in (30.0%)."
    )
    assert s[1].startswith("Against 3 experts the agent wins 18.0% of rounds")
    assert s[1].endswith(
        ", no practical difference from built-in heuristic, the best built-in (18.2%)."
    )
    assert s[2] == "A player with no edge wins 25.0% at 4 players."


def test_ladder_page_escapes_the_agents_name(tmp_path):
    from unosim.report.ladder_page import Made, write_page

    hostile = "<script>alert(1)</script>[x](javascript:alert(1)).py:agent"
    made = Made(hostile, f"agent:{hostile}@0", "official", 4, 1, "unosim x")
    path = write_page(_fake_ladder(), tmp_path, made)
    html = path.read_text()
    assert "<script>" not in html and "javascript:" not in html.replace("javascript:alert", "")
    assert "&lt;script&gt;" in html
    md = (tmp_path / "ladder.md").read_text()
    assert md.startswith("# Strength ladder: script\\>\\[x\\](javascript:alert(1)).py:agent\n")
    assert f", seated as `agent:{hostile}@0`" in md  # a code span: shown, not followed


def test_reference_rows_are_kept_and_reused_and_a_bad_file_is_played_again(tmp_path, monkeypatch):
    from unosim.analysis import evaluate as E

    played = []
    real = E._wins
    monkeypatch.setattr(E, "_wins", lambda *a: played.append(a[:2]) or real(*a))
    kw = dict(games=200, seed=5, opponents=("random", "heuristic"), expert_games=8, expert=CHEAP)
    first = E.ladder(random_agent, "official", 2, cache=tmp_path, **kw)
    assert first.kept == 0 and len(list(tmp_path.glob("*.json"))) == 2 * (1 + 5 + 2)
    n_first = len(played)
    played.clear()
    again = E.ladder(random_agent, "official", 2, cache=tmp_path, **kw)
    assert played == [(random_agent, "random"), (random_agent, "heuristic")]  # the agent only
    assert again.kept == n_first - 2
    assert again.table.equals(first.table)
    # another seed is another set of deals: nothing kept
    played.clear()
    other = E.ladder(random_agent, "official", 2, cache=tmp_path, **{**kw, "seed": 6})
    assert other.kept == 0 and len(played) == n_first
    # a file that does not hold exactly its key and a count that fits is played again
    for i, f in enumerate(sorted(tmp_path.glob("*.json"))):
        d = json.loads(f.read_text())
        if i % 3 == 0:
            d["won"] = d["played"] + 1
        elif i % 3 == 1:
            d["key"]["seed"] = 99
        else:
            f.write_text("{not json")
            continue
        f.write_text(json.dumps(d))
    played.clear()
    redone = E.ladder(random_agent, "official", 2, cache=tmp_path, **kw)
    assert redone.table.equals(first.table)
    assert redone.kept == 0 and len(played) == n_first  # every tampered row played again
    assert not list(tmp_path.glob(".*.tmp"))


def test_expert_names():
    """``--expert``: ``strong`` and ``strong-fast`` name the two strength budgets, any
    other ``expert[:PARAMS]`` is kept as given once its parameters check."""
    from unosim.analysis.evaluate import expert_spec
    from unosim.players.expert import STRONG, STRONG_FAST

    assert expert_spec("strong") == STRONG
    assert expert_spec("strong-fast") == STRONG_FAST
    assert expert_spec("expert:rollouts=8") == "expert:rollouts=8"
    with pytest.raises(ValueError, match="strong-fast"):
        expert_spec("strong-slow")
