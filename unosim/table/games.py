"""The games a table server holds (``unosim mcp`` and ``unosim play``): each a stepwise
round with one seat played from outside and the others built-in strategies."""

from __future__ import annotations

import itertools
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..game.rules import PRESETS, resolve
from ..sim.game import Game, State
from .text import InvalidMove, parse

MAX_GAMES = 64  # games kept at once
MAX_SEED = 2**63 - 1
OPPONENTS = ("random", "heuristic", "table", "aggressive", "colour-counter", "weighted", "expert")
MAX_HOUSE = 500  # characters of a house-rule string


class TableError(ValueError):
    """A request the table refuses (one line, shown to the caller)."""


@dataclass
class Seated:
    """One game: the state, the caller's seat, and how it was made."""

    state: State
    seat: int
    rules: str
    opponents: tuple[str, ...]


class Tables:
    """The games of one server (or one web app), by id."""

    def __init__(self, max_games: int = MAX_GAMES):
        self.games: OrderedDict[str, Seated] = OrderedDict()
        self.max_games = max_games
        self._ids = itertools.count(1)

    def new(
        self,
        rules: str = "official",
        players: int = 4,
        opponents: str = "random",
        seed: int = 0,
        seat: int = 0,
        house: str | None = None,
        round_index: int = 0,
    ) -> tuple[str, Seated]:
        rs = rule_set(rules, house)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
            raise TableError(f"players must be 2 to 10, got {players!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise TableError(f"seat must be 0 to {players - 1}, got {seat!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise TableError(f"seed must be a whole number from 0 to 2^63-1, got {seed!r}")
        names = [o.strip() for o in str(opponents)[:1000].split(",")]
        if len(names) == 1:
            names = names * (players - 1)
        if len(names) != players - 1:
            raise TableError(f"opponents: give one name or {players - 1}, got {len(names)}")
        for o in names:
            if o not in OPPONENTS:
                raise TableError(f"opponent {o[:40]!r} is not one of {', '.join(OPPONENTS)}")
        seating: list[str | None] = list(names)
        seating.insert(seat, None)
        try:
            game = Game(rs, players, seed=seed, opponents=seating)
            state = game.new_round(round_index)
        except ValueError as e:
            raise TableError(str(e).splitlines()[0]) from None
        gid = f"g{next(self._ids)}-{secrets.token_hex(3)}"
        self.games[gid] = Seated(state, seat, rs.name, tuple(names))
        while len(self.games) > self.max_games:
            self.games.popitem(last=False)
        return gid, self.games[gid]

    def get(self, game_id: str) -> Seated:
        g = self.games.get(str(game_id)[:100])
        if g is None:
            raise TableError(f"no game {str(game_id)[:40]!r} (new_game makes one)")
        return g

    def act(self, game_id: str, action: Any) -> Seated:
        g = self.get(game_id)
        s = g.state
        if s.is_terminal():
            raise TableError("the round is over (new_game starts another)")
        if s.current_player != g.seat:  # cannot happen: only the caller's seat is stepped
            raise TableError("it is not your decision")
        obs = s.observation(g.seat)
        if isinstance(action, str) and action.strip().lstrip("-").isdigit():
            action = int(action.strip())
        try:
            a = parse(action, obs)
        except InvalidMove as e:
            raise TableError(f"invalid move: {e}") from None
        s.apply(a)
        return g


def rule_set(rules: str, house: str | None = None):
    """A preset by name (``house`` switches on top); never a file (a remote caller
    names rules, it does not read the server's files)."""
    if not isinstance(rules, str) or rules not in PRESETS:
        raise TableError(f"rules must be a preset: {', '.join(sorted(PRESETS))}")
    if house is not None and (not isinstance(house, str) or len(house) > MAX_HOUSE):
        raise TableError(f"house must be text of at most {MAX_HOUSE} characters")
    try:
        return resolve(rules, house or None)
    except ValueError as e:
        raise TableError(str(e).splitlines()[0]) from None
