"""Seat labels: one strategy text per seat, built-in or expert, parsed into kernel arrays."""
from __future__ import annotations

import numpy as np

from ..kernel.layout import MAX_PLAYERS, N_PARAMS
from .expert import NAME as EXPERT, parse_expert
from .strategies import StrategyError, parse_builtin, split


def parse_one(text: str) -> tuple[int, np.ndarray, str]:
    """(kernel id, params, canonical label) of one seat's strategy text: a built-in
    strategy (``strategies.parse_builtin``) or ``expert:...``, a search whose id and
    parameters are its rollout policy's."""
    name, _, rest = text.strip().partition(":")
    if name.strip() == EXPERT:
        return parse_expert(rest)
    return parse_builtin(text)


def parse(spec: "str | list[str]", n_players: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Strategies for every seat.

    ``spec`` is one strategy for all seats or a comma list, one per seat; a strategy's
    parameters follow a colon and are separated by ``;`` (or by commas, when the item
    has no colon: ``heuristic:bluff=0.3,challenge=0.5,random``).

    Returns
    -------
    ids : int64[MAX_PLAYERS]
    params : float64[MAX_PLAYERS, N_PARAMS]
    labels : canonical label of each seat's strategy
    """
    seats = split(spec)
    if len(seats) == 1:
        seats = seats * n_players
    if len(seats) != n_players:
        raise StrategyError(f"{len(seats)} strategies given for {n_players} players")
    ids = np.zeros(MAX_PLAYERS, dtype=np.int64)
    params = np.zeros((MAX_PLAYERS, N_PARAMS), dtype=np.float64)
    labels = []
    for s, text in enumerate(seats):
        ids[s], params[s], lab = parse_one(text)
        labels.append(lab)
    return ids, params, labels
