"""Unsigned array indices for the turn path.

numba wraps a negative signed index as Python does: an access whose signed index LLVM
cannot prove non-negative (a seat, a kind or a colour read from an array, or computed)
costs a compare, an add and a select, on every access of the turn loop. An unsigned
index costs none of them. ``ix(i)`` is ``i`` (known to be >= 0) as such an index: write
it inside the brackets only, never in arithmetic (numba types ``uint64 op int64`` as
float64).
"""

import numpy as np

ix = np.uint64
