"""The two decorators every kernel function uses, and what keeps the cold compile short.

Kernel functions never allocate, so ``kernel`` compiles them without numba's runtime
(``_nrt=False``: no reference counting of the arrays passed around, which took two thirds
of a turn's time); ``hot`` functions are also inlined into their callers at numba's IR
level. The version-guarded fixes of numba's inliner and analyses (``NUMBA_FIXES``) make
numba build the same code faster; ``tests/test_compile.py`` compares each with numba's
own. Why each rule and fix exists, with the compile times measured:
``docs/notes/compile-time.md``.
"""

import contextlib
import copy
import functools
import inspect
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.core.registry import CPUDispatcher


def _share_scope_copies():
    """numba's inliner deep-copies the callee's IR block by block, each block with a
    fresh memo, and copying a variable copies its whole scope (every variable of the
    function): a cost of blocks times variables per inlined call. While one inline
    runs, this makes every block share one copy of the scope (the copies were equal
    and the inliner keeps only the first). Returns whether it was installed."""
    from numba.core import inline_closurecall, ir

    worker = inline_closurecall.InlineWorker
    if "__deepcopy__" in vars(ir.Scope) or "__deepcopy__" not in vars(ir.Var):
        return False
    inline_ir = worker.inline_ir
    if list(inspect.signature(inline_ir).parameters) != [
        "self",
        "caller_ir",
        "block",
        "i",
        "callee_ir",
        "callee_freevars",
        "arg_typs",
    ]:
        return False
    shared: list[dict[int, Any]] = []  # one {id(scope): its copy} per inline under way

    def scope_deepcopy(self, memo):
        table = shared[-1] if shared else {}
        new = table.get(id(self))
        if new is None:
            new = ir.Scope.__new__(ir.Scope)
            memo[id(self)] = new
            table[id(self)] = new
            for name, value in vars(self).items():
                setattr(new, name, copy.deepcopy(value, memo))
        memo[id(self)] = new
        return new

    def inline_ir_shared(self, *args, **kwargs):
        shared.append({})
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            shared.pop()

    ir.Scope.__deepcopy__ = scope_deepcopy
    worker.inline_ir = inline_ir_shared
    return True


def _reuse_untyped_ir():
    """numba inlines a ``hot`` function by running its front end (bytecode to IR, and
    the inlining of every ``hot`` function it calls, recursively) anew at each call
    site. This keeps the IR it gets for each of our functions (per set of compile
    flags) and inlines a copy of it (numba's inliner copies the IR it is given before
    changing it). Returns whether it was installed."""
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    inline_function = worker.inline_function
    if list(inspect.signature(inline_function).parameters) != [
        "self",
        "caller_ir",
        "block",
        "i",
        "function",
        "arg_typs",
    ] or list(inspect.signature(worker.run_untyped_passes).parameters) != [
        "self",
        "func",
        "enable_ssa",
    ]:
        return False
    package = __name__.rpartition(".")[0]
    # (function, compile flags, typing context) -> its untyped IR; each compile has a
    # target context of its own, made from the flags alone
    # (``compiler._make_subtarget``)
    irs: dict[tuple, Any] = {}

    def inline_function_reusing(self, caller_ir, block, i, function, arg_typs=None):
        if (
            arg_typs is not None
            or self.locals
            or not getattr(function, "__module__", "").startswith(package)
        ):
            return inline_function(self, caller_ir, block, i, function, arg_typs)
        self.flags.enable_ssa = False  # as run_untyped_passes(function) sets it
        key = (function, repr(self.flags), id(self.typingctx), type(self.targetctx))
        callee_ir = irs.get(key)
        if callee_ir is None:
            callee_ir = irs[key] = self.run_untyped_passes(function)
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars)

    worker.inline_function = inline_function_reusing
    return True


