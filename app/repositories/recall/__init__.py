"""SQL of recall: candidate and scoring statements, the exact path for small subjects, per-subject
HNSW indexes. Shared unit filters and the access log stay in ``app.repositories.memory``."""
