"""One declaration per rule (unosim/game/rules.py ``RULES``): everything else follows from it.

The kernel's slots and codes, the kernel reading every slot, bounds with one-line
messages, text parsing, the docs table, and hashes that adding a rule cannot move.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from unosim.game import rules as R
from unosim.game.rules import (
    KERNEL_RULES,
    OFFICIAL,
    PRESETS,
    RULES,
    RuleError,
    apply,
    parse_house,
    resolve,
)
from unosim.kernel import kernel_sources
from unosim.kernel.core import layout as L

ROOT = Path(__file__).resolve().parents[2]
KERNEL_DIR = ROOT / "unosim" / "kernel"

# every preset's hash, recorded before the rules were declared (commit 4e3cfb5)
PRESET_HASHES = {
    "official": "f66448c0bb972b16",
    "official-2018": "688f270177fcd8d2",
    "pokemon": "dcce341aa7f032af",
    "motu": "744d8e4aadc4eac5",
    "copag": "2a5282365241a12d",
    "portugal": "96766253da83fab8",
    "stacking": "6570b6d3fa96000a",
    "progressive": "92692272342bf449",
    "seven-zero": "92114a7cac9a4ccc",
    "jump-in": "481ee8c95af1aebe",
    "draw-until-playable": "3e6b42d567ef7ad6",
}
# kernel code constants of each rule with choices: PREFIX_<CHOICE IN CAPITALS>
CODE_PREFIX = {
    "blank_card": "BLANK",
    "draw_rule": "DRAW",
    "wd4_restriction": "WD4",
    "scoring": "SCORING",
    "next_dealer": "DEALER",
    "stacking": "STACK",
    "last_card": "LAST",
    "after_draw": "AFTER_DRAW",
}


def test_every_kernel_rule_has_its_own_slot():
    slots = {name: v for name, v in vars(L).items() if name.startswith("R_")}
    assert set(slots) == {r.slot_name for r in KERNEL_RULES}
    assert sorted(slots.values()) == list(range(L.N_RULES))


def test_choice_codes_are_the_declared_order():
    for r in RULES:
        if r.type == "choice":
            for i, c in enumerate(r.choices):
                assert getattr(L, f"{CODE_PREFIX[r.name]}_{c.upper()}") == i, (r.name, c)


def _kernel_sources() -> str:
    paths = [p for p in kernel_sources() if p.name != "layout.py"]
    return "\n".join(p.read_text() for p in paths)


def test_the_kernel_reads_every_rule_slot():
    src = _kernel_sources()
    # ``rules[R_X]`` on a local copy, or ``fixed_rules(tb)[R_X]`` / ``table_rules(tb)[R_X]``
    # (``kernel/rules/family.py``)
    unread = [
        r.slot_name
        for r in KERNEL_RULES
        if not re.search(rf"(rules|fixed_rules\(\w+\)|table_rules\(\w+\))\[{r.slot_name}\]", src)
    ]
    assert not unread, f"slots written by RuleSet.to_array but never read: {unread}"


def test_the_kernel_imports_nothing_from_outside_it():
    import ast
    from importlib.util import resolve_name

    for path in kernel_sources():
        parts = path.relative_to(KERNEL_DIR).with_suffix("").parts
        package = ".".join(("unosim", "kernel", *parts[:-1]))  # the module's package
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                name = "." * node.level + (node.module or "")
                target = resolve_name(name, package) if node.level else name
                assert target.startswith("unosim.kernel") or not target.startswith("unosim"), (
                    f"{path.name} imports from {name}"
                )
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("unosim") for a in node.names), path.name


def test_only_kernel_files_invalidate_the_compiled_cache():
    names = {p.name for p in kernel_sources()}
    assert {"decide.py", "legal.py", "round.py", "kinds.py", "__init__.py"} <= names
    assert all(KERNEL_DIR in p.parents for p in kernel_sources())  # not players/strategies.py


def test_to_array_encodes_every_kernel_rule():
    for r in KERNEL_RULES:
        if r.type == "choice":
            values = r.choices
        elif r.type == "bool":
            values = (False, True)
        elif r.type == "float":
            values = (0.25,)
        else:
            values = (r.bounds[0], r.bounds[1])
        for v in values:
            a = OFFICIAL.replace(**{r.name: v}).to_array()
            assert a[getattr(L, r.slot_name)] == r.encode(v)


def test_declarations_are_complete():
    for r in RULES:
        assert re.fullmatch(r"[0-9.]+(, [0-9.]+)*", r.section), r.name
        assert r.doc and "\n" not in r.doc
        assert getattr(OFFICIAL, r.name) == r.default
        if r.type in ("int", "float"):
            assert r.bounds is not None and r.bounds[0] <= r.default <= r.bounds[1]
        if r.type == "choice":
            assert r.default in r.choices


# ---------------------------------------------------------------------------- bounds


def _numeric():
    return [r for r in RULES if r.type in ("int", "float")]


@pytest.mark.parametrize("rule", _numeric(), ids=lambda r: r.name)
def test_numeric_bounds_are_enforced_with_one_line_messages(rule):
    lo, hi = rule.bounds
    OFFICIAL.replace(**{rule.name: lo})
    OFFICIAL.replace(**{rule.name: hi})
    step = 1 if rule.type == "int" else 0.01
    for bad in (lo - step, hi + step):
        with pytest.raises(RuleError, match=rule.name) as e:
            OFFICIAL.replace(**{rule.name: bad})
        assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "text,word",
    [
        ("hand_size=10000000000000000000000", "hand_size"),
        ("max_turns=99999999999", "max_turns"),
        ("target_score=9223372036854775808", "target_score"),
        ("max_rounds=4294967296", "max_rounds"),
        ("elimination_score=-1", "elimination_score"),
        ("catch_uno=nan", "catch_uno"),
        ("catch_uno=inf", "catch_uno"),
    ],
)
def test_values_beyond_the_kernel_types_are_refused(text, word):
    with pytest.raises(RuleError, match=word) as e:
        resolve("official", text)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "entry,value", [("wild", 32768), ("7", 128), ("skip", -1), ("wild", 10**30)]
)
def test_deck_counts_beyond_the_kernel_arrays_are_refused(entry, value):
    with pytest.raises(RuleError, match=f"deck.{entry}"):
        apply(OFFICIAL, {"deck": {entry: value}})


def test_points_beyond_int16_are_refused():
    with pytest.raises(RuleError, match="points.wild"):
        apply(OFFICIAL, {"points": {"wild": 40000}})


# -------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    "text",
    [
        "hand_size=٣",
        "hand_size=３",
        "uno_penalty=1_0",
        "catch_uno=０.５",
        "max_turns=1e3",
        "hand_size= 7x",
    ],
)
def test_only_ascii_numbers_are_numbers(text):
    with pytest.raises(RuleError, match=text.split("=")[0]):
        resolve("official", text)


def test_ascii_numbers_with_sign_and_spaces_still_parse():
    assert resolve("official", "hand_size= +5 ").hand_size == 5
    assert resolve("official", "catch_uno=.5").catch_uno == 0.5
    assert resolve("official", "catch_uno=1e-1").catch_uno == 0.1


def test_a_rule_given_twice_in_one_house_string_is_refused():
    with pytest.raises(RuleError, match="stacking.*twice"):
        parse_house("stacking=same,jump_in=true,stacking=progressive")


@pytest.mark.parametrize(
    "name", ["a\nb", "tab\there", "bell\x07", "nul\x00", "del\x7f", "line\u2028sep"]
)
def test_rule_set_names_with_control_characters_are_refused(name):
    with pytest.raises(RuleError, match="name") as e:
        OFFICIAL.replace(name=name)
    assert "\n" not in str(e.value)


def test_every_rule_parses_from_house_text():
    for r in RULES:
        if r.type in ("deck", "points", "cards"):
            continue
        v = R._show(getattr(OFFICIAL, r.name))
        assert getattr(resolve("official", f"{r.name}={v}"), r.name) == r.default


# ------------------------------------------------------------------- docs, rules show


def test_docs_rules_table_is_current():
    text = (ROOT / "docs" / "rules.md").read_text()
    block = text.split(R.TABLE_START, 1)[1].split(R.TABLE_END, 1)[0]
    assert block == "\n" + R.rules_table(), (
        "docs/rules.md is stale: run `unosim rules table docs/rules.md`"
    )


def test_update_rules_doc_rewrites_only_the_table(tmp_path):
    p = tmp_path / "rules.md"
    p.write_text(f"# Rules\n\nprose\n\n{R.TABLE_START}\nOLD TABLE\n{R.TABLE_END}\n\nmore\n")
    assert R.update_rules_doc(p)
    text = p.read_text()
    assert text.startswith("# Rules\n\nprose\n\n") and text.endswith("\n\nmore\n")
    assert "OLD TABLE" not in text and "`stacking`" in text
    assert not R.update_rules_doc(p)


def test_annotated_toml_reads_back_to_the_same_rules(tmp_path):
    for rs in PRESETS.values():
        text = R.annotated_toml(rs)
        assert tomllib.loads(text) == tomllib.loads(rs.to_toml())
        for r in RULES:
            assert f"# docs/rules.md {r.section}: {r.doc}" in text


# --------------------------------------------------------------------------- hashes


@pytest.mark.parametrize("name", PRESET_HASHES)
def test_preset_hashes_are_unchanged(name):
    assert PRESETS[name].hash() == PRESET_HASHES[name]


def test_only_format_1_rules_and_changed_later_rules_are_hashed():
    first = {r.name for r in RULES if r.since == 1}
    for rs in PRESETS.values():
        assert set(rs.hash_fields()) == first
    for r in RULES:
        if r.since > 1:
            if r.type == "cards":
                other = {"x": {"colours": "wild", "effect": ["name_colour"]}}
            else:
                other = next(c for c in r.choices if c != r.default)
            changed = OFFICIAL.replace(**{r.name: other})
            assert set(changed.hash_fields()) == first | {r.name}
            assert changed.hash() != OFFICIAL.hash()


def test_type_checkers_see_the_declared_fields():
    # RuleSet's `if TYPE_CHECKING:` block spells out the fields `_declared` adds; it
    # must name every rule of RULES, in order, with the annotation its type gives
    import ast
    import dataclasses

    tree = ast.parse((ROOT / "unosim" / "game" / "rules.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RuleSet")
    block = next(
        n for n in cls.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    )
    spelled = [(ast.unparse(s.target), ast.unparse(s.annotation)) for s in block.body]
    assert spelled == [(r.name, R._ANNOTATION[r.type]) for r in RULES]
    fields = [(f.name, f.type) for f in dataclasses.fields(R.RuleSet)]
    assert fields == [("name", "str")] + spelled
