"""The skill page's design: its shipped tunings and the expert's control variate."""

from __future__ import annotations

import json

import numpy as np
import pytest
import skill_tuning  # analyses/, put on sys.path by conftest.py
from expert_skill import Z95, control_variate

from unosim.players import strategies as strat
from unosim.players.seats import parse_one


@pytest.mark.parametrize("opponents", skill_tuning.OPPONENTS)
def test_shipped_tuning_is_the_one_the_page_would_run(opponents):
    """The shipped tuning's spec is today's: a change of the rules, the search's settings,
    the kernel's behaviour or its random streams fails here until
    ``python analyses/skill_tuning.py`` rewrites the file."""
    data = json.loads(skill_tuning.SHIPPED.read_text())
    assert data["tunings"][opponents]["spec"] == skill_tuning.spec(opponents)
    res = skill_tuning.shipped(opponents)
    assert res is not None
    assert res["eval_rounds"] == skill_tuning.eval_rounds(skill_tuning.BUDGET)
    # the label plays the shipped weights
    _, params, _ = parse_one(res["label"])
    vals = dict(zip(strat.PARAM_NAMES, params))
    for k, w in res["weights"].items():
        assert vals[k] == pytest.approx(w, rel=1e-5, abs=1e-6), k  # 6 digits in a label
    # the tuning beat its start on the fresh rounds, beyond both intervals
    assert res["tuned"][0] - res["tuned"][1] > res["start"][0] + res["start"][1]


def test_a_changed_spec_is_not_served(tmp_path):
    data = json.loads(skill_tuning.SHIPPED.read_text())
    data["tunings"]["random"]["spec"]["budget"] += 1
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    assert skill_tuning.shipped("random", path=path) is None
    assert skill_tuning.shipped("heuristic", path=path) is not None
    assert skill_tuning.shipped("random", seed=skill_tuning.SEED + 1) is None


def _cell(e: np.ndarray, p: np.ndarray) -> dict:
    return {"wins": list(e), "policy_wins": list(p)}


def test_control_variate_on_correlated_deals():
    """Per-deal wins of 4 rotations sharing a deal effect: the regression estimate is
    unbiased, its interval covers, and it is narrower than the expert's own rounds and
    than the plain paired difference (slope 1)."""
    rng = np.random.default_rng(7)
    n, runs, fresh, truth = 400, 300, 0.30, 0.36
    ests, halves, own, paired = [], [], [], []
    for _ in range(runs):
        luck = rng.normal(0, 0.12, n)  # how good the deal is for the seat
        p = rng.binomial(4, np.clip(fresh + luck, 0, 1))
        e = rng.binomial(4, np.clip(truth + luck, 0, 1))
        cv = control_variate(_cell(e, p), fresh, 0.0)
        ests.append(cv["est"])
        halves.append(cv["est_half"])
        own.append(Z95 * np.std(e / 4, ddof=1) / np.sqrt(n))
        paired.append(Z95 * np.std((e - p) / 4, ddof=1) / np.sqrt(n))
        assert cv["gain"] == pytest.approx(cv["est"] - fresh)
    ests = np.array(ests)
    assert abs(ests.mean() - truth) < 5 * ests.std() / np.sqrt(runs)
    cover = np.mean(np.abs(ests - truth) <= np.array(halves))
    assert 0.90 < cover < 0.99, cover
    assert np.mean(halves) < np.mean(own) < np.mean(paired)


def test_control_variate_limits():
    # the expert's results are its policy's plus one round in four: slope 1, no noise left
    p = np.array([0, 1, 2, 3, 1, 2, 0, 3])
    cv = control_variate(_cell(p + (p < 3), p), 0.25, 0.01)
    assert cv["beta"] == pytest.approx(np.cov(p + (p < 3), p)[0, 1] / np.var(p, ddof=1))
    # no correlation: the expert's own mean, the fresh rate's error not carried in
    e = np.array([1, 2, 1, 2, 1, 2, 1, 2])
    q = np.array([0, 0, 4, 4, 4, 4, 0, 0])
    cv = control_variate(_cell(e, q), 0.4, 0.02)
    assert cv["beta"] == pytest.approx(0.0)
    assert cv["est"] == pytest.approx(e.mean() / 4)
    assert cv["gain_half"] > cv["est_half"]  # the gain carries the fresh rate's error


def test_the_page_tunes_when_nothing_shipped_fits(tmp_path, monkeypatch):
    import common
    import skill

    ctx = common.Context("skill", 0.0005, tmp_path / "out", tmp_path / "res", quiet=True)
    label, res = skill._tuned(ctx, "random")
    assert res["source"] == "shipped" and label == skill_tuning.shipped("random")["label"]
    monkeypatch.setattr(skill_tuning, "SHIPPED", tmp_path / "none.json")
    label, res = skill._tuned(ctx, "random")
    assert res["source"] == "run" and res["budget"] == 4096
    assert label.startswith("weighted:") and len(res["history"]["iteration"]) == 8
    assert "rewrites it" in skill._tuning_source({"random": res})
