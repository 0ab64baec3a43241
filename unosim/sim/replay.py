"""Replays: one round of any run, played again by the same kernel with its trace on.

Every game's random streams depend only on (seed, game index), so game ``G`` of a run is
played again exactly, alone, without rerunning the run. The trace (one row per atomic
step, see ``kernel.core.layout``) becomes a list of events, printed as text (one line per
event, cards written ``R7``, ``G+2``, ``W+4→blue``) or as JSON for other tools, and is
judged move by move by the independent checker (:mod:`unosim.verify.checker`).

    rp = replay("stacking", players=4, strategies="random", seed=1, game=0)
    print(format_text(rp, hands=True))
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..game.cards import (
    COLOURS,
    N_COLOURED,
    N_KINDS,
    N_RANKS,
    declared_slot,
    kind_name,
    parse_kind,
)
from ..game.rules import OFFICIAL, RuleSet, apply
from ..kernel.core import layout as L
from ..verify.checker import Violation, check_trace, strict_seats
from ..versions import behaviour_mismatch
from . import engine
from .results import rounds_frame
from .simulate import Job, make_job

# section 6 columns compared between a replay and the results file it comes from
_COMPARED = list(L.FIXED_COLUMNS)


class ReplayError(ValueError):
    """A replay that cannot be made as asked; the message (one line) says why."""


@dataclass
class Replay:
    """Game ``game`` of a run: its record (RULES.md section 6) and its trace."""

    rules: RuleSet
    n_players: int
    labels: tuple[str, ...]
    seed: int
    game: int
    out: np.ndarray  # int32[N_COLS], the kernel's record of the round
    trace: np.ndarray  # int32[events, EV_W]
    violations: list[Violation] = field(default_factory=list)

    @property
    def row(self) -> dict:
        """The round's row as ``unosim.simulate`` gives it (``game`` first)."""
        df = rounds_frame(self.out[None, :], self.n_players, self.game)
        return {
            k: (bool(v) if k == "truncated" else int(v)) for k, v in df.iloc[0].to_dict().items()
        }

    def check(self) -> list[Violation]:
        """Run the move checker (strict for seats playing plain ``random``)."""
        self.violations = check_trace(
            self.trace, self.rules, self.n_players, row=self.out, strict=strict_seats(self.labels)
        )
        return self.violations


def replay_job(job: Job, game: int) -> Replay:
    """Game ``game`` (absolute index) of the run ``job`` describes, checked."""
    from .simulate import MAX_GAMES

    if job.agents:
        raise ReplayError(
            "a game with Python agents cannot be replayed yet (its agents' "
            "decisions are not recorded)"
        )

    if (
        isinstance(game, bool)
        or not isinstance(game, (int, np.integer))
        or not 0 <= game < MAX_GAMES
    ):
        raise ReplayError(f"game must be a whole number from 0 to {MAX_GAMES - 1:,}, got {game!r}")
    try:
        out, trace = engine.trace(job.kernel, job.seed, int(game))
    except engine.TraceTooLong as e:
        raise ReplayError(str(e)) from None
    rp = Replay(job.rules, job.n_players, tuple(job.labels), job.seed, int(game), out, trace)
    rp.check()
    return rp


def replay(
    rules="official",
    players: int = 4,
    strategies="random",
    seed: int = 0,
    game: int = 0,
    house=None,
) -> Replay:
    """Game ``game`` of ``unosim simulate`` with these arguments, replayed and checked."""
    return replay_job(make_job(rules, 1, players, strategies, seed, house), game)


