"""The Python API: validate, seed, run the kernel in blocks, return typed frames."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from .._version import __version__
from ..game.rules import RuleSet, resolve
from ..players.seats import parse_seats
from ..versions import KERNEL_BEHAVIOUR_VERSION, RNG_VERSION, RULES_FORMAT_VERSION
from . import engine
from .outside import play_games
from .results import rounds_frame

BLOCK = 1 << 20  # games per kernel call: bounds the memory of the raw records
CHUNK = 1024  # games per parallel task inside a call; never changes results
MAX_BLOCK = 1 << 24  # games per kernel call at most: 16.7M records, 2.8 GB
MAX_GAMES = 2**53  # game indices stay exact in float64 and far from int64's end


@dataclass(frozen=True)
class Job:
    """A validated simulation request: everything that determines its results."""

    rules: RuleSet
    n_players: int
    sid: np.ndarray
    sparams: np.ndarray
    labels: tuple[str, ...]
    seed: int
    n_games: int
    first_game: int = 0
    agents: tuple = ()  # an ``agents.Agent`` per seat played by Python, else None

    @cached_property
    def kernel(self) -> engine.Kernel:
        """The kernel's arrays for this job's rules and seats, built once."""
        return engine.build(self.rules, self.n_players, self.sid, self.sparams, self.labels)

    def manifest(self) -> dict:
        """How the results were made: enough to reproduce or replay any game."""
        return {
            "unosim_version": __version__,
            "numba_version": numba.__version__,
            "numpy_version": np.__version__,
            "python_version": platform.python_version(),
            "rng": RNG_VERSION,
            "kernel_behaviour": KERNEL_BEHAVIOUR_VERSION,
            "rules_format": RULES_FORMAT_VERSION,
            "rules_name": self.rules.name,
            "rules_hash": self.rules.hash(),
            "rules_toml": self.rules.to_toml(),
            "players": self.n_players,
            "strategies": list(self.labels),
            "seed": self.seed,
            "games": self.n_games,
            "first_game": self.first_game,
        }


def whole(name: str, value, lo: int = 1, hi: int | None = None) -> int:
    """``value`` as an int in ``[lo, hi]``: ``TypeError`` unless it is a whole number
    (not a bool), ``ValueError`` out of range; both messages name ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        top = "" if hi is None else f" and at most {hi:,}"
        raise ValueError(f"{name} must be at least {lo:,}{top}, got {value!r}")
    return int(value)


def check_progress(progress) -> None:
    """``TypeError`` naming ``progress`` unless it is None or callable."""
    if progress is not None and not callable(progress):
        raise TypeError(
            f"progress must be a function called with a number of games "
            f"finished, or None; got {progress!r}"
        )


def make_job(
    rules: str | Path | RuleSet = "official",
    n_games: int = 1000,
    n_players: int = 4,
    strategies: str | list | tuple = "random",  # texts, and agents
    seed: int = 0,
    house: str | dict | None = None,
    first_game: int = 0,
) -> Job:
    """Validate every input; raises ``ValueError`` subclasses with one-line messages
    (``TypeError`` for an argument of the wrong type, naming it)."""
    if house is not None and not isinstance(house, (str, dict)):
        raise TypeError(
            f"house must be text ('stacking=same,jump_in=true') or a dict, got {house!r}"
        )
    if not isinstance(strategies, (str, list, tuple)) or not all(
        isinstance(s, str) or callable(s) or callable(getattr(s, "act", None))
        for s in ([strategies] if isinstance(strategies, str) else strategies)
    ):
        raise TypeError(
            f"strategies must be text or a list of texts and agents (callables "
            f"or objects with an act method), got {strategies!r}"[:300]
        )
    rs = resolve(rules, house)
    if isinstance(n_players, bool) or not isinstance(n_players, (int, np.integer)):
        raise ValueError(f"players must be a whole number, got {n_players!r}")
    rs.check_players(int(n_players))
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"games must be a whole number of at least 1, got {n_games!r}")
    if n_games > MAX_GAMES:
        raise ValueError(f"games must be at most {MAX_GAMES:,} (2**53), got {n_games:,}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be a whole number, got {seed!r}")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed must be a whole number in [0, 2**63), got {seed!r}")
    whole("first_game", first_game, 0, MAX_GAMES)
    sid, sp, labels, agents = parse_seats(
        list(strategies) if isinstance(strategies, tuple) else strategies, int(n_players)
    )
    return Job(
        rs,
        int(n_players),
        sid,
        sp,
        tuple(labels),
        int(seed),
        int(n_games),
        int(first_game),
        agents if any(a is not None for a in agents) else (),
    )


