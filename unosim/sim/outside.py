"""Python agents at the table: their observations, their actions, and the rounds they
play. (This module's kernel calls belong with ``unosim.sim.engine``, the one door into
the kernel.)

An agent is a callable ``agent(obs) -> action`` or an object with ``act(obs) ->
action``; ``action`` is an index of the action space (``ACTIONS``, the table in
``unosim.kernel.outside.protocol``). The kernel stops before each decision of an agent's seat
with more than one legal action (every decision of RULES.md section 10: the card to
play or drawing, the colour named after one's wild-type card (part of the play),
playing or keeping a legal card drawn, stacking, challenging or taking a penalty, the
swap target, jumping in, the extra cards of a multi-card play, the UNO call, and the
colour named at setup or after Greninja) and hands the agent an :class:`Observation`.
An action outside ``obs.legal`` raises :class:`IllegalAction`. The one choice left to
chance is the order of a Snorlax victim's discards (RULES.md 2's ``random`` order, drawn
from the seat's own kernel stream).

Randomness: ``obs.rng`` is a ``numpy.random.Generator`` seeded by (root seed, game,
seat), the same object for every decision of that seat in that game, so a
deterministic agent's games depend only on (seed, game), on any number of threads or
chunks.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from ..game.cards import COLOURS, kind_name
from ..kernel.core import layout as L
from ..kernel.core.state import Table
from ..kernel.expert.rounds import N_X
from ..kernel.outside import protocol as K
from ..kernel.rules.family import RuleConstants
from . import engine

DECISIONS = ("turn", "penalty", "drawn", "colour", "target", "jump", "extra", "uno")
N_ACTIONS = K.N_ACTIONS
HISTORY = 256  # public events an observation keeps (the round's last ones)
IN_FLIGHT = 64  # games played side by side (one kernel call advances them all)
PER_THREAD = 512  # games a thread advances at least, when a call is split
PER_THREAD_EXPERT = 4  # ... with expert seats (their searches cost ~1,000 times more)


def action_name(a: int, names: tuple[str, ...] = ()) -> str:
    """A readable name of action ``a`` (``names``: the declared cards' names, in
    declaration order, ``RuleSet.card_names``; without them ``X1``, ``RX1``...)."""
    a = int(a)
    k, c = card_of(a), colour_of(a)
    if k >= 0:
        shown = kind_name(k, names)
        return f"play {shown}" if c < 0 else f"play {shown} naming {COLOURS[c]}"
    if a == K.A_DRAW:
        return "draw"
    if a == K.A_PASS:
        return "pass"
    if a == K.A_CHALLENGE:
        return "challenge"
    if K.A_COLOUR <= a < K.A_SEAT:
        return f"name {COLOURS[a - K.A_COLOUR]}"
    if K.A_SEAT <= a < K.A_UNO:
        return f"swap with seat {a - K.A_SEAT}"
    if a == K.A_UNO:
        return "say UNO"
    return f"no action {a}"


def _py(f):
    """A kernel function's Python code (no compile for a table of names)."""
    return getattr(f, "py_func", f)


def play_action(kind: int, colour: int = 0) -> int:
    """The action playing card ``kind`` (naming ``colour`` if it is wild-type; a
    declared wild card that names no colour: colour 0)."""
    return int(_py(engine.play_action)(int(kind), int(colour)))


def card_of(a: int) -> int:
    """The card a play action plays, or -1."""
    return int(_py(engine.action_card)(int(a))[0])


def colour_of(a: int) -> int:
    """The colour a play action of a wild-type card names (0 for a declared wild card
    that names none), or -1."""
    return int(_py(engine.action_card)(int(a))[1])


ACTIONS = tuple(action_name(a) for a in range(N_ACTIONS))


