"""Outside seats: decisions made by a player outside the kernel (a Python agent).

A seat whose strategy id is ``OUTSIDE`` never decides in the kernel. Its decisions are
read, in order, from an action log kept in the round's ``rd.outside_log`` (``state.Round``;
size 0 in every round without an outside seat, which never reaches this module). When a
decision comes with the log exhausted, ``ask`` writes the decision at hand (its kind,
the legal actions as a mask over the action space ``A_*``, and the observation ``V_*``
of the seat that decides) into ``rd.outside_log``, marks the round stopped and returns -1; the
caller then makes a harmless default choice and the turn loop ends at its next check
(``G_OVER == OVER_STOPPED``). The driver (``outside_run``) restores the state of the
last checkpoint and replays from it with the longer log: the kernel is deterministic
given its random streams, so the replay reaches the same decision and goes past it.
A decision with a single legal action is made without asking.

The action space (``N_ACTIONS`` = 130), one index per action:

==========  =====================================================================
index       action
==========  =====================================================================
0..51       play coloured kind k (``kinds``: colour * 13 + rank)
52..79      play wild-type kind 52 + i naming colour c: 52 + 4 i + c
80          draw (a normal turn), or take the pending penalty
81          pass: keep the card drawn, do not jump in, add no more cards, stay
            silent instead of saying UNO
82          challenge the pending Wild Draw Four (4.3)
83..86      name colour c (83 + c)
87..96      swap hands with seat s (87 + s)
97          say UNO (4.4)
98..113     play declared wild card d (kind 59 + d) naming colour c: 98 + 4 d + c
            (a declared wild card that names no colour: 98 + 4 d only)
114..129    play declared coloured kind k (``kinds``: 63 + 4 d + colour): 114 + k - 63
==========  =====================================================================

The built-in cards' actions keep indices 0..97 whatever the rule set; the declared
cards' (docs/cards.md) follow, never legal without declared cards.

The decision kinds are ``D_*`` (``docs/players.md`` says when each comes); the colour
after one's own wild-type card is part of the play action.
"""

import numpy as np

from ..compile.jit import called
from ..core.kinds import (
    COLOUR,
    DECLARED_COLOURED,
    DECLARED_WILD,
    DRAW_TWO,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_COLOURS,
    N_KINDS,
    N_NUMBERS,
    N_RANKS,
    RANK,
    WILD_DRAW_FOUR,
)
from ..core.layout import (
    DC_STACKS,
    DRAW_ONE,
    E_DREW,
    E_PLAY,
    E_RETURN,
    G_CHALLENGEABLE,
    G_COLOUR,
    G_DIR,
    G_DISC_N,
    G_DRAWN,
    G_N,
    G_OVER,
    G_PEND_BY,
    G_PEND_DRAW,
    G_PEND_SKIP,
    G_PILE_N,
    G_PREV_COLOUR,
    G_TOP,
    H_TOTAL,
    K_TURNS,
    LAST_ANY,
    MAX_PLAYERS,
    R_DRAW_RULE,
    R_LAST_CARD,
    R_STACKING,
    STACK_NONE,
)
from ..rules.declared import names_colour, stacks
from ..rules.family import fixed_rules, table_rules
from ..rules.legal import can_stack, is_legal, is_number, lone_card_blocked

OUTSIDE = 6  # the strategy id of an outside seat (after the built-in ids of ``decide``)
OVER_STOPPED = 3  # ``G_OVER`` while a stopped round runs out to the end of its turn loop

