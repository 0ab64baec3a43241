"""The games a table server holds (``unosim mcp`` and ``unosim play``): each a stepwise
round with one seat played from outside and the others built-in strategies, the expert
at a chosen budget, or (``unosim play --agent``) the server owner's agent file run in an
isolated seat (:mod:`unosim.sim.isolated`: its own process, never imported here).

A game may be a match: rounds are dealt one after another (round ``i`` of the seed) and
each round's winner scores its points (RULES.md 5) until a seat reaches the rules'
``target_score`` (500 by default)."""

from __future__ import annotations

import itertools
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..game.rules import PRESETS, resolve
from ..kernel.core import layout as L
from ..sim.game import Game, State
from ..sim.outside import AgentError, as_action
from .text import InvalidMove, parse

MAX_GAMES = 64  # games kept at once
MAX_SEED = 2**63 - 1
OPPONENTS = ("random", "heuristic", "table", "aggressive", "colour-counter", "weighted", "expert")
MAX_HOUSE = 500  # characters of a house-rule string
AGENT = "agent"  # the opponent name of the server's own agent file (``--agent``)
MAX_BUDGET = 1024  # the expert's rollouts per decision at the table, at most
DRAW, PASS = 80, 81  # the actions an agent that fails plays instead (MovePolicy's fallback)


class TableError(ValueError):
    """A request the table refuses (one line, shown to the caller)."""


@dataclass
class Seated:
    """One game: the state, the caller's seat, and how it was made; for a match, the
    scores and the rounds played."""

    state: State
    seat: int
    rules: str
    opponents: tuple[str, ...]
    game: Game | None = None
    agent_seats: tuple[int, ...] = ()
    agent_fallbacks: int = 0  # decisions the agent failed (its seat drew or passed)
    agent_error: str = ""
    target: int = 0  # a match's target score (0: a single round)
    scores: list[int] = field(default_factory=list)
    round_index: int = 0
    rounds: int = 1  # rounds dealt so far
    scored: bool = False
    agent_rngs: dict = field(default_factory=dict)
    finding: str | None = None  # a line on these rules, once the round is over

    @property
    def match_over(self) -> bool:
        return bool(self.target) and max(self.scores, default=0) >= self.target


