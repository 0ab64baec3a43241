"""What every analysis shares: scale, cached simulations, provenance, figures, the CLI.

Simulations are cached as Parquet under ``results/reports/`` (``--results``), one file
per run, named by a hash of its manifest (without the rule set's display name: rules
enter by their content hash) and of the source files that decide a game's outcome. A
rerun reuses a file whose key matches and which holds the columns asked for; anything
else is simulated again. Every run an analysis asks for is recorded, so its page can
list exactly which rule sets, players, strategies, seeds and games it rests on.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import unosim  # noqa: E402
from unosim.game import names as N  # noqa: E402
from unosim.game.rules import RuleSet, resolve  # noqa: E402
from unosim.kernel import code_digest, kernel_sources  # noqa: E402
from unosim.report import escape as esc  # noqa: E402
from unosim.report.page import Page, ci, num, pct, write_index  # noqa: E402
from unosim.report.palette import colour as palette_colour  # noqa: E402
from unosim.sim.results import atomic_path, publish, read_manifest, write_parquet  # noqa: E402
from unosim.stats import mean_ci, quantile_ci, wilson_ci  # noqa: E402
from unosim.versions import KERNEL_BEHAVIOUR_VERSION  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# rounds simulated per kernel call for a page (the games do not depend on it): some 22 MB
# of raw records a call
PAGE_BLOCK = 1 << 17
SEED = 2026  # one root seed for every analysis: the same games under every rule set
MIN_GAMES = 200  # floor of a scaled-down run (tests build every page at a tiny scale)
ANALYSES = ("seats", "length", "points", "stacking", "house-rules", "editions", "skill")
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
INDEX_INTRO = (
    "One page per question, built by `make reports` from simulations run "
    "for it; each opens with its answer in plain words and its main figure, "
    "and every number comes from the results, with its 95% interval in the "
    "tables below. `SCALE=10 make reports` runs ten times the games."
)
# realistic players beside random ones: the `table` model when this version
# has it (see realistic())
REALISTIC = "table"

plt.rcParams.update(
    {
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "font.size": 9,
        "figure.constrained_layout.use": True,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "legend.frameon": False,
    }
)


def _fingerprint_files() -> list[Path]:
    """The sources that decide simulated outcomes and cached results: kernel, rules,
    APIs, the engine, tournaments and tunings (``cached_json``), and the expert's
    defaults and policy (a label ``expert`` stands for them). The Makefile's
    ``REPORT_DEPS`` lists them too."""
    pkg = Path(unosim.__file__).resolve().parent
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
    return files + kernel_sources()


_FINGERPRINTS: dict[tuple, str] = {}  # the files' names, times and sizes -> their hash


def _source_fingerprint() -> str:
    """Hash of the code of ``_fingerprint_files`` (``unosim.kernel.code_digest``: without
    docstrings, comments or layout, which decide no result); hashed again only when a
    file's time or size changed (a page asks once a run)."""
    files = [f for f in _fingerprint_files() if f.exists()]
    stats = tuple((str(f), st.st_mtime_ns, st.st_size) for f in files for st in [f.stat()])
    if stats not in _FINGERPRINTS:
        _FINGERPRINTS[stats] = code_digest(files)[:16]
    return _FINGERPRINTS[stats]


