"""RecallCaches: the one owner of everything recall keeps per process.

Built once by the composition root (``app.main``'s lifespan) from ``RecallSettings`` and held
in ``Resources.recall``; every recall of the process reads through it. Nothing recall caches
lives in module globals, so two apps in one process (the tests build many) share nothing.

- ``query_embeddings`` (LRU, ``RECALL__QUERY_EMBEDDING_CACHE_SIZE``): the model call for a query
  text seen lately; recall and the working-memory window share it. Never stale: an embedding
  depends only on (model, text).
- ``subjects`` (``RECALL__SUBJECT_CACHE_SIZE``, TTL ``RECALL__SUBJECT_CACHE_TTL_S``): a
  subject's size class and known entity names (a small subject's until a recall's statement
  disagrees, app.services.recall.subjects); a stale entry costs a restart of the recall,
  never a different answer.
- ``rerank`` (``RECALL__RERANK_CACHE_SIZE``, TTL ``RECALL__RERANK_CACHE_TTL_S``): the LLM rerank
  stage's order for a question and candidate set (a changed set is a new key).
- ``statements`` (``app.repositories.recall.statements``): compiled exact-path statements, result
  processors, the keyword index's common lexemes (TTL 300 s), bound query vectors (LRU 1024).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.config import RecallSettings
from app.repositories.recall.statements import RecallStatements
from app.services.recall.query_embeddings import QueryEmbeddingCache
from app.services.recall.rerank_cache import RerankCache
from app.services.recall.subjects import SubjectCache


@dataclass
class RecallCaches:
    """Per-process caches of recall (see the module docstring). ``RecallCaches.disabled()``
    keeps nothing between requests (each recall computes everything afresh)."""

    query_embeddings: QueryEmbeddingCache
    subjects: SubjectCache
    rerank: RerankCache
    statements: RecallStatements = field(default_factory=RecallStatements)

    @classmethod
    def create(cls, settings: RecallSettings) -> RecallCaches:
        """Empty caches sized by ``settings`` (a size of 0 disables that cache)."""
        return cls(
            QueryEmbeddingCache(settings.query_embedding_cache_size),
            SubjectCache(settings.subject_cache_size, settings.subject_cache_ttl_s),
            RerankCache(settings.rerank_cache_size, settings.rerank_cache_ttl_s),
        )

    @classmethod
    def disabled(cls) -> RecallCaches:
        """Caches that keep nothing (processes that do not serve recall repeatedly)."""
        return cls(QueryEmbeddingCache(0), SubjectCache(0, 0), RerankCache(0, 1))
