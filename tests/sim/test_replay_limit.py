"""`unosim replay --limit`: replays are made one at a time as they are taken, and the
limit is bounded."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(r, *words: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    assert r.stdout == ""
    for w in words:
        assert w in err, (w, err)
    return err


# ------------------------------------------------------------------ replay --limit
@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    from unosim.sim.results import write_parquet

    df = unosim.simulate("official", 60, 3, "random", seed=5, threads=1)
    path = tmp_path_factory.mktemp("r") / "r.parquet"
    write_parquet(df, path, df.attrs["manifest"])
    return path


def test_replay_limit_streams_one_replay_at_a_time(results_file, monkeypatch):
    from unosim.sim import replay as R

    made = []
    real = R.replay_job
    monkeypatch.setattr(R, "replay_job", lambda job, g: (made.append(g), real(job, g))[1])
    reps, note = R.stream_replays(source=results_file, limit=50)
    assert made == [] and "60 games; replaying the first 50" in note
    first = next(reps)
    assert made == [first.game] == [0]  # made when taken, not before
    assert next(reps).game == 1 and len(made) == 2


def test_replay_limit_is_bounded(results_file):
    from unosim.sim.replay import MAX_LIMIT

    for n in (2**63, MAX_LIMIT + 1, 0, -1):
        one_line_error(
            invoke("replay", "--from", results_file, "--limit", n), "--limit", f"{MAX_LIMIT:,}"
        )
    r = invoke("replay", "--from", results_file, "--limit", MAX_LIMIT, "--json")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 60
