"""An isolated seat: an agent in a process of its own, one JSON line in, one line out.

The engine and every hand stay in this process; the agent's process sees only what
each of its decisions sends it (its :class:`~unosim.sim.outside.Observation`), so
nothing it does can read another hand, another agent's generator or the engine's
state, or forge a move. Each decision has a time limit. ``docs/players.md`` ("An
isolated seat") documents the protocol; in short, for each decision the engine writes
one line, a JSON object::

    {"protocol": 1, "seat": 0, "n_players": 4, "decision": "turn",
     "legal": [3, 80], "legal_names": ["play R3", "draw"], "hand": [...79 counts],
     "hand_sizes": [7, 7, 7, 7], "top": 5, "colour": 0, ..., "history": [[...], ...],
     "vector": [...], "rng": "pcg64:..."}

and reads one line back: ``{"action": 3}`` (optionally with ``"rng"``, the seat's
generator state after the decision), or ``{"error": "why"}`` to give up.

Two ways to seat such an agent: :func:`command_agent` runs a command (any language)
that speaks the protocol; :func:`isolated_agent` runs an agent file or module
(``FILE.py:NAME``, ``package.module:NAME``) in a child Python process
(``python -m unosim.sim.isolated SPEC``, the host below), through the same protocol.
An agent file run so plays exactly as it would in this process: the same observations
and the same random generator state (``obs.rng``), sent over and back, so the same
deals give the same games.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

import numpy as np

from ..kernel.outside import protocol as K
from ..players.agents import Agent, is_agent_spec
from ..players.strategies import StrategyError
from .outside import AgentError, Observation, as_action, shown_action

PROTOCOL = 1
TIMEOUT = 10.0  # seconds an agent may think about one decision
START_TIMEOUT = 60.0  # seconds more for its first decision (the process starting)
MAX_LINE = 1 << 16  # bytes of a reply line, at most
FIELDS = (
    "seat",
    "n_players",
    "decision",
    "card",
    "first",
    "step",
    "bluff",
    "top",
    "colour",
    "previous_colour",
    "direction",
    "pending_draw",
    "pending_skip",
    "challengeable",
    "pending_by",
    "draw_pile",
    "discard_pile",
    "turn",
)


# -- the generator's state, as text ------------------------------------------------------
def rng_text(rng: np.random.Generator) -> str:
    """A PCG64 generator's state as ``pcg64:STATE:INC:HAS_UINT32:UINTEGER`` (hex)."""
    st = rng.bit_generator.state
    s = st["state"]
    return f"pcg64:{s['state']:x}:{s['inc']:x}:{st['has_uint32']:x}:{st['uinteger']:x}"


def set_rng(rng: np.random.Generator, text: str) -> None:
    """Put the state ``rng_text`` wrote into ``rng`` (a PCG64 generator)."""
    name, state, inc, has, uint = text.split(":")
    if name != "pcg64":
        raise ValueError(f"not a PCG64 state: {text[:40]!r}")
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": int(state, 16), "inc": int(inc, 16)},
        "has_uint32": int(has, 16),
        "uinteger": int(uint, 16),
    }


# -- the engine's side ------------------------------------------------------------------
def message(obs: Observation) -> dict:
    """The line the engine sends for one decision: the observation's fields by name (as
    ``Observation`` documents them), the whole ``vector`` and ``history``, and the
    seat's generator state."""
    m: dict = {"protocol": PROTOCOL}
    for f in FIELDS:
        v = getattr(obs, f)
        m[f] = v if isinstance(v, str) else (bool(v) if f == "bluff" else int(v))
    m["legal"] = obs.legal
    m["legal_names"] = obs.legal_names
    m["stackable"] = obs.stackable
    m["hand"] = obs.hand.tolist()
    m["hand_sizes"] = obs.hand_sizes.tolist()
    m["discarded"] = obs.discarded.tolist()
    m["history"] = obs.history.tolist()
    m["vector"] = obs.vector().tolist()
    m["rng"] = rng_text(obs.rng)
    return m


