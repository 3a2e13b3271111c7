"""pair_reviews.decided_by: who closed a review (the LLM, a person through the API, the sweep)

``GET /reviews`` lists the open pairs and ``POST /reviews/{id}`` decides one (``merge``,
``supersede``, ``keep_both``); the archival sweep closes those pending longer than
``LIFECYCLE__REVIEW_MAX_AGE_DAYS`` as ``keep_both``. ``decided_by`` says which: ``llm`` (the
reconciliation job), ``api``, ``sweep``, ``system`` (closed as ``stale`` because a unit of the
pair was merged, superseded or changed). Existing decided reviews are backfilled: ``stale``
ones as ``system``, the others as ``llm`` (the only way a review was decided before). An index
on (namespace, user_id, created_at) serves the per-subject list.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("pair_reviews", sa.Column("decided_by", sa.String(16)))
    op.execute(
        """
        UPDATE pair_reviews
           SET decided_by = CASE WHEN action = 'stale' THEN 'system' ELSE 'llm' END
         WHERE status = 'decided'
        """
    )
    op.create_index(
        "ix_pair_reviews_subject", "pair_reviews", ["namespace", "user_id", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_pair_reviews_subject", table_name="pair_reviews")
    op.drop_column("pair_reviews", "decided_by")
