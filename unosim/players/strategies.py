"""Player strategies by name: kernel ids, default parameters and the parsing of a strategy.

The decisions run inside the kernel (``kernel.decide``): each seat by its strategy id
``sid[p]`` and parameter row ``sp[p]`` (``layout.P_*``), drawing from the seat's own stream
``S_SEAT0 + p``. ``random`` is RULES.md section 10 to the letter, ``heuristic`` a
human-like player, ``table`` the heuristic with human imperfections, and the weighted
family scores every legal card by ``weights . features`` (``FEATURES``). Every decision
rule and feature is described in ``docs/players.md``.
"""
from __future__ import annotations

import numpy as np

from ..kernel import decide as _K
from ..kernel.decide import (  # noqa: F401  (the ids, published here)
    AGGRESSIVE,
    COLOUR_COUNTER,
    F_SCARCE,
    FIRST_WEIGHTED,
    HEURISTIC,
    POINTS_DUMPER,
    RANDOM,
    WEIGHTED,
)
from ..kernel.layout import CHALLENGE_SMART, MAX_PLAYERS, N_PARAMS, N_WEIGHTS, P_W

NAMES = ("random", "heuristic", "points-dumper", "aggressive", "colour-counter", "weighted")
# every strategy name and the kernel id that plays it: `table` is the heuristic with
# other default parameters (its human imperfections)
KERNEL_ID = {**{name: i for i, name in enumerate(NAMES)}, "table": HEURISTIC}
STRATEGIES = tuple(KERNEL_ID)
BEHAVIOUR = ("bluff", "challenge", "forget_uno", "stack", "jump")
FEATURES = ("points", "colour", "wild", "action", "attack", "switch", "short", "scarce",
            "swap", "name_short", "name_scarce")
