"""Seat arithmetic without integer division (a modulo costs more than a turn's logic)."""

from ..compile.jit import inlined


@inlined
def seat(p, off, n):
    """Seat ``p + off`` around a table of ``n``, for ``-n < off < n``."""
    q = p + off
    if q >= n:
        q -= n
    elif q < 0:
        q += n
    return q