def _cache_key(manifest: dict, kind: str) -> str:
    keyed = {k: v for k, v in manifest.items() if k not in ("rules_name", "rules_toml")}
    keyed["kind"] = kind
    keyed["sources"] = _source_fingerprint()
    text = json.dumps(keyed, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


@contextlib.contextmanager
def _key_lock(path: Path):
    """Hold an exclusive lock on the cached result ``path`` while it is looked up and,
    if missing, computed and written: two pages built at once (``make reports`` builds
    the skill page beside the others) compute a shared run once, the second reading
    what the first wrote. The lock files live in ``.locks/`` beside the results."""
    locks = path.parent / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    with open(locks / f"{path.name}.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@dataclass
class Run:
    """One simulation an analysis used (a row of its provenance table)."""

    kind: str  # "rounds" or "matches"
    rules: RuleSet
    players: int
    strategies: str
    seed: int
    games: int
    key: str
    cached: bool
    seconds: float


@dataclass
class Context:
    """Scale, folders and the record of runs of one analysis."""

    name: str
    scale: float = 1.0
    out: Path = ROOT / "reports"
    results: Path = ROOT / "results" / "reports"
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
        from unosim.sim.simulate import make_job

        rs = rules if isinstance(rules, RuleSet) else resolve(rules)
        seed = self.seed if seed is None else int(seed)
        job = make_job(rs, self.games(base_games), players, strategies, seed)
        manifest = job.manifest()
        key = _cache_key(manifest, "rounds")
        path = self.results / f"rounds-{key}.parquet"
        cols = list(dict.fromkeys(["game", *columns]))
        t0 = time.perf_counter()
        # the file keeps at least ROUND_COLUMNS, so every page can reuse it
        store = list(dict.fromkeys([*ROUND_COLUMNS, *cols]))
        with _key_lock(path):
            return self._rounds_locked(job, rs, key, path, cols, store, t0, strategies)

    def _rounds_locked(self, job, rs, key, path, cols, store, t0, strategies) -> pd.DataFrame:
        """:meth:`rounds` once its file is locked: read it, or simulate and write it."""
        from unosim.sim.simulate import iter_frames

        players, seed, manifest = job.n_players, job.seed, job.manifest()
        if path.exists():
            stored = read_manifest(path).get("columns", [])
            if set(cols) <= set(stored):
                df = pd.read_parquet(path, columns=cols)
                df.attrs["manifest"] = manifest
                self._record("rounds", rs, players, strategies, job.n_games, key, True, t0, seed)
                return df
            store = list(dict.fromkeys([*stored, *store]))
        self.log(f"simulating {job.n_games:,} rounds: {rs.name}, {players} players, {strategies}")
        parts = [f[store] for f in iter_frames(job, self.cores(), PAGE_BLOCK)]
        full = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        del parts
        write_parquet(full, path, {**manifest, "cache_key": key, "columns": store})
        df = full[cols]
        del full
        df.attrs["manifest"] = manifest
        self._record("rounds", rs, players, strategies, job.n_games, key, False, t0, seed)
        return df

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
    ) -> pd.DataFrame | None:
        """Match rows (``unosim.simulate_matches``), cached; None without that API."""
        try:
            from unosim.sim.match import make_match_job, match_manifest, run_matches
        except ImportError:
            return None
        rs = rules if isinstance(rules, RuleSet) else resolve(rules)
        job = make_match_job(rs, self.games(base_matches), players, strategies, self.seed)
        manifest = match_manifest(job, "matches")
        key = _cache_key(manifest, "matches")
        path = self.results / f"matches-{key}.parquet"
        t0 = time.perf_counter()
        with _key_lock(path):
            if path.exists():
                df = pd.read_parquet(path)
                df.attrs["manifest"] = manifest
                self._record("matches", rs, players, strategies, job.n_games, key, True, t0)
                return df
            self.log(f"simulating {job.n_games:,} matches: {rs.name}, {players} players")
            mdf, rdf = run_matches(job, self.cores())
            # keep the match rows and, per match, the points of its completed rounds
            done = ~rdf["truncated"].to_numpy(bool)
            pts = np.bincount(
                rdf["match"].to_numpy()[done] - job.first_game,
                weights=rdf["points"].to_numpy()[done],
                minlength=len(mdf),
            )
            mdf = mdf.assign(points_total=pts.astype(np.int64))
            write_parquet(mdf, path, {**manifest, "cache_key": key})
            mdf.attrs["manifest"] = manifest
            self._record("matches", rs, players, strategies, job.n_games, key, False, t0)
            return mdf

    def cached_json(
        self,
        kind: str,
        spec: dict,
        compute,
        rules: RuleSet,
        players: int,
        strategies: str,
        games: int,
    ) -> dict:
        """A small JSON result of a computation that is not a plain simulation (a
        tuning, a tournament): ``compute()``, cached under a key of ``spec`` and the
        kernel sources like the simulation cache, and recorded in the provenance table
        as ``games`` rounds of ``strategies``."""
        key = _cache_key(spec, kind)
        path = self.results / f"{kind}-{key}.json"
        t0 = time.perf_counter()
        with _key_lock(path):
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
                rs,
                int(players),
                strategies,
                self.seed if seed is None else seed,
                int(games),
                key,
                cached,
                time.perf_counter() - t0,
            )
        )

    # -- provenance -----------------------------------------------------------------------
    def runs_table(self) -> pd.DataFrame:
        """One row per (kind, rule set, strategies, games, seed), listing player counts."""
        rows = []
        for r in self._distinct():
            rows.append(
                (r.kind, r.rules.name, r.rules.hash(), r.players, r.strategies, r.games, r.seed)
            )
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
                    "players": _ranges(sorted(set(g["players"]))),
                    "strategies": strat,
                    "games each": f"{games:,}" + (" matches" if kind == "matches" else " rounds"),
                    "seed": str(seed),
                }
            )
        return pd.DataFrame(out)

    def provenance(self, page: Page, notes: Sequence[str] = (), table: bool = True) -> None:
        """Close ``page`` with its provenance block (see :meth:`Page.provenance`); with
        ``table=False`` the runs are summarised in one line (the page lists them)."""
        import numba

        script = f"analyses/{self.name.replace('-', '_')}.py"
        scale = f" SCALE={self.scale:g}" if self.scale != 1 else ""
        command = (f"make report-{self.name}{scale}", f"python {script} --scale {self.scale:g}")
        from unosim.versions import RNG_VERSION, RULES_FORMAT_VERSION

        n_rounds = sum(r.games for r in self._distinct() if r.kind == "rounds")
        n_matches = sum(r.games for r in self._distinct() if r.kind == "matches")
        facts = {
            "unosim": f"{unosim.__version__} (RNG {RNG_VERSION}, kernel behaviour "
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
            f"aside: {self._keys()})",
        }
        runs = self.runs_table()
        if not table:
            seeds = sorted({r.seed for r in self._distinct()})
            facts["runs"] = (
                f"{len(runs)} runs of {len({r.rules.hash() for r in self.runs})} "
                f"rule sets, seeds {_ranges(seeds)} (see below for each run's "
                "rules, seed and games)"
            )
            runs = runs.iloc[:0]
        page.provenance(command, facts, runs, notes)

    def _distinct(self) -> list[Run]:
        seen, out = set(), []
        for r in self.runs:
            if r.key not in seen:
                seen.add(r.key)
                out.append(r)
        return out

    def _keys(self) -> str:
        n = len(self._distinct())
        return f"{n} file{'s' if n != 1 else ''}"


