"""Every player parameter, declared once: the strategies' behaviour parameters and
weighted features, the built-in strategies' defaults, and the expert's parameters.

Each :class:`Param` has a name, a type, a default, bounds or choices, the kernel constant
of its slot and a one-line description; parsing, labels and the kernel arrays
(``strategies.parse_builtin``, ``expert.options``, ``expert.expert_array``) follow from
them, and a test checks that the kernel reads every slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..kernel.core import layout as L
from ..kernel.expert import rounds as _expert
from ..kernel.strategies import decide as _decide


@dataclass(frozen=True)
class Param:
    """One parameter.

    ``type``: ``prob`` (a probability), ``weight`` (a feature's weight, within
    ``bounds``), ``int`` or ``float`` (within ``bounds``, inclusive), ``choice`` (one of
    ``choices``, sent to the kernel as its index) or ``text`` (no slot: read in Python).
    ``slot``: the name of the kernel constant that indexes it (``layout.P_BLUFF``,
    ``decide.F_POINTS``, ``kernel.expert.rounds.X_ROLLOUTS``). ``named``: words accepted for
    values (``challenge=smart``). ``scale``: a ``float`` goes to the kernel as
    ``round(value * scale)``.
    """

    name: str
    type: str
    default: object
    doc: str
    slot: str = ""
    bounds: tuple[float, float] | None = None
    choices: tuple[str, ...] = ()
    named: dict = field(default_factory=dict)
    scale: int = 1
    more: str = ""  # the docs' fuller explanation (docs/players.md), if any

    @property
    def limits(self) -> tuple[float, float]:
        """``bounds``, for a parameter declared with them (else an error)."""
        if self.bounds is None:
            raise AssertionError(f"parameter {self.name!r} is declared without bounds")
        return self.bounds

    def encode(self, value: Any) -> int:
        """The value as the kernel's int64 code (expert parameters)."""
        if self.type == "choice":
            return self.choices.index(value)
        if self.type == "float":
            return round(value * self.scale)
        return int(value)


def _with_more(params: tuple[Param, ...], more: dict[str, str]) -> tuple[Param, ...]:
    """``params`` with the docs' fuller explanation ``more[name]`` of each (every key
    names one of them)."""
    names = {p.name for p in params}
    unknown = set(more) - names
    if unknown:
        raise AssertionError(f"explanations of undeclared parameters: {sorted(unknown)}")
    return tuple(replace(p, more=more.get(p.name, "")) for p in params)


def docs_table(params: tuple[Param, ...], head: str = "parameter") -> str:
    """The Markdown table of ``params`` in ``docs/players.md``: name, default, values and
    what it does (``more``, else ``doc``); ``tools/param_tables.py`` writes it there."""
    rows = [f"| {head} | default | values | meaning |", "|---|---|---|---|"]
    for p in params:
        if p.choices:
            values = " / ".join(f"`{c}`" for c in p.choices)
        elif p.bounds is not None and p.type != "weight":
            lo, hi = p.bounds
            values = f"{lo:g} to {hi:g}" if p.type != "int" else f"{int(lo):,} to {int(hi):,}"
        elif p.type == "weight":
            values = "any weight"
        else:
            values = "text"
        default = p.default if not isinstance(p.default, float) else f"{p.default:g}"
        meaning = (p.more or p.doc).replace("|", "\\|")
        rows.append(f"| `{p.name}` | `{default}` | {values} | {meaning} |")
    return "\n".join(rows)


MAX_WEIGHT = 1e6  # |weight|: scores stay within about 1e10, every legal card playable
_P = (0.0, 1.0)
_W = (-MAX_WEIGHT, MAX_WEIGHT)

