"""Typed settings, read once through :func:`get_settings`.

Every field is an environment variable; nested groups use ``__`` (``RECALL__WEIGHT_SEMANTIC``).
``.env.example`` documents each one, and ``tests/core/test_settings.py`` fails when the two drift.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import AliasChoices, BaseModel, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.core.identifiers import identifier_problem
from app.core.settings.memory import (
    ConflictSettings,
    DedupeSettings,
    EmbeddingSettings,
    LifecycleSettings,
    RecallSettings,
    TtlSettings,
)
from app.core.settings.service import (
    AuthSettings,
    LimitsSettings,
    McpSettings,
    WorkerSettings,
)
from app.core.settings.sessions import (
    ClosureSettings,
    ContextSettings,
    ExtractionSettings,
    LLMSettings,
    WorkingMemorySettings,
)

__all__ = [
    "EmbeddingSettings",
    "RecallSettings",
    "DedupeSettings",
    "ConflictSettings",
    "TtlSettings",
    "LifecycleSettings",
    "WorkingMemorySettings",
    "ContextSettings",
    "LLMSettings",
    "ExtractionSettings",
    "ClosureSettings",
    "AuthSettings",
    "McpSettings",
    "WorkerSettings",
    "LimitsSettings",
    "Settings",
    "env_names",
    "get_settings",
]


class Settings(BaseSettings):
    """All configuration of the service."""

    model_config = SettingsConfigDict(
        env_file=".env", env_nested_delimiter="__", extra="ignore", populate_by_name=True
    )

    # Unset: `hindsight serve` starts an embedded PostgreSQL + pgvector in data_dir.
    database_url: str | None = None
    # Unset: working memory uses an in-process store with Redis semantics.
    redis_url: str | None = None
    data_dir: Path = Field(
        default_factory=lambda: Path(platformdirs.user_data_dir("hindsight")),
        validation_alias=AliasChoices("HINDSIGHT_DATA_DIR", "data_dir"),
    )
    # Tenant used when no API key maps the caller to one (an id: no control, bidi, invisible
    # or noncharacters, app/core/identifiers.py).
    default_namespace: str = Field(default="default", min_length=1, max_length=128)
    # The address the API listens on; `hindsight serve --host` sets it. With AUTH__REQUIRED=auto
    # a non-loopback address makes API keys required.
    listen_host: str = "127.0.0.1"
    # Host names besides localhost, 127.0.0.1 and [::1] that `hindsight serve` on a loopback
    # address answers (any other Host is a 421: a guard against DNS rebinding).
    allowed_hosts: list[str] = Field(default_factory=list)
    # Log lines as JSON objects (one per line, with the request id) or as plain text.
    log_format: Literal["json", "text"] = "json"
    log_level: str = "INFO"
    db_pool_size: int = Field(default=10, ge=1, le=200)
    # Largest request body accepted, in bytes; larger ones get 413 payload_too_large before
    # anything is parsed. 1 MiB holds 100 units of ~1000 CJK characters sent as UTF-8 (the
    # schema allows 2000 per value: raise it for full batches of long, \u-escaped text).
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    # Seconds in-flight requests and jobs get after SIGTERM/SIGINT/SIGHUP, then cancelled.
    shutdown_timeout_s: float = Field(default=8.0, gt=0, le=3600)
    limits: LimitsSettings = LimitsSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    recall: RecallSettings = RecallSettings()
    dedupe: DedupeSettings = DedupeSettings()
    working_memory: WorkingMemorySettings = WorkingMemorySettings()
    context: ContextSettings = ContextSettings()
    auth: AuthSettings = AuthSettings()
    mcp: McpSettings = McpSettings()
    ttl: TtlSettings = TtlSettings()
    lifecycle: LifecycleSettings = LifecycleSettings()
    llm: LLMSettings = LLMSettings()
    extraction: ExtractionSettings = ExtractionSettings()
    closure: ClosureSettings = ClosureSettings()
    conflicts: ConflictSettings = ConflictSettings()
    worker: WorkerSettings = WorkerSettings()

    @field_validator("default_namespace")
    @classmethod
    def _namespace_is_an_id(cls, value: str) -> str:
        problem = identifier_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _rerank_needs_llm(self) -> Settings:
        if self.recall.rerank == "llm" and not self.llm.configured:
            raise ValueError(
                "RECALL__RERANK=llm needs an LLM: set LLM__BASE_URL and LLM__MODEL "
                "(or RECALL__RERANK=none)"
            )
        return self

    @model_validator(mode="after")
    def _worker_in_process_default(self) -> Settings:
        # The embedded default (no DATABASE_URL) runs the worker inside `hindsight serve`.
        if self.worker.in_process == "auto":
            self.worker.in_process = not self.database_url  # unset or empty
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, parsed and validated once."""
    return Settings()


def env_names(settings_cls: type[BaseSettings] = Settings) -> set[str]:
    """Every environment variable the settings read, e.g. ``RECALL__BUDGET_MS``."""
    names: set[str] = set()
    for name, field in settings_cls.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names.add(str(alias.choices[0]).upper())
            continue
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            names.update(f"{name.upper()}__{sub.upper()}" for sub in annotation.model_fields)
        else:
            names.add(name.upper())
    return names
