"""What a seat of the stepwise game may know, as float32 tensors in [0, 1]: the
observation (``T_FIELDS``, ``N_T`` values) and the information state (the observation,
then the last ``H_EVENTS`` public events), read from a game's ``ob`` (``kernel.stepwise.turns``)
or a batch's rows (``outside_run``)."""

from ..compile.jit import called, jitted
from ..core.layout import MAX_PLAYERS
from ..outside.protocol import (
    D_DRAWN,
    D_EXTRA,
    HIST_W,
    N_SEEN,
    O_HIST,
    O_HIST_CAP,
    O_HIST_N,
    O_OBS,
    O_STATUS,
    ST_ASKING,
    STACK_LO,
    V_BLUFF,
    V_CARD,
    V_CHALLENGEABLE,
    V_COLOUR,
    V_DIR,
    V_DISC,
    V_DISC_N,
    V_FIRST,
    V_HAND,
    V_KIND,
    V_N,
    V_PEND_BY,
    V_PEND_DRAW,
    V_PEND_SKIP,
    V_PILE_N,
    V_PREV_COLOUR,
    V_SEAT,
    V_SIZES,
    V_STACKABLE,
    V_STACKABLE_HI,
    V_STEP,
    V_TOP,
    V_TURN,
    W_HANDS,
    view_at,
)

# ``encode``'s slots, in order: (name, width); documented in docs/environments.md
T_FIELDS = (
    ("decision", 8),  # one-hot D_* (all 0: the round is over)
    ("hand", N_SEEN),  # the seat's cards per kind / the deck's copies of the kind
    ("top", N_SEEN),  # one-hot: the top card's kind
    ("colour", 4),  # one-hot: the colour in play
    ("previous_colour", 4),  # one-hot (all 0: none)
    ("direction", 1),  # 1: seat order, 0: reversed
    ("pending_draw", 1),  # cards pending / 20, at most 1
    ("pending_skip", 1),  # skips pending / 4, at most 1
    ("challengeable", 1),  # 1: the pending Wild Draw Four may be challenged
    ("pending_by", MAX_PLAYERS),  # one-hot, seats counted from the seat on (all 0: none)
    ("stackable", N_SEEN),  # 1: the kind may be stacked on the pending penalty
    ("hand_sizes", MAX_PLAYERS),  # cards / deck, seats counted from the seat on
    ("draw_pile", 1),  # cards / deck
    ("discard_pile", 1),  # cards / deck
    ("discarded", N_SEEN),  # the discard pile per kind / the deck's copies
    ("card", N_SEEN),  # one-hot: the card drawn / to jump in with / played last (extra)
    ("first", N_SEEN),  # one-hot: a multi-card play's first card
    ("step", 3),  # one-hot: the run's step -1, 0, +1 (extra)
    ("bluff", 1),  # 1: a Wild Draw Four now would be a bluff
    ("players", MAX_PLAYERS),  # one-hot: players - 1
    ("turn", 1),  # turns taken / 1000, at most 1
)
N_T = 0
for _name, _w in T_FIELDS:
    N_T += _w
H_EVENTS = 32  # the information state's last public events
H_W = 26 + MAX_PLAYERS + N_SEEN + 1  # an event: type one-hot, seat (from the seat on), card
N_INFO = N_T + H_EVENTS * H_W


@called
def _one(out, o, i, width):
    if 0 <= i < width:
        out[o + i] = 1.0
    return o + width


