"""The per-kind tables of ``kernel/core/kinds.py`` say what each card does (RULES.md section 2,
4.3-4.6, 8.1-8.2), the kernel reads them instead of chains of kind comparisons, and the
packed memory words of ``kernel/core/packed.py`` keep each field within its declared bits."""

from __future__ import annotations

import re

import numpy as np
import pytest

from unosim.kernel import kernel_sources
from unosim.kernel.core import kinds as K
from unosim.kernel.core import layout as L
from unosim.kernel.core import packed as P


def coloured(rank):
    return {c * K.N_RANKS + rank for c in range(K.N_COLOURS)}


def kinds_with(table, value):
    return {k for k in range(K.N_KINDS) if table[k] == value}


def test_draw_penalties():
    assert kinds_with(K.DRAW_PENALTY, 2) == coloured(K.DRAW_TWO)
    assert kinds_with(K.DRAW_PENALTY, 4) == {K.WILD_DRAW_FOUR}
    assert np.count_nonzero(K.DRAW_PENALTY) == 5


def test_attacks():
    assert kinds_with(K.ATTACKS, K.ATTACK_NEXT) == coloured(K.SKIP) | coloured(K.DRAW_TWO) | {
        K.WILD_DRAW_FOUR,
        K.SNORLAX,
        K.GRENINJA,
    }
    assert kinds_with(K.ATTACKS, K.ATTACK_HEADS_UP) == coloured(K.REVERSE)
    assert kinds_with(K.ATTACKS, K.ATTACK_OTHERS) == {K.GRAYSKULL}
    assert np.count_nonzero(K.ATTACKS) == 4 * 3 + 4


def test_pending_and_swaps():
    assert kinds_with(K.PENDING, 1) == {K.SNORLAX, K.GRENINJA}
    assert kinds_with(K.SWAPS, K.SWAP_ONE) == coloured(K.SEVEN) | {K.CUSTOMIZABLE}
    assert kinds_with(K.SWAPS, K.SWAP_ROTATE) == coloured(K.ZERO)
    assert kinds_with(K.SWAPS, K.SWAP_ALL) == {K.SHUFFLE_HANDS}


@pytest.mark.parametrize("name", ["DRAW_PENALTY", "ATTACKS", "PENDING", "SWAPS"])
def test_tables_are_read_only(name):
    table = getattr(K, name)
    assert table.shape == (K.N_KINDS,) and not table.flags.writeable


# a comparison of a kind with a named kind, then "or" and another: what the tables replace
CHAIN = re.compile(
    r"== (WILD_DRAW_FOUR|SNORLAX|GRENINJA|GRAYSKULL|SHUFFLE_HANDS|CUSTOMIZABLE)\b"
    r"[^\n]*\bor\b[^\n]*== (WILD_DRAW_FOUR|SNORLAX|GRENINJA|GRAYSKULL|SHUFFLE_HANDS|CUSTOMIZABLE)\b"
)


def test_no_chains_of_kind_comparisons():
    assert CHAIN.search("if k == SNORLAX or k == GRENINJA:")  # what it finds
    hits = [
        f"{p.name}: {m.group(0)}"
        for p in kernel_sources()
        for m in CHAIN.finditer(p.read_text(encoding="utf-8"))
    ]
    assert not hits, hits


def fields(prefix, names):
    """(shift, width) of each field, in bit order (the first field starts at bit 0)."""
    return [
        (getattr(L, f"{prefix}_{n}") if i else 0, getattr(L, f"{prefix}_{n}_W"))
        for i, n in enumerate(names)
    ]


@pytest.mark.parametrize(
    "prefix, names",
    [
        ("NAMED", ["COLOUR", "SIZE", "LACK", "KIND", "NEXT"]),
        ("PLAYED", ["KIND", "COLOUR", "TOP", "SIZE"]),
    ],
)
def test_packed_fields_do_not_overlap(prefix, names):
    spans = fields(prefix, names)
    for (s0, w0), (s1, _) in zip(spans, spans[1:]):
        assert s0 + w0 <= s1
    shift, width = spans[-1]
    assert shift + width <= 63  # the words are int64


def test_packed_fields_hold_their_values():
    f = {  # the Python functions (no compile)
        n: getattr(getattr(P, n), "py_func", getattr(P, n))
        for n in dir(P)
        if n.startswith(("pack_", "named_", "played_")) and callable(getattr(P, n))
    }
    lack = (1 << (L.SHORT_RANK + K.N_ALL_RANKS)) - 1  # every MEM_SHORT bit, declared ranks too
    for k in (K.GRAYSKULL, K.N_KINDS - 1):  # the last kind: a coloured declared card
        w = f["pack_named"](3, 300, lack, k, 7)
        assert (f["named_colour"](w), f["named_size"](w), f["named_lack"](w)) == (3, 255, lack)
        assert (f["named_kind"](w), f["named_next"](w)) == (k, 7)
    assert f["named_colour"](0) == -1
    w = f["pack_played"](K.N_KINDS - 1, 3, K.N_KINDS - 1, 1000)
    assert f["played_kind"](w) == K.N_KINDS - 1 and f["played_size"](w) == 255
    assert (f["played_colour"](w), f["played_top"](w)) == (3, K.N_KINDS - 1)
