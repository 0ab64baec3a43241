"""The strength ladder: an agent's rate of rounds won against built-in opponents.

Against each opponent strategy the agent takes each seat in turn on the same
pre-declared deals, games ``0 .. per_seat - 1`` of root seed ``seed``, which do not
depend on the agent. Beside it, on the same deals and seats, reference rows: built-in
``random`` (against 3 random its rate is exactly 1/4: each deal is played once from
every seat, and all-random games do not depend on which seat is "the player"), the
best built-in strategy of those tried, the ``expert`` and ``see-all-hands``, the same
expert dealt the true hands in its search (``deal=open``: a cheating upper bound of what
knowing the hidden cards is worth). A row with an expert at the table plays the first
``expert_games`` of the deals (its searches cost ~1,000 times more). Against 3 experts
the expert's own row would be exactly 1/4 and is not played, nor is see-all-hands.
Intervals are Wilson's 95% (taking the rounds as independent, which the shared deals
make only approximately true).

With ``matches``: the rate of matches won (RULES.md 7, to ``target_score``) by the
agent, ``random`` and the best built-in as each player in turn, on the same matches
(``sim.assembled``: built from single rounds, which no strategy's decisions tie to the
scores; an agent sees no scores there).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..kernel import layout as L
from ..players.agents import is_agent_spec
from ..players.expert import STRONG, STRONG_FAST, TUNED, options
from ..sim.assembled import assembled_matches
from ..sim.simulate import make_job, run_block
from ..stats import wilson_ci

OPPONENTS = ("random", "heuristic", "table", "tuned-weighted", "expert")
BUILTINS = ("heuristic", "table", "aggressive", "colour-counter", "weighted")
COLUMNS = ["player", "opponents", "rounds", "win_rate", "ci_low", "ci_high"]
MATCH_COLUMNS = ["player", "opponents", "matches", "win_rate", "ci_low", "ci_high"]
EXPERT = "expert"  # the expert of the reference rows and opponents: its default budget
EXPERT_GAMES = 2_000  # rounds of a row with an expert at the table (shared over the seats)
ORDER = ("agent", "random", "best", "expert", "see-all-hands")


@dataclass(frozen=True)
class Ladder:
    table: pd.DataFrame
    best: str | None
    expert: str  # the expert's strategy label (``see-all-hands`` adds ``deal=open``)
    matches: pd.DataFrame | None = None  # ``MATCH_COLUMNS``, with ``matches``
    kept: int = 0  # rows read from the cache of reference rows


def expert_spec(expert: str = EXPERT) -> str:
    """The expert strategy ``expert`` names: ``strong`` for ``players.expert.STRONG``
    (the strength budget), ``strong-fast`` for ``STRONG_FAST`` (its strength at about
    11 times its speed), else an ``expert[:params]`` label as given (checked)."""
    if expert == "strong":
        return STRONG
    if expert == "strong-fast":
        return STRONG_FAST
    name, _, rest = expert.partition(":")
    if name.strip() != "expert":
        raise ValueError(
            f"--expert must be 'strong', 'strong-fast' or expert[:PARAMS], got {expert!r}"
        )
    options(rest)  # a bad parameter fails here, before any game
    return expert


def open_spec(expert: str) -> str:
    """``expert`` dealt the true hands (``deal=open``): the see-all-hands player."""
    name, _, rest = expert.partition(":")
    return f"{name}:{rest};deal=open" if rest.strip() else f"{name}:deal=open"


def cache_dir() -> Path:
    """Where reference rows are kept: ``UNOSIM_CACHE_DIR/ladder``, else the user's cache
    folder (``$XDG_CACHE_HOME`` or ``~/.cache``) ``/unosim/ladder``."""
    root = os.environ.get("UNOSIM_CACHE_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "unosim")
    return Path(root) / "ladder"


def _row_key(player: str, opponent: str, rules, n, per_seat, seed, house) -> dict:
    """Everything a built-in row's result depends on: the two strategies' labels, the
    rule set's content hash, the seating, the deals, and the versions of the kernel's
    behaviour, the random streams and the package."""
    from .._version import __version__
    from ..game.rules import resolve
    from ..kernel import KERNEL_BEHAVIOUR
    from ..kernel.rng import RNG_VERSION

    return {
        "player": player,
        "opponent": opponent,
        "rules": resolve(rules, house).hash(),
        "players": int(n),
        "per_seat": int(per_seat),
        "seed": int(seed),
        "kernel_behaviour": KERNEL_BEHAVIOUR,
        "rng": RNG_VERSION,
        "unosim": __version__,
    }


def _kept_row(player, opponent, rules, n, per_seat, seed, house, folder: Path | None):
    """Where a row of built-in players is kept in ``folder`` (its results depend only on
    ``_row_key``), that key, and its (won, played) if an earlier run kept it there: a
    file is used only if it holds exactly this key and a count that fits it. (None,
    None, None) for a row with an agent, or no folder."""
    if folder is None or not all(
        isinstance(s, str) and not is_agent_spec(s) for s in (player, opponent)
    ):
        return None, None, None
    key = _row_key(player, opponent, rules, n, per_seat, seed, house)
    text = json.dumps(key, sort_keys=True)
    path = folder / f"{hashlib.sha256(text.encode()).hexdigest()[:32]}.json"
    try:
        got = json.loads(path.read_text(encoding="utf-8"))
        won, played = got["won"], got["played"]
        if (
            got["key"] == key
            and type(won) is int
            and type(played) is int
            and played == n * per_seat
            and 0 <= won <= played
        ):
            return path, key, (won, played)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no file, or not one this run can trust: the row is played again
    return path, key, None


def _keep_row(path: Path, key: dict, won: int, played: int) -> None:
    """Write a played row (``_row_key`` ``key``) to ``path``: whole, then renamed into
    place. A folder that cannot be written only costs the next run the row again."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "won": won, "played": played}), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def _wins(player, opponent, rules, n, per_seat, seed, house) -> tuple[int, int]:
    """Rounds won and played by ``player`` seated at each seat in turn."""
    won = played = 0
    for s in range(n):
        spec = [opponent] * n
        spec[s] = player
        job = make_job(rules, per_seat, n, spec, seed, house)
        raw = run_block(job, 0, per_seat)
        won += int((raw[:, L.C_WINNER] == s).sum())
        played += per_seat
    return won, played


