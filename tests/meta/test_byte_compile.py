"""`tools/byte_compile.py` (run by `make install`): it writes the libraries' bytecode into
the virtual environment and nothing beside the project's own sources."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _project_bytecode() -> set[Path]:
    return {p for d in ("unosim", "analyses", "tools") for p in (ROOT / d).rglob("*.pyc")}


def test_byte_compile_writes_only_the_libraries_bytecode():
    before = _project_bytecode()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "byte_compile.py")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("wrote the bytecode of ")
    assert _project_bytecode() == before
    import pandas

    cached = Path(pandas.__cached__)  # the library's bytecode is there afterwards
    assert cached.exists()
