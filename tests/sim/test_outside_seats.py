"""Hardened seats: data files never name code, legality is judged by the engine, an
isolated seat sees only its observation, and every bad agent ends in one line.

Each test below failed on the code before these defences (a manifest's agent file ran
and its module was imported; an agent that wrote its observation played cards it did
not hold; bad actions and raising agents gave tracebacks; there was no isolated seat).
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.kernel.core import layout as L
from unosim.sim import outside as O
from unosim.sim.results import rounds_frame, write_parquet
from unosim.sim.simulate import make_job, run_block, simulate

ROOT = Path(__file__).resolve().parents[2]
RANDOM_AGENT = ROOT / "examples" / "agents" / "random_agent.py"
runner = CliRunner()


def _one_error_line(r, code=2):
    """The CLI ended with ``code`` and said why in one line, no traceback (beside
    ``evaluate``'s progress lines, one per row started)."""
    lines = [x for x in r.stderr.strip().splitlines() if not x.lstrip().startswith("row ")]
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output, r.output
    assert len(lines) == 1, r.stderr
    return lines[0]


# -- 1. a data file never names code -------------------------------------------------------
def _planted(tmp_path, monkeypatch):
    """A marker-writing agent file and a marker-writing package on sys.path; returns
    the labels naming them and the marker paths."""
    marks = tmp_path / "marks"
    marks.mkdir()
    agent = tmp_path / "planted.py"
    agent.write_text(
        f"open({str(marks / 'file')!r}, 'w').write('ran')\n"
        "def agent(obs):\n    return obs.legal[0]\n"
    )
    pkg = tmp_path / "plantedpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(f"open({str(marks / 'package')!r}, 'w').write('ran')\n")
    (pkg / "bot.py").write_text(
        f"open({str(marks / 'module')!r}, 'w').write('ran')\ndef play(obs):\n    return 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    labels = [f"{agent}:agent", "plantedpkg.bot:play", "agent:planted.py:agent@0123456789ab"]
    return labels, marks


def _results_file(path: Path, labels: list[str]) -> Path:
    """A results file whose manifest names ``labels`` for its 4 seats."""
    m = make_job("official", 1, 4, "random", 3).manifest()
    m["strategies"] = labels
    df = rounds_frame(np.zeros((1, L.N_COLS), dtype=np.int32), 4, 0)
    write_parquet(df, path, m)
    return path


@pytest.mark.parametrize("which", [0, 1, 2, 3])
def test_replay_never_runs_code_a_manifest_names(tmp_path, monkeypatch, which):
    from unosim.sim.replay import ReplayError, stream_replays

    labels, marks = _planted(tmp_path, monkeypatch)
    labels.append("unittest.__main__:main")  # the reproducer: a module that runs
    seats = ["random"] * 4
    seats[which % 4] = labels[which]
    f = _results_file(tmp_path / "sent.parquet", seats)
    had_main = "unittest.__main__" in sys.modules
    r = runner.invoke(app, ["replay", "--from", str(f)])
    line = _one_error_line(r)
    assert f"seat {which % 4} was an outside agent" in line and str(f) in line
    with pytest.raises(ReplayError, match="never names code to run"):
        stream_replays(source=f)
    assert not list(marks.iterdir()), "code named in the file ran"
    assert "plantedpkg" not in sys.modules and "planted" not in str(list(sys.modules))
    assert ("unittest.__main__" in sys.modules) == had_main


def test_no_module_resolves_a_player_from_a_manifest():
    """Only the seat parser loads agents, and only replay reads a manifest's players,
    through the refusal."""
    pkg = ROOT / "unosim"
    loaders = [
        p.relative_to(pkg).as_posix()
        for p in pkg.rglob("*.py")
        if "agents.load(" in p.read_text(encoding="utf-8")
    ]
    assert loaders == ["players/seats.py"]
    readers = [
        p.relative_to(pkg).as_posix()
        for p in pkg.rglob("*.py")
        if '["strategies"]' in p.read_text(encoding="utf-8")
    ]
    assert readers == ["sim/replay.py"]
    text = (pkg / "sim" / "replay.py").read_text(encoding="utf-8")
    assert text.index('refuse_agents(m["strategies"]') < text.index("make_job(rules, 1, int(m")


# -- 2. legality from the engine's state ---------------------------------------------------
def _forger(obs):
    """Writes every view of its observation it can reach, then plays a card it does not
    hold (a red 0 or, holding one, a blue 9)."""
    for attempt in (
        lambda: obs._v.__setitem__(slice(0, O.N_ACTIONS), 1),
        lambda: obs._v.setflags(write=True),
        lambda: obs.history.setflags(write=True),
    ):
        try:
            attempt()
        except ValueError:
            pass
    obs._v = np.ones(obs._v.size, np.int64)  # a forged copy of its own
    if obs.decision != "turn":
        return obs.legal[0]
    return 0 if obs.hand[0] == 0 else 51


def test_observations_are_read_only():
    seen = []

    def agent(obs):
        seen.append(obs)
        return obs.legal[0]

    simulate("official", 3, 2, [agent, "random"], seed=2)
    obs = seen[0]
    for arr in (obs._v, obs.history):
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr.setflags(write=True)
    with pytest.raises(ValueError):
        obs._v[0] = 1


def test_an_agent_writing_its_observation_cannot_play_a_card_it_lacks():
    with pytest.raises(
        O.IllegalAction, match=r"seat 0 \(.*\)'s turn decision: action .* is not legal"
    ):
        simulate("official", 20, 4, [_forger, "random", "random", "random"], seed=4)


# -- 4. bad agents end in one line -----------------------------------------------------------
BAD = textwrap.dedent(
    """
    import sys

    def illegal(obs):
        return 97 if obs.decision == "turn" else obs.legal[0]

    def none(obs):
        return None

    def nan(obs):
        return float("nan")

    def huge(obs):
        return 10**30

    def floating(obs):
        return float(obs.legal[0]) + 0.5

    def text(obs):
        return "play"

    def raises(obs):
        return 1 // 0

    def exits(obs):
        sys.exit(0)

    def interrupted(obs):
        raise KeyboardInterrupt
    """
)
SHOWN = {
    "illegal": "action 97 (say UNO) is not legal",
    "none": "action None is not legal",
    "nan": "action nan is not legal",
    "huge": f"action {10**30} is not legal",
    "floating": "is not legal",
    "text": "action 'play' is not legal",
    "raises": "the agent raised ZeroDivisionError: integer division or modulo by zero",
    "exits": "the agent tried to end the program (sys.exit(0))",
}


@pytest.fixture()
def bad_file(tmp_path):
    f = tmp_path / "bad.py"
    f.write_text(BAD)
    return f


@pytest.mark.parametrize("name", list(SHOWN))
def test_bad_agent_one_line_on_the_command_line(bad_file, name):
    r = runner.invoke(
        app,
        ["simulate", "--games", "5", "--players", "2", "--strategies", f"{bad_file}:{name},random"],
    )
    line = _one_error_line(r)
    assert line.startswith(f"unosim: error: seat 0 (agent:bad.py:{name}@"), line
    assert SHOWN[name] in line, line


@pytest.mark.parametrize("name", ["raises", "none", "exits"])
def test_bad_agent_in_evaluate_leaves_no_out(bad_file, tmp_path, name):
    out = tmp_path / "ladder"
    r = runner.invoke(
        app,
        ["evaluate", f"{bad_file}:{name}", "--games", "8", "--no-cache", "--out", str(out)],
    )
    line = _one_error_line(r)
    assert "seat 0 (agent:bad.py:" in line and SHOWN[name] in line
    assert not out.exists()


def test_python_api_error_names_the_seat_and_keeps_the_cause():
    def raises(obs):
        return 1 // 0

    with pytest.raises(
        O.AgentError, match=r"^seat 1 \(agent:.*raises.*\): the agent raised ZeroDivisionError"
    ) as e:
        simulate("official", 5, 2, ["random", raises], seed=1)
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    with pytest.raises(O.AgentError, match=r"sys.exit\(0\)"):
        simulate("official", 5, 2, ["random", lambda obs: sys.exit(0)], seed=1)


def test_interrupt_while_an_agent_thinks_is_one_line_130(bad_file):
    r = runner.invoke(
        app,
        [
            "simulate",
            "--games",
            "5",
            "--players",
            "2",
            "--strategies",
            f"{bad_file}:interrupted,random",
        ],
    )
    assert _one_error_line(r, 130).startswith("unosim: interrupted")
    r = runner.invoke(app, ["evaluate", f"{bad_file}:interrupted", "--games", "8", "--no-cache"])
    assert _one_error_line(r, 130).startswith("unosim: interrupted")


def test_ctrl_c_while_an_agent_thinks(tmp_path):
    """A real SIGINT to the command while the agent sleeps: exit 130, one line."""
    started = tmp_path / "started"
    f = tmp_path / "slow.py"
    f.write_text(
        f"import time\ndef agent(obs):\n    open({str(started)!r}, 'w').close()\n"
        "    time.sleep(60)\n    return obs.legal[0]\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", "from unosim.cli.app import main; main()", "simulate"]
        + ["--games", "3", "--players", "2", "--strategies", f"{f}:agent,random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        # Ctrl-C as a terminal delivers it: a suite started in the background (``make
        # test &``) hands its children SIGINT ignored, and Python then keeps it ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 600
    while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert started.exists(), proc.communicate()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    # the agent is first asked in the run itself (warming the kernels asks a stand-in)
    # (a cold cache adds the compile's progress lines before it)
    said = [line for line in err.strip().splitlines() if line.startswith("unosim:")]
    assert said == ["unosim: interrupted; nothing was written"], err


# -- 3. the isolated seat ------------------------------------------------------------------------
def _seats(agent):
    return [agent, "heuristic", "random", "random"]


def test_isolated_agent_plays_exactly_like_in_process():
    from unosim.players.agents import load
    from unosim.sim.isolated import isolated_agent

    spec = f"{RANDOM_AGENT}:agent"
    inside = load(spec)
    apart = isolated_agent(spec)
    try:
        assert apart.label == inside.label
        house = "jump_in=true,seven_zero=true"
        a = run_block(make_job("official", 60, 4, _seats(inside), 8, house), 0, 60)
        b = run_block(make_job("official", 60, 4, _seats(apart), 8, house), 0, 60)
        assert (a == b).all()
    finally:
        apart.source.close()


def test_isolated_agent_scores_on_the_ladder_like_in_process():
    from unosim.analysis.evaluate import _wins
    from unosim.players.agents import load
    from unosim.sim.isolated import isolated_agent

    spec = f"{RANDOM_AGENT}:agent"
    apart = isolated_agent(spec)
    try:
        for opp in ("random", "heuristic"):
            assert _wins(apart, opp, "official", 4, 25, 2026, None) == _wins(
                load(spec), opp, "official", 4, 25, 2026, None
            )
    finally:
        apart.source.close()


SNOOP = textwrap.dedent(
    """
    import gc, json, os
    import numpy as np

    looked = []

    def agent(obs):
        if looked:  # one look is enough (each walks every object of the process)
            return obs.legal[0]
        looked.append(1)
        found = []
        for o in gc.get_objects():
            name = type(o).__name__
            if name in ("Tables", "Round", "Kernel", "Job"):
                found.append(name)
            elif isinstance(o, np.ndarray) and o.dtype == np.int16 and o.ndim == 3:
                found.append("hands")
        with open(os.environ["SNOOP_OUT"], "a") as f:
            f.write(json.dumps(sorted(set(found))) + "\\n")
        return obs.legal[0]
    """
)


def test_isolated_agent_cannot_reach_other_hands(tmp_path, monkeypatch):
    from unosim.sim.isolated import isolated_agent

    f = tmp_path / "snoop.py"
    f.write_text(SNOOP)
    inside, apart = tmp_path / "inside.jsonl", tmp_path / "apart.jsonl"
    monkeypatch.setenv("SNOOP_OUT", str(inside))
    simulate("official", 2, 2, [f"{f}:agent", "random"], seed=1)
    seen = set().union(*map(set, map(json.loads, inside.read_text().splitlines())))
    assert {"Tables", "Round"} <= seen  # in process, the engine is within reach
    monkeypatch.setenv("SNOOP_OUT", str(apart))
    agent = isolated_agent(f"{f}:agent")
    try:
        simulate("official", 2, 2, [agent, "random"], seed=1)
    finally:
        agent.source.close()
    lines = apart.read_text().splitlines()
    assert lines and all(json.loads(x) == [] for x in lines)


@pytest.mark.parametrize("name", ["illegal", "none", "nan", "huge", "text", "raises", "exits"])
def test_isolated_bad_agent_says_the_same_line(bad_file, name):
    from unosim.players.agents import load
    from unosim.sim.isolated import isolated_agent

    agent = isolated_agent(f"{bad_file}:{name}")
    try:
        with pytest.raises(O.AgentError) as apart:
            simulate("official", 5, 2, [agent, "random"], seed=1)
    finally:
        agent.source.close()
    with pytest.raises(O.AgentError) as inside:
        simulate("official", 5, 2, [load(f"{bad_file}:{name}"), "random"], seed=1)
    assert str(apart.value) == str(inside.value)
    assert SHOWN[name] in str(apart.value)


def test_isolated_agent_time_limit(tmp_path):
    from unosim.sim.isolated import isolated_agent

    f = tmp_path / "slow.py"
    f.write_text(
        "import time\nasked = []\ndef agent(obs):\n    asked.append(1)\n"
        "    if len(asked) > 1:\n        time.sleep(60)\n    return obs.legal[0]\n"
    )
    agent = isolated_agent(f"{f}:agent", timeout=0.5, start=60)
    t = time.monotonic()
    with pytest.raises(
        O.AgentError, match=r"^seat 0 \(agent:slow.py:agent@.*\): no action within 0.5 s"
    ):
        simulate("official", 2, 2, [agent, "random"], seed=1)
    assert time.monotonic() - t < 50  # the first decision had 60 s more, the second 0.5 s
    proc = agent.source
    assert proc.proc is None  # ended


@pytest.mark.parametrize(
    "script,said",
    [
        ("print('hello')", "its reply is not a JSON line: 'hello'"),
        ("import sys; sys.stdin.readline()", "its process ended (exit code 0) without an action"),
        ("import sys; sys.stdin.readline(); print('[1]')", "its reply is not a JSON object"),
        ("import sys; sys.stdin.readline(); print('{\"action\": 2.5}')", "action 2.5 is not legal"),
    ],
)
def test_agent_cmd_protocol_errors_are_one_line(tmp_path, script, said):
    f = tmp_path / "cmd.py"
    f.write_text(script + "\n")
    r = runner.invoke(
        app,
        ["evaluate", "--agent-cmd", f"{sys.executable} {f}", "--games", "8", "--no-cache"],
    )
    line = _one_error_line(r)
    assert line.startswith("unosim: error: seat 0 (agent:cmd:") and said in line, line


CMD_AGENT = textwrap.dedent(
    """
    import json, sys
    for line in sys.stdin:
        obs = json.loads(line)
        assert set(obs) >= {"decision", "legal", "hand", "hand_sizes", "history", "top"}
        print(json.dumps({"action": obs["legal"][0]}), flush=True)
    """
)


def test_agent_cmd_plays_and_in_process_refused(tmp_path):
    from unosim.players.agents import from_object
    from unosim.sim.isolated import command_agent

    f = tmp_path / "first.py"
    f.write_text(CMD_AGENT)
    agent = command_agent(f"{sys.executable} {f}")
    try:
        a = run_block(make_job("official", 20, 3, [agent, "random", "random"], 5), 0, 20)
    finally:
        agent.source.close()
    b = run_block(
        make_job("official", 20, 3, [from_object(lambda obs: obs.legal[0]), "random", "random"], 5),
        0,
        20,
    )
    assert (a == b).all()
    r = runner.invoke(app, ["evaluate", "--agent-cmd", "x", "--in-process"])
    assert "drop --in-process" in _one_error_line(r)
    r = runner.invoke(app, ["evaluate"])
    assert "--agent-cmd" in _one_error_line(r)


def test_evaluate_isolated_and_agent_cmd_give_the_in_process_ladder(tmp_path):
    """The whole ladder, on the command line: --isolate and --agent-cmd (the host run as
    a command) write the same ladder.csv as the agent in process."""
    spec = f"{RANDOM_AGENT}:agent"
    small = ["--games", "40", "--expert-games", "4", "--no-cache", "--players", "3"]
    runs = {
        "inside": [spec],
        "isolated": [spec, "--isolate"],
        "command": ["--agent-cmd", f"{sys.executable} -m unosim.sim.isolated {spec}"],
    }
    tables = {}
    for name, args in runs.items():
        r = runner.invoke(app, ["evaluate", *args, *small, "--out", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
        tables[name] = (tmp_path / name / "ladder.csv").read_text()
    assert tables["isolated"] == tables["inside"] == tables["command"]
