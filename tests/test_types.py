"""The type checker guards app/: ``mypy app`` in strict mode ([tool.mypy] in pyproject.toml)
finds no error. Any ``# type: ignore`` left in app/ names its error code (mypy's strict mode
flags one that is no longer needed)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_passes_on_app():
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "app"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


def test_the_configuration_is_strict():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True
    assert "pydantic.mypy" in config["plugins"]


def test_every_ignore_names_its_error_code():
    bare = re.compile(r"#\s*type:\s*ignore(?!\[[a-z-]+(,\s*[a-z-]+)*\])")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "app").rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line)
    ]
    assert found == []
