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

from ..kernel.core import layout as L
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
    cached: frozenset = frozenset()  # (player, opponents) of the table's rows read from it
    notes: tuple = ()  # one line for each cache file not used (and why)


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
    from ..versions import KERNEL_BEHAVIOUR_VERSION, RNG_VERSION

    return {
        "player": player,
        "opponent": opponent,
        "rules": resolve(rules, house).hash(),
        "players": int(n),
        "per_seat": int(per_seat),
        "seed": int(seed),
        "kernel_behaviour": KERNEL_BEHAVIOUR_VERSION,
        "rng": RNG_VERSION,
        "unosim": __version__,
    }


# ------------------------------------------------------------------- the cache of rows
#
# A row file is small JSON, {"key": {...}, "won": W, "played": P, "mac": HEX}, whose "mac"
# is an HMAC-SHA256 of the rest under a key this user's unosim made (KEY_NAME in the
# folder, 0600): a file written by hand, copied from another cache or changed in place
# fails its check and the row is played again, with a one-line note. Only regular files
# are read (a symlink, a FIFO or a device is never opened for reading: a FIFO would
# block, /dev/zero never ends), at most MAX_ROW_BYTES and MAX_ROW_DEPTH levels deep.

MAX_ROW_BYTES = 4096  # a row file is about 400 bytes
MAX_ROW_DEPTH = 4  # a row file nests 2 levels: {"key": {...}}
KEY_NAME = "rows.key"
KEY_BYTES = 32


def _open_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a symlink) of at most
    ``limit`` bytes; ``FileNotFoundError`` if there is none, else ``ValueError`` saying
    what it is. Never blocks (a FIFO is opened non-blocking and refused)."""
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = (
                "a FIFO"
                if stat.S_ISFIFO(st.st_mode)
                else "a device"
                if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a folder"
                if stat.S_ISDIR(st.st_mode)
                else "not a regular file"
            )
            raise ValueError(f"is {kind}, not a regular file")
        if st.st_size > limit:
            raise ValueError(f"holds {st.st_size:,} bytes, more than {limit:,}")
        data = os.read(fd, limit + 1)
        if len(data) > limit:
            raise ValueError(f"holds more than {limit:,} bytes")
        return data
    except OSError as e:
        raise ValueError(f"cannot be read ({e.strerror or e})") from None
    finally:
        os.close(fd)


def _read_regular(path: Path, limit: int) -> bytes:
    """:func:`_open_regular`, a symlink named as such (``O_NOFOLLOW``: ``ELOOP``)."""
    import errno

    try:
        return _open_regular(path, limit)
    except FileNotFoundError:
        raise
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise ValueError("is a symlink (the cache follows none)") from None
        raise ValueError(f"cannot be read ({e.strerror or e})") from None


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text`` (outside strings)."""
    deepest = depth = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def _cache_key(folder: Path) -> bytes:
    """This user's key for the rows in ``folder``: made (32 random bytes, mode 0600) on
    first use; ``ValueError`` if the file there is not one this user made."""
    path = folder / KEY_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    except OSError as e:
        raise ValueError(f"cannot be made ({e.strerror or e})") from None
    else:
        try:
            os.write(fd, os.urandom(KEY_BYTES))
        finally:
            os.close(fd)
    st = os.lstat(path)
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise ValueError("is not this user's alone (owner or mode)")
    key = _read_regular(path, KEY_BYTES)
    if len(key) != KEY_BYTES:
        raise ValueError(f"does not hold {KEY_BYTES} bytes")
    return key


def _mac(secret: bytes, key: dict, won: int, played: int) -> str:
    import hmac

    body = json.dumps({"key": key, "won": won, "played": played}, sort_keys=True)
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()


