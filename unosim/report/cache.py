"""The report pages' cache: simulations, small computed results, and each page's Results.

A page is built in two steps. ``compute(ctx) -> Results`` asks a :class:`Context` for the
simulations it needs and reduces them to frames and numbers; ``render(results) -> Page``
turns those into words and figures. Three things are cached under ``results/reports/``:

- a simulation, as Parquet, one file per run (:meth:`Context.rounds`, :meth:`Context.matches`),
  named by a hash of its manifest (without the rule set's display name: rules enter by
  their content hash) and of the source files that decide a game's outcome; a rerun reuses
  a file whose key matches and which holds the columns asked for;
- a small computation that is not a plain simulation (a tuning, a tournament, replayed
  traces) as JSON (:meth:`Context.cached_json`), keyed the same way;
- a page's :class:`Results` (``pages/<name>-<scale>-<seed>.npz``), written by every full
  build and read by a render-only one (:func:`load_results`), which simulates nothing.

Every run a page asks for is recorded (:class:`Run`), so its page can list exactly which
rule sets, players, strategies, seeds and games it rests on (:meth:`Results.provenance`).
Files are written whole or not at all; a lock per key lets two pages built at once compute
a shared run once.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._version import __version__
from ..game.rules import RuleSet, resolve
from ..kernel import code_digest, kernel_sources
from ..sim.results import atomic_path, publish, read_manifest, write_parquet
from . import escape as esc

__all__ = [
    "SEED",
    "MIN_GAMES",
    "ROUND_COLUMNS",
    "PLAYER_COUNTS",
    "Run",
    "Context",
    "Results",
    "standard_games",
    "load_results",
    "fingerprint_files",
    "cache_key",
]

# rounds simulated per kernel call for a page (the games do not depend on it): some 22 MB
# of raw records a call
PAGE_BLOCK = 1 << 17
SEED = 2026  # one root seed for every analysis: the same games under every rule set
MIN_GAMES = 200  # floor of a scaled-down run (tests build every page at a tiny scale)
# the RULES.md section 6 columns that are not per seat: one cached file serves every page
ROUND_COLUMNS = (
    "game",
    "winner",
    "first_player",
    "turns",
    "cards_played",
    "cards_drawn",
    "reshuffles",
    "points",
    "max_stack",
    "challenges",
    "bluffs",
    "uno_penalties",
    "truncated",
)
PLAYER_COUNTS = tuple(range(2, 11))  # every player count a page speaks of
BASE_MAIN = 1_000_000  # rounds per run at 4 players, and for `official` at any count
BASE_OTHER = 250_000  # rounds per run of other rule sets at other player counts
BASE_HEURISTIC = 300_000  # rounds per run with heuristic players
# rule sets whose rounds run 10-30 times longer at 5+ players (the length page says
# why): fewer rounds there keep `make reports` short, at wider but stated intervals
RUNAWAY = ("motu",)
BASE_RUNAWAY = 50_000


def standard_games(rules: str, players: int, strategies: str = "random") -> int:
    """Default-scale rounds of a run, one policy for every page so that pages share
    their runs (the same key is the same cached file)."""
    if strategies != "random":
        return BASE_HEURISTIC
    if rules in RUNAWAY and players >= 5:
        return BASE_RUNAWAY
    return BASE_MAIN if players == 4 or rules == "official" else BASE_OTHER


# ------------------------------------------------------------------------ cache keys


def fingerprint_files() -> list[Path]:
    """The sources that decide simulated outcomes and cached results: the kernel
    (:func:`unosim.kernel.kernel_sources`, wherever its files live), rules, APIs, the
    engine, tournaments and tunings (``cached_json``), and the expert's defaults and
    policy (a label ``expert`` stands for them). The Makefile's ``REPORT_DEPS`` lists
    them too."""
    pkg = Path(__file__).resolve().parent.parent
    files = [
        pkg / n
        for n in (
            "game/cards.py",
            "players/strategies.py",
            "game/rules.py",
            "players/seats.py",
            "sim/engine.py",
            "sim/simulate.py",
            "sim/results.py",
            "sim/match.py",
            "players/expert.py",
            "sim/assembled.py",
            "analysis/tournament.py",
            "analysis/tune.py",
        )
    ]
    return files + list(kernel_sources())


_FINGERPRINTS: dict[tuple, str] = {}  # the files' names, times and sizes -> their hash


def source_fingerprint() -> str:
    """Hash of the code of :func:`fingerprint_files` (``unosim.kernel.code_digest``:
    without docstrings, comments or layout, which decide no result); hashed again only
    when a file's time or size changed (a page asks once a run)."""
    files = [f for f in fingerprint_files() if f.exists()]
    stats = tuple((str(f), st.st_mtime_ns, st.st_size) for f in files for st in [f.stat()])
    if stats not in _FINGERPRINTS:
        _FINGERPRINTS[stats] = code_digest(files)[:16]
    return _FINGERPRINTS[stats]


