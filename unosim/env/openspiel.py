"""UNO as an OpenSpiel game (``pip install open_spiel``): ``import unosim.openspiel``
registers ``python_unosim``, on unosim's stepwise game (``unosim.Game``), the same
rules engine as ``unosim.simulate``::

    game = pyspiel.load_game("python_unosim", {"players": 4, "rules": "official+stacking=same"})

Parameters (``PARAMETERS``; docs/environments.md): ``players`` (2 to 10), ``rules`` (a
preset, then house rules joined with ``+``, ``name=value`` or ``name:value``: the game's
string keeps ``:``, since an OpenSpiel game string holds no ``,`` or ``=`` in a value),
``reward`` (``win``: 1 to the winner; ``points``: the winner's points) and the house
switches ``stacking``, ``last_card``, ``after_draw`` (``""``: the preset's) and
``seven_zero``, ``jump_in``, ``multi_play`` (``true`` turns one on).

Chance is explicit and comes first: ``SEED_BYTES`` chance nodes each choose a byte of
the round's seed (round ``seed`` of root 0, as ``simulate`` deals it). A state is fixed
by its history: ``clone()`` copies arrays, a clone plays the same future, serialization
round-trips. A seat's observation is what it may know now; its information state adds
the moves it saw (all public, but another seat's pass at a decision asked only of a
seat holding a fitting card: ``UNSEEN_PASSES``). ``resample_from_infostate`` deals
afresh what the seat cannot see (what ISMCTS calls); its worlds are for search, not for
serializing. Returns come at the end; a round cut at ``max_turns`` returns 0 to all.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from typing import Any

import numpy as np
import pyspiel

from ..game.cards import COLOURS, kind_name
from ..game.rules import CHOICES, PRESETS, RuleError, RuleSet, parse_house, resolve
from ..kernel.outside.protocol import A_PASS, LOG_CAP
from ..sim.game import INFORMATION_STATE_SHAPE, OBSERVATION_SHAPE, Game, State
from ..sim.outside import ACTIONS, N_ACTIONS

SHORT_NAME = "python_unosim"
SEED_BYTES = 4  # chance nodes at the start, one byte of the round's seed each
MAX_PLAYERS = 10
MIN_PLAYERS = 2
# house switches as game parameters: strings ("" keeps the preset's) and bools (True
# turns the rule on)
CHOICE_SWITCHES = ("stacking", "last_card", "after_draw")
BOOL_SWITCHES = ("seven_zero", "jump_in", "multi_play")
REWARDS = ("win", "points")
# decisions a seat is asked only when it holds a fitting card: another seat's pass there
# is a move it does not see (it only sees that the play went on)
UNSEEN_PASSES = ("drawn", "jump", "extra")
PARAMETERS: dict[str, Any] = {
    "players": 4,
    "rules": "official",
    "reward": "win",
    **{name: "" for name in CHOICE_SWITCHES},
    **{name: False for name in BOOL_SWITCHES},
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="UNO (unosim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_of(params: dict) -> RuleSet:
    """The rule set the game parameters name (``rules``, then the house switches)."""
    text = str(params.get("rules", PARAMETERS["rules"]))
    preset, _, house = text.partition("+")
    preset = preset.strip()
    if preset not in PRESETS:
        raise RuleError(
            f"python_unosim: rules={text!r}: unknown preset {preset!r} "
            f"(presets: {', '.join(PRESETS)})"
        )
    try:
        changes = parse_house(house.replace(":", "=").replace("+", ",")) if house else {}
    except RuleError as e:
        raise RuleError(f"python_unosim: rules={text!r}: {e}") from None
    for name in CHOICE_SWITCHES:
        value = params.get(name, "")
        if value != "":
            if name in changes:
                raise RuleError(f"python_unosim: {name} given in rules and as a parameter")
            if value not in CHOICES[name]:
                raise RuleError(
                    f"python_unosim: {name}={value!r}: one of {', '.join(CHOICES[name])}"
                )
            changes[name] = value
    for name in BOOL_SWITCHES:
        if params.get(name, False):
            if name in changes:
                raise RuleError(f"python_unosim: {name} given in rules and as a parameter")
            changes[name] = "true"
    try:
        return resolve(preset, changes or None)
    except RuleError as e:
        raise RuleError(f"python_unosim: rules={text!r}: {e}") from None


class HiddenRead(RuntimeError):
    """A read of what a guarded state's seat cannot see (``guarded``)."""


