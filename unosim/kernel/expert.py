"""The ``expert`` player: flat Monte Carlo search with the kernel's own turn loop.

Before each of its decisions with more than one choice (a normal turn, a pending Draw Two
or Wild Draw Four penalty, a legal card just drawn), the expert seat stops
``round.turn_loop`` (``stop``) and scores every candidate (``candidates``) over
``rollouts`` determinizations: the cards it cannot see are dealt at random, consistently
with what the table saw (``determinize``: ``MEM_SHORT``, ``MEM_NAMED``, ``MEM_PLAYED``),
and every candidate is played out from the same deal with the same streams (common random
numbers) by the rollout policy, to the end of the round or for ``horizon`` turns, scored
by ``_value``. The policy's own move is kept unless another beats it by more than ``z``
standard errors of the paired difference. Jump-ins, a multi-card play's extra cards and
Greninja's second colour are the policy's (decided where the turn loop cannot stop).

Each search hashes its key from the seat's stream state, the turn and the decision
without drawing from the stream, so a game depends on (seed, game) only. A rollout is a
``turn_loop`` call on a copy of the state (``search_arrays``, allocated once per chunk).

Parameters per seat: ``xp[seat, X_*]``, int64 (``z`` in hundredths, ``pad`` in
thousandths of 1 / rollouts, ``deal`` a ``DEAL_*``, ``scope`` a ``SCOPE_*``); what each
means: ``unosim.players.expert`` and ``docs/players.md``.
"""

import numpy as np

from .batch import deck_order, in_chunks
from .decide import (
    DANGER,
    HEURISTIC,
    RANDOM,
    _heuristic_card,
    choose_card,
    choose_colour,
    choose_stack,
    choose_target,
    will_challenge,
)
from .effects import ALONE, OVER_WON
from .jit import hot, jitted, kernel
from .kinds import (
    ATTACK_NONE,
    ATTACKS,
    COLOUR,
    DRAW_TWO,
    N_COLOURED,
    N_COLOURS,
    N_KINDS,
    N_NUMBERS,
    N_RANKS,
    RANK,
    SEVEN,
    SWAP_NONE,
    SWAP_ONE,
    SWAPS,
    WILD_DRAW_FOUR,
)
from .layout import (
    BLANK_SWAP_HANDS,
    DRAW_ONE,
    G_CHALLENGEABLE,
    G_COLOUR,
    G_DRAWN,
    G_N,
    G_OVER,
    G_PEND_DRAW,
    G_PILE_N,
    G_TOP,
    G_WINNER,
    H_MASK,
    H_TOTAL,
    H_WILD_MASK,
    K_TURNS,
    MAX_PLAYERS,
    MEM_NAMED,
    MEM_PLAYED,
    MEM_SHORT,
    N_COLS,
    N_H,
    N_PARAMS,
    N_RULES,
    P_BLUFF,
    R_BLANK_CARD,
    R_DRAW_RULE,
    R_MAX_TURNS,
    R_MULTI_PLAY,
    R_SEVEN_ZERO,
    R_STACKING,
    S_SEAT0,
    SHORT_RANK,
    SHORT_WILD,
    STACK_NONE,
    TR_EVENTS,
    TR_SCRIPTED,
    TR_WATCH,
)
from .legal import can_stack, is_legal, legal_copies, lone_card_blocked
from .packed import (
    named_colour,
    named_kind,
    named_lack,
    named_next,
    named_size,
    played_colour,
    played_kind,
    played_size,
    played_top,
)
from .piles import add_card, remove_card
from .rng import _GAMMA, below, chance, mix64, seed_streams
from .round import (
    FORCE_CHALLENGE,
    FORCE_DRAWN,
    FORCE_KEEP,
    FORCE_NONE,
    FORCE_POLICY,
    end_round,
    record,
    start_round,
    turn_loop,
)
from .state import Table, copy_scalars, new_round

