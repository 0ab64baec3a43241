"""The ``expert`` search itself (module docstring of ``expert``): its scratch arrays, the
rollout streams, the paired scores of the candidates and the choice among them.

Each search hashes its key from the seat's stream state, the turn and the decision
without drawing from the stream, so a game depends on (seed, game) only. A rollout is a
``turn_loop`` call on a copy of the state (``search_arrays``, allocated once per chunk).
"""

import math

import numpy as np

from ..compile.jit import called, inlined, jitted
from ..core.kinds import N_BUILTIN_KINDS, N_COLOURED, N_KINDS
from ..core.layout import (
    G_DRAWN,
    G_OVER,
    G_PEND_DRAW,
    G_PILE_N,
    G_WINNER,
    H_TOTAL,
    K_TURNS,
    MAX_PLAYERS,
    N_H,
    N_PARAMS,
    N_RULE_ARRAY,
    R_MAX_TURNS,
    S_SEAT0,
)
from ..core.rng import _GAMMA, mix64
from ..core.state import Table, copy_scalars, new_round
from ..drivers.round import turn_loop
from ..rules.declared import chosen_target
from ..rules.effects import ALONE
from ..rules.family import fixed_rules
from ..rules.outcome import OVER_WON
from ..strategies.decide import OUTSIDE
from .deal import determinize, reshuffle_pile
from .moves import _policy_move, candidates
from .params import (
    AT_DRAWN,
    AT_PENALTY,
    AT_TURN,
    DEAD,
    KEY_FAR,
    KEY_STRIDE,
    MAX_CANDIDATES,
    N_TALLY,
    PILE_LAZY,
    SCOPE_TURN,
    T_ALONE,
    T_CHANGED,
    T_SEARCHES,
    T_TARGET,
    T_TURNS,
    VALUE_FIT,
    X_BLUFF,
    X_CRN,
    X_CUT,
    X_DEAL,
    X_DEPTH,
    X_DRAW,
    X_ENDGAME,
    X_FUT,
    X_HORIZON,
    X_INFER,
    X_MODEL,
    X_MORE,
    X_PAD,
    X_PILE,
    X_RACE,
    X_REUSE,
    X_ROLLOUTS,
    X_SCOPE,
    X_TRIES,
    X_VALUE,
    X_Z,
)
from .value import fitted_share


