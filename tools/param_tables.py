"""Write the player parameter tables of ``docs/players.md`` from their declarations
(``unosim/players/params.py``).

    python tools/param_tables.py [docs/players.md] [--check]

Each table sits between ``<!-- params:NAME -->`` and ``<!-- /params -->``, ``NAME`` one
of ``BEHAVIOUR``, ``FEATURES``, ``EXPERT_PARAMS``. ``--check`` writes nothing and fails
if the file differs from what the declarations give.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from unosim.players import params as P

TABLES = {"BEHAVIOUR": "parameter", "FEATURES": "feature", "EXPERT_PARAMS": "parameter"}
BLOCK = re.compile(r"(<!-- params:(\w+) -->\n).*?(\n<!-- /params -->)", re.S)


def rewrite(text: str) -> str:
    """``text`` with every marked table replaced by the one its declarations give."""

    def table(m: re.Match) -> str:
        name = m.group(2)
        if name not in TABLES:
            raise SystemExit(f"param_tables: unknown table {name!r} (known: {', '.join(TABLES)})")
        return m.group(1) + P.docs_table(getattr(P, name), TABLES[name]) + m.group(3)

    return BLOCK.sub(table, text)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"] or ["docs/players.md"]
    path = Path(paths[0])
    old = path.read_text()
    new = rewrite(old)
    if check:
        if new != old:
            print(f"param_tables: {path} differs from the declarations", file=sys.stderr)
            return 1
        return 0
    path.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
