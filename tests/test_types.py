"""The type checker guards app/ and the Python client (clients/python/hindsight_client, its
framework adapters included, checked against the langgraph and openai-agents versions of the
test extra): ``mypy app clients/python/hindsight_client`` in strict mode ([tool.mypy] in
pyproject.toml) finds no error. Any ``# type: ignore`` left in either names its error code and
says why, in a comment on the line above or after it (mypy's strict mode flags one no longer
needed)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHECKED = ("app", "clients/python/hindsight_client")


def test_mypy_strict_passes_on_app_and_the_python_client():
    # One run for both: they share the cache of the third-party modules (pydantic, httpx).
    run = subprocess.run(
        [sys.executable, "-m", "mypy", *CHECKED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout
    # Both trees were checked (app/ alone is ~200 files; the client 9).
    checked = re.search(r"in (\d+) source files", run.stdout)
    assert checked is not None, run.stdout
    assert int(checked.group(1)) == sum(len(list((ROOT / p).rglob("*.py"))) for p in CHECKED)


def test_the_configuration_is_strict():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True
    assert "pydantic.mypy" in config["plugins"]


def test_every_ignore_names_its_error_code_and_why():
    ignore = re.compile(r"#\s*type:\s*ignore")
    named = re.compile(r"#\s*type:\s*ignore\[[a-z-]+(,\s*[a-z-]+)*\](\s*#\s*\S.*)?$")
    bare, unexplained, files = [], [], 0
    for path in (p for root in CHECKED for p in (ROOT / root).rglob("*.py")):
        files += 1
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, 1):
            if not ignore.search(line):
                continue
            where = f"{path.relative_to(ROOT)}:{n}"
            m = named.search(line)
            if m is None:
                bare.append(where)
            elif m.group(2) is None and not lines[n - 2].lstrip().startswith("#"):
                unexplained.append(where)
    assert bare == [], "name the error code: # type: ignore[code]"
    assert unexplained == [], "say why, in a comment on the line above or after the ignore"
    assert files > 100  # the walk found app/
    assert (ROOT / CHECKED[1] / "integrations" / "langgraph.py").exists()
