"""What every test module may import, set up once instead of in each file.

The repository root goes on ``sys.path`` so that ``tests.helpers`` and
``tests.reference.engine`` import under plain ``pytest`` as well as ``python -m pytest``;
``analyses/`` goes there so the report tests import the page scripts' ``common`` and
``build_reports`` as the scripts themselves do. Every test keeps what unosim caches
outside numba (the ladder's reference rows) in a folder of its own, not in the user's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

for folder in (ROOT, ROOT / "analyses"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("UNOSIM_CACHE_DIR", str(tmp_path_factory.mktemp("unosim-cache")))


@pytest.fixture
def out(tmp_path):
    """Where a failing run is told to write: nothing may appear there."""
    d = tmp_path / "out"
    yield d
    assert not d.exists(), list(d.iterdir())
