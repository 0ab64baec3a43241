"""Outside players: Python agents seated by an object or by a ``FILE.py:NAME`` /
``package.module:NAME`` seat label.

An agent is a callable ``agent(observation) -> action`` or an object with a method
``act(observation) -> action`` (``unosim.sim.outside`` documents both). Its seat's label
records its name and the SHA-256 of the file that defines it, so a results file says
which code played.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .strategies import StrategyError

_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
MAX_FILE_BYTES = 16 << 20  # an agent's file larger than this is refused


@dataclass(frozen=True)
class Agent:
    """A seated agent: ``decide(observation) -> action``, and its label."""

    decide: Callable[[Any], Any]
    label: str
    source: object  # the object given (a callable or an object with ``act``)
    spec: str | None = None  # the seat label it was loaded from

    def __call__(self, obs: Any) -> Any:
        return self.decide(obs)

    def __reduce__(self) -> tuple[Callable[..., Agent], tuple[Any, ...]]:
        # a loaded agent travels (to a Dask worker) as its label; any other as its parts
        # (an isolated seat's process object starts a process of its own there)
        if self.spec is not None:
            return (load, (self.spec,))
        return (Agent, (self.decide, self.label, self.source, None))


def _decider(obj: object) -> Callable[[Any], Any]:
    act = getattr(obj, "act", None)
    if callable(act):
        return act
    if callable(obj):
        return obj
    raise StrategyError(
        f"an agent must be callable or have an act(observation) method, got {type(obj).__name__}"
    )


def _file_hash(path: str | Path | None) -> str:
    if path is None:
        return "unknown"
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
    except (OSError, TypeError):
        return "unknown"


def from_object(obj: object) -> Agent:
    """An agent given as a Python object; its label names it and hashes its file."""
    decide = _decider(obj)
    target = obj if (inspect.isfunction(obj) or inspect.isclass(obj)) else type(obj)
    name = getattr(obj, "__name__", None) or type(obj).__name__
    try:
        path = inspect.getsourcefile(target)
    except TypeError:
        path = None
    where = Path(path).name if path else getattr(target, "__module__", "?")
    return Agent(decide, f"agent:{where}:{name}@{_file_hash(path)}", obj)


# seat labels loaded by a higher layer, by their prefix (``table.openspiel_seat``
# registers ``openspiel:`` when imported): prefix -> loader(label) -> Agent
SEAT_LOADERS: dict[str, Callable[[str], Agent]] = {}


def register_seat(prefix: str, loader: Callable[[str], Agent]) -> None:
    """Seat labels starting with ``prefix`` are agents that ``loader`` loads."""
    SEAT_LOADERS[prefix] = loader


def _seat_loader(text: str) -> Callable[[str], Agent] | None:
    for prefix, loader in SEAT_LOADERS.items():
        if text.strip().startswith(prefix):
            return loader
    return None


def is_agent_spec(text: str) -> bool:
    """Does a seat label name an agent (``FILE.py:NAME``, ``package.module:NAME`` or a
    registered prefix's, ``SEAT_LOADERS``: ``openspiel:BOT``)?"""
    if _seat_loader(text) is not None:
        return True
    where, sep, name = text.strip().rpartition(":")
    if not sep or not _NAME.match(name.strip()):
        return False
    where = where.strip()
    if where.startswith("agent:"):
        where = where[len("agent:") :]
    return where.endswith(".py") or bool(_MODULE.match(where))


def _attr(obj: object, name: str, where: str) -> Any:
    for part in name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise StrategyError(f"agent {where}:{name}: {where} has no {name!r}") from None
    return obj


def _file_of(text: str) -> tuple[Path, str]:
    where, _, name = text.strip().rpartition(":")
    where = where.strip()
    if where.startswith("agent:"):
        where = where[len("agent:") :]
    path = Path(where).expanduser()
    if not path.is_file():
        raise StrategyError(f"agent {text!r}: no file {where!r}")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise StrategyError(f"agent {text!r}: {where!r} is larger than {MAX_FILE_BYTES >> 20} MB")
    return path, name.strip()


def load_label(text: str) -> str:
    """The label ``load(text)`` gives its agent, without running or importing anything:
    for an agent run in a process of its own. A module's file is not looked up (that
    would import its packages), so its label carries no hash."""
    where, _, name = text.strip().rpartition(":")
    if where.strip().endswith(".py"):
        path, name = _file_of(text)
        return f"agent:{path.name}:{name}@{_file_hash(path)}"
    where = where.strip()
    return f"agent:{where[len('agent:') :] if where.startswith('agent:') else where}:{name.strip()}"


def load(text: str) -> Agent:
    """The agent a seat label names: ``path/to/file.py:NAME`` (the file is run as a
    module of its own), ``package.module:NAME`` (imported) or ``openspiel:BOT[:OPTIONS]``
    (``unosim.table.openspiel_seat``, once imported)."""
    loader = _seat_loader(text)
    if loader is not None:
        return loader(text)
    where, _, name = text.strip().rpartition(":")
    where, name = where.strip(), name.strip()
    if where.startswith("agent:"):
        where = where[len("agent:") :]
    if where.endswith(".py"):
        path, name = _file_of(text)
        digest = _file_hash(path)
        modname = f"unosim_agent_{digest}_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}"
        module = sys.modules.get(modname)
        if module is None:
            spec = importlib.util.spec_from_file_location(modname, path)
            if spec is None or spec.loader is None:
                raise StrategyError(f"agent {text!r}: cannot load {where!r}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[modname] = module
            try:
                spec.loader.exec_module(module)
            except Exception as e:  # the agent's own code failed: say so in one line
                del sys.modules[modname]
                raise StrategyError(
                    f"agent {text!r}: loading {where!r} failed: {type(e).__name__}: {e}"
                ) from None
        label_where = path.name
    else:
        try:
            module = importlib.import_module(where)
        except Exception as e:
            raise StrategyError(
                f"agent {text!r}: cannot import {where!r}: {type(e).__name__}: {e}"
            ) from None
        digest = _file_hash(getattr(module, "__file__", None))
        label_where = where
    obj = _attr(module, name, where)
    return Agent(_decider(obj), f"agent:{label_where}:{name}@{digest}", obj, text.strip())
