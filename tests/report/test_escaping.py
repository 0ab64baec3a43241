"""Hostile names through every page writer: the `unosim report` page (unosim.report.ask),
the Page writer of the `make reports` pages with the analyses' helpers, and the index.

Each page is read as our HTML writer wrote it, and its Markdown as a CommonMark renderer
with raw HTML on renders it (markdown-it-py, its own link filter off, as a careless
renderer would be). Neither may hold a <script> element, an on*= attribute, or a link
that is not relative or https:; figures drawn with such names do not raise and read no
mathtext; CSV cells are inert in a spreadsheet. A planted fault (escaping turned off)
shows that these checks fail when a name goes through raw.
"""

from __future__ import annotations

import csv
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import matplotlib
import pandas as pd
import pytest
from markdown_it import MarkdownIt

from unosim.report import ask, escape, figures
from unosim.report.page import Page, write_index

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cbook  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "analyses"))
import common  # noqa: E402

HOSTILE = [
    "a` [Open](javascript:alert(1)) `b",
    "<script>alert(1)</script>",
    "`<img src=x onerror=alert(1)>`",
    "[Open](javascript:alert(1))",
    "$x^{2}$",
    "$\\frac$",
    "=cmd|' /C calc'!A0",
    'q"uo\'te" <a href="javascript:alert(1)">x</a>',
    "--><script>alert(1)</script><!--",
    "+1+cmd|x",
    "@SUM(1)",
    "x\\` <img src=x onerror=alert(1)> \\`",
    "[Open]: javascript:alert(1)",
]
# the report page simulates one rule set per name: fewer names, each several attacks
REPORT_NAMES = [
    "a` [Open](javascript:alert(1)) `b <script>alert(1)</script>",
    '`<img src=x onerror=alert(1)>` $x^{2}$ q"uo\'te"',
    "=cmd|' /C calc'!A0 $\\frac$",
    "@SUM(1) [Open]: javascript:alert(1) --><script>alert(1)</script><!--",
]
TITLE = "`</title><script>alert(1)</script> <img src=x onerror=alert(1)> [Open](javascript:x)"


# ------------------------------------------------------------------------ checks


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    handle_startendtag = handle_starttag


SAFE_DATA = re.compile(r"data:image/(svg\+xml|png);base64,[A-Za-z0-9+/=]*$")


def _link_ok(value: str) -> bool:
    """Relative, https:, or one of the page's own embedded images."""
    v = re.sub(r"[\x00-\x20]", "", value).lower()
    if SAFE_DATA.match(value):
        return True
    scheme = re.match(r"^([a-z][a-z0-9+.-]*):", v)
    return (scheme is None and not v.startswith("//")) or v.startswith("https://")


def check_html(text: str, where: str) -> None:
    """No script element, no event-handler attribute, no link but relative or https:."""
    assert not re.search(r"<\s*script", text, re.I), f"{where}: <script"
    for tag in re.findall(r"<[A-Za-z][^>]*>", text):  # outside quoted attribute values
        bare = re.sub(r'"[^"]*"|\'[^\']*\'', '""', tag)
        assert not re.search(r"\son\w+\s*=", bare), f"{where}: on*= attribute in {tag}"
    p = _Tags()
    p.feed(text)
    for tag, attrs in p.tags:
        assert tag != "script", f"{where}: script element"
        for name, value in attrs:
            assert not re.fullmatch(r"on\w+", name), f"{where}: <{tag} {name}=...>"
            if name in ("href", "src", "action", "formaction", "xlink:href", "srcset"):
                assert _link_ok(value or ""), f"{where}: <{tag} {name}={value!r}>"


def render_markdown(md: str) -> list[str]:
    """``md`` through markdown-it's CommonMark (raw HTML on), with and without tables;
    its link filter off so that every link the Markdown makes is in the HTML."""
    out = []
    for table in (False, True):
        r = MarkdownIt("commonmark", {"html": True})
        if table:
            r.enable("table")
        r.validateLink = lambda url: True
        out.append(r.render(md))
    return out


def check_markdown(md: str, where: str) -> None:
    for i, h in enumerate(render_markdown(md)):
        check_html(h, f"{where} (markdown-it{', tables' if i else ''})")


def check_csv(path: Path) -> None:
    """No cell a spreadsheet would read as a formula."""
    number = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
    with open(path, newline="") as f:
        for row in csv.reader(f):
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    assert number.fullmatch(cell), f"{path.name}: formula cell {cell!r}"


def check_svg(path: Path) -> None:
    """An SVG opened on its own runs no script either."""
    for el in ET.parse(path).iter():
        assert not el.tag.endswith("script"), f"{path.name}: script element"
        for name, value in el.attrib.items():
            assert not re.fullmatch(r"(\{.*\})?on\w+", name), f"{path.name}: {name}"
            if name.endswith("href"):
                assert _link_ok(value), f"{path.name}: {name}={value!r}"