class Tables:
    """The games of one server (or one web app), by id."""

    def __init__(self, max_games: int = MAX_GAMES, agent=None, finding=None, rule_files=None):
        """``agent``: the server's own agent (an isolated seat,
        :func:`unosim.sim.isolated.isolated_agent`), seated where opponents name
        ``agent``; one process for every game, asked one decision at a time.
        ``finding(rules, n_players, opponents) -> str | None``: a line on these rules
        shown after each round (``unosim.report.atlas_line.atlas_line``).
        ``rule_files``: rule sets the server's owner loaded (``unosim play --rules-file``,
        declared cards included), offered by name beside the presets."""
        self.rule_files = dict(rule_files or {})
        self.games: OrderedDict[str, Seated] = OrderedDict()
        self.max_games = max_games
        self._ids = itertools.count(1)
        self.agent = agent
        self.finding = finding
        self.lock = threading.RLock()  # one request at a time changes the games

    def new(
        self,
        rules: str = "official",
        players: int = 4,
        opponents: str = "random",
        seed: int = 0,
        seat: int = 0,
        house: str | None = None,
        round_index: int = 0,
        *,
        budget: int | None = None,
        match: bool = False,
    ) -> tuple[str, Seated]:
        """A new game; ``budget`` the expert opponents' rollouts per decision (1 to
        ``MAX_BUDGET``; default the expert's own), ``match`` rounds to the rules'
        ``target_score``."""
        rs = rule_set(rules, house, self.rule_files)
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
        known = OPPONENTS + ((AGENT,) if self.agent is not None else ())
        for o in names:
            if o not in known:
                raise TableError(f"opponent {o[:40]!r} is not one of {', '.join(known)}")
        if budget is not None and (
            isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET
        ):
            raise TableError(f"budget must be 1 to {MAX_BUDGET} rollouts, got {budget!r}")
        labels = [
            f"expert:rollouts={budget}" if o == "expert" and budget is not None else o
            for o in names
        ]
        seating: list[str | None] = [None if o == AGENT else o for o in labels]
        seating.insert(seat, None)
        agent_seats = tuple(q for q, o in enumerate(seating) if o is None and q != seat)
        try:
            game = Game(rs, players, seed=seed, opponents=seating)
            state = game.new_round(round_index)
        except ValueError as e:
            raise TableError(str(e).splitlines()[0]) from None
        gid = f"g{next(self._ids)}-{secrets.token_hex(3)}"
        g = Seated(state, seat, rs.name, tuple(labels), game, agent_seats)
        g.round_index = round_index
        if match:
            g.target = int(rs.target_score)
            g.scores = [0] * players
        with self.lock:
            self.games[gid] = g
            while len(self.games) > self.max_games:
                self.games.popitem(last=False)
            self._advance(g)
        return gid, g

    def next_round(self, game_id: str) -> Seated:
        """Deal a match's next round (the current one must be over, the match not)."""
        with self.lock:
            g = self.get(game_id)
            if not g.target:
                raise TableError("not a match: a single round (new_game starts another)")
            if not g.state.is_terminal():
                raise TableError("the round is not over yet")
            if g.match_over:
                raise TableError("the match is over")
            assert g.game is not None
            g.round_index += 1
            g.rounds += 1
            g.scored = False
            g.finding = None
            g.agent_rngs = {}
            g.state = g.game.new_round(g.round_index)
            self._advance(g)
            return g

    def _advance(self, g: Seated) -> None:
        """Let the agent seats play until the caller's seat decides (or the round ends);
        then score an ended round of a match."""
        s = g.state
        while not s.is_terminal() and s.current_player != g.seat:
            q = s.current_player
            if q not in g.agent_seats:  # cannot happen: built-in seats are the kernel's
                raise TableError(f"seat {q} has no player")
            s.apply(self._agent_action(g, s, q))
        if s.is_terminal() and not g.scored:
            rec = s.record()
            if g.target and not rec[L.C_TRUNCATED]:
                g.scores[int(rec[L.C_WINNER])] += int(rec[L.C_POINTS])
            g.scored = True
            if self.finding is not None and g.game is not None:
                try:
                    g.finding = self.finding(g.game.rules, g.game.n_players, g.opponents)
                except (OSError, ValueError, KeyError, TypeError, IndexError):
                    g.finding = None

    def _agent_action(self, g: Seated, s: State, q: int) -> int:
        """The agent's action at seat ``q``, or the fallback (draw, else pass, else the
        first legal action) when it fails or answers no legal action (counted)."""
        obs = s.observation(q)
        legal = obs.legal
        if not g.agent_error:
            gen = g.agent_rngs.get(q)
            if gen is None:  # the seat's generator for this round, from (seed, round, seat)
                gen = g.agent_rngs[q] = np.random.default_rng([s.game.seed, g.round_index, q])
            obs._key = lambda: gen  # sent to its process, its state sent back into it
            try:
                a = as_action(self.agent(obs))
            except AgentError as e:
                g.agent_error = str(e).splitlines()[0][:200] if str(e) else "it failed"
                a = None
            if a is not None and a in legal:
                return a
            if a is not None:
                g.agent_error = f"it chose action {a}, not a legal one"
        g.agent_fallbacks += 1
        for f in (DRAW, PASS):
            if f in legal:
                return f
        return legal[0]

    def get(self, game_id: str) -> Seated:
        g = self.games.get(str(game_id)[:100])
        if g is None:
            raise TableError(f"no game {str(game_id)[:40]!r} (new_game makes one)")
        return g

    def act(self, game_id: str, action: Any) -> Seated:
        with self.lock:
            return self._act(game_id, action)

    def _act(self, game_id: str, action: Any) -> Seated:
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
        self._advance(g)
        return g


def rule_set(rules: str, house: str | None = None, loaded=None):
    """A preset, or a rule set the server loaded (``loaded``: name -> ``RuleSet``), by
    name (``house`` switches on top); never a file (a remote caller names rules, it
    does not read the server's files)."""
    loaded = loaded or {}
    if not isinstance(rules, str) or (rules not in PRESETS and rules not in loaded):
        names = ", ".join([*sorted(PRESETS), *sorted(loaded)])
        raise TableError(f"rules must be one of: {names}")
    if house is not None and (not isinstance(house, str) or len(house) > MAX_HOUSE):
        raise TableError(f"house must be text of at most {MAX_HOUSE} characters")
    try:
        return resolve(loaded.get(rules, rules), house or None)
    except ValueError as e:
        raise TableError(str(e).splitlines()[0]) from None