# -- from a results file -----------------------------------------------------------------
def rules_from_manifest(manifest: dict) -> RuleSet:
    """The rule set a run used, from its manifest's ``rules_toml`` (hash checked)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the same parser from PyPI
        import tomli as tomllib

    try:
        data = tomllib.loads(manifest["rules_toml"])
    except (KeyError, TypeError, tomllib.TOMLDecodeError) as e:
        raise ReplayError(f"the manifest has no readable rules ({e})") from None
    name = data.pop("name", manifest.get("rules_name", "rules"))
    rs = apply(OFFICIAL, data, name=name, coerce=False)
    want = manifest.get("rules_hash")
    if want is not None and rs.hash() != want:
        raise ReplayError(
            f"the manifest's rules hash to {rs.hash()}, not {want}: this "
            "unosim reads them differently"
        )
    return rs


def iter_runs(path: str | Path) -> tuple[dict, Iterator[pd.DataFrame]]:
    """The manifest of a results file (``simulate --out FILE.parquet``) or dataset folder
    (``--out DIR``), and its rounds as frames, one part at a time for a folder."""
    from .results import check_path_name

    check_path_name(path, "--from")  # a name the file system takes, before it is looked at
    p = Path(path)
    if not p.exists():
        raise ReplayError(f"--from {p}: no such file or folder")
    if p.is_dir():
        from .dataset import iter_dataset, read_dataset_manifest

        m = read_dataset_manifest(p)
        frames = iter_dataset(p, allow_incomplete=True)
        if m.get("summary_only"):
            next(frames)  # raises: a summary-only run has no rows
    else:
        from .results import read_results

        try:
            df = read_results(p)
        except Exception as e:  # no manifest, not Parquet, unreadable ...
            raise ReplayError(
                f"--from {p}: cannot read it as a results file "
                f"({e.__class__.__name__}: {_first_line(e)})"
            ) from None
        m, frames = df.attrs.get("manifest") or {}, iter([df])
    if m.get("kind") == "matches":
        raise ReplayError(
            f"--from {p}: a match file; replay reads single-round results (unosim simulate --out)"
        )
    missing = [k for k in ("rules_toml", "seed", "players", "strategies") if k not in m]
    if missing:
        raise ReplayError(
            f"--from {p}: not a unosim results file (its manifest lacks {', '.join(missing)})"
        )

    def checked() -> Iterator[pd.DataFrame]:
        for df in frames:
            if "game" not in df.columns:
                raise ReplayError(f"--from {p}: not a unosim results file (no game column)")
            yield df

    return m, checked()


def read_runs(path: str | Path) -> pd.DataFrame:
    """The rounds of a results file or dataset folder as one frame, the manifest in
    ``df.attrs['manifest']`` (see :func:`iter_runs`)."""
    m, frames = iter_runs(path)
    parts = list(frames)
    if parts:
        df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    else:
        df = rounds_frame(np.zeros((0, L.N_COLS), dtype=np.int32), int(m["players"]), 0)
    df.attrs["manifest"] = m
    return df


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else e.__class__.__name__


MAX_LIMIT = 100_000  # replays of one command: each is checked event by event


def check_limit(limit) -> int:
    if (
        isinstance(limit, bool)
        or not isinstance(limit, (int, np.integer))
        or not 1 <= limit <= MAX_LIMIT
    ):
        raise ReplayError(f"--limit must be a whole number from 1 to {MAX_LIMIT:,}, got {limit!r}")
    return int(limit)


def select_games(df: pd.DataFrame, where: str | None, limit: int) -> pd.DataFrame:
    """The first ``limit`` rounds matching ``where`` (see :func:`matching`)."""
    return df[matching(df, where)].head(check_limit(limit))


def matching(df: pd.DataFrame, where: str | None) -> pd.Series:
    """Which rounds satisfy ``where``, a condition on the columns in the small grammar of
    :mod:`unosim.sim.where` (``max_stack >= 12 and winner == 0``, ``game in [4, 8]``);
    nothing in it is ever run as code."""
    from .where import WhereError, condition

    if where is None or not where.strip():
        return pd.Series(True, index=df.index)
    try:
        return condition(df, where)
    except WhereError as e:
        raise ReplayError(f"--where {where!r}: {e}") from None


def replays_from(
    path: str | Path, where: str | None = None, limit: int = 1
) -> tuple[Iterator[Replay], int, int]:
    """Replay the first ``limit`` games of a results file matching ``where``.

    Returns the replays, made one at a time as they are taken (every input is checked
    before the first), the number of matching games, and how many will be replayed.
    Each replay is checked to give the row the file holds (else the kernel or the RNG
    changed since the run)."""
    from ..players.seats import refuse_agents
    from ..players.strategies import StrategyError
    from ..versions import RNG_VERSION

    limit = check_limit(limit)
    m, frames = iter_runs(path)
    try:  # before anything reads the labels as players: a file never names code to run
        labels = refuse_agents(m["strategies"], f"--from {path}")
    except StrategyError as e:
        raise ReplayError(str(e)) from None
    if m.get("rng", RNG_VERSION) != RNG_VERSION:
        raise ReplayError(
            f"--from {path}: made with RNG {m['rng']!r}; this unosim uses "
            f"{RNG_VERSION!r}, so its games cannot be replayed"
        )
    why = behaviour_mismatch(m)
    if why:
        raise ReplayError(f"--from {path}: {why}")
    matched, seen = 0, False
    kept: list[pd.DataFrame] = []
    for df in frames:  # a folder one part at a time: memory holds one part
        mask = matching(df, where)
        matched += int(mask.sum())
        if sum(map(len, kept)) < limit:
            kept.append(df[mask].head(limit - sum(map(len, kept))))
        seen = True
    if not seen:  # no rows: the condition is still checked against the columns
        matching(rounds_frame(np.zeros((0, L.N_COLS), dtype=np.int32), int(m["players"]), 0), where)
    sel = (
        pd.concat(kept, ignore_index=True)
        if len(kept) > 1
        else (kept[0] if kept else pd.DataFrame())
    )
    rules = rules_from_manifest(m)
    job = make_job(rules, 1, int(m["players"]), labels, int(m["seed"]))

    def made() -> Iterator[Replay]:
        for _, r in sel.iterrows():
            rp = replay_job(job, int(r["game"]))
            mine = rp.row
            diff = [c for c in _COMPARED if c in r.index and int(r[c]) != int(mine[c])]
            if diff:
                c = diff[0]
                raise ReplayError(
                    f"game {rp.game} replays differently from {path} ({c} "
                    f"{mine[c]} now, {int(r[c])} in the file): the kernel "
                    f"changed since the run (unosim "
                    f"{m.get('unosim_version', '?')})"
                )
            yield rp

    return made(), matched, len(sel)


# -- events ------------------------------------------------------------------------------
def _hand(counts, names: tuple[str, ...] = ()) -> list[str]:
    return [kind_name(k, names) for k in range(N_KINDS) for _ in range(int(counts[k]))]


def events(
    trace: np.ndarray, n_players: int, with_hands: bool = True, names: tuple[str, ...] = ()
) -> list[dict]:
    """The trace as a list of events (dicts, JSON-ready), each with the state after it.

    Keys: ``i`` (row), ``event`` (``play``, ``drew``, ...), ``seat`` (None for the
    table), then by event: ``card``, ``colour_named``, ``bluff``, ``caught``, ``with``
    (swap), ``cards`` (penalty, UNO, reshuffle, discard), ``position`` (return); then
    ``top``, ``colour``, ``direction`` (1 clockwise, -1 counter-clockwise),
    ``pending_draw``, ``pending_skips``, ``pending_special``, ``turns``, ``draw_pile``,
    ``discard_pile`` and, with ``with_hands``, ``hands`` (a list of card names per seat).
    ``names``: the rule set's declared cards (``RuleSet.card_names``), named by them.
    """
    rows = trace.tolist()
    held = engine.trace_hands(trace, n_players) if with_hands else None
    out = []
    started = False
    for i, r in enumerate(rows):
        typ, seat, k, flags, aux = (
            r[L.EV_TYPE],
            r[L.EV_SEAT],
            r[L.EV_KIND],
            r[L.EV_FLAGS],
            r[L.EV_AUX],
        )
        name = L.EVENT_NAMES.get(typ, f"event{typ}")
        e: dict = {"i": i, "event": name, "seat": seat if seat >= 0 else None}
        if typ == L.E_COLOUR:
            e["colour_named"] = COLOURS[k] if 0 <= k < 4 else k
        elif 0 <= k < N_KINDS:
            e["card"] = kind_name(k, names)
        if typ == L.E_PLAY:
            e["bluff"] = bool(flags & L.F_BLUFF)
        elif typ == L.E_CHALLENGE:
            e["caught"] = bool(flags & L.F_CAUGHT)
        elif typ == L.E_SWAP:
            e["with"] = aux
        elif typ in (L.E_PENALTY, L.E_UNO, L.E_RESHUFFLE, L.E_DISCARD):
            e["cards"] = aux
        elif typ == L.E_RETURN:
            e["position"] = aux
        if typ not in (L.E_DEAL, L.E_RETURN):
            started = True
        top = r[L.EV_TOP]
        e.update(
            top=kind_name(top, names) if started else None,
            colour=COLOURS[r[L.EV_COLOUR]] if started else None,
            direction=r[L.EV_DIR],
            pending_draw=r[L.EV_PEND],
            pending_skips=r[L.EV_SKIP],
            pending_special=kind_name(r[L.EV_SPECIAL], names) if r[L.EV_SPECIAL] >= 0 else None,
            turns=r[L.EV_TURN],
            draw_pile=r[L.EV_PILE],
            discard_pile=r[L.EV_DISC],
        )
        if held is not None:
            e["hands"] = [_hand(held[i, q], names) for q in range(n_players)]
        out.append(e)
    return out


def to_json(rp: Replay) -> dict:
    """A replay as one JSON-ready object: how it was made, its row, events, violations."""
    return {
        "rules": rp.rules.name,
        "rules_hash": rp.rules.hash(),
        "players": rp.n_players,
        "strategies": list(rp.labels),
        "seed": rp.seed,
        "game": rp.game,
        "row": rp.row,
        "events": events(rp.trace, rp.n_players, names=rp.rules.card_names),
        "violations": [{"row": v.row, "message": v.message} for v in rp.violations],
    }


def dumps_json(rp: Replay) -> str:
    return json.dumps(to_json(rp), ensure_ascii=False, separators=(",", ":"))


# -- text --------------------------------------------------------------------------------
def _wild(card: str, colour: str) -> str:
    return f"{card}→{colour}"


def _describe(e: dict, nxt: dict | None, row: dict, n: int, cards: tuple = ()) -> tuple[str, bool]:
    """One event's text; True when it also tells the next (colour) event."""
    ev, card = e["event"], e.get("card")
    seat = e["seat"]
    merged, shown = False, card
    if (
        nxt is not None
        and nxt["event"] == "colour"
        and nxt["seat"] == seat
        and card is not None
        and ev in ("play", "drawn", "stack", "extra")
    ):
        merged, shown = True, _wild(card, nxt["colour_named"])
    dirname = "clockwise" if e["direction"] == 1 else "counter-clockwise"
    if ev == "deal":
        sizes = {len(h) for h in e["hands"]}
        each = f"{sizes.pop()} cards" if len(sizes) == 1 else "cards"
        return f"deal: {each} to each of {n} players", False
    if ev == "return":
        return f"{card} turned first goes back into the draw pile", False
    if ev == "start":
        return f"first card {e['top']}: seat {seat} plays first, {dirname}", False
    if ev == "play":
        return f"plays {shown}" + ("  (a bluff)" if e.get("bluff") else ""), merged
    if ev == "drawn":
        return f"plays the card drawn, {shown}", merged
    if ev == "stack":
        return f"stacks {shown}", merged
    if ev == "jump":
        return f"jumps in with {card}", False
    if ev == "extra":
        return f"adds {shown}", merged
    if ev == "colour":
        return f"names {e['colour_named']}", False
    if ev == "draw":
        return "draws instead of playing", False
    if ev == "drew":
        return f"gets {card}", False
    if ev == "reshuffle":
        return f"reshuffle: {e['cards']} discarded cards become the draw pile", False
    if ev == "penalty":
        return f"takes the penalty: draws {e['cards']}, loses the turn", False
    if ev == "skipped":
        return "is skipped", False
    if ev == "challenge":
        return (
            "challenges the W+4: a bluff, its player draws 4"
            if e["caught"]
            else "challenges the legal W+4: draws 4 + penalty, no turn"
        ), False
    if ev == "uno":
        return f"forgot to call UNO, caught: draws {e['cards']}", False
    if ev == "swap":
        return f"swaps hands with seat {e['with']}", False
    if ev == "rotate":
        return f"every hand passes on, {dirname}", False
    if ev == "shuffle":
        return "all hands shuffled and dealt from the next player", False
    if ev == "snorlax":
        return f"Snorlax: draws 3, then discards every {e['colour']} card", False
    if ev == "discard":
        return f"discards {e['cards']} {e['colour']} card(s); {card} on top", False
    if ev == "greninja":
        return f"Greninja: draws until a {e['colour']} card", False
    if ev == "win":
        return f"wins the round: {row['points']} points", False
    if ev == "truncated":
        return f"max_turns reached after {e['turns']} turns: no winner", False
    if ev == "effect":
        return _effect_text(e, n, cards), False
    return ev, False


