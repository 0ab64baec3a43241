"""Reading a TOML file from outside (a rules file, a strategy file) within bounds.

Before the parser sees anything: the path must be a regular file (a FIFO, a device or a
folder is refused without blocking: ``stat`` first, then an ``O_NONBLOCK`` open), of at
most ``MAX_BYTES``; a UTF-8 byte-order mark is accepted; the text is scanned (strings
and comments skipped) for bracket and brace nesting deeper than ``MAX_DEPTH`` and dotted
keys of more than ``MAX_DOTS`` dots, which cost the parser deep recursion or gigabytes.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser from PyPI
    import tomli as tomllib

import numpy as np

MAX_BYTES = 4 << 20  # a rules or strategy file is a few kB
MAX_DEPTH = 16  # nested [ ] and { } (a table header counts 1 or 2)
MAX_DOTS = 16  # dots in one dotted key (a.b.c has 2)

_OPEN = re.compile(r"#|\"\"\"|'''|\"|'")
_BASIC = re.compile(r'(?:[^"\\\n]|\\.)*"')
# a dotted key with more than MAX_DOTS dots (strings already replaced by `s`)
# (its three classes are disjoint, so a part matches one way only and nothing
# backtracks; plain ``*``, since Python 3.10's ``re`` has no possessive ``*+``)
_DOTTED = re.compile(r"\.(?:[ \t]*[\w+\-]*[ \t]*\.){" + str(MAX_DOTS) + "}")
_KINDS = [
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
]


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_text(path: str | Path, what: str, error: type = ValueError) -> str:
    """The text of the regular file ``path`` (at most ``MAX_BYTES``, UTF-8, a BOM
    dropped). ``FileNotFoundError`` passes through; every other problem is ``error``
    with a one-line message that starts with ``what`` and the path."""
    p = str(path)
    head = f"{what} {p!r}"
    st = os.stat(p)  # FileNotFoundError goes to the caller
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{head} is {_kind(st.st_mode)}, not a file")
    fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)  # what was opened, should the path have been swapped
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{head} is {_kind(st.st_mode)}, not a file")
        if st.st_size > MAX_BYTES:
            raise error(
                f"{head} is {st.st_size:,} bytes; a TOML file here is at most {MAX_BYTES:,}"
            )
        chunks, size = [], 0
        while size <= MAX_BYTES:
            b = os.read(fd, min(1 << 20, MAX_BYTES + 1 - size))
            if not b:
                break
            chunks.append(b)
            size += len(b)
        if size > MAX_BYTES:
            raise error(
                f"{head} is over {MAX_BYTES:,} bytes; a TOML file here is at most {MAX_BYTES:,}"
            )
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8-sig")  # a leading byte-order mark is dropped
    except UnicodeDecodeError as e:
        raise error(f"{head} is not UTF-8 text (byte {e.start:,})") from None


def _strip(text: str) -> str:
    """``text`` with comments removed and each string replaced by ``s`` (linear time)."""
    out, pos, n = [], 0, len(text)
    while True:
        m = _OPEN.search(text, pos)
        if m is None:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos : m.start()])
        tok, j = m.group(), m.end()
        if tok == "#":
            end = text.find("\n", j)
            pos = n if end < 0 else end
            continue
        if tok in ('"""', "'''"):
            while True:
                end = text.find(tok, j)
                if end < 0:
                    return "".join(out)  # unterminated: the parser says so
                back = end
                while tok == '"""' and back > j and text[back - 1] == "\\":
                    back -= 1
                if (end - back) % 2 == 0:
                    break
                j = end + 1
            pos = end + 3
            extra = 0  # up to two quotes may end the string's content
            while extra < 2 and pos < n and text[pos] == tok[0]:
                pos, extra = pos + 1, extra + 1
        elif tok == '"':
            mb = _BASIC.match(text, j)
            if mb is None:
                return "".join(out)
            pos = mb.end()
        else:
            end = text.find("'", j)
            if end < 0:
                return "".join(out)
            pos = end + 1
        out.append("s")


def check_shape(text: str) -> str | None:
    """Why ``text`` is nested too deeply or has too long a dotted key, or None."""
    bare = _strip(text)
    b = np.frombuffer(bare.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    step = ((b == ord("[")) | (b == ord("{"))).astype(np.int32) - (
        (b == ord("]")) | (b == ord("}"))
    )
    if b.size and int(np.cumsum(step).max()) > MAX_DEPTH:
        return f"nested more than {MAX_DEPTH} levels deep ([ ] and {{ }})"
    if _DOTTED.search(bare):
        return f"a dotted key has more than {MAX_DOTS} dots"
    return None


def load(path: str | Path, what: str, error: type = ValueError) -> dict:
    """The TOML file ``path`` parsed, within the bounds of the module docstring.

    ``FileNotFoundError`` passes through; anything else is ``error`` (one line)."""
    return parse(read_text(path, what, error), path, what, error)


def parse(text: str, path: str | Path, what: str, error: type = ValueError) -> dict:
    """The TOML ``text`` of the file ``path`` parsed (its shape checked first); a syntax
    error names the file, then the line and column the parser gives."""
    why = check_shape(text)
    if why:
        raise error(f"{what} {str(path)!r}: {why}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{what} {str(path)!r}: {e}") from None
    except (RecursionError, MemoryError):
        raise error(f"{what} {str(path)!r}: too complex to read") from None
