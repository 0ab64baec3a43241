"""Whole matches (RULES.md section 7): the Python API, frames and Parquet files.

Players, not seats, carry strategies: ``strategies`` lists one per player, and each
player keeps theirs while the deal moves around the table (see ``kernel/drivers/match.py`` for
the seating and the readings of section 7). Two tables come back:

* matches, one row per match: ``match``, ``winner`` (player, -1 when truncated),
  ``rounds``, ``score_{p}`` and ``penalty_{p}`` (final totals of each player),
  ``truncated`` (stopped at ``max_rounds``);
* rounds, one row per round inside a match: ``match``, ``round``, ``dealer`` (player),
  ``players`` (players in the round), ``winner_player``, then the RULES.md section 6
  columns by seat (``winner`` and ``first_player`` are seats, ``hand_points_{s}``,
  ``hand_size_{s}``), then ``player_{s}`` (who sits in seat s, -1 for an empty seat
  after eliminations) and ``penalty_points_{s}`` (penalised hand points in the round).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from ..game.rules import RuleSet
from ..kernel.core import layout as L
from ..kernel.drivers import match as K
from ..players.expert import refuse_matches
from . import engine
from .interrupt import kernel_call
from .results import MANIFEST_KEY, atomic_path, publish, rounds_frame
from .simulate import Job, check_progress, make_job

CHUNK = 256  # matches per kernel call (one task of the thread pool); never changes results
TASK_ROUNDS = 1 << 20  # a task's matches may hold at most this many rounds (~230 MB raw)
MAX_ROUNDS_KEPT = 1 << 25  # rounds a call keeps in memory (about 1-4 GB of frames)


def make_match_job(
    rules: str | Path | RuleSet = "official",
    n_matches: int = 1000,
    n_players: int = 4,
    strategies: str | list[str] = "random",
    seed: int = 0,
    house: str | dict | None = None,
    first_match: int = 0,
) -> Job:
    """Validate a match request (as :func:`unosim.sim.simulate.make_job`; ``strategies`` are
    per player). ``n_games``/``first_game`` of the Job count matches."""
    try:
        job = make_job(rules, n_matches, n_players, strategies, seed, house, first_match)
    except ValueError as e:
        msg = str(e).replace("games must", "matches must").replace("first_game", "first_match")
        raise type(e)(msg) from None
    refuse_matches(job.labels)
    if job.agents:
        raise ValueError(
            "Python agents play single rounds (simulate, run, compare, "
            "tournament, evaluate), not matches yet"
        )
    return job


def match_manifest(job: Job, table: str = "matches") -> dict:
    """The job's manifest for a match table (``table``: ``matches`` or ``rounds``)."""
    m = job.manifest()
    m.pop("games")
    m.pop("first_game")
    m.update(
        kind="matches",
        table=table,
        matches=job.n_games,
        first_match=job.first_game,
        strategies_by="player",
    )
    return m


def _check_threads(threads: int | None) -> int:
    if threads is None:
        return numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a whole number >= 1, got {threads!r}")
    return int(threads)