# the kernel's strategy ids and feature indices (kernel/decide.py) follow these orders
assert [getattr(_K, n.upper().replace("-", "_")) for n in NAMES] == list(range(len(NAMES)))
assert len(NAMES) == _K.N_STRATEGIES
assert [getattr(_K, "F_" + f.upper()) for f in FEATURES] == list(range(N_WEIGHTS))
assert len(BEHAVIOUR) == P_W
PARAM_NAMES = BEHAVIOUR + FEATURES
_NO_WEIGHTS = (0.0,) * N_WEIGHTS
_SMART = (0.0, CHALLENGE_SMART, 0.0, 1.0, 1.0)
DEFAULTS = {
    "random": (0.0, 0.0, 0.0, 1.0, 1.0) + _NO_WEIGHTS,
    "heuristic": _SMART + _NO_WEIGHTS,
    # bluff, challenge, forget_uno, stack, jump: why these, see the module docstring
    "table": (0.2, CHALLENGE_SMART, 0.1, 0.8, 0.5) + _NO_WEIGHTS,
    #                   points colour wild action attack switch short scarce swap n_sh n_sc
    "points-dumper": _SMART + (1.0, 0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "aggressive": _SMART + (0.005, 0.5, -5.0, -3.0, 8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "colour-counter": _SMART + (0.02, 1.0, -2.0, 0.0, 2.0, 0.0, 1.5, 4.0, 0.5, 1.5, 4.0),
    "weighted": _SMART + (0.2, 1.0, -2.0, -0.5, 3.0, 0.0, 1.0, 2.0, 1.0, 1.0, 2.0),
}


class StrategyError(ValueError):
    """An unknown strategy or parameter; the message names it."""


MAX_WEIGHT = 1e6  # |weight|: scores stay within about 1e10, every legal card playable


def _param_value(name: str, text: str) -> float:
    t = text.strip().lower()
    if name == "challenge":
        named = {"never": 0.0, "always": 1.0, "smart": CHALLENGE_SMART}
        if t in named:
            return named[t]
    try:
        v = float(t)
    except ValueError:
        raise StrategyError(f"strategy parameter {name!r}: {text!r} is not a number") from None
    if name in FEATURES:
        # bounded so every score stays far above the kernel's "no card" score (-1e18):
        # a player never draws while holding a legal card
        if not (np.isfinite(v) and abs(v) <= MAX_WEIGHT):
            raise StrategyError(f"weight {name!r} must be a finite number between "
                                f"-{MAX_WEIGHT:g} and {MAX_WEIGHT:g}, got {text!r}")
        return v
    if not 0.0 <= v <= 1.0:
        raise StrategyError(f"strategy parameter {name!r} must be a probability, got {text!r}")
    return v


def _load_file(name: str, path: str) -> dict[str, float]:
    """Weights (and behaviour parameters) from a strategy file written by ``unosim tune``."""
    from ..game import tomlfile

    try:
        data = tomlfile.load(path, "strategy file", StrategyError)
    except FileNotFoundError:
        raise StrategyError(f"strategy {name!r}: no file {path!r} (and {path!r} is not "
                            "a parameter: parameters are name=value)") from None
    except OSError as e:
        raise StrategyError(f"strategy file {path!r}: {e.strerror or e}") from None
    if data.get("strategy", name) != name:
        raise StrategyError(f"strategy file {path!r} is for {data['strategy']!r}, not {name!r}")
    out = {}
    for table in ("weights", "params"):
        entries = data.get(table, {})
        if not isinstance(entries, dict):
            raise StrategyError(f"strategy file {path!r}: {table!r} must be a table "
                                f"([{table}] with name = value lines), got {entries!r}")
        for key, val in entries.items():
            if key not in PARAM_NAMES:
                raise StrategyError(f"strategy file {path!r}: unknown parameter {key!r}")
            out[key] = val
    return out


def parse_builtin(text: str) -> tuple[int, np.ndarray, str]:
    """``"heuristic:bluff=0.3;challenge=smart"`` -> (kernel id, params, canonical label),
    for the built-in strategies (``seats.parse_one`` also takes the expert).

    An item without ``=`` is a strategy file (``weighted:best.toml``)."""
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name not in KERNEL_ID:
        raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)}, "
                            "expert)")
    sid = KERNEL_ID[name]
    params = np.array(DEFAULTS[name], dtype=np.float64)
    allowed = PARAM_NAMES if sid >= FIRST_WEIGHTED else BEHAVIOUR
    for item in filter(None, (s.strip() for s in rest.replace(";", ",").split(","))):
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq and sid >= FIRST_WEIGHTED:
            for fkey, fval in _load_file(name, key).items():
                try:
                    params[PARAM_NAMES.index(fkey)] = _param_value(fkey, str(fval))
                except StrategyError as e:
                    raise StrategyError(f"strategy file {key!r}: {e}") from None
            continue
        if not eq or key not in allowed:
            raise StrategyError(f"unknown strategy parameter {item!r} for {name!r} "
                                f"(known: {', '.join(allowed)})")
        params[PARAM_NAMES.index(key)] = _param_value(key, val)
    return sid, params, label(name, params)


def label(strategy: "int | str", params: np.ndarray) -> str:
    """Canonical text of a strategy (a name, or a kernel id for its first name): the
    name plus the parameters that differ from its defaults."""
    name = strategy if isinstance(strategy, str) else NAMES[strategy]
    extra = []
    for i, (v, d) in enumerate(zip(params, DEFAULTS[name])):
        if v != d:
            val = "smart" if (i == 1 and v == CHALLENGE_SMART) else f"{v:.6g}"
            extra.append(f"{PARAM_NAMES[i]}={val}")
    return name + (":" + ";".join(extra) if extra else "")


def split(spec: "str | list[str]") -> list[str]:
    """The strategy items of a ``--strategies`` text, as written (see ``parse``)."""
    items = spec if isinstance(spec, list) else spec.split(",")
    seats: list[str] = []
    for item in (s.strip() for s in items):
        if not item:
            raise StrategyError(f"empty strategy in {spec!r}")
        if "=" in item and ":" not in item and seats:
            seats[-1] += (";" if ":" in seats[-1] else ":") + item
        else:
            seats.append(item)
    return seats
