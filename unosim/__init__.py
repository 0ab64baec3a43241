"""unosim: Monte Carlo rules analysis for the card game UNO."""

from ._version import __version__  # noqa: E402

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

# imported on first use, so that ``import unosim`` (and with it every ``unosim``
# command, its ``--help`` and its one-line errors) does not load numba or pandas
_LAZY = {
    "PRESETS": "game.rules",
    "RuleSet": "game.rules",
    "resolve": "game.rules",
    "simulate": "sim.simulate",
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
    """The rules, ``simulate``, ``run`` (chunked, streaming runs), the dataset readers
    and the agents' names, imported on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