# behaviour of every strategy: its parameter vector's slots layout.P_* (the defaults are
# ``random``'s; each strategy declares its own below)
BEHAVIOUR: tuple[Param, ...] = (
    Param(
        "bluff",
        "prob",
        0.0,
        "probability of playing a Wild Draw Four illegally when "
        "that is possible, on a turn's choice from the hand",
        "P_BLUFF",
        _P,
    ),
    Param(
        "challenge",
        "prob",
        0.0,
        "probability of challenging a Wild Draw Four, or "
        "`smart` (when the expected cards won beat those lost)",
        "P_CHALLENGE",
        _P,
        named={"never": 0.0, "always": 1.0, "smart": L.CHALLENGE_SMART},
    ),
    Param(
        "forget_uno",
        "prob",
        0.0,
        "probability of forgetting the UNO call (the rule `catch_uno` decides if it is caught)",
        "P_FORGET_UNO",
        _P,
    ),
    Param("stack", "prob", 1.0, "probability of stacking when able", "P_STACK", _P),
    Param("jump", "prob", 1.0, "probability of jumping in when able", "P_JUMP", _P),
)
# the weighted family's features: slots layout.P_W + decide.F_* (default weight 0)
FEATURES: tuple[Param, ...] = (
    Param("points", "weight", 0.0, "points of the card / 50", "F_POINTS", _W),
    Param(
        "colour",
        "weight",
        0.0,
        "share of the cards left in the colour in play after it",
        "F_COLOUR",
        _W,
    ),
    Param("wild", "weight", 0.0, "1 for a wild-type card that attacks nobody", "F_WILD", _W),
    Param("action", "weight", 0.0, "1 for an action card or an attacking wild", "F_ACTION", _W),
    Param(
        "attack",
        "weight",
        0.0,
        "1 / cards of the next player, for a card that hits them",
        "F_ATTACK",
        _W,
    ),
    Param("switch", "weight", 0.0, "1 when the colour in play changes", "F_SWITCH", _W),
    Param(
        "short",
        "weight",
        0.0,
        "1 when the next player was seen to lack the colour in play after it",
        "F_SHORT",
        _W,
    ),
    Param(
        "scarce",
        "weight",
        0.0,
        "1/4 minus that colour's share of the unseen coloured cards",
        "F_SCARCE",
        _W,
    ),
    Param("swap", "weight", 0.0, "cards a hand exchange would win, / 7", "F_SWAP", _W),
    Param(
        "name_short",
        "weight",
        0.0,
        "naming a colour: weight of the next player lacking it",
        "F_NAME_SHORT",
        _W,
    ),
    Param(
        "name_scarce",
        "weight",
        0.0,
        "naming a colour: weight of its scarcity among the unseen cards",
        "F_NAME_SCARCE",
        _W,
    ),
)

_FEATURES_MORE = {  # what docs/players.md says of each
    "points": "points of `k` / 50 (the value got rid of)",
    "colour": "share of `left` in the colour in play after `k` (keeps control of it)",
    "wild": "1 for a wild-type card that attacks nobody (Wild, Shuffle Hands, Customizable)",
    "action": (
        "1 for Skip, Reverse, Draw Two and the attacking wilds (Wild Draw Four, Snorlax, "
        "Greninja, Powers of Grayskull)"
    ),
    "attack": (
        "1 / cards of `next` for a card that hits `next` (Skip, Draw Two, Reverse with 2 "
        "players, Wild Draw Four, Snorlax, Greninja; Grayskull: 1 / the fewest cards of "
        "any opponent): large when `next` is about to go out"
    ),
    "switch": "1 when the colour in play changes",
    "short": (
        "1 when the table has seen `next` draw on the colour in play after `k` (so `next`"
        " holds none of it: it drew on it, and since then has kept no drawn card, drawn "
        "no penalty, and not swapped or been dealt new cards)"
    ),
    "scarce": (
        "1/4 minus that colour's share of the coloured cards the player cannot see (deck "
        "minus own hand minus the discard pile: card counting)"
    ),
    "swap": (
        "cards a hand exchange would win, / 7 (a 7 under Seven-Zero and Customizable "
        "`swap_hands`: against the opponent with fewest cards; a 0: against the hand "
        "received; Shuffle Hands: against the average hand)"
    ),
    "name_short": (
        "after a wild-type card it names the colour of highest `share in hand + "
        "name_short * short + name_scarce * scarce` (ties uniform)."
    ),
    "name_scarce": (
        "after a wild-type card it names the colour of highest `share in hand + "
        "name_short * short + name_scarce * scarce` (ties uniform)."
    ),
}
FEATURES = _with_more(FEATURES, _FEATURES_MORE)
STRATEGY_PARAMS = BEHAVIOUR + FEATURES


def strategy_slot(p: Param) -> int:
    """Index of ``p`` in a seat's parameter vector (float64[N_PARAMS])."""
    if p.type == "weight":
        return L.P_W + getattr(_decide, p.slot)
    return getattr(L, p.slot)


@dataclass(frozen=True)
class Strategy:
    """A built-in strategy: its name, the kernel id that plays it (``decide.<ID>``), one
    sentence on how it plays (``unosim strategies``), and the defaults that differ from
    the declarations above."""

    name: str
    kernel: str
    doc: str
    defaults: dict = field(default_factory=dict)

    @property
    def kernel_id(self) -> int:
        return getattr(_decide, self.kernel)

    @property
    def weighted(self) -> bool:
        return self.kernel_id >= _decide.FIRST_WEIGHTED

    def vector(self) -> tuple[float, ...]:
        """Its default parameters, in slot order."""
        out = [0.0] * L.N_PARAMS
        for p in STRATEGY_PARAMS:
            out[strategy_slot(p)] = float(self.defaults.get(p.name, p.default))
        return tuple(out)


