"""Text from outside (rule-set names, TOML ``name``, file stems, ``--title``, strategy
labels) made safe for where it goes: HTML, Markdown, matplotlib text, CSV cells.

Pages are written in a small inline markup (a subset of CommonMark): code spans,
``**bold**``, ``[text](target)`` and backslash escapes. :func:`code` and :func:`md_text`
put outside text into that markup so it cannot be broken out of; :func:`markup_html`,
:func:`markup_md` and :func:`markup_text` render the markup, and whatever reached them
unescaped still cannot become raw HTML or a link other than a relative or ``https:``
one (:func:`url`).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import markupsafe

__all__ = [
    "html",
    "plain",
    "md_text",
    "code",
    "url",
    "href",
    "mpl",
    "csv_cell",
    "csv_frame",
    "markup_html",
    "markup_md",
    "markup_text",
    "md_cell",
]

MD_SPECIAL = set("\\`*_[]<>&!$~#")  # what md_text escapes: markup, raw HTML, math


def html(text) -> str:
    """``text`` for HTML text or a quoted attribute value (markupsafe)."""
    return str(markupsafe.escape(str(text)))


def plain(text) -> str:
    """``text`` on one line: control characters (line breaks, tabs, ...) written as
    their escapes (``\\n``), so outside text cannot start a line or a block of its own."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in str(text))


def md_text(text) -> str:
    """``text`` as literal Markdown (and page markup): one line, every character that
    could mean markup, raw HTML or math backslash-escaped."""
    return "".join("\\" + c if c in MD_SPECIAL else c for c in plain(text))


_SAFE_CODE = re.compile(r"[^\\|\s]*(?: [^\\|\s]+)*")


