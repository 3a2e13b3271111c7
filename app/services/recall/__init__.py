"""Recall: the read side of long-term memory (candidates, scoring, rerank, query embeddings,
per-subject indexes and the caches that serve them). The write side is ``app.services.memory``."""