_SMART = {"challenge": L.CHALLENGE_SMART}


def _weights(
    points: float,
    colour: float,
    wild: float,
    action: float,
    attack: float,
    switch: float,
    short: float,
    scarce: float,
    swap: float,
    name_short: float,
    name_scarce: float,
) -> dict[str, float]:
    return {
        "points": points,
        "colour": colour,
        "wild": wild,
        "action": action,
        "attack": attack,
        "switch": switch,
        "short": short,
        "scarce": scarce,
        "swap": swap,
        "name_short": name_short,
        "name_scarce": name_scarce,
    }


# the first of each kernel id is the name its labels use; the strategies' docs say why
# these defaults
STRATEGY_DECLARATIONS: tuple[Strategy, ...] = (
    Strategy(
        "random",
        "RANDOM",
        "Plays a legal card chosen uniformly at random and never bluffs (the rules' own player).",
    ),
    Strategy(
        "heuristic",
        "HEURISTIC",
        "A human-like scripted player: colour before rank, wilds kept for last, attacks "
        "a next player close to going out.",
        _SMART,
    ),
    Strategy(
        "points-dumper",
        "POINTS_DUMPER",
        "Gets rid of its high-value cards first.",
        {**_SMART, **_weights(1.0, 0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)},
    ),
    Strategy(
        "aggressive",
        "AGGRESSIVE",
        "Keeps its action cards for when the next player is close to going out.",
        {**_SMART, **_weights(0.005, 0.5, -5.0, -3.0, 8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)},
    ),
    Strategy(
        "colour-counter",
        "COLOUR_COUNTER",
        "Plays into the colours the next player lacks and the unseen cards are short of.",
        {**_SMART, **_weights(0.02, 1.0, -2.0, 0.0, 2.0, 0.0, 1.5, 4.0, 0.5, 1.5, 4.0)},
    ),
    Strategy(
        "weighted",
        "WEIGHTED",
        "Scores every legal card by a weighted sum of features; unosim tune fits the weights.",
        {**_SMART, **_weights(0.2, 1.0, -2.0, -0.5, 3.0, 0.0, 1.0, 2.0, 1.0, 1.0, 2.0)},
    ),
    Strategy(
        "table",
        "HEURISTIC",
        "The heuristic with human imperfections: it bluffs, forgets UNO, and misses "
        "stacks and jump-ins.",
        {
            "bluff": 0.2,
            "challenge": L.CHALLENGE_SMART,
            "forget_uno": 0.1,
            "stack": 0.8,
            "jump": 0.5,
        },
    ),
)

