"""The two decorators every kernel function uses, and what keeps the cold compile short.

Kernel functions never allocate, so they are compiled without numba's runtime
(``_nrt=False``): no reference counting of the arrays they pass around. Profiling
showed those atomic increments and decrements took over two thirds of the time of a
turn. The few functions that allocate (``batch.py``) use plain ``njit``.
``hot`` functions are also inlined into their callers at numba's IR level, which
avoids passing a dozen array structs per call on the turn path.

Compile time (the cold compile was minutes; numba's own profile, not LLVM, dominated):

* A literal argument (``f(x, 0)``) compiles a separate copy of a non-inlined function
  for each literal value, and of everything it calls with that argument: ``run_chunk``
  passing ``scripted=0`` while ``run_one`` passed an int64 compiled ``play_round``
  twice. Calls between non-inlined functions pass ``np.int64(0)``, not ``0``.
* numba inlines a ``hot`` function by re-running its whole front end (and that of
  every ``hot`` function it calls) at each call site, so a large ``hot`` function is
  best called from one place (``play``, ``effect``), and rarely taken bulky paths
  (``trace._write_event``) are not ``hot``.
"""
from numba import njit

kernel = njit(cache=True, _nrt=False)
hot = njit(cache=True, _nrt=False, inline="always")
