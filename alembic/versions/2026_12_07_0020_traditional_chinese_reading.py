"""memory_units.value_hash and search_text of units in traditional Chinese rewritten as this
version computes them: the hash of the value's simplified reading (我對花生過敏 hashes as
我对花生过敏, so the two are exact copies), and keyword tokens of both scripts (過敏 and 过敏,
so a question in either finds the unit). ``app.core.text.value_hash`` and ``search_text``
read traditional characters through OpenCC (``app.core.chinese_script``).

Only units whose value, trigger scenario or entities hold a Han character are read (in
batches of 5,000 by id, each batch its own transaction), and only the rows whose hash or
keyword text changes are written: units in simplified Chinese or without Chinese keep theirs.

No downgrade: the previous version finds a unit of this one's hash by the pair decision
(its canonical form of a traditional value is the same text), and its keyword text only
holds more words.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from app.core.text import search_text, value_hash

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 5_000
_HAN = "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"

_READ = sa.text(
    "SELECT id, value, query, entities, value_hash, search_text FROM memory_units"
    " WHERE (CAST(:after AS uuid) IS NULL OR id > :after)"
    " AND (value ~ :han OR coalesce(query, '') ~ :han OR array_to_string(entities, ' ') ~ :han)"
    " ORDER BY id LIMIT :n"
)
_WRITE = sa.text(
    """
    UPDATE memory_units u
       SET value_hash = c.value->>0, search_text = c.value->>1
      FROM jsonb_each(CAST(:changed AS jsonb)) AS c
     WHERE u.id = CAST(c.key AS uuid)
    """
)


def upgrade() -> None:
    import json

    with op.get_context().autocommit_block():  # each statement its own transaction
        bind = op.get_bind()
        after = None
        while True:
            rows = bind.execute(_READ, {"after": after, "n": BATCH, "han": _HAN}).all()
            if not rows:
                break
            changed = {}
            for unit_id, value, query, entities, hashed, indexed in rows:
                want = (value_hash(value), search_text(value, query, " ".join(entities or [])))
                if want != (hashed, indexed):
                    changed[str(unit_id)] = list(want)
            if changed:
                bind.execute(_WRITE, {"changed": json.dumps(changed)})
            after = rows[-1][0]


def downgrade() -> None:
    pass