class NoWorld(ValueError):
    """``resample_from_infostate`` at a decision where no world is dealt (the stepwise
    game's ``resample_hidden`` says which); the bots here then play a random legal
    action without searching."""


@contextmanager
def guarded(state: UnoState, seat: int):
    """Within the block, ``state`` shows ``seat``'s view only: its legal actions, its
    observation and information state, worlds resampled from them, and the returns at
    the end; a copy, a pickle, its string, another seat's view or a move raise
    :class:`HiddenRead`. The check that a search reads nothing hidden (tests)."""
    held = state._round
    if held is None:
        yield state
        return
    held.guard = int(seat)
    try:
        yield state
    finally:
        held.guard = None


def _check_params(params: dict) -> tuple[RuleSet, int, str]:
    n = params.get("players", PARAMETERS["players"])
    if isinstance(n, bool) or not isinstance(n, int) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(
            f"python_unosim: players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {n!r}"
        )
    reward = params.get("reward", PARAMETERS["reward"])
    if reward not in REWARDS:
        raise ValueError(
            f"python_unosim: reward must be one of {', '.join(REWARDS)}, got {reward!r}"
        )
    rs = rules_of(params)
    rs.check_players(n)
    return rs, n, reward


class UnoGame(pyspiel.Game):
    """The registered game ``python_unosim`` (see the module docstring)."""

    def __init__(self, params: dict | None = None):
        params = {**PARAMETERS, **(params or {})}
        self.rules, n, self.reward = _check_params(params)
        # ``name:value`` in the game's string: OpenSpiel's game strings (and so its
        # serialization) cannot hold a ``=`` inside a value
        params["rules"] = str(params["rules"]).replace("=", ":")
        self.engine = Game(self.rules, n, seed=0)  # a state deals round ``seed`` of it
        self.tensor_sizes = (OBSERVATION_SHAPE[0], INFORMATION_STATE_SHAPE[0])
        top = 1.0
        if self.reward == "points":  # every card of the deck in the losers' hands
            top = float(np.dot(self.rules.deck_counts(), self.rules.points_table()))
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=256,
            num_players=n,
            min_utility=0.0,
            max_utility=top,
            utility_sum=None,
            # a checkpoint at least every turn, at most ``LOG_CAP`` decisions between two
            max_game_length=(self.rules.max_turns + 1) * LOG_CAP,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> UnoState:
        return UnoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"python_unosim: observation parameters not supported, got {params}")
        return UnoObserver(self, iig_obs_type)


class _Round:
    """The round a state holds (a stepwise ``unosim`` state), copied by ``clone()`` as a
    snapshot of its arrays (OpenSpiel clones a Python state by deep-copying its
    attributes) and pickled as one (OpenSpiel serializes a Python state by pickling)."""

    __slots__ = ("state", "guard")

    def __init__(self, state):
        self.state = state
        self.guard: int | None = None  # a seat: only its view may be read (``guarded``)

    def check(self, seat: int | None, what: str) -> None:
        """Refuse ``what`` (a read of the round beyond ``seat``'s view) while guarded."""
        if self.guard is not None and seat != self.guard:
            raise HiddenRead(f"python_unosim: {what} of a state guarded for seat {self.guard}")

    def __deepcopy__(self, memo):
        self.check(None, "a copy")
        return _Round(self.state.clone())

    def __reduce__(self):
        self.check(None, "a pickle")
        g = self.state.game
        return (_restore, (g.rules, g.n_players, self.state.index, self.state.snapshot()))


_ENGINES: dict[tuple, Game] = {}  # unpickled rounds' games, by (rules, players)


def _restore(rules: RuleSet, n: int, index: int, snapshot: tuple) -> _Round:
    key = (rules.hash(), n)
    if key not in _ENGINES:
        _ENGINES.clear()  # one at a time: a game holds the rules' tables
        _ENGINES[key] = Game(rules, n, seed=0)
    state = _ENGINES[key].new_round(index)
    state.restore(snapshot)
    return _Round(state)


