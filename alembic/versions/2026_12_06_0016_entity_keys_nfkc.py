"""memory_units.entity_keys rewritten with the entity graph's key (NFKC, bidi controls removed,
case folded, whitespace collapsed), so "６００５１９" in a unit and "600519" in a query are one key

Before this version ``entity_keys`` were only case-folded and trimmed, while the entity graph
(``entities.key``) and the recall's query tokens folded width too: a unit naming
"６００５１９" got no entity signal for a query naming "600519", and the recall's expansion
(graph keys) did not match it. Both now use ``app.core.entity_names.entity_key``
(``app.core.text.entity_keys``).

Every unit's keys are recomputed in Python from its ``entities`` (NFKC and ``casefold`` are not
PostgreSQL's ``lower()``), in batches of 5,000 units by id, each batch its own transaction;
only units whose keys change are written (most units name ASCII names, which keep theirs).
A server of the previous version still writing during a rolling deploy writes the old form;
re-running the upgrade's pass (``downgrade`` then ``upgrade``) fixes those.

Downgrade writes the previous form back (each name trimmed and case-folded), from the same
``entities`` column: reversible.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa

from alembic import op
from app.core.text import entity_keys

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 5_000

_READ = sa.text(
    "SELECT id, entities, entity_keys FROM memory_units"
    " WHERE CAST(:after AS uuid) IS NULL OR id > :after ORDER BY id LIMIT :n"
)
# The changed rows of a batch, as one JSON object {id: [key, …]} (arrays of arrays of
# different lengths cannot be unnested in PostgreSQL).
_WRITE = sa.text(
    """
    UPDATE memory_units u
       SET entity_keys = ARRAY(SELECT jsonb_array_elements_text(c.value))
      FROM jsonb_each(CAST(:changed AS jsonb)) AS c
     WHERE u.id = CAST(c.key AS uuid)
    """
)


def _previous(entities: Sequence[str]) -> list[str]:
    """The keys as the versions before 0016 wrote them."""
    return list(dict.fromkeys(e.strip().casefold() for e in entities if e.strip()))


def _rewrite(keys_of: Callable[[Sequence[str]], list[str]]) -> None:
    import json

    with op.get_context().autocommit_block():  # each statement its own transaction
        bind = op.get_bind()
        after = None
        while True:
            rows = bind.execute(_READ, {"after": after, "n": BATCH}).all()
            if not rows:
                break
            changed = {}
            for unit_id, entities, keys in rows:
                want = keys_of(entities or [])
                if want != list(keys or []):
                    changed[str(unit_id)] = want
            if changed:
                bind.execute(_WRITE, {"changed": json.dumps(changed)})
            after = rows[-1][0]


def upgrade() -> None:
    _rewrite(entity_keys)


def downgrade() -> None:
    _rewrite(_previous)