def check_folder(out: Path) -> int:
    """Every page, SVG and CSV under ``out``; returns how many files were checked."""
    n = 0
    for p in sorted(out.rglob("*")):
        if p.suffix == ".html":
            check_html(p.read_text(), p.name)
        elif p.suffix == ".md":
            check_markdown(p.read_text(), p.name)
        elif p.suffix == ".csv":
            check_csv(p)
        elif p.suffix == ".svg":
            check_svg(p)
        else:
            continue
        n += 1
    return n


# ------------------------------------------------------------------------ pages


def hostile_rule_files(folder: Path) -> list[str]:
    """TOML rule files named by ``name`` (one per hostile name, each with another rule
    changed) and one named by its file stem."""
    folder.mkdir(parents=True, exist_ok=True)
    changes = ["seven_zero = true", 'stacking = "same"', "jump_in = true", "hand_size = 6"]
    out = []
    for i, name in enumerate(REPORT_NAMES):
        body = f"name = {_toml_string(name)}\n{changes[i % len(changes)]}\n"
        (folder / f"h{i}.toml").write_text(body)
        out.append(str(folder / f"h{i}.toml"))
    stem = folder / "`<img src=x onerror=alert(1)>` $x^{2}$.toml"
    stem.write_text("seven_zero = true\nuno_penalty = 4\n")
    return out + [str(stem)]


def _toml_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def page_with(names: list[str], out: Path, title: str) -> Page:
    """A Page as the analyses write them, every block with hostile names in it, and the
    analyses' shared table and figure helpers."""
    page = Page("hostile", escape.md_text(title), f"What does {escape.code(names[0])} change?", out)
    page.lead("Under " + ", ".join(escape.code(n) for n in names) + " rounds differ.")
    page.heading(escape.md_text(names[1]))
    page.para(f"See [the table]({escape.href(names[2] + '.md')}) for {escape.code(names[3])}.")
    page.bullets(f"{escape.code(n)}: {escape.md_text(n)}" for n in names)
    page.code("\n".join(names) + "\n```\n<script>alert(1)</script>")
    page.table(
        pd.DataFrame(
            {
                "rule set": [escape.code(n) for n in names],
                "text": [escape.md_text(n) for n in names],
            }
        )
    )
    stats = {(n, c): {"m": (1.0, 0.5, 1.5)} for n in names for c in common.PLAYER_COUNTS}
    page.table(common.by_players(stats, names, "rule set", "m", 2))
    fig, ax = plt.subplots()
    common.forest(
        ax,
        names,
        [1.0] * len(names),
        [0.5] * len(names),
        [1.5] * len(names),
        [common.colour(n) for n in names],
    )
    page.figure(fig, "forest", f"Changes under {escape.code(names[4])}", main=True)
    page.figure(
        common.hist_panels(
            {n: [1, 2, 3] for n in names}, {n: common.colour(n) for n in names}, "turns", 10
        ),
        "hist",
        f"Panels of {escape.code(names[5])}",
    )
    page.data(
        pd.DataFrame({"rules": names, "value": range(len(names))}),
        "values",
        f"Values of {escape.code(names[6])}",
    )
    page.provenance(
        [f"unosim report {' '.join(names)}"],
        {escape.md_text(n): escape.code(n) for n in names},
        pd.DataFrame({"rule set": [escape.code(n) for n in names]}),
    )
    page.write()
    return page


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """The `unosim report` page of rule sets with hostile names and a hostile title."""
    base = tmp_path_factory.mktemp("hostile")
    files = hostile_rule_files(base / "rules")
    q = ask.Question(["official", *files], [2, 3], games=200, seed=3, title=TITLE)
    out = base / "report"
    page = ask.write_report(
        q, out, command="unosim report " + " ".join(files) + " --title '" + TITLE + "'"
    )
    return out, page


def test_report_page_with_hostile_names_is_inert(report):
    out, page = report
    assert len(page.figures) >= 5  # the figures were drawn with the names
    md = (out / "report.md").read_text()
    for name in REPORT_NAMES:  # the names are on the page, as text
        assert name in escape.markup_text(md) or escape.plain(name) in md, name
    assert check_folder(out) >= 2 + 5 + 4  # md, html, the SVGs, the CSVs
    data = pd.read_csv(out / "report" / "differences.csv")
    assert "'" + REPORT_NAMES[2] in set(data["rules"])  # inert, and still readable


def test_page_writer_and_index_with_hostile_names_are_inert(tmp_path):
    page_with(HOSTILE, tmp_path, TITLE)
    # an index over pages whose metadata (title, question, headline, name) is hostile
    meta = (tmp_path / "hostile" / "page.json").read_text()
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "page.json").write_text(
        meta.replace('"name": "hostile"', '"name": "javascript:alert(1)//"')
    )
    (tmp_path / "javascript:alert(1)/").mkdir(exist_ok=True)
    (tmp_path / "javascript:alert(1)//.md").touch()
    write_index(tmp_path, ["hostile"], intro=f"Pages of {escape.code(HOSTILE[0])}.")
    for p in ("hostile.md", "hostile.html", "index.md", "index.html"):
        assert (tmp_path / p).is_file()
    assert check_folder(tmp_path) >= 4 + 3  # pages, index, SVGs, CSV


