"""unosim: Monte Carlo rules analysis for the card game UNO."""

from ._version import __version__  # noqa: E402
from .game.rules import PRESETS, RuleSet, resolve  # noqa: E402
from .sim.simulate import simulate  # noqa: E402

__all__ = [
    "PRESETS",
    "RuleSet",
    "resolve",
    "simulate",
    "run",
    "read_dataset",
    "read_summary",
    "simulate_matches",
    "read_matches",
    "ACTIONS",
    "IllegalAction",
    "Observation",
    "Game",
    "State",
    "__version__",
]

_LAZY = {
    "run": "sim.runner",
    "read_dataset": "sim.dataset",
    "read_summary": "sim.dataset",
    "simulate_matches": "sim.match",
    "read_matches": "sim.match",
    "ACTIONS": "sim.outside",
    "IllegalAction": "sim.outside",
    "Observation": "sim.outside",
    "Game": "sim.game",
    "State": "sim.game",
}


def __getattr__(name: str):
    """``run`` (chunked, streaming runs), the dataset readers and the agents' names,
    imported on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
