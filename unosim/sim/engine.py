"""The one door into the kernel: no other Python module calls a kernel entry point.

A :class:`Kernel` holds the arrays the kernel reads for one rule set and one seating,
built once from validated values (``simulate.Job.kernel`` builds it for a job). The
functions below play rounds, matches and traced rounds with it; the traced round is
grown and bounded here, and only here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
from numba import typeof as _typeof
from numba.core import types as _types

from ..game.rules import RuleError, RuleSet, resolve
from ..kernel.core import layout as L
from ..kernel.core.kinds import N_BUILTIN_KINDS, N_KINDS
from ..kernel.drivers import aggregate as _aggregate
from ..kernel.drivers import batch as _batch
from ..kernel.drivers import match as _match
from ..kernel.expert import rounds as _expert
from ..kernel.outside import batches as _outside_batch
from ..kernel.outside import protocol as _outside
from ..kernel.outside import rounds as _outside_run
from ..kernel.outside.protocol import VIEW_N
from ..kernel.rules import family as _family
from ..kernel.stepwise import flat as _step_flat
from ..kernel.stepwise import hidden as _step_hidden
from ..kernel.stepwise import tensors as _step_tensors
from ..kernel.stepwise import turns as _step
from ..players.expert import expert_array
from .interrupt import kernel_call

# the rule sets whose rounds run in a kernel of their own, compiled with their rules as
# constants (``kernel.rules.family``; the same games, faster), with or without the rules
# that such a kernel reads from the table (``kernel.rules.family.HOUSE``: stacking, Seven-Zero,
# the challenge, the UNO penalty, the next dealer, the draw rule); the environment
# variable UNOSIM_FAMILIES names others, comma-separated, or none with an empty value
FAMILIES = tuple(
    n.strip() for n in os.environ.get("UNOSIM_FAMILIES", "official").split(",") if n.strip()
)
_family_rules: dict[bytes, str] | None = None  # a family's key: its first rule set's name
EXPERT_CHUNK = 16  # games per task with expert seats (a game costs ~1,000 times more)
TRACE_CAPACITY = 4096  # events a traced round first makes room for
TRACE_MAX_BYTES = 1 << 30  # a longer trace is refused: 1 GiB, about 440,000 events


class TraceTooLong(ValueError):
    """A traced round whose trace would take more than ``TRACE_MAX_BYTES``."""


@dataclass(frozen=True, eq=False)
class Kernel:
    """The kernel's inputs for one rule set and one seating.

    rules : int64[N_RULES] (``RuleSet.to_array``); deck : int16[N_KINDS] copies of each
    kind; points : the points table; order : int8[cards], the deck in kind order;
    sid : int64[MAX_PLAYERS] strategy ids; sparams : float64[MAX_PLAYERS, N_PARAMS];
    xp : int64[MAX_PLAYERS, N_X] expert parameters, or None when no seat searches.
    """

    ruleset: RuleSet
    n_players: int
    rules: np.ndarray
    deck: np.ndarray
    points: np.ndarray
    order: np.ndarray
    sid: np.ndarray
    sparams: np.ndarray
    xp: np.ndarray | None

    @property
    def head(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """The arguments every entry point starts with: rules, sid, sp, deck, points, n."""
        return (self.rules, self.sid, self.sparams, self.deck, self.points, self.n_players)


def build(ruleset: RuleSet, n_players: int, sid: np.ndarray, sparams: np.ndarray, labels) -> Kernel:
    """The kernel's arrays for validated seats (``players.seats.parse``: ids, params and
    canonical labels, which say which seats are experts and with what parameters)."""
    deck = ruleset.deck_counts()
    order = np.repeat(np.arange(N_KINDS), deck).astype(np.int8)
    xp = expert_array(labels, ruleset)
    return Kernel(
        ruleset,
        int(n_players),
        ruleset.to_array(),
        deck,
        ruleset.points_table(),
        order,
        sid,
        sparams,
        xp,
    )


def rounds(
    k: Kernel, seed: int, first_game: int, count: int, chunk: int, family: bool = True
) -> np.ndarray:
    """Games ``first_game .. first_game + count - 1`` of the run with root ``seed``, in
    tasks of ``chunk`` games on numba's thread count: int32[count, N_COLS]. With
    ``family=False`` the general kernel plays them even when ``k``'s rule set has a kernel
    of its own (the same games)."""
    with kernel_call():  # Ctrl-C or SIGTERM during the call: the interrupt itself
        if k.xp is not None:  # expert seats search; smaller tasks balance the threads
            return _expert.run_rounds_expert(
                *k.head, seed, first_game, count, min(chunk, EXPERT_CHUNK), k.xp
            )
        constants = _family.RuleConstants(k.rules) if family and has_family(k.rules) else None
        return _batch.run_rounds(*k.head, seed, first_game, count, chunk, constants)


def has_family(rules: np.ndarray) -> bool:
    """Whether rounds of ``rules`` have a kernel of their own (``FAMILIES``)."""
    return family_name(rules) is not None


def family_name(rules: np.ndarray) -> str | None:
    """The rule set of ``FAMILIES`` whose kernel plays rounds of ``rules`` (``official``
    also for ``motu``, ``stacking``, ``portugal``, ``pokemon`` and ``draw-until-playable``:
    ``kernel.rules.family.key``), or None: the general."""
    global _family_rules
    if _family_rules is None:
        try:
            keys: dict[bytes, str] = {}
            for n in FAMILIES:
                keys.setdefault(_family.key(resolve(n).to_array()).tobytes(), n)
            _family_rules = keys
        except RuleError as e:
            raise RuleError(f"UNOSIM_FAMILIES: {e}") from None
    return _family_rules.get(_family.key(rules).tobytes())


def matches(k: Kernel, seed: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Matches ``lo .. hi - 1`` (``kernel.drivers.match.run_matches``): match rows
    int32[hi - lo, N_MCOLS], round heads int32[r, N_RH], round records int32[r, N_COLS]."""
    with kernel_call():
        return _match.run_matches(*k.head, seed, lo, hi)


