"""How the kernel reads a table's rules, and kernels specialised for a rule set.

Two readers, named for what a read is:

* ``fixed_rules(tb)``: the rule array, a compile-time constant in a kernel specialised
  for a rule set, the table's run-time array in the general kernel. numba compiles a
  kernel once per type of ``state.Table``: a table whose ``constants`` field holds a
  :class:`RuleConstants` has a type of its own (:class:`RuleConstantsType`, named by a
  digest of the array), in which ``fixed_rules`` returns that array frozen into the
  code, so that LLVM folds every rule that is off out of the turn loop: ``official``
  with ``random`` players runs about 15% faster per game (notes/turn-loop-cost.md).
  A table with ``constants`` None (the general kernel) reads ``tb.rules``. (An
  ``intrinsic``: numba refuses to return a global array from a function compiled
  without its runtime, as kernels are.)
* ``table_rules(tb)``: always the table's run-time array, for the ``HOUSE`` slots, in
  which the rule sets sharing a specialised kernel differ (stacking, Seven-Zero, the
  challenge, the UNO penalty, the next dealer, the draw rule): official's kernel plays
  ``stacking``, ``progressive``, ``seven-zero``, ``portugal``, ``pokemon`` and
  ``draw-until-playable`` too.

A specialised kernel plays the general kernel's games, bit for bit
(``tests/test_families.py``), compiles on its first use and is cached on disk like any
other (its signature names its rule array's digest). No kernel function reads a
``HOUSE`` slot through ``fixed_rules`` (``tests/test_families.py``).
"""

import hashlib

import numpy as np
from numba.core import config, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import (
    NativeValue,
    intrinsic,
    models,
    register_model,
    typeof_impl,
    unbox,
)

from ..compile.jit import inlined
from ..core.layout import (
    R_CHALLENGE,
    R_DRAW_RULE,
    R_NEXT_DEALER,
    R_SEVEN_ZERO,
    R_STACKING,
    R_UNO_PENALTY,
)

# the rule slots a specialised kernel reads from the table, not from its constant: its
# rule sets may differ in them (official with stacking, progressive stacking or
# Seven-Zero; without the challenge and with another UNO penalty, as ``portugal``; with
# the winner dealing next, as ``pokemon``, whose rounds never read it; drawing until a
# playable card). The last four are read on rare paths, or behind one (the draw rule only
# once the first card drawn is not playable), so that official's rounds cost no more
# instructions than with them constant (notes/turn-loop-cost.md, "More presets in
# official's kernel")
HOUSE = (R_STACKING, R_SEVEN_ZERO, R_CHALLENGE, R_UNO_PENALTY, R_NEXT_DEALER, R_DRAW_RULE)


def key(rules: np.ndarray) -> np.ndarray:
    """The specialised kernel's constant for ``rules``: the array with its ``HOUSE``
    slots set to 0, which that kernel reads from the table instead. Rule sets that
    differ only in those slots share a kernel.

    Parameters
    ----------
    rules : int64[N_RULES]
        A rule array (``RuleSet.to_array``).

    Returns
    -------
    int64[N_RULES]
        A new array: the kernel's constant.
    """
    out = np.array(rules, np.int64)
    out[list(HOUSE)] = 0
    return out


def tag(rules: np.ndarray) -> str:
    """A rule array's digest (``int64``): the name of its specialised kernel's type."""
    return hashlib.sha256(np.ascontiguousarray(rules, np.int64).tobytes()).hexdigest()[:12]


class RuleConstants:
    """A rule array to compile into a kernel as constants: put in a ``state.Table``'s
    ``constants`` field, it makes numba compile (or load from its cache) a kernel
    specialised for ``key(rules)``.

    Parameters
    ----------
    rules : int64[N_RULES]
        A rule array; its ``HOUSE`` slots are set to 0 (:func:`key`).
    """

    def __init__(self, rules: np.ndarray):
        self.rules = key(rules)
        self.rules.flags.writeable = False

    def __repr__(self) -> str:
        return f"RuleConstants({tag(self.rules)})"


class RuleConstantsType(types.Dummy):
    """numba's type of a :class:`RuleConstants`: the rule array (a tuple of ints) is part
    of the type, so each rule array compiles a kernel of its own; equal by name (the
    array's digest), so numba's cache finds it again in another process."""

    def __init__(self, rules: tuple[int, ...]):
        self.rules = rules
        super().__init__(name=f"RuleConstants({tag(np.array(rules, np.int64))})")


@typeof_impl.register(RuleConstants)
def _typeof_rule_constants(val, c):
    return RuleConstantsType(tuple(int(x) for x in val.rules))


register_model(RuleConstantsType)(models.OpaqueModel)


@unbox(RuleConstantsType)
def _unbox_rule_constants(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())  # all it holds is in its type


@intrinsic
def _rules_in(typingctx, tb):
    """The rule array of ``tb`` (a ``state.Table``), chosen by its type: the constants of
    a :class:`RuleConstantsType` built into the code as a read-only global array, or
    the ``rules`` field. An intrinsic, not a function, so that a kernel compiled
    without numba's runtime may return it."""
    constants = tb.types[tb.fields.index("constants")]
    if isinstance(constants, RuleConstantsType):
        frozen = np.array(constants.rules, np.int64)
        frozen.flags.writeable = False

        def constant(context, builder, sig, args):
            return context.make_constant_array(builder, sig.return_type, frozen)

        return types.Array(types.int64, 1, "C", readonly=True)(tb), constant
    field = tb.fields.index("rules")

    def table(context, builder, sig, args):
        rules = builder.extract_value(args[0], field)
        return impl_ret_borrowed(context, builder, sig.return_type, rules)

    return tb.types[field](tb), table


@inlined
def fixed_rules(tb):
    """int64[N_RULES + declared-card fields]: the rules of table ``tb``, compile-time
    constants in a specialised kernel (``tb.constants``), else ``tb.rules``. Never for a
    ``HOUSE`` slot (:func:`table_rules`)."""
    return _rules_in(tb)


if config.DISABLE_JIT:  # the kernel run as Python (debugging): the same values

    def fixed_rules(tb):  # noqa: F811
        return tb.rules if tb.constants is None else tb.constants.rules


@inlined
def table_rules(tb):
    """The table's own run-time rule array, for reading a ``HOUSE`` slot."""
    return tb.rules