# -- the action space -------------------------------------------------------------------
# the kinds an outside seat plays and sees: every kind, the declared ones too
N_SEEN = N_KINDS
A_PLAY = 0  # + coloured kind
A_WILD = N_COLOURED  # + 4 * (kind - N_COLOURED) + colour
A_DRAW = A_WILD + 4 * (N_BUILTIN_KINDS - N_COLOURED)  # 80
A_PASS = A_DRAW + 1
A_CHALLENGE = A_PASS + 1
A_COLOUR = A_CHALLENGE + 1  # + colour
A_SEAT = A_COLOUR + N_COLOURS  # + seat
A_UNO = A_SEAT + MAX_PLAYERS
A_DECL_WILD = A_UNO + 1  # 98: + 4 * (kind - DECLARED_WILD) + colour
A_DECL_COLOURED = A_DECL_WILD + 4 * (DECLARED_COLOURED - DECLARED_WILD)  # 114: + kind - 63
N_ACTIONS = A_DECL_COLOURED + (N_KINDS - DECLARED_COLOURED)  # 130
N_BUILTIN_ACTIONS = A_UNO + 1  # 98: the actions of a rule set without declared cards
STACK_LO = 63  # ``V_STACKABLE`` holds the bits of kinds below, ``V_STACKABLE_HI`` the rest

# -- decision kinds -----------------------------------------------------------------------
D_TURN, D_PENALTY, D_DRAWN, D_COLOUR, D_TARGET, D_JUMP, D_EXTRA, D_UNO = range(8)
N_DECISIONS = 8

# -- rd.outside_log: the outside seats' arrays of one round (int64) --------------------------------
O_STATUS = 0  # ST_*
O_KIND = 1  # the decision at hand (ST_ASKING)
O_SEAT = 2  # ... and its seat
O_LOG_N = 3  # actions in the log (since the checkpoint)
O_CURSOR = 4  # actions of the log read so far (by this replay, or up to the live stop)
O_HIST_N = 5  # public events so far (the history keeps the last ``O_HIST_CAP``)
O_CK_HIST = 6  # ``O_HIST_N`` at the checkpoint
O_CK_P = 7  # the seat to act at the checkpoint; -1: the round's start
O_CK_STOP = 8  # 1: a stop before an outside seat's decision; 2: an expert seat's, searched
O_HIST_CAP = 9  # rows of the history
O_VOLUNTARY = 10  # the rule voluntary_draw (it lives outside the rules array)
O_ASKED = 11  # decisions asked so far (across replays: the stops)
O_SEED = 12  # the game's key: root seed
O_GAME = 13  # ... and game index
O_DIRTY = 14  # 1: the round ran on past its stop (``advance`` restores the checkpoint);
# 2: the round waits at a stop of the turn loop, untouched since (``O_LIVE_P``'s decision)
O_CK_FORCE = 15  # O_CK_STOP == 2 (an expert seat's stop): the move its search chose
O_CK_COLOUR = 16  # ... and its colour (``round.turn_loop``'s force and colour)
O_LIVE_P = 17  # O_DIRTY == 2: the seat whose decision the round waits at
N_OH = 18
LOG_CAP = 512  # decisions between two checkpoints at most
O_LOG = N_OH
O_MASK = O_LOG + LOG_CAP  # + action: 1 when legal
# the observation, + field (documented in ``unosim/sim/outside.py``)
O_OBS = O_MASK + N_ACTIONS
(
    V_SEAT,
    V_N,
    V_KIND,
    V_TOP,
    V_COLOUR,
    V_DIR,
    V_PEND_DRAW,
    V_PEND_SKIP,
    V_CHALLENGEABLE,
    V_PEND_BY,
    V_STACKABLE,
    V_PILE_N,
    V_DISC_N,
    V_TURN,
    V_CARD,
    V_FIRST,
    V_STEP,
    V_BLUFF,
    V_PREV_COLOUR,
    V_STACKABLE_HI,
) = range(20)
V_SIZES = 20  # + seat
V_HAND = V_SIZES + MAX_PLAYERS  # + kind
V_DISC = V_HAND + N_SEEN  # + kind
N_V = V_DISC + N_SEEN
O_HIST = O_OBS + N_V  # rows of HIST_W: type, seat, kind, flags, aux
HIST_W = 5
ST_RUNNING, ST_ASKING, ST_DONE = 0, 1, 2


def ob_size(hist_cap):
    """Length of ``rd.outside_log`` (the outside seats' log and decision).

    Parameters
    ----------
    hist_cap : int
        Rows of history kept.

    Returns
    -------
    int
        The length of the int64 array ``rd.outside_log``.
    """
    return O_HIST + HIST_W * hist_cap


