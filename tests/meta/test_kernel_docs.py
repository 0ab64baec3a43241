"""The kernel reads as it is meant to: every entry point ``unosim/sim/engine.py`` calls
has a NumPy-style docstring naming each argument's dtype and shape, and no kernel folder
holds more than ten modules (more want a subpackage of their own)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections import Counter
from pathlib import Path

import pytest

from unosim.kernel import kernel_sources

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "unosim" / "sim" / "engine.py"
MAX_MODULES = 10  # modules in one kernel folder

# what a documented argument's type may be: a dtype, with a shape for an array
# ("int64[MAX_PLAYERS, N_PARAMS]", "int64"), or one of the kernel's records
DTYPE = r"(?:u?int(?:8|16|32|64)|float(?:32|64)|bool)"
TYPE = re.compile(
    rf"^(?:{DTYPE}(?:\[[^\]]+\])?|int|bool|tuple|state\.Table|state\.Round|family\.RuleConstants)\b"
)
ENTRY = re.compile(r"^(\w+(?:, \w+)*) : (.+)$")  # an argument, unindented


def engine_calls(engine: Path = ENGINE) -> list[tuple[str, str]]:
    """(kernel module, function) for each kernel function ``engine`` calls through a
    module imported as ``from ..kernel.sub import m as _m`` (the module as ``sub.m``)."""
    tree = ast.parse(engine.read_text(encoding="utf-8"))
    alias = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            top, _, sub = node.module.partition(".")
            if top == "kernel" and sub:
                for a in node.names:
                    alias[a.asname or a.name] = f"{sub}.{a.name}"
    calls = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in alias and alias[node.value.id] != "core.layout":
                calls.add((alias[node.value.id], node.attr))
    return sorted(calls)


def _section(doc: str, name: str) -> list[str] | None:
    """The lines of the docstring section ``name`` (NumPy style: a title underlined
    with dashes), up to the next section; None if missing."""
    lines = inspect.cleandoc(doc).splitlines()
    rule = re.compile(r"-{3,}")
    for i in range(len(lines) - 1):
        if lines[i].strip() == name and rule.fullmatch(lines[i + 1].strip()):
            out = []
            for j in range(i + 2, len(lines)):
                if j + 1 < len(lines) and lines[j].strip() and rule.fullmatch(lines[j + 1].strip()):
                    break
                out.append(lines[j])
            return out
    return None


def doc_problems(func) -> list[str]:
    """What is missing from ``func``'s docstring: a Parameters section documenting each
    argument as ``name : dtype[shape]`` (or a scalar dtype, a state record), and a
    Returns section."""
    func = getattr(func, "py_func", func)
    doc = func.__doc__ or ""
    params = _section(doc, "Parameters")
    if params is None:
        return ["no Parameters section"]
    # a class (a record the kernel is given) is its own return value
    returns = inspect.isclass(func) or _section(doc, "Returns") is not None
    problems = [] if returns else ["no Returns section"]
    typed = {}
    for line in params:
        m = ENTRY.match(line)
        if m:
            for name in m.group(1).split(", "):
                typed[name] = m.group(2)
    for name in inspect.signature(func).parameters:
        if name not in typed:
            problems.append(f"argument {name!r} not documented as 'name : type'")
        elif not TYPE.match(typed[name]):
            problems.append(f"argument {name!r}: {typed[name]!r} names no dtype")
    return problems


def test_the_engine_calls_are_found():
    calls = engine_calls()
    assert ("drivers.batch", "run_rounds") in calls and ("drivers.match", "settle") in calls
    assert ("expert.rounds", "run_rounds_expert") in calls
    assert ("outside.rounds", "advance_games") in calls


@pytest.mark.parametrize("module, name", engine_calls())
def test_entry_points_document_shapes_and_dtypes(module, name):
    func = getattr(importlib.import_module(f"unosim.kernel.{module}"), name)
    assert not doc_problems(func), f"{module}.{name}: " + "; ".join(doc_problems(func))


def test_a_docstring_without_dtypes_is_caught():
    def bare(rules, n):
        """Play.

        Parameters
        ----------
        rules : the rules
        n : int

        Returns
        -------
        nothing
        """

    def untitled(rules):
        """Play ``rules`` (int64[N_RULES])."""

    def partial(rules, n):
        """Play.

        Parameters
        ----------
        rules : int64[N_RULES]
            The rules.
        """

    assert doc_problems(bare) == ["argument 'rules': 'the rules' names no dtype"]
    assert doc_problems(untitled) == ["no Parameters section"]
    assert doc_problems(partial) == [
        "no Returns section",
        "argument 'n' not documented as 'name : type'",
    ]


def folder_clutter(sources, limit: int = MAX_MODULES) -> list[str]:
    """The folders among ``sources`` holding more than ``limit`` modules (``__init__.py``
    not counted), each as ``folder: count``."""
    counts = Counter(p.parent for p in sources if p.name != "__init__.py")
    return [f"{folder}: {n}" for folder, n in sorted(counts.items()) if n > limit]


def test_no_kernel_folder_holds_more_than_ten_modules():
    """A file is as long as its one concern needs; a folder of many siblings says nothing
    of how they fit together: more than ten wants a subpackage."""
    sources = kernel_sources()
    assert len({p.parent for p in sources}) > 1  # the subpackages are seen
    assert not folder_clutter(sources), folder_clutter(sources)


def test_a_cluttered_folder_is_caught(tmp_path):
    files = [tmp_path / "a" / f"m{i}.py" for i in range(11)] + [tmp_path / "a" / "__init__.py"]
    assert folder_clutter(files) == [f"{tmp_path / 'a'}: 11"]
    assert not folder_clutter(files[1:])
