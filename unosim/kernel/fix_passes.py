"""Fixes of numba's analyses and compile flags that compute the same results faster
(``jit.NUMBA_FIXES``): each returns whether it was installed, and installs nothing where
numba's internals do not look as they did in the versions it was measured with;
``tests/test_compile.py`` compares each with numba's own. Why each exists, with the
compile times measured: ``notes/compile-time.md``.
"""

import functools
import inspect
from collections.abc import Callable
from typing import Any


def _bit_live_map():
    """numba computes which variables are alive at the entry of each block (for every
    ``del`` it places, after most of its passes) with Python sets of names, iterated
    to a fixed point over all blocks: the sets of the definitions reaching a block
    hold almost every variable of a large function. This computes the same least
    fixed point (so the same sets) on integers used as bit masks, and converts only
    the result to sets. Returns whether it was installed."""
    from numba.core import analysis, ir_utils

    original: Callable[..., Any] = analysis.compute_live_map
    code = original.__code__
    if (
        code.co_varnames[: code.co_argcount] != ("cfg", "blocks", "var_use_map", "var_def_map")
        or not {"def_reach", "liveness", "fix_point"} <= set(code.co_cellvars + code.co_varnames)
        or getattr(ir_utils, "compute_live_map", None) is not original
    ):
        return False

    def compute_live_map(cfg, blocks, var_use_map, var_def_map):
        bits: dict[str, int] = {}

        def mask(names):
            m = 0
            for name in names:
                b = bits.get(name)
                if b is None:
                    b = bits[name] = 1 << len(bits)
                m |= b
            return m

        use = {k: mask(v) for k, v in var_use_map.items()}
        defined = {k: mask(v) for k, v in var_def_map.items()}
        order = cfg.topo_order()
        # definitions (and uses) reaching the entry of each block
        reach: dict[Any, int] = {}
        changed = True
        while changed:
            old = dict(reach)
            for b in order:
                r = reach[b] = reach.get(b, 0) | defined[b] | use[b]
                for succ, _ in cfg.successors(b):
                    reach[succ] = reach.get(succ, 0) | r
            changed = reach != old
        live = {b: use[b] for b in blocks}
        changed = True
        while changed:
            old = dict(live)
            for b in reversed(order):
                for pred, _ in cfg.predecessors(b):
                    live[pred] |= live[b] & reach.get(pred, 0) & ~defined[pred]
            changed = live != old
        names = sorted(bits, key=bits.__getitem__)
        result: dict[Any, set[str]] = {}
        for b, m in live.items():
            s: set[str] = set()
            result[b] = s
            digits = bin(m)[:1:-1]
            i = digits.find("1")
            while i >= 0:
                s.add(names[i])
                i = digits.find("1", i + 1)
        return result

    functools.update_wrapper(compute_live_map, original, assigned=(), updated=())  # __wrapped__
    analysis.compute_live_map = ir_utils.compute_live_map = compute_live_map
    return True


def _ssa_skip_blocks():
    """numba's SSA reconstruction renames, one at a time, each variable assigned more
    than once (a few hundred in ``round.turn_loop``), with two rewrites of every
    statement of the function per variable. This lets those two rewrites copy the
    blocks that never mention the variable as they are (what they made of them: the
    same statements, in a new block) and run numba's rewrite on the others, in the
    same order. Returns whether it was installed."""
    from numba.core import ir, ssa

    run_ssa, rewrite = ssa._run_ssa, ssa._run_block_rewrite
    handlers = (ssa._FreshVarHandler, ssa._FixSSAVars)
    if (
        list(inspect.signature(run_ssa).parameters) != ["blocks"]
        or list(inspect.signature(rewrite).parameters) != ["blocks", "states", "handler"]
        or not all(hasattr(ssa, n) for n in ("_fresh_vars", "_fix_ssa_vars"))
    ):
        return False
    # for each reconstruction under way: the blocks each variable appears in (renaming
    # one variable, and the phi nodes it adds, moves no other), and the ids of the
    # blocks made since (numba's input blocks are copied, those made here are passed on)
    frames: list[tuple[dict[str, set[Any]], set[int]]] = []

    def run_ssa_indexed(blocks):
        where: dict[str, set[Any]] = {}
        for label, block in blocks.items():
            for stmt in block.body:
                for var in stmt.list_vars():
                    where.setdefault(var.name, set()).add(label)
        frames.append((where, set()))
        try:
            return run_ssa(blocks)
        finally:
            frames.pop()

    def rewrite_skipping(blocks, states, handler):
        if not frames or type(handler) not in handlers or "varname" not in states:
            return rewrite(blocks, states, handler)
        where, made = frames[-1]
        mentions = where.get(states["varname"], ())
        touched = rewrite({k: b for k, b in blocks.items() if k in mentions}, states, handler)
        out = {}
        for label, block in blocks.items():
            new = touched.get(label)
            if new is None and id(block) in made:
                new = block
            elif new is None:
                new = ir.Block(scope=block.scope, loc=block.loc)
                new.body = list(block.body)
            made.add(id(new))
            out[label] = new
        return out

    functools.update_wrapper(run_ssa_indexed, run_ssa, assigned=(), updated=())  # __wrapped__
    functools.update_wrapper(rewrite_skipping, rewrite, assigned=(), updated=())
    ssa._run_ssa = run_ssa_indexed
    ssa._run_block_rewrite = rewrite_skipping
    return True


def _quick_flag_values():
    """numba looks up each ``@overload`` implementation it types a call with in a cache
    keyed by the compile flags, hashing and comparing the flags (about fifty options,
    each read through a property) on every call typed: a second and a half of a
    simulation's cold compile. This builds the same dict of option values from the
    options' defaults and the values set. Returns whether it was installed."""
    from numba.core import compiler, targetconfig

    config = targetconfig.TargetConfig
    values = config.values
    defaults: dict[type, dict[str, Any]] = {}  # TargetConfig subclass -> {option: default}

    def quick_values(self):
        cls = type(self)
        d = defaults.get(cls)
        if d is None:
            d = defaults[cls] = {k: o.default for k, o in cls.options.items()}
        out = d.copy()
        out.update(self._values)
        if len(out) != len(d):  # something else set: numba's own way
            return values(self)
        return out

    sample = compiler.Flags()
    sample.nrt = True
    sample.inline = "always"
    if (
        config.__slots__ != ["_values"]
        or quick_values(sample) != values(sample)
        or list(quick_values(sample)) != list(values(sample))
    ):
        return False
    functools.update_wrapper(quick_values, values, assigned=(), updated=())  # __wrapped__
    config.values = quick_values
    return True
