"""docs/ARCHITECTURE.md names only modules that exist: every backticked ``*.py`` path (from the
repository root, ``app/``, ``app/services/`` or ``app/repositories/``), or a bare file name
found under app/, tests/, scripts/ or alembic/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
CITED = re.compile(r"`([A-Za-z0-9_./-]+\.py)\b")


def _exists(name: str) -> bool:
    if "/" in name:
        bases = (ROOT, ROOT / "app", ROOT / "app" / "services", ROOT / "app" / "repositories")
        return any((base / name).is_file() for base in bases)
    return any(any(ROOT.joinpath(d).rglob(name)) for d in ("app", "tests", "scripts", "alembic"))


def test_every_module_the_architecture_page_cites_exists() -> None:
    cited = sorted(set(CITED.findall(DOC.read_text(encoding="utf-8"))))
    assert len(cited) > 30, "the page should cite the modules it describes"
    missing = [name for name in cited if not _exists(name)]
    assert not missing, f"docs/ARCHITECTURE.md cites modules that do not exist: {missing}"
