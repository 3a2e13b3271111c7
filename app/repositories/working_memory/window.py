"""The hot window of working memory in Redis: every Redis command of the service lives here.

A session's window is four keys sharing one Redis Cluster hash tag (so one Lua script may
touch them all)::

    {prefix}wm:{<namespace>:<session_id>}:idx    ZSET   member = score = seq
    {prefix}wm:{<namespace>:<session_id>}:data   HASH   seq -> "<tokens>\\n<json>"
    {prefix}wm:{<namespace>:<session_id>}:vec    HASH   seq -> float32 embedding bytes
    {prefix}wm:{<namespace>:<session_id>}:meta   HASH   tokens (window total), owner,
                                                        epoch + ver (the window's version)

Writes go through one Lua script (atomic: add, trim to the hard caps, refresh the idle TTL
of all four keys, bump the version). Messages are keyed by their transcript ``seq``, so
writing the same message twice changes nothing and messages that arrive out of order still
sort by seq.

Reads keep the decoded window in a small per-process LRU (:class:`WindowCache`) and reuse it
while the window's version in Redis is unchanged: one tiny round trip (HMGET of the version)
instead of transferring and decoding every message and embedding. The version is a random
epoch set when the window is created plus a counter, so a window cleared or expired and then
rebuilt never matches an old cached copy, and every API process validates on every read.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from urllib.parse import quote

import numpy as np
from cachetools import LRUCache
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.core.errors import DatastoreUnavailableError

# KEYS: idx, data, vec, meta. ARGV: ttl_ms, max_messages, max_tokens, owner, epoch (empty:
# only add to a window that exists, never create one), then per message (seq, tokens, data
# blob, vector bytes; empty bytes = not embedded yet). Returns {messages, tokens, trimmed,
# epoch of the window} ({0, 0, 0, ''} when there was no window to add to).
_APPEND_LUA = """
local idx, data, vec, meta = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if ARGV[5] == '' and redis.call('EXISTS', meta) == 0 then return {0, 0, 0, ''} end
local ttl = tonumber(ARGV[1])
local max_n = tonumber(ARGV[2])
local max_tok = tonumber(ARGV[3])
if ARGV[4] ~= '' then redis.call('HSETNX', meta, 'owner', ARGV[4]) end
redis.call('HSETNX', meta, 'epoch', ARGV[5])
redis.call('HINCRBY', meta, 'ver', 1)
local total = tonumber(redis.call('HGET', meta, 'tokens') or '0')
for i = 6, #ARGV, 4 do
  local seq = ARGV[i]
  if redis.call('ZADD', idx, 'NX', seq, seq) == 1 then
    redis.call('HSET', data, seq, ARGV[i + 2])
    redis.call('HSET', vec, seq, ARGV[i + 3])
    total = total + tonumber(ARGV[i + 1])
  end
end
local n = redis.call('ZCARD', idx)
local trimmed = 0
while n > 1 and (n > max_n or total > max_tok) do
  local oldest = redis.call('ZRANGE', idx, 0, 0)[1]
  local blob = redis.call('HGET', data, oldest)
  if blob then total = total - (tonumber(string.match(blob, '^(%d+)\\n')) or 0) end
  redis.call('ZREM', idx, oldest)
  redis.call('HDEL', data, oldest)
  redis.call('HDEL', vec, oldest)
  n = n - 1
  trimmed = trimmed + 1
end
redis.call('HSET', meta, 'tokens', total)
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ttl) end
return {n, total, trimmed, redis.call('HGET', meta, 'epoch')}
"""

# KEYS: idx, vec, meta. ARGV: epoch, then per message (seq, vector bytes). Sets the vector of
# each seq still in the window (of that epoch) that has none yet; never creates a key, never
# touches the TTL. Returns {vectors set, version before, version after} ("" when no window).
_FILL_LUA = """
local idx, vec, meta = KEYS[1], KEYS[2], KEYS[3]
local epoch = redis.call('HGET', meta, 'epoch')
if not epoch or epoch ~= ARGV[1] then return {0, '', ''} end
local before = epoch .. ':' .. (redis.call('HGET', meta, 'ver') or '0')
local set = 0
for i = 2, #ARGV, 2 do
  local seq = ARGV[i]
  if redis.call('ZSCORE', idx, seq) then
    local old = redis.call('HGET', vec, seq)
    if not old or old == '' then
      redis.call('HSET', vec, seq, ARGV[i + 1])
      set = set + 1
    end
  end
