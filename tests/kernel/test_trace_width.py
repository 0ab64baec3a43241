"""The kernel's trace records a turn number of any size a round can reach."""

from __future__ import annotations

import numpy as np

from unosim.kernel.core import layout as L


# ------------------------------------------------------------------ trace
def test_trace_turns_are_wide_enough():
    from unosim.kernel.core.state import new_round
    from unosim.kernel.core.trace import _write_event

    rd = new_round(np.int64(108), np.int64(2))
    assert rd.trace.dtype == np.int32
    rd.game_state[L.G_N] = 2
    for turns in (32_767, 1_000_000):
        rd.counters[L.K_TURNS] = turns
        rd.trace_flags[L.TR_EVENTS] = 0
        _write_event(rd, np.int64(L.E_PLAY), np.int64(0), np.int64(3), np.int64(0), np.int64(0))
        assert rd.trace[0, L.EV_TURN] == turns