def _forward_arguments():
    """numba inlines a call by binding each parameter of the callee to the caller's
    argument with a copy (``rd.2 = rd``): with ``state.Round`` and ``state.Table``
    passed to every ``hot`` function, LLVM spent much of its time on those copies.
    After numba inlines a call, this makes the inlined code read the caller's variable
    itself wherever neither the parameter nor that variable is assigned anew in the
    inlined code (so both hold the same value throughout). Returns whether it was
    installed."""
    from numba.core import inline_closurecall, ir, ir_utils

    worker = inline_closurecall.InlineWorker
    inline_ir = worker.inline_ir
    if not hasattr(ir_utils, "replace_vars"):
        return False

    def inline_ir_forwarding(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs=None):
        params = list(callee_ir.arg_names)
        result = inline_ir(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs)
        if arg_typs is not None:
            return result
        blocks, renamed = result[1], result[2]
        assigned: dict[str, int] = {}
        for b in blocks.values():
            for stmt in b.body:
                if isinstance(stmt, ir.Del):
                    return result
                if isinstance(stmt, ir.Assign):
                    assigned[stmt.target.name] = assigned.get(stmt.target.name, 0) + 1
        names = {renamed[q].name for q in params if q in renamed}
        forward = {}
        for b in blocks.values():
            for stmt in b.body:
                if (
                    isinstance(stmt, ir.Assign)
                    and stmt.target.name in names
                    and assigned[stmt.target.name] == 1
                    and isinstance(stmt.value, ir.Var)
                    and stmt.value.name not in assigned
                ):
                    forward[stmt.target.name] = stmt.value
        if forward:
            ir_utils.replace_vars(blocks, forward)
            callers = {v.name for v in forward.values()}
            for b in blocks.values():
                b.body = [
                    stmt
                    for stmt in b.body
                    if not (
                        isinstance(stmt, ir.Assign)
                        and isinstance(stmt.value, ir.Var)
                        and stmt.value.name == stmt.target.name
                        and stmt.value.name in callers
                    )
                ]
            for name in forward:
                caller_ir._definitions.pop(name, None)
        return result

    worker.inline_ir = inline_ir_forwarding
    return True


def _copy_callee_once():
    """numba's inliner copies the callee's IR (block by block, with ``copy.deepcopy``)
    twice: one copy to inline, and one of that copy, returned "unmutated" to callers
    that all discard it (numba's two and ``_forward_arguments``). While one inline
    runs, this makes copying a block the inliner has just copied hand back that copy.
    Returns whether it was installed."""
    import types

    from numba.core import inline_closurecall, typed_passes, untyped_passes

    try:  # without blanks and line continuations
        source, typed, untyped = (
            re.sub(r"[\s\\]", "", inspect.getsource(m))
            for m in (inline_closurecall, typed_passes, untyped_passes)
        )
    except (OSError, TypeError):
        return False
    # the one deep copy is ``copy_ir``'s, and numba's callers discard the copy
    if (
        getattr(inline_closurecall, "copy", None) is not copy
        or source.count("copy.deepcopy(") != 1
        or "callee_ir_original=copy_ir(callee_ir)" not in source
        or "_,_,_,new_blocks=inline_worker.inline_ir(" not in typed
        or "_,_,_,new_blocks=inline_worker.inline_function(" not in untyped
    ):
        return False
    worker = inline_closurecall.InlineWorker
    inline_ir = worker.inline_ir
    made: list[set[int]] = []  # the ids of the blocks copied by each inline under way

    def deepcopy(x, memo=None):
        if made and id(x) in made[-1]:
            return x
        new = copy.deepcopy(x, memo)
        if made:
            made[-1].add(id(new))
        return new

    def inline_ir_copying_once(self, *args, **kwargs):
        made.append(set())
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            made.pop()

    shim = types.ModuleType("copy")
    shim.__dict__.update(vars(copy), deepcopy=deepcopy)
    inline_closurecall.copy = shim
    worker.inline_ir = inline_ir_copying_once
    return True


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


def _owners():
    """The numba modules and classes the fixes above replace attributes of."""
    from numba.core import analysis, inline_closurecall, ir, ir_utils, ssa, targetconfig

    return (
        inline_closurecall,
        inline_closurecall.InlineWorker,
        ir.Scope,
        analysis,
        ir_utils,
        ssa,
        targetconfig.TargetConfig,
    )