@called
def encode(ob, deck, seat, out):
    """What ``seat`` may know at the decision at hand (or at the end) as ``T_FIELDS``
    into ``out`` float32[N_T]: the deciding seat's observation ``V_*`` of ``ob``, with
    ``seat``'s own hand (``W_HANDS``) and without what only the deciding seat sees (the
    card it drew, whether its Wild Draw Four would be a bluff)."""
    v = O_OBS
    w = view_at(ob)
    for i in range(out.shape[0]):
        out[i] = 0.0
    n = ob[v + V_N]
    deck_n = 0
    for k in range(N_SEEN):
        deck_n += deck[k]
    inv = 1.0 / max(1, deck_n)
    mine = ob[v + V_SEAT] == seat
    kind = ob[v + V_KIND]
    o = _one(out, 0, kind if ob[O_STATUS] == ST_ASKING else -1, 8)
    for k in range(N_SEEN):  # the deciding seat's hand is its observation's
        if deck[k] > 0:
            h = ob[v + V_HAND + k] if mine or w < 0 else ob[w + W_HANDS + seat * N_SEEN + k]
            out[o + k] = h / deck[k]
    o += N_SEEN
    o = _one(out, o, ob[v + V_TOP], N_SEEN)
    o = _one(out, o, ob[v + V_COLOUR], 4)
    o = _one(out, o, ob[v + V_PREV_COLOUR], 4)
    out[o] = 1.0 if ob[v + V_DIR] > 0 else 0.0
    out[o + 1] = min(1.0, ob[v + V_PEND_DRAW] / 20.0)
    out[o + 2] = min(1.0, ob[v + V_PEND_SKIP] / 4.0)
    out[o + 3] = 1.0 if ob[v + V_CHALLENGEABLE] == 1 else 0.0
    o += 4
    by = ob[v + V_PEND_BY]
    o = _one(out, o, (by - seat) % n if by >= 0 else -1, MAX_PLAYERS)
    bits = ob[v + V_STACKABLE]
    hi = ob[v + V_STACKABLE_HI]
    for k in range(N_SEEN):
        if (k < STACK_LO and (bits >> k) & 1) or (k >= STACK_LO and (hi >> (k - STACK_LO)) & 1):
            out[o + k] = 1.0
    o += N_SEEN
    for i in range(n):
        out[o + i] = ob[v + V_SIZES + (seat + i) % n] * inv
    o += MAX_PLAYERS
    out[o] = ob[v + V_PILE_N] * inv
    out[o + 1] = ob[v + V_DISC_N] * inv
    o += 2
    for k in range(N_SEEN):
        if deck[k] > 0:
            out[o + k] = ob[v + V_DISC + k] / deck[k]
    o += N_SEEN
    card = ob[v + V_CARD]
    if kind == D_DRAWN and not mine:
        card = -1
    o = _one(out, o, card, N_SEEN)
    o = _one(out, o, ob[v + V_FIRST] if kind == D_EXTRA else -1, N_SEEN)
    o = _one(out, o, ob[v + V_STEP] + 1 if kind == D_EXTRA else -1, 3)
    out[o] = 1.0 if mine and ob[v + V_BLUFF] == 1 else 0.0
    o += 1
    o = _one(out, o, n - 1, MAX_PLAYERS)
    out[o] = min(1.0, ob[v + V_TURN] / 1000.0)
    return o + 1


@called
def encode_history(ob, seat, out, o):
    """The last ``H_EVENTS`` public events, newest first, into ``out[o:]`` (``H_W``
    each: type one-hot, seat counted from ``seat`` on, card one-hot or "hidden")."""
    n = ob[O_OBS + V_N]
    cap = ob[O_HIST_CAP]
    hi = ob[O_HIST_N]
    for i in range(H_EVENTS * H_W):
        out[o + i] = 0.0
    for e in range(min(H_EVENTS, min(hi, cap))):
        j = O_HIST + ((hi - 1 - e) % cap) * HIST_W
        b = o + e * H_W
        b = _one(out, b, ob[j], 26)
        q = ob[j + 1]
        b = _one(out, b, (q - seat) % n if q >= 0 else -1, MAX_PLAYERS)
        k = ob[j + 2]
        _one(out, b, k if 0 <= k < N_SEEN else N_SEEN, N_SEEN + 1)


@jitted(nogil=True)
def observation_tensor(ob, deck, seat, out):
    """What ``seat`` may know, as ``encode``.

    Parameters
    ----------
    ob : int64[ob size]
        A stepwise game's ``rd.outside_log`` (``kernel.stepwise.turns``).
    deck : int64[N_KINDS]
        Copies of each kind in the deck.
    seat : int64
        The seat.
    out : float32[N_T]
        Written, values in [0, 1].

    Returns
    -------
    None
    """
    encode(ob, deck, seat, out)


@jitted(nogil=True)
def information_state_tensor(ob, deck, seat, out):
    """What ``seat`` may know, as ``encode`` then ``encode_history``.

    Parameters
    ----------
    ob : int64[ob size]
        A stepwise game's ``rd.outside_log`` (``kernel.stepwise.turns``).
    deck : int64[N_KINDS]
        Copies of each kind in the deck.
    seat : int64
        The seat.
    out : float32[N_INFO]
        Written, values in [0, 1].

    Returns
    -------
    None
    """
    o = encode(ob, deck, seat, out)
    encode_history(ob, seat, out, o)


@jitted(nogil=True)
def observation_batch(obs, deck, out):
    """``encode`` for the deciding seat of each row of ``obs``.

    Parameters
    ----------
    obs : int64[b, ob size]
        The ``ob`` of a batch's games (``outside_run.new_games``).
    deck : int64[N_KINDS]
        Copies of each kind in the deck.
    out : float32[b, N_T]
        Written, values in [0, 1].

    Returns
    -------
    None
    """
    for i in range(obs.shape[0]):
        encode(obs[i], deck, obs[i, O_OBS + V_SEAT], out[i])