end
if set == 0 then return {0, before, before} end
local after = epoch .. ':' .. redis.call('HINCRBY', meta, 'ver', 1)
return {set, before, after}
"""


@dataclass(frozen=True)
class WindowEntry:
    """A message as the window keeps it (its embedding only when asked for)."""

    seq: int
    role: str
    content: str
    created_at: datetime
    user_id: str | None
    metadata: dict[str, Any]
    tokens: int
    density: float
    embedding: np.ndarray | None = None
    # A standing statement of the session (constraint, preference, decision) or None, and
    # whether the message is filler: decided at append (services/working_memory/standing.py).
    standing: str | None = None
    filler: bool = False
    # The embedding model's tokens of the message's first window, counted at append, with
    # what counted them: (tokens, window limit, tokenizer name); None in entries written
    # before they were kept, or restored from the transcript (a read counts those itself).
    first_window: tuple[int, int, str] | None = None


@dataclass(frozen=True)
class WindowSize:
    """The window after a write: messages and content tokens in it, and how many the write
    pushed out past the hard caps."""

    messages: int
    tokens: int
    trimmed: int
    epoch: str


@dataclass(frozen=True)
class WindowSnapshot:
    """One consistent read of a window: entries in seq order, the session's owner and the
    window's epoch (random per window incarnation; None when there is no window)."""

    entries: list[WindowEntry]
    owner: str | None
    epoch: str | None = None


def _encode(entry: WindowEntry) -> bytes:
    payload: dict[str, Any] = {
        "r": entry.role,
        "c": entry.content,
        "t": entry.created_at.isoformat(),
        "u": entry.user_id,
        "m": entry.metadata,
        "d": round(entry.density, 4),
        "s": entry.standing,
        "f": int(entry.filler),
    }
    if entry.first_window is not None:
        payload["w"] = list(entry.first_window)
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"{entry.tokens}\n{body}".encode()


def _decode_all(blobs: dict[bytes, bytes], vectors: dict[bytes, bytes]) -> list[WindowEntry]:
    """Entries in seq order. The JSON bodies are parsed in one ``json.loads`` call (half the
    time of one call per message for a 200-message window)."""
    items = sorted(((int(seq), blob) for seq, blob in blobs.items()), key=lambda x: x[0])
    heads: list[bytes] = []
    bodies: list[bytes] = []
    for _, blob in items:
        head, body = blob.split(b"\n", 1)
        heads.append(head)
        bodies.append(body)
    payloads = json.loads(b"[" + b",".join(bodies) + b"]") if bodies else []
    out = []
    for (seq, _), head, p in zip(items, heads, payloads, strict=True):
        vector = vectors.get(str(seq).encode())
        out.append(
            WindowEntry(
                seq=seq,
                role=p["r"],
                content=p["c"],
                created_at=datetime.fromisoformat(p["t"]),
                user_id=p["u"],
                metadata=p["m"],
                tokens=int(head),
                density=float(p["d"]),
                embedding=np.frombuffer(vector, dtype=np.float32) if vector else None,
                # Absent in entries written before the kinds were kept: plain messages.
                standing=p.get("s"),
                filler=bool(p.get("f", 0)),
                first_window=_first_window(p.get("w")),
            )
        )
    return out


def _first_window(stored: Any) -> tuple[int, int, str] | None:
    """A kept first-window count, or None (absent: an entry written before they were kept)."""
    if isinstance(stored, list) and len(stored) == 3:
        return int(stored[0]), int(stored[1]), str(stored[2])
    return None


@dataclass(frozen=True)
class _Cached:
    version: bytes
    snapshot: WindowSnapshot
    with_embeddings: bool


class WindowCache:
    """Decoded windows of the most recently read sessions (process memory, least recently
    used first out: ``cachetools.LRUCache``), each with the version it was read at; ``size``
    0 disables it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: LRUCache[str, _Cached] | None = LRUCache(maxsize=size) if size > 0 else None

    def get(self, key: str) -> _Cached | None:
        """The cached window of ``key`` (None when absent)."""
        return self._items.get(key) if self._items is not None else None

    def put(self, key: str, item: _Cached) -> None:
        """Remember ``item`` for ``key`` (the least recently used leaves past ``size``)."""
        if self._items is not None:
            self._items[key] = item

    def drop(self, key: str) -> None:
        """Forget ``key``'s window."""
        if self._items is not None:
            self._items.pop(key, None)


def _version(epoch: bytes | str | None, ver: bytes | str | None) -> bytes | None:
    # The client answers bytes (decode_responses=False); redis-py's annotations allow str too.
    if not isinstance(epoch, bytes) or not isinstance(ver, bytes):
        return None
    return epoch + b":" + ver


