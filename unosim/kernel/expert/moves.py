"""The moves the ``expert`` searches (``expert_search``): the candidates at a stop of the
turn loop (each card, with each colour named or swap target, a declared card also with
each opponent its ``chosen`` step may pick, drawing, challenging, stacking) and the
rollout policy's own move among them.
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.kinds import (
    COLOUR,
    DRAW_TWO,
    KIND_AT,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_COLOURS,
    N_KINDS,
    N_NUMBERS,
    N_RANKS,
    RANK,
    SEVEN,
    WILD_DRAW_FOUR,
)
from ..core.layout import (
    DC_STACKS,
    DRAW_ONE,
    G_CHALLENGEABLE,
    G_DRAWN,
    H_MASK,
    H_TOTAL,
    H_WILD_MASK,
    N_H,
    R_DRAW_RULE,
    R_MULTI_PLAY,
    R_SEVEN_ZERO,
    R_STACKING,
    STACK_NONE,
)
from ..core.piles import remove_card
from ..core.state import copy_scalars
from ..rules.declared import choice, chooses, names_colour
from ..rules.effects import ALONE
from ..rules.family import fixed_rules, table_rules
from ..rules.legal import can_stack, is_legal, lone_card_blocked
from ..rules.pending import FORCE_CHALLENGE, FORCE_DRAWN, FORCE_KEEP
from ..strategies.decide import (
    choose_card,
    choose_colour,
    choose_stack,
    choose_target,
    will_challenge,
)
from .params import AT_DRAWN, AT_PENALTY, SCOPE_ALL


@called
def _variants(tb, rd, p, n, k, force, scope, cand, ccol, m):
    """Append the ways of playing ``k`` (as ``force``, a card or ``FORCE_DRAWN``) to
    ``cand``/``ccol`` from index ``m``: a wild-type card once per colour it could name,
    a 7 under Seven-Zero (``scope`` all, not a last card) once per seat to swap with,
    another card once (``ccol`` -1) and, under multi-card play (``scope`` all, 8.6) when
    it could take extra cards, once more alone (``ALONE``); a declared card as
    ``_declared_variants``. Returns the new count."""
    if k >= N_BUILTIN_KINDS:
        return _declared_variants(tb, rd, p, n, k, force, scope, cand, ccol, m)
    if k >= N_COLOURED:
        for c in range(N_COLOURS):
            cand[m] = force
            ccol[m] = c
            m += 1
    elif (
        RANK[k] == SEVEN
        and scope == SCOPE_ALL
        and table_rules(tb)[R_SEVEN_ZERO] == 1
        and rd.hand_summary[p, H_TOTAL] > 1
    ):
        for q in range(n):
            if q != p:
                cand[m] = force
                ccol[m] = q
                m += 1
    else:
        cand[m] = force
        ccol[m] = -1
        m += 1
        if (
            force >= 0
            and scope == SCOPE_ALL
            and fixed_rules(tb)[R_MULTI_PLAY] == 1
            and _has_extra(rd, p, k)
        ):
            cand[m] = force  # 8.6: the card alone, not with the policy's extra cards
            ccol[m] = ALONE
            m += 1
    return m


@inlined
def _searches_opponent(tb, rd, p, k, scope):
    """Does the search try each opponent of declared ``k``'s first ``chosen`` step
    (``scope`` all, not ``p``'s last card)?"""
    return scope == SCOPE_ALL and rd.hand_summary[p, H_TOTAL] > 1 and chooses(tb, k)


@called
def _declared_variants(tb, rd, p, n, k, force, scope, cand, ccol, m):
    """``_variants`` of a declared ``k``: once per colour it could name if it names one,
    and (``scope`` all, not a last card) once per opponent its first ``chosen`` step
    could pick; ``ccol``: ``declared.choice``, or the colour alone, or -1 (nothing to
    choose)."""
    colours = N_COLOURS if names_colour(tb, k) else 1
    targets = _searches_opponent(tb, rd, p, k, scope)
    for c in range(colours):
        if not targets:
            cand[m] = force
            ccol[m] = c if colours > 1 else -1
            m += 1
            continue
        for q in range(n):
            if q != p:
                cand[m] = force
                ccol[m] = choice(c, q)
                m += 1
    return m


@called
def _has_extra(rd, p, k):
    """8.6: does ``p`` hold a card it could add to a play of the coloured ``k`` (a copy,
    or the next number of its colour up or down)?"""
    hands = rd.hands
    if hands[p, k] > 1:
        return True
    r = RANK[k]
    if r >= N_NUMBERS:
        return False
    c = COLOUR[k] * N_RANKS
    return (r + 1 < N_NUMBERS and hands[p, c + r + 1] > 0) or (r > 0 and hands[p, c + r - 1] > 0)


@called
def candidates(tb, rd, p, n, at, draw, bluff, scope, cand, ccol):
    """Seat ``p``'s choices at the decision ``at`` into ``cand``/``ccol`` (``turn_loop``'s
    ``force`` and ``colour``). A normal turn: each legal card (``_variants``), drawing
    (-1) when ``draw`` is 1 or nothing is legal, and with ``bluff`` 1 an illegal Wild
    Draw Four (4.3) when held. Facing a penalty: a challenge (4.3), each stackable card
    (8.1, 8.8), taking it (-1). A legal card drawn: playing it (``FORCE_DRAWN``), and
    keeping it (``FORCE_KEEP``) under ``draw_rule = one`` (4.2). Returns how many."""
    g, hands, hinfo = rd.game_state, rd.hands, rd.hand_summary
    m = 0
    if at == AT_DRAWN:
        m = _variants(tb, rd, p, n, g[G_DRAWN] - 1, FORCE_DRAWN, scope, cand, ccol, m)
        if table_rules(tb)[R_DRAW_RULE] == DRAW_ONE:
            cand[m] = FORCE_KEEP
            ccol[m] = -1
            m += 1
        return m
    if at == AT_PENALTY:
        if g[G_CHALLENGEABLE] == 1:
            cand[m] = FORCE_CHALLENGE
            ccol[m] = -1
            m += 1
        if table_rules(tb)[R_STACKING] != STACK_NONE and not lone_card_blocked(tb, rd, p):
            for c in range(N_COLOURS):
                k = c * N_RANKS + DRAW_TWO
                if hands[p, k] > 0 and can_stack(tb, rd, k):
                    cand[m] = k
                    ccol[m] = -1
                    m += 1
            if hands[p, WILD_DRAW_FOUR] > 0 and can_stack(tb, rd, WILD_DRAW_FOUR):
                m = _variants(tb, rd, p, n, WILD_DRAW_FOUR, WILD_DRAW_FOUR, scope, cand, ccol, m)
            if fixed_rules(tb)[DC_STACKS] != 0:  # declared ``stack`` cards
                for k in range(N_BUILTIN_KINDS, N_KINDS):
                    if hands[p, k] > 0 and can_stack(tb, rd, k):
                        m = _variants(tb, rd, p, n, k, k, scope, cand, ccol, m)
        cand[m] = -1
        ccol[m] = -1
        return m + 1
    if lone_card_blocked(tb, rd, p):  # 8.8: no legal play, it draws
        cand[0] = -1
        ccol[0] = -1
        return 1
    for c in range(N_COLOURS):
        mask = np.int64(hinfo[p, H_MASK + c])
        r = 0
        while mask != 0:
            if mask & 1:
                k = KIND_AT[c, r]
                if is_legal(tb, rd, p, k):
                    m = _variants(tb, rd, p, n, k, k, scope, cand, ccol, m)
            mask >>= 1
            r += 1
    mask = np.int64(hinfo[p, H_WILD_MASK])
    i = 0
    while mask != 0:
        if mask & 1:
            k = N_COLOURED + i
            if is_legal(tb, rd, p, k) or (bluff == 1 and k == WILD_DRAW_FOUR):
                m = _variants(tb, rd, p, n, k, k, scope, cand, ccol, m)
        mask >>= 1
        i += 1
    if draw == 1 or m == 0:
        cand[m] = -1
        ccol[m] = -1
        m += 1
    return m


@called
def _detail(tb, w, p, k, scope):
    """The colour the rollout policy names after playing ``k`` (wild-type), or the seat
    its 7 swaps with (Seven-Zero), or -1: ``_variants``' ``ccol`` of its move. A declared
    card's opponent is the one the policy would choose right after the play (a ``chosen``
    step after steps that move cards may pick another: the candidate taken for the
    policy's move then differs from it in that opponent)."""
    if k >= N_BUILTIN_KINDS:
        targets = _searches_opponent(tb, w, p, k, scope)
        remove_card(w, p, k)
        c = choose_colour(tb, w, p, np.int64(1)) if names_colour(tb, k) else -1
        if not targets:
            return c
        return choice(max(c, 0), choose_target(tb, w, p))
    if k >= N_COLOURED:
        remove_card(w, p, k)
        return choose_colour(tb, w, p, np.int64(1))
    if (
        RANK[k] == SEVEN
        and scope == SCOPE_ALL
        and table_rules(tb)[R_SEVEN_ZERO] == 1
        and w.hand_summary[p, H_TOTAL] > 1
    ):
        remove_card(w, p, k)
        return choose_target(tb, w, p)
    return -1


@called
def _policy_move(tb, rd, p, w, n, at, scope, m, cand, ccol):
    """The index of the rollout policy's own choice among the ``m`` candidates at the
    decision ``at``, or -1 (asked on a copy ``w``, with its rollout streams: the game's
    are not touched)."""
    copy_scalars(rd, w)
    for q in range(n):
        for k in range(N_KINDS):
            w.hands[q, k] = rd.hands[q, k]
        for j in range(N_H):
            w.hand_summary[q, j] = rd.hand_summary[q, j]
    for k in range(N_KINDS):
        w.disc[k] = rd.disc[k]
    if at == AT_DRAWN:  # every strategy plays a legal card drawn
        force = np.int64(FORCE_DRAWN)
        detail = _detail(tb, w, p, rd.game_state[G_DRAWN] - 1, scope)
    elif at == AT_PENALTY:
        force = np.int64(-1)
        detail = -1
        if rd.game_state[G_CHALLENGEABLE] == 1 and will_challenge(tb, w, p):
            force = np.int64(FORCE_CHALLENGE)
        elif table_rules(tb)[R_STACKING] != STACK_NONE:
            force = choose_stack(tb, w, p)
            if force >= 0:
                detail = _detail(tb, w, p, force, scope)
    else:
        force = choose_card(tb, w, p)
        detail = _detail(tb, w, p, force, scope) if force >= 0 else -1
    for c in range(m):
        if cand[c] == force and ccol[c] == detail:
            return c
    return -1