def _ranges(values: Sequence[int]) -> str:
    """[2, 3, 4, 6, 8] -> '2-4, 6, 8'."""
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(f"{values[i]}" if j == i else f"{values[i]}-{values[j]}")
        i = j + 1
    return ", ".join(out)


# ------------------------------------------------------------------------ statistics


def standard_games(rules: str, players: int, strategies: str = "random") -> int:
    """Default-scale rounds of a run, one policy for every page so that pages share
    their runs (the same key is the same cached file)."""
    if strategies != "random":
        return BASE_HEURISTIC
    if rules in RUNAWAY and players >= 5:
        return BASE_RUNAWAY
    return BASE_MAIN if players == 4 or rules == "official" else BASE_OTHER


def realistic() -> tuple[str, ...]:
    """The realistic player model(s) this version provides: ``("table",)`` or ``()``."""
    from unosim.players.strategies import STRATEGIES

    return (REALISTIC,) if REALISTIC in STRATEGIES else ()


def colour(name: str) -> str:
    """The one colour of a preset, rule set or player model, the same on every page
    (:mod:`unosim.report.palette`)."""
    return palette_colour(name)


strategy_colour = colour


# ------------------------------------------------------------------------ words
# Pages speak display names (unosim/game/names.py), not rule syntax: a preset, a
# rule-set name or a player model goes through these, escaped for where it goes.


