"""The entity graph over memory units (docs/ARCHITECTURE.md, "The entity graph"): entities
per subject, unit → entity links, and entity ↔ entity co-occurrence edges."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class Entity(Base):
    """One entity of one subject (namespace, user, agent; ``agent_id`` is ``''`` for units
    without an agent, as the unique key cannot hold NULL). ``key`` is the normalised name
    (app.core.entity_names.entity_key), ``name`` the first spelling seen. A row with
    ``alias_of`` set is an alias: its key resolves to that entity, it has no links of its
    own, and it goes with the unit that declared it (``declared_by``) or with its entity.
    ``first_seen`` / ``last_seen``: the earliest and latest ``occurred_at`` of units linked
    when they were written."""

    __tablename__ = "entities"

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    namespace: Mapped[str] = mapped_column(String(128))
    user_id: Mapped[str] = mapped_column(String(256))
    agent_id: Mapped[str] = mapped_column(String(256))
    key: Mapped[str] = mapped_column(Text)
    name: Mapped[str] = mapped_column(Text)
    alias_of: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("entities.id", ondelete="CASCADE")
    )
    declared_by: Mapped[uuid.UUID | None] = mapped_column(
        UUID(as_uuid=True), ForeignKey("memory_units.id", ondelete="CASCADE")
    )
    first_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        UniqueConstraint("namespace", "user_id", "agent_id", "key"),
        Index("ix_entities_alias_of", "alias_of", postgresql_where=text("alias_of IS NOT NULL")),
        Index(
            "ix_entities_declared_by",
            "declared_by",
            postgresql_where=text("declared_by IS NOT NULL"),
        ),
    )


class UnitEntity(Base):
    """Unit ``unit_id`` names entity ``entity_id`` (deleted with either). ``occurred_at`` is
    the unit's (a unit's never changes once written): the index on (entity, newest first)
    gives the newest units naming an entity by reading only those (migration 0014)."""

    __tablename__ = "unit_entities"

    unit_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("memory_units.id", ondelete="CASCADE"), primary_key=True
    )
    entity_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("entities.id", ondelete="CASCADE"), primary_key=True
    )
    occurred_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        # Read backwards: an entity's units newest first (and its units, for the other reads).
        Index("ix_unit_entities_entity_recent", "entity_id", "occurred_at", "unit_id"),
    )


class EntityEdge(Base):
    """Entities ``a`` < ``b`` are named together by ``weight`` stored units (any status),
    the first and last of them by ``occurred_at`` at ``first_seen`` / ``last_seen``."""

    __tablename__ = "entity_edges"

    a: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("entities.id", ondelete="CASCADE"), primary_key=True
    )
    b: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("entities.id", ondelete="CASCADE"), primary_key=True
    )
    weight: Mapped[int] = mapped_column(Integer)
    first_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint("a < b", name="ordered"),
        Index("ix_entity_edges_b", "b"),
    )
