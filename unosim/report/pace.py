"""Minutes at the table: turns turned into time at a stated pace, and the verdicts in
words that the pages give first (each defined by a threshold on a measured quantity).

The pace is an assumption, not a measurement: nothing in unosim has timed people
playing, and no published timing of UNO turns was found. ``SECONDS_PER_TURN`` (6 s) is
a glance at the top card and one card played or drawn at a brisk family table; at that
pace a 4-player round of official UNO (about 50 turns, reports/length.md) takes about 5
minutes and a match to 500 points (about 11 rounds, reports/points.md) just under an
hour. Every page says so and gives the turns beside the minutes; the atlas has a
control for the pace and ``unosim report`` takes ``--seconds-per-turn``.
"""

from __future__ import annotations

import math

SECONDS_PER_TURN = 6.0
MIN_SECONDS_PER_TURN = 1.0
MAX_SECONDS_PER_TURN = 120.0
PACE_NOTE = (
    "Minutes assume {pace} seconds a turn: an assumption, not a measurement (a quick "
    "family table; children or chatty tables take longer), always with the turns beside."
)

# "Does going first matter?": seat 0's edge over a fair share, in percentage points
FIRST_MATTERS_PP = 0.5  # game.names.NOTICE["points"]: less makes no practical difference
FIRST_MATTERS_A_LOT_PP = 5.0  # 1 round in 20 more than a fair share: clearly felt
# "Is it chaos?": Seven-Zero's turn-by-turn measures against the same rules without it
CHAOS_LEAD_CHANGES = 1.25  # the lead changes hands at least 25% more often, or
CHAOS_SWINGS_PER_ROUND = 1.0  # a hand swings by 5+ cards at once 1+ more times a round


def check_pace(seconds: float) -> float:
    """``seconds`` per turn if it is a pace a table can have, else ``ValueError``."""
    if not (
        isinstance(seconds, (int, float))
        and math.isfinite(seconds)
        and MIN_SECONDS_PER_TURN <= seconds <= MAX_SECONDS_PER_TURN
    ):
        raise ValueError(
            f"--seconds-per-turn must be between {MIN_SECONDS_PER_TURN:g} and "
            f"{MAX_SECONDS_PER_TURN:g}, got {seconds!r}"
        )
    return float(seconds)


def minutes(turns: float, seconds_per_turn: float = SECONDS_PER_TURN) -> float:
    """Minutes at the table for ``turns`` turns at ``seconds_per_turn``."""
    return turns * seconds_per_turn / 60.0


def minutes_text(turns: float, seconds_per_turn: float = SECONDS_PER_TURN) -> str:
    """ "about 4.5 minutes (45.2 turns)": minutes first, the turns beside them."""
    m = minutes(turns, seconds_per_turn)
    shown = f"{m:.1f}" if m < 10 else f"{m:.0f}"
    return f"about {shown} minutes ({turns:.1f} turns)"


def pace_note(seconds_per_turn: float = SECONDS_PER_TURN) -> str:
    return PACE_NOTE.format(pace=f"{seconds_per_turn:g}")


def first_player_sentence(
    seat0_rate: float, n_players: int, interval: tuple[float, float] | None = None
) -> str:
    """Does going first matter, in words a child understands, with the number: out of
    100 rounds, how many the first player wins against a fair share. With the rate's
    95% ``interval`` (lo, hi) and a fair share inside it, the rounds cannot tell."""
    fair = 100.0 / n_players
    won = 100.0 * seat0_rate
    edge = won - fair
    d = 1 if round(won) == round(fair) else 0  # whole numbers, unless they read the same
    out_of = (
        f"out of 100 rounds the player who goes first wins about {won:.{d}f}, "
        f"where a fair share is {fair:.{d}f}"
    )
    if interval is not None and interval[0] <= 1.0 / n_players <= interval[1]:
        return f"These rounds cannot tell whether going first matters: {out_of}."
    if abs(edge) < FIRST_MATTERS_PP:
        return f"Going first does not really matter: {out_of}."
    if abs(edge) < FIRST_MATTERS_A_LOT_PP:
        word = "helps a little" if edge > 0 else "hurts a little"
    else:
        word = "helps a lot" if edge > 0 else "hurts a lot"
    return f"Going first {word}: {out_of}."