@called
def history_event(rd, typ, p, k, flags, aux):
    """A public event into the history ring of ``rd.outside_log`` (``trace._write_event``): what
    the table sees of it (a card drawn is hidden, so is whether a play was a bluff)."""
    ob = rd.outside_log
    cap = ob[O_HIST_CAP]
    i = ob[O_HIST_N]
    ob[O_HIST_N] = i + 1
    if cap == 0:
        return
    j = O_HIST + (i % cap) * HIST_W
    if typ == E_DREW:
        k = -1
    if typ == E_PLAY:
        flags = 0
    if typ == E_RETURN:
        aux = 0
    ob[j] = typ
    ob[j + 1] = p
    ob[j + 2] = k
    ob[j + 3] = flags
    ob[j + 4] = aux


@called
def play_action(k, c):
    """The action playing a card.

    Parameters
    ----------
    k : int64
        The card's kind (``kinds``).
    c : int64
        The colour it names when wild-type (0 for a declared wild that names none).

    Returns
    -------
    int64
        The action's index (``A_*``).
    """
    if k < N_COLOURED:
        return np.int64(A_PLAY + k)
    if k < DECLARED_WILD:
        return np.int64(A_WILD + 4 * (k - N_COLOURED) + c)
    if k < DECLARED_COLOURED:
        return np.int64(A_DECL_WILD + 4 * (k - DECLARED_WILD) + c)
    return np.int64(A_DECL_COLOURED + k - DECLARED_COLOURED)


