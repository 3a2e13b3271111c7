"""SQLAlchemy tables and indexes only."""

from app.models.base import Base
from app.models.memory import IdempotencyRecord, MemoryUnit

__all__ = ["Base", "IdempotencyRecord", "MemoryUnit"]
