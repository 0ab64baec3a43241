"""A seat's view in plain words, and a reply in words read back as an action: the door
for language models (and for anyone at a terminal).

``render(state_or_observation, seat)`` describes what the seat may know (its hand, the
top card, every hand's size, the last public events) and lists the legal actions
lettered ``A``, ``B``, ... (``AA``, ``AB``... past 26). ``parse(reply, obs)`` reads a
reply as one of those actions: a letter (``"B"``, ``"(B)"``, ``"Answer: B"``), a card
or action named in words (``"red 7"``, ``"play the wild draw four, blue"``, ``"R7"``,
``"draw"``, ``"swap with seat 2"``), or JSON (``{"action": "B"}``, ``{"id": 12}``,
``{"card": "wild", "colour": "blue"}``). A reply that names no legal action, or more than
one, raises :class:`InvalidMove` with a one-line reason meant to be shown to the model.

The invalid-move policy (:class:`MovePolicy`): a model gets ``retries`` more chances
(the reason is sent back with the same view), then the seat plays the fallback action:
taking the pending penalty, drawing or passing if legal, else the first legal action.
Every invalid reply and every fallback is counted (``MoveCounts``).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..game.cards import COLOURS, N_COLOURED, N_RANKS, WILD_NAMES, kind_name
from ..kernel.core import layout as L
from ..kernel.outside import protocol as K
from ..sim.outside import Observation, card_of, colour_of

__all__ = [
    "InvalidMove",
    "MoveCounts",
    "MovePolicy",
    "action_text",
    "card_text",
    "fallback_action",
    "letter",
    "legal_list",
    "parse",
    "render",
]

RECENT_EVENTS = 12  # public events a view recounts
MAX_REPLY = 20_000  # characters of a reply read (the rest is ignored)
_RANK_WORDS = tuple(str(r) for r in range(10)) + ("skip", "reverse", "draw two")
_NUMBER_WORDS = {
    w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine".split())
}
_FILLER = frozenset(
    "i ill will would want to play the a an and card my choose choice pick go with of "
    "please my move lets let us it is as action naming name named names call calling "
    "colour new then on top".split()
)


class InvalidMove(ValueError):
    """A reply that names no legal action (or more than one)."""


def card_text(k: int) -> str:
    """A card kind in words: ``red 7``, ``blue draw two``, ``wild draw four``."""
    k = int(k)
    if k < N_COLOURED:
        return f"{COLOURS[k // N_RANKS]} {_RANK_WORDS[k % N_RANKS]}"
    i = k - N_COLOURED
    if 0 <= i < len(WILD_NAMES):
        name = WILD_NAMES[i].replace("_", " ")
        return name if name.startswith("wild") or i >= 4 else f"wild {name}"
    return kind_name(k)


def action_text(a: int, decision: str, pending: int = 0) -> str:
    """Action ``a`` in words at a decision of kind ``decision`` (``DECISIONS``)."""
    a = int(a)
    if K.A_PLAY <= a < K.A_WILD:
        verb = {"drawn": "play the drawn", "jump": "jump in with", "extra": "also play"}
        return f"{verb.get(decision, 'play')} {card_text(a)}"
    if K.A_WILD <= a < K.A_DRAW:
        verb = {"drawn": "play the drawn", "jump": "jump in with", "extra": "also play"}
        c = COLOURS[(a - K.A_WILD) % 4]
        return f"{verb.get(decision, 'play')} {card_text(card_of(a))}, naming {c}"
    if a == K.A_DRAW:
        if decision == "penalty":
            return f"take the penalty (draw {pending})" if pending else "take the penalty"
        return "draw a card"
    if a == K.A_PASS:
        return {
            "drawn": "keep the drawn card",
            "jump": "do not jump in",
            "extra": "play no more cards",
            "uno": "do not say UNO",
        }.get(decision, "pass")
    if a == K.A_CHALLENGE:
        return "challenge the wild draw four"
    if K.A_COLOUR <= a < K.A_SEAT:
        return f"name {COLOURS[a - K.A_COLOUR]}"
    if K.A_SEAT <= a < K.A_UNO:
        return f"swap hands with seat {a - K.A_SEAT}"
    if a == K.A_UNO:
        return "say UNO"
    if K.N_BUILTIN_ACTIONS <= a < K.N_ACTIONS:  # a declared card (docs/cards.md)
        verb = {"drawn": "play the drawn", "jump": "jump in with", "extra": "also play"}
        kind, colour = card_of(a), colour_of(a)
        named = f", naming {COLOURS[colour]}" if a < K.A_DECL_COLOURED and colour >= 0 else ""
        return f"{verb.get(decision, 'play')} {card_text(kind)}{named}"
    raise ValueError(f"no action {a}")


def letter(i: int) -> str:
    """The label of the ``i``-th legal action: ``A`` .. ``Z``, then ``AA``, ``AB``..."""
    if i < 26:
        return chr(65 + i)
    return chr(65 + i // 26 - 1) + chr(65 + i % 26)


def legal_list(obs: Observation) -> list[tuple[str, int, str]]:
    """The legal actions as (letter, action id, words)."""
    return [
        (letter(i), a, action_text(a, obs.decision, obs.pending_draw))
        for i, a in enumerate(obs.legal)
    ]


_DECISION_WORDS = {
    "turn": "It is your turn: play a card or draw.",
    "penalty": "A draw penalty is waiting for you: take it, or answer it as the rules allow.",
    "drawn": "You drew a card you may play: play it or keep it.",
    "colour": "Name the colour to play on.",
    "target": "Choose whose hand to swap with yours.",
    "jump": "You hold the card just played: you may jump in with it.",
    "extra": "You may add more cards to your play.",
    "uno": "You are down to one card: say UNO or not.",
}


def _event_text(ev, me: int) -> str | None:
    t, seat, k, flags, aux = (int(x) for x in ev)
    who = "you" if seat == me else f"seat {seat}"
    if t in (L.E_PLAY, L.E_DRAWN, L.E_STACK, L.E_JUMP, L.E_EXTRA):
        how = {L.E_STACK: " (stacked)", L.E_JUMP: " (jumping in)"}.get(t, "")
        return f"{who} played {card_text(k)}{how}"
    if t == L.E_COLOUR:
        return f"{who} named {COLOURS[k]}" if 0 <= k < 4 else None
    if t == L.E_DREW:
        return f"{who} drew a card"
    if t == L.E_PENALTY:
        return f"{who} took a penalty of {aux} cards"
    if t == L.E_SKIPPED:
        return f"{who} lost a turn"
    if t == L.E_CHALLENGE:
        return f"{who} challenged: " + ("a bluff, caught" if flags & L.F_CAUGHT else "no bluff")
    if t == L.E_UNO:
        return f"{who} forgot to say UNO and was caught"
    if t == L.E_SWAP:
        return f"{who} swapped hands with seat {aux}"
    if t == L.E_START:
        return f"the first card was turned; seat {seat} plays first"
    if t == L.E_RESHUFFLE:
        return "the discard pile was shuffled into the draw pile"
    if t == L.E_WIN:
        return f"{who} played their last card"
    return None


def _recent(history: np.ndarray, me: int, n: int = RECENT_EVENTS) -> list[str]:
    lines: list[str] = []
    for ev in history[::-1]:
        s = _event_text(ev, me)
        if s is not None:
            # a run of draws reads as one line
            if lines and s == lines[-1].split(" (x")[0] and s.endswith("drew a card"):
                m = re.search(r"\(x(\d+)\)$", lines[-1])
                lines[-1] = f"{s} (x{int(m.group(1)) + 1 if m else 2})"
                continue
            lines.append(s)
            if len(lines) >= n:
                break
    return lines[::-1]


def _hand_words(hand: np.ndarray) -> str:
    parts = []
    for k in np.flatnonzero(hand).tolist():
        c = int(hand[k])
        parts.append(card_text(k) + (f" (x{c})" if c > 1 else ""))
    return ", ".join(parts) if parts else "no cards"


def render(state_or_observation, seat: int | None = None, rules: str | None = None) -> str:
    """The view of ``seat`` in plain words, ending with the lettered legal actions.

    Parameters
    ----------
    state_or_observation : unosim.State or Observation
        A stepwise game's state (any seat's view; ``seat`` defaults to the seat to act)
        or an agent's observation (its own seat).
    seat : int, optional
        The seat whose view (a state only).
    rules : str, optional
        The rule set's name to mention (a state names its own).
    """
    obj = state_or_observation
    over_line = None
    if isinstance(obj, Observation):
        obs = obj
    else:  # a stepwise State
        if rules is None:
            rules = obj.game.rules.name
        if seat is None:
            seat = obj.current_player if obj.current_player >= 0 else 0
        obs = obj.observation(seat)
        if obj.is_terminal():
            rec = obj.record()
            w = int(rec[L.C_WINNER])
            over_line = (
                "The round is over: no winner (cut at the turn limit)."
                if w < 0
                else f"The round is over: {'you' if w == seat else f'seat {w}'} won, "
                f"scoring {int(rec[L.C_POINTS])} points."
            )
    me, n = obs.seat, obs.n_players
    lines = [f"UNO{f' ({rules} rules)' if rules else ''}: you are seat {me} of {n}."]
    if over_line:
        lines.append(over_line)
    top = card_text(obs.top)
    lines.append(f"Top of the discard pile: {top}; the colour to follow is {COLOURS[obs.colour]}.")
    order = "seat order (0, 1, 2...)" if obs.direction > 0 else "reverse seat order"
    lines.append(f"Play goes in {order}.")
    if obs.pending_draw:
        lines.append(f"Pending draw penalty: {obs.pending_draw} cards.")
    hand = obs.hand
    lines.append(f"Your hand ({int(hand.sum())} cards): {_hand_words(hand)}.")
    sizes = obs.hand_sizes
    lines.append(
        "Cards in each hand: "
        + ", ".join(f"seat {s}{' (you)' if s == me else ''}: {int(sizes[s])}" for s in range(n))
        + "."
    )
    lines.append(f"Draw pile: {obs.draw_pile} cards; discard pile: {obs.discard_pile} cards.")
    recent = _recent(obs.history, me)
    if recent:
        lines.append("Latest events, oldest first: " + "; ".join(recent) + ".")
    legal = obs.legal
    if legal and over_line is None:
        lines.append(_DECISION_WORDS[obs.decision])
        if obs.card >= 0 and obs.decision in ("drawn", "jump"):
            lines.append(f"The card in question: {card_text(obs.card)}.")
        lines.append("Legal actions:")
        lines.extend(f"{x}. {words}" for x, _, words in legal_list(obs))
        lines.append("Reply with the letter of one action.")
    elif over_line is None:
        lines.append("It is not your decision now.")
    return "\n".join(lines)


# -- reading a reply ----------------------------------------------------------------------


def _tokens(text: str) -> list[str]:
    t = text.lower().replace("color", "colour").replace("draw 2", "draw two")
    t = t.replace("draw 4", "draw four").replace("_", " ").replace("-", " ")
    out: list[str] = []
    for w in re.findall(r"[a-z0-9+]+", t):
        if w == "+2":
            out += ["draw", "two"]
        elif w == "+4":
            out += ["draw", "four"]
        elif w in _NUMBER_WORDS and not (out and out[-1] == "draw"):
            out.append(_NUMBER_WORDS[w])
        elif w not in _FILLER:
            out.append(w)
    return out


def _phrases(a: int, decision: str) -> list[list[str]]:
    """The word sequences that name action ``a`` (after ``_tokens``)."""
    if K.A_PLAY <= a < K.A_DRAW:
        k = card_of(a)
        base = [_tokens(card_text(k)), [kind_name(k).lower()]]
        if k >= N_COLOURED and card_text(k).startswith("wild "):
            base.append(_tokens(card_text(k))[1:])  # "draw four, blue"
        if a >= K.A_WILD:
            c = COLOURS[(a - K.A_WILD) % 4]
            # the card alone names it too: ambiguous between the colours, said so
            return [p + [c] for p in base] + [p + ["in", c] for p in base] + base
        return base
    if a == K.A_DRAW:
        return [["draw"], ["take"], ["accept"]] if decision == "penalty" else [["draw"]]
    if a == K.A_PASS:
        extra = {"drawn": [["keep"]], "uno": [["silent"], ["stay", "silent"]]}
        return [["pass"], ["no"], ["not"]] + extra.get(decision, [])
    if a == K.A_CHALLENGE:
        return [["challenge"]]
    if K.A_COLOUR <= a < K.A_SEAT:
        return [[COLOURS[a - K.A_COLOUR]]]
    if K.A_SEAT <= a < K.A_UNO:
        s = str(a - K.A_SEAT)
        return [["seat", s], ["swap", s], ["player", s]]
    return [["say", "uno"], ["uno"]]


def _contains(words: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def _by_words(text: str, obs: Observation) -> int:
    words = _tokens(text)
    best, found = 0, set()
    for a in obs.legal:
        whole = _tokens(action_text(a, obs.decision, obs.pending_draw))
        for p in [whole, *_phrases(a, obs.decision)]:
            if _contains(words, p):
                if len(p) > best:
                    best, found = len(p), {a}
                elif len(p) == best:
                    found.add(a)
    if len(found) == 1:
        return found.pop()
    if not found:
        raise InvalidMove("the reply names no legal action; reply with one letter from the list")
    names = ", ".join(action_text(a, obs.decision, obs.pending_draw) for a in sorted(found))
    raise InvalidMove(f"the reply could mean more than one action ({names}); reply with one letter")


def _by_letter(x: str, obs: Observation) -> int:
    legal = legal_list(obs)
    for lt, a, _ in legal:
        if lt == x.upper():
            return a
    raise InvalidMove(f"there is no action {x.upper()}; the letters are A to {legal[-1][0]}")


def _by_json(d, obs: Observation) -> int:
    if not isinstance(d, dict):
        raise InvalidMove('the JSON reply must be an object such as {"action": "B"}')
    if "id" in d and isinstance(d["id"], int) and not isinstance(d["id"], bool):
        if d["id"] in obs.legal:
            return int(d["id"])
        raise InvalidMove(f"action id {d['id']} is not legal now")
    for key in ("action", "letter", "move", "answer", "choice"):
        v = d.get(key)
        if isinstance(v, str):
            return parse(v, obs)
        if isinstance(v, int) and not isinstance(v, bool) and v in obs.legal:
            return int(v)
    if isinstance(d.get("card"), str):
        colour = d.get("colour", d.get("color"))
        return _by_words(d["card"] + (f" {colour}" if isinstance(colour, str) else ""), obs)
    raise InvalidMove('the JSON reply names no action; use {"action": "B"}')


_WORDS_NOT_LETTERS = frozenset(("no", "ok", "go", "is", "it", "me", "my", "do"))
_LETTER_ALONE = re.compile(r"^[\s*_`'\"(\[]*([A-Za-z]{1,2})[\s*_`'\")\].:!]*$")
_LETTER_LEAD = re.compile(r"^[\s*_`'\"(\[]*([A-Z]{1,2})[*_`'\"]*\s*[).:\]]")
_LETTER_SAID = re.compile(
    r"\b(?:answer|action|choice|option|letter|choose|pick|select)\b\W{0,3}(?:is\W{0,3})?"
    r"\(?([A-Z]{1,2})\b(?![a-z])"
)


def parse(reply, obs: Observation) -> int:
    """The legal action a reply names (see the module's docstring), or
    :class:`InvalidMove` with a one-line reason.

    Parameters
    ----------
    reply : str or dict or int
        The reply: text, parsed JSON, or an action id.
    obs : Observation
        The decision the reply answers.
    """
    if not obs.legal:
        raise InvalidMove("no action is legal now")
    if isinstance(reply, bool):
        raise InvalidMove("the reply must be text")
    if isinstance(reply, (int, np.integer)):
        if int(reply) in obs.legal:
            return int(reply)
        raise InvalidMove(f"action id {int(reply)} is not legal now")
    if isinstance(reply, dict):
        return _by_json(reply, obs)
    if not isinstance(reply, str):
        raise InvalidMove("the reply must be text")
    text = reply[:MAX_REPLY].strip()
    if not text:
        raise InvalidMove("the reply is empty; reply with one letter from the list")
    fenced = re.sub(r"^```(?:json)?\s*|\s*```$", "", text)
    if fenced.startswith("{"):
        try:
            return _by_json(json.loads(fenced), obs)
        except json.JSONDecodeError:
            pass
    m = re.search(r"\{[^{}]{0,2000}\}", text)
    if m:
        try:
            return _by_json(json.loads(m.group(0)), obs)
        except json.JSONDecodeError:
            pass
    for rx in (_LETTER_ALONE, _LETTER_LEAD, _LETTER_SAID):
        m = rx.search(text)
        if m and m.group(1).lower() not in _WORDS_NOT_LETTERS:
            return _by_letter(m.group(1), obs)
    # exact words of a listed action (``B. play red 7`` minus its letter)
    low = text.lower().rstrip(".!")
    for _, a, words in legal_list(obs):
        if low == words.lower():
            return a
    return _by_words(text, obs)


# -- the invalid-move policy ----------------------------------------------------------------


def fallback_action(obs: Observation) -> int:
    """The action a seat plays after its invalid replies: take the penalty or draw
    (``80``) if legal, else pass (``81``) if legal, else the first legal action."""
    for a in (K.A_DRAW, K.A_PASS):
        if a in obs.legal:
            return a
    return obs.legal[0]


@dataclass
class MoveCounts:
    """Counts of a seat's decisions: ``decisions``, ``invalid`` replies, and ``fallbacks``
    (decisions whose every reply was invalid). Safe to share between threads."""

    decisions: int = 0
    invalid: int = 0
    fallbacks: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, decisions: int = 0, invalid: int = 0, fallbacks: int = 0) -> None:
        with self._lock:
            self.decisions += decisions
            self.invalid += invalid
            self.fallbacks += fallbacks

    def reset(self) -> None:
        with self._lock:
            self.decisions = self.invalid = self.fallbacks = 0

    def as_dict(self) -> dict[str, int]:
        with self._lock:
            return {
                "decisions": self.decisions,
                "invalid": self.invalid,
                "fallbacks": self.fallbacks,
            }


@dataclass
class MovePolicy:
    """The invalid-move policy: ``retries`` more replies after an invalid one (each told
    why), then :func:`fallback_action`."""

    retries: int = 1
    counts: MoveCounts = field(default_factory=MoveCounts)

    def decide(self, obs: Observation, ask: Callable[[str, str | None], str], view: str) -> int:
        """One decision: ``ask(view, error)`` returns a reply (``error`` is None the first
        time, then the reason the last reply was refused)."""
        error = None
        for _ in range(1 + max(0, int(self.retries))):
            reply = ask(view, error)
            try:
                a = parse(reply, obs)
            except InvalidMove as e:
                self.counts.add(invalid=1)
                error = str(e)
                continue
            self.counts.add(decisions=1)
            return a
        self.counts.add(decisions=1, fallbacks=1)
        return fallback_action(obs)