def test_figures_with_hostile_names_do_not_raise_or_read_math(tmp_path):
    import numpy as np

    names = [HOSTILE[i] for i in (0, 2, 4, 5, 6, 8)]  # both mathtext names among them
    rates = pd.DataFrame(
        {"seat": [0, 1, 2], "rate": [0.3, 0.3, 0.4], "lo": [0.2] * 3, "hi": [0.5] * 3}
    )
    rows = pd.DataFrame(
        {"group": ["$\\frac$"] * len(names), "name": names, "est": 1.0, "lo": 0.0, "hi": 2.0}
    )
    long = pd.DataFrame(
        [
            {"metric": "m", "name": n, "players": p, "est": 1.0, "lo": 0.5, "hi": 1.5}
            for n in names
            for p in (3, 4)
        ]
    )
    for i, fig in enumerate(
        [
            figures.distributions(
                {n: np.arange(10) for n in names}, "$x$", "$\\frac$", title="$\\frac$"
            ),
            figures.seat_rates({n: rates for n in names}, 3, title=names[3]),
            figures.forest(rows, xlabel="$\\frac$", title=names[2]),
            figures.by_players(long, [("m", "$\\frac$")], title="$x^{2}$"),
        ]
    ):
        figures.save(fig, tmp_path / f"f{i}")  # draws every text: mathtext would raise
        check_svg(tmp_path / f"f{i}.svg")
    for n in HOSTILE:
        assert not cbook.is_math_text(escape.mpl(n)), n


def test_csv_cells_are_inert():
    assert escape.csv_cell("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0"
    for cell in ("+1+x", "-x", "@SUM(1)", "\tx", "\rx"):
        assert escape.csv_cell(cell).startswith("'"), cell
    for cell in ("-1.5", "+2", "1e-3", "official", 3, -2.0):  # numbers and plain text stay
        assert escape.csv_cell(cell) == cell


def test_code_spans_cannot_be_broken_out_of():
    for name in HOSTILE + ["``", "` `", "a``b```c", " x ", "a\nb"]:
        md = f"under {escape.code(name)} [x](y.md)"
        for h in render_markdown(md):
            code = re.findall(r"<code>(.*?)</code>", h, re.S)
            text = re.sub(r"<[^>]+>", "", h)
            import html as _h

            assert _h.unescape(text).strip() == f"under {escape.plain(name)} x", (name, h)
            assert len(code) <= 1


# ------------------------------------------------------------------- planted faults


def _unescaped(monkeypatch) -> None:
    """The escaping module turned off: names go in raw, markup goes out as written."""
    monkeypatch.setattr(escape, "code", lambda s: f"`{s}`")
    monkeypatch.setattr(escape, "md_text", lambda s: str(s))
    monkeypatch.setattr(escape, "markup_md", lambda s: str(s))
    monkeypatch.setattr(escape, "md_cell", lambda s: str(s).replace("|", "\\|"))
    monkeypatch.setattr(escape, "markup_html", lambda s, md_links=True: str(s))
    monkeypatch.setattr(escape, "html", lambda s: str(s))
    monkeypatch.setattr(escape, "csv_frame", lambda df: df)
    monkeypatch.setattr(escape, "mpl", lambda s: str(s))


def test_the_checks_catch_a_planted_unescaped_name(tmp_path, monkeypatch):
    _unescaped(monkeypatch)
    with pytest.raises(ValueError):  # a figure with "$\frac$" read as mathtext fails
        page_with(HOSTILE, tmp_path / "a", TITLE)
    safe = [n for n in HOSTILE if "$" not in n]
    page_with(safe, tmp_path / "b", TITLE)
    out = tmp_path / "b"
    for name, check in [
        ("hostile.html", lambda p: check_html(p.read_text(), p.name)),
        ("hostile.md", lambda p: check_markdown(p.read_text(), p.name)),
        ("hostile/values.csv", check_csv),
    ]:
        with pytest.raises(AssertionError):
            check(out / name)
    # and each check on its own: a backtick in a name opens a live link in Markdown,
    # even in a page whose HTML is escaped
    monkeypatch.undo()
    md = f"Under `{HOSTILE[0]}` rounds last longer.\n"
    with pytest.raises(AssertionError, match="javascript"):
        check_markdown(md, "planted")
    with pytest.raises(AssertionError, match="on"):
        check_markdown(f"# {HOSTILE[2][1:-1]}\n", "planted")
    check_markdown(f"Under {escape.code(HOSTILE[0])} rounds last longer.\n", "escaped")
