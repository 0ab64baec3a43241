"""`unosim report` (unosim.report.ask), plain findings (unosim.report.findings), figures
and palette: a small report page whose figures exist and whose opening sentences quote
its tables."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.report import ask, palette
from unosim.report import escape as esc
from unosim.report.findings import findings, findings_table

NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
IMG = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
LINK = re.compile(r"\]\(([^)#]+)\)")


def numbers(text: str) -> list[float]:
    """Every number written in ``text`` (signs dropped: sentences say "shorter")."""
    return [float(m.replace(",", "")) for m in NUMBER.findall(text)]


def md_table_after(md: str, heading: str) -> list[list[str]]:
    """The rows (cells) of the first Markdown table after ``heading``."""
    rest = md.split(heading, 1)[1].lstrip("\n").splitlines()
    rows = [ln for ln in rest[: rest.index("")] if ln.startswith("|")] if "" in rest else []
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows[2:]]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("ask") / "mine"
    r = CliRunner().invoke(
        app,
        [
            "report",
            "official",
            "stacking",
            "official+seven_zero=true",
            "--players",
            "4,3",
            "--games",
            "3000",
            "--seed",
            "5",
            "--out",
            str(out),
            "--title",
            "My table",
            "--no-progress",
        ],
    )
    assert r.exit_code == 0, r.output
    return out, r.output


def test_report_folder_has_the_page_figures_and_tables(built):
    out, output = built
    md = (out / "report.md").read_text()
    assert md.startswith("# My table\n") and "## Answer" in md
    figs = IMG.findall(md)
    assert len(figs) >= 5  # changes, length, points, seats, by-players
    for rel in figs:
        svg = out / rel
        assert svg.suffix == ".svg" and b"<svg" in svg.read_bytes()[:3000], rel
        assert not svg.with_suffix(".png").exists()  # each figure stored once
    for rel in LINK.findall(md):  # every local link resolves
        assert (out / rel).exists(), rel
    csvs = [r for r in LINK.findall(md) if r.endswith(".csv")]
    assert len(csvs) >= 4
    html = (out / "report.html").read_text()
    srcs = re.findall(r'src="([^"]+)"', html)
    assert srcs == figs  # the HTML shows the same SVG files as the Markdown
    assert "http" not in html.replace("http://www.w3.org", "")  # opens offline
    assert "wrote" in output and not list(out.parent.glob(".mine.*"))  # no leftovers
    # the answer comes first: the round lengths, then the main figure
    answer = md.split("## Answer", 1)[1]
    assert answer.index("- Rounds last") < answer.index("![") < answer.index("## Tables")


def test_every_number_of_the_opening_sentences_is_in_the_tables(built):
    out, _ = built
    md = (out / "report.md").read_text()
    answer = md.split("## Answer", 1)[1].split("**Precision.**", 1)[0]
    sentences = [ln[2:] for ln in answer.splitlines() if ln.startswith("- ")]
    rows = md_table_after(md, "### Differences from the baseline")
    assert len(sentences) == len(rows) == 2 * 2 * 5  # 2 rule sets x 2 counts x 5 metrics
    for s, row in zip(sentences, rows):
        have = set(numbers(" ".join(row)))
        for x in numbers(s):
            assert x in have, (x, s, row)
    # and the table's numbers are the results, rounded
    data = pd.read_csv(out / "report" / "differences.csv")
    assert len(data) == len(rows)
    for row, d in zip(rows, data.itertuples()):
        scale = 100.0 if d.metric == "seat0" else 1.0
        shown = row[5]  # the rule set's value
        digits = len(shown.split(".")[1]) if "." in shown else 0
        assert float(shown.replace(",", "")) == pytest.approx(round(d.value * scale, digits))
        assert row[1] == esc.md_text(d.rules) and row[0] == str(d.players)
    # display names, in the order of the rule sets, and the counts in the order asked
    assert list(dict.fromkeys(data["rules"])) == [
        "stacking (same card)",
        "Official UNO with Seven-Zero (7 swaps hands, 0 passes them on)",
    ]
    assert set(data["baseline"]) == {"Official UNO"}
    assert list(dict.fromkeys(data["players"])) == [4, 3]


def test_the_terminal_shows_the_opening_sentences_then_the_page_to_open(built):
    out, output = built
    lines = output.splitlines()
    assert lines[0].startswith("unosim report: 3 rule sets x 2 player counts, 3,000 rounds")
    assert lines[1] == "with 4 players:"  # the first count asked leads
    said = [ln[2:] for ln in lines[2:] if ln.startswith("  ")]
    assert len(said) == 2 * 5  # 2 rule sets x 5 metrics, at 4 players
    md = (out / "report.md").read_text()
    answer = md.split("## Answer", 1)[1].split("**With 3 players**", 1)[0]
    bullets = [esc.markup_text(ln[2:]) for ln in answer.splitlines() if ln.startswith("- ")]
    assert said == bullets  # the page's plain findings, as plain text
    assert said[0].startswith("Rounds last ") and "under stacking (same card)" in said[0]
    assert not any(c in "".join(said) for c in "`\\*")  # no markup
    assert lines[-1] == f"open             {out / 'report.html'}"
    assert (out / "report.html").is_file()


def test_every_player_count_gets_its_figures_in_the_order_asked(built):
    out, _ = built
    md = (out / "report.md").read_text()
    figures = md.split("## Figures", 1)[1].split("## Tables", 1)[0]
    assert figures.index("### 4 players") < figures.index("### 3 players")
    stems = [Path(rel).stem for rel in IMG.findall(figures)]
    assert stems == [f"{k}-{n}" for n in (4, 3) for k in ("length", "points", "seats")] + [
        "by-players"
    ]
    answer = md.split("## Answer", 1)[1]
    assert answer.index("**With 4 players**") < answer.index("**With 3 players**")


def test_win_rates_differ_in_percentage_points_lengths_in_percent(built):
    out, _ = built
    md = (out / "report.md").read_text()
    answer = md.split("## Answer", 1)[1].split("**Precision.**", 1)[0]
    for ln in answer.splitlines():
        if ln.startswith("- Seat 0") and "no detectable" not in ln and "no difference" not in ln:
            assert re.search(r"percentage points \[[\d.]+, [\d.]+\] (more|fewer) than", ln), ln
            assert not re.search(r"\d% \[", ln), ln  # no relative percent of a rate
        if ln.startswith("- Rounds last"):
            assert re.search(r"\d% \[[\d.]+, [\d.]+\] (longer|shorter) than", ln), ln
    rows = md_table_after(md, "### Differences from the baseline")
    for row in rows:
        if row[2] == "seat 0 win rate":
            assert row[6].endswith(" pp") and row[7].startswith("n/a"), row
        if row[2] == "round length":
            assert row[7].endswith("]") and "%" in row[7], row


def test_one_rule_set_alone_with_a_hostile_name(tmp_path):
    out = tmp_path / "alone"
    name = "<script>alert(1)</script> *our* rules\x1b[31m"
    r = CliRunner().invoke(
        app,
        [
            "report",
            "official+stacking=same",
            "--players",
            "3,2",
            "--games",
            "2000",
            "--name",
            name,
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    # a page about the rule set alone: no baseline, no comparison
    assert "### The rule set" in md and "### Seat win rates" in md
    for part in ("Differences from the baseline", "The rules compared", "changes.svg"):
        assert part not in md and part not in html, part
    assert not (out / "report" / "differences.csv").exists()
    assert "### 3 players" in md and md.index("### 3 players") < md.index("### 2 players")
    # its sentences: every number is in the table of the rule set
    answer = md.split("## Answer", 1)[1].split("**Precision.**", 1)[0]
    said = [ln[2:] for ln in answer.splitlines() if ln.startswith("- ")]
    assert len(said) == 2 * 5 and said[0].startswith("Rounds last ")
    rows = md_table_after(md, "### The rule set")
    assert [row[0] for row in rows] == ["3", "2"]
    for k, (n, row) in enumerate(zip((3, 2), rows)):
        have = set(numbers(" ".join(row)))
        for sentence in said[5 * k : 5 * k + 5]:
            sentence = sentence.replace(f"fair share is {100 / n:.1f}%", "")
            for x in numbers(sentence):
                assert x in have, (x, sentence, row)
    # the name: escaped on the page, inert in the HTML, plain on the terminal
    assert "\\<script\\>alert(1)\\</script\\> \\*our\\* rules\\\\x1b\\[31m" in md
    assert "<script" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "\x1b" not in r.output and "\\x1b[31m" in r.output
    assert "under <script>alert(1)</script> *our* rules\\x1b[31m with 3 players" in r.output
    assert r.output.splitlines()[-1] == f"open             {out / 'report.html'}"


def test_the_terminal_escapes_control_characters():
    from unosim.cli.app import one_line

    assert one_line("a\nb\x1b[1m") == "a\\nb\\x1b[1m"


def test_report_refuses_bad_input_with_one_line_and_writes_nothing(built, tmp_path):
    out, _ = built
    runner = CliRunner()
    before = sorted(p.name for p in out.rglob("*"))
    cases = [
        (["report", "official", "nosuch"], "unknown preset 'nosuch'"),
        (["report"], "Missing argument"),
        (["report", "official", "stacking", "--name", "A"], "1 name for 2 rule sets"),
        (["report", "official", "--name", "A", "--name", "B"], "2 names for 1 rule set"),
        (["report", "official", "stacking", "--name", "A", "--name", "A"], "given twice"),
        (["report", "official", "stacking", "--name", "A", "--name", " "], "empty"),
        (["report", "official", "--name", "x" * 61], "at most 60"),
        (["report", "official", "stacking", "--players", "4,11"], "between 2 and 10"),
        (["report", "official", "stacking", "--players", "four"], "whole numbers"),
        (["report", "official", "stacking", "--games", "0"], "games"),
        (["report", "official", "stacking", "--strategies", "nobody"], "unknown strategy"),
        (["report", "official", "official+bogus=1"], "unknown rule 'bogus'"),
        (["report", "official", "stacking", "--out", str(out)], "not empty"),
    ]
    for args, msg in cases:
        if "--out" not in args:
            args = args + ["--out", str(tmp_path / "x")]
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert r.output.startswith("unosim: error: ") and msg in r.output, r.output
        assert r.output.count("\n") == 1
    assert not (tmp_path / "x").exists()
    assert sorted(p.name for p in out.rglob("*")) == before


def test_an_existing_folder_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    out = tmp_path / "r"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    q = ask.Question(["official", "stacking"], [3], games=300, seed=1)
    with pytest.raises(ValueError, match="not empty"):
        ask.write_report(q, out)
    with pytest.raises(ValueError, match="not an earlier unosim report"):
        ask.write_report(q, out, force=True)  # a folder unosim did not write
    (out / "keep.txt").unlink()
    ask.write_report(q, out)  # an empty folder is taken
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    assert (out / ask.MARKER).is_file() and len(before) > 5

    def broken(*a, **k):
        raise RuntimeError("interrupted")

    monkeypatch.setattr(ask, "build_page", broken)
    with pytest.raises(RuntimeError):
        ask.write_report(q, out, force=True)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]  # no temporary folder left
    monkeypatch.undo()
    page = ask.write_report(q, out, force=True)  # an earlier report is replaced
    assert (out / "report.md").is_file() and (out / ask.MARKER).is_file()
    assert len(page.figures) >= 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


def test_default_games_share_a_budget():
    assert ask.default_games(3, 1) == 500_000  # the 60 s case: 3 rule sets at 4 players
    assert ask.default_games(3, 3) == 166_666
    assert ask.default_games(50, 9) == 20_000
    assert ask.parse_players("6, 2,4,4") == [6, 2, 4]  # the order asked, once each


# ------------------------------------------------------------------------- findings


def _frames(shift: int, n: int = 4000, seed: int = 0):
    rng = np.random.default_rng(seed)
    turns = rng.integers(10, 90, n)
    base = pd.DataFrame(
        {
            "turns": turns,
            "winner": rng.integers(0, 4, n),
            "points": rng.integers(0, 300, n),
            "truncated": np.zeros(n, bool),
            "cards_drawn": rng.integers(5, 50, n),
            "max_stack": rng.integers(0, 5, n),
        }
    )
    other = base.copy()
    other["turns"] = turns + shift  # every round longer by `shift` turns
    return base, other


def test_findings_say_longer_shorter_or_no_difference():
    a, b = _frames(5)
    fs = {f.metric: f for f in findings([a, b], ["official", "mine"], 4)}
    t = fs["turns"]
    assert t.diff == pytest.approx(5) and t.lo == pytest.approx(5) and t.detectable
    assert t.rel == pytest.approx(5 / a["turns"].mean())
    assert t.text.startswith(f"Rounds last {t.shown['value']} turns under `mine`, ")
    assert "longer than `official`'s" in t.text and "(+5.0 turns [+5.0, +5.0])" in t.text
    assert fs["points"].identical and "no difference at all" in fs["points"].text
    a2, b2 = _frames(-3)
    t2 = findings([a2, b2], ["official", "mine"], 4)[0]
    assert "shorter" in t2.text and t2.diff == pytest.approx(-3)
    # noise only: no detectable difference
    a3, _ = _frames(0, seed=1)
    _, b3 = _frames(0, seed=2)
    f3 = {f.metric: f for f in findings([a3, b3], ["official", "mine"], 4)}
    assert f3["turns"].lo < 0 < f3["turns"].hi
    assert "no detectable difference" in f3["turns"].text
    table = findings_table(list(f3.values()))
    for f, row in zip(f3.values(), table.itertuples(index=False)):
        assert set(numbers(f.text)) <= set(numbers(" ".join(map(str, row))))


def test_findings_too_small_to_notice_make_no_practical_difference():
    a, b = _frames(0.2)  # every round 0.2 turns longer: detectable, but 0.4% of ~50 turns
    t = findings([a, b], ["official", "mine"], 4)[0]
    assert t.detectable and abs(t.rel) < 0.01
    assert t.text.endswith(", which makes no practical difference.")
    a, b = _frames(5)  # 10%: a finding
    assert "no practical" not in findings([a, b], ["official", "mine"], 4)[0].text


def test_relative_interval_is_the_delta_method():
    rng = np.random.default_rng(3)
    x = rng.exponential(50, 20000)
    y = x * 1.1 + rng.normal(0, 5, x.size)
    a = pd.DataFrame(
        {"turns": x, "winner": 0, "points": 1, "truncated": False, "cards_drawn": 1, "max_stack": 1}
    )
    b = a.assign(turns=y)
    f = findings([a, b], ["a", "b"], 4, metrics=("turns",))[0]
    r = y.mean() / x.mean()
    se = np.std(y - r * x, ddof=1) / (math.sqrt(x.size) * x.mean())
    assert f.rel == pytest.approx(r - 1)
    assert f.rel_hi - f.rel == pytest.approx(1.959964 * se, rel=1e-4)


def test_palette_is_fixed_and_distinct():
    from unosim.game.rules import PRESETS
    from unosim.players.strategies import STRATEGIES

    cs = [palette.colour(p) for p in PRESETS]
    assert len(set(cs)) == len(cs) and palette.colour("official") == "#000000"
    assert len({palette.colour(s) for s in STRATEGIES}) == len(STRATEGIES)
    assert palette.colour("x.toml+seven_zero=true") == palette.colour("x.toml+seven_zero=true")
    c = palette.colours(["official", "a.toml", "b.toml", "c.toml"])
    assert len(set(c.values())) == 4 and c["official"] == "#000000"
    assert all(re.fullmatch(r"#[0-9A-F]{6}", v) for v in c.values())
    assert Path(palette.__file__).name == "palette.py"


def test_display_names_never_claim_rules_a_rule_set_lacks():
    import dataclasses

    from unosim.analysis.compare import parse_spec
    from unosim.game.names import display_ruleset

    assert display_ruleset(parse_spec("official+stacking=same")) == (
        "Official UNO with stacking (same card)"
    )
    assert display_ruleset(parse_spec("examples/numbers-only.toml+seven_zero=true")) == (
        "numbers-only with Seven-Zero (7 swaps hands, 0 passes them on)"
    )
    official = parse_spec("official")
    for name in ("official+stacking=same", "stacking", "official+bogus=1", "+1+cmd|x"):
        # a rule file may call itself anything: its name, not words it does not earn
        assert display_ruleset(dataclasses.replace(official, name=name)) == name
