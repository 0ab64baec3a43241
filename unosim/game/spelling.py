"""Near-miss names and the first look at a ``--rules`` value, without numba.

Everything here is plain Python (``difflib``), so a command can refuse a misspelt
preset or a missing rule file before it imports the kernel (errors in a blink).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable

# The presets' names, known before ``unosim.game.rules`` (which loads numba) is
# imported; tests/test_cli_errors.py checks that they are ``PRESETS``'s keys.
PRESET_NAMES = (
    "official",
    "official-2018",
    "pokemon",
    "motu",
    "copag",
    "portugal",
    "stacking",
    "progressive",
    "seven-zero",
    "jump-in",
    "draw-until-playable",
)


def closest(name: object, choices: Iterable[str]) -> str | None:
    """The choice nearest to ``name`` when it is near enough to be a slip of the
    keyboard (``difflib`` ratio at least 0.75), else None."""
    if not isinstance(name, str) or not name or len(name) > 200:
        return None
    low = name.lower().replace("_", "-")
    by_key = {c.lower().replace("_", "-"): c for c in choices}
    hits = difflib.get_close_matches(low, list(by_key), n=1, cutoff=0.75)
    return by_key[hits[0]] if hits else None


def did_you_mean(name: object, choices: Iterable[str], what: str = "") -> str:
    """``" (did you mean 'stacking'?)"`` for a near miss, else ``""``; ``what`` names
    the kind of thing meant ("preset ")."""
    hit = closest(name, choices)
    return f" (did you mean {what}{hit!r}?)" if hit is not None else ""


def missing_file_hint(path: str) -> str:
    """For a rule file that does not exist: a near-miss preset of its stem
    (``stackng.toml`` -> "did you mean preset 'stacking'?"), or a near-miss ``.toml``
    file in its folder; else ``""``."""
    folder, base = os.path.split(path)
    stem = base[:-5] if base.lower().endswith(".toml") else base
    hint = did_you_mean(stem, PRESET_NAMES, "preset ")
    if hint:
        return hint
    try:
        names = [
            n for n in sorted(os.listdir(folder or "."))[:10_000] if n.lower().endswith(".toml")
        ]
    except OSError:
        return ""
    hit = closest(base, names)
    return f" (did you mean {os.path.join(folder, hit)!r}?)" if hit else ""


def precheck_rules(rules: str) -> str | None:
    """Why ``--rules`` cannot name a rule set, as far as can be told without loading
    the rules (a missing ``.toml`` file; a bare name that is no preset and no file), or
    None (then the full check happens later)."""
    if not isinstance(rules, str) or rules in PRESET_NAMES:
        return None
    if rules.endswith(".toml") or os.sep in rules:
        if not os.path.exists(rules):
            return f"rule file {rules!r} not found{missing_file_hint(rules)}"
        return None
    if "+" in rules or os.path.exists(rules):
        return None
    return (
        f"unknown preset {rules!r}{did_you_mean(rules, PRESET_NAMES)} "
        f"(presets: {', '.join(PRESET_NAMES)}; or give a .toml file)"
    )