_MISSING = object()


def _install_numba_fixes():
    """Make the fixes of numba above where numba's internals look as they do in the
    versions they were measured with (else none: compiling is only slower), then put
    numba back as it was. Returns the names of the fixes made and, for ``numba_fixes``,
    the attributes they replace: {(owner, name): (numba's value, the fix)}."""
    try:
        from numba.core import inline_closurecall  # noqa: F401

        version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    except (ImportError, ValueError):
        return (), {}
    if not (0, 59) <= version < (0, 69):
        return (), {}
    owners = _owners()
    before = [dict(vars(o)) for o in owners]
    fixes = (
        _share_scope_copies,
        _reuse_untyped_ir,
        _forward_arguments,
        _copy_callee_once,
        _bit_live_map,
        _ssa_skip_blocks,
        _quick_flag_values,
    )
    names = tuple(f.__name__ for f in fixes if f())
    swaps = {}
    for owner, old in zip(owners, before):
        for name, value in list(vars(owner).items()):
            if old.get(name, _MISSING) is not value:
                swaps[(owner, name)] = (old.get(name, _MISSING), value)
    _put(swaps, 0)
    return names, swaps


def _put(swaps, which):
    for (owner, name), values in swaps.items():
        if values[which] is _MISSING:
            delattr(owner, name)
        else:
            setattr(owner, name, values[which])


NUMBA_FIXES, _SWAPS = _install_numba_fixes()
_depth = [0]


@contextlib.contextmanager
def numba_fixes():
    """The fixes above in place while the block runs (unosim's compiles), numba as it
    was after; under numba's compiler lock, so no other compile sees them."""
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:
        if _depth[0] == 0:
            _put(_SWAPS, 1)
        _depth[0] += 1
        try:
            yield
        finally:
            _depth[0] -= 1
            if _depth[0] == 0:
                _put(_SWAPS, 0)


class _Locator(_CacheLocator):
    """Where numba caches a kernel function, and the stamp it is valid for: the code of
    the whole kernel package (``kernel_code``), not the time and size of its own file;
    its file name carries no line number, so that an edit above it renames nothing."""

    def __init__(self, py_file, root):
        self._py_file = py_file
        self._path = (
            str(root)
            if root == _IN_TREE
            else os.path.join(str(root), self.get_suitable_cache_subpath(py_file))
        )

    def get_cache_path(self):
        return self._path

    def get_source_stamp(self):
        from . import kernel_code

        return kernel_code()

    def get_disambiguator(self):
        return "k"

    @classmethod
    def from_function(cls, py_func, py_file):
        from . import CACHE_ROOT

        if CACHE_ROOT is None:
            return None
        self = cls(py_file, CACHE_ROOT)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


class _CacheImpl(CompileResultCacheImpl):
    _locator_classes = [_Locator]


class _Cache(FunctionCache):
    _impl_class = _CacheImpl


class KernelDispatcher(CPUDispatcher):
    """numba's dispatcher for unosim's kernels: compiles with ``numba_fixes`` and caches
    by the package's code (``_Locator``)."""

    def compile(self, sig):
        with numba_fixes():
            return super().compile(sig)

    def enable_caching(self):
        from . import CACHE_ROOT

        if CACHE_ROOT is not None:
            try:
                self._cache = _Cache(self.py_func)
            except RuntimeError:  # no locator could write there: run uncached
                pass


def jitted(**options):
    """``numba.njit(cache=True, **options)`` for unosim's kernels (``KernelDispatcher``)."""
    targetoptions = {**options, "nopython": True, "boundscheck": None}

    def wrap(func):
        if numba.config.DISABLE_JIT:
            return func
        disp = KernelDispatcher(py_func=func, locals={}, targetoptions=targetoptions)
        disp.enable_caching()
        return disp

    return wrap


_IN_TREE = Path(__file__).resolve().parent / "__pycache__"
kernel = jitted(_nrt=False)
hot = jitted(_nrt=False, inline="always")