class UnoState(pyspiel.State):
    """A state of ``python_unosim``: chance's seed bytes, then the round."""

    def __init__(self, game: UnoGame):
        super().__init__(game)
        self._seed_bytes: list[int] = []
        self._round: _Round | None = None
        self._moves: list[tuple[int, int, str]] = []  # (seat, action, decision) so far

    # -- the round -------------------------------------------------------------------
    @property
    def round(self):
        """The stepwise unosim state (None before the deal)."""
        return None if self._round is None else self._round.state

    @property
    def seed(self) -> int:
        """The round's seed (chance's bytes, most significant first)."""
        return int.from_bytes(bytes(self._seed_bytes), "big")

    # -- OpenSpiel's API -----------------------------------------------------------------
    def current_player(self) -> int:
        if self._round is None:
            return pyspiel.PlayerId.CHANCE
        r = self._round.state
        if r.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(r.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        assert self._round is not None
        return [int(a) for a in self._round.state.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._round is not None:
            raise ValueError(
                "python_unosim: chance_outcomes called on a player's or the final state"
            )
        return [(b, 1.0 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        if self._round is None:
            if not 0 <= action < 256:
                raise ValueError(f"python_unosim: chance outcome {action} is not a byte")
            self._seed_bytes.append(int(action))
            if len(self._seed_bytes) == SEED_BYTES:
                self._round = _Round(self.get_game().engine.new_round(self.seed))
            return
        self._round.check(None, "a move")
        r = self._round.state
        seat, decision = r.current_player, r.decision
        r.apply(int(action))
        self._moves.append((seat, int(action), decision))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return ACTIONS[action] if 0 <= action < N_ACTIONS else f"no action {action}"

    def is_terminal(self) -> bool:
        return self._round is not None and bool(self._round.state.is_terminal())

    def returns(self) -> list[float]:
        n = self.get_game().num_players()
        if self._round is None or not self._round.state.is_terminal():
            return [0.0] * n
        return [float(x) for x in self._round.state.returns(self.get_game().reward)]

    def resample_from_infostate(self, player: int, sampler) -> UnoState:
        """A world for search: the cards ``player`` cannot see dealt afresh, consistent
        with what it knows; the rest (its hand, the public cards, every move) as here.

        ``sampler`` is called once (a uniform number in [0, 1)) to seed the deal."""
        if self._round is None:
            raise ValueError("python_unosim: resample_from_infostate before the deal")
        held = self._round
        held.check(player, "a resample for another seat")
        rng = np.random.default_rng(int(sampler() * 2**53))
        guard, held.guard = held.guard, None  # the world's history is public: copy it
        try:
            world = self.clone()
        finally:
            held.guard = guard
        if not world._round.state.resample_hidden(player, rng):
            raise NoWorld(
                f"python_unosim: no world can be dealt for seat {player} at this decision "
                f"({held.state.decision}: the colour named at setup, or hands moved "
                "within the turn)"
            )
        return world

    def __str__(self) -> str:
        if self._round is None:
            return f"dealing: seed bytes {self._seed_bytes}"
        self._round.check(None, "the string")
        return _describe(self._round.state)


class UnoObserver:
    """OpenSpiel's Python observer: a seat's observation (``perfect_recall=False``) or its
    information state (``perfect_recall=True``): ``tensor`` float32 and ``dict`` of its
    named parts, and a string.

    The tensors are the stepwise game's ``observation_tensor(seat)`` and
    ``information_state_tensor(seat)`` (their fields: ``unosim.env``'s docs), all zeros
    before the deal; the strings name the seat's view, and the information state's adds
    every move so far."""

    def __init__(self, game: UnoGame, iig_obs_type=None):
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            raise ValueError(
                "python_unosim: observers show one seat's view (public information and "
                "the seat's private information) only"
            )
        self.recall = bool(iig_obs_type.perfect_recall)
        size = game.tensor_sizes[1 if self.recall else 0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if self.recall else "observation": self.tensor}

    def set_from(self, state: UnoState, player: int) -> None:
        held = state._round
        if held is None:
            self.tensor.fill(0)
            return
        held.check(player, "another seat's view")
        r = held.state
        t = r.information_state_tensor(player) if self.recall else r.observation_tensor(player)
        self.tensor[:] = t

    def string_from(self, state: UnoState, player: int) -> str:
        held = state._round
        if held is None:
            return f"seat {player}: dealing"
        held.check(player, "another seat's view")
        text = _view_string(held.state, player)
        if self.recall:
            text += "\nmoves: " + " ".join(
                f"{q}:{a}" if q == player or not (a == A_PASS and d in UNSEEN_PASSES) else f"{q}:-"
                for q, a, d in state._moves
            )
        return text


# -- playing: bots and a round ------------------------------------------------------------


class RandomBot(pyspiel.Bot):
    """A uniformly random legal action (OpenSpiel's usual baseline; weaker than unosim's
    built-in ``random``, which plays a card when it can and says UNO)."""

    def __init__(self, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        self._rng = np.random.default_rng(seed)

    def step(self, state):
        legal = state.legal_actions()
        return int(legal[self._rng.integers(len(legal))])

    def restart_at(self, state):
        pass


def random_bot(game, seed: int | None = None) -> RandomBot:
    """A uniformly random bot (see :class:`RandomBot`)."""
    return RandomBot(seed)


class BuiltinBot(pyspiel.Bot):
    """unosim's built-in ``random`` strategy as an OpenSpiel bot (it plays a card when it
    can, names its strongest colour, says UNO): the choice ``unosim.simulate`` makes,
    drawn from a copy of the round (``State.play_builtin``)."""

    def __init__(self, strategy: str = "random"):
        pyspiel.Bot.__init__(self)
        self.strategy = strategy

    def step(self, state):
        return state.round.clone().play_builtin(self.strategy)

    def restart_at(self, state):
        pass


def builtin_bot(game, strategy: str = "random") -> BuiltinBot:
    """A :class:`BuiltinBot`."""
    return BuiltinBot(strategy)


class BuiltinRollout:
    """An OpenSpiel evaluator (``mcts.Evaluator``'s methods): a leaf's value is the
    returns of one rollout with unosim's built-in ``random`` at every seat, played on a
    copy of the (resampled) round in the kernel; the prior is uniform. Far cheaper than
    OpenSpiel's ``RandomRolloutEvaluator``, whose uniformly random moves (staying silent,
    drawing with playable cards) take a thousand decisions and more per round."""

    def evaluate(self, state):
        r = state.round.clone()
        while not r.is_terminal():
            r.play_builtin("random")
        return np.asarray(r.returns(state.get_game().reward), dtype=float)

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def _unsearched(state, rs: np.random.RandomState) -> int:
    """A random legal action, where no world can be dealt (``NoWorld``)."""
    legal = state.legal_actions()
    return int(legal[rs.randint(len(legal))])


def ismcts_bot(
    game, simulations: int = 100, uct_c: float = 2.0, seed: int | None = None, evaluator=None
):
    """OpenSpiel's ``ISMCTSBot`` on ``python_unosim``: ``simulations`` per decision, each
    in a world resampled from the seat's information state (``resample_from_infostate``,
    seeded from the bot's own random state, so that a seeded bot plays the same moves),
    leaves valued by ``evaluator`` (default: :class:`BuiltinRollout`). Where no world can
    be dealt (``NoWorld``) it plays a random legal action."""
    from open_spiel.python.algorithms import ismcts

    class Bot(ismcts.ISMCTSBot):
        def step(self, state):
            try:
                return super().step(state)
            except NoWorld:
                return _unsearched(state, rs)

    rs = np.random.RandomState(seed)
    bot = Bot(game, evaluator or BuiltinRollout(), uct_c, simulations, random_state=rs)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    return bot


class DeterminizedMCTSBot(pyspiel.Bot):
    """OpenSpiel's Python ``MCTSBot`` searching worlds resampled from the seat's
    information state (perfect-information Monte Carlo): ``worlds`` searches of
    ``simulations`` each, the action visited most over all of them is played. The search
    never sees the true state, only worlds dealt from what the seat knows."""

    def __init__(self, game, simulations=50, worlds=4, uct_c=2.0, seed=None, evaluator=None):
        from open_spiel.python.algorithms import mcts

        pyspiel.Bot.__init__(self)
        self._rs = np.random.RandomState(seed)
        self._mcts = mcts.MCTSBot(
            game,
            uct_c,
            simulations,
            evaluator or BuiltinRollout(),
            solve=False,
            random_state=self._rs,
        )
        self._worlds = int(worlds)

    def step(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        p = state.current_player()
        visits: dict[int, int] = {}
        for _ in range(self._worlds):
            try:
                world = state.resample_from_infostate(p, self._rs.uniform)
            except NoWorld:
                return _unsearched(state, self._rs)
            root = self._mcts.mcts_search(world)
            for child in root.children:
                visits[child.action] = visits.get(child.action, 0) + child.explore_count
        return int(max(legal, key=lambda a: (visits.get(a, 0), -a)))

    def restart_at(self, state):
        pass


def determinized_mcts_bot(game, simulations=50, worlds=4, uct_c=2.0, seed=None, evaluator=None):
    """A :class:`DeterminizedMCTSBot`."""
    return DeterminizedMCTSBot(game, simulations, worlds, uct_c, seed, evaluator)


def play_round(game, bots, rng: np.random.Generator, guard=()) -> list[float]:
    """Play one round of ``game`` with ``bots[seat]`` deciding at each seat, chance's
    bytes drawn from ``rng``; returns the returns. The seats in ``guard`` decide on the
    true state :func:`guarded` for them (a bot that reads a hidden card raises
    :class:`HiddenRead`)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(256)))
            continue
        p = state.current_player()
        if p in guard:
            with guarded(state, p):
                action = bots[p].step(state)
        else:
            action = bots[p].step(state)
        state.apply_action(int(action))
    return list(state.returns())


def register() -> None:
    """Register ``python_unosim`` with ``pyspiel`` (once; importing ``unosim.openspiel``
    does it)."""
    if SHORT_NAME not in {t.short_name for t in pyspiel.registered_games()}:
        pyspiel.register_game(GAME_TYPE, UnoGame)


register()


# -- strings ------------------------------------------------------------------------------


def _cards(counts) -> str:
    return " ".join(
        f"{kind_name(k)}" + (f"x{c}" if c > 1 else "") for k, c in enumerate(counts) if c
    )


def _table(o) -> str:
    """The public part of an observation, as text."""
    pending = ""
    if o.pending_draw or o.pending_skip:
        pending = (
            f"; pending draw {o.pending_draw}, skip {o.pending_skip} by seat {o.pending_by}"
            + (" (challengeable)" if o.challengeable else "")
        )
    return (
        f"turn {o.turn}; top {kind_name(o.top)}, colour {COLOURS[o.colour]}, direction "
        f"{o.direction:+d}{pending}\nhand sizes {' '.join(str(x) for x in o.hand_sizes)}; "
        f"draw pile {o.draw_pile}, discard pile {o.discard_pile}: {_cards(o.discarded)}"
    )


def _view_string(r: State, seat: int) -> str:
    """What ``seat`` may know now, as text (the observation string)."""
    o = r.observation(seat)
    head = f"seat {seat}"
    if r.current_player == seat:
        head += f" decides: {r.decision}"
        if o.card >= 0:
            head += f" (card {kind_name(o.card)})"
    elif r.is_terminal():
        head += ": the round is over"
    return f"{head}\nhand {_cards(o.hand)}\n{_table(o)}"


def _describe(r: State) -> str:
    """The whole state as text: every hand, the table, a digest of the draw pile's
    order and the random streams (OpenSpiel's ``ToString``)."""
    n = r.game.n_players
    o = r.observation(0)
    if r.is_terminal():
        head = f"round {r.index} over: returns {r.returns().tolist()}"
    else:
        head = f"round {r.index}: seat {r.current_player} decides {r.decision}"
    hands = "\n".join(f"hand {q}: {_cards(r.observation(q).hand)}" for q in range(n))
    rd = r.snapshot()[0]
    digest = hashlib.blake2b(
        rd.pile[: o.draw_pile].tobytes() + rd.streams.tobytes(), digest_size=8
    ).hexdigest()
    return f"{head}\n{hands}\n{_table(o)}\ndraw pile and streams {digest}"
