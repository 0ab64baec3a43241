"""sb3-contrib's MaskablePPO on the shipped Gymnasium environment (the ``learn`` extra:
torch, sb3-contrib): the example trains and measures. Slow: not part of ``make test``."""

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agents" / "train_maskable_ppo.py"


def example():
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_trains_and_is_measured():
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("torch")
    ex = example()
    model, steps = ex.train(minutes=10.0, steps=2048, seed=0, log_every=10**9)
    assert steps >= 2048
    rate, low, high = ex.measure(model, rounds=200, seed=123)
    assert 0.0 <= low <= rate <= high <= 1.0
    # masked: the policy's choices are legal actions only (an illegal one would end a
    # round with reward -1, which ``measure`` would count as a loss, not a crash)
    env = ex.make_env(5)
    obs, _ = env.reset(seed=5)
    for _ in range(200):
        mask = env.unwrapped.action_masks()
        a, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(a)]
        obs, _, term, trunc, info = env.step(int(a))
        assert "illegal" not in info
        if term or trunc:
            obs, _ = env.reset()
