"""Runs past their bounds (games, matches, rounds, memory, workers, schedulers, traces)
and bad arguments of the Python API: one line or one exception naming the argument,
nothing written."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

import unosim
from tests.cli_checks import invoke, one_line_error
from unosim.kernel.core import layout as L

runner = CliRunner()


def test_match_max_rounds_bound(out):
    one_line_error(
        invoke(
            "match",
            "--house",
            "penalty_elimination=true,max_rounds=1000000000",
            "--matches",
            10,
            "--out",
            out / "m.parquet",
        ),
        "max_rounds",
    )


def test_match_memory_bound(monkeypatch):
    from unosim.sim import match as M

    monkeypatch.setattr(M, "MAX_ROUNDS_KEPT", 500)
    job = M.make_match_job(
        "official", 50, 4, "random", 0, "penalty_elimination=true,max_rounds=100"
    )
    with pytest.raises(ValueError, match="more than the 500 a run keeps"):
        M.run_matches(job, threads=2, chunk=4)


# ------------------------------------------------------------------ numbers
def test_huge_games_is_an_error_and_no_chunk_list_is_built(out):
    one_line_error(invoke("simulate", "--games", 10**30, "--out", out), "games")
    from unosim.sim.runner import prepare
    from unosim.sim.simulate import MAX_GAMES, make_job

    t0 = time.perf_counter()
    plan = prepare(make_job("official", MAX_GAMES, 4, "random", 0), None, chunk_games=1)
    assert len(plan.chunks) == MAX_GAMES and plan.games_todo == MAX_GAMES
    assert next(iter(plan.todo)) == (0, 1)
    assert time.perf_counter() - t0 < 5


def test_dask_workers_bound(out):
    one_line_error(
        invoke("simulate", "--executor", "dask", "--threads", 1000, "--games", 10, "--out", out),
        "--threads 1000",
    )


def test_replay_game_bound():
    one_line_error(invoke("replay", "--game", 9223372036854775808), "game")
    one_line_error(invoke("replay", "--game", -1), "game")


@pytest.mark.parametrize("address", ["not a url", "tcp://", "http://x:1", "tcp://h:99999"])
def test_scheduler_address(address, out):
    one_line_error(
        invoke("simulate", "--scheduler", address, "--games", 10, "--out", out), "--scheduler"
    )


def test_unreachable_scheduler_leaves_nothing(out):
    one_line_error(
        invoke("simulate", "--scheduler", "tcp://127.0.0.1:1", "--games", 10, "--out", out),
        "cannot reach",
    )


# ------------------------------------------------------------------ the Python API
@pytest.mark.parametrize(
    "kw,exc,word",
    [
        ({"chunk": -1}, ValueError, "chunk"),
        ({"chunk": 0}, ValueError, "chunk"),
        ({"block": 0}, ValueError, "block"),
        ({"block": 2.5}, TypeError, "block"),
        ({"threads": 0}, ValueError, "threads"),
        ({"threads": True}, TypeError, "threads"),
        ({"seed": True}, TypeError, "seed"),
        ({"seed": -1}, ValueError, "seed"),
        ({"strategies": None}, TypeError, "strategies"),
        ({"strategies": ["random", 3]}, TypeError, "strategies"),
        ({"house": 5}, TypeError, "house"),
        ({"n_games": 2**60}, ValueError, "games"),
    ],
)
def test_api_arguments(kw, exc, word):
    with pytest.raises(exc, match=word):
        unosim.simulate("official", **{"n_games": 10, **kw})


def test_trace_memory_is_bounded(monkeypatch):
    from unosim.sim import engine

    monkeypatch.setattr(engine, "TRACE_MAX_BYTES", 20 * L.EV_W * 4)
    one_line_error(invoke("replay", "--game", 0), "events", "GiB")


def test_memory_bounds_of_compare_match_and_blocks(out):
    one_line_error(
        invoke("compare", "official", "stacking", "--games", 2**28, "--out", out / "c.csv"),
        "games",
        "in memory",
    )
    one_line_error(
        invoke("match", "--matches", 2**40, "--out", out / "m.parquet"), "matches must be at most"
    )
    with pytest.raises(ValueError, match="block"):
        unosim.run(n_games=10, block=2**40)
    with pytest.raises(ValueError, match="block"):
        unosim.simulate(n_games=10, block=2**40)
