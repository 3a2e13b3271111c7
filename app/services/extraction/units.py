"""What every extractor produces: :class:`Candidate` units (validated, not yet stored), read
from :class:`Turn` s of a transcript within an :class:`ExtractionContext`."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from app.core.vocabulary import MemoryType

MAX_VALUE_CHARS = 2000


@dataclass(frozen=True)
class Turn:
    """One transcript message. ``index`` is its position in the job's transcript; ``ref``
    the pointer stored in a unit's ``raw_ref`` (``session:<id>#<seq>`` or
    ``job:<id>#<index>``); ``name`` the speaker's name when the transcript gives one (several
    people may speak as ``user``)."""

    index: int
    role: str
    content: str
    created_at: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    ref: str = ""
    name: str | None = None


@dataclass(frozen=True)
class ExtractionContext:
    """Who the units are about and the conversation's clock (relative dates resolve
    against ``now`` in ``timezone``). ``preceding``: the turns just before the ones to
    extract (the end of the previous slice), read as context only."""

    user_id: str
    now: datetime
    timezone: str = "UTC"
    preceding: tuple[Turn, ...] = ()


def _clean_text(value: str) -> str:
    value = unicodedata.normalize("NFC", value).replace("\x00", "").strip()
    if not value:
        raise ValueError("must not be empty")
    return value


class Candidate(BaseModel):
    """One extracted unit, validated against the schema the prompt asks for.

    ``occurred_at`` is the time anchor (a date means its local midnight in the conversation's
    zone); ``source_turns`` index the transcript turns it came from.
    """

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    type: MemoryType
    value: str = Field(min_length=1, max_length=MAX_VALUE_CHARS)
    query: str | None = Field(default=None, max_length=MAX_VALUE_CHARS)
    entities: list[str] = Field(default_factory=list, max_length=50)
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    occurred_at: datetime | date | None = Field(
        default=None, validation_alias=AliasChoices("occurred_at", "time_anchor", "date")
    )
    expires_at: datetime | date | None = None
    source_turns: list[int] = Field(default_factory=list, max_length=200)

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, value: Any) -> Any:
        return 0.8 if value is None else value  # null: the default (tester F20: job failed)

    @field_validator("type", mode="before")
    @classmethod
    def _lower_type(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("value")
    @classmethod
    def _value(cls, value: str) -> str:
        return _clean_text(value)

    @field_validator("query")
    @classmethod
    def _query(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return _clean_text(value)

    @field_validator("entities", mode="before")
    @classmethod
    def _entities(cls, value: Any) -> Any:
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise ValueError("entities must be a list of strings")
        out: list[str] = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError("entities must be strings")
            item = item.replace("\x00", "")  # a NUL-only entity is none (tester D25)
            item = _clean_text(item) if item.strip() else ""
            if item and len(item) <= 200 and item not in out:
                out.append(item)
        return out

    @field_validator("source_turns", mode="before")
    @classmethod
    def _turns(cls, value: Any) -> Any:
        if value is None:
            return []
        if isinstance(value, int):
            return [value]
        return value


@dataclass
class Extraction:
    """An extractor's answer: valid units, and the ones it rejected with why; ``dropped``:
    outcome entries of what was withheld before the extractor read it
    (:mod:`app.services.extraction.withhold`)."""

    units: list[Candidate] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)


class Extractor(Protocol):
    """Turns a transcript into candidate units."""

    name: str

    async def extract(self, turns: list[Turn], ctx: ExtractionContext) -> Extraction:
        """Candidate units found in ``turns`` (not yet filtered by confidence)."""
        ...