def warm(job: Job | None = None, kernels: Sequence[str] = ()) -> float:
    """Compile the kernels (or load them from numba's cache) before any clock starts:
    ``job``'s, by playing one of its games; with no job the kernels named in ``kernels``
    (``KERNEL_NAMES``; empty, every one: what the tests use; the reports need only
    ``REPORT_KERNELS``), their two halves (``WARM_PARTS``) in two processes at once
    (numba compiles on one core). Returns the seconds it took: the one-off compile time
    on a fresh install."""
    import time

    t = time.perf_counter()
    if job is not None:
        if job.agents:  # the same kernels, without asking the job's own agents a move
            seats = [
                _first_legal if a is not None else lab for a, lab in zip(job.agents, job.labels)
            ]
            job = make_job(job.rules, 1, job.n_players, seats, job.seed)
        run_block(job, 0, 1)
        return time.perf_counter() - t
    names = (kernels,) if isinstance(kernels, str) else tuple(kernels) or KERNEL_NAMES
    for name in names:
        if name not in KERNEL_NAMES:
            raise ValueError(f"no kernel named {name!r}; the kernels: {', '.join(KERNEL_NAMES)}")
    if not any(n in names for n in WARM_PARTS[0]):  # one half: no second process
        warm_part(1, names)
        return time.perf_counter() - t
    other = None
    if any(n in names for n in WARM_PARTS[1]):
        path = [str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH", "")]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in path if p))
        code = f"from unosim.sim.simulate import warm_part; warm_part(1, {names!r})"
        other = subprocess.Popen([sys.executable, "-c", code], env=env)
    warm_part(0, names)
    if other is not None and other.wait() != 0:
        warm_part(1, names)  # the second process failed: compile here, where errors show
    return time.perf_counter() - t


# what ``warm_kernels`` compiles, by name
KERNEL_NAMES = ("official", "rounds", "expert", "matches", "trace", "game", "outside")
# the kernels the report pages run (``analyses/``): official-like rule sets' rounds in
# their own kernel and the others' in the general one, the expert's, matches to 500 and
# a round's trace; neither the stepwise game's nor a Python agent's seat, which only the
# tests and the examples play
REPORT_KERNELS = ("official", "rounds", "expert", "matches", "trace")
# ``warm()``'s two halves, about equal on an empty cache: 0, official's rounds in their
# own kernel (``engine.FAMILIES``; else the general one), then the general round kernel
# and the two that call its compiled round (``batch.play_and_record``): matches and a
# round's trace; 1, the expert's kernel, the rounds of seats played by a Python agent
# (most of whose code the expert's compile has cached by then) and the stepwise game's
WARM_PARTS = (("official", "rounds", "matches", "trace"), ("expert", "outside", "game"))


def warm_part(part: int, kernels: Sequence[str] = KERNEL_NAMES) -> None:
    """The kernels of ``warm()``'s half ``part`` (``WARM_PARTS``) that ``kernels`` names."""
    warm_kernels([n for n in WARM_PARTS[part] if n in kernels])


def _first_legal(obs):
    """An agent for ``warm_kernels``: the first legal action."""
    return obs.legal[0]


def warm_kernels(names: Sequence[str]) -> None:
    """Compile (or load from numba's cache) the kernels ``names`` (``KERNEL_NAMES``), in
    that order: official's rounds (in their own kernel, ``engine.FAMILIES``, else the
    general one), the general round kernel, the expert's, matches, a round's trace, the
    stepwise game's, a Python agent's seat."""
    default = make_job()
    for name in names:
        if name == "official":
            run_block(default, 0, 1)
        elif name == "rounds":
            engine.rounds(default.kernel, default.seed, 0, 1, CHUNK, family=False)
        elif name == "expert":
            run_block(make_job("official", 1, 4, "expert,random,random,random", 0), 0, 1)
        elif name == "matches":
            engine.matches(default.kernel, default.seed, 0, 1)
        elif name == "trace":
            engine.trace(default.kernel, default.seed, 0)
        elif name == "game":  # the stepwise game: a round, its tensors and a redeal
            from .game import Game

            state = Game("official", 4, seed=0).new_round(0)
            state.observation_tensor(0)
            state.information_state_tensor(0)
            state.resample_hidden(state.current_player, np.random.default_rng(0))
            while not state.is_terminal():
                state.play_builtin("random")
        elif name == "outside":  # a seat played by a Python agent (outside.play_games)
            run_block(make_job("official", 1, 2, [_first_legal, "random"], 0), 0, 1)
        else:
            raise ValueError(f"no kernel named {name!r}; the kernels: {', '.join(KERNEL_NAMES)}")


def run_block(job: Job, first_game: int, count: int, chunk: int = CHUNK) -> np.ndarray:
    """Raw kernel records ``int32[count, N_COLS]`` of games ``first_game ..``
    (:func:`engine.rounds`; with Python agents, :func:`outside.play_games`)."""
    if job.agents:  # Python agents decide at their seats (unosim/sim/outside.py)
        rs = job.rules
        for a in job.agents:  # a seat that keeps its own copy of the round is told the table
            bind = getattr(getattr(a, "source", None), "bind_table", None)
            if bind is not None:
                bind(rs, job.n_players, job.seed, job.labels)
        return play_games(
            rs.to_array(),
            job.sid,
            job.sparams,
            rs.deck_counts(),
            rs.points_table(),
            job.n_players,
            job.seed,
            first_game,
            count,
            job.agents,
            voluntary=rs.voluntary_draw,
            xp=job.kernel.xp,
        )
    return engine.rounds(job.kernel, job.seed, first_game, count, chunk)


def iter_frames(
    job: Job, threads: int | None = None, block: int = BLOCK, chunk: int = CHUNK
) -> Iterator[pd.DataFrame]:
    """The job's rounds as frames of at most ``block`` games, in game order."""
    with thread_count(threads):
        done = 0
        while done < job.n_games:
            count = min(block, job.n_games - done)
            first = job.first_game + done
            yield rounds_frame(run_block(job, first, count, chunk), job.n_players, first)
            done += count


def simulate(
    rules: str | Path | RuleSet = "official",
    n_games: int = 1000,
    n_players: int = 4,
    strategies: str | list[str] = "random",
    seed: int = 0,
    threads: int | None = None,
    house: str | dict | None = None,
    chunk: int = CHUNK,
    block: int = BLOCK,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Simulate ``n_games`` independent rounds.

    Parameters
    ----------
    rules : preset name, path of a TOML rule file, or a RuleSet.
    n_games : number of rounds; round ``i`` is seeded by ``(seed, i)``.
    n_players : 2 to 10; seat ``n_players - 1`` deals, seat 0 acts first.
    strategies : one strategy for every seat or one per seat (see ``strategies.parse``).
    seed : root seed; the same seed gives the same frame for any ``threads``/``chunk``.
    threads : numba threads (default: all cores).
    house : house-rule switches added to ``rules`` (``"stacking=same,jump_in=true"``).
    progress : called with the number of games finished after each block.

    Returns
    -------
    pandas.DataFrame, one row per round: ``game`` then the RULES.md section 6 columns
    (compact integer dtypes, ``truncated`` bool). ``df.attrs['manifest']`` says how it
    was made.
    """
    whole("chunk", chunk, 1, MAX_BLOCK)
    whole("block", block, 1, MAX_BLOCK)
    check_progress(progress)
    job = make_job(rules, n_games, n_players, strategies, seed, house)
    frames = []
    for f in iter_frames(job, threads, block, chunk):
        frames.append(f)
        if progress is not None:
            progress(len(f))
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    df.attrs["manifest"] = job.manifest()
    return df


class thread_count:
    """Context manager setting numba's thread count (``None``: all cores)."""

    def __init__(self, threads: int | None):
        if threads is not None:
            whole("threads", threads)
        self.threads = min(
            threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS
        )

    def __enter__(self):
        self.saved = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        return self

    def __exit__(self, *exc):
        numba.set_num_threads(self.saved)
