"""unosim: Monte Carlo rules analysis for the card game UNO."""
__version__ = "0.1.0"

from .rules import PRESETS, RuleSet, resolve  # noqa: E402
from .simulate import simulate  # noqa: E402

__all__ = ["PRESETS", "RuleSet", "resolve", "simulate", "run", "read_dataset",
           "read_summary", "simulate_matches", "read_matches", "__version__"]

_LAZY = {"run": "runner", "read_dataset": "dataset", "read_summary": "dataset",
         "simulate_matches": "match", "read_matches": "match"}


def __getattr__(name: str):
    """``run`` (chunked, streaming runs) and the dataset readers, imported on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
