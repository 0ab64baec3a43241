"""Seat labels: one strategy text per seat, built-in, expert or an outside agent, parsed
into kernel arrays."""

from __future__ import annotations

import numpy as np

from ..kernel.core.layout import MAX_PLAYERS, N_PARAMS
from ..kernel.outside.protocol import OUTSIDE
from . import agents
from .expert import NAME as EXPERT
from .expert import parse_expert
from .strategies import StrategyError, parse_builtin, split


def parse_one(text: str) -> tuple[int, np.ndarray, str]:
    """(kernel id, params, canonical label) of one seat's strategy text: a built-in
    strategy (``strategies.parse_builtin``) or ``expert:...``, a search whose id and
    parameters are its rollout policy's."""
    name, _, rest = text.strip().partition(":")
    if name.strip() == EXPERT:
        return parse_expert(rest)
    return parse_builtin(text)


def names_agent(label: str) -> bool:
    """Does a seat label (as written, or as a manifest records it) name outside code: an
    agent file or module (``FILE.py:NAME``, ``package.module:NAME``) or a recorded
    agent's label (``agent:...``)? Deciding this loads nothing."""
    text = label.strip()
    return text.startswith("agent:") or agents.is_agent_spec(text)


def refuse_agents(labels: object, where: str) -> list[str]:
    """The seat labels of a data file (a manifest's ``strategies``), checked to be texts
    naming built-in strategies only: a data file describes games, it never names code
    to run. Raises ``StrategyError`` (one line: ``where``, the seat and its label) for a
    label naming an agent or anything but a list of texts; nothing is loaded or
    imported, whatever the labels say."""
    if not isinstance(labels, (list, tuple)) or not all(isinstance(t, str) for t in labels):
        raise StrategyError(f"{where}: its manifest's strategies are not a list of texts")
    if len(labels) > MAX_PLAYERS or sum(map(len, labels)) > 100_000:
        raise StrategyError(f"{where}: its manifest's strategies are too long")
    for seat, label in enumerate(labels):
        if names_agent(label) or any(names_agent(t) for t in label.split(",")):
            raise StrategyError(
                f"{where}: seat {seat} was an outside agent ({label[:120]!r}); a results "
                "file never names code to run, so games with outside seats are not replayed"
            )
    return list(labels)


def parse(
    spec: str | list, n_players: int, agents_ok: bool = False
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``parse_seats`` without the agents: for the callers that run the kernel's own
    loops (replays, matches, tuning), where a Python agent cannot play
    (``StrategyError``), unless ``agents_ok`` (the labels only are wanted)."""
    ids, params, labels, seat_agents = parse_seats(spec, n_players)
    if not agents_ok and any(a is not None for a in seat_agents):
        raise StrategyError(
            "a Python agent cannot play here (only in simulate, run, "
            "compare, tournament and evaluate)"
        )
    return ids, params, labels


def parse_seats(
    spec: str | list, n_players: int
) -> tuple[np.ndarray, np.ndarray, list[str], tuple[agents.Agent | None, ...]]:
    """Strategies for every seat.

    ``spec`` is one strategy for all seats or a comma list, one per seat; a strategy's
    parameters follow a colon and are separated by ``;`` (or by commas, when the item
    has no colon: ``heuristic:bluff=0.3,challenge=0.5,random``).

    A seat may also be an agent: a Python object (a callable, or an object with an
    ``act`` method) in a list, or a label ``FILE.py:NAME`` / ``package.module:NAME``.

    Returns
    -------
    ids : int64[MAX_PLAYERS]
    params : float64[MAX_PLAYERS, N_PARAMS]
    labels : canonical label of each seat's strategy
    seat_agents : tuple, an ``agents.Agent`` per seat or None
    """
    items = [spec] if isinstance(spec, str) else list(spec)
    seats: list = []
    for item in items:
        if isinstance(item, str):
            seats.extend(agents.load(t) if agents.is_agent_spec(t) else t for t in split(item))
        elif isinstance(item, agents.Agent):
            seats.append(item)
        else:
            seats.append(agents.from_object(item))
    if len(seats) == 1:
        seats = seats * n_players
    if len(seats) != n_players:
        raise StrategyError(f"{len(seats)} strategies given for {n_players} players")
    ids = np.zeros(MAX_PLAYERS, dtype=np.int64)
    params = np.zeros((MAX_PLAYERS, N_PARAMS), dtype=np.float64)
    labels = []
    seat_agents: list[agents.Agent | None] = []
    for s, item in enumerate(seats):
        if isinstance(item, agents.Agent):
            ids[s] = OUTSIDE
            labels.append(item.label)
            seat_agents.append(item)
            continue
        ids[s], params[s], lab = parse_one(item)
        labels.append(lab)
        seat_agents.append(None)
    return ids, params, labels, tuple(seat_agents)