def code(text) -> str:
    """``text`` as an inline code span no character of it can close: the fence is one
    backtick longer than its longest run of backticks. Text with a backslash, a ``|``
    (either can end a table cell in GitHub's renderer) or spaces at its ends is written
    as escaped plain text (:func:`md_text`) instead."""
    s = plain(text)
    if not s or not _SAFE_CODE.fullmatch(s):
        return md_text(s)
    run = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * (run + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def url(target) -> str | None:
    """``target`` if it is a relative link or an ``https:`` one, else ``None``."""
    t = str(target)
    if not t or any(c.isspace() or not c.isprintable() or c in "\\<>\"'`&" for c in t):
        return None
    if _SCHEME.match(t):
        return t if t[:8].lower() == "https://" and len(t) > 8 else None
    return None if t.startswith("//") else t


def href(path: str) -> str:
    """A relative link to a file name from outside: percent-encoded."""
    return quote(str(path), safe="/.-_~")


def mpl(text) -> str:
    """``text`` for matplotlib: every ``$`` escaped, so nothing is read as mathtext."""
    return plain(text).replace("$", r"\$")


_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def csv_cell(value):
    """A CSV cell a spreadsheet will not read as a formula: a text starting with
    ``= + - @``, a tab or a carriage return (and not a plain number) gets a leading
    ``'``. Other values are returned as they are."""
    if (
        isinstance(value, str)
        and value[:1] in ("=", "+", "-", "@", "\t", "\r")
        and not _NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def csv_frame(df):
    """``df`` with :func:`csv_cell` on every text cell and column name."""
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    out = df.copy()
    for i in range(out.shape[1]):  # by position: names may repeat
        col = out.iloc[:, i]
        if not (is_numeric_dtype(col.dtype) or is_bool_dtype(col.dtype)):
            out.isetitem(i, col.map(csv_cell))
    out.columns = [csv_cell(str(c)) for c in out.columns]
    return out


# ------------------------------------------------------------------- page markup

_TOKEN = re.compile(
    r"\\(?P<esc>[!-/:-@\[-`{-~])|(?P<ticks>`+)|(?P<bold>\*\*)"
    r"|\[(?P<text>(?:\\.|`[^`]*`|[^\]\\`])*)\]\((?P<target>[^()\s]*)\)"
)


def _tokens(markup: str):
    """The markup as ``(kind, value, source)`` tokens, kinds ``text``, ``esc`` (a
    backslash escape), ``code``, ``bold`` and ``link`` (value ``(text, target)``). Code
    spans are found as CommonMark finds them: a run of n backticks is closed only by
    the next run of exactly n, and nothing inside is markup."""
    i, n = 0, len(markup)
    while i < n:
        m = _TOKEN.search(markup, i)
        if m is None:
            yield ("text", markup[i:], markup[i:])
            return
        if m.start() > i:
            yield ("text", markup[i : m.start()], markup[i : m.start()])
        i = m.end()
        if m["esc"] is not None:
            yield ("esc", m["esc"], m.group(0))
        elif m["ticks"] is not None:
            fence = m["ticks"]
            close = re.compile(f"(?<!`){fence}(?!`)").search(markup, i)
            if close is None:  # no closer: literal backticks
                yield ("text", fence, fence)
                continue
            body = markup[i : close.start()].replace("\n", " ")
            if len(body) > 2 and body[0] == body[-1] == " " and body.strip():
                body = body[1:-1]
            yield ("code", body, markup[m.start() : close.end()])
            i = close.end()
        elif m["bold"] is not None:
            yield ("bold", "**", "**")
        else:
            yield ("link", (m["text"], m["target"]), m.group(0))


def markup_html(markup: str, md_links: bool = True) -> str:
    """Page markup as HTML: code, bold (in pairs), links to relative or ``https:``
    targets (``.md`` targets become ``.html`` with ``md_links``); all else escaped."""
    toks = list(_tokens(str(markup)))
    pairs = sum(t[0] == "bold" for t in toks) // 2 * 2  # an odd last ``**`` is text
    out, seen = [], 0
    for kind, v, _source in toks:
        if kind in ("text", "esc"):
            out.append(html(v))
        elif kind == "code":
            out.append(f"<code>{html(v)}</code>")
        elif kind == "bold":
            seen += 1
            out.append("**" if seen > pairs else ("<strong>" if seen % 2 else "</strong>"))
        else:
            target = url(v[1])
            if target is None:
                out.append(f"[{markup_html(v[0], md_links)}]({html(v[1])})")
                continue
            if md_links and target.endswith(".md") and not _SCHEME.match(target):
                target = target[:-3] + ".html"
            out.append(f'<a href="{html(target)}">{markup_html(v[0], md_links)}</a>')
    return "".join(out)


def markup_text(markup: str) -> str:
    """Page markup as plain text (an image's alt text): code spans and links by their
    text, no bold marks."""
    out = []
    for kind, v, _ in _tokens(str(markup)):
        if kind in ("text", "esc", "code"):
            out.append(v)
        elif kind == "link":
            out.append(markup_text(v[0]))
    return "".join(out)


# in plain text, what could open raw HTML or an autolink (``<`` before a letter, ``/``,
# ``!`` or ``?``), or make a link or a link definition (``]`` before ``(``, ``[``, ``:``)
_MD_OPENERS = re.compile(r"<(?=[A-Za-z/!?])|\](?=[(\[:])")


def markup_md(markup: str) -> str:
    """Page markup as Markdown: as written, except that line breaks become spaces,
    text that could open raw HTML, an autolink or a link is escaped, and a link to a
    target neither relative nor ``https:`` is written as text."""
    out = []
    for kind, v, source in _tokens(str(markup)):
        if kind == "text":
            out.append(_MD_OPENERS.sub(lambda m: "\\" + m.group(0), re.sub(r"[\r\n]", " ", v)))
        elif kind == "link":
            if url(v[1]) is None:
                out.append(f"\\[{markup_md(v[0])}\\]\\({md_text(v[1])}\\)")
            else:
                out.append(f"[{markup_md(v[0])}]({v[1]})")
        elif kind == "code":
            out.append(source.replace("\r", " ").replace("\n", " "))
        else:
            out.append(source)
    return "".join(out)


_PIPE = re.compile(r"(?<!\\)((?:\\\\)*)\|")  # a ``|`` not already escaped


def md_cell(markup: str) -> str:
    """Page markup for a Markdown table cell: :func:`markup_md`, every unescaped ``|``
    escaped (GitHub's renderer and markdown-it both read ``\\|`` as a pipe in a cell)."""
    return _PIPE.sub(lambda m: m.group(1) + "\\|", markup_md(markup))
