"""Per-process state of recall's SQL: statements compiled once per filter shape, the result
processors of the answer columns per dialect, and the keyword index's most common lexemes.

One :class:`RecallStatements` is built by the process's composition root (held by
``app.services.recall.caches.RecallCaches``) and handed to every ``RecallRepository``; a
repository built without one gets its own (correct, only slower: nothing is reused across
requests). Nothing here is module-level, so two apps in one process share nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RecallStatements:
    """Caches of recall's SQL layer (all unbounded but small: keyed by a handful of shapes).

    - ``exact``: (dialect name, filter shape) → the exact path's compiled statement
      (``app.repositories.recall.exact``); at most a few dozen shapes.
    - ``processors``: dialect name → result processors of ``UNIT_COLUMNS``
      (``app.repositories.recall.answers.answer_processors``).
    - ``common_lexemes``: max_share → (monotonic seconds when read, lexemes)
      (``RecallRepository.common_lexemes``, refreshed after its TTL).
    - ``driver``: (dialect name, statement name) → a fixed statement's driver SQL and bind
      names in positional order (``app.repositories.recall.driver.positional``).
    """

    exact: dict[tuple[str, tuple[Any, ...]], Any] = field(default_factory=dict)
    processors: dict[str, list[Any]] = field(default_factory=dict)
    common_lexemes: dict[float, tuple[float, frozenset[str]]] = field(default_factory=dict)
    driver: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = field(default_factory=dict)
