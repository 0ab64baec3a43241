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
  every ``hot`` function it calls) at each call site, then deep-copies its IR block by
  block, each block with every variable of the function (a cost of blocks times
  variables: ``play`` alone takes about 4 s), so a large ``hot`` function is best
  called from one place (``play``, ``effect``), and rarely taken bulky paths
  (``trace._write_event``) are not ``hot``.
* LLVM optimises and emits every non-inlined function's whole call tree again (numba
  links the callees' code into each caller and optimises the result), so each level of
  non-inlined functions above ``round.turn_loop`` costs a few seconds: ``batch`` runs
  its threads in Python rather than with ``prange`` (a parallel loop made four more such
  levels), and ``round.play_round`` is inlined into its callers.
* Calls of non-inlined functions pass ``state.Table`` and ``state.Round`` as some 140
  machine words: a function called on many turns is ``hot`` (``choose_colour`` is, for
  ``random``; the scoring strategies call ``_scored_colour``).
* The bundles cost compile time: every inlined function binds them as whole
  aggregates, and LLVM took about twice as long per function holding the turn tree
  (3 s against 1.3 s for ``turn_loop``) as with loose arrays. Still to win back.
* Tried and dropped: numba's ``forceinline`` (LLVM inlining instead of numba's) for the
  large single-site functions cut the cold compile by about 15% but made a turn about
  8% slower; ``NUMBA_OPT`` 1 or 2 saved no compile time worth its speed.
"""
from numba import njit

kernel = njit(cache=True, _nrt=False)
hot = njit(cache=True, _nrt=False, inline="always")
