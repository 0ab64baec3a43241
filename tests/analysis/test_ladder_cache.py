"""The strength ladder's cache files: hostile ones are refused and played again, and the
ladder says which rows came from the cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _never_called_agent(obs):  # an agent object: its rows are never cached
    raise AssertionError("the stubbed ladder plays no game")


def _stub_ladder(monkeypatch, cache: Path):
    """``ladder`` with every row's games replaced by a count (no kernel), recording the
    rows played; returns a function running it in a thread (``None`` if it hangs)."""
    import threading

    from unosim.analysis import evaluate as E

    played: list = []

    def fake_wins(player, opponent, rules, n, per_seat, seed, house):
        played.append((player, opponent))
        return (n * per_seat) // 3, n * per_seat

    monkeypatch.setattr(E, "_wins", fake_wins)

    def run():
        box: dict = {}

        def go():
            box["ladder"] = E.ladder(
                _never_called_agent,
                "official",
                2,
                games=200,
                seed=5,
                opponents=("random",),
                expert_games=8,
                expert="expert:rollouts=16;more=1",
                cache=cache,
            )

        t = threading.Thread(target=go, daemon=True)
        t.start()
        t.join(timeout=30)
        return box.get("ladder")

    return run, played


def _row_file(cache: Path, monkeypatch, player: str = "random") -> Path:
    """The cache file of built-in ``player``'s row against 1 random."""
    import hashlib
    import json

    from unosim.analysis import evaluate as E

    key = E._row_key(player, "random", "official", 2, 100, 5, None)
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return cache / f"{name}.json"


@pytest.mark.parametrize("hostile", ["nested", "fifo", "dev-zero", "forged", "big"])
def test_hostile_cache_files_are_refused_and_played_again(hostile, tmp_path, monkeypatch):
    import json

    run, played = _stub_ladder(monkeypatch, tmp_path)
    first = run()
    assert first is not None and first.kept == 0
    f = _row_file(tmp_path, monkeypatch)
    assert f.is_file()
    n_rows = len(played)
    again = run()
    assert again.kept == n_rows - 1 and len(played) == n_rows + 1  # the agent row again
    text = f.read_text()
    f.unlink()
    if hostile == "nested":
        f.write_text("[" * 100_000 + "]" * 100_000)
    elif hostile == "fifo":
        os.mkfifo(f)
    elif hostile == "dev-zero":
        f.symlink_to("/dev/zero")
    elif hostile == "big":
        f.write_text(text[:-1] + " " * 10_000_000 + "}")
    else:  # the right key, a count that fits, another number of rounds won
        row = json.loads(text)
        row["won"] = row["played"]
        f.write_text(json.dumps(row))
    played.clear()
    redone = run()
    assert redone is not None, "the ladder hangs on a hostile cache file"
    assert ("random", "random") in played  # played again, not read
    assert redone.table.equals(first.table)
    notes = getattr(redone, "notes", ())
    assert ("random", "random") not in redone.cached
    assert len(notes) == 1 and str(f) in notes[0], notes
    assert "played again" in notes[0]


def test_ladder_says_which_rows_came_from_the_cache(tmp_path, monkeypatch):
    from unosim.analysis import evaluate as E
    from unosim.report.ladder_page import Made, write_page

    run, _ = _stub_ladder(monkeypatch, tmp_path)
    first, again = run(), run()
    assert not first.cached and again.cached
    text = E.render(again, 2)
    marked = [ln for ln in text.splitlines() if ln.endswith("(cache)")]
    assert len(marked) == len(again.cached) > 0
    assert "(cache)" not in E.render(first, 2)
    out = tmp_path / "page"
    out.mkdir()
    write_page(again, out, Made("heuristic", "heuristic", "official", 2, 5, "unosim x", {}))
    md = (out / "ladder.md").read_text()
    assert md.count("earlier (cache)") == len(again.cached)
    assert "read from the cache of an earlier ladder" in md