def _match_wins(player, opponent, rules, n, per_player, seed, house) -> tuple[int, int]:
    """Matches won and played by ``player`` as each player in turn (the same matches)."""
    won = played = 0
    for p in range(n):
        spec = [opponent] * n
        spec[p] = player
        df = assembled_matches(rules, spec, per_player, seed, house=house)
        won += int((df.winner == p).sum())
        played += per_player
    return won, played


def _row(player, opponents, won, played):
    lo, hi = wilson_ci(won, played)
    return {
        "player": player,
        "opponents": opponents,
        "rounds": played,
        "win_rate": won / played,
        "ci_low": lo,
        "ci_high": hi,
    }


def ladder(
    agent,
    rules="official",
    n_players: int = 4,
    games: int = 20_000,
    seed: int = 2026,
    house=None,
    opponents=OPPONENTS,
    expert_games: int = EXPERT_GAMES,
    expert: str = EXPERT,
    matches: int = 0,
    progress: Callable[[str], None] | None = None,
    cache: Path | None = None,
) -> Ladder:
    """The ladder of ``agent`` (a seat label or an agent object): one row per opponent
    strategy for ``agent``, ``random`` and the best built-in, ``games`` rounds each
    (shared over the seats), and for ``expert`` and ``see-all-hands`` (``expert_spec``),
    ``expert_games`` rounds each; rows against ``expert`` opponents play
    ``expert_games`` rounds too. ``progress`` is told, before each row is played, which
    (``"3/21 expert against random"``, ``"... (kept)"`` for a row read from ``cache``).
    With ``cache`` (a folder, e.g. :func:`cache_dir`), rows of built-in players against
    built-in opponents, which do not depend on the agent, are read from it when an
    earlier ladder played them, and kept there otherwise (``Ladder.kept`` counts them)."""
    xs = expert_spec(expert)
    plain = sum(o != "expert" for o in opponents)  # rows: agent, random, built-ins, 2 experts
    steps = plain * (4 + len(BUILTINS)) + ("expert" in opponents) * (2 + (plain > 0))
    step = kept = 0

    def wins(player_name, player, opp, spec, n_rounds):
        nonlocal step, kept
        step += 1
        args = (player, spec, rules, n_players, n_rounds, seed, house)
        path, key, hit = _kept_row(*args, cache)
        if progress is not None:
            progress(f"{step}/{steps} {player_name} against {opp}" + (" (kept)" if hit else " ..."))
        if hit is not None:
            kept += 1
            return hit
        won, played = _wins(*args)
        if path is not None:
            _keep_row(path, key, won, played)
        return won, played

    specs = {"tuned-weighted": TUNED, "expert": xs}
    per_seat = max(1, games // n_players)
    per_x = max(1, min(games, expert_games) // n_players)
    rows = []
    totals: dict[str, list[tuple[int, int]]] = {}
    for opp in opponents:
        spec = specs.get(opp, opp)
        searching = opp == "expert"
        k = per_x if searching else per_seat
        rows.append(_row("agent", opp, *wins("agent", agent, opp, spec, k)))
        rows.append(_row("random", opp, *wins("random", "random", opp, spec, k)))
        if searching:
            continue
        for b in BUILTINS:
            totals.setdefault(b, []).append(wins(b, b, opp, spec, k))
        for who, s in (("expert", xs), ("see-all-hands", open_spec(xs))):
            rows.append(_row(who, opp, *wins(who, s, opp, spec, per_x)))
    best = max(BUILTINS, key=lambda b: sum(w for w, _ in totals[b])) if totals else None
    if best is not None:
        cheap = iter(totals[best])
        for opp in opponents:
            if opp == "expert":
                w, p = wins(best, best, opp, xs, per_x)
            else:
                w, p = next(cheap)
            rows.append(_row(best, opp, w, p))
    table = pd.DataFrame(rows, columns=COLUMNS)
    order = {o: i for i, o in enumerate(ORDER)}
    if best is not None:
        order[best] = order["best"]
    table = table.sort_values(
        ["opponents", "player"],
        key=lambda c: (
            c.map(order) if c.name == "player" else c.map({o: i for i, o in enumerate(opponents)})
        ),
        kind="stable",
    ).reset_index(drop=True)
    mt = None
    if matches > 0:
        per = max(1, matches // n_players)
        players: tuple[str, ...] = ("agent", "random") + ((best,) if best is not None else ())
        spec_of = {"agent": agent}
        mrows = []
        for opp in opponents:
            for name in players:
                won, played = _match_wins(
                    spec_of.get(name, name), specs.get(opp, opp), rules, n_players, per, seed, house
                )
                r = _row(name, opp, won, played)
                r["matches"] = r.pop("rounds")
                mrows.append(r)
        mt = pd.DataFrame(mrows, columns=MATCH_COLUMNS)
    return Ladder(table, best, xs, mt, kept)


def render(lad: Ladder, n_players: int) -> str:
    """The ladder as text, one line per row (then the matches' rows, if any)."""
    parts = [(lad.table, "rounds")]
    if lad.matches is not None:
        parts.append((lad.matches, "matches"))
    lines: list[str] = []
    for t, unit in parts:
        if lines:
            lines.append("")
        lines.append(f"{'player':<16} {'opponents':<20} {unit:>8}  win rate [95% CI]")
        for r in t.itertuples():
            lines.append(
                f"{r.player:<16} {f'{n_players - 1} x {r.opponents}':<20} "
                f"{getattr(r, unit):>8,}  {r.win_rate:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]"
            )
    return "\n".join(lines)
