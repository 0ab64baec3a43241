"""Player strategies: integer ids and parameter arrays, decided inside the kernel.

Every decision function takes the seat's strategy id ``sid[p]`` and its parameters
``sp[p]`` (``layout.P_*``) and draws its randomness from the seat's own stream
``S_SEAT0 + p``.

``random`` (RULES.md section 10, to the letter): plays a legal card chosen uniformly
among the legal cards in its hand, each physical card equally likely, and only that card
(also under ``multi_play``); facing a penalty under stacking, the same among its
stackable cards; never draws voluntarily; always plays a legal drawn card; names a colour
uniformly among the four; swaps with an opponent chosen uniformly; always jumps in;
never bluffs, challenges or forgets UNO. Its parameters (``random:bluff=0.2`` ...) can
add bluffs, challenges and forgotten calls on top of that; its defaults are the spec.

``heuristic`` (a human-like player):
  1. Facing a penalty it can stack on: stacks (probability ``stack``), a Draw Two before
     a Wild Draw Four.
  2. Otherwise it plays a legal card, never drawing while it has one. Coloured cards
     come before wild-type cards, which it keeps for when nothing else fits. Among
     coloured cards it prefers the colour it holds most (so it keeps control of the
     colour), then the higher points (dumping value). When the next player holds two
     cards or fewer it attacks first: Draw Two, then Skip (and Reverse with 2 players),
     then a legal Wild Draw Four and the attacking special wilds. Under Seven-Zero it
     plays a 7 early when an opponent holds fewer cards than it will.
  3. Wild-type cards: Wild Shuffle Hands when it holds more cards than the average
     opponent, Wild Customizable (``swap_hands``) when an opponent holds fewer cards than
     it will, otherwise both are kept like a plain Wild; Wild Draw Four (when legal),
     Snorlax, Greninja and Powers of Grayskull before a plain Wild, and first of all
     when the next player is close to going out. (Playing Grayskull at once made rounds
     of 5 players loop: every reshuffle handed the last Grayskull back to be played
     again, and a quarter of the rounds reached max_turns.) After Greninja it names
     again the colour it holds most.
  4. It names the colour it holds most (ties broken uniformly), and swaps hands with the
     opponent holding the fewest cards (the first in the direction of play on ties).
  5. It always plays a legal drawn card, always jumps in (probability ``jump``), and
     with ``multi_play`` adds every identical copy, then a same-colour run upward (or,
     if none, downward) from a number.
  6. Challenge policy ``smart`` by default: challenge when the expected cards won beat
     the expected cards lost. A challenge of a bluff saves the 4 cards; a challenge of a
     legal card costs ``challenge_penalty`` (2) more. The player of the Wild Draw Four
     bluffs at its known rate ``b`` (its ``bluff`` parameter: the table knows who
     bluffs, as regulars know each other's habits): with ``q`` = P(it held a card of
     the previous colour), estimated from the cards the challenger cannot see
     (hypergeometric, its hand size), P(bluff | it played the card) = q b / (q b + 1 - q)
     (a legal card taken as always played, which understates the bluff probability), and
     it challenges when ``4 P > challenge_penalty (1 - P)`` (P > 1/3 by default). So it
     never challenges a player who never bluffs (``random``, ``heuristic``, the weighted
     family by default), nor when ``wd4_restriction = none`` makes every play legal.

``table`` (the heuristic with human imperfections) decides by rules 1-6 above, with
other default rates: it bluffs a Wild Draw Four on 20% of the turns where it holds one
and the colour in play (so a player who keeps one for a while bluffs sometimes), forgets
the UNO call 10% of the time, stacks 80% of the times it can (it sometimes keeps a Draw
Two for later), jumps in half the times it could (a jump-in needs attention out of
turn), and challenges ``smart``. These rates are assumptions, not measurements of
people; each is a parameter (``table:bluff=0.1;forget_uno=0.3``). Against one another,
table players make the rules on bluffs, challenges and UNO penalties matter, which
``random`` players (who never bluff or forget) cannot show.

The weighted family (``points-dumper``, ``aggressive``, ``colour-counter``, ``weighted``)
plays by one rule: every legal card is scored ``sum(weight[f] * feature[f])`` over the
``FEATURES`` below and the best-scored card is played (the first in kind order on
ties); it draws only with no legal card. The four differ only in their default weights,
and every weight is a parameter (``weighted:scarce=3;attack=5``) or comes from a file
that ``unosim tune`` writes (``weighted:FILE``). Features of playing card ``k``
(``left`` = cards in hand after it, ``next`` = the next player, ``named`` = the colour it
would name after a wild-type card):

  points  points of ``k`` / 50 (the value got rid of);
  colour  share of ``left`` in the colour in play after ``k`` (keeps control of it);
  wild    1 for a wild-type card that attacks nobody (Wild, Shuffle Hands, Customizable);
  action  1 for Skip, Reverse, Draw Two and the attacking wilds (Wild Draw Four,
          Snorlax, Greninja, Powers of Grayskull);
  attack  1 / cards of ``next`` for a card that hits ``next`` (Skip, Draw Two, Reverse
          with 2 players, Wild Draw Four, Snorlax, Greninja; Grayskull: 1 / the fewest
          cards of any opponent): large when ``next`` is about to go out;
  switch  1 when the colour in play changes;
  short   1 when the table has seen ``next`` draw on the colour in play after ``k``
          (so ``next`` holds none of it: it drew on it, and since then has kept no
          drawn card, drawn no penalty, and not swapped or been dealt new cards);
  scarce  1/4 minus that colour's share of the coloured cards the player cannot see
          (deck minus own hand minus the discard pile: card counting);
  swap    cards a hand exchange would win, / 7 (a 7 under Seven-Zero and Customizable
          ``swap_hands``: against the opponent with fewest cards; a 0: against the hand
          received; Shuffle Hands: against the average hand);
  name_short, name_scarce  after a wild-type card it names the colour of highest
          ``share in hand + name_short * short + name_scarce * scarce`` (ties uniform).

  ``points-dumper`` gets rid of high-value cards first: weight on points only (a wild,
     50 points, goes first), colour share as the tie-break.
  ``aggressive`` saves its action cards for when the next player is close to going out:
     numbers by colour held most; action cards are worth -3, plus 8 / cards of the next
     player, so they go first when that player holds 2 cards or fewer, and last but
     before plain wilds otherwise.
  ``colour-counter`` remembers the cards played: plays into and names the colours the
     next player is known to lack (short) and the colours the unseen cards are short of.
  ``weighted`` starts from a blend of the above; ``unosim tune`` searches its weights.
  The family stacks like the heuristic (a Draw Two before a Wild Draw Four), swaps with
  the opponent holding fewest cards, plays a legal drawn card, multi-plays like the
  heuristic and challenges ``smart`` by default (rule 6).

Parameters of every strategy: ``bluff`` (probability of playing a Wild Draw Four
illegally when that is possible, on a turn's choice from the hand), ``challenge``
(``never`` = 0, ``always`` = 1, a probability, or ``smart``), ``forget_uno``
(probability of forgetting the UNO call; the rule ``catch_uno`` decides if it is
caught), ``stack`` and ``jump`` (probabilities of stacking / jumping in when able).
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
from ..kernel.layout import CHALLENGE_SMART, MAX_PLAYERS, N_PARAMS  # noqa: F401
from .params import (  # noqa: F401  (MAX_WEIGHT published here)
    MAX_WEIGHT,
    STRATEGY_DECLARATIONS,
    STRATEGY_PARAMS,
    strategy_slot,
)
from .params import BEHAVIOUR as _BEHAVIOUR
from .params import FEATURES as _FEATURES

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
    lo, hi = p.bounds
    if p.type == "weight":
        # bounded so every score stays far above the kernel's "no card" score (-1e18):
        # a player never draws while holding a legal card
        if not (np.isfinite(v) and lo <= v <= hi):
            raise StrategyError(f"weight {name!r} must be a finite number between "
                                f"{lo:g} and {hi:g}, got {text!r}")
        return v
    if not lo <= v <= hi:
        raise StrategyError(f"strategy parameter {name!r} must be a probability, got {text!r}")
    return v


def _load_file(name: str, path: str) -> dict[str, float]:
    """Weights (and behaviour parameters) from a strategy file written by ``unosim tune``."""
    import tomllib
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise StrategyError(f"strategy {name!r}: no file {path!r} (and {path!r} is not "
                            "a parameter: parameters are name=value)") from None
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StrategyError(f"strategy file {path!r}: {e}") from None
    except UnicodeDecodeError:
        raise StrategyError(f"strategy file {path!r} is not UTF-8 text (a TOML file "
                            "written by unosim tune)") from None
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
            raise StrategyError(f"unknown strategy parameter {item!r} for {name!r} "
                                f"(known: {', '.join(allowed)})")
        params[strategy_slot(PARAMS[key])] = _param_value(key, val)
    return sid, params, label(name, params)


def label(strategy: "int | str", params: np.ndarray) -> str:
    """Canonical text of a strategy (a name, or a kernel id for its first name): the
    name plus the parameters that differ from its defaults."""
    name = strategy if isinstance(strategy, str) else NAMES[strategy]
    extra = []
    for key, v, d in zip(PARAM_NAMES, params, DEFAULTS[name]):
        if v != d:
            p = PARAMS[key]
            # a value outside the bounds is a word's (challenge=smart): written as it
            words = [w for w, x in p.named.items() if x == v]
            out = not p.bounds[0] <= v <= p.bounds[1]
            val = words[0] if out and words else f"{v:.6g}"
            extra.append(f"{key}={val}")
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
