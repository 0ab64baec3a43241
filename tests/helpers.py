"""Scripted rounds for hand-traced tests: choose the hands, the first card turned and
the draw pile, then let the kernel play."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from unosim.game.cards import N_KINDS, parse_kind
from unosim.game.rules import RuleSet, resolve
from unosim.kernel.core import layout as L
from unosim.kernel.drivers.batch import run_one
from unosim.players.seats import parse as parse_seats
from unosim.sim.results import rounds_frame


@dataclass
class Outcome:
    row: dict  # the RULES.md section 6 row
    game_state: np.ndarray  # final game state (layout.G_*)
    hands: np.ndarray  # int16[n, N_KINDS] final hands
    pile: np.ndarray  # kinds left in the draw pile, top last
    disc: np.ndarray  # int16[N_KINDS] discard pile counts

    def hand(self, seat: int) -> list[str]:
        from unosim.game.cards import kind_name

        return sorted(kind_name(k) for k in range(N_KINDS) for _ in range(self.hands[seat, k]))

    @property
    def top(self) -> str:
        from unosim.game.cards import kind_name

        return kind_name(int(self.game_state[L.G_TOP]))


def digest_of(*arrays) -> str:
    """A short sha256 of arrays' dtypes, shapes and bytes (the bit-identity digests)."""
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:24]


def cards(text: str) -> list[int]:
    """``"R7 G+2 W+4"`` -> kinds."""
    return [parse_kind(t) for t in text.split()]


def scripted(
    hands: list[str],
    first: str,
    draw: str = "",
    rules: str | RuleSet = "official",
    strategies: str = "random",
    seed: int = 0,
    **changes,
) -> Outcome:
    """Play one round from a chosen deal.

    ``hands[s]`` is seat s's hand, ``first`` the card turned to start the discard pile,
    ``draw`` the draw pile from its top down. The deck is exactly these cards. Rule
    changes are keyword arguments (``stacking="same"``).
    """
    rs = resolve(rules)
    if changes:
        rs = rs.replace(**changes)
    n = len(hands)
    dealt = [cards(h) for h in hands]
    size = len(dealt[0])
    assert all(len(h) == size for h in dealt), "scripted hands must have the same size"
    rs = rs.replace(hand_size=size)
    seq = [k for h in dealt for k in h] + cards(first) + cards(draw)
    order = np.array(seq[::-1], dtype=np.int8)  # the kernel deals from the end
    deck = np.bincount(order, minlength=N_KINDS).astype(np.int16)
    sid, sp, _ = parse_seats(strategies, n)
    out, rd, hands_arr, hinfo, pile, disc, _ = run_one(
        rs.to_array(), sid, sp, deck, rs.points_table(), n, seed, 0, order, 1, 0
    )
    row = rounds_frame(out[None, :], n, 0).iloc[0].to_dict()
    return Outcome(row, rd.game_state, hands_arr[:n].copy(), pile, disc)