def run_match_chunk(job: Job, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw kernel output of matches ``lo .. hi - 1`` (:func:`engine.matches`)."""
    return engine.matches(job.kernel, job.seed, lo, hi)


def _match_columns(mout: np.ndarray, n_players: int, first_match: int) -> dict[str, np.ndarray]:
    k = mout.shape[0]
    cols: dict[str, np.ndarray] = {
        "match": np.arange(first_match, first_match + k, dtype=np.int64),
        "winner": mout[:, K.M_WINNER].astype(np.int8),
        "rounds": mout[:, K.M_ROUNDS].astype(np.int32),
    }
    for p in range(n_players):
        cols[f"score_{p}"] = mout[:, K.M_SCORE + p].astype(np.int64)
    for p in range(n_players):
        cols[f"penalty_{p}"] = mout[:, K.M_PENALTY + p].astype(np.int64)
    cols["truncated"] = mout[:, K.M_TRUNCATED].astype(np.bool_)
    return cols


@cache
def _section6_dtypes(n_players: int) -> dict:
    """The RULES.md section 6 columns keep the dtypes of single-round frames."""
    empty = rounds_frame(np.zeros((0, L.N_COLS), dtype=np.int32), n_players, 0)
    return dict(empty.dtypes)


def _round_columns(
    heads: np.ndarray, recs: np.ndarray, n_players: int, first_match: int
) -> dict[str, np.ndarray]:
    sec6 = _section6_dtypes(n_players)
    cols: dict[str, np.ndarray] = {
        "match": heads[:, K.RH_MATCH].astype(np.int64) + first_match,
        "round": heads[:, K.RH_ROUND].astype(np.int32),
        "dealer": heads[:, K.RH_DEALER].astype(np.int8),
        "players": heads[:, K.RH_PLAYERS].astype(np.int8),
        "winner_player": heads[:, K.RH_WINNER].astype(np.int8),
    }
    for i, name in enumerate(L.FIXED_COLUMNS):
        cols[name] = recs[:, i].astype(sec6[name])
    for s in range(n_players):
        cols[f"hand_points_{s}"] = recs[:, L.C_HAND_POINTS + s].astype(sec6[f"hand_points_{s}"])
    for s in range(n_players):
        cols[f"hand_size_{s}"] = recs[:, L.C_HAND_SIZE + s].astype(sec6[f"hand_size_{s}"])
    for s in range(n_players):
        cols[f"player_{s}"] = heads[:, K.RH_PLAYER + s].astype(np.int8)
    for s in range(n_players):
        cols[f"penalty_points_{s}"] = recs[:, L.C_PENALTY_POINTS + s].astype(np.int32)
    return cols


def matches_frame(mout: np.ndarray, n_players: int, first_match: int) -> pd.DataFrame:
    """``int32[k, N_MCOLS]`` match rows -> frame (``match`` counts from ``first_match``)."""
    return pd.DataFrame(_match_columns(mout, n_players, first_match))


def match_rounds_frame(
    heads: np.ndarray, recs: np.ndarray, n_players: int, first_match: int
) -> pd.DataFrame:
    """Round rows of matches (``int32[r, N_RH]`` heads, ``int32[r, N_COLS]`` records) ->
    frame (columns in the module docstring; ``match`` counts from ``first_match``)."""
    return pd.DataFrame(_round_columns(heads, recs, n_players, first_match))


def _chunk_columns(job: Job, lo: int, hi: int) -> tuple[dict, dict]:
    """One chunk, run and compacted at once (the raw int32 records are dropped)."""
    with kernel_call():  # Ctrl-C or SIGTERM during the call: the interrupt itself
        mout, heads, recs = run_match_chunk(job, lo, hi)
    return (_match_columns(mout, job.n_players, lo), _round_columns(heads, recs, job.n_players, lo))


def _concat(parts: list[dict]) -> pd.DataFrame:
    if len(parts) == 1:
        return pd.DataFrame(parts[0])
    return pd.DataFrame({c: np.concatenate([p[c] for p in parts]) for c in parts[0]})


def run_matches(
    job: Job,
    threads: int | None = None,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play the job's matches on ``threads`` threads (default: all cores), ``chunk``
    matches per task; returns (matches, rounds) in match order, without manifest."""
    threads = _check_threads(threads)
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise ValueError(f"chunk must be a whole number >= 1, got {chunk!r}")
    chunk = int(chunk)
    check_progress(progress)
    if job.n_games > MAX_ROUNDS_KEPT:  # every match has a round at least
        raise ValueError(
            f"matches must be at most {MAX_ROUNDS_KEPT:,} (their rounds are "
            f"kept in memory), got {job.n_games:,}"
        )
    # matches that run to max_rounds must not make one task's arrays huge
    chunk = max(1, min(chunk, TASK_ROUNDS // job.rules.max_rounds))
    first, end = job.first_game, job.first_game + job.n_games
    bounds = ((lo, min(end, lo + chunk)) for lo in range(first, end, chunk))
    parts = []
    kept = 0

    def keep(part, lo, hi):
        nonlocal kept
        parts.append(part)
        kept += len(part[1]["match"])
        if kept > MAX_ROUNDS_KEPT:
            raise ValueError(
                f"the first {hi - first:,} matches already hold {kept:,} "
                f"rounds, more than the {MAX_ROUNDS_KEPT:,} a run keeps in "
                "memory: simulate fewer matches or lower max_rounds"
            )
        if progress is not None:
            progress(hi - lo)

    if threads == 1 or job.n_games <= chunk:
        for lo, hi in bounds:
            keep(_chunk_columns(job, lo, hi), lo, hi)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            pending = []  # at most 2 tasks per thread queued: memory stays bounded
            try:
                for lo, hi in bounds:
                    pending.append((lo, hi, pool.submit(_chunk_columns, job, lo, hi)))
                    if len(pending) >= 2 * threads:
                        a, b, f = pending.pop(0)  # in order: same frames for any pool
                        keep(f.result(), a, b)
                while pending:
                    a, b, f = pending.pop(0)
                    keep(f.result(), a, b)
            finally:
                for *_, f in pending:
                    f.cancel()
    return _concat([p[0] for p in parts]), _concat([p[1] for p in parts])


def simulate_matches(
    rules: str | Path | RuleSet = "official",
    n_matches: int = 1000,
    n_players: int = 4,
    strategies: str | list[str] = "random",
    seed: int = 0,
    threads: int | None = None,
    house: str | dict | None = None,
    chunk: int = CHUNK,
    first_match: int = 0,
    progress: Callable[[int], None] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Simulate ``n_matches`` whole matches (RULES.md section 7).

    Parameters
    ----------
    rules : preset name, path of a TOML rule file, or a RuleSet; its ``scoring``,
        ``target_score``, ``next_dealer``, ``penalty_elimination``,
        ``elimination_score`` and ``max_rounds`` rule the match.
    n_matches : number of matches; match ``m`` is seeded by ``(seed, m)``, its round
        ``r`` by ``(seed, m, r)``.
    n_players : 2 to 10. Player ``n_players - 1`` deals the first round, so round 0 of
        match ``m`` is game ``m`` of :func:`unosim.simulate` with the same seed.
    strategies : one strategy for every player, or one per PLAYER (comma list).
    seed : root seed; the same seed gives the same frames for any ``threads``/``chunk``.
    threads : worker threads (default: all cores).
    house : house-rule switches added to ``rules``.
    first_match : index of the first match (to continue a run).
    progress : called with the number of matches finished after each chunk.

    Returns
    -------
    (matches, rounds) : pandas.DataFrame, one row per match and one per round (columns
    in :mod:`unosim.sim.match`); both carry ``attrs['manifest']``.
    """
    job = make_match_job(rules, n_matches, n_players, strategies, seed, house, first_match)
    matches, rounds = run_matches(job, threads, chunk, progress)
    matches.attrs["manifest"] = match_manifest(job, "matches")
    rounds.attrs["manifest"] = match_manifest(job, "rounds")
    return matches, rounds


def rounds_path(path: str | Path) -> Path:
    """Where the rounds table of a match file goes: ``x.parquet`` -> ``x.rounds.parquet``."""
    p = Path(path)
    if p.suffix == ".parquet":
        return p.with_name(p.stem + ".rounds.parquet")
    return p.with_name(p.name + ".rounds.parquet")


def write_matches(
    matches: pd.DataFrame, rounds: pd.DataFrame, path: str | Path, manifest: dict | None = None
) -> tuple[Path, Path]:
    """Write the match table to ``path`` and the rounds table beside it
    (:func:`rounds_path`), each atomically with its manifest in the file metadata.
    ``manifest`` defaults to the frames' own ``attrs['manifest']``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    final = Path(path)
    targets = [(rounds, rounds_path(final), "rounds"), (matches, final, "matches")]
    tmps = []
    try:
        for df, dest, table in targets:  # write both, then rename both
            man = dict(manifest if manifest is not None else df.attrs["manifest"])
            man["table"] = table
            t = pa.Table.from_pandas(df, preserve_index=False)
            meta = dict(t.schema.metadata or {})
            meta[MANIFEST_KEY] = json.dumps(man, sort_keys=True).encode()
            tmp = atomic_path(dest)
            tmps.append(tmp)
            pq.write_table(
                t.replace_schema_metadata(meta), tmp, compression="zstd", write_page_checksum=True
            )
        published = []
        try:
            for tmp, (_, dest, _) in zip(tmps, targets):
                publish(tmp, dest)
                published.append(dest)
        except BaseException:  # one table without the other is no result: remove it
            for dest in published:
                dest.unlink(missing_ok=True)
            raise
    finally:
        for tmp in tmps:
            if tmp.exists():
                tmp.unlink()
    return final, rounds_path(final)


def read_matches(path: str | Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Both tables of a match file back, each with ``attrs['manifest']``."""
    from .results import read_results

    return read_results(path), read_results(rounds_path(path))


def match_summary(
    matches: pd.DataFrame, rounds: pd.DataFrame, n_players: int, confidence: float = 0.95
) -> dict:
    """Headline numbers of a match run.

    Returns
    -------
    dict: ``matches``, ``completed``, ``truncated`` (matches), ``rounds`` (all rounds),
    ``truncated_rounds``; ``players`` (DataFrame: ``player``, ``wins``, ``rate``, ``lo``,
    ``hi``, every match in the denominator, Wilson intervals); ``rounds_mean``,
    ``rounds_lo``, ``rounds_hi``, ``rounds_median``, ``rounds_p90`` (rounds per completed
    match); ``points_mean``, ``points_lo``, ``points_hi`` (points per completed round).
    """
    from ..stats import mean_ci, win_rates

    nan3 = (float("nan"),) * 3
    trunc = matches["truncated"].to_numpy(dtype=bool)
    out: dict = {
        "matches": len(matches),
        "completed": int((~trunc).sum()),
        "truncated": int(trunc.sum()),
        "rounds": len(rounds),
        "truncated_rounds": int(rounds["truncated"].sum()),
    }
    wr = win_rates(matches["winner"].to_numpy(), n_players, confidence)
    out["players"] = wr.rename(columns={"seat": "player"})
    per = matches["rounds"].to_numpy(dtype=np.float64)[~trunc]
    if per.size:
        out["rounds_mean"], out["rounds_lo"], out["rounds_hi"] = mean_ci(per, confidence)
        out["rounds_median"] = float(np.median(per))
        out["rounds_p90"] = float(np.percentile(per, 90))
    else:
        out["rounds_mean"], out["rounds_lo"], out["rounds_hi"] = nan3
        out["rounds_median"] = out["rounds_p90"] = float("nan")
    pts = rounds["points"].to_numpy(dtype=np.float64)[~rounds["truncated"].to_numpy(bool)]
    out["points_mean"], out["points_lo"], out["points_hi"] = (
        mean_ci(pts, confidence) if pts.size else nan3
    )
    return out