# the expert's parameters (``expert:<name>=<value>;...``), in the order of its labels;
# slots kernel.expert.rounds.X_*
EXPERT_PARAMS: tuple[Param, ...] = (
    Param(
        "rollouts",
        "int",
        64,
        "determinizations per decision, each candidate played out once on each",
        "X_ROLLOUTS",
        (1, 1 << 20),
    ),
    Param(
        "policy",
        "text",
        "tuned",
        "the rollout policy, which also makes the decisions "
        "not searched: `tuned`, a strategy name, or a weighted strategy file (.toml)",
    ),
    Param(
        "horizon",
        "int",
        8,
        "turns a rollout plays before it is scored by `value` (0: to the end)",
        "X_HORIZON",
        (0, 1 << 20),
    ),
    Param(
        "crn",
        "int",
        1,
        "1: every candidate is played out on the same deals and random streams",
        "X_CRN",
        (0, 1),
    ),
    Param(
        "draw",
        "int",
        0,
        "1: drawing with a legal card in hand is a candidate (when `voluntary_draw` allows it)",
        "X_DRAW",
        (0, 1),
    ),
    Param(
        "model",
        "choice",
        "policy",
        "how opponents play in the rollouts: the rollout policy, or their `actual` strategies",
        "X_MODEL",
        choices=("policy", "actual"),
    ),
    Param(
        "z",
        "float",
        2.0,
        "standard errors by which another move must beat the policy's",
        "X_Z",
        (0.0, 100.0),
        scale=100,
    ),
    Param(
        "endgame",
        "int",
        0,
        "search only once some hand holds at most this many cards (0: always)",
        "X_ENDGAME",
        (0, 1000),
    ),
    Param(
        "deal",
        "choice",
        "voids",
        "how the unseen cards are dealt in each determinization",
        "X_DEAL",
        choices=("uniform", "voids", "open"),
    ),
    Param("bluff", "int", 0, "1: an illegal Wild Draw Four is a candidate too", "X_BLUFF", (0, 1)),
    Param(
        "race",
        "int",
        4,
        "k > 0: every k rollouts, drop the candidates already worse by `cut` standard errors",
        "X_RACE",
        (0, 1 << 20),
    ),
    Param(
        "cut",
        "float",
        -1.0,
        "racing drops a candidate worse by `cut` standard errors (-1: `z`)",
        "X_CUT",
        (-1.0, 100.0),
        scale=100,
    ),
    Param(
        "pad",
        "int",
        1000,
        "added to a paired difference's variance, in thousandths of 1/rollouts",
        "X_PAD",
        (0, 1000),
    ),
    Param(
        "scope",
        "choice",
        "all",
        "the decisions searched: the normal `turn` only, or `all`",
        "X_SCOPE",
        choices=("turn", "all"),
    ),
    Param(
        "infer",
        "int",
        3,
        "what the opponents' past plays tell about their hands in a determinization (0: nothing)",
        "X_INFER",
        (0, 3),
    ),
    Param("more", "int", 5, "k > 1: up to k x rollouts on close decisions", "X_MORE", (1, 64)),
    Param(
        "fut",
        "int",
        10,
        "g > 0: no more rollouts for a move less than g% likely to beat the policy's by then",
        "X_FUT",
        (0, 100),
    ),
    Param(
        "depth",
        "int",
        1,
        "the last plays per opponent that `infer` 2-3 read",
        "X_DEPTH",
        (1, L.PLAYED_DEPTH),
    ),
    Param(
        "tries",
        "int",
        16,
        "deals of an opponent's hand at most until one agrees with `infer`",
        "X_TRIES",
        (1, 1024),
    ),
    Param(
        "value",
        "choice",
        "fit",
        "how a rollout cut by the horizon is scored: by `hands` (inverse hand sizes) or "
        "a `fit`ted model of who goes out first",
        "X_VALUE",
        choices=("hands", "fit"),
    ),
    Param(
        "reuse",
        "int",
        2,
        "k > 1: each deal of the hidden hands serves k rollouts, each drawing its own "
        "cards from the pile (with `crn=1`)",
        "X_REUSE",
        (1, 64),
    ),
    Param(
        "pile",
        "choice",
        "lazy",
        "a determinization: `lazy` deals the hands card by card, each card drawn a random "
        "one of the pile's; `shuffled`, the dealing of kernel behaviour 7 and before",
        "X_PILE",
        choices=("shuffled", "lazy"),
    ),
)