def shown(name: str) -> str:
    """A preset or rule-set name in words, as Markdown text ("Official UNO",
    "stacking (same card)")."""
    return esc.md_text(N.display_preset(name))


def shown_fig(name: str) -> str:
    """A preset or rule-set name in words, for figure text."""
    return esc.mpl(N.display_preset(name))


def players(strategy: str, n: int | None = None, explained: bool = False) -> str:
    """Who is playing, in words ("4 random players"; with ``explained``, "table players
    (people who sometimes bluff and forget UNO)")."""
    return esc.md_text(N.display_players(strategy, n, explained))


def players_fig(strategy: str, n: int | None = None) -> str:
    """Who is playing, in words, for figure text."""
    return esc.mpl(N.display_players(strategy, n))


def noticeable(value: float, rate: bool = False) -> bool:
    """An effect a person would notice (``unosim.game.names.NOTICE``): ``value`` a
    relative change in %, or with ``rate`` a difference in percentage points."""
    return N.noticeable(value, rate)


def change(p: float, more: str = "longer", less: str = "shorter", digits: int = 1) -> str:
    """A relative change in % in words: "2.4% shorter", or "no practical difference"
    under the threshold of notice."""
    if not noticeable(p):
        return "no practical difference"
    return f"{num(abs(p), digits)}% {more if p > 0 else less}"


def pp_change(d: float, up: str = "up", down: str = "down", digits: int = 2) -> str:
    """A difference of a rate in percentage points (``d`` in points) in words: "0.84
    percentage points down", or "no practical difference" under the threshold."""
    if not noticeable(d, rate=True):
        return "no practical difference"
    return f"{num(abs(d), digits)} percentage points {up if d > 0 else down}"


def player_axis(ax, counts=PLAYER_COUNTS) -> None:
    """x axis of a metric against the number of players: every count a tick."""
    ax.set_xticks(list(counts))
    ax.set_xlabel("players at the table")


