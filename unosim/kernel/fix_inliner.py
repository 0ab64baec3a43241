"""Fixes of numba's inliner that make it build the same code faster (``jit.NUMBA_FIXES``):
each returns whether it was installed, and installs nothing where numba's internals do
not look as they did in the versions it was measured with. ``jit`` installs them only
around unosim's compiles; why each exists, with the compile times measured:
``notes/compile-time.md``.
"""

import copy
import inspect
import re
from typing import Any


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
