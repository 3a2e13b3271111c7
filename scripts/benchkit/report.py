"""What a benchmark prints and writes: Markdown tables, numbers formatted one way, and the
common command-line options ``--base-url`` (measure a running server) and ``--json`` (the
figures, machine-readable)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def fmt(x: float | None, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals and thousands separators; "–" for None or NaN."""
    return "–" if x is None or math.isnan(x) else f"{x:,.{digits}f}"


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A Markdown table; cells that are floats are formatted by :func:`fmt`."""

    def cell(value: Any) -> str:
        return fmt(value) if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def add_json_arg(parser: argparse.ArgumentParser) -> None:
    """``--json PATH``: also write the run's figures there (see :func:`write_json`)."""
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the figures as JSON")


def add_base_url_arg(parser: argparse.ArgumentParser, what: str = "") -> None:
    """``--base-url URL``: measure a server that is already running instead of starting one."""
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="measure this running server" + (f" ({what})" if what else ""),
    )


def write_json(path: Path | None, figures: Any) -> None:
    """Write ``figures`` to ``path`` (nothing when None): dataclasses as objects, tuple keys
    joined by "/", NaN as null."""
    if path is None:
        return

    def key(k: Any) -> str:
        return "/".join(map(str, k)) if isinstance(k, tuple) else str(k)

    def clean(value: Any) -> Any:
        if isinstance(value, float) and math.isnan(value):
            return None
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return clean({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
        if isinstance(value, dict):
            return {key(k): clean(v) for k, v in value.items()}
        if isinstance(value, (list, tuple, set)):
            return [clean(v) for v in value]
        return value

    path.write_text(json.dumps(clean(figures), indent=2, ensure_ascii=False) + "\n")
    print(f"figures written to {path}")
