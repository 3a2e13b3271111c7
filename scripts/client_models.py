"""``clients/python/hindsight_client/models.py``: the Python client's models, generated from
``docs/openapi.json`` by datamodel-code-generator (pydantic v2), then formatted by ruff.

    python3 scripts/client_models.py   # installs the `scripts` extra into .venv first

Run it after an intentional API change (``scripts/openapi_snapshot.py --write``);
``tests/test_python_client.py`` fails while a schema of the document has no model with the
same fields.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "docs" / "openapi.json"
OUT = ROOT / "clients" / "python" / "hindsight_client" / "models.py"
OPTIONS = [
    "--input-file-type", "openapi",
    "--output-model-type", "pydantic_v2.BaseModel",
    "--target-python-version", "3.11",
    "--use-annotated", "--field-constraints", "--use-standard-collections",
    "--use-union-operator", "--enum-field-as-literal", "all", "--use-schema-description",
    "--use-field-description", "--disable-timestamp", "--use-double-quotes",
    # Answers may grow new fields: an older client ignores them instead of failing.
    "--extra-fields", "ignore",
    "--collapse-root-models", "--formatters", "ruff-format",
]  # fmt: skip


def main() -> int:
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [str(bin_dir / "datamodel-codegen"), "--input", str(SPEC), "--output", str(OUT), *OPTIONS],
        check=True,
    )
    subprocess.run([str(bin_dir / "ruff"), "check", "--fix", "-q", str(OUT)], check=False)
    subprocess.run([str(bin_dir / "ruff"), "format", "-q", str(OUT)], check=True)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    if sys.prefix == sys.base_prefix:  # plain python3: re-run inside the project's venv
        import os

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from _bootstrap import ensure

        python = ensure("scripts")
        os.execv(str(python), [str(python), __file__, *sys.argv[1:]])
    sys.exit(main())