@jitted()
def search_arrays(tb, deck_n):
    """The scratch of the search, allocated once per chunk: a determinized state ``b``
    and a rollout's state ``w`` (``state.Round``; ``b``'s streams hold a deal's rollout
    streams, ``search``), the rollout ``state.Table`` ``wtb``
    (rules and strategies filled in per search; ``tb``'s deck and points), the unseen
    cards, the candidates and their scores, and a tally (``T_*``)."""
    zero = np.int64(0)  # not the literal 0: see ``jit.py``
    wtb = Table(
        np.zeros(N_RULE_ARRAY, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros((MAX_PLAYERS, N_PARAMS), np.float64),
        tb.deck,
        tb.points,
        None,
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


@called
def _seed(st, key, i, n):
    """Rollout streams ``st[:S_SEAT0 + n]`` for rollout ``i`` of the search ``key``."""
    h = mix64(key ^ (np.uint64(i) + _GAMMA * np.uint64(5)))
    for s in range(S_SEAT0 + n):
        x = mix64(h ^ (np.uint64(s) + _GAMMA * np.uint64(4)))
        for j in range(4):
            x = x + _GAMMA
            st[s, j] = mix64(x)


@inlined
def _restreams(src, st, n):
    """Rollout streams ``st[:S_SEAT0 + n]`` as ``_seed`` left them in ``src``."""
    for s in range(S_SEAT0 + n):
        for j in range(4):
            st[s, j] = src[s, j]


@inlined
def _copy(b, w, n):
    """The rollout state ``w`` from the determinized ``b`` (``state.Round``); inlined, as
    a call would pass both records whole (some 210 values) for every rollout."""
    copy_scalars(b, w)
    for q in range(n):
        w.penalties[q] = 0
        for k in range(N_KINDS):
            w.hands[q, k] = b.hands[q, k]
        for j in range(N_H):
            w.hand_summary[q, j] = b.hand_summary[q, j]
    for k in range(N_KINDS):
        w.disc[k] = b.disc[k]
    for j in range(b.game_state[G_PILE_N]):
        w.pile[j] = b.pile[j]


@inlined
def _mean_se(dsum, dsq, c, k, pad):
    """Mean and standard error of candidate ``c``'s ``k`` paired differences from the
    policy's move, ``pad / k`` added to their variance (``X_PAD``)."""
    mean = dsum[c] / k
    var = max(0.0, dsq[c] / k - mean * mean) + pad / k
    return mean, np.sqrt(var / k)


@inlined
def _power(zk, k, most, z):
    """The chance that a paired difference at ``zk`` standard errors after ``k``
    rollouts ends above ``z`` after ``most`` (conditional power under its current trend:
    the final statistic is normal with mean ``zk * sqrt(most / k)`` and variance
    ``(most - k) / most``); 0 once ``k >= most``."""
    if k >= most:
        return 0.0
    mu = zk * np.sqrt(most / k)
    sd = np.sqrt((most - k) / most)
    return 0.5 * math.erfc((z - mu) / (sd * np.sqrt(2.0)))


@called
def _value(w, p, n, horizon, nxt, how):
    """1 for a win of ``p``; a round cut by the horizon, with seat ``nxt`` to move, scores
    ``p``'s chance to go out first: its share of the inverse hand sizes (``VALUE_HANDS``)
    or the fitted model's (``VALUE_FIT``, ``expert_value``)."""
    wg, whinfo = w.game_state, w.hand_summary
    if wg[G_OVER] == OVER_WON:
        return 1.0 if wg[G_WINNER] == p else 0.0
    if horizon == 0:
        return 0.0
    if how == VALUE_FIT:
        return fitted_share(w, p, n, nxt)
    tot = 0.0
    for q in range(n):
        tot += 1.0 / max(1, whinfo[q, H_TOTAL])
    return (1.0 / max(1, whinfo[p, H_TOTAL])) / tot


@called
def search(tb, rd, n, p, expert_params, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally):
    """The expert seat ``p``'s choice at the decision its turn loop stopped at: returns
    its index into ``cand``/``ccol``, or -1 for the policy's own choice (not searched).

    Every candidate is played out on the same ``rollouts`` deals (``rollouts`` more,
    up to ``X_MORE`` times as many, while one leads without beating the policy's move
    by ``z`` standard errors: the first extra deal shares its key with the streams
    ``_policy_move`` breaks ties with, which only correlates the two); the rollout
    policy's own move is kept unless another candidate beats it by more than ``z``
    standard errors of their paired difference (so a small budget's noise does not make
    the expert weaker than its policy), then the best such candidate is played. Racing
    (``X_RACE``) drops a candidate ``cut`` standard errors worse than ``ref`` (``X_CUT``;
    negative: ``z``), and the search ends once every candidate but ``ref`` is dropped:
    the choice is then ``ref`` whatever the rest of the budget would give. With
    ``X_FUT`` (percent; 0: off) a search is extended only for a candidate whose
    conditional power (``_power``: the chance that it beats ``ref`` by ``z`` standard
    errors after ``X_MORE`` x ``rollouts``, on its current trend) is at least ``fut``%.
    With ``X_REUSE`` = k > 1 (and crn) a deal of the hidden hands serves k rollouts in a
    row, each drawing from the pile with its own streams (``X_PILE`` shuffled: the pile
    shuffled anew for each); every rollout still counts as one sample."""
    hinfo, st = rd.hand_summary, rd.streams
    rules, strategy_ids, strategy_params = fixed_rules(tb), tb.strategy_ids, tb.strategy_params
    wrules, rsid, rsp, wst = fixed_rules(wtb), wtb.strategy_ids, wtb.strategy_params, w.streams
    at = AT_TURN
    if rd.game_state[G_DRAWN] > 0:
        at = AT_DRAWN
    elif rd.game_state[G_PEND_DRAW] > 0:
        at = AT_PENALTY
    scope = expert_params[p, X_SCOPE]
    m = candidates(
        tb, rd, p, n, at, expert_params[p, X_DRAW], expert_params[p, X_BLUFF], scope, cand, ccol
    )
    if m == 1:
        return 0
    if at != AT_TURN and scope == SCOPE_TURN:
        return -1
    endgame = expert_params[p, X_ENDGAME]
    if endgame > 0:  # search only once some hand is down to ``endgame`` cards
        fewest = hinfo[p, H_TOTAL]
        for q in range(n):
            fewest = min(fewest, hinfo[q, H_TOTAL])
        if fewest > endgame:
            return -1
    rollouts = expert_params[p, X_ROLLOUTS]
    horizon = expert_params[p, X_HORIZON]
    crn = expert_params[p, X_CRN]
    z = expert_params[p, X_Z] / 100.0
    # the search's key: a hash of the seat's stream state and the turn, which leaves
    # the stream itself untouched (a search that keeps the policy's move changes nothing)
    s = S_SEAT0 + p
    key = mix64(st[s, 0] ^ mix64(st[s, 1] ^ (np.uint64(rd.counters[K_TURNS]) + _GAMMA)))
    if at != AT_TURN:  # a turn may also stop at a penalty and at a card drawn
        key = mix64(key ^ np.uint64(at))
    _seed(wst, key, KEY_STRIDE * rollouts, n)
    base = _policy_move(tb, rd, p, w, n, at, scope, m, cand, ccol)
    ref = base if base >= 0 else 0
    for j in range(N_RULE_ARRAY):
        wrules[j] = rules[j]
    if horizon > 0:
        wrules[R_MAX_TURNS] = min(rules[R_MAX_TURNS], rd.counters[K_TURNS] + horizon)
    for q in range(n):  # the rollout players (an outside seat's: the policy)
        own = expert_params[p, X_MODEL] == 1 and q != p and strategy_ids[q] != OUTSIDE
        rsid[q] = strategy_ids[q] if own else strategy_ids[p]
        for j in range(N_PARAMS):
            rsp[q, j] = strategy_params[q, j] if own else strategy_params[p, j]
    tally[T_SEARCHES] += 1
    for k in range(N_KINDS):
        b.disc[k] = rd.disc[k]
    for c in range(m):
        dsum[c] = 0.0
        dsq[c] = 0.0
    race = expert_params[p, X_RACE]
    cut = z if expert_params[p, X_CUT] < 0 else expert_params[p, X_CUT] / 100.0
    pad = expert_params[p, X_PAD] / 1000.0
    fut = expert_params[p, X_FUT] / 100.0
    how = expert_params[p, X_VALUE]
    total = rollouts  # grows by ``rollouts`` while undecided, to ``more`` x rollouts
    most = rollouts * max(1, expert_params[p, X_MORE])
    reuse = max(1, expert_params[p, X_REUSE]) if crn == 1 else 1
    lazy = 1 if expert_params[p, X_PILE] == PILE_LAZY else 0
    i = 0
    while i < total:
        dealt = False
        first = 0
        for c in range(m):
            if dsum[c] == DEAD:
                continue
            # with crn, one deal and one set of rollout streams serve every candidate
            j = i * KEY_STRIDE + (0 if crn == 1 else c)
            if crn == 0 and c >= KEY_STRIDE:
                j = KEY_FAR + i * MAX_CANDIDATES + c
            if crn == 0 or not dealt:
                dealt = True
                first = c
                if i % reuse == 0:
                    _seed(wst, key, j, n)
                    determinize(
                        tb,
                        rd,
                        p,
                        b,
                        unseen,
                        wst,
                        crn * (1 - lazy),
                        expert_params[p, X_DEAL],
                        expert_params[p, X_INFER],
                        expert_params[p, X_DEPTH],
                        expert_params[p, X_TRIES],
                        lazy,
                    )
                elif lazy == 0:  # the last deal's hands, the pile shuffled anew (``X_REUSE``)
                    _seed(wst, key, j, n)
                    reshuffle_pile(b, wst)
            if crn == 0:
                _seed(wst, key ^ np.uint64(0x5EED), j, n)
            else:  # one deal's rollout streams, seeded once and kept in ``b``'s
                if c == first:
                    _seed(b.streams, key ^ np.uint64(0x5EED), j, n)
                _restreams(b.streams, wst, n)
            _copy(b, w, n)
            nxt = turn_loop(wtb, w, n, p, np.int64(0), cand[c], ccol[c])
            val[c] = _value(w, p, n, horizon, nxt, how)
            tally[T_TURNS] += w.counters[K_TURNS] - rd.counters[K_TURNS]
        for c in range(m):
            if dsum[c] != DEAD:
                d = val[c] - val[ref]
                dsum[c] += d
                dsq[c] += d * d
        k = i + 1
        if race > 0 and k % race == 0 and k < total:
            # racing: drop the candidates already clearly worse than the policy's move
            alive = 0
            for c in range(m):
                if c != ref and dsum[c] != DEAD:
                    mean, se = _mean_se(dsum, dsq, c, k, pad)
                    if mean + cut * se < 0.0:
                        dsum[c] = DEAD
                    else:
                        alive += 1
            if alive == 0:
                # only ``ref`` is left: its differences from itself are 0, so more
                # rollouts cannot change the choice (``ref``)
                total = k
        i = k
        if k == total and total < most and base >= 0:
            # undecided: a candidate ahead of the policy's move, but not by z errors
            for c in range(m):
                if c != ref and dsum[c] > 0.0:
                    mean, se = _mean_se(dsum, dsq, c, k, pad)
                    # futility (fut > 0): not for a candidate unlikely to reach z (se > 0
                    # here: 0 < mean <= z * se)
                    if mean <= z * se and (fut == 0.0 or _power(mean / se, k, most, z) >= fut):
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
    k = rd.game_state[G_DRAWN] - 1 if at == AT_DRAWN else cand[best]
    if at != AT_PENALTY and 0 <= k < N_COLOURED and ccol[best] >= 0:
        tally[T_TARGET] += 1  # a 7's swap target (a coloured card's ``ccol``)
    elif k >= N_BUILTIN_KINDS and chosen_target(ccol[best]) >= 0:
        tally[T_TARGET] += 1  # a declared card's chosen opponent
    if ccol[best] == ALONE:
        tally[T_ALONE] += 1
    return best