def _effect_text(e: dict, n: int, cards: tuple = ()) -> str:
    card = e["card"]
    k = parse_kind(card, tuple(c.name for c in cards))
    slot = declared_slot(k)
    if 0 <= slot < len(cards):  # a declared card: its steps (docs/cards.md)
        return f"{card}: " + ", ".join(cards[slot].effect)
    if k < N_COLOURED:
        r = k % N_RANKS
        if r == 10 or (r == 11 and n == 2):
            return f"{card}: the next player is skipped"
        if r == 11:
            d = "clockwise" if e["direction"] == 1 else "counter-clockwise"
            return f"{card}: play goes {d}"
        return f"{card}: the next player draws {e['pending_draw']} (pending)"
    if card == "W+4":
        return f"W+4: the next player draws {e['pending_draw']} (pending)"
    if card == "PoG":
        return "Powers of Grayskull: every other player draws 3"
    return f"{card}: acts on the next player's turn"


def _state(e: dict) -> str:
    if e["top"] is None:
        return f"pile {e['draw_pile']}"
    parts = [
        f"{e['top']:<4} {e['colour']:<6} {'cw ' if e['direction'] == 1 else 'ccw'}",
        f"pile {e['draw_pile']:>3}",
    ]
    if e["pending_draw"]:
        parts.append(f"+{e['pending_draw']} pending")
    if e["pending_skips"]:
        parts.append(f"{e['pending_skips']} skip")
    if e["pending_special"]:
        parts.append(f"{e['pending_special']} pending")
    return "  ".join(parts)


