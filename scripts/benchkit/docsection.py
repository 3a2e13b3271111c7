"""Generated sections of a Markdown document: the text between ``<!-- NAME:begin -->`` and
``<!-- NAME:end -->`` (:func:`write_block`), or a whole ``## Heading`` section up to the next
one (:func:`write_section`), is replaced by a script's figures; everything else (other
sections, hand-written analysis) is kept."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path


def markers(name: str) -> tuple[str, str]:
    """The begin and end comments of the generated block ``name``."""
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace_block(text: str, name: str, body: str, heading: str) -> str:
    """``text`` with the block ``name`` holding ``body``. A missing block is appended as a new
    section under ``heading`` (e.g. ``## Against mem0 (LoCoMo dev)``), or put right under that
    heading when the heading exists without markers."""
    begin, end = markers(name)
    block = f"{begin}\n{body.strip()}\n{end}"
    if begin in text and end in text and text.index(begin) < text.index(end):
        head, _, rest = text.partition(begin)
        _, _, tail = rest.partition(end)
        return head + block + tail
    lines = text.split("\n")
    if heading in lines:
        at = lines.index(heading) + 1
        return "\n".join([*lines[:at], "", block, *lines[at:]])
    return text.rstrip("\n") + f"\n\n{heading}\n\n{block}\n"


def write_block(path: Path, name: str, body: str, heading: str) -> None:
    """Replace (or add) the block ``name`` of the document at ``path`` (created if missing)."""
    current = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    new = replace_block(current, name, body, heading)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


def write_section(path: Path, heading: str, markdown: str) -> None:
    """Replace the section of the document at ``path`` that starts with the line ``heading``
    (up to the next ``## `` heading) by ``markdown`` (which starts with that heading), or
    append it when there is none."""
    current = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    whole = re.compile(rf"^{re.escape(heading)}\n.*?(?=^## |\Z)", re.S | re.M)
    if whole.search(current):
        new = whole.sub(lambda _: markdown.rstrip("\n") + "\n\n", current, count=1)
    else:
        new = current.rstrip("\n") + "\n\n" + markdown
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


def git_commit(root: Path, paths: tuple[str, ...] = ("app", "scripts")) -> str:
    """Short hash of HEAD in ``root``, with ``+dirty`` when ``paths`` differ from it."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        return done.stdout.strip()

    dirty = git("status", "--porcelain", "--", *paths)
    return (git("rev-parse", "--short", "HEAD") or "unknown") + ("+dirty" if dirty else "")