(
    X_ROLLOUTS,
    X_HORIZON,
    X_CRN,
    X_DRAW,
    X_MODEL,
    X_Z,
    X_ENDGAME,
    X_DEAL,
    X_BLUFF,
    X_RACE,
    X_PAD,
    X_SCOPE,
    X_INFER,
    X_MORE,
    X_DEPTH,
    X_TRIES,
) = range(16)
N_X = 16
# X_SCOPE: the decisions searched
SCOPE_TURN = 0  # the normal turn's card and colour (and draw, bluff) only
SCOPE_ALL = 1  # also swap targets, penalties (challenge, stack) and the card drawn
# the decision a stop is at (``turn_loop``)
AT_TURN, AT_PENALTY, AT_DRAWN = 0, 1, 2
# the search's tally: searches, rollout turns, choices other than the policy's at each
# decision (``T_CHANGED + AT_*``), among them a 7's swap target and a card played alone
T_SEARCHES, T_TURNS, T_CHANGED, T_TARGET, T_ALONE = 0, 1, 2, 5, 6
N_TALLY = 7
DEAD = -np.inf  # ``dsum`` of a candidate dropped by racing
# X_DEAL: how the hidden cards are dealt in a determinization
DEAL_UNIFORM = 0  # uniformly, hand sizes kept
DEAL_VOIDS = 1  # ... and no card of a colour a seat is known to lack (``MEM_SHORT``)
DEAL_OPEN = 2  # the true hands (a diagnostic: the expert sees every hand)
MAX_CANDIDATES = 4 * N_KINDS + 1  # every kind (x 4 colours, 7s x targets) and a draw