def expert_tally_dispatcher():
    """numba's dispatcher behind :func:`expert_tally`, for a profiler that names its
    compiled functions (``benchmarks/rollout_profile.py``); nothing is called through it."""
    return _expert.tally_rounds


def expert_tally(k: Kernel, seed: int, first_game: int, count: int) -> np.ndarray:
    """The expert's tally (``kernel.expert.rounds.T_*``) over games ``first_game ..``, played on
    one thread as :func:`rounds` plays them."""
    if k.xp is None:
        raise ValueError("no seat is an expert: there is no search to tally")
    return _expert.tally_rounds(*k.head, seed, first_game, count, k.xp)


def trace(
    k: Kernel, seed: int, game: int, capacity: int = TRACE_CAPACITY
) -> tuple[np.ndarray, np.ndarray]:
    """Game ``game`` of the run with root ``seed``, exactly as :func:`rounds` plays it,
    with its trace: (record int32[N_COLS], trace int32[events, EV_W]).

    The kernel counts every event even past a full buffer, so a round longer than
    ``capacity`` is played again once with room for all of them; a trace over
    ``TRACE_MAX_BYTES`` is refused (:class:`TraceTooLong`) before it is allocated."""
    while True:
        with kernel_call():
            if k.xp is None:
                out, rd, *_, tr = _batch.run_one(*k.head, seed, game, k.order, 0, capacity)
                need = int(rd.trace_flags[L.TR_EVENTS])
            else:
                out, need, tr = _expert.run_one_expert(*k.head, seed, game, k.order, capacity, k.xp)
                need = int(need)
        size = need * tr.shape[1] * tr.itemsize
        if size > TRACE_MAX_BYTES:
            raise TraceTooLong(
                f"game {game} has {need:,} events ({int(out[L.C_TURNS]):,} "
                f"turns): its trace would take {size / 2**30:.1f} GiB, over "
                f"the {TRACE_MAX_BYTES / 2**30:g} GiB a replay may use"
            )
        if need <= capacity:
            return out, tr
        capacity = need


def trace_hands(rows: np.ndarray, n: int) -> np.ndarray:
    """The hands of a trace's rows, ``int16[rows, n, N_KINDS]``: the built-in kinds'
    columns from ``EV_HANDS``, the declared kinds' from ``EV_DECL`` in a wide trace."""
    m = rows.shape[0]
    nb, nd = N_BUILTIN_KINDS, N_KINDS - N_BUILTIN_KINDS
    out = np.zeros((m, n, N_KINDS), dtype=np.int16)
    out[:, :, :nb] = rows[:, L.EV_HANDS : L.EV_HANDS + n * nb].reshape(m, n, nb)
    if rows.shape[1] > L.EV_W:
        out[:, :, nb:] = rows[:, L.EV_DECL : L.EV_DECL + n * nd].reshape(m, n, nd)
    return out


def seat_players(alive: np.ndarray, n: int, dealer: int, seat_player: np.ndarray) -> None:
    """``kernel.drivers.match.seat_players``: who sits in each seat of a round dealt by
    ``dealer`` (into ``seat_player``, int64[MAX_PLAYERS])."""
    _match.seat_players(alive, n, dealer, seat_player)


def settle(
    rules: np.ndarray,
    row: np.ndarray,
    n: int,
    n_act: int,
    seat_player: np.ndarray,
    dealer: int,
    score: np.ndarray,
    penalty: np.ndarray,
    alive: np.ndarray,
) -> tuple[int, int]:
    """``kernel.drivers.match.settle``: book one round's record ``row`` (int32[N_COLS]) of ``n_act``
    seats into a match's ``score``, ``penalty`` and ``alive`` (int64[MAX_PLAYERS]) under
    ``rules`` (int64[N_RULES]); returns (next dealer, winner or -1)."""
    return _match.settle(rules, row, n, n_act, seat_player, dealer, score, penalty, alive)


def outside_games(deck: np.ndarray, b: int, capacity: int, history: int):
    """Slots for ``b`` rounds with outside seats (``kernel.outside.rounds``): the deck's
    order ``int8[deck size]``, the rounds' state and their checkpoints."""
    order = _batch.deck_order.py_func(deck)
    games, cks = _outside_run.new_games(
        b, order.size, capacity, _outside.ob_size(history), history > 0
    )
    return order, games, cks


