"""A round you can hold: the stepwise game API (OpenSpiel's ``State`` and pgx are the
models).

``Game(rules, n_players, seed=0, **house)`` fixes the rules and the seating; its
``new_round(index)`` deals round ``index`` of root ``seed`` exactly as
:func:`unosim.simulate` deals game ``index`` of that seed, and returns a :class:`State`:

    >>> import unosim
    >>> g = unosim.Game("official", 4, seed=7)
    >>> s = g.new_round(0)
    >>> while not s.is_terminal():
    ...     s.apply(s.legal_actions()[0])
    >>> s.returns()

The state is the kernel's own arrays (``unosim.kernel.stepwise.turns``): ``apply`` checks the
action against the state's mask (never a copy an agent holds), logs it and advances
the round to the next decision in one numba call; ``clone``, ``snapshot`` and
``restore`` copy arrays (no replay). The random streams live in the arrays, so a clone
plays the same future. Actions are the indices of ``ACTIONS`` (``Discrete(130)``, the
table in ``unosim.kernel.outside.protocol`` and ``docs/environments.md``: the built-in cards'
actions 0-97, then the declared cards' (docs/cards.md); ``Game.actions`` names them with
the rule set's card names).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..game.rules import resolve
from ..kernel.core import layout as L
from ..kernel.core.state import Table
from ..kernel.expert.rounds import N_X
from ..kernel.outside import protocol as K
from ..kernel.stepwise import tensors as T
from ..kernel.stepwise import turns as S
from ..players.expert import expert_array
from ..players.seats import parse_seats
from ..players.strategies import DEFAULTS, RANDOM
from . import engine
from .outside import ACTIONS, DECISIONS, IllegalAction, Observation, _history, action_names

N_ACTIONS = K.N_ACTIONS
OBSERVATION_SHAPE = (T.N_T,)  # float32, in [0, 1] (``observation_tensor``)
INFORMATION_STATE_SHAPE = (T.N_INFO,)  # float32, in [0, 1]
HISTORY = 64  # public events kept (``Observation.history``, the information state)
RESAMPLE_TRIES = 64  # deals tried by ``resample_hidden`` before it gives up
_VIEW = K.O_HIST + K.HIST_W * HISTORY  # the game's room in ``ob`` (``outside.view_at``)

__all__ = ["Game", "State", "ACTIONS", "DECISIONS", "IllegalAction", "N_ACTIONS"]


def _stepped(n: int):
    """An agent for a stepped seat (the seat's decisions come from ``State.apply``)."""
    from ..players.agents import Agent

    return Agent(_no_call, "agent:stepped", None)


def _no_call(obs):
    raise RuntimeError("a stepped seat is played through State.apply()")


class Game:
    """The rules and the seating of stepwise rounds.

    Parameters
    ----------
    rules : str or RuleSet
        A preset name, a TOML file or a ``RuleSet`` (``unosim.resolve``); declared
        cards (docs/cards.md) play as in ``simulate`` (their actions: ``actions``).
    n_players : int
        Players, 2 to 10.
    seed : int
        Root seed: round ``index`` is ``simulate``'s game ``index`` of this seed.
    opponents : sequence of str or None, optional
        A built-in strategy per seat (``"random"``, ``"heuristic"``, ``"expert"``...)
        or None for a seat stepped through ``apply``; default: every seat stepped.
    auto_uno : bool
        A stepped seat says UNO without being asked (default False: the full rules).
    draw_only_when_stuck : bool
        Drawing is legal only with no playable card (default False: the rules'
        ``voluntary_draw``).
    single_moves : bool
        A decision with one legal action is a step too (default True, as in OpenSpiel;
        False: it is made at once).
    **house
        House rules over ``rules`` (``stacking="same"``, ``jump_in=True``...).
    """

    def __init__(
        self,
        rules="official",
        n_players: int = 4,
        seed: int = 0,
        *,
        opponents: Sequence[str | None] | None = None,
        auto_uno: bool = False,
        draw_only_when_stuck: bool = False,
        single_moves: bool = True,
        **house,
    ):
        rs = resolve(rules, dict(house) if house else None)
        if isinstance(n_players, bool) or not isinstance(n_players, (int, np.integer)):
            raise ValueError(f"n_players must be a whole number, got {n_players!r}")
        n = int(n_players)
        rs.check_players(n)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
        if opponents is None:
            opponents = [None] * n
        opponents = list(opponents)
        if len(opponents) != n:
            raise ValueError(f"opponents: {len(opponents)} given for {n} seats")
        spec = [_stepped(n) if o is None else o for o in opponents]
        sid, sp, labels, _ = parse_seats(spec, n)
        self.rules, self.n_players, self.seed = rs, n, int(seed)
        # the actions' names, the declared cards by theirs (``ACTIONS`` calls them X1...)
        self.actions = action_names(rs.card_names)
        self.labels = labels
        self.stepped = tuple(o is None for o in opponents)
        if not any(self.stepped):
            raise ValueError("opponents: at least one seat must be stepped (None)")
        deck = rs.deck_counts()
        self._tb = Table(rs.to_array(), sid, sp, deck, rs.points_table())
        rsp = np.zeros_like(sp)
        rsp[:] = DEFAULTS["random"]
        self._tbr = Table(self._tb.rules, np.full_like(sid, RANDOM), rsp, deck, self._tb.points)
        xp = expert_array(labels, rs)
        self._xp = np.zeros((L.MAX_PLAYERS, N_X), np.int64) if xp is None else xp
        self._deck_n = int(deck.sum())
        # None without expert seats: the kernels compile the search out (``game_search``)
        self._sa = engine.game_search(self._tb, self._deck_n if xp is not None else 0)
        self._cfg = np.zeros(S.N_CF, np.int64)
        self._cfg[S.CF_N] = n
        self._cfg[S.CF_STOP] = sum(1 << q for q in range(n) if self.stepped[q])
        self._cfg[S.CF_AUTO_UNO] = 1 if auto_uno else 0
        self._voluntary = 0 if draw_only_when_stuck or not rs.voluntary_draw else 1
        self._step_entry = None  # the compiled kernels' entry points, once known (_fast)
        self._tensor_entry = None
        self._flat_entry = None
        self._single = 1 if single_moves else 0
        self._deck = deck.astype(np.int64)

    def new_round(
        self, index: int = 0, seed: int | None = None, reuse: State | None = None
    ) -> State:
        """Round ``index`` of root ``seed`` (default: the game's), at its first decision
        (or its end); ``reuse``: a state of this game whose arrays it takes (no
        allocation: the environments' resets)."""
        for name, v in (("index", index), ("seed", self.seed if seed is None else seed)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"{name} must be a whole number >= 0, got {v!r}")
        root = self.seed if seed is None else int(seed)
        if reuse is not None and reuse.game is self:
            reuse._deal(int(index), root)
            return reuse
        return State(self, int(index), seed=root)

    def __repr__(self) -> str:
        return f"Game({self.rules.name!r}, {self.n_players}, seed={self.seed})"


_FAST: dict = {}
_INTS = (int, np.int64, np.int32, np.intp, np.int16, np.int8, np.uint8)


def _fast(dispatcher, searching=None):
    """``dispatcher``'s compiled entry point for the call (``engine.entry``: no typing
    of the arguments on each call; ``searching``: whether the search scratch is passed,
    None for a function that takes none), else the dispatcher itself (not compiled for
    it yet, or no jit)."""
    key = (dispatcher, searching)
    f = _FAST.get(key)
    if f is None:
        if not getattr(dispatcher, "overloads", None):
            return dispatcher
        try:
            f = engine.entry(dispatcher, searching)
        except (AttributeError, ValueError):
            f = dispatcher
        if f is None:  # compiled for the other kind of game only: typed, then compiled
            return dispatcher
        _FAST[key] = f
    return f


def _action_index(action) -> int:
    """``action`` as an index of the action space, or -1 (not legal anywhere)."""
    if type(action) in _INTS:  # the common case, without the general checks
        a = int(action)
    else:
        try:
            ok = not isinstance(action, bool) and int(action) == action
        except (TypeError, ValueError, OverflowError):
            ok = False
        a = int(action) if ok else -1
    return a if 0 <= a < N_ACTIONS else -1


def _flat_step(game: Game):
    """``step_flat``'s entry point, kept on ``game`` once compiled (``_fast``)."""
    f = _fast(engine.game_step_flat, game._sa is not None)
    if f is not engine.game_step_flat:
        game._flat_entry = f
    return f


def _step(game: Game):
    return _fast(engine.game_step, game._sa is not None)


def _tensor():
    return _fast(engine.game_observation_tensor)


class State:
    """One round at one decision (``Game.new_round``).

    ``current_player`` the seat to act (-1 when the round is over); ``legal_actions()``
    the legal actions; ``apply(action)``; ``observation(seat)`` and the tensors for any
    seat; ``returns()``; ``clone()``, ``snapshot()`` / ``restore()``;
    ``resample_hidden(seat, rng)``; ``play_builtin()``.
    """

    __slots__ = ("game", "index", "_order", "_rd", "_ck", "_out", "_status", "_mask")

    def __init__(self, game: Game, index: int, _copy: State | None = None, seed: int = 0):
        self.game = game
        self.index = index
        self._order, self._rd, self._ck = engine.game_arrays(game._tb.deck, HISTORY)
        self._out = np.zeros(L.N_COLS, np.int32)
        self._mask = self._rd.outside_log[K.O_MASK : K.O_MASK + N_ACTIONS]  # a view: the live mask
        if _copy is not None:
            self._load(_copy._arrays())
            return
        self._deal(index, seed)

    def _deal(self, index: int, seed: int, seat: int = -1, flat=None) -> None:
        """Deal round ``index`` of root ``seed`` into this state's arrays (every array a
        round reads is set by the deal, as a batch's slots are reused); with ``flat``,
        write ``seat``'s flat observation into it in the same kernel call (``write_flat``:
        the environments' resets)."""
        game = self.game
        self.index = index
        ob = self._rd.outside_log
        ob[: K.N_OH] = 0
        ob[K.O_CK_P] = -1
        ob[K.O_HIST_CAP] = HISTORY
        ob[K.O_VOLUNTARY] = game._voluntary
        ob[K.O_SEED] = seed
        ob[K.O_GAME] = index
        ob[_VIEW + K.W_SINGLE] = game._single
        self._out[:] = 0
        if flat is not None:
            f = _fast(engine.game_start_flat, game._sa is not None)
            self._status = f(
                game._tb, self._rd, self._ck, self._order, game._xp, game._sa, self._out,
                game._cfg, game._deck, seat, flat,
            )  # fmt: skip
            return
        start = _fast(engine.game_start, game._sa is not None)
        self._status = int(
            start(
                game._tb, self._rd, self._ck, self._order, game._xp, game._sa, self._out, game._cfg
            )
        )

    # -- reading the state ------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act, or -1 when the round is over."""
        return int(self._rd.outside_log[K.O_SEAT]) if self._status == K.ST_ASKING else -1

    @property
    def decision(self) -> str | None:
        """The decision at hand (``DECISIONS``), or None at the end."""
        if self._status != K.ST_ASKING:
            return None
        return DECISIONS[int(self._rd.outside_log[K.O_KIND])]

    def is_terminal(self) -> bool:
        return self._status == K.ST_DONE

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted (empty at the end)."""
        return np.flatnonzero(self.legal_mask()).tolist()

    def legal_mask(self) -> np.ndarray:
        """int8[N_ACTIONS]: 1 for each legal action (all 0 at the end)."""
        return self._mask.astype(np.int8)

    def legal_bool(self) -> np.ndarray:
        """bool[N_ACTIONS]: True for each legal action (all False at the end)."""
        return self._mask.astype(bool)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (any seat, deciding or not): an
        :class:`unosim.Observation` (its ``legal`` is empty for a seat not deciding)."""
        seat = self._seat(seat)
        ob = self._rd.outside_log
        row = ob.copy()
        w = _VIEW
        if seat != self.current_player:
            row[K.O_MASK : K.O_MASK + N_ACTIONS] = 0
            row[K.O_OBS + K.V_SEAT] = seat
            row[K.O_OBS + K.V_BLUFF] = 0
            if row[K.O_OBS + K.V_KIND] == K.D_DRAWN:
                row[K.O_OBS + K.V_CARD] = -1
        h = ob[w + K.W_HANDS + seat * K.N_SEEN : w + K.W_HANDS + (seat + 1) * K.N_SEEN]
        row[K.O_OBS + K.V_HAND : K.O_OBS + K.V_HAND + K.N_SEEN] = h
        return Observation(row, _history(row, HISTORY), lambda: None)

    def observation_tensor(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """float32[OBSERVATION_SHAPE] in [0, 1]: what ``seat`` may know (the fields
        ``kernel.stepwise.turns.T_FIELDS``, documented in docs/environments.md)."""
        if out is None:
            out = np.empty(T.N_T, np.float32)
        _tensor()(self._rd.outside_log, self.game._deck, self._seat(seat), out)
        return out

    def write_flat(self, seat: int, out: np.ndarray) -> np.ndarray:
        """The environments' flat observation of ``seat`` into ``out`` float32[N_ACTIONS +
        N_T]: the action mask (the deciding seat's; 0 for the others), then
        ``observation_tensor(seat)``."""
        ob = self._rd.outside_log
        if self._status == K.ST_ASKING and ob[K.O_SEAT] == seat:
            out[:N_ACTIONS] = self._mask
        else:
            out[:N_ACTIONS] = 0.0
        g = self.game
        f = g._tensor_entry
        if f is None:
            f = _tensor()
            if f is not engine.game_observation_tensor:
                g._tensor_entry = f
        f(ob, g._deck, seat, out[N_ACTIONS:])
        return out

    def information_state_tensor(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """float32[INFORMATION_STATE_SHAPE] in [0, 1]: ``observation_tensor`` and the
        last 32 public events (``kernel.stepwise.turns.encode_history``)."""
        if out is None:
            out = np.empty(T.N_INFO, np.float32)
        engine.game_information_state_tensor(
            self._rd.outside_log, self.game._deck, self._seat(seat), out
        )
        return out

    def record(self) -> np.ndarray:
        """The round's record int32[N_COLS] (``kernel.core.layout.C_*``, as ``simulate``
        writes it); all 0 before the end."""
        return self._out.copy()

    def returns(self, reward: str = "win") -> np.ndarray:
        """float64[n_players] at the end (0 before): ``win`` +1 for the winner;
        ``points`` the winner's points (RULES.md 5) for the winner; ``rank`` +1 for the
        winner, down to -1 for the hand with the most points (ties share); a round cut
        at ``max_turns`` gives 0 to every seat."""
        n = self.game.n_players
        r = np.zeros(n)
        if self._status != K.ST_DONE or self._out[L.C_TRUNCATED]:
            return r
        w = int(self._out[L.C_WINNER])
        if reward == "win":
            r[w] = 1.0
        elif reward == "points":
            r[w] = float(self._out[L.C_POINTS])
        elif reward == "rank":
            pts = self._out[L.C_HAND_POINTS : L.C_HAND_POINTS + n].astype(np.float64)
            pts[w] = -1.0  # the winner ranks first
            better = np.array([(pts < x).sum() + 0.5 * ((pts == x).sum() - 1) for x in pts])
            r = 1.0 - 2.0 * better / (n - 1)
        else:
            raise ValueError(f"reward must be win, points or rank, got {reward!r}")
        return r

    # -- changing it ------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Play ``action`` at the decision at hand, then advance to the next decision.
        An action the state does not allow raises :class:`IllegalAction` (the state
        unchanged)."""
        a = _action_index(action)
        g = self.game
        f = g._step_entry
        if f is None:
            f = _step(g)
            if f is not engine.game_step:  # compiled: its entry point from now on
                g._step_entry = f
        st = int(f(g._tb, self._rd, self._ck, self._order, g._xp, g._sa, self._out, g._cfg, a))
        if st < 0:
            self._refuse(st, action)
        self._status = st

    def apply_flat(self, action: int, seat: int, flat: np.ndarray) -> np.ndarray:
        """``apply(action)``, then ``write_flat(seat, flat)``, in one kernel call (the
        Gymnasium environment's step; ``kernel.stepwise.flat``). Returns ``flat``."""
        if type(action) in _INTS:  # the common case, without the general checks
            a = int(action)
            if not 0 <= a < N_ACTIONS:
                a = -1
        else:
            a = _action_index(action)
        g = self.game
        f = g._flat_entry or _flat_step(g)
        st = f(
            g._tb, self._rd, self._ck, self._order, g._xp, g._sa, self._out, g._cfg, a,
            g._deck, seat, flat,
        )  # fmt: skip
        if st < 0:
            self._refuse(st, action)
        self._status = st
        return flat

    def play_builtin(self, strategy: str = "random") -> int:
        """Make the built-in ``strategy``'s choice at the decision at hand, drawing from
        the seat's own random stream as ``simulate`` does (so a round played this way at
        every seat is ``simulate``'s round), and apply it; returns the action. Only
        ``random`` so far."""
        if strategy != "random":
            raise ValueError(f"play_builtin plays 'random' only so far, got {strategy!r}")
        g = self.game
        a, st = engine.game_builtin(
            g._tb, g._tbr, self._rd, self._ck, self._order, g._xp, g._sa, self._out, g._cfg
        )
        if st < 0:
            self._refuse(int(st), int(a))
        self._status = int(st)
        return int(a)

    def _refuse(self, st: int, action) -> None:
        if st == S.ERR_OVER:
            raise IllegalAction(f"round {self.index} is over: no action is legal")
        if st == S.ERR_LOG:
            raise RuntimeError(f"more than {K.LOG_CAP} decisions within one turn")
        p = self.current_player
        names = self.game.actions
        try:
            shown = names[int(action)]
        except (TypeError, ValueError, OverflowError, IndexError):
            shown = repr(action)[:80]
        legal = ", ".join(f"{x} ({names[x]})" for x in self.legal_actions())
        raise IllegalAction(
            f"seat {p}'s {self.decision} decision: action {shown} is not legal; legal: {legal}"
        )

    def _seat(self, seat) -> int:
        n = self.game.n_players
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, got {seat!r}")
        return int(seat)

    # -- copies -----------------------------------------------------------------------

    def _arrays(self) -> tuple:
        return (self._rd, self._ck, self._out, self._status)

    def _load(self, arrays: tuple) -> None:
        rd, ck, out, status = arrays
        engine.game_copy(rd, self._rd)
        engine.game_copy(ck, self._ck)
        self._out[:] = out
        self._status = status

    def snapshot(self) -> tuple:
        """A copy of the state's arrays (``restore`` puts it back)."""
        order, rd, ck = engine.game_arrays(self.game._tb.deck, HISTORY)
        engine.game_copy(self._rd, rd)
        engine.game_copy(self._ck, ck)
        return (rd, ck, self._out.copy(), self._status)

    def restore(self, snap: tuple) -> None:
        """Back to a ``snapshot`` of this game's states."""
        self._load(snap)

    def clone(self) -> State:
        """An independent copy: it plays the same future for the same actions."""
        return State(self.game, self.index, _copy=self)

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> bool:
        """Deal anew what ``seat`` cannot see (the other hands, the draw pile and the
        hidden random streams), consistently with what it knows: every hand's size, its
        own hand, the public cards, the cards the others played since the turn began.
        The state stays at the same decision. Returns False (the state unchanged) where
        no such deal is made: the colour named at setup, a decision inside a turn in
        which hands moved (swaps), or after ``RESAMPLE_TRIES`` inconsistent deals."""
        seat = self._seat(seat)
        if self._status != K.ST_ASKING:
            return False
        g = self.game
        keep = self.snapshot()
        for _ in range(RESAMPLE_TRIES):
            key = rng.integers(0, 2**63, size=4, dtype=np.int64).astype(np.uint64)
            key[0] |= np.uint64(1)
            ok = engine.game_resample(
                g._tb,
                self._rd,
                self._ck,
                self._order,
                g._xp,
                g._sa,
                self._out,
                g._cfg,
                np.int64(seat),
                key,
            )
            if ok == 1:
                self._status = int(self._rd.outside_log[K.O_STATUS])
                return True
            self.restore(keep)
            if ok < 0:
                return False
        return False

    def __repr__(self) -> str:
        if self.is_terminal():
            return f"State(round {self.index}, over, winner {int(self._out[L.C_WINNER])})"
        return (
            f"State(round {self.index}, seat {self.current_player}'s {self.decision}, "
            f"{len(self.legal_actions())} legal)"
        )
