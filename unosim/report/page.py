"""Report pages: Markdown with figures beside it, a self-contained HTML twin, an index.

A :class:`Page` opens with its answer in plain words (:meth:`Page.lead`) and its main
figure (:meth:`Page.figure` with ``main=True``), then details. It is a list of blocks
(headings, paragraphs, lists, tables, figures, code), each rendered to both Markdown and
HTML, so the two versions say the same thing. Each figure is stored once, as SVG beside
the page (``<out>/<name>/<stem>.svg``, deterministic bytes: :mod:`unosim.report.figures`),
and both versions refer to it (a file, not a copy inside the HTML: the Markdown needs the
file anyway, and one copy keeps ``reports/`` small); the folder goes with the page. The
main figure's small PNG twin is the index's thumbnail, the only PNG. Figures are drawn
when added and written by :meth:`Page.write`, so a page can be made before its folder is
known (``out`` given to :meth:`Page.write`). Paragraph
text may use a small inline subset of Markdown: ``code``, ``**bold**``, ``[text](target)`` (a target
ending in ``.md`` becomes ``.html`` in the HTML version) and backslash escapes; titles
and headings too. Text from outside goes in through :func:`unosim.report.escape.code` or
:func:`~unosim.report.escape.md_text`, and both renderings go through
:mod:`unosim.report.escape`: no raw HTML, links only relative or ``https:``, CSV cells
that no spreadsheet reads as formulas.

Numbers in the text are formatted by :func:`ci`, :func:`num` and :func:`pct` from the
results, never typed by hand. Every page ends with a provenance block
(:meth:`Page.provenance`): the command that rebuilds it, versions, seeds, and every
simulation run it used, with rule hashes and games.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import escape as esc
from .numbers import ci, num, pct, pm

__all__ = [
    "Page",
    "ci",
    "num",
    "pct",
    "pm",
    "savefig",
    "write_index",
    "PROVENANCE_HEADING",
    "PAGE_META",
]

PROVENANCE_HEADING = "How this was produced"
PAGE_META = "page.json"  # per page, beside its figures: title, question, headline

# ------------------------------------------------------------------------ formatting


def savefig(fig, path: Path) -> Path:
    """Save a matplotlib figure as ``<path stem>.svg`` with deterministic metadata
    (:func:`unosim.report.figures.save`) and close it; returns the SVG's path."""
    from .figures import save

    return save(fig, Path(path).with_suffix(""))


THUMB_DPI = 40  # the index's thumbnails of each page's main figure


def _drawn(fig, thumbnail: bool) -> tuple[bytes, bytes | None]:
    """``fig`` as deterministic SVG bytes and, with ``thumbnail``, small PNG bytes;
    closes it."""
    import io

    from .figures import save

    thumb = None
    if thumbnail:
        buf = io.BytesIO()
        fig.savefig(
            buf, format="png", dpi=THUMB_DPI, metadata={"Software": None}, bbox_inches="tight"
        )
        thumb = buf.getvalue()
    buf = io.BytesIO()
    save(fig, buf)
    return buf.getvalue(), thumb


# --------------------------------------------------------------------- inline markup


def _fence(text: str) -> str:
    """A code-block fence no line of ``text`` can close: 3 backticks, or one more than
    its longest run."""
    return "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0))


# ----------------------------------------------------------------------------- page


@dataclass
class _Block:
    kind: str
    data: dict