class RowCache:
    """The folder of kept rows: finds, checks and writes them; ``notes`` says, one line
    each, which files were not used and why. Without a usable key (``KEY_NAME``) the
    cache is not used at all (one note)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.notes: list[str] = []
        try:
            self.secret: bytes | None = _cache_key(self.folder)
        except (OSError, ValueError) as e:
            self.secret = None
            self.notes.append(f"ladder cache {self.folder / KEY_NAME} {e}: the cache is not used")

    def _note(self, path: Path, why: str) -> None:
        self.notes.append(f"ladder cache {path} {why}: its row is played again")

    def find(self, player, opponent, rules, n, per_seat, seed, house):
        """Where a row of built-in players is kept (its results depend only on
        ``_row_key``), that key, and its (won, played) if an earlier run kept it there:
        a file is used only if it is a regular file within the bounds, holds exactly
        this key, a count that fits it, and a digest made with this user's key.
        (None, None, None) for a row with an agent, or no usable cache."""
        if self.secret is None or not all(
            isinstance(s, str) and not is_agent_spec(s) for s in (player, opponent)
        ):
            return None, None, None
        key = _row_key(player, opponent, rules, n, per_seat, seed, house)
        text = json.dumps(key, sort_keys=True)
        path = self.folder / f"{hashlib.sha256(text.encode()).hexdigest()[:32]}.json"
        try:
            raw = _read_regular(path, MAX_ROW_BYTES).decode("utf-8")
        except FileNotFoundError:
            return path, key, None
        except (ValueError, UnicodeDecodeError) as e:
            self._note(path, str(e) if isinstance(e, ValueError) else "is not UTF-8 text")
            return path, key, None
        if _depth(raw) > MAX_ROW_DEPTH:
            self._note(path, f"nests deeper than {MAX_ROW_DEPTH} levels")
            return path, key, None
        try:
            got = json.loads(raw)
            won, played, mac = got["won"], got["played"], got["mac"]
            fits = (
                got["key"] == key
                and type(won) is int
                and type(played) is int
                and played == n * per_seat
                and 0 <= won <= played
                and isinstance(mac, str)
            )
        except (ValueError, KeyError, TypeError):
            fits = False
        if not fits:
            self._note(path, "does not hold this row's key and a count that fits it")
            return path, key, None
        import hmac

        if not hmac.compare_digest(mac, _mac(self.secret, key, won, played)):
            self._note(path, "fails its digest (not written by this user's unosim)")
            return path, key, None
        return path, key, (won, played)

    def keep(self, path: Path, key: dict, won: int, played: int) -> None:
        """Write a played row to ``path``: whole, then renamed into place. A folder that
        cannot be written only costs the next run the row again."""
        if self.secret is None:
            return
        row = {"key": key, "won": won, "played": played}
        row["mac"] = _mac(self.secret, key, won, played)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(row), encoding="utf-8")
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
    store = RowCache(cache) if cache is not None else None
    hits: set[tuple[str, str]] = set()  # (player, opponents) of rows read from the cache

    def wins(player_name, player, opp, spec, n_rounds):
        nonlocal step, kept
        step += 1
        args = (player, spec, rules, n_players, n_rounds, seed, house)
        path, key, hit = store.find(*args) if store is not None else (None, None, None)
        if progress is not None:
            progress(f"{step}/{steps} {player_name} against {opp}" + (" (kept)" if hit else " ..."))
        if hit is not None:
            kept += 1
            hits.add((player_name, opp))
            return hit
        hits.discard((player_name, opp))
        won, played = _wins(*args)
        if path is not None and store is not None and key is not None:
            store.keep(path, key, won, played)
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
    cached = frozenset(
        (p, o) for p, o in zip(table["player"], table["opponents"]) if (p, o) in hits
    )
    notes = tuple(store.notes) if store is not None else ()
    return Ladder(table, best, xs, mt, kept, cached, notes)


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
            kept = unit == "rounds" and (r.player, r.opponents) in lad.cached
            lines.append(
                f"{r.player:<16} {f'{n_players - 1} x {r.opponents}':<20} "
                f"{getattr(r, unit):>8,}  {r.win_rate:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]"
                + ("  (cache)" if kept else "")
            )
    return "\n".join(lines)
