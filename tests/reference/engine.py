"""Independent, slow, readable pure-Python reference engine for UNO.

This engine implements the rules contract, RULES.md (stated in the project's words in
docs/rules.md, same section numbers): sections 1-6, 8, the special cards of section 2,
the presets of section 9 and the ``random`` strategy of section 10, without
looking at the fast numba kernel in ``unosim/``.  It exists so that the kernel can be
checked against it statistically.  Clarity comes before speed: cards are small named
tuples, the round is an object whose methods follow the sections of RULES.md, and every
random decision goes through the ``random.Random`` instance passed in.

Conventions
-----------
* Seats are ``0..n-1`` in the initial (clockwise) direction; seat ``n-1`` deals and
  seat 0 normally acts first (RULES.md section 1).
* ``Card(colour, rank)``: ``colour`` is one of ``COLOURS`` or ``None`` for wild-type
  cards; ``rank`` is ``'0'..'9'``, ``'skip'``, ``'reverse'``, ``'draw2'`` or one of
  ``WILD_RANKS``.  Two physical copies of the same card are equal tuples; choices that
  must be "uniform over physical cards" choose over positions in the hand.
* A scripted round can be started from a given deck order: ``deck[0]`` is the top of
  the draw pile before the deal, i.e. the first card dealt.  The deal goes one card at a
  time to seats 0, 1, ..., n-1, ``hand_size`` times over; the next card is turned up to
  start the discard pile; ``deck[n*hand_size + 1]`` is then the top of the draw pile.
  ``arrange_deck`` builds such an order from wanted hands.

Declared cards (docs/cards.md): a rule file's ``[cards.NAME]`` tables are read here with
``tomllib`` and their steps interpreted here (``Round.declared_effect``), without the
package's parser: a declared card is ``Card(colour, NAME)``.

Public API
----------
``play_round(rules, n_players, rng, params=None, *, deck=None, checks=False, log=None)``
``simulate(rules, n_players, n_games, seed, params=None)``
``summarise(rows)``
``DEFAULT_RULES``, ``PRESETS``, ``make_deck``, ``arrange_deck``, ``card``, ``cards``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter, namedtuple
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

# ---------------------------------------------------------------------------
# Cards (RULES.md section 2)
# ---------------------------------------------------------------------------

COLOURS = ("red", "yellow", "green", "blue")
NUMBER_RANKS = tuple(str(i) for i in range(10))
ACTION_RANKS = ("skip", "reverse", "draw2")
WILD_RANKS = (
    "wild",
    "wild4",
    "shuffle_hands",  # Wild Shuffle Hands (official-2018)
    "customizable",  # Wild Customizable, blank card (official-2018)
    "snorlax",  # pokemon
    "greninja",  # pokemon
    "grayskull",  # Powers of Grayskull (motu)
)
# Rule name of the count of each special wild in the deck (0 in `official`).
SPECIAL_COUNT_RULES = (
    "shuffle_hands",
    "customizable",
    "snorlax",
    "greninja",
    "grayskull",
)


class Card(namedtuple("Card", "colour rank")):
    """One physical card. ``colour`` is None for every wild-type card."""

    __slots__ = ()

    @property
    def is_wild(self) -> bool:
        return self.colour is None

    @property
    def is_number(self) -> bool:
        return self.colour is not None and self.rank in NUMBER_RANKS

    def __repr__(self) -> str:
        return self.rank if self.colour is None else f"{self.colour} {self.rank}"


def card(text: str) -> Card:
    """Parse ``'red 5'``, ``'blue draw2'``, ``'green skip'``, ``'wild4'``, ``'snorlax'``..."""
    parts = text.strip().split()
    if len(parts) == 1:
        if parts[0] not in WILD_RANKS:
            raise ValueError(f"unknown wild-type card {text!r}")
        return Card(None, parts[0])
    colour, rank = parts
    if colour not in COLOURS or rank not in NUMBER_RANKS + ACTION_RANKS:
        raise ValueError(f"unknown card {text!r}")
    return Card(colour, rank)


def cards(text: str) -> list[Card]:
    """Parse a comma-separated list: ``cards('red 5, wild, blue skip')``."""
    return [card(t) for t in text.split(",") if t.strip()]


# Points of each card kind (RULES.md section 2 and 5): numbers face value,
# Skip/Reverse/Draw Two 20, every wild-type card 50.  A rule (`points`).
DEFAULT_POINTS = {
    **{r: int(r) for r in NUMBER_RANKS},
    **{r: 20 for r in ACTION_RANKS},
    **{r: 50 for r in WILD_RANKS},
}

# ---------------------------------------------------------------------------
# Rules, presets (RULES.md sections 8 and 9)
# ---------------------------------------------------------------------------

DEFAULT_RULES: dict = {
    "hand_size": 7,  # 3.1
    "stacking": "none",  # 8.1: 'none' | 'same' | 'progressive'
    "seven_zero": False,  # 8.2
    "jump_in": False,  # 8.3
    "draw_rule": "one",  # 4.2 / 8.4: 'one' | 'until_playable'
    "wd4_restriction": "colour",  # 4.3 / 8.5 / 8.10: 'colour' | 'none' | 'strict'
    "challenge": True,  # 4.3
    "challenge_penalty": 2,  # 4.3 / 8.7
    "uno_penalty": 2,  # 4.4 / 8.7
    "catch_uno": 1.0,  # 4.4
    "voluntary_draw": True,  # 4.2 (the random strategy never draws voluntarily)
    "multi_play": False,  # 8.6 (the random strategy never multi-plays)
    "max_turns": 5000,  # 5
    "last_card": "any",  # 8.8: 'any' | 'number'
    "after_draw": "play",  # 8.9: 'play' | 'pass'
    "blank_card": "wild",  # 2: 'wild' | 'swap_hands'
    "shuffle_hands": 0,  # 2: special-card counts
    "customizable": 0,
    "snorlax": 0,
    "greninja": 0,
    "grayskull": 0,
    "points": DEFAULT_POINTS,  # 2: points per card rank
    "cards": {},  # declared cards: name -> its [cards.NAME] table (docs/cards.md)
    # Match-level rules (section 7): carried for completeness, unused by one round.
    "scoring": "winner_takes_all",
    "target_score": 500,
    "next_dealer": "rotate",
}
_MATCH_ONLY_KEYS = {"penalty_elimination", "elimination_score"}

_OFFICIAL = dict(DEFAULT_RULES)
PRESETS: dict[str, dict] = {
    "official": dict(_OFFICIAL),
    "official-2018": {
        **_OFFICIAL,
        "shuffle_hands": 1,
        "customizable": 3,
        "blank_card": "wild",
    },
    "pokemon": {**_OFFICIAL, "snorlax": 2, "greninja": 2, "next_dealer": "winner"},
    "motu": {**_OFFICIAL, "grayskull": 4},
    "copag": {
        **_OFFICIAL,
        "wd4_restriction": "none",
        "challenge": False,
        "multi_play": True,
    },
    "portugal": {**_OFFICIAL, "uno_penalty": 1, "challenge": False},
    # house-rule combinations (section 9, last paragraph)
    "stacking": {**_OFFICIAL, "stacking": "same"},
    "progressive": {**_OFFICIAL, "stacking": "progressive"},
    "seven-zero": {**_OFFICIAL, "seven_zero": True},
    "jump-in": {**_OFFICIAL, "jump_in": True},
    "draw-until-playable": {**_OFFICIAL, "draw_rule": "until_playable"},
}

DEFAULT_PARAMS = {"bluff": 0.0, "challenge": 0.0, "forget_uno": 0.0}


def resolve_rules(rules: dict | str | None) -> dict:
    """Return a full, validated rules dict: a preset name, or a (partial) dict over
    DEFAULT_RULES."""
    if rules is None:
        rules = {}
    if isinstance(rules, (str, Path)) and str(rules).endswith(".toml"):
        rules = load_rules_file(rules)
    if isinstance(rules, str):
        rules = PRESETS[rules]
    unknown = set(rules) - set(DEFAULT_RULES) - _MATCH_ONLY_KEYS
    if unknown:
        raise ValueError(f"unknown rule names: {sorted(unknown)}")
    r = {**DEFAULT_RULES, **rules}
    r["points"] = {**DEFAULT_POINTS, **r["points"]}
    checks = {
        "stacking": ("none", "same", "progressive"),
        "draw_rule": ("one", "until_playable"),
        "wd4_restriction": ("colour", "none", "strict"),
        "blank_card": ("wild", "swap_hands"),
        "last_card": ("any", "number"),
        "after_draw": ("play", "pass"),
    }
    for name, allowed in checks.items():
        if r[name] not in allowed:
            raise ValueError(f"rule {name}={r[name]!r} not in {allowed}")
    if r["after_draw"] == "pass" and r["draw_rule"] == "until_playable":
        raise ValueError("after_draw = pass cannot be combined with until_playable (8.9)")
    if not 0.0 <= r["catch_uno"] <= 1.0:
        raise ValueError("catch_uno must be a probability")
    if r["hand_size"] < 1 or r["max_turns"] < 0:
        raise ValueError("hand_size must be >= 1 and max_turns >= 0")
    return r


def load_rules_file(path) -> dict:
    """A rule file (a preset and changes, ``[cards.NAME]`` tables) as a rules dict; only
    the rules this engine knows may change."""
    data = tomllib.loads(Path(path).read_text())
    base = dict(PRESETS[data.pop("preset", "official")])
    data.pop("name", None)
    cards_ = data.pop("cards", {})
    out = {**base, **data}
    out["cards"] = {name: declared_card(t) for name, t in cards_.items()}
    out["points"] = {**base["points"], **{n: c["points"] for n, c in out["cards"].items()}}
    return out


def declared_card(t: dict) -> dict:
    """A ``[cards.NAME]`` table with its defaults (docs/cards.md) and its steps as word
    lists: ``["draw", 6, "next"]``, ``["skip", "everyone"]``."""
    wild = t.get("colours", "each") == "wild"
    steps = []
    for text in t.get("effect", []):
        w = text.split()
        steps.append([w[0], int(w[1]), w[2]] if w[0] == "draw" else w)
    names = ["name_colour"] in steps
    if names:
        steps.remove(["name_colour"])  # the first is named as the card is placed
    return {
        "wild": wild,
        "copies": t.get("copies", 4 if wild else 2),
        "points": t.get("points", 50 if wild else 20),
        "matches": t.get("matches", "anything" if wild else "rank"),
        "stack": t.get("stack", False),
        "names": names,
        "steps": steps,  # a later ["name_colour"]: the player names a colour again
    }


def make_deck(rules: dict | str | None = None) -> list[Card]:
    """The whole deck in a fixed canonical order (RULES.md section 2): 108 standard cards
    plus the special wilds counted by the rules (112 in official-2018, pokemon, motu)."""
    r = resolve_rules(rules)
    deck: list[Card] = []
    for colour in COLOURS:
        deck.append(Card(colour, "0"))
        for rank in NUMBER_RANKS[1:] + ACTION_RANKS:
            deck += [Card(colour, rank)] * 2
    deck += [Card(None, "wild")] * 4 + [Card(None, "wild4")] * 4
    for rank in SPECIAL_COUNT_RULES:
        deck += [Card(None, rank)] * int(r[rank])
    for name, spec in r["cards"].items():
        for colour in [None] if spec["wild"] else COLOURS:
            deck += [Card(colour, name)] * spec["copies"]
    return deck


def arrange_deck(
    rules: dict | str | None,
    n_players: int,
    hands: list[list[Card]],
    turn_up: Card,
    draw_top: list[Card] = (),
    rng: random.Random | None = None,
) -> list[Card]:
    """Build a full deck order for ``play_round(..., deck=...)`` that deals ``hands``.

    ``hands[s]`` (exactly ``hand_size`` cards each) goes to seat s, ``turn_up`` starts the
    discard pile, ``draw_top`` are the next cards of the draw pile (first = drawn first),
    and the rest of the deck follows in canonical order (or shuffled with ``rng``).
    """
    r = resolve_rules(rules)
    hs = r["hand_size"]
    if len(hands) != n_players or any(len(h) != hs for h in hands):
        raise ValueError(f"need {n_players} hands of {hs} cards")
    order: list[Card] = []
    for i in range(hs):  # the deal: one card at a time, seat 0 first
        for s in range(n_players):
            order.append(hands[s][i])
    order.append(turn_up)
    order += list(draw_top)
    rest = Counter(make_deck(r))
    rest.subtract(Counter(order))
    if any(v < 0 for v in rest.values()):
        raise ValueError(f"cards not in the deck: {+(-rest)}")
    remaining: list[Card] = []
    for c in make_deck(r):  # canonical order
        if rest[c] > 0:
            remaining.append(c)
            rest[c] -= 1
    if rng is not None:
        rng.shuffle(remaining)
    return order + remaining


# ---------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------


class Round:
    """State and logic of one round (RULES.md sections 1-6 and 8), all seats ``random``.

    State (all public, for tests):
      hands[s]      list of Card held by seat s
      draw_pile     list of Card, the END of the list is the top (next card drawn)
      discard       list of Card, the END of the list is the top card
      colour        the current colour (4.1)
      direction     +1 clockwise (initial), -1 counter-clockwise
      current       the seat whose situation is resolved next
      pending_skip  skips waiting for `current` and the seats after it (4.6; a count)
      waiting_skips[s]  skips a declared card left for seat s (docs/cards.md): each takes
                    one of s's turns, once any penalty or special card waiting is met
      pending_draw  cards a Draw Two / Wild Draw Four (stack) makes `current` draw (4.6, 8.1)
      pending_special  'snorlax' / 'greninja': `current` is made to act by that card
      wd4           dict(player, illegal, challengeable) while a Wild Draw Four penalty waits
    """

    def __init__(
        self,
        rules: dict | str | None,
        n_players: int,
        rng: random.Random,
        params: list[dict] | None = None,
        *,
        deck: list[Card] | None = None,
        checks: bool = False,
        log: list | None = None,
    ):
        if not 2 <= n_players <= 10:  # 1
            raise ValueError("n_players must be 2..10")
        if not isinstance(rng, random.Random):
            raise TypeError("rng must be a random.Random instance")
        self.rules = resolve_rules(rules)
        self.n = n_players
        self.rng = rng
        self.params = self._resolve_params(params, n_players)
        self.full_deck = make_deck(self.rules)
        if deck is not None:
            if Counter(deck) != Counter(self.full_deck):
                raise ValueError("deck must be a permutation of make_deck(rules)")
            deck = list(deck)
        self.deck_order = deck
        self.checks = checks
        self.log = log

        self.hands: list[list[Card]] = [[] for _ in range(n_players)]
        self.draw_pile: list[Card] = []
        self.discard: list[Card] = []
        self.colour: str | None = None
        self.direction = +1
        self.current = 0
        self.pending_skip = 0  # skips waiting: the next that many seats lose their turn
        self.waiting_skips = [0] * n_players  # a declared card's, each for its seat
        self.pending_draw = 0
        self.pending_special: str | None = None
        self.greninja_player = -1
        self.wd4: dict | None = None
        self.over = False
        self.winner = -1
        self.truncated = False
        # section 6 counters
        self.first_player = -1
        self.turns = 0
        self.cards_played = 0
        self.cards_drawn = 0
        self.reshuffles = 0
        self.max_stack = 0
        self.challenges = 0
        self.bluffs = 0
        self.uno_penalties = 0

    @staticmethod
    def _resolve_params(params, n):
        if params is None:
            return [dict(DEFAULT_PARAMS) for _ in range(n)]
        if len(params) != n:
            raise ValueError("params needs one dict per seat")
        out = []
        for p in params:
            p = p or {}
            unknown = set(p) - set(DEFAULT_PARAMS)
            if unknown:
                raise ValueError(f"unknown strategy params: {sorted(unknown)}")
            q = {**DEFAULT_PARAMS, **p}
            if not all(0.0 <= float(v) <= 1.0 for v in q.values()):
                raise ValueError("strategy params are probabilities")
            out.append(q)
        return out

    # -- small helpers ------------------------------------------------------

    def _log(self, *event):
        if self.log is not None:
            self.log.append(event)

    @property
    def top(self) -> Card:
        return self.discard[-1]

    def next_seat(self, seat: int) -> int:
        """The next seat in the current direction of play (1)."""
        return (seat + self.direction) % self.n

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat]

    def hand_points(self, seat: int) -> int:
        return sum(self.rules["points"][c.rank] for c in self.hands[seat])

    def check_invariants(self):
        """Every card of the deck is in exactly one place (hands, draw pile, discard pile)."""
        everything = Counter(self.draw_pile) + Counter(self.discard)
        for h in self.hands:
            everything += Counter(h)
        total = sum(len(h) for h in self.hands) + len(self.draw_pile) + len(self.discard)
        assert total == len(self.full_deck), (total, len(self.full_deck))
        assert everything == Counter(self.full_deck)
        assert self.discard, "the discard pile always has a top card"
        assert self.colour in COLOURS
        if not self.over:
            assert all(self.hands), "only a finished round has an empty hand"

    # -- strategy `random` (section 10) -------------------------------------

    def choose_colour(self, seat: int) -> str:
        """`random` names a colour uniformly among the four."""
        colour = self.rng.choice(COLOURS)
        self._log("colour", seat, colour)
        return colour

    def choose_opponent(self, seat: int) -> int:
        """`random` swaps with an opponent chosen uniformly."""
        return self.rng.choice(self.opponents(seat))

    def chance(self, p: float) -> bool:
        """True with probability p (draws from the RNG only when 0 < p)."""
        return p > 0.0 and self.rng.random() < p

    # -- drawing (4.2) ------------------------------------------------------

    def _reshuffle(self) -> bool:
        """4.2: keep the top of the discard pile, shuffle the rest into a new draw pile.
        Counted in `reshuffles` only when at least one card moves (6)."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        new_pile = self.discard
        self.rng.shuffle(new_pile)
        self.draw_pile = new_pile
        self.discard = [top]
        self.reshuffles += 1
        self._log("reshuffle", len(new_pile))
        return True

    def draw_one(self, seat: int) -> Card | None:
        """Draw one card; None when there is nothing to draw even after a reshuffle."""
        if not self.draw_pile:
            self._reshuffle()
        if not self.draw_pile:
            return None
        c = self.draw_pile.pop()
        self.hands[seat].append(c)
        self.cards_drawn += 1
        return c

    def draw_cards(self, seat: int, n: int, reason: str) -> int:
        """Draw n cards one at a time (reshuffling as needed); draw what exists."""
        got = 0
        while got < n and self.draw_one(seat) is not None:
            got += 1
        self._log("draw", seat, got, reason)
        return got

    # -- legality (4.1, 4.3, 8.1) -------------------------------------------

    def holds_colour(self, seat: int, colour: str) -> bool:
        return any(c.colour == colour for c in self.hands[seat])

    def matches(self, c: Card) -> bool:
        """4.1: the current colour, the top card's rank/symbol, or any wild-type card; a
        declared card as its `matches` says (rank, colour or anything)."""
        spec = self.rules["cards"].get(c.rank)
        if spec is not None and c.colour is not None:
            if spec["matches"] == "anything" or c.colour == self.colour:
                return True
            return spec["matches"] == "rank" and c.rank == self.top.rank
        return c.colour is None or c.colour == self.colour or c.rank == self.top.rank

    def penalty_of(self, c: Card) -> int:
        """The waiting draw penalty a card adds (4.6, 8.1): 2, 4, a stack card's N, 0."""
        spec = self.rules["cards"].get(c.rank)
        if spec is not None:
            return spec["steps"][0][1] if spec["stack"] else 0
        return {"draw2": 2, "wild4": 4}.get(c.rank, 0)

    def wd4_legal(self, seat: int) -> bool:
        """4.3: `colour`: no card of the current colour; `none`: always; 8.10 `strict`:
        no other card in hand is legal (Wild Draw Fours aside)."""
        mode = self.rules["wd4_restriction"]
        if mode == "colour":
            return not self.holds_colour(seat, self.colour)
        if mode == "strict":
            return not any(self.matches(c) for c in self.hands[seat] if c.rank != "wild4")
        return True

    def may_go_out(self, seat: int, c: Card) -> bool:
        """8.8: with last_card = number, one's last card may be played only if a number."""
        return len(self.hands[seat]) > 1 or self.rules["last_card"] == "any" or c.is_number

    def is_legal(self, seat: int, c: Card) -> bool:
        """May ``seat`` play ``c`` from its hand on a normal turn (4.1, 4.3, 8.8, 8.10)?"""
        if not self.may_go_out(seat, c):
            return False
        if c.rank == "wild4":
            return self.wd4_legal(seat)
        return self.matches(c)

    def is_stackable(self, c: Card) -> bool:
        """8.1: same = +2 on +2, +4 on +4; progressive also +4 on +2, and +2 on +4 when
        the +2 has the colour just named."""
        mode, top = self.rules["stacking"], self.top
        if mode == "none":
            return False
        cards_ = self.rules["cards"]
        if c.rank in cards_ or top.rank in cards_:  # a declared stack card (docs/cards.md)
            if self.penalty_of(c) == 0:
                return False
            return mode == "progressive" or c.rank == top.rank
        if top.rank == "draw2":
            return c.rank == "draw2" or (mode == "progressive" and c.rank == "wild4")
        if top.rank == "wild4":
            return c.rank == "wild4" or (
                mode == "progressive" and c.rank == "draw2" and c.colour == self.colour
            )
        raise AssertionError(f"a penalty is pending but the top card is {top}")

    # -- setup (3) ----------------------------------------------------------

    def setup(self):
        n, hs = self.n, self.rules["hand_size"]
        # 3.1 shuffle the whole deck uniformly and deal hand_size cards to each player
        deck = self.deck_order
        if deck is None:
            deck = list(self.full_deck)
            self.rng.shuffle(deck)
        if n * hs + 1 > len(deck):
            raise ValueError("not enough cards to deal")
        self.draw_pile = list(reversed(deck))  # deck[0] is the top (end of list)
        for _ in range(hs):
            for s in range(n):
                self.hands[s].append(self.draw_pile.pop())
        # 3.2 turn the top card; a Wild Draw Four goes back at a uniformly random position
        while True:
            if all(c.rank == "wild4" for c in self.draw_pile):
                raise ValueError("only Wild Draw Fours left to turn up")
            first = self.draw_pile.pop()
            if first.rank != "wild4":
                break
            self.draw_pile.insert(self.rng.randint(0, len(self.draw_pile)), first)
            self._log("setup_wd4_returned")
        self.discard = [first]
        self._log("turn_up", first)
        self.direction = +1
        starter = 0  # number: seat 0 plays first
        if first.colour is None:
            # wild-type: seat 0 names the colour, no other effect at setup
            self.colour = self.choose_colour(0)
        else:
            self.colour = first.colour
        if first.rank == "skip":
            starter = 1 % n  # seat 0 is skipped
        elif first.rank == "reverse":
            if n == 2:
                starter = 1  # acts as Skip: the dealer (seat 1) plays first
            else:
                self.direction = -1
                starter = n - 1  # counter-clockwise, the dealer plays first
        elif first.rank == "draw2":
            # applied at once: seat 0 draws 2 and is skipped (no stacking, no jump-in)
            self.max_stack = 2
            self.draw_cards(0, 2, "setup draw2")
            starter = 1 % n
        self.current = starter
        self.first_player = starter

    # -- the round loop (4, 4.6) --------------------------------------------

    def begin_turn(self, seat: int) -> bool:
        """6: the max_turns limit is checked before every turn (jump-ins included)."""
        if self.turns >= self.rules["max_turns"]:
            self.truncated = True
            self.over = True
            self._log("truncated", self.turns)
            return False
        if self.turns == 0:
            assert seat == self.first_player
        self.turns += 1
        return True

    def step(self):
        """Resolve what waits for the current seat: a pending effect, a forced special
        turn, or a normal turn (4.6)."""
        p = self.current
        if self.pending_draw > 0:
            self.face_penalty(p)
        elif self.pending_skip:
            self.pending_skip -= 1  # skipped: no turn
            self._log("skipped", p)
            self.current = self.next_seat(p)
        elif self.pending_special == "snorlax":
            if self.begin_turn(p):
                self.snorlax_turn(p)
        elif self.pending_special == "greninja":
            if self.begin_turn(p):
                self.greninja_turn(p)
        elif not self.declared_skip(p) and self.begin_turn(p):
            self.normal_turn(p)

    def declared_skip(self, p: int) -> bool:
        """docs/cards.md: a skip a declared card left for ``p`` takes this turn of p's."""
        if not self.waiting_skips[p]:
            return False
        self.waiting_skips[p] -= 1
        self._log("skipped", p)
        self.current = self.next_seat(p)
        return True

    def play(self) -> dict:
        self.setup()
        if self.checks:
            self.check_invariants()
        while not self.over:
            self.step()
            if self.checks:
                self.check_invariants()
        return self.row()

    # -- facing a Draw Two / Wild Draw Four penalty (4.3, 4.6, 8.1) ---------

    def face_penalty(self, p: int):
        wd4 = self.wd4
        # 4.3 challenge (param `challenge`), decided before any stacking decision
        if wd4 is not None and wd4["challengeable"] and self.chance(self.params[p]["challenge"]):
            self.challenges += 1
            assert self.pending_draw == 4
            self.pending_draw = 0
            self.wd4 = None
            if wd4["illegal"]:
                # caught bluff: the player who played it draws 4, challenger plays on normally
                self._log("challenge", p, "won")
                self.draw_cards(wd4["player"], 4, "caught bluff")
                if not self.declared_skip(p) and self.begin_turn(p):
                    self.normal_turn(p)
            else:
                # legal play: challenger draws 4 + challenge_penalty and loses the turn
                self._log("challenge", p, "lost")
                self.draw_cards(p, 4 + self.rules["challenge_penalty"], "lost challenge")
                self.current = self.next_seat(p)
            return
        # 8.1 stacking: `random` stacks uniformly among its stackable cards if it has any
        if self.rules["stacking"] != "none":
            options = [
                i
                for i, c in enumerate(self.hands[p])
                if self.is_stackable(c) and self.may_go_out(p, c)
            ]
            if options:
                if self.begin_turn(p):
                    self.play_card(p, self.rng.choice(options), how="stack")
                return
        # draw the whole penalty and lose the turn (not a turn)
        n = self.pending_draw
        self.pending_draw = 0
        self.wd4 = None
        self.draw_cards(p, n, "penalty")
        self.current = self.next_seat(p)

    # -- a normal turn (4.2, section 10 `random`) ---------------------------

    def normal_turn(self, p: int):
        hand = self.hands[p]
        # param `bluff`: a Wild Draw Four illegal only because of its restriction
        if not self.wd4_legal(p):
            wd4s = [i for i, c in enumerate(hand) if c.rank == "wild4"]
            if wd4s and self.chance(self.params[p]["bluff"]):
                self.bluffs += 1
                self.play_card(p, wd4s[0], how="bluff")
                return
        # `random`: one legal card, uniform over the physical cards in hand
        legal = [i for i, c in enumerate(hand) if self.is_legal(p, c)]
        if legal:
            self.play_card(p, self.rng.choice(legal), how="hand")
            return
        # no legal card: draw (4.2); `random` always plays a legal drawn card
        if self.rules["draw_rule"] == "one":
            c = self.draw_one(p)
            self._log("draw", p, 0 if c is None else 1, "turn")
            # 8.9: with after_draw = pass the drawn card is kept, legal or not
            if c is not None and self.is_legal(p, c) and self.rules["after_draw"] == "play":
                self.play_card(p, len(hand) - 1, how="drawn")
                return
        else:  # until_playable (8.4): keep drawing until a legal card, which must be played
            while True:
                c = self.draw_one(p)
                self._log("draw", p, 0 if c is None else 1, "turn")
                if c is None:
                    break  # nothing left to draw: the turn ends
                if self.is_legal(p, c):
                    self.play_card(p, len(hand) - 1, how="drawn")
                    return
        self.current = self.next_seat(p)

    # -- playing a card: end of round, UNO, effects, jump-in ----------------

    def play_card(self, p: int, idx: int, how: str):
        """Move hand[idx] of seat p to the discard pile and apply it.

        how: 'hand' (chosen from the hand), 'drawn' (the card just drawn), 'bluff'
        (an illegal Wild Draw Four, param `bluff`), 'stack' (8.1), 'jump_in' (8.3).
        """
        hand = self.hands[p]
        c = hand[idx]
        # checking hook: only legal plays are made (the bluff is the one exception)
        if how in ("hand", "drawn"):
            assert self.pending_draw == 0 and self.is_legal(p, c), (
                how,
                c,
                self.top,
                self.colour,
            )
        elif how == "bluff":
            assert c.rank == "wild4" and not self.is_legal(p, c) and self.pending_draw == 0
        elif how == "stack":
            assert self.pending_draw > 0 and self.is_stackable(c) and self.may_go_out(p, c)
        elif how == "jump_in":
            assert c.colour is not None and c == self.top and self.rules["jump_in"]
            assert self.may_go_out(p, c)
        else:
            raise AssertionError(how)

        del hand[idx]
        self.discard.append(c)
        self.cards_played += 1
        self._log("play", p, c, how)
        # the new card replaces whatever the previous one left pending, except a draw
        # penalty, which it can only grow (stack or jump-in)
        self.pending_skip = 0
        self.wd4 = None

        # 5: the round ends the moment a player has no cards; only a pending draw
        # penalty (Draw Two / Wild Draw Four / stack) is still drawn by the next player
        if not hand:
            if self.penalty_of(c) > 0:
                self.pending_draw += self.penalty_of(c)
                self.max_stack = max(self.max_stack, self.pending_draw)
                self.draw_cards(self.next_seat(p), self.pending_draw, "last-card penalty")
            assert self.pending_draw == 0 or self.penalty_of(c) > 0
            self.pending_draw = 0
            self.winner = p
            self.over = True
            self._log("win", p)
            return

        # 4.4: UNO call, checked as soon as the card leaves the hand, before its effect
        if len(hand) == 1:
            self.uno_check(p)

        if c.rank in self.rules["cards"]:
            self.declared_effect(p, c)
            self.current = self.next_seat(p)
            return  # no jump-in on a declared card
        self.apply_effect(p, c, how)
        self.current = self.next_seat(p)

        # 8.3 jump-in after any coloured card, once its own effect is applied
        if self.rules["jump_in"] and c.colour is not None:
            self.try_jump_in(p, c)

    def uno_check(self, p: int):
        """4.4 / param `forget_uno`: a forgotten call is caught with probability catch_uno."""
        if self.chance(self.params[p]["forget_uno"]) and self.chance(self.rules["catch_uno"]):
            self.uno_penalties += 1
            self.draw_cards(p, self.rules["uno_penalty"], "uno penalty")

    def add_penalty(self, n: int):
        """4.6 / 8.1: a Draw Two / Wild Draw Four penalty waits for the next player."""
        self.pending_draw += n
        self.max_stack = max(self.max_stack, self.pending_draw)

    def apply_effect(self, p: int, c: Card, how: str):
        """Effects of a card that did not end the round (2, 4.6, 8.2)."""
        r = self.rules
        if c.colour is not None:
            self.colour = c.colour
            if c.rank == "skip":
                self.pending_skip = 1
            elif c.rank == "reverse":
                self.direction = -self.direction  # flips at once (4.6)
                if self.n == 2:
                    self.pending_skip = 1  # 4.5: acts as Skip
            elif c.rank == "draw2":
                self.add_penalty(2)
            elif c.rank == "7" and r["seven_zero"]:
                self.swap_hands(p, self.choose_opponent(p))  # 8.2
            elif c.rank == "0" and r["seven_zero"]:
                self.rotate_hands()  # 8.2
            return

        # wild-type: the player names the colour (may name the current one), then the effect
        self.colour = self.choose_colour(p)
        if c.rank == "wild4":
            self.add_penalty(4)
            # 4.3 / 8.1: a Wild Draw Four played as a stack cannot be challenged
            self.wd4 = {
                "player": p,
                "illegal": how == "bluff",
                "challengeable": bool(r["challenge"]) and how != "stack",
            }
        elif c.rank == "shuffle_hands":
            self.shuffle_all_hands(p)
        elif c.rank == "customizable":
            if r["blank_card"] == "swap_hands":
                self.swap_hands(p, self.choose_opponent(p))
        elif c.rank == "snorlax":
            self.pending_special = "snorlax"
        elif c.rank == "greninja":
            self.pending_special = "greninja"
            self.greninja_player = p
        elif c.rank == "grayskull":
            # every other player draws 3 (in the direction of play, from the next player)
            s = self.next_seat(p)
            while s != p:
                self.draw_cards(s, 3, "grayskull")
                s = self.next_seat(s)
        else:
            assert c.rank == "wild"

    def declared_effect(self, p: int, c: Card):
        """A declared card (docs/cards.md): its colour (named if it names one), then its
        steps in order; a step that ends the round ends it."""
        spec = self.rules["cards"][c.rank]
        self.colour = c.colour
        if spec["names"]:
            self.colour = self.choose_colour(p)
        for step in spec["steps"]:
            if self.over:
                return
            word, nxt = step[0], self.next_seat(p)
            if word == "draw":
                _, count, target = step
                if target == "next" and spec["stack"]:
                    self.add_penalty(count)
                elif target == "next":
                    self.draw_cards(nxt, count, c.rank)
                elif target == "chosen":
                    self.draw_cards(self.choose_opponent(p), count, c.rank)
                else:  # others, from the next player on
                    s = nxt
                    while s != p:
                        self.draw_cards(s, count, c.rank)
                        s = self.next_seat(s)
            elif step == ["skip", "next"]:  # for this step's next player
                self.waiting_skips[nxt] += 1
            elif step in (["skip", "everyone"], ["again"]):  # one for each other player
                for s in self.opponents(p):
                    self.waiting_skips[s] += 1
            elif word == "reverse":
                if self.n == 2:
                    self.waiting_skips[nxt] += 1
                else:
                    self.direction = -self.direction
            elif word == "discard_colour":
                self.throw_colour(p if step[1] == "own" else nxt)
            elif word == "swap":
                self.swap_hands(p, self.choose_opponent(p))
            elif word == "pass_hands":
                self.rotate_hands()
            elif word == "deal_hands":
                self.shuffle_all_hands(p)
            elif word == "name_colour":
                self.colour = self.choose_colour(p)
            elif step == ["spend_turn", "next"]:  # a turn of the next player, then missed
                if self.begin_turn(nxt):
                    self.waiting_skips[nxt] += 1
            elif step == ["draw_until_colour", "next"]:
                self._log("draw", nxt, self.draw_until(nxt, self.colour), c.rank)
            else:
                raise AssertionError(step)

    def throw_colour(self, v: int):
        """Seat v throws away every card of the current colour, as a Snorlax victim does."""
        gone = [c for c in self.hands[v] if c.colour == self.colour]
        if not gone:
            return
        self.hands[v] = [c for c in self.hands[v] if c.colour != self.colour]
        self.rng.shuffle(gone)
        self.discard.extend(gone)
        self.cards_played += len(gone)
        self._log("discard_colour", v, list(gone))
        if not self.hands[v]:
            self.winner = v
            self.over = True
            self._log("win", v)
        elif len(self.hands[v]) == 1:
            self.uno_check(v)

    def swap_hands(self, a: int, b: int):
        self._log("swap", a, b)
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]

    def rotate_hands(self):
        """8.2: every player passes their hand to the next player in the direction of play."""
        new = [None] * self.n
        for s in range(self.n):
            new[self.next_seat(s)] = self.hands[s]
        self.hands = new
        self._log("rotate", self.direction)

    def shuffle_all_hands(self, p: int):
        """2, Wild Shuffle Hands: collect all hands, shuffle, deal one at a time from the
        next player in the direction of play until none are left."""
        pool = [c for h in self.hands for c in h]
        self.rng.shuffle(pool)
        self.hands = [[] for _ in range(self.n)]
        s = self.next_seat(p)
        for c in pool:
            self.hands[s].append(c)
            s = self.next_seat(s)
        self._log("shuffle_hands", [len(h) for h in self.hands])

    def try_jump_in(self, p: int, c: Card):
        """8.3: the first other player after p (current direction) holding an identical card
        plays it at once; `random` always jumps in. The jumper's play can itself be jumped."""
        s = self.next_seat(p)
        while s != p:
            if c in self.hands[s] and self.may_go_out(s, c):  # 8.8
                if self.begin_turn(s):
                    self.play_card(s, self.hands[s].index(c), how="jump_in")
                return
            s = self.next_seat(s)

    # -- turns forced by Snorlax and Greninja (2) ---------------------------

    def snorlax_turn(self, v: int):
        """Victim draws 3, discards every card of the named colour (no effects, random
        order, the last one is the top card, the colour stays), and the turn ends."""
        self.pending_special = None
        self.draw_cards(v, 3, "snorlax")
        named = self.colour
        gone = [c for c in self.hands[v] if c.colour == named]
        self.hands[v] = [c for c in self.hands[v] if c.colour != named]
        self.rng.shuffle(gone)
        self.discard.extend(gone)
        self.cards_played += len(gone)
        self._log("snorlax_discard", v, list(gone))
        if not self.hands[v]:
            self.winner = v  # a victim who discards their last card wins
            self.over = True
            self._log("win", v)
            return
        if gone and len(self.hands[v]) == 1:
            self.uno_check(v)
        self.current = self.next_seat(v)

    def draw_until(self, v: int, colour: int) -> int:
        """``v`` draws one card at a time until one of ``colour`` (a wild-type card has
        none) or until nothing is left to draw; returns how many were drawn."""
        got = 0
        while True:
            c = self.draw_one(v)
            if c is None:
                return got
            got += 1
            if c.colour == colour:
                return got

    def greninja_turn(self, v: int):
        """Victim draws until a card of the named colour (or nothing is left), cannot
        play; then the Greninja player names the colour again."""
        self.pending_special = None
        self._log("draw", v, self.draw_until(v, self.colour), "greninja")
        self.colour = self.choose_colour(self.greninja_player)
        self.current = self.next_seat(v)

    # -- the row (6) --------------------------------------------------------

    def row(self) -> dict:
        row = {
            "winner": -1 if self.truncated else self.winner,
            "first_player": self.first_player,
            "turns": self.turns,
            "cards_played": self.cards_played,
            "cards_drawn": self.cards_drawn,
            "reshuffles": self.reshuffles,
            "points": 0,
        }
        if not self.truncated:
            row["points"] = sum(self.hand_points(s) for s in range(self.n) if s != self.winner)
        for s in range(self.n):
            row[f"hand_points_{s}"] = self.hand_points(s)
        for s in range(self.n):
            row[f"hand_size_{s}"] = len(self.hands[s])
        row.update(
            max_stack=self.max_stack,
            challenges=self.challenges,
            bluffs=self.bluffs,
            uno_penalties=self.uno_penalties,
            truncated=self.truncated,
        )
        return row


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