def cache_key(manifest: dict, kind: str) -> str:
    """The key of a cached result: its manifest (less the rule set's display name and
    TOML text), its kind and :func:`source_fingerprint`."""
    keyed = {k: v for k, v in manifest.items() if k not in ("rules_name", "rules_toml")}
    keyed["kind"] = kind
    keyed["sources"] = source_fingerprint()
    text = json.dumps(keyed, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


@contextlib.contextmanager
def key_lock(path: Path):
    """Hold an exclusive lock on the cached result ``path`` while it is looked up and,
    if missing, computed and written: two pages built at once compute a shared run
    once, the second reading what the first wrote. The lock files live in ``.locks/``
    beside the results."""
    locks = path.parent / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    with open(locks / f"{path.name}.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


# ------------------------------------------------------------------------ the context


@dataclass
class Run:
    """One simulation a page used (a row of its provenance table)."""

    kind: str  # "rounds" or "matches"
    rules_name: str
    rules_hash: str
    players: int
    strategies: str
    seed: int
    games: int
    key: str
    cached: bool
    seconds: float


@dataclass
class Context:
    """What a page's ``compute`` step is given: the scale, the cache folder, the root
    seed, and the record of the runs it asks for."""

    name: str
    scale: float = 1.0
    out: Path = Path("reports")
    results: Path = Path("results") / "reports"
    seed: int = SEED
    threads: int | None = None
    quiet: bool = False
    runs: list[Run] = field(default_factory=list)

    def cores(self) -> int | None:
        """numba threads for this page's runs (None: numba's, every core unless
        ``NUMBA_NUM_THREADS`` says fewer, as `make reports` does)."""
        return self.threads

    def games(self, base: int) -> int:
        """``base`` games (the default scale's) times the scale, at least MIN_GAMES."""
        return max(MIN_GAMES, int(round(base * self.scale)))

    def log(self, msg: str) -> None:
        if not self.quiet:
            print(f"[{self.name}] {msg}", file=sys.stderr, flush=True)

    def results_of(self, values: dict) -> Results:
        """The page's :class:`Results`: ``values`` with this context's scale, seed and runs."""
        return Results(self.name, self.scale, self.seed, values, list(self.runs))

    def provenance(self, page, notes: Sequence[str] = (), table: bool = True) -> None:
        """:meth:`Results.provenance` of the runs so far (for a page built in one step)."""
        self.results_of({}).provenance(page, notes, table)

    # -- cached simulations -------------------------------------------------------------
    def rounds(
        self,
        rules: str | RuleSet,
        players: int,
        base_games: int,
        strategies: str = "random",
        columns: Sequence[str] = ROUND_COLUMNS,
        seed: int | None = None,
    ) -> pd.DataFrame:
        """Rounds ``0 .. games - 1`` of ``seed`` (default ``self.seed``; ``games`` = scaled
        ``base_games``), the given columns, from the cache or simulated;
        ``attrs['manifest']`` set."""
        from ..sim.simulate import make_job

        rs = rules if isinstance(rules, RuleSet) else resolve(rules)
        seed = self.seed if seed is None else int(seed)
        job = make_job(rs, self.games(base_games), players, strategies, seed)
        key = cache_key(job.manifest(), "rounds")
        path = self.results / f"rounds-{key}.parquet"
        cols = list(dict.fromkeys(["game", *columns]))
        t0 = time.perf_counter()
        with key_lock(path):
            df, cached = self._rounds_locked(job, rs, key, path, cols, strategies)
        df.attrs["manifest"] = job.manifest()
        self._record("rounds", rs, players, strategies, job.n_games, key, cached, t0, seed)
        return df

    def _rounds_locked(self, job, rs, key, path, cols, strategies) -> tuple[pd.DataFrame, bool]:
        """:meth:`rounds` once its file is locked: read it, or simulate and write it
        (the file keeps at least ROUND_COLUMNS, so every page can reuse it)."""
        from ..sim.simulate import iter_frames

        store = list(dict.fromkeys([*ROUND_COLUMNS, *cols]))
        if path.exists():
            stored = read_manifest(path).get("columns", [])
            if set(cols) <= set(stored):
                return pd.read_parquet(path, columns=cols), True
            store = list(dict.fromkeys([*stored, *store]))
        self.log(
            f"simulating {job.n_games:,} rounds: {rs.name}, {job.n_players} players, {strategies}"
        )
        parts = [f[store] for f in iter_frames(job, self.cores(), PAGE_BLOCK)]
        full = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        del parts
        write_parquet(full, path, {**job.manifest(), "cache_key": key, "columns": store})
        return full[cols], False

    def standard(
        self,
        rules: str,
        players: int,
        strategies: str = "random",
        columns: Sequence[str] = ROUND_COLUMNS,
    ) -> pd.DataFrame:
        """The shared run of a preset (:func:`standard_games` rounds), ``columns`` of it
        (the cached file holds them all)."""
        return self.rounds(
            rules, players, standard_games(rules, players, strategies), strategies, columns
        )

    def matches(
        self, rules: str | RuleSet, players: int, base_matches: int, strategies: str = "random"
    ) -> pd.DataFrame:
        """Match rows (``unosim.sim.match``), with ``points_total`` (the points of each
        match's completed rounds), cached."""
        from ..sim.match import make_match_job, match_manifest, run_matches

        rs = rules if isinstance(rules, RuleSet) else resolve(rules)
        job = make_match_job(rs, self.games(base_matches), players, strategies, self.seed)
        manifest = match_manifest(job, "matches")
        key = cache_key(manifest, "matches")
        path = self.results / f"matches-{key}.parquet"
        t0 = time.perf_counter()
        with key_lock(path):
            cached = path.exists()
            if cached:
                mdf = pd.read_parquet(path)
            else:
                self.log(f"simulating {job.n_games:,} matches: {rs.name}, {players} players")
                mdf, rdf = run_matches(job, self.cores())
                done = ~rdf["truncated"].to_numpy(bool)
                pts = np.bincount(
                    rdf["match"].to_numpy()[done] - job.first_game,
                    weights=rdf["points"].to_numpy()[done],
                    minlength=len(mdf),
                )
                mdf = mdf.assign(points_total=pts.astype(np.int64))
                write_parquet(mdf, path, {**manifest, "cache_key": key})
        mdf.attrs["manifest"] = manifest
        self._record("matches", rs, players, strategies, job.n_games, key, cached, t0)
        return mdf

    def cached_json(
        self,
        kind: str,
        spec: dict,
        compute: Callable[[], Any],
        rules: RuleSet,
        players: int,
        strategies: str,
        games: int,
    ) -> Any:
        """A small JSON result of a computation that is not a plain simulation (a
        tuning, a tournament): ``compute()``, cached under a key of ``spec`` and the
        sources like the simulation cache, and recorded in the provenance table as
        ``games`` rounds of ``strategies``."""
        key = cache_key(spec, kind)
        path = self.results / f"{kind}-{key}.json"
        t0 = time.perf_counter()
        with key_lock(path):
            cached = path.exists()
            if cached:
                res = json.loads(path.read_text())
            else:
                res = compute()
                tmp = atomic_path(path)
                tmp.write_text(json.dumps(res, sort_keys=True))
                publish(tmp, path)
        self._record("rounds", rules, players, strategies, games, key, cached, t0)
        return res

    def _record(
        self, kind, rs, players, strategies, games, key, cached, t0, seed: int | None = None
    ) -> None:
        self.runs.append(
            Run(
                kind,
                rs.name,
                rs.hash(),
                int(players),
                strategies,
                self.seed if seed is None else int(seed),
                int(games),
                key,
                bool(cached),
                time.perf_counter() - t0,
            )
        )


# ------------------------------------------------------------------------ results


@dataclass
class Results:
    """What a page's ``compute`` step returns and its ``render`` step reads: ``values``
    (nested dicts, lists and tuples of numbers, strings, NumPy arrays and DataFrames),
    the scale and root seed they were computed at, and the runs they rest on.
    ``results["key"]`` reads ``values["key"]``."""

    name: str
    scale: float
    seed: int
    values: dict
    runs: list[Run] = field(default_factory=list)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def games(self, base: int) -> int:
        """``base`` games at this scale (:meth:`Context.games`)."""
        return max(MIN_GAMES, int(round(base * self.scale)))

    # -- provenance -----------------------------------------------------------------------
    def _distinct(self) -> list[Run]:
        seen, out = set(), []
        for r in self.runs:
            if r.key not in seen:
                seen.add(r.key)
                out.append(r)
        return out

    def runs_table(self) -> pd.DataFrame:
        """One row per (kind, rule set, strategies, games, seed), listing player counts."""
        rows = [
            (r.kind, r.rules_name, r.rules_hash, r.players, r.strategies, r.games, r.seed)
            for r in self._distinct()
        ]
        df = pd.DataFrame(
            rows, columns=["kind", "rules", "hash", "players", "strategies", "games", "seed"]
        )
        out = []
        for (kind, name, h, strat, games, seed), g in df.groupby(
            ["kind", "rules", "hash", "strategies", "games", "seed"], sort=False
        ):
            out.append(
                {
                    "rule set": esc.code(name),
                    "rules hash": esc.code(h),
                    "players": ranges(sorted(set(g["players"]))),
                    "strategies": strat,
                    "games each": f"{games:,}" + (" matches" if kind == "matches" else " rounds"),
                    "seed": str(seed),
                }
            )
        return pd.DataFrame(out)

    def provenance(self, page, notes: Sequence[str] = (), table: bool = True) -> None:
        """Close ``page`` with its provenance block (:meth:`unosim.report.page.Page.provenance`);
        with ``table=False`` the runs are summarised in one line (the page lists them)."""
        import matplotlib
        import numba

        from ..versions import KERNEL_BEHAVIOUR_VERSION, RNG_VERSION, RULES_FORMAT_VERSION

        script = f"analyses/{self.name.replace('-', '_')}.py"
        scale = f" SCALE={self.scale:g}" if self.scale != 1 else ""
        command = (f"make report-{self.name}{scale}", f"python {script} --scale {self.scale:g}")
        distinct = self._distinct()
        n_rounds = sum(r.games for r in distinct if r.kind == "rounds")
        n_matches = sum(r.games for r in distinct if r.kind == "matches")
        files = f"{len(distinct)} file{'s' if len(distinct) != 1 else ''}"
        facts = {
            "unosim": f"{__version__} (RNG {RNG_VERSION}, kernel behaviour "
            f"{KERNEL_BEHAVIOUR_VERSION}, rules format {RULES_FORMAT_VERSION}); numba "
            f"{numba.__version__}, "
            f"numpy {np.__version__}, pandas {pd.__version__}, "
            f"matplotlib {matplotlib.__version__}",
            "scale": f"{self.scale:g} (`SCALE={self.scale:g}`; the default scale is 1)",
            "root seed": f"{self.seed} unless a run says otherwise: game `i` of a run is "
            "keyed by `(seed, i)`, so the same game index of the same seed "
            "starts from the same deal under every rule set with the same "
            "deck",
            "simulated": f"{n_rounds:,} rounds"
            + (f" and {n_matches:,} matches" if n_matches else ""),
            "intervals": "95%: Wilson for rates, Student t for means, order statistics "
            "for quantiles, paired (per-game differences) for comparisons",
            "cache": f"`results/reports/` (one Parquet file per run, keyed by its "
            f"manifest and the code of the simulation, docstrings and comments "
            f"aside: {files})",
        }
        runs = self.runs_table()
        if not table:
            seeds = sorted({r.seed for r in distinct})
            facts["runs"] = (
                f"{len(runs)} runs of {len({r.rules_hash for r in self.runs})} "
                f"rule sets, seeds {ranges(seeds)} (see below for each run's "
                "rules, seed and games)"
            )
            runs = runs.iloc[:0]
        page.provenance(command, facts, runs, notes)

    # -- storage --------------------------------------------------------------------------
    def save(self, folder: Path) -> Path:
        """Write to ``folder/pages/<name>-<scale>-<seed>.npz`` (whole or not at all):
        the arrays as NumPy arrays, the structure around them as JSON in the same file."""
        arrays: dict[str, np.ndarray] = {}
        structure = {
            "format": RESULTS_FORMAT,
            "name": self.name,
            "scale": self.scale,
            "seed": self.seed,
            "sources": source_fingerprint(),
            "runs": [asdict(r) for r in self.runs],
            "values": _encode(self.values, arrays),
        }
        text = json.dumps(structure, sort_keys=True, allow_nan=True)
        arrays["__structure__"] = np.frombuffer(text.encode(), dtype=np.uint8)
        path = results_path(folder, self.name, self.scale, self.seed)
        tmp = atomic_path(path)
        savez: Any = np.savez  # (its stubs take the arrays for its keywords)
        with open(tmp, "wb") as f:
            savez(f, **arrays)
        publish(tmp, path)
        return path


RESULTS_FORMAT = 1  # of the stored Results files; a file of another format is computed again


def results_path(folder: Path, name: str, scale: float, seed: int) -> Path:
    """Where the :class:`Results` of page ``name`` at ``scale`` and ``seed`` are stored."""
    return Path(folder) / "pages" / f"{name}-{scale:g}-{seed}.npz"


def load_results(folder: Path, name: str, scale: float, seed: int = SEED) -> Results:
    """The stored :class:`Results` of page ``name`` (no code runs: arrays are read
    without pickle); ``FileNotFoundError`` or ``ValueError`` with a one-line reason."""
    path = results_path(folder, name, scale, seed)
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: no stored results of page {name!r} at scale {scale:g} (build it once)"
        )
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        structure = json.loads(arrays.pop("__structure__").tobytes().decode())
        if structure.get("format") != RESULTS_FORMAT or structure.get("name") != name:
            raise ValueError("of another format or page")
        runs = [Run(**r) for r in structure["runs"]]
        values = _decode(structure["values"], arrays)
    except (OSError, KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{path}: unreadable page results ({e})") from None
    return Results(name, float(structure["scale"]), int(structure["seed"]), values, runs)


def _encode(value: Any, arrays: dict[str, np.ndarray]) -> Any:
    """``value`` as JSON-able data, its arrays moved to ``arrays`` (see :func:`_decode`)."""
    if isinstance(value, pd.DataFrame):
        index = None
        if not (isinstance(value.index, pd.RangeIndex) and value.index.start == 0):
            index = value.index.name or "index"
            value = value.reset_index(names=index)
        cols = []
        for c in value.columns:
            col = value[c].to_numpy()
            if col.dtype == object:
                col = col.astype(str)
            cols.append(_encode(col, arrays))
        return {"__frame__": [_encode(list(value.columns), arrays), cols, index]}
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            raise TypeError("an array of Python objects cannot be stored")
        ref = f"a{len(arrays)}"
        arrays[ref] = value
        return {"__array__": ref}
    if isinstance(value, (np.integer, np.bool_)):
        return value.item()
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {"__dict__": {k: _encode(v, arrays) for k, v in value.items()}}
        return {"__items__": [[_encode(k, arrays), _encode(v, arrays)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v, arrays) for v in value]}
    if isinstance(value, list):
        return [_encode(v, arrays) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot store a {type(value).__name__} in page results")


def _decode(value: Any, arrays: dict[str, np.ndarray]) -> Any:
    """The inverse of :func:`_encode`."""
    if isinstance(value, list):
        return [_decode(v, arrays) for v in value]
    if not isinstance(value, dict):
        return value
    (tag, inner), *_ = value.items()
    if tag == "__array__":
        return arrays[inner]
    if tag == "__dict__":
        return {k: _decode(v, arrays) for k, v in inner.items()}
    if tag == "__items__":
        return {_decode(k, arrays): _decode(v, arrays) for k, v in inner}
    if tag == "__tuple__":
        return tuple(_decode(v, arrays) for v in inner)
    if tag == "__frame__":
        names, cols, index = inner
        df = pd.DataFrame({n: _decode(c, arrays) for n, c in zip(_decode(names, arrays), cols)})
        return df if index is None else df.set_index(index)
    raise ValueError(f"unknown tag {tag!r}")


def ranges(values: Sequence[int]) -> str:
    """[2, 3, 4, 6, 8] -> '2-4, 6, 8'."""
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(f"{values[i]}" if j == i else f"{values[i]}-{values[j]}")
        i = j + 1
    return ", ".join(out)
