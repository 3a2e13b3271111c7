"""The house rules of docs/ARCHITECTURE.md that a machine can check: the import contracts in
pyproject.toml (import-linter, lazy imports included), and no module of app/ over 400 lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400


def test_import_contracts_hold():
    # In a child process: import-linter reconfigures logging (dictConfig), which would
    # silence this process's loggers for the tests that follow.
    code = "import importlinter.cli as c; raise SystemExit(c.lint_imports(no_cache=True))"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_graph_counts_imports_inside_functions():
    # The contracts are only as good as the graph: an import inside a function (as in the
    # `hindsight keys` command, kept lazy so `hindsight mcp` loads no database code) is in it.
    graph = grimp.build_graph("app", cache_dir=None)
    assert graph.direct_import_exists(importer="app.cli.keys", imported="app.services.wiring")
    assert graph.direct_import_exists(importer="app.cli.main", imported="app.main")


def test_no_module_is_over_400_lines():
    sizes = {
        str(path.relative_to(ROOT)): sum(1 for _ in path.open(encoding="utf-8"))
        for path in (ROOT / "app").rglob("*.py")
    }
    assert {p: n for p, n in sizes.items() if n > MAX_LINES} == {}
    assert os.sep.join(["app", "main.py"]) in sizes  # the walk found the package


def test_wire_statuses_are_the_data_models_statuses():
    # The wire models keep their Literals (the OpenAPI document names the values inline);
    # they must say exactly what the enums of app/core/vocabulary.py say.
    from typing import get_args

    from app.core.vocabulary import JobStatus, ReviewStatus, UnitStatus
    from app.schemas.extract import JobStatus as WireJobStatus
    from app.schemas.lifecycle import PatchStatus, StoredStatus
    from app.schemas.lifecycle import ReviewStatus as WireReviewStatus
    from app.schemas.memory import Status

    assert list(get_args(WireJobStatus)) == [s.value for s in JobStatus]
    assert list(get_args(StoredStatus)) == [s.value for s in UnitStatus]
    assert list(get_args(Status)) == [s.value for s in UnitStatus] + ["forgotten"]
    # A correction cannot make a unit superseded or merged: those name another unit.
    assert set(get_args(PatchStatus)) == {s.value for s in UnitStatus} - {"superseded", "merged"}
    assert list(get_args(WireReviewStatus)) == [s.value for s in ReviewStatus]