def play_round(
    rules: dict | str,
    n_players: int,
    rng: random.Random,
    params: list[dict] | None = None,
    *,
    deck: list[Card] | None = None,
    checks: bool = False,
    log: list | None = None,
) -> dict:
    """Play one round (dealer = seat n_players-1, every seat `random`) and return its
    section-6 row. ``deck``: a full deck order (``deck[0]`` dealt first, see module doc);
    ``checks``: assert card conservation after every step; ``log``: list receiving events."""
    return Round(rules, n_players, rng, params, deck=deck, checks=checks, log=log).play()


def game_rng(seed: int, index: int) -> random.Random:
    """The random stream of game `index` of a run with root `seed` (string-seeded, so
    adjacent seeds or indices do not give related streams)."""
    return random.Random(f"unosim-reference:{seed}:{index}")


def simulate(
    rules: dict | str,
    n_players: int,
    n_games: int,
    seed: int,
    params=None,
    start: int = 0,
) -> list[dict]:
    """Play games start..start+n_games-1, game i with ``game_rng(seed, i)``."""
    return [
        play_round(rules, n_players, game_rng(seed, i), params)
        for i in range(start, start + n_games)
    ]


def summarise(rows: list[dict]) -> dict:
    """Means of the main columns, seat win rates (wins / all rounds), truncation count."""
    n = len(rows)
    if n == 0:
        return {"rounds": 0}
    seats = sum(1 for k in rows[0] if k.startswith("hand_size_"))

    def mean(key):
        return sum(r[key] for r in rows) / n

    turns_mean = mean("turns")
    turns_sd = math.sqrt(sum((r["turns"] - turns_mean) ** 2 for r in rows) / max(n - 1, 1))
    out = {
        "rounds": n,
        "mean_turns": turns_mean,
        "se_turns": turns_sd / math.sqrt(n),
        "mean_cards_played": mean("cards_played"),
        "mean_cards_drawn": mean("cards_drawn"),
        "mean_reshuffles": mean("reshuffles"),
        "mean_points": mean("points"),
        "mean_max_stack": mean("max_stack"),
        "mean_challenges": mean("challenges"),
        "mean_bluffs": mean("bluffs"),
        "mean_uno_penalties": mean("uno_penalties"),
        "win_rate": [sum(1 for r in rows if r["winner"] == s) / n for s in range(seats)],
        "truncated": sum(1 for r in rows if r["truncated"]),
    }
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description="UNO reference engine: summary of random play")
    ap.add_argument("--preset", default="official", choices=sorted(PRESETS))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    t0 = time.time()
    s = summarise(simulate(a.preset, a.players, a.games, a.seed))
    s["seconds"] = round(time.time() - t0, 2)
    for k, v in s.items():
        print(f"{k:20s} {v}")


if __name__ == "__main__":
    main()