def action_names(names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """``ACTIONS`` with the declared cards called by their ``names``."""
    if not names:
        return ACTIONS
    return tuple(action_name(a, tuple(names)) for a in range(N_ACTIONS))


class AgentError(ValueError):
    """An agent at a seat failed to give an action: it raised, tried to end the program,
    timed out, or its process ended. The message (one line) names the seat and the
    agent; the agent's own exception, if any, is its ``__cause__``."""


class IllegalAction(AgentError):
    """An agent chose an action the decision at hand does not allow (or no action at
    all: ``None``, ``nan``, a float, text, a number outside the action space)."""


_V = K.O_OBS - K.O_MASK  # offset of the observation fields in ``Observation._v``


class Observation:
    """What one seat may know at one decision, and the decision itself.

    The decision
      ``decision``  its kind: ``turn`` (play a card or draw), ``penalty`` (a Draw Two /
                    Wild Draw Four penalty is pending: challenge, stack or take it),
                    ``drawn`` (a legal card was just drawn: play or keep it), ``colour``
                    (name a colour: a wild turned at setup, Greninja's second colour),
                    ``target`` (whom to swap hands with, or to aim a card at),
                    ``jump`` (jump in with the identical card, or pass),
                    ``extra`` (a further card of a multi-card play, or pass), ``uno``
                    (say UNO, or pass and risk being caught)
      ``legal``     the legal actions, a sorted list of action indices
      ``mask``      int8[130]: 1 for each legal action (the action space ``ACTIONS``)
      ``card``      the card it is about: drawn (``drawn``), to jump in with
                    (``jump``), the last card played so far (``extra``); else -1
      ``first``     ``extra``: the first card of the play; ``step`` the run's step
                    so far (+1, -1, 0 before any run)
      ``bluff``     ``turn``: playing a Wild Draw Four now would be a bluff (4.3)
    The table
      ``seat``, ``n_players``; ``hand`` int16[79] its own cards per kind (``cards``);
      ``hand_sizes`` int64[n_players] every hand's size; ``top`` the top card's kind;
      ``colour`` the current colour (0-3: red, yellow, green, blue); ``previous_colour``
      the colour before the last wild-type card; ``direction`` +1 (seat order) or -1;
      ``pending_draw`` the pending penalty; ``pending_skip`` pending skips;
      ``challengeable`` 1 if the pending Wild Draw Four may be challenged;
      ``pending_by`` the seat that played the pending penalty's last card (-1: none);
      ``stackable`` the kinds that may be stacked on it; ``draw_pile`` and
      ``discard_pile`` their sizes; ``discarded`` int16[79] the discard pile per kind
      (all face up); ``turn`` turns taken so far;
      ``history`` int64[events, 5]: the round's public events, oldest first (at most
      the last ``HISTORY``): type (``kernel.core.layout.E_*``, names in ``EVENT_NAMES``),
      seat, card (-1 when hidden: a card drawn), flags (a challenge's outcome), aux (a
      swap's target, a penalty's cards, ...);
      ``rng`` the seat's ``numpy.random.Generator``; ``game`` the round's index
      (``simulate``'s game).
    """

    __slots__ = ("_v", "_hist", "_legal", "_rng", "_key", "_game")

    def __init__(self, row: np.ndarray, hist: np.ndarray, rng_key):
        # read-only copies that cannot be made writable again (their memory is a bytes
        # object): nothing an agent does to its observation reaches the engine, and the
        # engine never reads the observation back (``Tables.act`` checks its own mask)
        self._v = _frozen(row[K.O_MASK : K.O_HIST])
        self._hist = _frozen(hist)
        self._legal: list[int] | None = None
        self._rng: np.random.Generator | None = None
        self._key = rng_key
        self._game = int(row[K.O_GAME])

    def _f(self, i: int) -> int:
        return int(self._v[_V + i])

    @property
    def decision(self) -> str:
        return DECISIONS[self._f(K.V_KIND)]

    @property
    def mask(self) -> np.ndarray:
        return self._v[:N_ACTIONS].astype(np.int8)

    @property
    def legal(self) -> list[int]:
        if self._legal is None:
            self._legal = self._v[:N_ACTIONS].nonzero()[0].tolist()
        return self._legal

    @property
    def legal_names(self) -> list[str]:
        return [ACTIONS[a] for a in self.legal]

    seat = property(lambda self: self._f(K.V_SEAT))
    n_players = property(lambda self: self._f(K.V_N))
    top = property(lambda self: self._f(K.V_TOP))
    colour = property(lambda self: self._f(K.V_COLOUR))
    previous_colour = property(lambda self: self._f(K.V_PREV_COLOUR))
    direction = property(lambda self: self._f(K.V_DIR))
    pending_draw = property(lambda self: self._f(K.V_PEND_DRAW))
    pending_skip = property(lambda self: self._f(K.V_PEND_SKIP))
    challengeable = property(lambda self: self._f(K.V_CHALLENGEABLE))
    pending_by = property(lambda self: self._f(K.V_PEND_BY))
    draw_pile = property(lambda self: self._f(K.V_PILE_N))
    discard_pile = property(lambda self: self._f(K.V_DISC_N))
    turn = property(lambda self: self._f(K.V_TURN))
    card = property(lambda self: self._f(K.V_CARD))
    first = property(lambda self: self._f(K.V_FIRST))
    step = property(lambda self: self._f(K.V_STEP))
    bluff = property(lambda self: bool(self._f(K.V_BLUFF)))

    @property
    def stackable(self) -> list[int]:
        lo, hi = self._f(K.V_STACKABLE), self._f(K.V_STACKABLE_HI)
        return [
            k
            for k in range(K.N_SEEN)
            if (k < K.STACK_LO and (lo >> k) & 1)
            or (k >= K.STACK_LO and (hi >> (k - K.STACK_LO)) & 1)
        ]

    @property
    def hand(self) -> np.ndarray:
        return self._v[_V + K.V_HAND : _V + K.V_HAND + K.N_SEEN].astype(np.int16)

    @property
    def discarded(self) -> np.ndarray:
        return self._v[_V + K.V_DISC : _V + K.V_DISC + K.N_SEEN].astype(np.int16)

    @property
    def hand_sizes(self) -> np.ndarray:
        return self._v[_V + K.V_SIZES : _V + K.V_SIZES + self.n_players].copy()

    @property
    def history(self) -> np.ndarray:
        return self._hist

    @property
    def game(self) -> int:
        return self._game

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = self._key()
        return self._rng

    def vector(self) -> np.ndarray:
        """Every field above but the history as one int64 array: the mask (130), then
        ``kernel.outside.protocol``'s fields ``V_*`` (hand, sizes, discarded, ...)."""
        return self._v.copy()

    def __repr__(self) -> str:
        return f"Observation(seat {self.seat}, {self.decision}, legal {self.legal_names})"


def _frozen(a: np.ndarray) -> np.ndarray:
    """A read-only copy of ``a`` whose ``writeable`` flag cannot be set again."""
    return np.frombuffer(np.ascontiguousarray(a).tobytes(), dtype=a.dtype).reshape(a.shape)


def _history(row: np.ndarray, cap: int) -> np.ndarray:
    n = int(row[K.O_HIST_N])
    h = row[K.O_HIST : K.O_HIST + cap * K.HIST_W].reshape(cap, K.HIST_W)
    if n <= cap or cap == 0:
        return h[:n].copy()
    i = n % cap
    return np.concatenate([h[i:], h[:i]])


def as_action(a) -> int | None:
    """``a`` as an action index if it is a whole number of the action space (a Python or
    NumPy integer, not a bool), else None: ``None``, ``nan``, floats, text and numbers
    outside ``0 .. N_ACTIONS - 1`` are no action."""
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
        return None
    a = int(a)
    return a if 0 <= a < N_ACTIONS else None


def shown_action(a) -> str:
    """An action as an error message shows it: its index and name, or the value given
    (its ``repr``, cut to 80 characters)."""
    i = as_action(a)
    if i is not None:
        return f"{i} ({ACTIONS[i]})"
    try:
        text = repr(a)
    except Exception:  # noqa: BLE001  (an object whose repr fails still gets a line)
        text = f"<{type(a).__name__}>"
    return text[:80]


def illegal(mask: np.ndarray, a, seat: int, decision: str, who: str = "") -> IllegalAction:
    """The error for action ``a`` at seat ``seat``'s ``decision``, whose legal actions are
    ``mask`` (int[N_ACTIONS]); ``who`` names the agent."""
    legal = ", ".join(f"{x} ({ACTIONS[x]})" for x in np.flatnonzero(mask[:N_ACTIONS]))
    agent = f" ({who})" if who else ""
    return IllegalAction(
        f"seat {seat}{agent}'s {decision} decision: action {shown_action(a)} is not "
        f"legal; legal: {legal}"
    )


def check_action(obs: Observation, a) -> int:
    """``a`` as an action index, or :class:`IllegalAction` naming the decision, the
    action and the legal ones (a check for the caller's convenience: the engine checks
    every action against its own mask again, ``Tables.act``)."""
    i = as_action(a)
    if i is not None and obs._v[i] == 1:
        return i
    raise illegal(obs._v, a, obs.seat, obs.decision)


class Tables:
    """``b`` games with outside seats played side by side (a batch).

    ``rules`` int64[N_RULES] and the other kernel arrays as ``batch.run_rounds`` takes
    them; ``voluntary``: the rule voluntary_draw; ``family``: compile the rules into the
    kernel (``kernel.rules.family``) when their rule set has a kernel of its own and no
    seat is an expert (the same games; a compile of its own per rule set, so only for
    callers whose calls skip numba's typing of the table, ``env.BatchEnv``). Each slot
    plays one game at a time: ``start(slot, game)``, then ``advance(slots)`` until the
    slot's game is over (its record in ``out[slot]``), with an action logged (``act``)
    after every stop.
    """

    def __init__(
        self,
        rules,
        sid,
        sp,
        deck,
        points,
        n,
        seed,
        b,
        voluntary=True,
        history=HISTORY,
        capacity=1,
        xp=None,
        family=False,
    ):
        special = family and xp is None and engine.has_family(rules)
        self.tb = Table(rules, sid, sp, deck, points, RuleConstants(rules) if special else None)
        # the expert seats' parameters (``players.expert.expert_array``; None: no expert)
        self.xp = np.zeros((L.MAX_PLAYERS, N_X), np.int64) if xp is None else xp
        self.per_thread = PER_THREAD if xp is None else PER_THREAD_EXPERT
        self.n, self.seed, self.b = int(n), int(seed), int(b)
        self.history = int(history)
        self.order, self.games, self.cks = engine.outside_games(
            deck, self.b, capacity, self.history
        )
        self.outside_log = self.games.outside_log
        self.out = np.zeros((self.b, L.N_COLS), dtype=np.int32)
        self.stop = np.int64(sum(1 << q for q in range(self.n) if sid[q] == K.OUTSIDE))
        self.voluntary = 1 if voluntary else 0
        self.game = np.full(self.b, -1, dtype=np.int64)

    def start(self, slot: int | np.ndarray, game: int | np.ndarray) -> None:
        """Put game index ``game`` in ``slot``, to be dealt by the next ``advance``; or
        the games ``game`` (int64[m]) in the slots ``slot`` (int64[m]), in one go."""
        ob = self.outside_log
        ob[slot, : K.N_OH] = 0
        ob[slot, K.O_CK_P] = -1
        ob[slot, K.O_HIST_CAP] = self.history
        ob[slot, K.O_VOLUNTARY] = self.voluntary
        ob[slot, K.O_SEED] = self.seed
        ob[slot, K.O_GAME] = game
        self.game[slot] = game

    def advance(self, slots: np.ndarray) -> np.ndarray:
        """Advance the games in ``slots`` (int64[m]); their statuses ``ST_*``. Many
        games are split across numba's thread count (each game's rows are its own)."""
        threads = min(numba.get_num_threads(), len(slots) // self.per_thread)
        if threads <= 1:
            return engine.outside_advance(
                self.tb,
                self.games,
                self.cks,
                self.n,
                self.order,
                self.stop,
                slots,
                self.out,
                self.xp,
            )
        parts = np.array_split(slots, threads)
        with ThreadPoolExecutor(max_workers=threads) as pool:
            done = list(
                pool.map(
                    lambda s: engine.outside_advance(
                        self.tb,
                        self.games,
                        self.cks,
                        self.n,
                        self.order,
                        self.stop,
                        s,
                        self.out,
                        self.xp,
                    ),
                    parts,
                )
            )
        return np.concatenate(done)

    def observation(self, slot: int, rng_key) -> Observation:
        row = self.outside_log[slot]
        return Observation(row, _history(row, self.history), rng_key)

    def legal_action(self, slot: int, a, who: str = "") -> int:
        """``a`` as an action index if it is legal at the decision the game in ``slot``
        waits at, judged by the engine's own mask (never by anything an agent holds),
        else :class:`IllegalAction` naming the seat, ``who`` (the agent), the decision,
        the action and the legal ones."""
        ob = self.outside_log[slot]
        mask = ob[K.O_MASK : K.O_MASK + N_ACTIONS]
        i = as_action(a)
        if i is not None and ob[K.O_STATUS] == K.ST_ASKING and mask[i] == 1:
            return i
        raise illegal(mask, a, int(ob[K.O_SEAT]), DECISIONS[int(ob[K.O_KIND])], who)

    def act(self, slot: int, a: int) -> None:
        """Log action ``a`` for the decision the game in ``slot`` waits at (checked
        against the engine's mask: :class:`IllegalAction` if it is not legal)."""
        a = self.legal_action(slot, a)
        ob = self.outside_log[slot]
        n = ob[K.O_LOG_N]
        if n >= K.LOG_CAP:
            raise RuntimeError(f"more than {K.LOG_CAP} decisions between two turns")
        ob[K.O_LOG + n] = a
        ob[K.O_LOG_N] = n + 1

    def trace(self, slot: int) -> np.ndarray:
        """The slot's trace rows so far (with a ``capacity`` large enough)."""
        n = min(int(self.games.trace_flags[slot, L.TR_EVENTS]), self.games.trace.shape[1])
        return self.games.trace[slot, :n].copy()


def seat_rng(seed: int, game: int, seat: int) -> np.random.Generator:
    """The agent's own generator for (seed, game, seat)."""
    return np.random.default_rng(np.random.SeedSequence([seed, game, seat, 0x5EA7]))


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0][:300] if text else ""


def ask_agent(agent, obs: Observation, seat: int, who: str):
    """What ``agent`` answers to ``obs`` at ``seat``: anything it raises, even
    ``SystemExit`` (an agent calling ``sys.exit``), becomes one :class:`AgentError`
    naming the seat and ``who`` (the agent's label), its exception as the cause; a
    ``KeyboardInterrupt`` (Ctrl-C while it thinks) passes through."""
    try:
        return agent(obs)
    except KeyboardInterrupt:
        raise
    except SystemExit as e:
        raise AgentError(
            f"seat {seat} ({who}): the agent tried to end the program (sys.exit({e.code!r}))"
        ) from None
    except AgentError as e:  # already an agent's failure (an isolated seat's): add the seat
        raise type(e)(f"seat {seat} ({who}): {_first_line(e)}") from e.__cause__
    except BaseException as e:  # noqa: BLE001  (whatever the agent's code throws)
        what = _first_line(e)
        raise AgentError(
            f"seat {seat} ({who}): the agent raised {type(e).__name__}"
            + (f": {what}" if what else "")
        ) from e


def play_games(
    rules,
    sid,
    sp,
    deck,
    points,
    n,
    seed,
    first_game,
    count,
    agents,
    voluntary=True,
    in_flight=IN_FLIGHT,
    history=HISTORY,
    xp=None,
) -> np.ndarray:
    """Play games ``first_game ..`` with ``agents[seat]`` (callables) at the outside
    seats, expert seats searching (``xp``: ``players.expert.expert_array``); returns
    int32[count, N_COLS], as ``batch.run_rounds`` does."""
    b = max(1, min(int(in_flight), count))
    t = Tables(rules, sid, sp, deck, points, n, seed, b, voluntary, history, xp=xp)
    out = np.zeros((count, L.N_COLS), dtype=np.int32)
    rngs: dict = {}
    nxt = 0
    slots = []
    for s in range(b):
        t.start(s, first_game + nxt)
        nxt += 1
        slots.append(s)
    todo = np.array(slots, dtype=np.int64)
    while todo.size:
        st = t.advance(todo)
        again = []
        asks = []
        for s, status in zip(todo.tolist(), st.tolist()):
            g = int(t.game[s])
            if status == K.ST_DONE:
                out[g - first_game] = t.out[s]
                for q in range(n):
                    rngs.pop((g, q), None)
                if nxt < count:
                    t.start(s, first_game + nxt)
                    nxt += 1
                    again.append(s)
                continue
            q = int(t.outside_log[s, K.O_SEAT])

            def key(g=g, q=q):
                r = rngs.get((g, q))
                if r is None:
                    r = rngs[(g, q)] = seat_rng(seed, g, q)
                return r

            asks.append((s, q, t.observation(s, key)))
            again.append(s)
        _decide(t, asks, agents)
        todo = np.array(again, dtype=np.int64)
    return out


def _decide(t: Tables, asks: list, agents) -> None:
    """Ask the agents about the decisions ``asks`` ((slot, seat, observation), in slot
    order) and log their actions. An agent in a process of its own (``decide.ask_many``,
    ``sim.isolated``) is sent all of its decisions at once, so the round trips overlap;
    the others are asked one by one, in order. The first failure in slot order raises."""
    answers: dict[int, object] = {}
    failures: dict[int, AgentError] = {}
    batched: dict[int, tuple] = {}
    for i, (_, q, _) in enumerate(asks):
        many = getattr(getattr(agents[q], "decide", None), "ask_many", None)
        if many is not None:
            batched.setdefault(id(agents[q].decide), (many, []))[1].append(i)
    for many, idx in batched.values():
        actions, failure = many([asks[i][2] for i in idx])
        answers.update(zip(idx, actions))
        if failure is not None:
            failures[idx[len(actions)]] = failure
    for i, (s, q, obs) in enumerate(asks):
        who = getattr(agents[q], "label", None) or type(agents[q]).__name__
        if i in failures:
            e = failures[i]
            raise type(e)(f"seat {q} ({who}): {_first_line(e)}") from e.__cause__
        a = answers[i] if i in answers else ask_agent(agents[q], obs, q, who)
        t.act(s, t.legal_action(s, a, who))
