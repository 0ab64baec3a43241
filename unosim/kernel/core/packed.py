"""The packed words of the strategy memory (``layout.MEM_NAMED``, ``layout.MEM_PLAYED``):
one helper per field, each reading or writing exactly the bits ``layout`` declares
(``*_W`` widths at the ``NAMED_*`` and ``PLAYED_*`` shifts). Counts wider than their
field are written as the field's largest value."""

from ..compile.jit import inlined
from .kinds import N_COLOURED
from .layout import (
    NAMED_COLOUR_W,
    NAMED_KIND,
    NAMED_KIND_W,
    NAMED_LACK,
    NAMED_LACK_W,
    NAMED_NEXT,
    NAMED_NEXT_W,
    NAMED_SIZE,
    NAMED_SIZE_W,
    PLAYED_COLOUR,
    PLAYED_COLOUR_W,
    PLAYED_KIND_W,
    PLAYED_SIZE,
    PLAYED_SIZE_W,
    PLAYED_TOP,
    PLAYED_TOP_W,
)

NAMED_SIZE_MAX = (1 << NAMED_SIZE_W) - 1
NAMED_NEXT_MAX = (1 << NAMED_NEXT_W) - 1
PLAYED_SIZE_MAX = (1 << PLAYED_SIZE_W) - 1


@inlined
def field(word, shift, width):
    """The ``width`` bits of ``word`` from bit ``shift`` on, as a non-negative integer."""
    return (word >> shift) & ((1 << width) - 1)


@inlined
def pack_played(k, colour, top, size):
    """The ``MEM_PLAYED`` word of card ``k`` played on ``colour`` and ``top`` by a seat
    then left with ``size`` cards."""
    return (
        k
        + 1
        + (colour << PLAYED_COLOUR)
        + (top << PLAYED_TOP)
        + (min(size, PLAYED_SIZE_MAX) << PLAYED_SIZE)
    )


@inlined
def played_kind(word):
    """The card of a non-zero ``MEM_PLAYED`` word."""
    return field(word, 0, PLAYED_KIND_W) - 1


@inlined
def played_colour(word):
    """The colour in play before the card of a ``MEM_PLAYED`` word."""
    return field(word, PLAYED_COLOUR, PLAYED_COLOUR_W)


@inlined
def played_top(word):
    """The top card before the card of a ``MEM_PLAYED`` word."""
    return field(word, PLAYED_TOP, PLAYED_TOP_W)


@inlined
def played_size(word):
    """The cards its player held after the play of a ``MEM_PLAYED`` word."""
    return field(word, PLAYED_SIZE, PLAYED_SIZE_W)


@inlined
def pack_named(colour, size, lack, k, nxt):
    """The ``MEM_NAMED`` word of card ``k`` (wild-type or declared) played, naming
    ``colour``, by a seat then left with ``size`` cards, whose hand lacked ``lack``
    (``MEM_SHORT`` bits), the next player holding ``nxt`` cards."""
    return (
        colour
        + 1
        + (min(size, NAMED_SIZE_MAX) << NAMED_SIZE)
        + (lack << NAMED_LACK)
        + ((k - N_COLOURED) << NAMED_KIND)
        + (min(nxt, NAMED_NEXT_MAX) << NAMED_NEXT)
    )


@inlined
def named_colour(word):
    """The colour named in a ``MEM_NAMED`` word (-1 for the word 0: nothing known)."""
    return field(word, 0, NAMED_COLOUR_W) - 1


@inlined
def named_size(word):
    """The cards its player held after the play of a ``MEM_NAMED`` word."""
    return field(word, NAMED_SIZE, NAMED_SIZE_W)


@inlined
def named_lack(word):
    """The ``MEM_SHORT`` bits its player was shown to lack by a ``MEM_NAMED`` word."""
    return field(word, NAMED_LACK, NAMED_LACK_W)


@inlined
def named_kind(word):
    """The card of a ``MEM_NAMED`` word."""
    return N_COLOURED + field(word, NAMED_KIND, NAMED_KIND_W)


@inlined
def named_next(word):
    """The next player's cards when the card of a ``MEM_NAMED`` word was played."""
    return field(word, NAMED_NEXT, NAMED_NEXT_W)
