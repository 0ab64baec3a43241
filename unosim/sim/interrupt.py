"""Ctrl-C and SIGTERM around compiled calls.

A signal handler that raises (Python's for Ctrl-C, the CLI's for SIGTERM) can run while a
numba dispatcher is inside a call; the compiled code still returns its result, and
Python then reports ``SystemError: CPUDispatcher(...) returned a result with an
exception set``, chained to the interrupt. The call itself finished, so stopping right
after it is safe: :func:`kernel_call` turns that SystemError back into the interrupt.
"""

from __future__ import annotations

from contextlib import contextmanager


def interrupt_in(e: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt (or subclass) ``e`` was raised from, if any."""
    seen = set()
    cause = e.__cause__ or e.__context__
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


@contextmanager
def kernel_call():
    """Re-raise an interrupt that landed inside a compiled call as itself."""
    try:
        yield
    except SystemError as e:
        k = interrupt_in(e)
        if k is None:
            raise
        raise k from None
