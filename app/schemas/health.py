"""``/health``'s answer."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.common import ResponseModel


class Health(ResponseModel):
    """Liveness: the process serves requests. Datastores are `/ready`'s, with one exception:
    the embedded PostgreSQL (no DATABASE_URL) is this process's own, so its state is here; so
    is whether the configured LLM answers (reported, never a failure)."""

    status: Literal["ok", "unavailable"] = Field(
        description="`ok` (200) while the process serves; `unavailable` (503) when its "
        "embedded PostgreSQL is down for good (restarting it failed): restart the service."
    )
    embedded_postgres: Literal["up", "restarting", "down"] | None = Field(
        default=None,
        description="Only with the embedded PostgreSQL: `up`; `restarting` (it died and the "
        "service is starting it again, requests answer 503 meanwhile); `down` (it did not "
        "start again).",
    )
    llm: Literal["checking", "reachable", "unauthorized", "unreachable"] | None = Field(
        default=None,
        description="Only with an LLM configured (`LLM__BASE_URL`): whether it answered the "
        "last probe (`GET {base_url}/models`, at most once a minute, in the background; "
        "`checking` until the first answer): `reachable`; `unauthorized` (401/403: the key "
        "is refused); `unreachable` (no connection, a timeout, or a 5xx of its gateway). "
        "Reported only: `status` stays `ok` (extraction jobs retry, a rerank falls back).",
    )
