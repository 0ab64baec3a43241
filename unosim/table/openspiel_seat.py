"""An OpenSpiel bot at a seat of ``simulate`` and ``unosim evaluate``: the seat label
``openspiel:BOT[:OPTIONS]`` (docs/players.md).

==========================  ==========================================================
label                       bot (``unosim.env.openspiel``)
==========================  ==========================================================
``openspiel:ismcts``        OpenSpiel's ``ISMCTSBot``: ``simulations`` (100) per
                            decision, ``uct_c`` (2), ``seed`` (0)
``openspiel:mcts``          OpenSpiel's Python ``MCTSBot`` on ``worlds`` (4) resampled
                            worlds of ``simulations`` (50) each, ``uct_c``, ``seed``
``openspiel:random``        OpenSpiel's uniform random bot (``seed``)
==========================  ==========================================================

Options follow a colon, separated by ``;`` or ``,``:
``openspiel:ismcts:simulations=400;seed=3``.

The bot plays through the registered game ``python_unosim``: for each round the seat
keeps its own copy of the round, dealt from the run's seed and game index and played by
the same rules engine (``unosim.Game``, the other seats' built-in strategies deciding
inside it, the seat's own moves applied as it makes them), so it stands at the same
decision as the table. The bot decides on that copy *guarded* for its seat
(``unosim.env.openspiel.guarded``): it may read the seat's legal actions, observation and
information state and search worlds dealt from them (``resample_from_infostate``); any
read of a hidden card raises. The other seats must be built-in strategies.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..players.agents import Agent, register_seat
from ..players.strategies import StrategyError

PREFIX = "openspiel:"
BOTS: dict[str, dict[str, Any]] = {
    "ismcts": {"simulations": 100, "uct_c": 2.0, "seed": 0},
    "mcts": {"simulations": 50, "worlds": 4, "uct_c": 2.0, "seed": 0},
    "random": {"seed": 0},
}
LIMITS = {"simulations": (1, 100_000), "worlds": (1, 1_000), "uct_c": (0.0, 100.0)}
ROUNDS_KEPT = 256  # rounds a seat keeps its copy of at once (a batch holds at most 64)


def is_spec(text: str) -> bool:
    """Does a seat label name an OpenSpiel bot?"""
    return text.strip().startswith(PREFIX)


def parse(text: str) -> tuple[str, dict]:
    """(bot, options) of a label ``openspiel:BOT[:OPTIONS]``; ``StrategyError`` (one line)
    for an unknown bot or option, or a value out of range."""
    body = text.strip()[len(PREFIX) :]
    bot, _, rest = body.partition(":")
    bot = bot.strip()
    if bot not in BOTS:
        raise StrategyError(
            f"seat {text.strip()[:80]!r}: unknown OpenSpiel bot {bot[:40]!r} "
            f"(bots: {', '.join(BOTS)})"
        )
    options = dict(BOTS[bot])
    for item in (s.strip() for s in rest.replace(",", ";").split(";")):
        if not item:
            continue
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or name not in options:
            raise StrategyError(
                f"seat {text.strip()[:80]!r}: {bot} takes {', '.join(options)} "
                f"(name=value), got {item[:40]!r}"
            )
        try:
            v = type(options[name])(value.strip())
        except ValueError:
            raise StrategyError(
                f"seat {text.strip()[:80]!r}: {name} must be a "
                f"{'whole ' if isinstance(options[name], int) else ''}number, got {value[:40]!r}"
            ) from None
        lo, hi = LIMITS.get(name, (0, 2**63 - 1))
        if not lo <= v <= hi or (name == "uct_c" and v == 0):
            raise StrategyError(
                f"seat {text.strip()[:80]!r}: {name} must be "
                f"{'over ' if name == 'uct_c' else ''}{lo} to {hi}, got {value.strip()[:40]!r}"
            )
        options[name] = v
    return bot, options


def label(bot: str, options: dict) -> str:
    """The canonical seat label."""
    return PREFIX + bot + ":" + ";".join(f"{k}={v}" for k, v in options.items())


def load(text: str):
    """The seat a label names, as a ``players.agents.Agent`` (its label canonical); a
    one-line ``StrategyError`` when OpenSpiel (or the environments' extra) is not
    installed."""
    bot, options = parse(text)
    try:
        import pyspiel  # noqa: F401

        from ..env import openspiel  # noqa: F401  (registers the game)
    except ImportError as e:
        raise StrategyError(
            f"seat {text.strip()[:80]!r}: OpenSpiel is not installed ({e.name or 'pyspiel'} "
            "is missing: pip install open_spiel gymnasium; docs/environments.md)"
        ) from None
    seat = OpenSpielSeat(bot, options)
    return Agent(seat.act, seat.label, seat, text.strip())


class OpenSpielSeat:
    """An OpenSpiel bot deciding at one seat (see the module docstring). ``bind_table``
    tells it the table before its games (``simulate.run_block`` calls it)."""

    def __init__(self, bot: str, options: dict):
        self.bot_name, self.options = bot, dict(options)
        self.label = label(bot, self.options)
        self._table: tuple | None = None
        self._rounds: OrderedDict = OrderedDict()  # (game, seat) -> (UnoState, bot)
        self._game: Any = None  # the OpenSpiel game, made by ``begin``

    def bind_table(self, rules, n_players: int, seed: int, labels) -> None:
        """The rule set, players, root seed and every seat's label of the coming games;
        the other seats must be built-in strategies."""
        for q, lab in enumerate(labels):
            if lab != self.label and (lab.startswith("agent:") or is_spec(lab)):
                raise StrategyError(
                    f"seat {self.label!r}: an OpenSpiel seat plays against built-in "
                    f"strategies only, seat {q} is {lab[:80]!r}"
                )
        self._table = (rules, int(n_players), int(seed), tuple(labels))
        self._rounds.clear()
        from ..env.openspiel import UnoGame
        from ..sim.game import Game

        game = UnoGame({"players": int(n_players)})
        game.rules = rules  # the table's rule set (a file's too), not a preset's
        game.engine = Game(rules, int(n_players), seed=0)
        self._game = game

    def _new_bot(self, game: int, seat: int):
        """The bot of one round, seeded by (``seed``, game, seat): a round's moves do not
        depend on the other rounds played, nor on their order."""
        import numpy as np

        from ..env.openspiel import determinized_mcts_bot, ismcts_bot, random_bot

        o = self.options
        seed = int(np.random.SeedSequence([o["seed"], game, seat]).generate_state(1)[0])
        if self.bot_name == "ismcts":
            return ismcts_bot(self._game, o["simulations"], o["uct_c"], seed)
        if self.bot_name == "mcts":
            return determinized_mcts_bot(
                self._game, o["simulations"], o["worlds"], o["uct_c"], seed
            )
        return random_bot(self._game, seed)

    def _round(self, game: int, seat: int):
        """The seat's copy of round ``game`` (dealt at its first decision) and its bot."""
        from ..env.openspiel import UnoState, _Round
        from ..sim.game import Game

        key = (game, seat)
        held = self._rounds.get(key)
        if held is None:
            assert self._table is not None, "begin() first"
            rules, n, seed, labels = self._table
            opponents = [None if q == seat else labels[q] for q in range(n)]
            engine = Game(rules, n, seed=seed, opponents=opponents, single_moves=False)
            state = UnoState(self._game)
            state._seed_bytes = [0, 0, 0, 0]  # dealt: chance is the table's seed
            state._round = _Round(engine.new_round(game))
            held = self._rounds[key] = (state, self._new_bot(game, seat))
            while len(self._rounds) > ROUNDS_KEPT:
                self._rounds.popitem(last=False)
        return held

    def act(self, obs) -> int:
        """The bot's action at ``obs``'s decision."""
        from ..env.openspiel import guarded

        if self._table is None:
            raise StrategyError(f"seat {self.label!r}: played before its table was bound")
        state, bot = self._round(obs.game, obs.seat)
        r = state.round
        if r.current_player != obs.seat or r.legal_actions() != obs.legal:
            raise RuntimeError(
                f"seat {self.label!r}: its copy of round {obs.game} is not at the table's "
                "decision (another seat is not a built-in strategy?)"
            )
        with guarded(state, obs.seat):
            action = int(bot.step(state))
        state.apply_action(action)
        if state.is_terminal():
            self._rounds.pop((obs.game, obs.seat), None)
        return action


register_seat(PREFIX, load)
