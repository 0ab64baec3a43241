"""The ``unosim`` command line: every command registered on the application, one line each.

The commands live one group to a module (``simulate.py``, ``report.py``...); the
application, its error handling and SIGTERM in ``main.py``; what they share in
``common.py``. Adding a command is a function in its module and one line here.
"""

from __future__ import annotations

from . import analyse, design, evaluate, replay, report, rules, simulate, table
from .common import one_line
from .main import app, rules_app

app.command()(simulate.simulate)
app.command()(simulate.match)
app.command()(simulate.compare)
app.command()(report.report)
app.command()(design.design)
app.command()(replay.replay)
app.command()(evaluate.evaluate)
app.command()(analyse.tournament)
app.command()(analyse.tune)
app.command()(rules.strategies)
app.command("play")(table.play)
app.command("mcp")(table.mcp)
rules_app.command("list")(rules.rules_list)
rules_app.command("show")(rules.rules_show)
rules_app.command("table")(rules.rules_table_cmd)

__all__ = ["app", "main", "one_line"]


def main() -> None:
    app()


if __name__ == "__main__":
    main()