def steps(rp: Replay, evs: list[dict] | None = None) -> list[dict]:
    """The round's moves as the text replay tells them, one per line: a wild card's play
    and the colour named with it make one step.

    Each step: ``row`` (the trace row), ``rows`` (the rows it tells, one or two),
    ``turns``, ``who`` (``seat N`` or ``table``), ``text``, ``state`` (the text
    replay's state column), ``event`` (the first event, :func:`events`) and ``after``
    (the last event told: the state after the step)."""
    n = rp.n_players
    if evs is None:
        evs = events(rp.trace, n, names=rp.rules.card_names)
    row = rp.row
    out: list[dict] = []
    skip_next = False
    for j, e in enumerate(evs):
        if skip_next:
            skip_next = False
            continue
        nxt = evs[j + 1] if j + 1 < len(evs) else None
        text, skip_next = _describe(e, nxt, row, n, rp.rules.cards)
        shown = nxt if skip_next and nxt is not None else e  # skip_next: nxt told too
        out.append(
            {
                "row": e["i"],
                "rows": (e["i"], shown["i"]) if shown is not e else (e["i"],),
                "turns": shown["turns"],
                "who": f"seat {e['seat']}" if e["seat"] is not None else "table",
                "text": text,
                "state": _state(shown),
                "event": e,
                "after": shown,
            }
        )
    return out


