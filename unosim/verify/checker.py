"""An independent move checker: reads a round's trace and judges every step by RULES.md.

Written apart from the kernel: it imports only the trace layout constants and the card
tables, and keeps the whole game state itself (hands, draw pile and discard pile card by
card, top card, colour, direction, pending penalty / skips / special card, turns, every
counter of RULES.md section 6). From the ``E_DEAL`` row on, each row is

1. judged: is this event allowed now (the right player, a legal card, stacking only when
   allowed, a penalty drawn in full by the right player, skips on the right player,
   special cards, Seven-Zero, Jump-In, multi-card plays, reshuffles only when drawing from
   an empty pile, UNO penalties, challenges with the right outcome, max_turns)?
2. applied to the checker's own state;
3. compared: the state and every hand the row records must equal the checker's.

At the end the winner must hold no cards and, when the round's row is given, every
section 6 column must match (points = the other hands by the points table, turns, ...).

Random choices are read from the trace, not judged: which card is played (it must be
legal), which colour is named, whom a 7 swaps with, which card a draw gives (it must be in
the draw pile), how Shuffle Hands deals (the cards and hand sizes must be right), which
discarded card ends on top, whom a ``chosen`` step picks. A strategy's choices (draw or
play, stack, jump in, challenge, forget UNO) are judged only for seats marked ``strict``:
those follow the ``random`` strategy of RULES.md section 10 to the letter (never draws,
challenges, bluffs or forgets UNO; always stacks, jumps in and plays a legal drawn card;
one card a turn).

Conventions of the trace format that RULES.md does not fix (the checker follows them):
the Snorlax/Greninja kind stays pending on the rows of the victim's turn and is cleared
when it ends; extra cards of a multi-card play are identical copies of the first card,
then a same-colour run of numbers in one direction, only after a coloured card played
from the hand (not a drawn or a stacked one); a multi-card play applies the effect of
each card in order; Powers of Grayskull's draws go round from the next player.
Declared cards (docs/cards.md): judged by this module's own reading of the primitives
(a skip waits for the seat its step names).

Usage::

    violations = check_trace(trace, rules, n_players, row=row, strict=True)
    assert not violations, "\\n".join(map(str, violations))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from ..game.cards import (
    COLOUR,
    COLOURS,
    CUSTOMIZABLE,
    DRAW_TWO,
    GRAYSKULL,
    GRENINJA,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_COLOURS,
    N_KINDS,
    RANK,
    REVERSE,
    SHUFFLE_HANDS,
    SKIP,
    SNORLAX,
    WILD_DRAW_FOUR,
    declared_slot,
    kind_name,
)
from ..kernel.core import layout as L  # constants only: the trace's columns and event codes

if TYPE_CHECKING:
    from ..game.rules import RuleSet

_COL = [int(c) for c in COLOUR]
_RANK = [int(r) for r in RANK]
_NAMES = L.EVENT_NAMES
# trace columns EV_TOP .. EV_DISC, in order: the scalar state a row records
_STATE_FIELDS = (
    "top",
    "colour",
    "direction",
    "pending draw",
    "pending skips",
    "pending special",
    "turns",
    "draw pile",
    "discard pile",
)
assert L.EV_DISC - L.EV_TOP + 1 == len(_STATE_FIELDS)

# events by the player whose turn it is
_ACTOR_EVENTS = frozenset(
    (
        L.E_PLAY,
        L.E_DRAW,
        L.E_STACK,
        L.E_PENALTY,
        L.E_CHALLENGE,
        L.E_SKIPPED,
        L.E_SNORLAX,
        L.E_GRENINJA,
    )
)


@dataclass(frozen=True)
class Violation:
    """One thing the trace does that RULES.md (or the trace format) does not allow."""

    row: int  # trace row index (-1: the round's record, not a row)
    message: str

    def __str__(self) -> str:
        return f"row {self.row}: {self.message}" if self.row >= 0 else self.message


class _Stop(Exception):
    """The trace cannot be followed further (a missing, extra or misplaced event)."""


def _is_number(k: int) -> bool:
    return 0 <= k < N_COLOURED and _RANK[k] <= 9


def _trace_hands(trace: np.ndarray, n: int) -> np.ndarray:
    """Every row's hands, ``int64[rows, n, N_KINDS]``: the built-in kinds' columns from
    ``EV_HANDS``, the declared kinds' from ``EV_DECL`` in a wide trace."""
    m = len(trace)
    out = np.zeros((m, n, N_KINDS), dtype=np.int64)
    nb, nd = N_BUILTIN_KINDS, N_KINDS - N_BUILTIN_KINDS
    out[:, :, :nb] = trace[:, L.EV_HANDS : L.EV_HANDS + n * nb].reshape(m, n, nb)
    if trace.shape[1] == L.EV_W_DECL:
        out[:, :, nb:] = trace[:, L.EV_DECL : L.EV_DECL + n * nd].reshape(m, n, nd)
    return out


def _beyond(trace: np.ndarray, n: int) -> np.ndarray:
    """Rows that record cards for seats past the ``n`` players."""
    bad = (trace[:, L.EV_HANDS + n * N_BUILTIN_KINDS : L.EV_W] != 0).any(axis=1)
    if trace.shape[1] == L.EV_W_DECL:
        nd = N_KINDS - N_BUILTIN_KINDS
        bad |= (trace[:, L.EV_DECL + n * nd :] != 0).any(axis=1)
    return bad


def _colour(c: int) -> str:
    return COLOURS[c] if 0 <= c < N_COLOURS else f"<colour {c}>"


def check_trace(
    trace: np.ndarray,
    rules: RuleSet,
    n_players: int | None = None,
    row: Any = None,
    strict: bool | Iterable[bool] | Iterable[int] = False,
) -> list[Violation]:
    """Judge a round's trace against RULES.md.

    Parameters
    ----------
    trace : int32[events, layout.EV_W] (``EV_W_DECL`` with declared cards), as
        ``kernel.drivers.batch.run_one`` returns it.
    rules : the :class:`unosim.game.rules.RuleSet` the round was played under.
    n_players : players in the round (default: the seats dealt cards in the first row).
    row : the round's record (``int32[N_COLS]`` from the kernel, or a mapping / pandas
        row with the section 6 column names); when given, every column is checked.
    strict : seats that follow the ``random`` strategy exactly (their choices are judged
        too): ``True`` for all, a bool per seat, or an iterable of seat numbers.

    Returns
    -------
    The violations, by row; an empty list means the round follows the rules.
    """
    trace = np.asarray(trace)
    width = L.EV_W_DECL if rules.cards else L.EV_W
    if trace.ndim != 2 or trace.shape[1] != width:
        raise ValueError(f"trace must have shape (events, {width}), got {trace.shape}")
    if n_players is None:
        if len(trace) == 0:
            raise ValueError("an empty trace needs n_players")
        dealt = _trace_hands(trace[:1], L.MAX_PLAYERS)[0].sum(axis=1)
        n_players = int(np.flatnonzero(dealt).max()) + 1 if dealt.any() else 2
    return _Checker(trace, rules, int(n_players), row, strict).run()


