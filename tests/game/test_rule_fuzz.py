"""Fuzzing rules from the command line: random ``--house`` strings and TOML rule files
give a valid run or one clean error line (exit code 2), never a traceback.

Derandomized, bounded example counts, a few games per run."""

from __future__ import annotations

import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz_inputs import FUZZ, JUNK, NUMBERS, check, run
from unosim.game.rules import CHOICES, DECK_KEYS, OFFICIAL, RULE_NAMES

DEFAULTS = OFFICIAL.to_dict()
# tables are not switches: deck and points take KEY=N forms, cards only a rule file
SWITCHES = [k for k in RULE_NAMES if k not in ("deck", "points", "cards")]


def plausible(key: str):
    """Values of the rule's own type, mostly in range: runs, not only errors."""
    v = DEFAULTS[key]
    if key in CHOICES:
        return st.sampled_from(CHOICES[key])
    if isinstance(v, bool):
        return st.booleans()
    if isinstance(v, float):
        return st.floats(0, 1)
    return st.integers(0, 2 * v + 2) if v < 100 else st.integers(1, 3 * v)


def house_value(key: str):
    good = plausible(key).map(lambda v: str(v).lower())
    return st.one_of(good, good, good, JUNK)


GOOD_ITEM = st.sampled_from(SWITCHES).flatmap(
    lambda k: st.tuples(st.just(k), st.just("="), house_value(k))
)
HOUSE_ITEM = st.one_of(
    GOOD_ITEM,
    GOOD_ITEM,
    GOOD_ITEM,
    st.tuples(
        st.one_of(st.sampled_from(RULE_NAMES + ("name", "preset")), st.text(max_size=8)),
        st.sampled_from(["=", "==", "", " = "]),
        JUNK,
    ),
)


@FUZZ
@given(
    st.lists(HOUSE_ITEM, min_size=1, max_size=3), st.sampled_from([",", ",", ",", ", ", ",,", ";"])
)
def test_house_strings(items, sep):
    house = sep.join(f"{k}{eq}{v}" for k, eq, v in items)
    if check(["rules", "show", "official", "--house", house]):
        run(["--house", house])


TABLE = st.dictionaries(
    st.one_of(st.sampled_from(DECK_KEYS), st.text(max_size=5)),
    st.one_of(st.integers(0, 12), NUMBERS, st.booleans(), JUNK),
    max_size=3,
)
TOML_ITEM = st.one_of(
    st.sampled_from(SWITCHES).flatmap(lambda k: st.tuples(st.just(k), plausible(k))),
    st.tuples(st.sampled_from(["deck", "points"]), TABLE),
    st.tuples(
        st.sampled_from(["name", "preset"]),
        st.one_of(st.sampled_from(["pokemon", "copag", "x\ny"]), st.text(max_size=5)),
    ),
    st.tuples(
        st.one_of(st.sampled_from(SWITCHES), st.text(max_size=6)),
        st.one_of(
            NUMBERS, st.booleans(), st.floats(), JUNK, st.lists(st.integers(-5, 5), max_size=3)
        ),
    ),
)


@FUZZ
@given(
    data=st.lists(TOML_ITEM, max_size=4).map(dict),
    junk=st.one_of(st.none(), st.none(), st.binary(max_size=40)),
)
def test_toml_rule_files(tmp_path_factory, data, junk):
    path = tmp_path_factory.mktemp("toml") / "r.toml"
    if junk is None:
        path.write_text(tomli_w.dumps(data))
    else:
        path.write_bytes(junk)
    if check(["rules", "show", str(path)]):
        run(["--rules", str(path)])