def format_text(rp: Replay, hands: bool = False) -> str:
    """The round as text: a header, one line per event, the result and the checker's
    verdict. ``hands``: after each event, the hands it changed (all of them at the deal;
    the drawer's at a draw)."""
    n = rp.n_players
    evs = events(rp.trace, n, names=rp.rules.card_names)
    row = rp.row
    lines = [
        f"unosim replay: {rp.rules.name} (rules {rp.rules.hash()}), {n} players, "
        f"strategies {','.join(rp.labels)}, seed {rp.seed}, game {rp.game}",
        f"seat 0 acts first, seat {n - 1} deals; each line: row, turns taken, who, what "
        "happened, then top card, colour, direction, draw pile, pending effects",
        "",
        f"{'row':>4} {'turn':>4}  {'who':<7} {'event':<52} state after",
    ]
    prev_hands = None
    for st in steps(rp, evs):
        e, shown = st["event"], st["after"]
        lines.append(
            f"{st['row']:>4} {st['turns']:>4}  {st['who']:<7} {st['text']:<52} {st['state']}"
        )
        if hands:
            cur = shown["hands"]
            for q in range(n):
                changed = prev_hands is None or cur[q] != prev_hands[q]
                if changed or (e["event"] == "draw" and q == e["seat"]):
                    lines.append(
                        f"{'':>18}seat {q} ({len(cur[q]):>2}): {' '.join(cur[q]) or '(no cards)'}"
                    )
        prev_hands = shown["hands"]
    lines.append("")
    if row["truncated"]:
        lines.append(f"result   truncated after {row['turns']} turns (max_turns): no winner")
    else:
        lines.append(
            f"result   seat {row['winner']} wins {row['points']} points after "
            f"{row['turns']} turns (seat {row['first_player']} played first)"
        )
    final = evs[-1]["hands"] if evs else [[] for _ in range(n)]
    left = ", ".join(
        f"seat {q} {row[f'hand_size_{q}']} card"
        f"{'s' if row[f'hand_size_{q}'] != 1 else ''} "
        f"({row[f'hand_points_{q}']} pts)"
        for q in range(n)
        if q != row["winner"]
    )
    lines.append(f"left     {left}")
    if hands:
        for q in range(n):
            if final[q]:
                lines.append(f"         seat {q}: {' '.join(final[q])}")
    lines.append(
        f"counts   cards played {row['cards_played']}, drawn {row['cards_drawn']}, "
        f"reshuffles {row['reshuffles']}, max stack {row['max_stack']}, challenges "
        f"{row['challenges']}, bluffs {row['bluffs']}, UNO penalties "
        f"{row['uno_penalties']}"
    )
    if rp.violations:
        lines.append(f"checker  {len(rp.violations)} violation(s) of RULES.md:")
        lines.extend(f"         {v}" for v in rp.violations)
    else:
        lines.append(
            f"checker  every one of the {len(evs)} events follows RULES.md (unosim.verify.checker)"
        )
    return "\n".join(lines)


