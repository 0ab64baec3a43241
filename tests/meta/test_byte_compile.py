"""`tools/byte_compile.py` (run by `make install`): it writes the libraries' bytecode into
the virtual environment and nothing beside the project's own sources."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "byte_compile.py"

# the tool run as a module in a fresh process, then the project's modules it imported
# (an imported module's bytecode is written beside its source)
IMPORTED = f"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("byte_compile", {str(TOOL)!r})
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)
assert tool.main() == 0
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("unosim", "analyses"))))
"""


def test_byte_compile_writes_only_the_libraries_bytecode():
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, str(TOOL)], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("wrote the bytecode of ")
    import pandas

    cached = Path(pandas.__cached__)  # the library's bytecode is there afterwards
    assert cached.exists()
    # nothing of the project's own is imported, so none of its bytecode is written (a
    # check of the project's .pyc files before and after would race with the other
    # test workers importing modules meanwhile)
    out = subprocess.run(
        [sys.executable, "-c", IMPORTED], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == []
