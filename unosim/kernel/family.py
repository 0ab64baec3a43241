"""Where the kernel reads a table's rules: ``rules_of(tb)`` and, for the house rules that
one family's kernel plays from the table (``HOUSE``), ``house_of(tb)``. In the general
kernel both are ``tb.rules``; a family's kernel (``families.py``) loads the kernel's
modules again with this module replaced by one whose ``rules_of`` returns a constant
array, so that numba compiles away every rule that is off (notes/turn-loop-cost.md).
No kernel function reads a ``HOUSE`` slot through ``rules_of`` (``tests/test_families.py``)."""

from .jit import hot
from .layout import R_CHALLENGE, R_DRAW_RULE, R_NEXT_DEALER, R_SEVEN_ZERO, R_STACKING, R_UNO_PENALTY

# the rule slots a family reads from the table, not from its constant: its rule sets may
# differ in them (official with stacking, progressive stacking or Seven-Zero; without the
# challenge and with another UNO penalty, as ``portugal``; with the winner dealing next,
# as ``pokemon``, whose rounds never read it; drawing until a playable card). The last
# four are read on rare paths, or behind one (the draw rule only once the first card
# drawn is not playable), so that official's rounds cost no more instructions than with
# them constant (notes/turn-loop-cost.md, "More presets in official's kernel")
HOUSE = (R_STACKING, R_SEVEN_ZERO, R_CHALLENGE, R_UNO_PENALTY, R_NEXT_DEALER, R_DRAW_RULE)


@hot
def rules_of(tb):
    """int64[N_RULES + declared-card fields]: the rule array of table ``tb``."""
    return tb.rules


@hot
def house_of(tb):
    """The table's own rule array, for reading a ``HOUSE`` slot."""
    return tb.rules
