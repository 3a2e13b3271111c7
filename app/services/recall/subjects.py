"""What recall remembers per process about a subject, so the lookups that decide how to
recall it stay off the critical path:

- its size class: whether the units matching a recall's filters are few enough
  (``RECALL__EXACT_SCAN_LIMIT``) to be scored exactly, and if so every entity name they hold;
- for larger subjects, which of a question's words name a known entity (per word: a new
  question probes only the words not seen within the TTL, and a subject's frequent names,
  whose probes cost most, are seen soonest).

Both are only predictions: the recall statement itself reports which names are known, and
recall starts over with the right names when the prediction was wrong
(app.services.recall.service), so a stale entry costs time, never a different answer. The size
class decides between two ways of scoring that give the same top hits
(tests/services/recall/test_recall_scoring.py).

A small subject's profile (at most the exact-scan limit: scored exactly) is kept until a
recall's own statement disagrees with it (least recently used first when the cache is full,
never by age): that statement reads every unit of the subject, so each recall checks the
count (more units than the limit: the entry is dropped, the next recall reads the profile
again and takes the other path) and the question's names (a name known or unknown against
the prediction: dropped, and this recall starts over when the embedded text depended on it).
An agent whose questions come minutes apart would otherwise read the profile before nearly
every recall (4.7 / 7.9 ms p50 / p95, and that recall's statements in a transaction,
docs/BENCHMARKS.md). A larger subject's profile and the known-name lookups live
``RECALL__SUBJECT_CACHE_TTL_S`` seconds (``cachetools.TTLCache``): nothing of a shortlist
recall reads the whole subject, so a subject that shrank below the limit switches paths within
that time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from cachetools import LRUCache, TTLCache

from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.repository import SubjectProfile

# Words remembered per subject in the known-name cache (its size is this times the number
# of subjects kept): a question has ~5-15 candidate words (tokens and adjacent pairs).
KNOWN_WORDS_PER_SUBJECT = 16


def scope_key(f: UnitFilters) -> str:
    """The cache key of a recall's filters, without the clock (``now`` changes every call)."""
    return repr(dataclasses.replace(f, now=None))


class SubjectCache:
    """Subject profiles and known-name lookups; ``size`` 0 keeps nothing."""

    def __init__(self, size: int, ttl_s: float) -> None:
        self._profiles: TTLCache[tuple[str, int], SubjectProfile] | None = None
        self._small: LRUCache[tuple[str, int], SubjectProfile] | None = None
        self._known: TTLCache[tuple[str, str], bool] | None = None
        if size > 0 and ttl_s > 0:
            self._profiles = TTLCache(maxsize=size, ttl=ttl_s)
            self._small = LRUCache(maxsize=size)  # checked by every recall, not aged
            # per (subject, word): room for KNOWN_WORDS_PER_SUBJECT words per subject
            self._known = TTLCache(maxsize=size * KNOWN_WORDS_PER_SUBJECT, ttl=ttl_s)

    def profile(self, key: str, cap: int) -> SubjectProfile | None:
        """The cached profile of these filters for this exact-scan limit, or None."""
        if self._small is None or self._profiles is None:
            return None
        return self._small.get((key, cap)) or self._profiles.get((key, cap))

    def put_profile(self, key: str, cap: int, profile: SubjectProfile) -> None:
        """Remember a profile: a small subject's (at most ``cap`` units) until a recall's
        statement disagrees (:meth:`forget`), a larger one's for the TTL."""
        if self._small is None or self._profiles is None:
            return
        if profile.count <= cap:
            self._small[(key, cap)] = profile
            self._profiles.pop((key, cap), None)
        else:
            self._profiles[(key, cap)] = profile
            self._small.pop((key, cap), None)

    def known_part(self, key: str, candidates: Sequence[str]) -> tuple[list[str], list[str]]:
        """``(known, missing)``: the candidates cached as known names, and those not cached
        (both in the order given)."""
        if self._known is None:
            return [], list(candidates)
        known: list[str] = []
        missing: list[str] = []
        for word in candidates:
            hit = self._known.get((key, word))
            if hit is None:
                missing.append(word)
            elif hit:
                known.append(word)
        return known, missing

    def put_known(self, key: str, candidates: Sequence[str], known: Sequence[str]) -> None:
        """Remember, for each of ``candidates``, whether it is a known name (in ``known``)."""
        if self._known is not None:
            names = set(known)
            for word in candidates:
                self._known[(key, word)] = word in names

    def read(self, key: str, cap: int, units: int | None) -> None:
        """A recall's statement read ``units`` units of these filters (None: a shortlist, not
        every unit): more than ``cap`` drops the profile, the next recall reads it again."""
        if units is not None and units > cap:
            self.forget(key, cap)

    def forget(self, key: str, cap: int) -> None:
        """Drop the profile cached for these filters (the statement saw other names, or more
        units than the exact-scan limit)."""
        if self._small is not None and self._profiles is not None:
            self._small.pop((key, cap), None)
            self._profiles.pop((key, cap), None)
