"""UNO as an OpenSpiel game: importing this module registers ``python_unosim`` with
``pyspiel`` (``pip install open_spiel``). The game, its parameters, observers and bots
live in ``unosim.env.openspiel``; see its docstring."""

from .env.openspiel import (
    GAME_TYPE,
    PARAMETERS,
    SHORT_NAME,
    BuiltinBot,
    BuiltinRollout,
    DeterminizedMCTSBot,
    HiddenRead,
    NoWorld,
    UnoGame,
    UnoState,
    builtin_bot,
    determinized_mcts_bot,
    guarded,
    ismcts_bot,
    play_round,
    random_bot,
    register,
)
from .table import openspiel_seat  # noqa: F401  (registers the ``openspiel:`` seats)

register()

__all__ = [
    "GAME_TYPE",
    "PARAMETERS",
    "SHORT_NAME",
    "BuiltinBot",
    "BuiltinRollout",
    "DeterminizedMCTSBot",
    "HiddenRead",
    "NoWorld",
    "UnoGame",
    "UnoState",
    "builtin_bot",
    "determinized_mcts_bot",
    "guarded",
    "ismcts_bot",
    "play_round",
    "random_bot",
]
