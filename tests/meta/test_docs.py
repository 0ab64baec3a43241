"""The README and docs/: every example runs, the site builds, the prose stays in its place.

Fenced ``python`` blocks run as written, each in a fresh namespace, in a temporary folder
that holds a link to ``examples/``. ``sh`` blocks are ``unosim`` commands and run through
the CLI (typer's runner, in this process) with fewer games, matches and tuning rounds
than written (``CAPS``); a block that cannot run here (make targets, a shell's
activation, a Dask cluster) is marked on the line before it with
``<!-- docs-test: skip (the reason) -->``, and the reason shows as the test's skip
reason. ``text`` and ``toml`` blocks are shown, not run; a fence without a language
fails.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SKIP = re.compile(r"<!--\s*docs-test:\s*skip\s*\((.+)\)\s*-->")
RUN_LANGS = {"python", "sh", "bash"}
SHOWN_LANGS = {"text", "toml", "console"}

# options capped when a documented command runs in the test, and the values used
CAPS = {
    "--games": 3000,
    "--matches": 60,
    "--budget": 1600,
    "--eval-games": 400,
    "--population": 4,
    "--elite": 2,
    "--iterations": 2,
    "--boot": 50,
    "--confirm-games": 500,
}
EXPERT_GAMES = 40  # rounds with an expert seat are about 1,000 times slower
CAPS["--expert-games"] = EXPERT_GAMES  # evaluate's rows with an expert at the table
NEEDS = {
    "simulate": "--games",
    "compare": "--games",
    "report": "--games",
    "tournament": "--games",
    "match": "--matches",
    "tune": "--budget",
    "design": "--budget",
    "evaluate": "--games",
}
README_MAX = 10_000  # bytes
DOCSTRING_MAX = 2_500  # characters; experiment logs go to notes/
TRACKER = re.compile(r"[Ii]ssues? #?[0-9]+")


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    code: str
    skip: str | None

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, with their skip markers."""
    out: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(`{3,})(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2), i
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        prev = next((lines[k] for k in range(start - 1, -1, -1) if lines[k].strip()), "")
        skip = SKIP.search(prev)
        out.append(
            Block(
                page,
                start + 1,
                lang,
                "\n".join(lines[start + 1 : j]) + "\n",
                skip.group(1) if skip else None,
            )
        )
        i = j + 1
    return out


ALL = [b for p in PAGES for b in blocks(p)]
RUNNABLE = [b for b in ALL if b.lang in RUN_LANGS]


def test_every_fence_names_its_language():
    bad = [b.id for b in ALL if b.lang not in RUN_LANGS | SHOWN_LANGS]
    assert not bad, f"fences without a known language (python, sh, text, toml): {bad}"


def test_the_pages_have_examples():
    assert sum(b.lang == "python" and not b.skip for b in ALL) >= 10
    assert sum(b.lang in ("sh", "bash") and not b.skip for b in ALL) >= 6


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "results").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def commands(code: str) -> list[str]:
    """The shell lines of a block, continuations joined, comments and blanks dropped."""
    joined = re.sub(r"\\\n\s*", " ", code)
    return [
        ln.strip() for ln in joined.splitlines() if ln.strip() and not ln.strip().startswith("#")
    ]


def shrink(args: list[str]) -> list[str]:
    """A documented command's arguments with its workload capped (``CAPS``)."""
    args = list(args)
    # evaluate's rows play experts at the table
    expert = any("expert" in a for a in args) or args[:1] == ["evaluate"]
    for opt, cap in CAPS.items():
        if opt == "--games" and expert:
            cap = EXPERT_GAMES
        if opt in args:
            k = args.index(opt) + 1
            args[k] = str(min(int(args[k]), cap))
    if args and args[0] == "evaluate" and "--expert-games" not in args:
        args += ["--expert-games", str(EXPERT_GAMES)]
    need = NEEDS.get(args[0]) if args else None
    if need and need not in args and "--help" not in args:
        args += [need, str(EXPERT_GAMES if expert and need == "--games" else CAPS[need])]
        if args[0] == "tune":
            for opt in ("--eval-games", "--population", "--elite", "--iterations"):
                if opt not in args:
                    args += [opt, str(CAPS[opt])]
        if args[0] == "design" and "--confirm-games" not in args:
            args += ["--confirm-games", str(CAPS["--confirm-games"])]
    return args


def test_shrink_caps_and_adds_the_workload():
    assert shrink(["simulate", "--games", "100000000", "--seed", "1"]) == [
        "simulate",
        "--games",
        "3000",
        "--seed",
        "1",
    ]
    assert shrink(["report", "official", "stacking"])[-2:] == ["--games", "3000"]
    assert shrink(["simulate", "--strategies", "expert,random"])[-1] == str(EXPERT_GAMES)
    assert "--budget" in shrink(["tune", "--start", "weighted"])
    ev = shrink(["evaluate", "a.py:agent", "--games", "2000"])
    assert ev == ["evaluate", "a.py:agent", "--games", str(EXPERT_GAMES)] + [
        "--expert-games",
        str(EXPERT_GAMES),
    ]


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_example_runs(block: Block, workdir):
    if block.skip:
        pytest.skip(block.skip)
    if block.lang == "python":
        exec(compile(block.code, block.id, "exec"), {"__name__": "__docs__"})
        return
    runner = CliRunner()
    for line in commands(block.code):
        words = shlex.split(line)
        assert words[0] == "unosim", (
            f"{block.id}: `{line}` is not a unosim command: mark the block "
            "<!-- docs-test: skip (why) -->"
        )
        args = shrink(words[1:])
        r = runner.invoke(app, args)
        assert r.exit_code == 0, f"{block.id}: unosim {' '.join(args)}\n{r.output}"


# -- the prose in its place -------------------------------------------------------------


def test_readme_is_short_and_opens_with_the_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= README_MAX, len(readme.encode())
    first = next(b for b in blocks(ROOT / "README.md"))
    assert "make reports" in first.code and "make test" in first.code
    for way in (".venv/bin/unosim", "source .venv/bin/activate", "pip install -e ."):
        assert way in readme, way


def test_the_wrapper_runs_the_command():
    r = subprocess.run(
        [str(ROOT / "bin" / "unosim"), "rules", "list"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "official" in r.stdout


def _sources() -> list[Path]:
    """The project's own text files: code, docs, configuration (no venvs, caches,
    results or generated pages)."""
    skip = {".git", "site", "build", "results", "reports", "node_modules", "__pycache__"}
    out = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip and not d.startswith((".venv", "."))]
        for name in files:
            p = Path(folder) / name
            if p.suffix in {".py", ".md", ".toml", ".yml", ".cfg"} or name == "Makefile":
                out.append(p)
    return out


def test_no_tracker_issue_is_named():
    hits = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
        for p in _sources()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if TRACKER.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_docstrings_are_short():
    long = []
    for p in _sources():
        if p.suffix != ".py":
            continue
        tree = ast.parse(p.read_text(encoding="utf-8"))
        nodes = [tree] + [
            n
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        ]
        for node in nodes:
            doc = ast.get_docstring(node, clean=False) or ""
            if len(doc) > DOCSTRING_MAX:
                long.append(
                    f"{p.relative_to(ROOT)}:{getattr(node, 'name', '<module>')} "
                    f"{len(doc):,} characters"
                )
    assert not long, "move the history to notes/:\n" + "\n".join(long)


def test_the_docs_site_builds_without_warnings(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    pytest.importorskip("material")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # a banner about a future MkDocs
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "WARNING" not in r.stderr, r.stderr
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "reference" / "unosim" / "index.html").exists()
