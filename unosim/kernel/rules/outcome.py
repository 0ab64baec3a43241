"""UNO calls, penalties, the turn limit and the end of a round (RULES.md 4.4, 5, 6, 7):
what every play, special turn and declared card may end with. Functions take the
round's ``state.Table`` ``tb`` and ``state.Round`` ``rd``, then scalars.
"""

from ..compile.jit import called, inlined
from ..core.index import ix
from ..core.layout import (
    E_PENALTY,
    E_UNO,
    G_DIR,
    G_N,
    G_OVER,
    G_PEND_DRAW,
    G_WINNER,
    H_TOTAL,
    K_MAX_STACK,
    K_TURNS,
    K_UNO_PENALTIES,
    R_CATCH_UNO,
    R_MAX_TURNS,
    R_UNO_PENALTY,
    S_TABLE,
)
from ..core.piles import draw_n, hand_points
from ..core.rng import chance32
from ..core.seats import seat
from ..core.trace import trace_event
from ..strategies.decide import forgets_uno
from .family import fixed_rules, table_rules

OVER_WON, OVER_TRUNCATED = 1, 2


@called
def penalise(tb, rd, p):
    """7: a penalised player's hand points go to their penalty total (for matches)."""
    pen = rd.penalties
    pen[p] += hand_points(tb, rd, p)


@inlined
def uno_check(tb, rd, p, outside):
    """4.4: a player left with one card after a play may forget UNO and be caught
    (``outside``: 0 if no seat is an outside one)."""
    count = rd.counters
    hinfo = rd.hand_summary
    st = rd.streams
    rules = fixed_rules(tb)
    if hinfo[ix(p), H_TOTAL] == 1 and forgets_uno(tb, rd, p, outside):
        if chance32(st, S_TABLE, rules[R_CATCH_UNO]):
            count[K_UNO_PENALTIES] += 1
            trace_event(rd, E_UNO, p, -1, 0, table_rules(tb)[R_UNO_PENALTY])
            penalise(tb, rd, p)
            draw_n(rd, p, table_rules(tb)[R_UNO_PENALTY])


@inlined
def take_turn(tb, rd):
    """6: the max_turns limit is checked before every turn (jump-ins included); True
    when the turn may be taken (and is counted)."""
    g = rd.game_state
    count = rd.counters
    rules = fixed_rules(tb)
    if count[K_TURNS] >= rules[R_MAX_TURNS]:
        g[G_OVER] = OVER_TRUNCATED
        return False
    count[K_TURNS] += 1
    return True


@inlined
def add_penalty(rd, amount):
    g = rd.game_state
    count = rd.counters
    g[G_PEND_DRAW] += amount
    if g[G_PEND_DRAW] > count[K_MAX_STACK]:
        count[K_MAX_STACK] = g[G_PEND_DRAW]


@inlined
def win(rd, p):
    """5: ``p`` has no cards; the next player first draws any pending penalty."""
    g = rd.game_state
    if g[G_PEND_DRAW] > 0:
        nxt = seat(p, g[G_DIR], g[G_N])
        amount = g[G_PEND_DRAW]
        g[G_PEND_DRAW] = 0
        trace_event(rd, E_PENALTY, nxt, -1, 0, amount)
        draw_n(rd, nxt, amount)
    g[G_OVER] = OVER_WON
    g[G_WINNER] = p