_EXPERT_MORE = {  # what docs/players.md says of each
    "rollouts": (
        "determinizations per decision, each candidate played out once on each (the budget)"
    ),
    "policy": (
        "the rollout policy, which also makes the decisions the expert does not search: "
        "`tuned` (the weighted player tuned against 3 `random` under official rules, "
        "`examples/weighted-official-random-2.toml`), any strategy name without "
        "parameters, or a weighted strategy file (`x.toml`, as `unosim tune` writes them)"
    ),
    "horizon": "turns a rollout plays before it is scored by `value` (0: to the end)",
    "crn": "1: every candidate is played out on the same deals and random streams",
    "draw": (
        "1: drawing with a legal card in hand is a candidate (when the rules' "
        "`voluntary_draw` allows it)"
    ),
    "model": (
        "`policy`: every seat plays the rollout policy in the rollouts; `actual`: the "
        "opponents play their own strategies (the expert knows them; a Python agent's "
        "seat plays the rollout policy)"
    ),
    "z": (
        "the policy's own move is kept unless another beats it by more than `z` standard "
        "errors of the paired difference (0: plain best estimate)"
    ),
    "endgame": "search only once some hand holds at most this many cards (0: always)",
    "deal": (
        "how the cards it cannot see are dealt in each determinization: `uniform`, "
        "`voids` (no opponent gets a card of a colour or rank, or a wild-type card, that "
        "the table saw it lack when it last drew: `layout.MEM_SHORT`), or `open` (the "
        "true hands: a diagnostic of what the hidden cards cost, not a fair player)"
    ),
    "bluff": (
        "1: an illegal Wild Draw Four is a candidate too (4.3; none of the built-in "
        "players ever challenges this expert, so a bluff is never punished)"
    ),
    "race": (
        "k > 0: every k rollouts, drop the candidates already worse than the policy's "
        "move by `cut` standard errors (racing; 0: every candidate gets every rollout)"
    ),
    "cut": (
        "racing drops a candidate already worse than the policy's move by `cut` standard "
        "errors (-1: by `z`); a raced search ends once only the policy's move is left"
    ),
    "pad": (
        "added to the variance of a paired difference, in thousandths of 1/rollouts "
        "(1000: 1/rollouts, so that a few identical differences are no certainty)"
    ),
    "scope": (
        "`all`: every decision above is searched; `turn`: only the normal turn's card and"
        " colour (and draw, bluff), the rest is the policy's (the first expert's scope)"
    ),
    "infer": (
        "1: in each determinization a `heuristic` (or `table`) opponent's hand agrees "
        "with the last colour it named after a wild-type card (a heuristic names the "
        "colour it holds most of), as far as the cards it played since allow, and lacks "
        "what that play showed it lacked (a heuristic plays a plain wild only without a "
        "legal coloured card); 2: also, if its last actions were cards from its hand, a "
        "hand with which the heuristic would have played them; 3: also a `random` "
        "opponent's hand is dealt with the chance that `random` made its last plays from "
        "it (each: the card's copies over the legal cards of the hand it then held, rules"
        " section 10), by rejection; 0: none of these (`kernel.expert.deal.determinize`; "
        "what a seat's plays showed is forgotten once it draws or its hand moves)"
    ),
    "depth": (
        "the last plays from the hand per opponent that `infer` 2-3 read (1-4; all made "
        "since its hand last changed otherwise)"
    ),
    "tries": (
        "deals of an opponent's hand at most until one agrees with `infer` (the last one "
        "is kept if none does)"
    ),
    "more": (
        "k > 1: while a candidate beats the policy's move on average but not by `z` "
        "standard errors, `rollouts` more rollouts are played, up to `k` x `rollouts` "
        "(adaptive rollouts: the budget goes to the close decisions; 1: always "
        "`rollouts`, the expert of kernel behaviour 3)"
    ),
    "fut": (
        "g > 0: `more`'s extra rollouts are played only for a candidate with at least a "
        "g% chance, on its trend so far, to beat the policy's move by `z` standard errors "
        "after `more` x `rollouts` (conditional power: at k rollouts with its paired "
        "difference at t standard errors, the final one taken as normal with mean "
        "t x sqrt(`more` x `rollouts` / k) and variance 1 - k / (`more` x `rollouts`)); "
        "0: off"
    ),
    "value": (
        "`hands`: a rollout cut by `horizon` scores the expert's share of the inverse hand "
        "sizes; `fit`: its chance to go out first by a model fitted to official 4-player "
        "rounds (a conditional logit over the seats on hand size and distance from the "
        "seat to move, wild cards, Wild Draw Fours, colours held, a card of the colour in "
        "play, Draw Twos, Skips and Reverses: `kernel/expert/value.py`, "
        "`tools/fit_cut_value.py`)"
    ),
    "reuse": (
        "k > 1: the opponents' hands dealt for a rollout (`deal`, `infer`: the costly part "
        "of a determinization) serve the next k - 1 rollouts too, each with rollout streams "
        "of its own, so its own cards drawn (`pile=lazy`) or the pile's cards shuffled anew "
        "(`pile=shuffled`) (`crn=1` only; 1: every rollout deals anew; 2, the default: 32 deals "
        "of the hands for the default's 64 rollouts)"
    ),
    "pile": (
        "`lazy`: a determinization deals each opponent's hand card by card, each a "
        "uniform one of the cards not yet dealt that it may hold (`deal`), and leaves the "
        "draw pile unshuffled: each card a rollout draws is a random one of the pile's, as "
        "in the game itself (with `crn=1`, the same cards for every candidate: the same "
        "streams). `shuffled` (kernel behaviour 7 and before, and `STRONG`'s measured "
        "games): the unseen cards are shuffled, the hands dealt from the front and the "
        "pile's order kept for the rollouts; with `deal=voids` a hand dealt after a seat "
        "known to lack something gets too many of the cards that seat skipped (the "
        "skipped cards stay just after its hand)"
    ),
}
EXPERT_PARAMS = _with_more(EXPERT_PARAMS, _EXPERT_MORE)


def expert_slot(p: Param) -> int:
    """Index of ``p`` in a seat's expert row (int64[N_X])."""
    return getattr(_expert, p.slot)
