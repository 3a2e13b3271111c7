"""API keys → namespaces (docs/DEPLOY.md).

A key looks like ``hs_<43 url-safe characters>`` (``secrets.token_urlsafe(32)``: 256 random
bits). Only its SHA-256 is stored; the first 11 characters (``hs_`` + 8) are kept in clear as a
visible prefix to tell keys apart in listings. A presented key is hashed and looked up; the
result (namespace or "no such key") is cached per process for ``AUTH__CACHE_TTL_S`` seconds, so
the recall path costs no query for a known key. Creating or revoking a key clears the cache of
every API process at once (PostgreSQL NOTIFY, app/repositories/key_events.py); the TTL bounds
a revoked key's life only while that channel is down.

Whether a key is required (``AUTH__REQUIRED``): ``true`` always, ``false`` never, ``auto``
(default) when the API listens on a non-loopback address or once any active key exists. A key
that is presented is always checked, required or not.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import time
from dataclasses import dataclass
from datetime import datetime

import uuid_utils.compat as uuid7

from app.core.config import AuthSettings
from app.core.errors import InvalidApiKeyError, MissingApiKeyError, RateLimitedError
from app.models import ApiKey
from app.repositories.api_keys import ApiKeyRepository
from app.repositories.key_events import KeyChangeListener
from app.repositories.rate_limit import RateLimiter

KEY_PREFIX = "hs_"
VISIBLE_CHARS = len(KEY_PREFIX) + 8
# Longest key accepted for hashing; anything longer is not ours (and not worth hashing).
MAX_KEY_CHARS = 256


def generate_key() -> str:
    """A new random API key, ``hs_`` + 43 url-safe characters (256 bits)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """Hex SHA-256 of a key: what the database stores and looks up."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def visible_prefix(key: str) -> str:
    """The part of a key safe to show in listings and logs (``hs_AbCd1234``)."""
    return key[:VISIBLE_CHARS]


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``; False for 0.0.0.0, :: and real addresses."""
    host = host.strip().strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


@dataclass(frozen=True)
class Caller:
    """Who is calling: the namespace every query is scoped by, and the key's visible prefix
    (None for an anonymous caller on an open, loopback-only service)."""

    namespace: str
    key_prefix: str | None


class AuthState:
    """Process-wide state of authentication: the key-lookup cache and the rate limiter."""

    _ANY_KEY = "\x00any-active-key"

    def __init__(self, settings: AuthSettings, redis_url: str | None = None) -> None:
        self.ttl_s = settings.cache_ttl_s
        self._cache: dict[str, tuple[float, str | None]] = {}
        self.limiter = RateLimiter(settings.rate_limit, redis_url) if settings.rate_limit else None

    def get(self, key: str) -> tuple[bool, str | None]:
        """(hit, value) for a cached lookup that has not expired."""
        entry = self._cache.get(key)
        if entry is None or entry[0] < time.monotonic():
            return False, None
        return True, entry[1]

    def put(self, key: str, value: str | None) -> None:
        if self.ttl_s <= 0:
            return
        if len(self._cache) >= 10_000:  # bound memory under a flood of random keys
            self._cache.clear()
        self._cache[key] = (time.monotonic() + self.ttl_s, value)

    def clear(self) -> None:
        """Forget every cached lookup (tests, or after creating/revoking keys in-process)."""
        self._cache.clear()


class AuthService:
    """Maps a presented API key to a :class:`Caller`, or refuses it."""

    def __init__(
        self,
        repo: ApiKeyRepository,
        state: AuthState,
        settings: AuthSettings,
        listen_host: str,
        default_namespace: str,
    ) -> None:
        self.repo = repo
        self.state = state
        self.settings = settings
        self.listen_host = listen_host
        self.default_namespace = default_namespace

    async def required(self) -> bool:
        """Whether an anonymous request is refused (see the module docstring)."""
        if self.settings.required != "auto":
            return self.settings.required == "true"
        if not is_loopback(self.listen_host):
            return True
        hit, value = self.state.get(AuthState._ANY_KEY)
        if not hit:
            value = "yes" if await self.repo.any_active() else None
            self.state.put(AuthState._ANY_KEY, value)
        return value is not None

    async def authenticate(self, key: str | None) -> Caller:
        """The caller of a request carrying ``key`` (None: no key sent).

        Raises MissingApiKeyError (401) when a key is required and none was sent,
        InvalidApiKeyError (401) for an unknown or revoked key, RateLimitedError (429)
        past the per-key rate limit."""
        if not key:
            if await self.required():
                raise MissingApiKeyError(
                    "this service requires an API key: send `Authorization: Bearer <key>` "
                    "or `X-API-Key: <key>`"
                )
            caller = Caller(self.default_namespace, None)
        else:
            caller = Caller(await self._namespace_of(key), visible_prefix(key))
        if self.state.limiter is not None:
            identity = caller.key_prefix or f"anonymous:{caller.namespace}"
            retry_after = await self.state.limiter.hit(identity)
            if retry_after is not None:
                raise RateLimitedError(
                    f"rate limit exceeded ({self.settings.rate_limit}); retry in {retry_after} s",
                    retry_after_s=retry_after,
                )
        return caller

    async def _namespace_of(self, key: str) -> str:
        namespace: str | None = None
        if len(key) <= MAX_KEY_CHARS:
            digest = hash_key(key)
            hit, namespace = self.state.get(digest)
            if not hit:
                namespace = await self.repo.namespace_of(digest)
                self.state.put(digest, namespace)
        if namespace is None:
            # Same answer for unknown and revoked keys: nothing to learn from probing.
            raise InvalidApiKeyError("the API key is not valid (unknown or revoked)")
        return namespace


@dataclass(frozen=True)
class CreatedKey:
    """A new key: ``key`` is shown once and never stored."""

    key: str
    row: ApiKey


class KeyAdminService:
    """Create, list and revoke keys (``hindsight keys …``)."""

    def __init__(self, repo: ApiKeyRepository) -> None:
        self.repo = repo

    async def create(self, namespace: str, name: str | None = None) -> CreatedKey:
        """A new active key for ``namespace``; the clear key is only in the return value."""
        key = generate_key()
        row = await self.repo.add(
            uuid7.uuid7(), namespace, name, visible_prefix(key), hash_key(key)
        )
        return CreatedKey(key, row)

    async def list_keys(
        self, namespace: str | None = None, include_revoked: bool = False
    ) -> list[ApiKey]:
        """Keys (never their secret part), oldest first."""
        return list(await self.repo.list_keys(namespace, include_revoked))

    async def revoke(self, id_or_prefix: str, now: datetime) -> list[ApiKey]:
        """Revoke by id or visible prefix; returns the keys revoked (empty: none matched)."""
        return await self.repo.revoke(id_or_prefix, now)


def key_change_listener(database_url: str, state: AuthState) -> KeyChangeListener:
    """A listener (``await start()`` / ``await stop()``) that drops ``state``'s cached key
    lookups whenever any process creates or revokes a key (PostgreSQL NOTIFY), so a revoked
    key stops working in every API process at once."""
    return KeyChangeListener(database_url, state.clear)