@jitted()
def search_arrays(tb, deck_n):
    """The scratch of the search, allocated once per chunk: a determinized state ``b``
    and a rollout's state ``w`` (``state.Round``), the rollout ``state.Table`` ``wtb``
    (rules and strategies filled in per search; ``tb``'s deck and points), the unseen
    cards, the candidates and their scores, and a tally (``T_*``)."""
    zero = np.int64(0)  # not the literal 0: see ``jit.py``
    wtb = Table(
        np.zeros(N_RULES, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros((MAX_PLAYERS, N_PARAMS), np.float64),
        tb.deck,
        tb.points,
    )
    return (
        new_round(deck_n, zero),
        new_round(deck_n, zero),
        wtb,
        np.zeros(deck_n, np.int8),
        np.zeros(MAX_CANDIDATES, np.int64),
        np.zeros(MAX_CANDIDATES, np.int64),
        np.zeros(MAX_CANDIDATES, np.float64),
        np.zeros(MAX_CANDIDATES, np.float64),
        np.zeros(MAX_CANDIDATES, np.float64),
        np.zeros(N_TALLY, np.int64),
    )


@kernel
def _variants(tb, rd, p, n, k, force, scope, cand, ccol, m):
    """Append the ways of playing ``k`` (as ``force``, a card or ``FORCE_DRAWN``) to
    ``cand``/``ccol`` from index ``m``: a wild-type card once per colour it could name,
    a 7 under Seven-Zero (``scope`` all, not a last card) once per seat to swap with,
    another card once (``ccol`` -1) and, under multi-card play (``scope`` all, 8.6) when
    it could take extra cards, once more alone (``ALONE``). Returns the new count."""
    if k >= N_COLOURED:
        for c in range(N_COLOURS):
            cand[m] = force
            ccol[m] = c
            m += 1
    elif (
        RANK[k] == SEVEN
        and scope == SCOPE_ALL
        and tb.rules[R_SEVEN_ZERO] == 1
        and rd.hinfo[p, H_TOTAL] > 1
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
            and tb.rules[R_MULTI_PLAY] == 1
            and _has_extra(rd, p, k)
        ):
            cand[m] = force  # 8.6: the card alone, not with the policy's extra cards
            ccol[m] = ALONE
            m += 1
    return m


@kernel
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


@kernel
def candidates(tb, rd, p, n, at, draw, bluff, scope, cand, ccol):
    """Seat ``p``'s choices at the decision ``at`` into ``cand``/``ccol`` (``turn_loop``'s
    ``force`` and ``colour``). A normal turn: each legal card (``_variants``), drawing
    (-1) when ``draw`` is 1 or nothing is legal, and with ``bluff`` 1 an illegal Wild
    Draw Four (4.3) when held. Facing a penalty: a challenge (4.3), each stackable card
    (8.1, 8.8), taking it (-1). A legal card drawn: playing it (``FORCE_DRAWN``), and
    keeping it (``FORCE_KEEP``) under ``draw_rule = one`` (4.2). Returns how many."""
    g, hands, hinfo = rd.g, rd.hands, rd.hinfo
    m = 0
    if at == AT_DRAWN:
        m = _variants(tb, rd, p, n, g[G_DRAWN] - 1, FORCE_DRAWN, scope, cand, ccol, m)
        if tb.rules[R_DRAW_RULE] == DRAW_ONE:
            cand[m] = FORCE_KEEP
            ccol[m] = -1
            m += 1
        return m
    if at == AT_PENALTY:
        if g[G_CHALLENGEABLE] == 1:
            cand[m] = FORCE_CHALLENGE
            ccol[m] = -1
            m += 1
        if tb.rules[R_STACKING] != STACK_NONE and not lone_card_blocked(tb, rd, p):
            for c in range(N_COLOURS):
                k = c * N_RANKS + DRAW_TWO
                if hands[p, k] > 0 and can_stack(tb, rd, k):
                    cand[m] = k
                    ccol[m] = -1
                    m += 1
            if hands[p, WILD_DRAW_FOUR] > 0 and can_stack(tb, rd, WILD_DRAW_FOUR):
                m = _variants(tb, rd, p, n, WILD_DRAW_FOUR, WILD_DRAW_FOUR, scope, cand, ccol, m)
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
                k = c * N_RANKS + r
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


@kernel
def _seed(st, key, i, n):
    """Rollout streams ``st[:S_SEAT0 + n]`` for rollout ``i`` of the search ``key``."""
    h = mix64(key ^ (np.uint64(i) + _GAMMA * np.uint64(5)))
    for s in range(S_SEAT0 + n):
        x = mix64(h ^ (np.uint64(s) + _GAMMA * np.uint64(4)))
        for j in range(4):
            x = x + _GAMMA
            st[s, j] = mix64(x)


@kernel
def may_hold(void, k):
    """May a seat whose known lacks are ``void`` (``MEM_SHORT`` bits) hold kind ``k``?"""
    c = COLOUR[k]
    if c < 0:
        return void & SHORT_WILD == 0
    return (void >> c) & 1 == 0 and (void >> (SHORT_RANK + RANK[k])) & 1 == 0


@kernel
def _heuristic_named(tb, named, q, size):
    """What the last wild-type play of the ``heuristic`` seat ``q`` (``MEM_NAMED``
    ``named``), now holding ``size`` cards, tells: (the colour it named, the cards it has
    played since, ``MEM_SHORT`` bits it lacks); (-1, -1, 0) if nothing is known. A heuristic names
    the colour it holds most of, and plays a plain wild, or an attack wild when the next
    player holds more than ``DANGER`` cards, only with no legal coloured card (a Wild
    Draw Four only if it never bluffs): ``decide._heuristic_card``."""
    if named == 0:
        return -1, -1, 0
    slack = named_size(named) - size  # cards played since (it drew none)
    colour = named_colour(named)
    k = named_kind(named)
    danger = named_next(named) <= DANGER
    swap = SWAPS[k]
    plain = ATTACKS[k] == ATTACK_NONE and (
        swap == SWAP_NONE or (swap == SWAP_ONE and tb.rules[R_BLANK_CARD] != BLANK_SWAP_HANDS)
    )
    attack = ATTACKS[k] != ATTACK_NONE and (k != WILD_DRAW_FOUR or tb.sp[q, P_BLUFF] == 0.0)
    lack = 0
    if plain or (attack and not danger):
        lack = named_lack(named)
    return colour, slack, lack


@kernel
def _telling_play(tb, played, q, size):
    """``MEM_PLAYED`` ``played`` of seat ``q`` if its hand has changed since only by the
    plays after it (``size`` cards after it) and the play tells what the hand held (not
    a multi-card play, not a possible bluff); else 0."""
    k = played_kind(played)
    if (
        played == 0
        or played_size(played) != size
        or tb.rules[R_MULTI_PLAY] == 1
        or (k == WILD_DRAW_FOUR and tb.sp[q, P_BLUFF] > 0.0)
    ):
        return 0
    return played


@kernel
def _play_chance(tb, b, q, mem, d):
    """The chance that seat ``q``, a ``heuristic`` or ``random`` player, with its dealt
    hand in ``b`` made its last ``d`` plays (``MEM_PLAYED``, all since its hand last
    changed otherwise), each from the hand it then held (this hand, plus that card and
    the ones played after it) on the colour and top card it faced. A heuristic: 1 if it
    would have played each (``decide._heuristic_card``; the other hand sizes are
    today's), else 0; ``random`` (RULES.md 10, uniform over the physical legal cards):
    the product of each card's copies over the legal cards in that hand."""
    g = b.g
    hands = b.hands
    colour = g[G_COLOUR]
    top = g[G_TOP]
    p = 1.0
    j = 0
    while j < d and p > 0.0:
        played = mem[MEM_PLAYED + j * MAX_PLAYERS + q]
        k = np.int64(played_kind(played))
        g[G_COLOUR] = played_colour(played)
        g[G_TOP] = played_top(played)
        add_card(b, q, k)
        j += 1
        if tb.sid[q] == HEURISTIC:
            if _heuristic_card(tb, b, q) != k:
                p = 0.0
        elif is_legal(tb, b, q, k):
            p *= hands[q, k] / legal_copies(tb, b, q)
        else:
            p = 0.0
    for i in range(j):
        remove_card(b, q, np.int64(played_kind(mem[MEM_PLAYED + i * MAX_PLAYERS + q])))
    g[G_COLOUR] = colour
    g[G_TOP] = top
    return p


@kernel
def _majority(hinfo, q, colour, slack):
    """Could ``q``, with ``slack`` more cards of ``colour``, hold no colour more?"""
    for c in range(N_COLOURS):
        if hinfo[q, c] > hinfo[q, colour] + slack:
            return False
    return True


@kernel
def determinize(tb, rd, p, b, unseen, st, scripted, deal, infer, depth, tries):
    """Copy the state into ``b*`` with the opponents' hands and the draw pile dealt
    anew from the cards seat ``p`` cannot see (stream 0 of ``st``), hand sizes kept.
    ``infer`` 1: a ``heuristic`` opponent's hand is dealt again (up to ``tries`` times;
    the last deal is kept if none agrees) until it agrees with the colour it last named
    and holds none of the cards its last wild-type play showed it lacked
    (``_heuristic_named``); 2: also until it would have made its last ``depth`` plays
    (those that were its last actions, ``_telling_play``); 3: also a ``random``
    opponent's deal is kept with the chance that it made those plays (rejection
    sampling: the hands then follow the posterior given them, ``_play_chance``).

    ``scripted`` 1 keeps the pile in its dealt order (a uniform shuffle) for the
    rollouts' draws, so that every candidate meets the same sequence of cards drawn."""
    g, hands, hinfo, pile = rd.g, rd.hands, rd.hinfo, rd.pile
    bhands, bhinfo, bpile = b.hands, b.hinfo, b.pile
    n = g[G_N]
    copy_scalars(rd, b)
    b.tr[TR_SCRIPTED] = scripted  # 1: draws take the pile in its dealt order
    b.tr[TR_WATCH] = 0  # rollouts need not keep what the table saw
    m = 0
    for q in range(n):
        for j in range(N_H):
            bhinfo[q, j] = hinfo[q, j]
        for k in range(N_KINDS):
            bhands[q, k] = hands[q, k]
            if q != p:
                for _ in range(hands[q, k]):
                    unseen[m] = k
                    m += 1
    hidden = m
    for j in range(g[G_PILE_N]):
        unseen[m] = pile[j]
        m += 1
    # Fisher-Yates: opponents' cards first, then the pile's order; seeing every hand
    # (``DEAL_OPEN``), only the true pile's order is unknown
    for j in range(hidden if deal == DEAL_OPEN else 0, m - 1):
        x = j + below(st, 0, m - j)
        t = unseen[j]
        unseen[j] = unseen[x]
        unseen[x] = t
    if deal == DEAL_OPEN:
        for i in range(m - hidden):
            bpile[i] = unseen[hidden + i]
        return
    j = 0
    for q in range(n):
        if q == p:
            continue
        size = hinfo[q, H_TOTAL]
        void = rd.mem[MEM_SHORT + q] if deal == DEAL_VOIDS else 0
        # a heuristic names the colour it holds most of (``decide._scored_colour``): its
        # hand then, less the cards played since (``slack``), had no colour more
        colour = -1
        slack = -1
        if infer >= 1 and tb.sid[q] == HEURISTIC:
            colour, slack, lack = _heuristic_named(tb, rd.mem[MEM_NAMED + q], q, size)
            if deal == DEAL_VOIDS:
                void |= lack
        d = 0  # its last plays that tell what it held (``_play_chance``)
        if (infer >= 2 and tb.sid[q] == HEURISTIC) or (infer == 3 and tb.sid[q] == RANDOM):
            while (
                d < depth
                and _telling_play(tb, rd.mem[MEM_PLAYED + d * MAX_PLAYERS + q], q, size + d) != 0
            ):
                d += 1
        j0 = j
        for attempt in range(tries):
            j = j0
            for k in range(N_KINDS):
                bhands[q, k] = 0
            for c in range(N_H):
                bhinfo[q, c] = 0
            if attempt > 0:  # deal its hand anew from the cards not yet dealt
                for i in range(j0, j0 + size):
                    x = i + below(st, 0, m - i)
                    t = unseen[i]
                    unseen[i] = unseen[x]
                    unseen[x] = t
            for _ in range(size):
                if void != 0:  # the next card it may hold; none left: any card
                    for x in range(j, m):
                        if may_hold(void, unseen[x]):
                            t = unseen[j]
                            unseen[j] = unseen[x]
                            unseen[x] = t
                            break
                add_card(b, q, np.int64(unseen[j]))
                j += 1
            if (colour < 0 or _majority(bhinfo, q, colour, slack)) and (
                d == 0 or chance(st, 0, _play_chance(tb, b, q, rd.mem, d))
            ):
                break
    for i in range(m - hidden):
        bpile[i] = unseen[hidden + i]


@kernel
def _copy(b, w, n):
    """The rollout state ``w`` from the determinized ``b`` (``state.Round``)."""
    copy_scalars(b, w)
    for q in range(n):
        w.pen[q] = 0
        for k in range(N_KINDS):
            w.hands[q, k] = b.hands[q, k]
        for j in range(N_H):
            w.hinfo[q, j] = b.hinfo[q, j]
    for k in range(N_KINDS):
        w.disc[k] = b.disc[k]
    for j in range(b.g[G_PILE_N]):
        w.pile[j] = b.pile[j]


@hot
def _mean_se(dsum, dsq, c, k, pad):
    """Mean and standard error of candidate ``c``'s ``k`` paired differences from the
    policy's move, ``pad / k`` added to their variance (``X_PAD``)."""
    mean = dsum[c] / k
    var = max(0.0, dsq[c] / k - mean * mean) + pad / k
    return mean, np.sqrt(var / k)


@kernel
def _value(w, p, n, horizon):
    """1 for a win of ``p``; a round cut by the horizon scores ``p``'s share of the
    inverse hand sizes (an estimate of its chance to go out first)."""
    wg, whinfo = w.g, w.hinfo
    if wg[G_OVER] == OVER_WON:
        return 1.0 if wg[G_WINNER] == p else 0.0
    if horizon == 0:
        return 0.0
    tot = 0.0
    for q in range(n):
        tot += 1.0 / max(1, whinfo[q, H_TOTAL])
    return (1.0 / max(1, whinfo[p, H_TOTAL])) / tot


@kernel
def _detail(tb, w, p, k, scope):
    """The colour the rollout policy names after playing ``k`` (wild-type), or the seat
    its 7 swaps with (Seven-Zero), or -1: ``_variants``' ``ccol`` of its move."""
    if k >= N_COLOURED:
        remove_card(w, p, k)
        return choose_colour(tb, w, p)
    if (
        RANK[k] == SEVEN
        and scope == SCOPE_ALL
        and tb.rules[R_SEVEN_ZERO] == 1
        and w.hinfo[p, H_TOTAL] > 1
    ):
        remove_card(w, p, k)
        return choose_target(tb, w, p)
    return -1


@kernel
def _policy_move(tb, rd, p, w, n, at, scope, m, cand, ccol):
    """The index of the rollout policy's own choice among the ``m`` candidates at the
    decision ``at``, or -1 (asked on a copy ``w``, with its rollout streams: the game's
    are not touched)."""
    copy_scalars(rd, w)
    for q in range(n):
        for k in range(N_KINDS):
            w.hands[q, k] = rd.hands[q, k]
        for j in range(N_H):
            w.hinfo[q, j] = rd.hinfo[q, j]
    for k in range(N_KINDS):
        w.disc[k] = rd.disc[k]
    if at == AT_DRAWN:  # every strategy plays a legal card drawn
        force = np.int64(FORCE_DRAWN)
        detail = _detail(tb, w, p, rd.g[G_DRAWN] - 1, scope)
    elif at == AT_PENALTY:
        force = np.int64(-1)
        detail = -1
        if rd.g[G_CHALLENGEABLE] == 1 and will_challenge(tb, w, p):
            force = np.int64(FORCE_CHALLENGE)
        elif tb.rules[R_STACKING] != STACK_NONE:
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


@kernel
def search(tb, rd, n, p, xp, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally):
    """The expert seat ``p``'s choice at the decision its turn loop stopped at: returns
    its index into ``cand``/``ccol``, or -1 for the policy's own choice (not searched).

    Every candidate is played out on the same ``rollouts`` deals (``rollouts`` more,
    up to ``X_MORE`` times as many, while one leads without beating the policy's move
    by ``z`` standard errors: the first extra deal shares its key with the streams
    ``_policy_move`` breaks ties with, which only correlates the two); the rollout
    policy's own move is kept unless another candidate beats it by more than ``z``
    standard errors of their paired difference (so a small budget's noise does not make
    the expert weaker than its policy), then the best such candidate is played."""
    hinfo, st = rd.hinfo, rd.streams
    rules, sid, sp = tb.rules, tb.sid, tb.sp
    wrules, rsid, rsp, wst = wtb.rules, wtb.sid, wtb.sp, w.streams
    at = AT_TURN
    if rd.g[G_DRAWN] > 0:
        at = AT_DRAWN
    elif rd.g[G_PEND_DRAW] > 0:
        at = AT_PENALTY
    scope = xp[p, X_SCOPE]
    m = candidates(tb, rd, p, n, at, xp[p, X_DRAW], xp[p, X_BLUFF], scope, cand, ccol)
    if m == 1:
        return 0
    if at != AT_TURN and scope == SCOPE_TURN:
        return -1
    endgame = xp[p, X_ENDGAME]
    if endgame > 0:  # search only once some hand is down to ``endgame`` cards
        fewest = hinfo[p, H_TOTAL]
        for q in range(n):
            fewest = min(fewest, hinfo[q, H_TOTAL])
        if fewest > endgame:
            return -1
    rollouts = xp[p, X_ROLLOUTS]
    horizon = xp[p, X_HORIZON]
    crn = xp[p, X_CRN]
    z = xp[p, X_Z] / 100.0
    # the search's key: a hash of the seat's stream state and the turn, which leaves
    # the stream itself untouched (a search that keeps the policy's move changes nothing)
    s = S_SEAT0 + p
    key = mix64(st[s, 0] ^ mix64(st[s, 1] ^ (np.uint64(rd.count[K_TURNS]) + _GAMMA)))
    if at != AT_TURN:  # a turn may also stop at a penalty and at a card drawn
        key = mix64(key ^ np.uint64(at))
    _seed(wst, key, MAX_CANDIDATES * rollouts, n)
    base = _policy_move(tb, rd, p, w, n, at, scope, m, cand, ccol)
    ref = base if base >= 0 else 0
    for j in range(N_RULES):
        wrules[j] = rules[j]
    if horizon > 0:
        wrules[R_MAX_TURNS] = min(rules[R_MAX_TURNS], rd.count[K_TURNS] + horizon)
    for q in range(n):  # the rollout players
        own = xp[p, X_MODEL] == 1 and q != p
        rsid[q] = sid[q] if own else sid[p]
        for j in range(N_PARAMS):
            rsp[q, j] = sp[q, j] if own else sp[p, j]
    tally[T_SEARCHES] += 1
    for k in range(N_KINDS):
        b.disc[k] = rd.disc[k]
    for c in range(m):
        dsum[c] = 0.0
        dsq[c] = 0.0
    race = xp[p, X_RACE]
    pad = xp[p, X_PAD] / 1000.0
    total = rollouts  # grows by ``rollouts`` while undecided, to ``more`` x rollouts
    most = rollouts * max(1, xp[p, X_MORE])
    i = 0
    while i < total:
        dealt = False
        for c in range(m):
            if dsum[c] == DEAD:
                continue
            # with crn, one deal and one set of rollout streams serve every candidate
            j = i * MAX_CANDIDATES + (0 if crn == 1 else c)
            if crn == 0 or not dealt:
                dealt = True
                _seed(wst, key, j, n)
                determinize(
                    tb,
                    rd,
                    p,
                    b,
                    unseen,
                    wst,
                    crn,
                    xp[p, X_DEAL],
                    xp[p, X_INFER],
                    xp[p, X_DEPTH],
                    xp[p, X_TRIES],
                )
            _seed(wst, key ^ np.uint64(0x5EED), j, n)
            _copy(b, w, n)
            turn_loop(wtb, w, n, p, np.int64(0), cand[c], ccol[c])
            val[c] = _value(w, p, n, horizon)
            tally[T_TURNS] += w.count[K_TURNS] - rd.count[K_TURNS]
        for c in range(m):
            if dsum[c] != DEAD:
                d = val[c] - val[ref]
                dsum[c] += d
                dsq[c] += d * d
        k = i + 1
        if race > 0 and k % race == 0 and k < total:
            # racing: drop the candidates already clearly worse than the policy's move
            for c in range(m):
                if c != ref and dsum[c] != DEAD:
                    mean, se = _mean_se(dsum, dsq, c, k, pad)
                    if mean + z * se < 0.0:
                        dsum[c] = DEAD
        i = k
        if k == total and total < most and base >= 0:
            # undecided: a candidate ahead of the policy's move, but not by z errors
            for c in range(m):
                if c != ref and dsum[c] > 0.0:
                    mean, se = _mean_se(dsum, dsq, c, k, pad)
                    if mean <= z * se:
                        total += rollouts
                        break
    rollouts = total
    best = ref
    top = 0.0
    for c in range(m):
        if dsum[c] == DEAD:
            continue
        # with pad: a few identical differences are not a certainty
        mean, se = _mean_se(dsum, dsq, c, rollouts, pad)
        if base >= 0 and mean <= z * se:
            continue
        if mean > top:
            top = mean
            best = c
    if best == base:
        return -1  # the policy decides in the game itself, with the game's streams
    tally[T_CHANGED + at] += 1
    k = rd.g[G_DRAWN] - 1 if at == AT_DRAWN else cand[best]
    if at != AT_PENALTY and 0 <= k < N_COLOURED and ccol[best] >= 0:
        tally[T_TARGET] += 1  # a 7's swap target (a coloured card's ``ccol``)
    if ccol[best] == ALONE:
        tally[T_ALONE] += 1
    return best


@hot
def play_round_expert(
    tb, rd, n, order, scripted, xp, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally
):
    """``round.play_round`` with the expert seats (``xp[:, X_ROLLOUTS] > 0``) searching
    their decisions (``turn_loop``'s stops); ``b`` .. ``tally`` are the ``search_arrays``."""
    stop = np.int64(0)
    for q in range(n):
        if xp[q, X_ROLLOUTS] > 0:
            stop |= np.int64(1) << q
    p = start_round(tb, rd, n, order, scripted)
    rd.tr[TR_WATCH] = 1  # keep what the table saw of each play, for ``determinize``
    force = np.int64(FORCE_NONE)
    colour = np.int64(-1)
    while True:
        p = turn_loop(tb, rd, n, p, stop, force, colour)
        if rd.g[G_OVER] != 0:
            break
        c = search(tb, rd, n, p, xp, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally)
        if c >= 0:
            force = cand[c]
            colour = ccol[c]
        else:  # the policy's own choice (it plays a legal card drawn)
            force = np.int64(FORCE_DRAWN if rd.g[G_DRAWN] > 0 else FORCE_POLICY)
            colour = np.int64(-1)
    end_round(rd, p)


@jitted(nogil=True)
def run_chunk_expert(rules, sid, sp, deck, points, n, seed, first_game, out, lo, hi, xp):
    """``batch.run_chunk`` with expert seats."""
    tb = Table(rules, sid, sp, deck, points)
    order = deck_order(deck)
    zero = np.int64(0)
    rd = new_round(order.size, zero)
    b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally = search_arrays(tb, order.size)
    for i in range(lo, hi):
        seed_streams(rd.streams, seed, first_game + i, zero, S_SEAT0 + n)
        play_round_expert(
            tb, rd, n, order, zero, xp, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally
        )
        record(tb, rd, out[i], n)


def run_rounds_expert(rules, sid, sp, deck, points, n, seed, first_game, count, chunk, xp):
    """``batch.run_rounds`` with expert seats; the same games on any number of threads."""
    out = np.zeros((count, N_COLS), dtype=np.int32)

    def play(lo, hi):
        run_chunk_expert(rules, sid, sp, deck, points, n, seed, first_game, out, lo, hi, xp)

    in_chunks(play, count, chunk)
    return out


@jitted()
def run_one_expert(rules, sid, sp, deck, points, n, seed, game, order, capacity, xp):
    """One round with its trace, as ``run_rounds_expert`` plays it (``batch.run_one``):
    (row int32[N_COLS], events counted int64 (also those past ``capacity``), the trace's
    rows int32[events, EV_W])."""
    tb = Table(rules, sid, sp, deck, points)
    rd = new_round(order.size, capacity)
    b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally = search_arrays(tb, order.size)
    out = np.zeros(N_COLS, dtype=np.int32)
    zero = np.int64(0)
    seed_streams(rd.streams, seed, game, zero, S_SEAT0 + n)
    play_round_expert(
        tb, rd, n, order, zero, xp, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally
    )
    record(tb, rd, out, n)
    n_ev = min(rd.tr[TR_EVENTS], capacity)
    return out, rd.tr[TR_EVENTS], rd.trace[:n_ev].copy()


@jitted()
def tally_rounds(rules, sid, sp, deck, points, n, seed, first_game, count, xp):
    """Play games ``first_game ..`` on one thread as ``run_rounds_expert`` does; returns
    the tally (``T_*``): the searches made, the turns played in their rollouts
    (benchmarks) and the choices that were not the policy's, per decision."""
    out = np.zeros((count, N_COLS), dtype=np.int32)
    tb = Table(rules, sid, sp, deck, points)
    order = deck_order(deck)
    zero = np.int64(0)
    rd = new_round(order.size, zero)
    b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally = search_arrays(tb, order.size)
    for i in range(count):
        seed_streams(rd.streams, seed, first_game + i, zero, S_SEAT0 + n)
        play_round_expert(
            tb, rd, n, order, zero, xp, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally
        )
        record(tb, rd, out[i], n)
    return tally.copy()
