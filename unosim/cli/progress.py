"""The progress bar of long runs: games done, games per second, time remaining (stderr)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

LONG_RUN = 1 << 18  # games: shorter runs show no bar


def wanted(games: int, no_progress: bool) -> bool:
    """A bar for runs of more than ``LONG_RUN`` games, when stderr is a terminal."""
    return not no_progress and games > LONG_RUN and sys.stderr.isatty()


@contextlib.contextmanager
def progress_bar(
    total: int, done: int = 0, enabled: bool = True
) -> Iterator[Callable[[int], None] | None]:
    """Yield ``advance(games)`` updating a transient bar on stderr, or None if disabled."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} games/s" if speed else "- games/s")

    columns = (
        BarColumn(bar_width=20),
        TaskProgressColumn(),
        TextColumn("{task.completed:,}/{task.total:,} games"),
        Rate(),
        TimeRemainingColumn(),
        TextColumn("left"),
    )  # fits in 80 columns
    with Progress(
        *columns, console=Console(stderr=True), transient=True, speed_estimate_period=60.0
    ) as bar:
        task = bar.add_task("simulating", total=total, completed=done)
        yield lambda n: bar.advance(task, n)
