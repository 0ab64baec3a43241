"""The two decorators every kernel function uses.

Kernel functions never allocate, so they are compiled without numba's runtime
(``_nrt=False``): no reference counting of the arrays they pass around. Profiling
showed those atomic increments and decrements took over two thirds of the time of a
turn. The few functions that allocate (``batch.py``) use plain ``njit``.
``hot`` functions are also inlined into their callers at numba's IR level, which
avoids passing a dozen array structs per call on the turn path.
"""
from numba import njit

kernel = njit(cache=True, _nrt=False)
hot = njit(cache=True, _nrt=False, inline="always")
