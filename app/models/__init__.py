"""SQLAlchemy tables and indexes only."""

from app.models.api_key import ApiKey
from app.models.base import Base
from app.models.entity import Entity, EntityEdge, UnitEntity
from app.models.job import ExtractionJob
from app.models.lifecycle import DistillationState, MemoryAccess, MemoryLink
from app.models.memory import IdempotencyRecord, MemoryUnit
from app.models.review import PairReview
from app.models.transcript import TranscriptMessage, WorkingMemorySession

__all__ = [
    "ApiKey",
    "Base",
    "DistillationState",
    "Entity",
    "EntityEdge",
    "ExtractionJob",
    "IdempotencyRecord",
    "MemoryAccess",
    "MemoryLink",
    "MemoryUnit",
    "PairReview",
    "UnitEntity",
    "TranscriptMessage",
    "WorkingMemorySession",
]