def strict_seats(labels: Iterable[str]) -> list[bool]:
    """Seats whose canonical strategy label is plain ``random`` (RULES.md section 10)."""
    return [lab == "random" for lab in labels]


class _Checker:
    def __init__(
        self,
        trace: np.ndarray,
        rules: RuleSet,
        n: int,
        row: Any,
        strict: bool | Iterable[bool] | Iterable[int],
    ) -> None:
        self.t = trace
        self.T = len(trace)
        self.ev = trace[:, : L.EV_TOP].tolist()  # type, seat, kind, flags, aux
        self.n = n
        self.row = row
        if strict is True or strict is False:
            self.strict = [bool(strict)] * n
        else:
            items = list(strict)
            if all(isinstance(x, (bool, np.bool_)) for x in items):
                self.strict = [bool(x) for x in items] + [False] * (n - len(items))
            else:
                self.strict = [s in set(int(x) for x in items) for s in range(n)]
        # the rules, as plain Python values
        self.hand_size = rules.hand_size
        self.deck = [int(x) for x in rules.deck_counts()]
        self.points = [int(x) for x in rules.points_table()]
        self.blank_swap = rules.blank_card == "swap_hands"
        self.voluntary = rules.voluntary_draw
        self.until = rules.draw_rule == "until_playable"
        self.wd4_rule = rules.wd4_restriction
        self.last_number = rules.last_card == "number"
        self.after_pass = rules.after_draw == "pass"
        self.challenge_on = rules.challenge
        self.challenge_penalty = rules.challenge_penalty
        self.catch_uno = rules.catch_uno
        self.uno_penalty = rules.uno_penalty
        self.max_turns = rules.max_turns
        self.stacking = rules.stacking
        self.seven_zero = rules.seven_zero
        self.jump_in = rules.jump_in
        self.multi = rules.multi_play
        self.specs = rules.cards  # the declared cards, declared card d = specs[d]
        self.card_names = rules.card_names
        self.rec_h = _trace_hands(trace, n)  # every row's hands as recorded
        # the state
        self.H = np.zeros((n, N_KINDS), dtype=np.int16)  # hands, mirrored for snapshots
        self.Hflat = self.H.reshape(-1)
        self.hl = [[0] * N_KINDS for _ in range(n)]  # hands, for the rules' arithmetic
        self.tot = [0] * n
        self.cc = [[0] * N_COLOURS for _ in range(n)]  # cards of each colour held
        self.pile = list(self.deck)
        self.pile_n = sum(self.deck)
        self.disc = [0] * N_KINDS
        self.disc_n = 0
        self.top = 0
        self.colour = 0
        self.dir = 1
        self.pend = 0
        self.skip = 0  # a built-in card's skips: the next that many players to act
        self.skips = [0] * n  # a declared card's skips, waiting each for its seat
        self.special = -1
        self.pend_by = -1
        self.challengeable = False
        self.pend_bluff = False
        self.turns = 0
        self.over = False
        self.truncated = False
        self.winner = -1
        self.first = -1
        self.counts = dict(
            cards_played=0,
            cards_drawn=0,
            reshuffles=0,
            max_stack=0,
            challenges=0,
            bluffs=0,
            uno_penalties=0,
        )
        # the checking
        self.viol: list[Violation] = []
        self.i = 0  # next row to read
        self.cur = -1  # row being judged
        self.exp_s: list[tuple] = []  # expected scalar state of each row read
        self.exp_h = np.zeros((self.T, n * N_KINDS), dtype=np.int16)
        self.first_row = self.T  # rows before it have no top card / colour yet

    # -- reading rows ------------------------------------------------------------------
    def _card(self, k: int) -> str:
        """A kind's name, declared cards by their names."""
        return kind_name(k, self.card_names) if 0 <= k < N_KINDS else f"<kind {k}>"

    def _cards(self, counts: Iterable[tuple[int, int]]) -> str:
        return " ".join(self._card(k) for k, c in counts for _ in range(c)) or "nothing"

    def where(self, i: int) -> str:
        if not 0 <= i < self.T:
            return ""
        typ, p = self.ev[i][0], self.ev[i][1]
        who = f", seat {p}" if p >= 0 else ""
        return f"({_NAMES.get(typ, f'event {typ}')}{who}) "

    def bad(self, msg: str, i: int | None = None) -> None:
        i = self.cur if i is None else i
        self.viol.append(Violation(i, self.where(i) + msg))

    def stop(self, msg: str, i: int | None = None) -> NoReturn:
        i = self.i if i is None else i
        if i >= self.T:
            self.viol.append(Violation(self.T - 1, f"the trace ends early: {msg}"))
        else:
            self.viol.append(Violation(i, self.where(i) + msg))
        raise _Stop

    def peek(self) -> int | None:
        return self.ev[self.i][0] if self.i < self.T else None

    def peek_seat(self) -> int:
        return self.ev[self.i][1] if self.i < self.T else -2

    def found(self) -> str:
        """The next row's event and seat, for a message ("nothing" past the end)."""
        if self.i >= self.T:
            return "nothing"
        e = self.ev[self.i]
        return f"{_NAMES.get(e[0], e[0])} by seat {e[1]}"

    def take(self) -> list:
        self.cur = self.i
        self.i += 1
        return self.ev[self.cur]

    def expect(
        self,
        typ: int,
        seat: int,
        kind: int | None = None,
        aux: int | None = None,
        flags: int | None = 0,
        what: str = "",
    ) -> list[int]:
        """Read the next row, which must be event ``typ`` by ``seat``."""
        if self.i >= self.T:
            self.stop(f"{_NAMES[typ]} by seat {seat} was due{what}")
        e = self.ev[self.i]
        if e[0] != typ:
            found = f"{_NAMES.get(e[0], e[0])}" + (f" by seat {e[1]}" if e[1] >= 0 else "")
            self.stop(
                f"expected {_NAMES[typ]}"
                + (f" by seat {seat}" if seat >= 0 else "")
                + f"{what}, found {found}"
            )
        if e[1] != seat:
            self.stop(f"wrong player: seat {e[1]} acts, seat {seat} was to {_NAMES[typ]}{what}")
        self.take()
        if kind is not None and e[2] != kind:
            self.bad(f"records card/colour {e[2]}, expected {kind}")
        if aux is not None and e[4] != aux:
            self.bad(f"records {e[4]} (aux), expected {aux}")
        if flags is not None and e[3] != flags:
            self.bad(f"records flags {e[3]}, expected {flags}")
        return e

    def snap(self) -> None:
        """The state after row ``cur``: what the row must record."""
        if len(self.exp_s) != self.cur:  # a bug of the checker, not of the trace
            raise AssertionError(f"checker out of step at row {self.cur}")
        self.exp_s.append(
            (
                self.top,
                self.colour,
                self.dir,
                self.pend,
                self.skip + sum(self.skips),
                self.special,
                self.turns,
                self.pile_n,
                self.disc_n,
            )
        )
        self.exp_h[self.cur] = self.Hflat

    # -- cards ---------------------------------------------------------------------------
    def add(self, p: int, k: int) -> None:
        self.hl[p][k] += 1
        self.H[p, k] += 1
        self.tot[p] += 1
        c = _COL[k]
        if c >= 0:
            self.cc[p][c] += 1

    def remove(self, p: int, k: int) -> None:
        self.hl[p][k] -= 1
        self.H[p, k] -= 1
        self.tot[p] -= 1
        c = _COL[k]
        if c >= 0:
            self.cc[p][c] -= 1

    def set_hand(self, p: int, counts: list[int]) -> None:
        self.hl[p] = list(counts)
        self.H[p] = counts
        self.tot[p] = sum(counts)
        cc = [0] * N_COLOURS
        for k, cnt in enumerate(counts):
            if _COL[k] >= 0:
                cc[_COL[k]] += cnt
        self.cc[p] = cc

    def discard(self, k: int) -> None:
        self.disc[k] += 1
        self.disc_n += 1
        self.top = k

    def seat(self, p: int, off: int) -> int:
        return (p + off) % self.n

    def nxt(self, p: int) -> int:
        return (p + self.dir) % self.n

    def add_penalty(self, amount: int) -> None:
        self.pend += amount
        if self.pend > self.counts["max_stack"]:
            self.counts["max_stack"] = self.pend

    def take_turn(self) -> None:
        if self.turns >= self.max_turns:
            self.bad(f"a turn after max_turns ({self.max_turns}) turns")
        self.turns += 1

    # -- legality (RULES.md 4.1, 4.3, 8.1, 8.8, 8.10) ---------------------------------
    def spec(self, k: int) -> Any:
        """The declaration of a declared kind ``k``, or None for a built-in card."""
        d = declared_slot(k)
        return self.specs[d] if 0 <= d < len(self.specs) else None

    def matches(self, k: int) -> bool:
        """4.1 alone: the current colour, the top card's rank/symbol, or wild-type; a
        coloured declared card as its ``matches`` says."""
        c = _COL[k]
        spec = self.spec(k)
        if spec is not None and c >= 0:
            if spec.matches == "anything" or c == self.colour:
                return True
            return spec.matches == "rank" and _RANK[k] == _RANK[self.top]
        return c < 0 or c == self.colour or _RANK[k] == _RANK[self.top]  # wild top: -1

    def penalty_of(self, k: int) -> int:
        """The waiting penalty ``k`` adds: 2 (Draw Two), 4, a ``stack`` card's N, else 0."""
        spec = self.spec(k)
        if spec is not None:
            draws = [int(x.split()[1]) for x in spec.effect if x.startswith("draw ")]
            return draws[0] if spec.stack else 0
        if k == WILD_DRAW_FOUR:
            return 4
        return 2 if k < N_COLOURED and _RANK[k] == DRAW_TWO else 0

    def wd4_ok(self, p: int) -> bool:
        """4.3, 8.10: may ``p`` play a Wild Draw Four from the hand?"""
        if self.wd4_rule == "none":
            return True
        if self.wd4_rule == "colour":
            return self.cc[p][self.colour] == 0
        h = self.hl[p]  # strict: no other card of the hand is legal by 4.1
        return not any(h[k] > 0 and self.matches(k) for k in range(N_KINDS) if k != WILD_DRAW_FOUR)

    def goes_out_ok(self, cards: list[int]) -> bool:
        """8.8: may a play of ``cards`` empty the hand?"""
        return not self.last_number or all(_is_number(k) for k in cards)

    def legal(self, p: int, k: int) -> bool:
        """May ``p``, holding ``k``, play it alone now (not facing a penalty)?"""
        if self.tot[p] == 1 and not self.goes_out_ok([k]):
            return False
        if k == WILD_DRAW_FOUR:
            return self.wd4_ok(p)
        return self.matches(k)

    def legal_held(self, p: int) -> list[int]:
        h = self.hl[p]
        return [k for k in range(N_KINDS) if h[k] > 0 and self.legal(p, k)]

    def has_legal(self, p: int) -> bool:
        return bool(self.legal_held(p))

    def stackable(self, k: int) -> bool:
        if self.stacking == "none" or not 0 <= k < N_KINDS:
            return False
        if self.spec(k) is not None or self.spec(self.top) is not None:
            if self.penalty_of(k) == 0:
                return False
            return self.stacking == "progressive" or (
                self.spec(k) is not None and declared_slot(k) == declared_slot(self.top)
            )
        top_d2 = self.top < N_COLOURED and _RANK[self.top] == DRAW_TWO
        k_d2 = k < N_COLOURED and _RANK[k] == DRAW_TWO
        if self.top == WILD_DRAW_FOUR:
            return k == WILD_DRAW_FOUR or (
                self.stacking == "progressive" and k_d2 and _COL[k] == self.colour
            )
        if top_d2:
            return k_d2 or (self.stacking == "progressive" and k == WILD_DRAW_FOUR)
        return False

    def stackable_held(self, p: int) -> list[int]:
        return [
            k
            for k in range(N_KINDS)
            if self.hl[p][k] > 0
            and self.stackable(k)
            and (self.tot[p] > 1 or self.goes_out_ok([k]))
        ]

    # -- the round -----------------------------------------------------------------------
    def run(self) -> list[Violation]:
        try:
            p = self.setup()
            self.loop(p)
            self.finish()
        except _Stop:
            pass
        self.compare()
        self.viol.sort(key=lambda v: v.row)
        return self.viol

    def setup(self) -> int:
        """RULES.md 3: the deal, Wild Draw Fours put back, the first card and its effect."""
        n = self.n
        if self.T == 0:
            self.stop("no deal", 0)
        e = self.take()
        if e[0] != L.E_DEAL:
            self.stop("the trace must start with the deal", 0)
        dealt = self.rec_h[0]
        for q in range(n):
            if int(dealt[q].sum()) != self.hand_size or dealt[q].min() < 0:
                self.bad(
                    f"seat {q} is dealt {int(dealt[q].sum())} cards, hand_size is {self.hand_size}"
                )
        total = dealt.sum(axis=0)
        for k in range(N_KINDS):
            if total[k] > self.deck[k]:
                self.stop(f"{int(total[k])} {self._card(k)} dealt, the deck has {self.deck[k]}", 0)
        for q in range(n):
            self.set_hand(q, [int(x) for x in dealt[q]])
            for k in range(N_KINDS):
                self.pile[k] -= self.hl[q][k]
        self.pile_n = sum(self.pile)
        self.snap()
        while self.peek() == L.E_RETURN:
            e = self.take()
            if e[1] != -1 or e[2] != WILD_DRAW_FOUR:
                self.bad("only a Wild Draw Four turned at setup goes back into the pile")
            elif self.pile[WILD_DRAW_FOUR] == 0:
                self.bad("a Wild Draw Four goes back, but none was in the draw pile")
            self.snap()
        # the card turned is the top card of the next row
        if self.i >= self.T:
            self.stop("no first card")
        k = int(self.t[self.i, L.EV_TOP])
        if not 0 <= k < N_KINDS or self.pile[k] == 0:
            self.stop(f"the first card {self._card(k)} is not in the draw pile")
        if k == WILD_DRAW_FOUR:
            self.bad("a Wild Draw Four starts the discard pile (it must go back)", self.i)
        self.pile[k] -= 1
        self.pile_n -= 1
        self.discard(k)
        self.first_row = self.i
        if _COL[k] < 0:  # seat 0 names the colour; no other effect
            e = self.expect(L.E_COLOUR, 0, aux=0, what=" (the first card is wild-type)")
            self.name_colour(e[2])
            self.snap()
            first = 0
        else:
            self.colour = _COL[k]
            r = _RANK[k]
            first = 0
            if r == SKIP:
                first = 1
            elif r == REVERSE:
                if n == 2:
                    first = 1  # acts as Skip: the dealer plays first
                else:
                    self.dir = -1
                    first = n - 1
            elif r == DRAW_TWO:  # seat 0 draws 2 and is skipped, at once
                self.counts["max_stack"] = 2
                self.draws(0, 2, " (the first card is a Draw Two)")
                first = 1
        self.expect(L.E_START, first, kind=k, aux=0, what=f" (first card {self._card(k)})")
        self.snap()
        self.first = first
        return first

    def name_colour(self, c: int) -> None:
        if not 0 <= c < N_COLOURS:
            self.bad(f"names colour {c}, not one of the four")
            return
        self.colour = c

    def loop(self, p: int) -> None:
        while True:
            if self.over:
                self.expect(L.E_WIN, self.winner, kind=-1)
                self.snap()
                return
            typ = self.peek()
            if typ is None:
                self.stop("the round has neither a winner nor a truncation")
            if typ == L.E_TRUNCATED:
                e = self.take()
                if self.turns < self.max_turns:
                    self.bad(f"truncated after {self.turns} turns; max_turns is {self.max_turns}")
                if e[1] != p:
                    self.bad(f"records seat {e[1]}, seat {p} was to act")
                self.truncated = True
                self.snap()
                return
            if typ in _ACTOR_EVENTS and self.peek_seat() != p:
                due = (
                    f" and faces a draw penalty of {self.pend}"
                    if self.pend
                    else " and is to be skipped"
                    if self.skip or (self.special < 0 and self.skips[p])
                    else f" under {self._card(self.special)}"
                    if self.special >= 0
                    else ""
                )
                self.stop(f"wrong player: seat {self.peek_seat()} acts, seat {p} is to act" + due)
            if self.pend > 0:
                p = self.facing_penalty(p)
            elif self.skip > 0:
                self.expect(L.E_SKIPPED, p, kind=-1, aux=0, what=f" ({self.skip} skip(s) pending)")
                self.skip -= 1
                self.snap()
                p = self.nxt(p)
            elif self.special >= 0:
                self.special_turn(p)
                p = self.nxt(p)
            elif self.skips[p] > 0:  # a declared card's skip, met after anything else
                self.expect(
                    L.E_SKIPPED, p, kind=-1, aux=0, what=f" ({self.skips[p]} skip(s) wait for it)"
                )
                self.skips[p] -= 1
                self.snap()
                p = self.nxt(p)
            else:
                p = self.normal_turn(p)

    def facing_penalty(self, p: int) -> int:
        """RULES.md 4.3, 4.6, 8.1: seat ``p`` faces a pending draw penalty."""
        typ = self.peek()
        if typ == L.E_CHALLENGE and self.peek_seat() == p:
            e = self.expect(L.E_CHALLENGE, p, kind=-1, aux=0, flags=None)
            if not self.challenge_on:
                self.bad("a challenge, but the rule `challenge` is off")
            elif not self.challengeable:
                self.bad(
                    "a challenge of a penalty that is not a Wild Draw Four played "
                    "from the hand by the previous player (or a stacked one)"
                )
            if self.strict[p]:
                self.bad("`random` never challenges")
            caught = bool(e[3] & L.F_CAUGHT)
            if e[3] & ~L.F_CAUGHT:
                self.bad(f"records flags {e[3]}")
            if caught != self.pend_bluff:
                self.bad(
                    "wrong challenge outcome: the Wild Draw Four was "
                    + (
                        "illegal (a bluff) but is not caught"
                        if self.pend_bluff
                        else "legal but the challenge is recorded as catching a bluff"
                    )
                )
            self.counts["challenges"] += 1
            self.pend = 0
            self.challengeable = False
            self.snap()
            if caught:  # the bluffer draws 4; the challenger plays on normally
                self.draws(self.pend_by, 4, " (a caught bluff)")
                return p
            self.draws(p, 4 + self.challenge_penalty, " (a failed challenge)")
            return self.nxt(p)
        if typ == L.E_STACK and self.peek_seat() == p:
            e = self.expect(L.E_STACK, p, aux=0)
            k = e[2]
            if self.stacking == "none":
                self.bad(f"stacks {self._card(k)}, but stacking is off")
            elif not self.stackable(k):
                self.bad(
                    f"{self._card(k)} cannot be stacked on {self._card(self.top)} "
                    f"(stacking {self.stacking}, colour {_colour(self.colour)})"
                )
            elif self.tot[p] == 1 and not self.goes_out_ok([k]):
                self.bad(f"stacks its last card, {self._card(k)}: last_card = number")
            self.take_turn()
            q = self.play(p, k, L.E_STACK)
            return self.nxt(q)
        if typ == L.E_PENALTY and self.peek_seat() == p:
            if self.strict[p] and self.i < self.T:
                can = self.stackable_held(p)
                if can:
                    self.bad(
                        f"`random` stacks when it can (holds {self._cards((k, 1) for k in can)})",
                        self.i,
                    )
            amount = self.pend
            self.expect(L.E_PENALTY, p, kind=-1, aux=amount)
            self.pend = 0
            self.challengeable = False
            self.snap()
            self.draws(p, amount, f" (a penalty of {amount})")
            return self.nxt(p)
        options = ["take the penalty"]
        if self.stacking != "none":
            options.append("stack")
        if self.challengeable:
            options.append("challenge")
        self.stop(
            f"seat {p} faces a draw penalty of {self.pend} and must "
            f"{' or '.join(options)}; found {self.found()}"
        )
        return p  # unreachable

    def normal_turn(self, p: int) -> int:
        """RULES.md 4.1-4.3, 8.4: play a legal card, or draw."""
        typ = self.peek()
        if typ == L.E_PLAY and self.peek_seat() == p:
            e = self.expect(L.E_PLAY, p, aux=0, flags=None)
            self.take_turn()
            k = e[2]
            flagged = bool(e[3] & L.F_BLUFF)
            if e[3] & ~L.F_BLUFF:
                self.bad(f"records flags {e[3]}")
            if not 0 <= k < N_KINDS:
                self.stop(f"plays an unknown card {k}", self.cur)
            bluff = False
            if k == WILD_DRAW_FOUR:
                if self.tot[p] == 1 and not self.goes_out_ok([k]):
                    self.bad("plays a Wild Draw Four as its last card: last_card = number")
                bluff = not self.wd4_ok(p)
                if bluff and not flagged:
                    self.bad(
                        f"illegal Wild Draw Four: seat {p} holds "
                        + (
                            f"a {_colour(self.colour)} card"
                            if self.wd4_rule == "colour"
                            else "another legal card"
                        )
                        + " (and it is not marked a bluff)"
                    )
                elif flagged and not bluff:
                    self.bad("a legal Wild Draw Four is marked as a bluff")
                if bluff and self.strict[p]:
                    self.bad("`random` never bluffs")
            else:
                if flagged:
                    self.bad(f"{self._card(k)} is marked as a bluff")
                if self.hl[p][k] > 0 and not self.legal(p, k):
                    self.bad(
                        f"illegal play: {self._card(k)} on {self._card(self.top)} "
                        f"(colour {_colour(self.colour)})"
                        + (" as its last card (last_card = number)" if self.matches(k) else "")
                    )
            q = self.play(p, k, L.E_PLAY, bluff)
            return self.nxt(q)
        if typ == L.E_DRAW and self.peek_seat() == p:
            self.expect(L.E_DRAW, p, kind=-1, aux=0)
            self.take_turn()
            if not self.voluntary or self.strict[p]:
                if self.has_legal(p):
                    who = (
                        "`random` never draws"
                        if self.strict[p]
                        else "voluntary_draw is off: no draw"
                    )
                    self.bad(
                        f"{who} while holding a legal card "
                        f"({self._cards((k, 1) for k in self.legal_held(p))})"
                    )
            self.snap()
            while True:
                d = self.draw_one(p, " (a turn's draw)")
                if d is None:
                    return self.nxt(p)
                playable = self.legal(p, d)
                if self.peek() == L.E_DRAWN and self.peek_seat() == p:
                    e = self.expect(L.E_DRAWN, p, aux=0)
                    if e[2] != d:
                        self.stop(
                            f"plays {self._card(e[2])}, but the card drawn is {self._card(d)}",
                            self.cur,
                        )
                    if not playable:
                        self.bad(
                            f"illegal play of the drawn {self._card(d)} on "
                            f"{self._card(self.top)} (colour {_colour(self.colour)})"
                        )
                    if self.after_pass:
                        self.bad(f"plays the drawn {self._card(d)}, but after_draw = pass")
                    q = self.play(p, d, L.E_DRAWN)
                    return self.nxt(q)
                if playable and self.until:
                    self.bad(
                        f"the drawn {self._card(d)} is legal and must be played "
                        "(draw_rule until_playable)",
                        self.i if self.i < self.T else self.cur,
                    )
                    return self.nxt(p)
                if playable and self.strict[p] and not self.after_pass:
                    self.bad(
                        f"`random` always plays a legal drawn card ({self._card(d)})",
                        self.i if self.i < self.T else self.cur,
                    )
                if not self.until:
                    return self.nxt(p)
        self.stop(f"seat {p} was to play or draw; found {self.found()}")
        return p  # unreachable

    def play(self, p: int, k: int, how: int, bluff: bool = False) -> int:
        """Seat ``p`` plays ``k`` (row ``cur``) and, maybe, more: RULES.md 4.4, 4.6, 5,
        8.1-8.3, 8.6. Returns the seat that played last (a jumper, maybe)."""
        if not 0 <= k < N_KINDS or self.hl[p][k] <= 0:
            self.stop(f"seat {p} plays {self._card(k)} but does not hold it", self.cur)
        self.remove(p, k)
        self.discard(k)
        if _COL[k] >= 0:
            self.colour = _COL[k]
        self.counts["cards_played"] += 1
        if bluff:
            self.counts["bluffs"] += 1
        self.snap()
        seq = [k]
        if self.peek() == L.E_EXTRA and self.peek_seat() == p:
            if not self.multi:
                self.stop("a multi-card play, but multi_play is off")
            if how != L.E_PLAY or k >= N_COLOURED:
                self.stop("a multi-card play may only follow a coloured card played from the hand")
            step = 0
            while self.peek() == L.E_EXTRA and self.peek_seat() == p:
                e = self.expect(L.E_EXTRA, p, aux=0)
                x, prev = e[2], seq[-1]
                if not 0 <= x < N_KINDS or self.hl[p][x] <= 0:
                    self.stop(f"seat {p} adds {self._card(x)} but does not hold it", self.cur)
                if self.strict[p]:
                    self.bad("`random` plays only one card")
                d = _RANK[x] - _RANK[prev] if x < N_COLOURED else 99
                if step == 0 and x == k:
                    pass  # an identical copy
                elif (
                    x < N_COLOURED
                    and _COL[x] == _COL[prev]
                    and _RANK[x] <= 9
                    and _RANK[prev] <= 9
                    and d in (1, -1)
                    and step in (0, d)
                ):
                    step = d  # a same-colour run, one step at a time, one direction
                else:
                    self.bad(
                        f"{self._card(x)} after {self._card(prev)} is neither an identical "
                        f"copy of {self._card(k)} nor the next card of a same-colour run"
                    )
                self.remove(p, x)
                self.discard(x)
                self.colour = _COL[x]
                self.counts["cards_played"] += 1
                self.snap()
                seq.append(x)
                if self.tot[p] == 0 and not self.goes_out_ok(seq):
                    self.bad(
                        f"empties the hand with {self._cards((c, 1) for c in seq)}: "
                        "last_card = number"
                    )
        last = seq[-1]
        spec = self.spec(last)
        if (_COL[last] < 0 and spec is None) or (spec is not None and spec.names_colour):
            e = self.expect(L.E_COLOUR, p, aux=0, what=f" (after {self._card(last)})")
            self.name_colour(e[2])
            self.snap()
        self.uno(p)
        if self.tot[p] == 0:  # 5: only the draw penalties of the last card(s) still apply
            for c in seq:
                if self.penalty_of(c) > 0:
                    self.add_penalty(self.penalty_of(c))
            self.win(p)
            return p
        for c in seq:
            self.effect(p, c, how == L.E_STACK, bluff)
        return self.jump_ins(p, last)

    def effect(self, p: int, k: int, stacked: bool, bluff: bool) -> None:
        """The effect of ``k`` just played by ``p`` (RULES.md 2, 4.5, 4.6, 8.2)."""
        n = self.n
        if self.spec(k) is not None:
            self.declared(p, k)
            return
        if k < N_COLOURED:
            r = _RANK[k]
            if r == SKIP or (r == REVERSE and n == 2):
                self.expect(L.E_EFFECT, p, kind=k, aux=0, what=f" ({self._card(k)})")
                self.skip += 1
                self.snap()
            elif r == REVERSE:
                self.expect(L.E_EFFECT, p, kind=k, aux=0, what=f" ({self._card(k)})")
                self.dir = -self.dir
                self.snap()
            elif r == DRAW_TWO:
                self.expect(L.E_EFFECT, p, kind=k, aux=0, what=f" ({self._card(k)})")
                self.add_penalty(2)
                self.challengeable = False
                self.snap()
            elif r == 7 and self.seven_zero:
                self.swap(p)
            elif r == 0 and self.seven_zero:
                self.expect(L.E_ROTATE, p, kind=-1, aux=0, what=" (Seven-Zero: a 0)")
                old = [list(h) for h in self.hl]
                for q in range(n):
                    self.set_hand(self.nxt(q), old[q])
                self.snap()
            return
        if k == WILD_DRAW_FOUR:
            self.expect(L.E_EFFECT, p, kind=k, aux=0, what=" (Wild Draw Four)")
            self.add_penalty(4)
            self.challengeable = self.challenge_on and not stacked
            self.pend_bluff = bluff
            self.pend_by = p
            self.snap()
        elif k == SHUFFLE_HANDS:
            self.expect(L.E_SHUFFLE, p, kind=-1, aux=0, what=" (Wild Shuffle Hands)")
            self.shuffle_hands(p)
            self.snap()
        elif k == CUSTOMIZABLE:
            if self.blank_swap:
                self.swap(p)
        elif k == SNORLAX or k == GRENINJA:
            self.expect(L.E_EFFECT, p, kind=k, aux=0, what=f" ({self._card(k)})")
            self.special = k
            self.pend_by = p
            self.snap()
        elif k == GRAYSKULL:  # every other player draws 3, from the next player on
            self.expect(L.E_EFFECT, p, kind=k, aux=0, what=" (Powers of Grayskull)")
            self.snap()
            for j in range(1, n):
                self.draws(self.seat(p, j * self.dir), 3, " (Powers of Grayskull)")

    def declared(self, p: int, k: int) -> None:
        """A declared card's steps, in order (docs/cards.md); a step that ends the round
        ends the effect."""
        spec = self.spec(k)
        n = self.n
        self.expect(L.E_EFFECT, p, kind=k, aux=0, what=f" ({self._card(k)})")
        self.snap()
        named = False  # the first name_colour named the colour as the card was placed
        for step in spec.effect:
            if self.over:
                return
            w = step.split()
            nxt = self.nxt(p)
            if step == "name_colour" and not named:
                named = True
            elif step == "name_colour":  # named again, by the player
                e = self.expect(L.E_COLOUR, p, aux=0, what=f" ({self._card(k)}: named again)")
                self.name_colour(e[2])
                self.snap()
            elif step == "spend_turn next":  # a turn taken (max_turns first), then missed
                if self.turns >= self.max_turns:
                    return  # the round is truncated: the next event says so
                self.take_turn()
                self.skips[nxt] += 1
            elif step == "draw_until_colour next":
                c = self.colour
                while True:
                    d = self.draw_one(nxt, f" ({self._card(k)}: until a {_colour(c)} card)")
                    if d is None or _COL[d] == c:
                        break
            elif w[0] == "draw" and w[2] == "next" and spec.stack:
                self.add_penalty(int(w[1]))  # waits for the next player (4.6, 8.1)
                self.challengeable = False
            elif w[0] == "draw" and w[2] == "next":
                self.draws(nxt, int(w[1]), f" ({self._card(k)})")
            elif w[0] == "draw" and w[2] == "others":
                for j in range(1, n):
                    self.draws(self.seat(p, j * self.dir), int(w[1]), f" ({self._card(k)})")
            elif w[0] == "draw":  # chosen: the victim is the seat that draws
                j = self.i + (1 if self.peek() == L.E_RESHUFFLE else 0)
                q = self.ev[j][1] if j < self.T and self.ev[j][0] == L.E_DREW else -1
                if q == p or not -1 <= q < n:
                    self.stop(f"{self._card(k)}: seat {q} draws, not an opponent of seat {p}", j)
                if q >= 0:
                    self.draws(q, int(w[1]), f" ({self._card(k)}: the chosen opponent)")
            elif step == "skip next":  # waits for this step's next player
                self.skips[nxt] += 1
            elif step in ("skip everyone", "again"):  # one for each other player
                for q in range(n):
                    if q != p:
                        self.skips[q] += 1
            elif step == "reverse":
                if n == 2:
                    self.skips[nxt] += 1
                else:
                    self.dir = -self.dir
            elif w[0] == "discard_colour":
                self.throw_colour(p if w[1] == "own" else nxt, k)
            elif step == "swap chosen":
                self.swap(p)
            elif step == "pass_hands":
                self.expect(L.E_ROTATE, p, kind=-1, aux=0, what=f" ({self._card(k)})")
                old = [list(h) for h in self.hl]
                for q in range(n):
                    self.set_hand(self.nxt(q), old[q])
                self.snap()
            elif step == "deal_hands":
                self.expect(L.E_SHUFFLE, p, kind=-1, aux=0, what=f" ({self._card(k)})")
                self.shuffle_hands(p)
                self.snap()

    def throw_colour(self, q: int, k: int) -> None:
        """Seat ``q`` throws away every card of the current colour (the top one read from
        the row, the colour stays); an empty hand wins, one card left calls UNO."""
        c = self.colour
        m = self.cc[q][c]
        if m == 0:
            return
        e = self.expect(L.E_DISCARD, q, aux=m, what=f" ({self._card(k)}: every {_colour(c)} card)")
        t = e[2]
        if not (0 <= t < N_KINDS and _COL[t] == c and self.hl[q][t] > 0):
            self.bad(f"the new top {self._card(t)} is not one of the {_colour(c)} cards discarded")
            t = self.top
        for x in range(N_KINDS):
            if _COL[x] == c and self.hl[q][x] > 0:
                cnt = self.hl[q][x]
                for _ in range(cnt):
                    self.remove(q, x)
                self.disc[x] += cnt
        self.disc_n += m
        self.counts["cards_played"] += m
        self.top = t
        self.snap()
        if self.tot[q] == 0:
            self.win(q)
        else:
            self.uno(q)

    def swap(self, p: int) -> None:
        e = self.expect(L.E_SWAP, p, kind=-1, what=" (a hand swap)")
        q = e[4]
        if not 0 <= q < self.n or q == p:
            self.stop(f"seat {p} swaps hands with seat {q}: not an opponent", self.cur)
        a, b = list(self.hl[p]), list(self.hl[q])
        self.set_hand(p, b)
        self.set_hand(q, a)
        self.snap()

    def shuffle_hands(self, p: int) -> None:
        """Collected, shuffled, dealt one at a time from the next player (the deal itself
        is random: read from the row, checked for its cards and hand sizes)."""
        n = self.n
        new = self.rec_h[self.cur]
        before = np.array(self.hl, dtype=np.int64).sum(axis=0)
        if (new < 0).any() or not np.array_equal(new.sum(axis=0), before):
            self.bad("the cards dealt by Shuffle Hands are not the cards collected")
        m = int(before.sum())
        for j in range(1, n + 1):  # the j-th seat from p gets cards j-1, j-1+n, ...
            q = self.seat(p, j * self.dir)
            want = (m - (j - 1) + n - 1) // n
            if int(new[q].sum()) != want:
                self.bad(
                    f"Shuffle Hands gives seat {q} {int(new[q].sum())} cards; dealt one "
                    f"at a time from seat {self.nxt(p)}, it gets {want}"
                )
        for q in range(n):
            self.set_hand(q, [int(x) for x in new[q]])

    def jump_ins(self, p: int, last: int) -> int:
        """RULES.md 8.3: players holding an identical card may jump in, first one after the
        player who played in the direction of play. Returns the seat that played last."""
        if not self.jump_in or last >= N_COLOURED:
            if self.peek() == L.E_JUMP:
                self.stop(
                    "a jump-in, but "
                    + (
                        "the rule jump_in is off"
                        if not self.jump_in
                        else f"{self._card(last)} is "
                        + ("wild-type" if _COL[last] < 0 else "a declared card")
                    )
                )
            return p
        q = p
        while True:
            order = [self.seat(q, j * self.dir) for j in range(1, self.n)]
            holders = [
                s
                for s in order
                if self.hl[s][last] > 0 and (self.tot[s] > 1 or self.goes_out_ok([last]))
            ]  # 8.8
            if self.peek() == L.E_JUMP:
                e = self.take()
                j = e[1]
                if e[2] != last:
                    self.stop(
                        f"jumps in with {self._card(e[2])}, not identical to {self._card(last)}",
                        self.cur,
                    )
                if j not in holders:
                    self.stop(
                        f"seat {j} jumps in with {self._card(last)} but "
                        + (
                            "played it"
                            if j == q
                            else "does not hold one"
                            if self.hl[j][last] <= 0
                            else "it is its last card (last_card = number)"
                        ),
                        self.cur,
                    )
                for s in holders[: holders.index(j)]:
                    if self.strict[s]:
                        self.bad(
                            f"seat {s} holds {self._card(last)} before seat {j} in the "
                            "direction of play, and `random` always jumps in"
                        )
                        break
                if e[3] != 0 or e[4] != 0:
                    self.bad("records flags/aux")
                self.take_turn()
                self.remove(j, last)
                self.discard(last)
                self.counts["cards_played"] += 1
                self.skip = 0  # the jumped card's skip is replaced by the jumper's own
                self.snap()
                self.uno(j)
                if self.tot[j] == 0:
                    if _RANK[last] == DRAW_TWO:
                        self.add_penalty(2)
                    self.win(j)
                    return j
                self.effect(j, last, False, False)
                q = j
                continue
            if self.turns < self.max_turns:
                for s in holders:
                    if self.strict[s]:
                        self.bad(
                            f"seat {s} holds {self._card(last)} and `random` always jumps in",
                            min(self.i, self.T - 1),
                        )
                        break
            return q

    def uno(self, p: int) -> None:
        """RULES.md 4.4: a forgotten UNO call, caught: draw uno_penalty."""
        if self.peek() != L.E_UNO or self.peek_seat() != p:
            return
        self.expect(L.E_UNO, p, kind=-1, aux=self.uno_penalty)
        if self.tot[p] != 1:
            self.bad(f"an UNO penalty, but seat {p} holds {self.tot[p]} cards, not 1")
        if self.catch_uno == 0:
            self.bad("an UNO penalty, but catch_uno is 0")
        if self.strict[p]:
            self.bad("`random` never forgets to call UNO")
        self.counts["uno_penalties"] += 1
        self.snap()
        self.draws(p, self.uno_penalty, " (UNO penalty)")

    def win(self, p: int) -> None:
        """RULES.md 5: ``p`` has no cards; the next player first draws a pending penalty."""
        if self.pend > 0:
            q = self.nxt(p)
            amount = self.pend
            self.expect(
                L.E_PENALTY, q, kind=-1, aux=amount, what=f" (the penalty of seat {p}'s last card)"
            )
            self.pend = 0
            self.snap()
            self.draws(q, amount, " (the last card's penalty)")
        self.over = True
        self.winner = p

    def special_turn(self, p: int) -> None:
        """Section 2: seat ``p``'s turn under a pending Snorlax or Greninja."""
        c = self.colour
        if self.special == SNORLAX:
            self.expect(L.E_SNORLAX, p, kind=-1, aux=0, what=" (Snorlax)")
            self.take_turn()
            self.snap()
            self.draws(p, 3, " (Snorlax)")
            m = self.cc[p][c]
            if m > 0:
                e = self.expect(L.E_DISCARD, p, aux=m, what=f" (Snorlax: every {_colour(c)} card)")
                t = e[2]
                if not (0 <= t < N_KINDS and _COL[t] == c and self.hl[p][t] > 0):
                    self.bad(
                        f"the new top {self._card(t)} is not one of the {_colour(c)} "
                        "cards discarded"
                    )
                    t = self.top
                for k in range(N_KINDS):
                    if _COL[k] != c:
                        continue
                    cnt = self.hl[p][k]
                    for _ in range(cnt):
                        self.remove(p, k)
                    self.disc[k] += cnt
                self.disc_n += m
                self.counts["cards_played"] += m
                self.top = t  # its rank counts; the colour stays the named one
                self.snap()
                if self.tot[p] == 0:
                    self.win(p)
                else:
                    self.uno(p)
        else:
            self.expect(L.E_GRENINJA, p, kind=-1, aux=0, what=" (Greninja)")
            self.take_turn()
            self.snap()
            while True:
                d = self.draw_one(p, f" (Greninja: until a {_colour(c)} card)")
                if d is None or _COL[d] == c:
                    break
            e = self.expect(
                L.E_COLOUR,
                self.pend_by,
                aux=0,
                what=" (after Greninja, its player names the colour again)",
            )
            self.name_colour(e[2])
            self.snap()
        self.special = -1

    # -- drawing (RULES.md 4.2) ------------------------------------------------------------
    def draws(self, p: int, count: int, what: str = "") -> None:
        for _ in range(count):
            if self.draw_one(p, what) is None:
                return

    def draw_one(self, p: int, what: str = "") -> int | None:
        """Seat ``p`` draws one card: a reshuffle first if the pile is empty; None if there
        is nothing left to draw."""
        if self.peek() == L.E_RESHUFFLE:
            e = self.take()
            moved = self.disc_n - 1
            if self.pile_n != 0:
                self.bad(f"a reshuffle while the draw pile holds {self.pile_n} cards")
            if moved <= 0:
                self.bad("a reshuffle with no card to move")
            if e[1] != -1 or e[2] != -1 or e[3] != 0:
                self.bad("records seat/card/flags")
            if e[4] != moved:
                self.bad(f"moves {e[4]} cards; the discard pile less its top card holds {moved}")
            for k in range(N_KINDS):
                self.pile[k] += self.disc[k]
                self.disc[k] = 0
            self.pile[self.top] -= 1
            self.disc[self.top] = 1
            self.pile_n += moved
            self.disc_n = 1
            self.counts["reshuffles"] += 1
            self.snap()
        elif self.pile_n == 0 and self.disc_n > 1:
            self.stop(
                f"seat {p} must draw{what} from an empty draw pile: the discard pile "
                "must be reshuffled first"
            )
        if self.pile_n == 0:  # nothing left anywhere: the draw happens as if done
            if self.peek() == L.E_DREW and self.peek_seat() == p:
                self.stop("a card drawn when no card is left to draw")
            return None
        e = self.expect(L.E_DREW, p, aux=0, what=what)
        k = e[2]
        if not 0 <= k < N_KINDS or self.pile[k] <= 0:
            self.stop(f"draws {self._card(k)}, which is not in the draw pile", self.cur)
        self.pile[k] -= 1
        self.pile_n -= 1
        self.add(p, k)
        self.counts["cards_drawn"] += 1
        self.snap()
        return k

    # -- the end ---------------------------------------------------------------------------
    def finish(self) -> None:
        last = self.cur
        if self.i < self.T:
            self.bad("rows after the end of the round", self.i)
        n = self.n
        w = self.winner if self.over else -1
        if self.over and self.tot[w] != 0:
            self.bad(f"the winner, seat {w}, still holds {self.tot[w]} cards", last)
        hand_points = [sum(c * pt for c, pt in zip(self.hl[q], self.points)) for q in range(n)]
        points = sum(hand_points[q] for q in range(n) if q != w) if self.over else 0
        if self.row is None:
            return
        want = dict(
            winner=w,
            first_player=self.first,
            turns=self.turns,
            points=points,
            truncated=int(not self.over),
            **self.counts,
        )
        for q in range(n):
            want[f"hand_points_{q}"] = hand_points[q]
            want[f"hand_size_{q}"] = self.tot[q]
        got = _row_values(self.row, n)
        for key, value in want.items():
            if key in got and got[key] != value:
                what = {"points": " (the points left in the other hands)"}.get(key, "")
                self.bad(f"the round's {key} is {got[key]}; the trace gives {value}{what}", last)

    def compare(self) -> None:
        """Every row read must record the state and hands the checker computed."""
        m = len(self.exp_s)
        if m == 0:
            return
        n = self.n
        exp = np.array(self.exp_s, dtype=np.int64)
        rec = self.t[:m, L.EV_TOP : L.EV_DISC + 1].astype(np.int64)
        exp[: self.first_row, 0:2] = rec[: self.first_row, 0:2]  # no top card yet
        bad_s = exp != rec
        rec_h = self.rec_h[:m].reshape(m, n * N_KINDS)
        bad_h = (rec_h != self.exp_h[:m]).any(axis=1)
        bad_h |= _beyond(self.t[:m], n)
        rows = np.flatnonzero(bad_s.any(axis=1) | bad_h)
        for i in rows[:3]:
            i = int(i)
            parts = [
                f"{_STATE_FIELDS[f]} recorded {self._show(f, rec[i, f])}, expected "
                f"{self._show(f, exp[i, f])}"
                for f in np.flatnonzero(bad_s[i]).tolist()
            ]
            for q in range(n):
                r = rec_h[i, q * N_KINDS : (q + 1) * N_KINDS].astype(np.int64)
                x = self.exp_h[i, q * N_KINDS : (q + 1) * N_KINDS].astype(np.int64)
                if not np.array_equal(r, x):
                    extra = self._cards(
                        (k, int(r[k] - x[k])) for k in np.flatnonzero(r > x).tolist()
                    )
                    missing = self._cards(
                        (k, int(x[k] - r[k])) for k in np.flatnonzero(x > r).tolist()
                    )
                    parts.append(
                        f"hand of seat {q} recorded with {extra} too many and {missing} too few"
                    )
            if _beyond(self.t[i : i + 1], n)[0]:
                parts.append(f"cards recorded for seats beyond the {n} players")
            self.viol.append(Violation(i, self.where(i) + "state differs: " + "; ".join(parts)))
        if len(rows) > 3:
            self.viol.append(
                Violation(int(rows[3]), f"... the state differs on {len(rows) - 3} more rows")
            )

    def _show(self, field: int, v: Any) -> str:
        v = int(v)
        if field == 0 or (field == 5 and v >= 0):
            return self._card(v)
        if field == 1:
            return _colour(v)
        return str(v)


def _row_values(row: Any, n: int) -> dict[str, int]:
    """Section 6 values of a round's record: the kernel's int32 row or a named row."""
    if isinstance(row, Mapping) or hasattr(row, "keys"):
        return {k: int(row[k]) for k in row.keys() if k in _ROW_KEYS(n)}
    a = np.asarray(row)
    if a.ndim != 1 or a.size != L.N_COLS:
        raise ValueError(f"row must be a mapping or int[{L.N_COLS}], got shape {a.shape}")
    out = {name: int(a[i]) for i, name in enumerate(L.FIXED_COLUMNS)}
    for q in range(n):
        out[f"hand_points_{q}"] = int(a[L.C_HAND_POINTS + q])
        out[f"hand_size_{q}"] = int(a[L.C_HAND_SIZE + q])
    return out


def _ROW_KEYS(n: int) -> set[str]:
    return (
        set(L.FIXED_COLUMNS)
        | {f"hand_points_{q}" for q in range(n)}
        | {f"hand_size_{q}" for q in range(n)}
    )
