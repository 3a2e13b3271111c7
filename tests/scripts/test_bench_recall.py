"""scripts/bench_recall.py: the synthetic rows it bulk-loads are valid and keep the keyword
statistics of the real turns, its /store bodies pass validation, and writing its figures
leaves the rest of docs/BENCHMARKS.md alone; the loader fills other subjects of the same size."""

from __future__ import annotations

from datetime import UTC, datetime
from types import ModuleType

import numpy as np
import pytest
from sqlalchemy import text

from app.core.text import search_text, value_hash
from app.schemas.memory import StoreRequest
from tests.scripts import load_script


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("bench_recall")


def _corpus(bench: ModuleType) -> object:
    turns = [
        bench.Turn("c1", "s1", "D1:1", "Caroline", "I went to a LGBTQ support group.", -1),
        bench.Turn("c1", "s1", "D1:2", "Melanie", "I painted a sunrise last week!", 0),
        bench.Turn("c2", "s1", "D1:1", "Nate", "I don't write on Sundays.", -1),
    ]
    vectors = np.eye(3, 384, dtype=np.float32)
    return bench.Corpus(turns, vectors, [("When did Caroline go?", ["Caroline", "Melanie"])])


async def test_variants_differ_in_value_but_not_in_keyword_index(bench, engine) -> None:
    corpus = _corpus(bench)
    copies = len(bench.FRAMINGS) * len(bench.ENDINGS)
    values = [corpus.value(1, c) for c in range(copies)]
    assert len({value_hash(v) for v in values}) == copies  # 42 distinct statements
    lexemes = set()
    async with engine.connect() as conn:
        for v in values:
            found = await conn.scalar(
                text("SELECT tsvector_to_array(to_tsvector('english', :t))"),
                {"t": search_text(v, None, "Melanie")},
            )
            lexemes.add(tuple(sorted(found)))
    assert lexemes == {("last", "melani", "paint", "sunris", "week")}  # framings: stop words


def test_store_bodies_are_new_valid_units(bench) -> None:
    corpus = _corpus(bench)
    body = bench.StoreBodies(corpus, datetime.now(UTC)).batch(100)
    request = StoreRequest(**body)
    assert len(request.memories) == 100
    loaded = {corpus.value(i, c) for i in range(3) for c in range(42)}
    for unit in request.memories:
        assert unit.user_id == bench.SUBJECT
        assert unit.value not in loaded  # a new fact: two turns of different conversations
        speaker = unit.entities[0]
        assert unit.value.startswith(f"{speaker}: ")
        assert sum(t.text in unit.value for t in corpus.turns) == 2


def test_write_section_keeps_other_sections_and_analysis(bench, tmp_path, monkeypatch) -> None:
    doc = tmp_path / "BENCHMARKS.md"
    monkeypatch.setattr(bench, "DOC", doc)
    doc.write_text("# Benchmarks\n\n## Working memory\n\nwm figures\n")
    bench.write_section(f"{bench.SECTION}\n\nfigures 1\n{bench.MARKER}\n")
    doc.write_text(doc.read_text() + "\nhand-written analysis\n\n## Later section\n\nkept\n")
    bench.write_section(f"{bench.SECTION}\n\nfigures 2\n{bench.MARKER}\n")
    result = doc.read_text()
    assert "figures 2" in result and "figures 1" not in result
    for kept in ("## Working memory\n\nwm figures", "hand-written analysis", "## Later section"):
        assert kept in result
    assert result.index("## Working memory") < result.index(bench.SECTION)


async def test_loader_fills_every_subject_and_rebuilds_hnsw(bench, engine, database_url) -> None:
    from app.core.config import get_settings

    corpus = _corpus(bench)
    namespace = get_settings().default_namespace
    loader = bench.BulkLoader(
        database_url, corpus, namespace, "test-model", datetime.now(UTC), other_subjects=2
    )
    timing = await loader.fill_to(10)
    assert timing["copy_rows"] == 30
    assert await loader.fill_to(10) == {}  # full already: nothing written, nothing rebuilt
    await loader.fill_to(12)
    async with engine.connect() as conn:
        rows = await conn.execute(text("SELECT user_id, count(*) FROM memory_units GROUP BY 1"))
        counts = {user: n for user, n in rows}
        assert counts == {"bench-user": 12, "bench-user-1": 12, "bench-user-2": 12}
        repeated = await conn.scalar(
            text(
                "SELECT count(*) FROM (SELECT user_id, value_hash FROM memory_units "
                "GROUP BY 1, 2 HAVING count(*) > 1) d"
            )
        )
        assert repeated == 0  # every row of a subject is a distinct statement
        shared = await conn.scalar(
            text(
                "SELECT count(*) FROM (SELECT session_id FROM memory_units "
                "GROUP BY 1 HAVING count(DISTINCT user_id) > 1) s"
            )
        )
        assert shared == 0  # a session belongs to one subject, as a client's sessions do
        indexes = set(
            (await conn.execute(text("SELECT indexname FROM pg_indexes"))).scalars().all()
        )
    assert set(bench.HNSW_INDEXES) <= indexes
    assert await loader.table_units() == 36