@dataclass
class Page:
    """One report page.

    Parameters
    ----------
    name : file stem of the page (``reports/<name>.md``); figures go to ``<out>/<name>/``.
    title : the page title.
    question : the question the page answers (one sentence).
    out : the reports folder (or None until :meth:`write` is given one).
    """

    name: str
    title: str
    question: str
    out: Path | None = None
    headline: str = ""
    opening: list[str] = field(default_factory=list)  # plain findings, for a terminal
    # the same answer in a family's words (minutes at the table, going first), printed
    # after the findings
    at_the_table: list[str] = field(default_factory=list)
    blocks: list[_Block] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)  # paths relative to ``out``
    main_figure: str | None = None
    has_provenance: bool = False

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # CSV stem -> frame

    def __post_init__(self) -> None:
        self.out = None if self.out is None else Path(self.out)

    @property
    def folder(self) -> Path:
        """Where the page's figures and tables go."""
        if self.out is None:
            raise ValueError(f"page {self.name!r} has no output folder yet")
        return self.out / self.name

    # -- blocks -----------------------------------------------------------------------
    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append(_Block("heading", {"text": text, "level": level}))

    def para(self, text: str) -> None:
        self.blocks.append(_Block("para", {"text": text}))

    def lead(self, text: str) -> None:
        """The page's opening: its answer in 1-3 plain sentences, shown first and used
        as the index's headline."""
        self.headline = text
        self.blocks.append(_Block("lead", {"text": text}))

    def bullets(self, items: Iterable[str]) -> None:
        self.blocks.append(_Block("bullets", {"items": list(items)}))

    def code(self, text: str) -> None:
        self.blocks.append(_Block("code", {"text": text}))

    def table(
        self, df: pd.DataFrame, align: Sequence[str] | None = None, scroll: bool = False
    ) -> None:
        """A table of preformatted cells (``df`` values become text as they are);
        ``scroll``: a wide table scrolls sideways inside its own box (HTML)."""
        header = [str(c) for c in df.columns]
        rows = [[str(v) for v in r] for r in df.itertuples(index=False)]
        if align is None:
            align = ["l"] + ["r"] * (len(header) - 1)
        data = {"header": header, "rows": rows, "align": list(align)}
        if scroll:
            data["scroll"] = True
        self.blocks.append(_Block("table", data))

    def fold(self, summary: str) -> None:
        """Start a part folded away under ``summary`` (``<details>``): the analysts'
        detail below the family's answer; :meth:`end_fold` ends it."""
        self.blocks.append(_Block("fold", {"summary": summary}))

    def end_fold(self) -> None:
        self.blocks.append(_Block("end_fold", {}))

    def figure(self, fig, stem: str, caption: str, main: bool = False) -> str:
        """Draw ``fig`` (closing it) as ``<name>/<stem>.svg``, written by :meth:`write`,
        and show it with ``caption``; ``main``: the page's main figure (first screen,
        index thumbnail). Returns the figure's path relative to ``out``."""
        svg, thumb = _drawn(fig, thumbnail=main)
        rel = f"{self.name}/{stem}.svg"
        self.figures.append(rel)
        if main:
            self.main_figure = rel
        self.blocks.append(
            _Block(
                "figure",
                {"path": rel, "caption": caption, "main": main, "svg": svg, "thumb": thumb},
            )
        )
        return rel

    def data(self, df: pd.DataFrame, stem: str, what: str) -> str:
        """Write ``df`` as ``<name>/<stem>.csv`` (by :meth:`write`) and link it; returns
        the path relative to ``out``."""
        self.tables[stem] = df
        rel = f"{self.name}/{stem}.csv"
        self.para(f"{what}: [{esc.code(rel)}]({esc.href(rel)}).")
        return rel

    def provenance(
        self,
        commands: Sequence[str],
        facts: dict[str, str],
        runs: pd.DataFrame,
        notes: Sequence[str] = (),
    ) -> None:
        """The closing block: how to rebuild the page and what it was made from.

        ``commands`` are equivalent ways to rebuild it; ``facts`` are shown as a list
        (label -> value), ``runs`` as a table (one row per simulation), ``notes`` as
        paragraphs after them.
        """
        self.heading(PROVENANCE_HEADING)
        self.para("Rebuild with " + " or ".join(esc.code(c) for c in commands) + ".")
        self.bullets(f"{k}: {v}" for k, v in facts.items())
        if len(runs):
            self.table(runs, align=["l"] * len(runs.columns))
        for n in notes:
            self.para(n)
        self.has_provenance = True

    # -- rendering --------------------------------------------------------------------
    def markdown(self) -> str:
        md, cell = esc.markup_md, esc.md_cell
        out = [f"# {md(self.title)}", "", f"**Question.** {md(self.question)}", ""]
        for b in self.blocks:
            d = b.data
            if b.kind == "heading":
                out += ["#" * d["level"] + " " + md(d["text"]), ""]
            elif b.kind in ("para", "lead"):
                out += [md(d["text"]), ""]
            elif b.kind == "bullets":
                out += [f"- {md(i)}" for i in d["items"]] + [""]
            elif b.kind == "code":
                fence = _fence(d["text"])
                out += [fence, d["text"].rstrip("\n"), fence, ""]
            elif b.kind == "table":
                sep = {"l": "---", "r": "---:", "c": ":---:"}
                out.append("| " + " | ".join(cell(h) for h in d["header"]) + " |")
                out.append("|" + "|".join(sep[a] for a in d["align"]) + "|")
                out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in d["rows"]]
                out.append("")
            elif b.kind == "fold":
                out += ["<details>", f"<summary>{esc.markup_html(d['summary'])}</summary>", ""]
            elif b.kind == "end_fold":
                out += ["</details>", ""]
            elif b.kind == "figure":
                out += [
                    f"![{md(d['caption'])}]({esc.href(d['path'])})",
                    "",
                    f"*{md(d['caption'])}*",
                    "",
                ]
        return "\n".join(out).rstrip("\n") + "\n"

    def html(self) -> str:
        body = [
            f"<h1>{esc.markup_html(self.title)}</h1>",
            f"<p><strong>Question.</strong> {esc.markup_html(self.question)}</p>",
        ]
        for b in self.blocks:
            d = b.data
            if b.kind == "heading":
                lv = d["level"]
                body.append(f"<h{lv}>{esc.markup_html(d['text'])}</h{lv}>")
            elif b.kind == "para":
                body.append(f"<p>{esc.markup_html(d['text'])}</p>")
            elif b.kind == "lead":
                body.append(f'<p class="lead">{esc.markup_html(d["text"])}</p>')
            elif b.kind == "bullets":
                body.append(
                    "<ul>" + "".join(f"<li>{esc.markup_html(i)}</li>" for i in d["items"]) + "</ul>"
                )
            elif b.kind == "code":
                body.append(f"<pre><code>{esc.html(d['text'])}</code></pre>")
            elif b.kind == "table":
                cls = {"l": "", "r": ' class="r"', "c": ' class="c"'}
                head = "".join(
                    f"<th{cls[a]}>{esc.markup_html(h)}</th>"
                    for h, a in zip(d["header"], d["align"])
                )
                rows = "".join(
                    "<tr>"
                    + "".join(
                        f"<td{cls[a]}>{esc.markup_html(c)}</td>" for c, a in zip(r, d["align"])
                    )
                    + "</tr>"
                    for r in d["rows"]
                )
                table = f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
                if d.get("scroll"):  # scrolls inside its box, not the page
                    table = f'<div style="overflow-x:auto;max-width:100%">{table}</div>'
                body.append(table)
            elif b.kind == "fold":
                body.append(f"<details><summary>{esc.markup_html(d['summary'])}</summary>")
            elif b.kind == "end_fold":
                body.append("</details>")
            elif b.kind == "figure":
                alt = esc.html(esc.markup_text(d["caption"]))
                main = ' class="main"' if d.get("main") else ""
                body.append(
                    f'<figure{main}><img alt="{alt}" '
                    f'src="{esc.html(esc.href(d["path"]))}">'
                    f"<figcaption>{esc.markup_html(d['caption'])}</figcaption></figure>"
                )
        return _html_document(self.title, "\n".join(body))

    def write(self, out: Path | None = None) -> tuple[Path, Path]:
        """Write ``<out>/<name>.md``, ``<out>/<name>.html``, and in ``<out>/<name>/`` the
        figures, tables and the page's metadata; figures and thumbnails of an earlier
        build that this page no longer draws are removed."""
        if not self.has_provenance:
            raise ValueError(f"page {self.name!r} has no provenance block")
        if out is not None:
            self.out = Path(out)
        folder = self.folder
        folder.mkdir(parents=True, exist_ok=True)
        written = set()
        for b in self.blocks:
            if b.kind == "figure":
                svg = folder.parent / b.data["path"]
                svg.write_bytes(b.data["svg"])
                written.add(svg.name)
                if b.data["thumb"] is not None:
                    thumb = svg.with_name(svg.stem + "-thumb.png")
                    thumb.write_bytes(b.data["thumb"])
                    written.add(thumb.name)
        for old in [*folder.glob("*.svg"), *folder.glob("*.png")]:
            if old.name not in written:
                old.unlink()
        for stem, df in self.tables.items():
            esc.csv_frame(df).to_csv(
                folder / f"{stem}.csv", index=False, float_format="%.6g", lineterminator="\n"
            )
        md, page_html = folder.parent / f"{self.name}.md", folder.parent / f"{self.name}.html"
        md.write_text(self.markdown())
        page_html.write_text(self.html())
        main = self.main_figure or (self.figures[0] if self.figures else None)
        meta = {
            "name": self.name,
            "title": self.title,
            "question": self.question,
            "headline": self.headline,
            "figures": list(self.figures),
            "main_figure": main,
        }
        (folder / PAGE_META).write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
        return md, page_html


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:62rem;margin:2rem auto;
padding:0 1rem;line-height:1.5;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.2rem .5rem}th{background:#f3f3f3}
td.r,th.r{text-align:right}td.c,th.c{text-align:center}
code{background:#f3f3f3;padding:0 .2rem;border-radius:3px}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto}
figure{margin:1.5rem 0}img{max-width:100%}figcaption{font-style:italic;color:#555}
p.lead{font-size:1.1rem}figure.main{margin:.8rem 0}figure.main img{max-height:25rem}
.thumb{float:right;margin:0 0 .5rem 1rem;width:20rem;border:1px solid #ddd}
h2{clear:both}
"""


def _html_document(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc.html(esc.markup_text(title))}</title>\n<style>{_CSS}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


# ---------------------------------------------------------------------------- index


ATLAS_PAGE = "atlas.html"
ATLAS_TITLE = "The UNO rules atlas: your rules, your table"
ATLAS_TEXT = (
    "Tick the rules you play with and pick how many play: how long a round lasts (in "
    "turns and minutes), whether going first matters, and what each house rule changes, "
    "answered at once in your browser."
)


def write_index(out: Path, order: Sequence[str] = (), intro: str = "") -> tuple[Path, Path]:
    """``<out>/index.md`` and ``index.html``: every page found in ``out`` (by its
    ``<name>/page.json``), in ``order`` first, then by name; title, question, headline."""
    out = Path(out)
    metas = {}
    for p in sorted(out.glob(f"*/{PAGE_META}")):
        m = json.loads(p.read_text())
        if (out / f"{m['name']}.md").exists():
            metas[m["name"]] = m
    names = [n for n in order if n in metas] + sorted(n for n in metas if n not in order)
    md = ["# unosim reports", ""]
    if intro:
        md += [esc.markup_md(intro), ""]
    body = ["<h1>unosim reports</h1>"] + ([f"<p>{esc.markup_html(intro)}</p>"] if intro else [])
    if (out / ATLAS_PAGE).exists():  # the atlas first: the answer to your own rules
        md += [f"## [{ATLAS_TITLE}]({ATLAS_PAGE})", "", ATLAS_TEXT, ""]
        body += [
            f'<h2><a href="{ATLAS_PAGE}">{esc.html(ATLAS_TITLE)}</a></h2>',
            f"<p>{esc.html(ATLAS_TEXT)}</p>",
        ]
    for n in names:
        m = metas[n]
        main = m.get("main_figure")
        thumb = out / main.replace(".svg", "-thumb.png") if main else None
        title, link = esc.markup_md(m["title"]), esc.href(n)
        md += [f"## [{title}]({link}.md)", ""]
        if thumb is not None and thumb.exists():
            md += [
                f"[![{title}: main figure]({esc.href(thumb.relative_to(out).as_posix())})]"
                f"({link}.md)",
                "",
            ]
        md += [
            f"**Question.** {esc.markup_md(m['question'])}",
            "",
            f"**Answer.** {esc.markup_md(m['headline'])}",
            "",
            f"[Markdown]({link}.md) · [HTML]({link}.html)",
            "",
        ]
        body.append(f'<h2><a href="{link}.html">{esc.markup_html(m["title"])}</a></h2>')
        if thumb is not None and thumb.exists():
            src = esc.html(esc.href(thumb.relative_to(out).as_posix()))
            body.append(
                f'<a href="{link}.html"><img class="thumb" alt="'
                f'{esc.html(esc.markup_text(m["title"]))}: main figure" '
                f'src="{src}"></a>'
            )
        body += [
            f"<p><strong>Question.</strong> {esc.markup_html(m['question'])}</p>",
            f"<p><strong>Answer.</strong> {esc.markup_html(m['headline'])}</p>",
        ]
    out.mkdir(parents=True, exist_ok=True)
    md_path, html_path = out / "index.md", out / "index.html"
    md_path.write_text("\n".join(md).rstrip("\n") + "\n")
    html_path.write_text(_html_document("unosim reports", "\n".join(body)))
    return md_path, html_path
