"""memory_units.sessions: the other sessions whose statements were merged into the unit
(tester finding C15: once a session's units merged into an older unit of another session,
its ``session_id`` filters found nothing).

A restatement merged at write time leaves no row of its own, and a merged row keeps its own
``session_id``; the survivor now records those sessions, and a session filter matches
``session_id = S OR (cardinality(sessions) > 0 AND sessions @> {S})``: a partial GIN
index holds only the units with merged-in sessions, so ordinary writes never touch it. Existing survivors (``merge_count`` > 0)
are filled from what they already name: the sessions of the rows merged into them, the
``session:<id>#<seq>`` references extraction gave them, and the sessions of the extraction
jobs their ``job:<id>#<index>`` references name.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FILL = """
UPDATE memory_units AS u
   SET sessions = found.sessions
  FROM (
        SELECT s.id, array_agg(DISTINCT s.sid ORDER BY s.sid) AS sessions
          FROM (
                SELECT m.merged_into AS id, CAST(m.session_id AS text) AS sid
                  FROM memory_units AS m
                 WHERE m.merged_into IS NOT NULL AND m.session_id IS NOT NULL
                UNION ALL
                SELECT v.id, substring(r FROM '^session:(.*)#[0-9]+$') AS sid
                  FROM memory_units AS v, unnest(v.raw_ref) AS r
                 WHERE v.merge_count > 0
                UNION ALL
                SELECT v.id, CAST(j.session_id AS text) AS sid
                  FROM memory_units AS v
                  CROSS JOIN unnest(v.raw_ref) AS r
                  JOIN extraction_jobs AS j
                    ON j.namespace = v.namespace
                   AND CAST(j.id AS text) = substring(r FROM '^job:([0-9a-f-]{36})#[0-9]+$')
                 WHERE v.merge_count > 0 AND j.session_id IS NOT NULL
               ) AS s
         WHERE s.sid IS NOT NULL
         GROUP BY s.id
       ) AS found
 WHERE u.id = found.id
"""

_TRIM_OWN = """
UPDATE memory_units
   SET sessions = array_remove(sessions, CAST(session_id AS text))
 WHERE session_id IS NOT NULL AND sessions @> ARRAY[CAST(session_id AS text)]
"""


def upgrade() -> None:
    op.add_column(
        "memory_units",
        sa.Column("sessions", postgresql.ARRAY(sa.Text()), nullable=False, server_default="{}"),
    )
    op.execute(_FILL)
    op.execute(_TRIM_OWN)
    op.create_index(
        "ix_memory_units_sessions",
        "memory_units",
        ["sessions"],
        postgresql_using="gin",
        postgresql_where=sa.text("cardinality(sessions) > 0"),
    )


def downgrade() -> None:
    op.drop_index("ix_memory_units_sessions", table_name="memory_units")
    op.drop_column("memory_units", "sessions")
