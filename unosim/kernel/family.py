"""Where the kernel reads a table's rules: ``rules_of(tb)`` and, for the house rules that
one family's kernel plays from the table (``HOUSE``), ``house_of(tb)``. In the general
kernel both are ``tb.rules``; a family's kernel (``families.py``) loads the kernel's
modules again with this module replaced by one whose ``rules_of`` returns a constant
array, so that numba compiles away every rule that is off (docs/notes/turn-loop-cost.md).
No kernel function reads a ``HOUSE`` slot through ``rules_of`` (``tests/test_families.py``)."""

from .jit import hot
from .layout import R_SEVEN_ZERO, R_STACKING

# the rule slots a family reads from the table, not from its constant: its rule sets may
# differ in them (official with stacking, progressive stacking or Seven-Zero)
HOUSE = (R_STACKING, R_SEVEN_ZERO)


@hot
def rules_of(tb):
    """int64[N_RULES + declared-card fields]: the rule array of table ``tb``."""
    return tb.rules


@hot
def house_of(tb):
    """The table's own rule array, for reading a ``HOUSE`` slot."""
    return tb.rules
