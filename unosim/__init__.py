"""unosim: Monte Carlo rules analysis for the card game UNO."""
__version__ = "0.1.0"

from .rules import PRESETS, RuleSet, resolve  # noqa: E402
from .simulate import simulate  # noqa: E402

__all__ = ["PRESETS", "RuleSet", "resolve", "simulate", "__version__"]