# -- the command line ----------------------------------------------------------------------
class NoMatch(ReplayError):
    """No game of the results file matches the condition (not an input error)."""


def plan_replays(
    rules: str | None = None,
    house: str | None = None,
    players: int | None = None,
    strategies: str | None = None,
    seed: int | None = None,
    game: int | None = None,
    source: str | Path | None = None,
    where: str | None = None,
    limit: int = 1,
) -> tuple[list[Replay], str]:
    """What ``unosim replay`` replays: one game given by its run's arguments, or the first
    ``limit`` games of a results file matching ``where``. Returns the replays and a note
    (how many games matched, or ""). Raises ``ValueError`` (one line) on bad input.
    :func:`stream_replays` gives the replays one at a time instead of a list."""
    reps, note = stream_replays(rules, house, players, strategies, seed, game, source, where, limit)
    return list(reps), note


def stream_replays(
    rules: str | None = None,
    house: str | None = None,
    players: int | None = None,
    strategies: str | None = None,
    seed: int | None = None,
    game: int | None = None,
    source: str | Path | None = None,
    where: str | None = None,
    limit: int = 1,
) -> tuple[Iterator[Replay], str]:
    """:func:`plan_replays` with the replays made one at a time as they are taken (the
    inputs are all checked first); memory holds one replay, whatever ``limit``."""
    if source is None:
        if where is not None:
            raise ReplayError("--where needs --from FILE (a results file to pick games from)")
        rp = replay(
            rules or "official",
            4 if players is None else players,
            strategies or "random",
            0 if seed is None else seed,
            0 if game is None else game,
            house,
        )
        return iter([rp]), ""
    given = [
        opt
        for opt, v in (
            ("--rules", rules),
            ("--house", house),
            ("--players", players),
            ("--strategies", strategies),
            ("--seed", seed),
            ("--game", game),
        )
        if v is not None
    ]
    if given:
        raise ReplayError(
            f"--from takes the rules, players, strategies and seed from the "
            f"file's manifest: drop {', '.join(given)} (pick games with "
            "--where, e.g. 'game == 17')"
        )
    reps, matched, taken = replays_from(source, where, limit)
    if not taken:
        raise NoMatch(f"no game of {source} matches {where!r}")
    cond = f"games matching {where!r}" if where and where.strip() else "games"
    first = "the first" if taken == 1 else f"the first {taken:,}"
    return reps, f"{source}: {matched:,} {cond}; replaying {first}"
