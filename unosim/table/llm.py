"""A language model at the table: an agent that asks any OpenAI-compatible chat endpoint
(``POST {url}/chat/completions``) for each decision, through the text view.

Seat it like any agent, by the label ``unosim.table.llm:agent`` (for example
``unosim evaluate unosim.table.llm:agent --games 40``); it reads its endpoint from the
environment at each decision:

``UNOSIM_LLM_URL``    the API's base address, e.g. ``http://127.0.0.1:8080/v1``
``UNOSIM_LLM_MODEL``  the model's name (the request's ``model``)
``UNOSIM_LLM_KEY``    the API key, sent as ``Authorization: Bearer KEY`` (or
                      ``OPENAI_API_KEY``; none: no header)

Each decision sends the seat's view (:func:`unosim.text.render`) as the user message;
an invalid reply is answered with its reason and the view again, once
(``UNOSIM_LLM_RETRIES``, default 1), then the seat plays the fallback action
(:class:`unosim.table.text.MovePolicy`). The counts are ``agent.counts``;
``unosim evaluate`` reports invalid moves per round from them.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from .text import MoveCounts, MovePolicy, render

SYSTEM = (
    "You are playing the card game UNO. Each message shows your view of the table and "
    "a lettered list of legal actions. Reply with the letter of the action you choose, "
    "and nothing else."
)
MAX_RESPONSE_BYTES = 1 << 20  # a larger answer from the endpoint is refused
TIMEOUT = 120.0  # seconds per request
HTTP_TRIES = 3  # a request that fails (network, 5xx) is sent at most this many times


class EndpointError(RuntimeError):
    """The chat endpoint could not be reached or answered nonsense."""


def _env(name: str, default: str | None = None) -> str | None:
    v = os.environ.get(name)
    return v if v else default


class ChatAgent:
    """An agent asking a chat endpoint (``url``, ``model``, ``key``; None: read from the
    environment at each decision, as the module's docstring says)."""

    def __init__(
        self,
        url: str | None = None,
        model: str | None = None,
        key: str | None = None,
        retries: int | None = None,
        timeout: float = TIMEOUT,
        system: str = SYSTEM,
    ):
        self.url, self.model, self.key = url, model, key
        self.retries, self.timeout, self.system = retries, timeout, system
        self.counts = MoveCounts()
        self.requests = 0

    def _config(self) -> tuple[str, str, str | None, int]:
        url = self.url or _env("UNOSIM_LLM_URL")
        model = self.model or _env("UNOSIM_LLM_MODEL")
        if not url or not model:
            raise EndpointError(
                "the language-model agent needs UNOSIM_LLM_URL and UNOSIM_LLM_MODEL "
                "(an OpenAI-compatible API's base address and a model name)"
            )
        if not url.startswith(("http://", "https://")):
            raise EndpointError(f"UNOSIM_LLM_URL must start with http:// or https://, got {url!r}")
        key = self.key or _env("UNOSIM_LLM_KEY") or _env("OPENAI_API_KEY")
        retries = self.retries
        if retries is None:
            try:
                retries = int(_env("UNOSIM_LLM_RETRIES", "1") or 1)
            except ValueError:
                raise EndpointError("UNOSIM_LLM_RETRIES must be a whole number") from None
        return url.rstrip("/"), model, key, max(0, retries)

    def chat(self, messages: list[dict]) -> str:
        """The endpoint's reply text to ``messages``."""
        url, model, key, _ = self._config()
        body = json.dumps({"model": model, "messages": messages, "temperature": 0}).encode()
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        where = f"{url}/chat/completions"
        last = ""
        for _ in range(HTTP_TRIES):
            req = urllib.request.Request(where, data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as r:
                    raw = r.read(MAX_RESPONSE_BYTES + 1)
            except urllib.error.HTTPError as e:
                last = f"HTTP {e.code} {e.reason}"
                if e.code < 500 and e.code != 429:
                    break
                continue
            except (urllib.error.URLError, TimeoutError, OSError) as e:
                last = str(getattr(e, "reason", e))
                continue
            self.requests += 1
            if len(raw) > MAX_RESPONSE_BYTES:
                raise EndpointError(f"{where}: the answer is larger than 1 MB")
            try:
                content = json.loads(raw)["choices"][0]["message"]["content"]
            except (ValueError, KeyError, IndexError, TypeError):
                raise EndpointError(f"{where}: not a chat completion answer") from None
            return content if isinstance(content, str) else ""
        raise EndpointError(f"{where}: {last}".replace("\n", " ")[:300])

    def act(self, obs) -> int:
        """One decision (an ``unosim`` agent's ``act``)."""
        _, _, _, retries = self._config()
        convo: list[dict] = [{"role": "system", "content": self.system}]

        def ask(view: str, error: str | None) -> str:
            if error is None:
                convo.append({"role": "user", "content": view})
            else:
                convo.append({"role": "user", "content": f"Invalid: {error}.\n\n{view}"})
            reply = self.chat(convo)
            convo.append({"role": "assistant", "content": reply})
            return reply

        return MovePolicy(retries, self.counts).decide(obs, ask, render(obs))

    def __call__(self, obs) -> int:
        return self.act(obs)


agent = ChatAgent()  # the seat label ``unosim.table.llm:agent``: configured from the environment


def reset_move_counts(source: object) -> MoveCounts | None:
    """The move counts of an agent that keeps them (an object with ``counts``, a
    :class:`MoveCounts`), set to 0; else None."""
    counts = getattr(source, "counts", None)
    if not isinstance(counts, MoveCounts):
        return None
    counts.reset()
    return counts


def invalid_move_facts(counts: MoveCounts | None, rounds: int) -> dict[str, str]:
    """The ladder page's line about invalid moves (``counts`` over the ``rounds`` the
    agent played); none without counts."""
    if counts is None or rounds <= 0:
        return {}
    c = counts.as_dict()
    return {
        "invalid moves": (
            f"{c['invalid']:,} in {rounds:,} rounds ({c['invalid'] / rounds:.3f} per round), "
            f"{c['decisions']:,} decisions; {c['fallbacks']:,} fallback actions played"
        )
    }