@called
def action_card(a):
    """What a play action plays.

    Parameters
    ----------
    a : int64
        An index of the action space (``A_*``).

    Returns
    -------
    tuple
        (kind, colour) as int64 (colour -1 for a coloured kind), or (-1, -1) for an
        action that plays no card.
    """
    if A_PLAY <= a < A_WILD:
        return np.int64(a - A_PLAY), np.int64(-1)
    if A_WILD <= a < A_DRAW:
        return np.int64(N_COLOURED + (a - A_WILD) // 4), np.int64((a - A_WILD) % 4)
    if A_DECL_WILD <= a < A_DECL_COLOURED:
        return np.int64(DECLARED_WILD + (a - A_DECL_WILD) // 4), np.int64((a - A_DECL_WILD) % 4)
    if A_DECL_COLOURED <= a < N_ACTIONS:
        return np.int64(DECLARED_COLOURED + a - A_DECL_COLOURED), np.int64(-1)
    return np.int64(-1), np.int64(-1)


@called
def _play_variants(tb, ob, k):
    """Mark the play actions of kind ``k`` (a wild-type kind once per colour, a
    declared wild card that names no colour once)."""
    if COLOUR[k] >= 0:
        ob[O_MASK + play_action(k, np.int64(-1))] = 1
    elif not names_colour(tb, k):
        ob[O_MASK + play_action(k, np.int64(0))] = 1
    else:
        for c in range(N_COLOURS):
            ob[O_MASK + play_action(k, np.int64(c))] = 1


@called
def fill_mask(tb, rd, p, kind, card, first, step):
    """The legal actions of seat ``p`` at decision ``kind`` into ``rd.outside_log[O_MASK:]``;
    ``card``: the card drawn (``D_DRAWN``), to jump in with (``D_JUMP``), the last card
    so far (``D_EXTRA``, whose first card is ``first`` and run step ``step``). Returns
    how many, and whether a Wild Draw Four would be a bluff (``D_TURN``)."""
    ob = rd.outside_log
    hands = rd.hands
    g = rd.game_state
    n = g[G_N]
    for a in range(N_ACTIONS):
        ob[O_MASK + a] = 0
    bluff = 0
    if kind == D_TURN:
        legal = 0
        if not lone_card_blocked(tb, rd, p):  # 8.8: a lone card it may not go out on
            for k in range(N_SEEN):
                if hands[p, k] > 0:
                    if is_legal(tb, rd, p, np.int64(k)):
                        _play_variants(tb, ob, np.int64(k))
                        legal += 1
                    elif k == WILD_DRAW_FOUR:  # 4.3: a bluff is allowed, and flagged
                        _play_variants(tb, ob, np.int64(k))
                        bluff = 1
        if legal == 0 or ob[O_VOLUNTARY] == 1:  # 4.2: voluntary_draw
            ob[O_MASK + A_DRAW] = 1
    elif kind == D_PENALTY:
        if g[G_CHALLENGEABLE] == 1:
            ob[O_MASK + A_CHALLENGE] = 1
        if table_rules(tb)[R_STACKING] != STACK_NONE and not lone_card_blocked(tb, rd, p):
            for c in range(N_COLOURS):
                k = np.int64(c * N_RANKS + DRAW_TWO)
                if hands[p, k] > 0 and can_stack(tb, rd, k):
                    _play_variants(tb, ob, k)
            k = np.int64(WILD_DRAW_FOUR)
            if hands[p, k] > 0 and can_stack(tb, rd, k):
                _play_variants(tb, ob, k)
            if fixed_rules(tb)[DC_STACKS] != 0:  # declared cards that stack (docs/cards.md)
                for k in range(N_BUILTIN_KINDS, N_KINDS):
                    if hands[p, k] > 0 and can_stack(tb, rd, np.int64(k)):
                        _play_variants(tb, ob, np.int64(k))
        ob[O_MASK + A_DRAW] = 1
    elif kind == D_DRAWN:
        _play_variants(tb, ob, card)
        if table_rules(tb)[R_DRAW_RULE] == DRAW_ONE:
            ob[O_MASK + A_PASS] = 1
    elif kind == D_COLOUR:
        for c in range(N_COLOURS):
            ob[O_MASK + A_COLOUR + c] = 1
    elif kind == D_TARGET:
        for q in range(n):
            if q != p:
                ob[O_MASK + A_SEAT + q] = 1
    elif kind == D_JUMP:
        ob[O_MASK + A_PLAY + card] = 1
        ob[O_MASK + A_PASS] = 1
    elif kind == D_EXTRA:
        # 8.6: copies of the first card before any run, then a same-colour run of
        # numbers one step at a time in one direction; 8.8: emptying the hand only
        # with number cards (then every card of the play is one)
        last_out = rd.hand_summary[p, H_TOTAL] == 1
        if step == 0 and hands[p, first] > 0 and not (last_out and not _all_numbers(tb, first)):
            ob[O_MASK + A_PLAY + first] = 1
        r = RANK[card]
        if r < N_NUMBERS:
            base = COLOUR[card] * N_RANKS
            for d in (-1, 1):
                if (
                    (step == 0 or step == d)
                    and 0 <= r + d < N_NUMBERS
                    and hands[p, base + r + d] > 0
                    and not (last_out and not _all_numbers(tb, first))
                ):
                    ob[O_MASK + A_PLAY + base + r + d] = 1
        ob[O_MASK + A_PASS] = 1
    else:  # D_UNO
        ob[O_MASK + A_UNO] = 1
        ob[O_MASK + A_PASS] = 1
    m = 0
    for a in range(N_ACTIONS):
        m += ob[O_MASK + a]
    return m, bluff


@called
def _all_numbers(tb, first):
    """8.8 for a multi-card play starting with ``first``: may it empty the hand? Its
    extra cards are copies of ``first`` or, after a number, numbers."""
    return fixed_rules(tb)[R_LAST_CARD] == LAST_ANY or is_number(first)


@called
def observe(tb, rd, p, kind, card, first, step, bluff):
    """What seat ``p`` may know now (RULES.md: its hand, the public state and every
    hand's size) into ``rd.outside_log[O_OBS:]``."""
    ob = rd.outside_log
    g = rd.game_state
    o = O_OBS
    n = g[G_N]
    ob[o + V_SEAT] = p
    ob[o + V_N] = n
    ob[o + V_KIND] = kind
    ob[o + V_TOP] = g[G_TOP]
    ob[o + V_COLOUR] = g[G_COLOUR]
    ob[o + V_DIR] = g[G_DIR]
    ob[o + V_PEND_DRAW] = g[G_PEND_DRAW]
    ob[o + V_PEND_SKIP] = g[G_PEND_SKIP]
    ob[o + V_CHALLENGEABLE] = g[G_CHALLENGEABLE]
    ob[o + V_PEND_BY] = g[G_PEND_BY] if g[G_PEND_DRAW] > 0 else -1
    st = np.int64(0)
    hi = np.int64(0)
    if g[G_PEND_DRAW] > 0:
        for k in range(N_SEEN):
            if stacks(tb, np.int64(k)) and can_stack(tb, rd, np.int64(k)):
                if k < STACK_LO:
                    st |= np.int64(1) << k
                else:
                    hi |= np.int64(1) << (k - STACK_LO)
    ob[o + V_STACKABLE] = st
    ob[o + V_STACKABLE_HI] = hi
    ob[o + V_PILE_N] = g[G_PILE_N]
    ob[o + V_DISC_N] = g[G_DISC_N]
    ob[o + V_TURN] = rd.counters[K_TURNS]
    ob[o + V_CARD] = card
    ob[o + V_FIRST] = first
    ob[o + V_STEP] = step
    ob[o + V_BLUFF] = bluff
    ob[o + V_PREV_COLOUR] = g[G_PREV_COLOUR]
    for q in range(MAX_PLAYERS):
        ob[o + V_SIZES + q] = rd.hand_summary[q, H_TOTAL] if q < n else 0
    for k in range(N_SEEN):
        ob[o + V_HAND + k] = rd.hands[p, k]
        ob[o + V_DISC + k] = rd.disc[k]


# -- the stepwise game's room (``kernel.stepwise.turns``), after the history of a longer ``ob``
W_SINGLE = 0  # 1: a decision with a single legal action is asked too
W_OVERRIDE = 1  # ``step``'s stream carried over a fresh deal (1: set), its seat, 4 words
W_HANDS = 7  # + seat * N_SEEN + kind: every hand at the decision asked last
VIEW_N = W_HANDS + MAX_PLAYERS * N_SEEN


@called
def view_at(ob):
    """Where the stepwise game's room starts in ``ob``, or -1 when it has none."""
    o = O_HIST + HIST_W * ob[O_HIST_CAP]
    return o if ob.shape[0] >= o + VIEW_N else np.int64(-1)


@called
def keep_hands(rd):
    """Every hand at the decision asked into the room (the round may run past it)."""
    o = view_at(rd.outside_log)
    if o >= 0:
        for q in range(rd.game_state[G_N]):
            for k in range(N_SEEN):
                rd.outside_log[o + W_HANDS + q * N_SEEN + k] = rd.hands[q, k]


@called
def ask(tb, rd, p, kind, card, first, step):
    """Seat ``p``'s action at decision ``kind`` (``fill_mask``'s arguments): the next
    one of the log, the only legal one, or -1 after stopping the round there (and
    while a stopped round runs out)."""
    ob = rd.outside_log
    if ob[O_STATUS] != ST_RUNNING:
        return -1
    m, bluff = fill_mask(tb, rd, p, kind, card, first, step)
    if m == 1 and not (
        view_at(ob) >= 0 and ob[view_at(ob) + W_SINGLE] == 1
    ):  # (kernel.stepwise.turns)
        for a in range(N_ACTIONS):
            if ob[O_MASK + a] == 1:
                return a
    c = ob[O_CURSOR]
    if c < ob[O_LOG_N]:
        ob[O_CURSOR] = c + 1
        return ob[O_LOG + c]
    observe(tb, rd, p, kind, card, first, step, bluff)
    keep_hands(rd)
    ob[O_STATUS] = ST_ASKING
    ob[O_KIND] = kind
    ob[O_SEAT] = p
    ob[O_ASKED] += 1
    rd.game_state[G_OVER] = OVER_STOPPED  # the turn loop ends at its next check
    return -1


@called
def at_stop(g):
    """The decision an outside seat's stop of ``round._turns`` is at."""
    if g[G_DRAWN] > 0:
        return np.int64(D_DRAWN)
    if g[G_PEND_DRAW] > 0:
        return np.int64(D_PENALTY)
    return np.int64(D_TURN)
