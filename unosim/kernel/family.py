"""Where the kernel reads a table's rules: ``rules_of(tb)``. In the general kernel that is
``tb.rules``; a family's kernel (``families.py``) loads the kernel's modules again with
this module replaced by one whose ``rules_of`` returns a constant array, so that numba
compiles away every rule that is off (docs/notes/turn-loop-cost.md)."""

from .jit import hot


@hot
def rules_of(tb):
    """int64[N_RULES + declared-card fields]: the rule array of table ``tb``."""
    return tb.rules