def symlog_percent(ax, lin: float = 10.0) -> None:
    """x axis of relative changes (%): linear within ±lin, logarithmic beyond, with
    plain signed tick labels; call after plotting (limits follow the data)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter

    lo, hi = ax.dataLim.x0, ax.dataLim.x1
    ax.set_xscale("symlog", linthresh=lin)

    def pad(v: float, up: bool) -> float:
        if abs(v) <= lin:
            return v + (2 if up else -2) * lin / 10
        return v * 1.35

    ax.set_xlim(pad(min(lo, 0.0), False), pad(max(hi, 0.0), True))
    lo, hi = ax.get_xlim()
    ticks = [t for t in (-100, -30, -10, -5, 0, 5, 10, 30, 100) if lo <= t <= hi]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(FixedLocator([]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:+g}" if v else "0"))


def plain_log(
    ax, axis: str = "x", ticks=(20, 30, 40, 50, 60, 80, 100, 200, 300, 500, 1000, 2000, 5000)
) -> None:
    """A log-scale axis labelled with plain numbers (``50``, not ``5×10^1``)."""
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    a = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
    a.set_major_locator(FixedLocator([t for t in ticks if lo <= t <= hi]))
    a.set_minor_locator(NullLocator())
    a.set_major_formatter(ScalarFormatter())


def forest(
    ax,
    labels: Sequence[str],
    est,
    lo,
    hi,
    colours: Sequence[str],
    offsets: Sequence[float] | None = None,
    marker: str = "o",
    label: str | None = None,
) -> None:
    """Horizontal dot-and-interval plot (one row per label, first at the top), a
    line at 0."""
    y = np.arange(len(labels)) + (0 if offsets is None else np.asarray(offsets))
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    for i in range(len(labels)):
        ax.errorbar(
            est[i],
            y[i],
            xerr=[[est[i] - lo[i]], [hi[i] - est[i]]],
            fmt=marker,
            ms=5,
            capsize=2,
            color=colours[i],
            label=label if i == 0 else None,
        )
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(np.arange(len(labels)), [esc.mpl(t) for t in labels])
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.margins(x=0.08)


def hist_panels(
    samples: dict[str, np.ndarray],
    colours: dict[str, str],
    xlabel: str,
    xmax: float,
    ncols: int = 4,
    unit: str = "",
    bins: int | None = None,
    integer: bool = True,
    height: float = 1.55,
    width: float = 11.0,
):
    """Small multiples: one histogram per sample (share of rounds, %), its mean marked;
    a shared x axis cut at ``xmax`` (what lies beyond is said in the panel)."""
    names = list(samples)
    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(width, height * nrows + 0.6), sharex=True, sharey=True, squeeze=False
    )
    for ax, name in zip(axes.flat, names):
        v = np.asarray(samples[name])
        if integer:
            step = max(1, int(math.ceil(xmax / 60)))
            edges = np.arange(0, xmax + step, step) - 0.5
        else:
            step = float(np.ceil(xmax / (bins or 60)))
            edges = np.arange(0, xmax + step, step)
        h, _ = np.histogram(v, bins=edges)
        ax.stairs(100 * h / len(v), edges, fill=True, color=colours[name], alpha=0.75)
        m = float(v.mean())
        ax.axvline(m, color="black", lw=1)
        beyond = float((v > xmax).mean())
        ax.set_title(esc.mpl(name), fontsize=8)
        ax.text(
            0.98,
            0.95,
            f"mean {num(m, 1)}{unit}"
            + (f"\n{pct(beyond)} beyond {num(xmax, 0)}" if beyond >= 0.0005 else ""),
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=7,
            bbox={"facecolor": "white", "alpha": 0.8, "lw": 0, "pad": 1},
        )
        ax.set_xlim(0, xmax)
    for ax in axes.flat[len(names) :]:
        ax.set_visible(False)
    for j in range(ncols):  # the lowest visible panel of each column carries the x axis
        col = [ax for ax in axes[:, j] if ax.get_visible()]
        if col:
            col[-1].xaxis.set_tick_params(labelbottom=True)
            col[-1].set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(f"% of rounds\nper {num(step, 0)}{unit or ' units'}")
    return fig


def by_players(
    stats: dict, names: Sequence[str], label: str, key: str, digits: int
) -> pd.DataFrame:
    """A table of ``stats[name, players][key]`` (estimate, low, high): one row per name
    (first column ``label``), one column per player count."""
    rows = []
    for name in names:
        row = {label: shown(name)}
        for n in PLAYER_COUNTS:
            row[f"{n}"] = ci(*stats[name, n][key], digits)
        rows.append(row)
    return pd.DataFrame(rows)


def rel(diff: float, base: float) -> float:
    """A difference as a percentage of a base value."""
    return 100.0 * diff / base if base else math.nan


def rate(k: int, n: int) -> tuple[float, float, float]:
    """``(k / n, lo, hi)`` with the Wilson interval."""
    lo, hi = wilson_ci(int(k), int(n))
    return (k / n if n else math.nan, lo, hi)


def describe(df: pd.DataFrame, n_players: int) -> dict:
    """Headline statistics of a frame of rounds, each with its 95% interval.

    Means and quantiles of ``turns`` and ``cards_played`` count every round (a truncated
    one at its censored length, reported beside them as ``truncated``); points use
    completed rounds only. Triples are ``(estimate, lo, hi)``.
    """
    n = len(df)
    trunc = df["truncated"].to_numpy(bool)
    done = ~trunc
    turns = df["turns"].to_numpy(np.float64)
    cards = df["cards_played"].to_numpy(np.float64)
    pts = df["points"].to_numpy(np.float64)[done]
    ms = df["max_stack"].to_numpy()
    out = {
        "games": n,
        "completed": int(done.sum()),
        "truncated": int(trunc.sum()),
        "trunc_rate": rate(int(trunc.sum()), n),
        "turns_mean": mean_ci(turns),
        "cards_mean": mean_ci(cards),
        "seat0": rate(int((df["winner"].to_numpy() == 0).sum()), n),
        "dealer": rate(int((df["winner"].to_numpy() == n_players - 1).sum()), n),
        "drawn_mean": mean_ci(df["cards_drawn"].to_numpy(np.float64)),
        "reshuffles_mean": float(df["reshuffles"].mean()),
        "max_stack_mean": mean_ci(ms.astype(np.float64)),
        "max_stack_q": np.quantile(ms, [0.5, 0.9, 0.99]),
        "max_stack_max": int(ms.max()),
        "stack_ge_8": rate(int((ms >= 8).sum()), n),
        "stack_ge_12": rate(int((ms >= 12).sum()), n),
    }
    for q, tag in ((0.5, "median"), (0.9, "p90"), (0.99, "p99")):
        out[f"turns_{tag}"] = quantile_ci(turns, q)
        out[f"cards_{tag}"] = quantile_ci(cards, q)
    if pts.size:
        out["points_mean"] = mean_ci(pts)
        out["points_median"] = quantile_ci(pts, 0.5)
        out["points_p90"] = quantile_ci(pts, 0.9)
        out["points_ge_100"] = rate(int((pts >= 100).sum()), pts.size)
        out["points_ge_200"] = rate(int((pts >= 200).sum()), pts.size)
    else:
        nan3 = (math.nan,) * 3
        for k in ("points_mean", "points_median", "points_p90", "points_ge_100", "points_ge_200"):
            out[k] = nan3
    return out


def leaders(values: dict[str, tuple[float, float, float]], highest: bool = True) -> list[str]:
    """The best name by estimate, then every other whose interval overlaps the best's
    (not separated from it at this scale), best first."""
    order = sorted(values, key=lambda k: values[k][0], reverse=highest)
    top = values[order[0]]
    tied = [k for k in order[1:] if (values[k][2] >= top[1] if highest else values[k][1] <= top[2])]
    return [order[0], *tied]


def names_and(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def half(t: tuple[float, float, float]) -> float:
    """Largest distance from the estimate to a bound of ``(est, lo, hi)``."""
    return max(t[0] - t[1], t[2] - t[0])


# ------------------------------------------------------------------------------ CLI


def scale_default() -> float:
    text = os.environ.get("SCALE", "1")
    try:
        return float(text)
    except ValueError:
        raise SystemExit(f"SCALE must be a number, got {text!r}") from None


def build(
    name: str,
    builder: Callable[[Context], Page],
    scale: float = 1.0,
    out: Path | None = None,
    results: Path | None = None,
    threads: int | None = None,
    quiet: bool = False,
) -> Page:
    """Build one page (and refresh the index); returns the written page."""
    ctx = Context(
        name,
        scale,
        Path(out) if out else ROOT / "reports",
        Path(results) if results else ROOT / "results" / "reports",
        threads=threads,
        quiet=quiet,
    )
    t0 = time.perf_counter()
    page = builder(ctx)
    page.write()
    write_index(ctx.out, ANALYSES, INDEX_INTRO)
    ctx.log(f"wrote {ctx.out / (name + '.md')} and .html in {time.perf_counter() - t0:.0f} s")
    return page


def main(name: str, builder: Callable[[Context], Page], doc: str | None = None) -> None:
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument(
        "--scale",
        type=float,
        default=scale_default(),
        help="games relative to the default (env SCALE, default 1)",
    )
    ap.add_argument("--out", type=Path, default=None, help="reports folder (reports/)")
    ap.add_argument(
        "--results", type=Path, default=None, help="cache of simulations (results/reports/)"
    )
    ap.add_argument("--threads", type=int, default=None, help="numba threads")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.scale <= 0:
        raise SystemExit("--scale must be positive")
    build(name, builder, a.scale, a.out, a.results, a.threads, a.quiet)
