"""A succeeded extraction job keeps no message text (tester finding C25: after a forget of a
unit, the job row still held the raw card number). The runner now cuts a job's transcript
snapshot to each message's place when the job succeeds (``jobs.without_text``); this does the
same to the jobs that succeeded before. Failed and unfinished jobs keep their text (a retry
reads it). No downgrade: the text is gone.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        UPDATE extraction_jobs
           SET transcript = COALESCE(
                   (SELECT jsonb_agg(
                               COALESCE((SELECT jsonb_object_agg(k, v) FROM jsonb_each(m) AS e(k, v)
                                          WHERE k IN ('index', 'seq', 'role', 'created_at')),
                                        '{}'::jsonb)
                               ORDER BY n)
                      FROM jsonb_array_elements(transcript) WITH ORDINALITY AS x(m, n)),
                   '[]'::jsonb)
         WHERE status = 'succeeded'
        """
    )


def downgrade() -> None:
    pass
