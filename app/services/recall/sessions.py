"""Where each recall candidate sits in time and in its session, as numpy arrays, for the
vectorised scoring (app.services.recall.scoring): the context signal's neighbours and
session bests, and a value per distinct time (recency, the time window)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from operator import attrgetter

import numpy as np

from app.repositories.recall.rows import MicroTimes, from_micros

_UUID_BYTES = attrgetter("bytes")


class Times:
    """The candidates' distinct times (``distinct``, ascending) and each candidate's place
    among them (``index``): a value of a time is computed once per distinct time (a
    session's units often share one), and ``index`` orders the candidates by time."""

    def __init__(self, occurred: Sequence[datetime]) -> None:
        if isinstance(occurred, MicroTimes):  # the exact path's: sorted as integers
            micros = np.fromiter(occurred.micros, np.int64, len(occurred))
            distinct, index = np.unique(micros, return_inverse=True)
            self.distinct = list(map(from_micros, distinct.tolist()))
            self.index = index.astype(np.int64, copy=False).reshape(-1)
            return
        self.distinct = sorted(dict.fromkeys(occurred))
        place = {t: i for i, t in enumerate(self.distinct)}
        self.index = np.fromiter(map(place.__getitem__, occurred), np.int64, len(occurred))

    def each(self, value: Callable[[datetime], float]) -> np.ndarray:
        """``value`` of each candidate's time."""
        return np.array([value(t) for t in self.distinct], dtype=float)[self.index]


class Sessions:
    """Where each candidate sits in its session, in (occurred_at, id) order: ``order`` (the
    indexes of the candidates with a session, session by session, in that order),
    ``first`` / ``last`` (per position of ``order``: the first / last of its session) and
    ``starts`` (the positions where each session begins)."""

    def __init__(self, sessions: Sequence[str | None], when: Times, ids: Sequence[uuid.UUID]):
        n = len(sessions)
        codes = {s: i for i, s in enumerate(dict.fromkeys(sessions))}
        code = np.fromiter(map(codes.__getitem__, sessions), np.int64, n)
        # ids in their order as 128-bit numbers: the big-endian halves of their bytes
        halves = np.frombuffer(b"".join(map(_UUID_BYTES, ids)), ">u8").reshape(n, 2)
        order = np.lexsort((halves[:, 1], halves[:, 0], when.index, code))
        if None in codes:
            order = order[code[order] != codes[None]]
        self.order = order
        code = code[order]
        m = len(order)
        self.first = np.ones(m, bool)
        self.first[1:] = code[1:] != code[:-1]
        self.last = np.ones(m, bool)
        self.last[:-1] = self.first[1:]
        self.starts = np.flatnonzero(self.first)

    def context(self, relevance: np.ndarray) -> np.ndarray:
        """Per candidate: the mean of its better neighbour's relevance and its session's
        best (a candidate alone in its session is its own neighbour; one without a session
        its own context)."""
        out = relevance.copy()
        if not len(self.order):
            return out
        rel = relevance[self.order]
        before = np.full(len(rel), -np.inf)
        before[1:] = rel[:-1]
        before[self.first] = -np.inf
        after = np.full(len(rel), -np.inf)
        after[:-1] = rel[1:]
        after[self.last] = -np.inf
        near = np.maximum(before, after)
        alone = self.first & self.last
        near[alone] = rel[alone]
        best = np.maximum.reduceat(rel, self.starts)
        sizes = np.diff(np.append(self.starts, len(rel)))
        out[self.order] = 0.5 * near + 0.5 * np.repeat(best, sizes)
        return out