class WindowStore:
    """Per-session windows in one Redis (real or fakeredis), under a key prefix."""

    def __init__(
        self,
        redis: Redis,
        *,
        prefix: str,
        ttl_s: int,
        max_messages: int,
        max_tokens: int,
        cache: WindowCache | None = None,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.ttl_ms = ttl_s * 1000
        self.max_messages = max_messages
        self.max_tokens = max_tokens
        self.cache = cache or WindowCache(0)
        self._append = redis.register_script(_APPEND_LUA)
        self._fill = redis.register_script(_FILL_LUA)

    def keys(self, namespace: str, session_id: str) -> list[str]:
        """The idx, data, vec and meta keys of a session (namespace and session id are
        percent-encoded, so neither can forge another's key)."""
        tag = f"{quote(namespace, safe='')}:{quote(session_id, safe='')}"
        base = f"{self.prefix}wm:{{{tag}}}"
        return [f"{base}:idx", f"{base}:data", f"{base}:vec", f"{base}:meta"]

    async def add(
        self,
        namespace: str,
        session_id: str,
        entries: list[WindowEntry],
        owner: str | None,
        *,
        only_if_exists: bool = False,
    ) -> WindowSize:
        """Add messages (with their embedding, or without one yet: :meth:`fill_vectors`
        adds it later), trim to the caps and refresh the TTL, in one atomic step. Returns
        the window's size and epoch. ``only_if_exists``: a missing window stays missing
        (0 messages, epoch ""). Raises DatastoreUnavailableError when Redis fails."""
        # Used only if this write creates the window.
        epoch = "" if only_if_exists else uuid.uuid4().hex[:16]
        args: list[Any] = [self.ttl_ms, self.max_messages, self.max_tokens, owner or "", epoch]
        for e in entries:
            vector = b"" if e.embedding is None else e.embedding.astype(np.float32).tobytes()
            args.extend([e.seq, e.tokens, _encode(e), vector])
        try:
            n, tokens, trimmed, window_epoch = await self._append(
                keys=self.keys(namespace, session_id), args=args
            )
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
        epoch_text = window_epoch.decode() if isinstance(window_epoch, bytes) else ""
        return WindowSize(
            messages=int(n), tokens=int(tokens), trimmed=int(trimmed), epoch=epoch_text
        )

    async def fill_vectors(
        self, namespace: str, session_id: str, epoch: str, vectors: dict[int, np.ndarray]
    ) -> int:
        """Store the embeddings (seq → float32 vector) of messages that were added without
        one, if the window is still the incarnation ``epoch`` and still holds them (a message
        trimmed, cleared or expired meanwhile is skipped; an existing vector is kept).
        Returns the vectors set. This process's decoded copy of the window, when it was
        current, is updated in place instead of being invalidated. Raises
        DatastoreUnavailableError when Redis fails."""
        if not vectors:
            return 0
        idx, _, vec, meta = self.keys(namespace, session_id)
        args: list[Any] = [epoch]
        for seq, vector in vectors.items():
            args.extend([seq, np.asarray(vector, dtype=np.float32).tobytes()])
        try:
            n, before, after = await self._fill(keys=[idx, vec, meta], args=args)
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
        cached = self.cache.get(meta)
        if int(n) and cached is not None and cached.version == before:
            snapshot = cached.snapshot
            if cached.with_embeddings:
                snapshot = replace(
                    snapshot,
                    entries=[
                        replace(e, embedding=np.asarray(vectors[e.seq], dtype=np.float32))
                        if e.embedding is None and e.seq in vectors
                        else e
                        for e in snapshot.entries
                    ],
                )
            self.cache.put(meta, _Cached(after, snapshot, cached.with_embeddings))
        return int(n)

    async def read(
        self, namespace: str, session_id: str, *, with_embeddings: bool
    ) -> WindowSnapshot:
        """Every message of the window in seq order and its owner; an expired or
        never-written window is empty. Served from the process cache while the window's
        version is unchanged, else read in one MULTI/EXEC round trip."""
        _, data, vec, meta = keys = self.keys(namespace, session_id)
        cached = self.cache.get(keys[3])
        try:
            if (
                cached is not None
                and (cached.with_embeddings or not with_embeddings)
                and _version(*await self.redis.hmget(meta, ["epoch", "ver"])) == cached.version
            ):
                return cached.snapshot
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hgetall(data)
                pipe.hmget(meta, ["owner", "epoch", "ver"])
                if with_embeddings:
                    pipe.hgetall(vec)
                results = await pipe.execute()
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
        owner, epoch, ver = results[1]
        snapshot = WindowSnapshot(
            entries=_decode_all(results[0], results[2] if with_embeddings else {}),
            owner=owner.decode() if owner is not None else None,
            epoch=epoch.decode() if epoch is not None else None,
        )
        version = _version(epoch, ver)
        if version is not None:
            self.cache.put(keys[3], _Cached(version, snapshot, with_embeddings))
        else:
            self.cache.drop(keys[3])
        return snapshot

    async def clear(self, namespace: str, session_id: str) -> bool:
        """Delete the window; True when it existed."""
        keys = self.keys(namespace, session_id)
        self.cache.drop(keys[3])
        try:
            removed = await self.redis.delete(*keys)
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
        return bool(removed)

    async def exists(self, namespace: str, session_id: str) -> bool:
        """Whether the session has a window. Raises DatastoreUnavailableError when Redis
        fails."""
        try:
            return bool(await self.redis.exists(self.keys(namespace, session_id)[3]))
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
