"""The hot window of working memory in Redis: every Redis command of the service lives here.

A session's window is four keys sharing one Redis Cluster hash tag (so one Lua script may
touch them all)::

    {prefix}wm:{<namespace>:<session_id>}:idx    ZSET   member = score = seq
    {prefix}wm:{<namespace>:<session_id>}:data   HASH   seq -> "<tokens>\\n<json>"
    {prefix}wm:{<namespace>:<session_id>}:vec    HASH   seq -> float32 embedding bytes
    {prefix}wm:{<namespace>:<session_id>}:meta   HASH   tokens (window total), owner

Writes go through one Lua script (atomic: add, trim to the hard caps, refresh the idle TTL
of all four keys). Messages are keyed by their transcript ``seq``, so writing the same
message twice changes nothing and messages that arrive out of order still sort by seq.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

import numpy as np
from redis.exceptions import RedisError

from app.core.errors import DatastoreUnavailableError

# KEYS: idx, data, vec, meta. ARGV: ttl_ms, max_messages, max_tokens, owner, then per message
# (seq, tokens, data blob, vector bytes). Returns {messages, tokens, trimmed} after the write.
_APPEND_LUA = """
local idx, data, vec, meta = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local ttl = tonumber(ARGV[1])
local max_n = tonumber(ARGV[2])
local max_tok = tonumber(ARGV[3])
if ARGV[4] ~= '' then redis.call('HSETNX', meta, 'owner', ARGV[4]) end
local total = tonumber(redis.call('HGET', meta, 'tokens') or '0')
for i = 5, #ARGV, 4 do
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
return {n, total, trimmed}
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


@dataclass(frozen=True)
class WindowSize:
    """The window after a write: messages and content tokens in it, and how many the write
    pushed out past the hard caps."""

    messages: int
    tokens: int
    trimmed: int


@dataclass(frozen=True)
class WindowSnapshot:
    """One consistent read of a window: entries in seq order and the session's owner."""

    entries: list[WindowEntry]
    owner: str | None


def _encode(entry: WindowEntry) -> bytes:
    payload = {
        "r": entry.role,
        "c": entry.content,
        "t": entry.created_at.isoformat(),
        "u": entry.user_id,
        "m": entry.metadata,
        "d": round(entry.density, 4),
    }
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
            )
        )
    return out


class WindowStore:
    """Per-session windows in one Redis (real or fakeredis), under a key prefix."""

    def __init__(
        self,
        redis: Any,
        *,
        prefix: str,
        ttl_s: int,
        max_messages: int,
        max_tokens: int,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.ttl_ms = ttl_s * 1000
        self.max_messages = max_messages
        self.max_tokens = max_tokens
        self._append = redis.register_script(_APPEND_LUA)

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
    ) -> WindowSize:
        """Add messages (each with its embedding), trim to the caps and refresh the TTL, in
        one atomic step. Raises DatastoreUnavailableError when Redis fails."""
        args: list[Any] = [self.ttl_ms, self.max_messages, self.max_tokens, owner or ""]
        for e in entries:
            vector = b"" if e.embedding is None else e.embedding.astype(np.float32).tobytes()
            args.extend([e.seq, e.tokens, _encode(e), vector])
        try:
            n, tokens, trimmed = await self._append(
                keys=self.keys(namespace, session_id), args=args
            )
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
        return WindowSize(messages=int(n), tokens=int(tokens), trimmed=int(trimmed))

    async def read(
        self, namespace: str, session_id: str, *, with_embeddings: bool
    ) -> WindowSnapshot:
        """Every message of the window in seq order (one MULTI/EXEC round trip); an expired
        or never-written window is empty."""
        _, data, vec, meta = self.keys(namespace, session_id)
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hgetall(data)
                pipe.hget(meta, "owner")
                if with_embeddings:
                    pipe.hgetall(vec)
                results = await pipe.execute()
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
        blobs: dict[bytes, bytes] = results[0]
        owner = results[1].decode() if results[1] is not None else None
        vectors: dict[bytes, bytes] = results[2] if with_embeddings else {}
        return WindowSnapshot(entries=_decode_all(blobs, vectors), owner=owner)

    async def clear(self, namespace: str, session_id: str) -> bool:
        """Delete the window; True when it existed."""
        try:
            removed = await self.redis.delete(*self.keys(namespace, session_id))
        except RedisError as exc:
            raise DatastoreUnavailableError(f"working-memory store failed: {exc}") from exc
        return bool(removed)

    async def ttl_ms_left(self, namespace: str, session_id: str) -> int:
        """Milliseconds until the window expires (-2: no window)."""
        return int(await self.redis.pttl(self.keys(namespace, session_id)[0]))
