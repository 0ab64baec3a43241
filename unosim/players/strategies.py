"""Player strategies by name: kernel ids, default parameters and the parsing of a strategy.

The decisions run inside the kernel (``kernel.strategies.decide``): each seat by its strategy id
``sid[p]`` and parameter row ``sp[p]`` (``layout.P_*``), drawing from the seat's own stream
``S_SEAT0 + p``. ``random`` is RULES.md section 10 to the letter, ``heuristic`` a
human-like player, ``table`` the heuristic with human imperfections, and the weighted
family scores every legal card by ``weights . features`` (``FEATURES``). Every decision
rule and feature is described in ``docs/players.md``.
"""

from __future__ import annotations

import numpy as np

from ..kernel.core.layout import CHALLENGE_SMART, MAX_PLAYERS, N_PARAMS  # noqa: F401
from ..kernel.strategies import decide as _K
from ..kernel.strategies.decide import (  # noqa: F401  (the ids, published here)
    AGGRESSIVE,
    COLOUR_COUNTER,
    F_SCARCE,
    FIRST_WEIGHTED,
    HEURISTIC,
    POINTS_DUMPER,
    RANDOM,
    WEIGHTED,
)
from .params import BEHAVIOUR as _BEHAVIOUR
from .params import FEATURES as _FEATURES
from .params import (  # noqa: F401  (MAX_WEIGHT published here)
    MAX_WEIGHT,
    STRATEGY_DECLARATIONS,
    STRATEGY_PARAMS,
    strategy_slot,
)

# every strategy name and the kernel id that plays it: `table` is the heuristic with
# other default parameters (its human imperfections)
KERNEL_ID = {s.name: s.kernel_id for s in STRATEGY_DECLARATIONS}
STRATEGIES = tuple(KERNEL_ID)
_FIRST: dict[int, str] = {}
for _s in STRATEGY_DECLARATIONS:
    _FIRST.setdefault(_s.kernel_id, _s.name)
# the name of each kernel id (its first declaration), in id order
NAMES = tuple(_FIRST[i] for i in range(_K.N_STRATEGIES))
BEHAVIOUR = tuple(p.name for p in _BEHAVIOUR)
FEATURES = tuple(p.name for p in _FEATURES)
PARAMS = {p.name: p for p in STRATEGY_PARAMS}
# parameter names in slot order: ``params[i]`` of a seat is ``PARAM_NAMES[i]``
PARAM_NAMES = tuple(sorted(PARAMS, key=lambda n: strategy_slot(PARAMS[n])))
assert [strategy_slot(PARAMS[n]) for n in PARAM_NAMES] == list(range(N_PARAMS))
DEFAULTS = {s.name: s.vector() for s in STRATEGY_DECLARATIONS}
_WEIGHTED = {s.name for s in STRATEGY_DECLARATIONS if s.weighted}


class StrategyError(ValueError):
    """An unknown strategy or parameter; the message names it."""


def _param_value(name: str, text: str) -> float:
    p = PARAMS[name]
    t = text.strip().lower()
    if t in p.named:
        return p.named[t]
    try:
        v = float(t)
    except ValueError:
        raise StrategyError(f"strategy parameter {name!r}: {text!r} is not a number") from None
    lo, hi = p.limits
    if p.type == "weight":
        # bounded so every score stays far above the kernel's "no card" score (-1e18):
        # a player never draws while holding a legal card
        if not (np.isfinite(v) and lo <= v <= hi):
            raise StrategyError(
                f"weight {name!r} must be a finite number between {lo:g} and {hi:g}, got {text!r}"
            )
        return v
    if not lo <= v <= hi:
        raise StrategyError(f"strategy parameter {name!r} must be a probability, got {text!r}")
    return v


def _load_file(name: str, path: str) -> dict[str, float]:
    """Weights (and behaviour parameters) from a strategy file written by ``unosim tune``."""
    from ..game import tomlfile

    try:
        data = tomlfile.load(path, "strategy file", StrategyError)
    except FileNotFoundError:
        raise StrategyError(
            f"strategy {name!r}: no file {path!r} (and {path!r} is not "
            "a parameter: parameters are name=value)"
        ) from None
    except OSError as e:
        raise StrategyError(f"strategy file {path!r}: {e.strerror or e}") from None
    if data.get("strategy", name) != name:
        raise StrategyError(f"strategy file {path!r} is for {data['strategy']!r}, not {name!r}")
    out = {}
    for table in ("weights", "params"):
        entries = data.get(table, {})
        if not isinstance(entries, dict):
            raise StrategyError(
                f"strategy file {path!r}: {table!r} must be a table "
                f"([{table}] with name = value lines), got {entries!r}"
            )
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
        raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)}, expert)")
    sid = KERNEL_ID[name]
    params = np.array(DEFAULTS[name], dtype=np.float64)
    weighted = name in _WEIGHTED
    allowed = PARAM_NAMES if weighted else BEHAVIOUR
    for item in filter(None, (s.strip() for s in rest.replace(";", ",").split(","))):
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq and weighted:
            for fkey, fval in _load_file(name, key).items():
                try:
                    params[strategy_slot(PARAMS[fkey])] = _param_value(fkey, str(fval))
                except StrategyError as e:
                    raise StrategyError(f"strategy file {key!r}: {e}") from None
            continue
        if not eq or key not in allowed:
            raise StrategyError(
                f"unknown strategy parameter {item!r} for {name!r} (known: {', '.join(allowed)})"
            )
        params[strategy_slot(PARAMS[key])] = _param_value(key, val)
    return sid, params, label(name, params)


def label(strategy: int | str, params: np.ndarray) -> str:
    """Canonical text of a strategy (a name, or a kernel id for its first name): the
    name plus the parameters that differ from its defaults."""
    name = strategy if isinstance(strategy, str) else NAMES[strategy]
    extra = []
    for key, v, d in zip(PARAM_NAMES, params, DEFAULTS[name]):
        if v != d:
            p = PARAMS[key]
            # a value outside the bounds is a word's (challenge=smart): written as it
            words = [w for w, x in p.named.items() if x == v]
            lo, hi = p.limits
            out = not lo <= v <= hi
            val = words[0] if out and words else f"{v:.6g}"
            extra.append(f"{key}={val}")
    return name + (":" + ";".join(extra) if extra else "")


def split(spec: str | list[str]) -> list[str]:
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