class _Shown:
    """A value an agent's process gave that is no action, shown as it wrote it."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _stop(proc: subprocess.Popen) -> None:
    """End an agent's process: its input closed (it should exit), then killed."""
    if proc.poll() is not None:
        return
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Process:
    """An agent's process, asked one decision at a time (``__call__(obs) -> action``).

    ``argv`` the command (no shell); ``timeout`` seconds per decision, ``start`` more
    for the first. The process starts at the first decision and ends with ``close``,
    when the object is collected, or at exit; after a failure (a timeout, a line that
    is not the protocol's, the process ending) it is ended and every later decision is
    an error."""

    def __init__(
        self,
        argv: list[str],
        timeout: float = TIMEOUT,
        start: float = START_TIMEOUT,
        env: dict | None = None,
    ):
        if not argv:
            raise StrategyError("--agent-cmd: an empty command")
        if not (isinstance(timeout, (int, float)) and 0 < timeout <= 86_400):
            raise StrategyError(f"--agent-timeout must be from 0 to 86400 seconds, got {timeout!r}")
        self.argv = list(argv)
        self.env = env
        self.timeout = float(timeout)
        self.start = float(start)
        self.proc: subprocess.Popen | None = None
        self.failed: str | None = None
        self.buf = b""
        self._finalizer: weakref.finalize | None = None
        self._lock = threading.Lock()  # one decision at a time on the pipes

    def __reduce__(self):  # to a Dask worker: a process of its own there
        return (Process, (self.argv, self.timeout, self.start, self.env))

    def _open(self) -> subprocess.Popen:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                start_new_session=True,  # Ctrl-C reaches the engine, which ends it
                env=self.env,
            )
        except OSError as e:
            raise AgentError(f"cannot start {self.argv[0]!r}: {e.strerror or e}") from None
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._finalizer = weakref.finalize(self, _stop, proc)
        return proc

    def close(self) -> None:
        """End the process (a later decision starts a new one)."""
        if self._finalizer is not None:
            self._finalizer()
        self.proc = None
        self.buf = b""

    def _fail(self, why: str) -> AgentError:
        self.failed = why
        self.close()
        return AgentError(why)

    def _ended(self) -> str:
        code = self.proc.wait() if self.proc is not None else None
        return f"its process ended (exit code {code}) without an action"

    def __call__(self, obs: Observation):
        actions, failure = self.ask_many([obs])
        if failure is not None:
            raise failure
        return actions[0]

    def ask_many(self, batch: list[Observation]) -> tuple[list, AgentError | None]:
        """The actions for the decisions ``batch`` (of different games), sent at once and
        answered in order, each reply within the time limit of the one before (so the
        pipes' round trips overlap): the actions up to the first failure, and that
        failure (``AgentError``, or None)."""
        done: list = []
        with self._lock:
            if self.failed is not None:
                return done, AgentError(f"{self.failed} (earlier)")
            try:
                self._exchange(batch, done)
            except AgentError as e:
                return done, e
        return done, None

    def _exchange(self, batch: list[Observation], done: list) -> None:
        limit = self.timeout
        if self.proc is None:
            self.proc = self._open()
            limit += self.start
        lines = (json.dumps(message(obs), separators=(",", ":")) + "\n" for obs in batch)
        view = memoryview("".join(lines).encode())
        assert self.proc.stdin is not None and self.proc.stdout is not None
        wfd, rfd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        deadline = time.monotonic() + limit
        while len(done) < len(batch):
            if b"\n" in self.buf:
                line, _, self.buf = self.buf.partition(b"\n")
                done.append(self._reply(line, batch[len(done)]))
                limit = self.timeout
                deadline = time.monotonic() + limit
                continue
            if len(self.buf) > MAX_LINE:
                raise self._fail(f"its reply is longer than {MAX_LINE:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"no action within {limit:g} s")
            r, w, _ = select.select([rfd], [wfd] if view else [], [], left)
            if w:
                try:
                    view = view[os.write(wfd, view[:MAX_LINE]) :]
                except BlockingIOError:
                    pass
                except OSError:  # it closed its input: what it wrote says the rest
                    view = memoryview(b"")
            if r:
                try:
                    chunk = os.read(rfd, MAX_LINE)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise self._fail(self._ended())
                self.buf += chunk

    def _reply(self, line: bytes, obs: Observation):
        """The action of one reply line (its generator state put into ``obs.rng``)."""
        if len(line) > MAX_LINE:
            raise self._fail(f"its reply is longer than {MAX_LINE:,} bytes")
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            raise self._fail(
                f"its reply is not a JSON line: {line[:60].decode('utf-8', 'replace')!r}"
            ) from None
        if not isinstance(reply, dict):
            raise self._fail(f"its reply is not a JSON object: {shown_action(reply)}")
        if "error" in reply:
            raise self._fail(str(reply["error"])[:300] or "it gave up")
        if "rng" in reply:
            try:
                set_rng(obs.rng, str(reply["rng"]))
            except (ValueError, TypeError, KeyError):
                shown = repr(reply["rng"])[:60]
                raise self._fail(f"its reply's rng is not a generator state: {shown}") from None
        if "action" not in reply:
            raise self._fail("its reply has no action")
        a = reply["action"]
        if "shown" in reply and as_action(a) is None:
            return _Shown(str(reply["shown"])[:80])
        return a


def command_agent(
    command: str | list[str], timeout: float = TIMEOUT, start: float = START_TIMEOUT
) -> Agent:
    """An agent that is a command speaking the protocol (split like a shell, run without
    one), each decision within ``timeout`` seconds (the first within ``start`` more)."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise StrategyError(f"--agent-cmd {command!r}: {e}") from None
    else:
        argv = [str(a) for a in command]
    proc = Process(argv, timeout, start)
    shown = shlex.join(argv)
    return Agent(proc, f"agent:cmd:{shown[:100]}", proc)


def host_argv(spec: str) -> list[str]:
    """The command running agent ``spec`` in a child Python process (this module's host)."""
    return [sys.executable, "-m", "unosim.sim.isolated", spec]


def isolated_agent(spec: str, timeout: float = TIMEOUT, start: float = START_TIMEOUT) -> Agent:
    """The agent ``spec`` (``FILE.py:NAME`` or ``package.module:NAME``) in a child Python
    process through the protocol; its label is the one it has in this process (the
    file's hash is checked here, the file run there)."""
    from ..players.agents import load_label

    if not is_agent_spec(spec) or spec.strip().startswith("openspiel:"):
        raise StrategyError(f"--isolate: {spec!r} is not an agent (FILE.py:NAME or module:NAME)")
    where, _, name = spec.strip().rpartition(":")
    if where.strip().endswith(".py"):  # the child may run elsewhere: the file by its path
        path = Path(where.strip()).expanduser().resolve()
        spec = f"{path}:{name.strip()}"
    label = load_label(spec)
    root = str(Path(__file__).resolve().parents[2])  # the child imports this unosim
    paths = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    proc = Process(host_argv(spec), timeout, start, dict(os.environ, PYTHONPATH=paths))
    return Agent(proc, label, proc, None)


# -- the agent's side: the host -----------------------------------------------------------
def _observation(m: dict, rng: np.random.Generator) -> Observation:
    row = np.zeros(K.O_HIST, np.int64)
    v = np.asarray(m["vector"], dtype=np.int64)
    row[K.O_MASK : K.O_MASK + v.size] = v
    hist = np.asarray(m["history"], dtype=np.int64).reshape(-1, K.HIST_W)
    return Observation(row, hist, lambda: rng)


def _answer(agent, m: dict) -> dict:
    rng = np.random.Generator(np.random.PCG64())
    set_rng(rng, m["rng"])
    obs = _observation(m, rng)
    try:
        a = agent(obs)
    except KeyboardInterrupt:
        raise
    except SystemExit as e:
        return {"error": f"the agent tried to end the program (sys.exit({e.code!r}))"}
    except BaseException as e:  # noqa: BLE001  (whatever the agent's code throws)
        text = str(e).strip().splitlines()
        what = f": {text[0][:300]}" if text else ""
        return {"error": f"the agent raised {type(e).__name__}{what}"}
    i = as_action(a)
    reply: dict = {"action": i} if i is not None else {"action": None, "shown": shown_action(a)}
    if obs._rng is not None:
        reply["rng"] = rng_text(rng)
    return reply


def host(spec: str) -> int:
    """Run agent ``spec`` over the protocol on stdin/stdout until stdin ends. The
    agent's own prints go to stderr (stdout carries the protocol only)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the engine ends this process
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    from ..players.agents import load

    try:
        agent = load(spec)
    except StrategyError as e:  # said in answer to the first decision
        sys.stdin.readline()
        out.write(json.dumps({"error": str(e)}) + "\n")
        return 2
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = _answer(agent, json.loads(line))
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        if "error" in reply:
            return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m unosim.sim.isolated FILE.py:NAME (or package.module:NAME)")
    sys.exit(host(sys.argv[1]))