def outside_advance(
    tb,
    games,
    cks,
    n: int,
    order: np.ndarray,
    stop: np.int64,
    slots: np.ndarray,
    out: np.ndarray,
    xp: np.ndarray,
) -> np.ndarray:
    """Advance the rounds in ``slots`` (int64[m]) to their next outside decision or their
    end, expert seats searching (``xp``, int64[MAX_PLAYERS, N_X], all 0 for none); their
    statuses ``int64[m]`` (``kernel.outside.protocol.ST_*``), records in ``out``."""
    with kernel_call():
        return _outside_run.advance_games(tb, games, cks, np.int64(n), order, stop, slots, out, xp)


# many environments stepped together (``kernel.outside.batches``; ``unosim.env.BatchEnv``):
# (ob, slots, actions) -> the first illegal j or -1; (tb, games, cks, n, order, stop, out,
# xp, cfg, slots, actions, deal, (obs, mask, reward, done, status)) -> games ended
batch_check = _outside_batch.check_batch
batch_step = _outside_batch.step_batch
# (ob, lo, hi, key, actions int64[b]) -> None: a uniformly random legal action per slot
batch_sample = _outside_batch.sample_batch


def aggregate(out, n_players, wins, turns_hist, points_hist, sums, totals):
    """Add the records ``out`` (int32[n, N_COLS]) into the int64 arrays given
    (``kernel.aggregate.aggregate``); returns (truncated rounds, largest max_stack, 1 if
    a record is out of range)."""
    return _aggregate.aggregate(out, n_players, wins, turns_hist, points_hist, sums, totals)


# -- the stepwise game (``kernel.stepwise.turns``; ``unosim.sim.game``) ---------------------------


def game_arrays(deck: np.ndarray, history: int):
    """One stepwise game's arrays: the deck in kind order, the round and its checkpoint
    (``kernel.stepwise.turns``: a ``Round`` whose ``ob`` has the game's room and keeps the public
    history; its trace has one row, so the kernel writes its events)."""
    order = np.repeat(np.arange(N_KINDS), deck).astype(np.int8)
    n_ob = _outside.ob_size(history) + VIEW_N
    games, cks = _outside_run.new_games(1, order.size, 1, n_ob, True)
    return order, type(games)(*(a[0] for a in games)), type(cks)(*(a[0] for a in cks))


def game_search(tb, deck_n: int):
    """Scratch for expert opponents' searches, or None without them (``deck_n`` 0): the
    kernels then compile the search out, and a step passes forty arrays fewer."""
    return _step.new_search(tb, np.int64(deck_n)) if deck_n > 0 else None


game_start = _step.start_game  # (tb, rd, ck, order, xp, sa, out, cfg) -> status
game_step = _step.step_game  # (..., cfg, action) -> status or ERR_*
game_builtin = _step.builtin_step  # (tb, tbr, rd, ck, order, xp, sa, out, cfg) -> (a, status)
game_resample = _step_hidden.resample_game  # (..., cfg, seat, key uint64[4]) -> 1, 0 or -1
game_copy = _step.copy_round  # (src, dst)
game_observation_tensor = _step_tensors.observation_tensor  # (ob, deck, seat, out float32[N_T])
game_step_flat = _step_flat.step_flat  # (..., cfg, action, deck, seat, flat) -> status
game_start_flat = _step_flat.start_flat  # (..., cfg, deck, seat, flat) -> status
action_card = _outside.action_card  # (action) -> (card kind or -1, colour or -1)
play_action = _outside.play_action  # (kind, colour) -> action
game_information_state_tensor = _step_tensors.information_state_tensor  # (..., out float32[N_INFO])
game_observation_batch = _step_tensors.observation_batch  # (obs int64[b, ...], deck, out[b, N_T])


def entry(dispatcher, searching=None):
    """The compiled entry point of a kernel function, or None when it has not been
    compiled for the call: calling it skips numba's typing of the arguments, most of the
    cost of a call with tuples of arrays (a step of the stepwise game). ``searching``:
    for a function taking the search scratch, whether it is passed (a tuple) or None
    (``game_search``), each its own compiled version; None: the function's one version."""
    sigs = list(dispatcher.overloads)
    if searching is not None:
        sigs = [s for s in sigs if (_types.none in s) != searching]
    if len(sigs) != 1:
        return None
    return dispatcher.overloads[sigs[0]].entry_point


def entry_for(dispatcher, args):
    """The compiled entry point of a kernel function for the types of ``args``, or None
    (not compiled for them): for a function compiled for several kinds of call (a
    general and a specialised table), called again and again with arguments of one
    type. The entry point reads its arguments as those types: a caller passes arrays of
    the same dtype, layout and contiguity, as it did for the call that compiled it."""
    overloads = getattr(dispatcher, "overloads", None)  # None: run as Python (no jit)
    compiled = overloads.get(tuple(_typeof(a) for a in args)) if overloads else None
    return None if compiled is None else compiled.entry_point
