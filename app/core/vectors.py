"""How embeddings of a given dimension are stored and indexed in PostgreSQL (pgvector).

pgvector's HNSW index takes ``vector`` columns of at most 2,000 dimensions and ``halfvec``
(16-bit floats) of at most 4,000; both types store up to 16,000 (pgvector README, "HNSW" and
"Half-Precision Vectors", 0.7.0+). So:

======================  ==============  ==========================================
dimension               column type     nearest-neighbour search
======================  ==============  ==========================================
1 – 2,000               ``vector``      HNSW (``vector_cosine_ops``)
2,001 – 4,000           ``halfvec``     HNSW (``halfvec_cosine_ops``)
4,001 – 16,000          ``vector``      exact (sequential scan, no ANN index)
======================  ==============  ==========================================

Half precision keeps ~3 significant digits per component: cosine similarities of unit
vectors move by about 1e-3, far below the gaps the dedupe and conflict thresholds rely on.
The migration and the model both call :func:`storage_for` with ``EMBEDDING__DIMENSION``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pgvector.sqlalchemy import HALFVEC, Vector

VECTOR_HNSW_MAX = 2000
HALFVEC_HNSW_MAX = 4000


@dataclass(frozen=True)
class VectorStorage:
    """Column type and index of embeddings of ``dimension`` components."""

    dimension: int
    kind: Literal["vector", "halfvec"]
    indexed: bool

    @property
    def ops(self) -> str:
        """The HNSW operator class for cosine distance."""
        return f"{self.kind}_cosine_ops"

    def column_type(self) -> Any:
        """The SQLAlchemy column type (``Vector(n)`` or ``HALFVEC(n)``)."""
        return HALFVEC(self.dimension) if self.kind == "halfvec" else Vector(self.dimension)

    def describe(self) -> str:
        """One line for the start-up log."""
        where = f"{self.kind}({self.dimension})"
        if self.indexed:
            return f"embeddings: {self.dimension}-d as {where}, HNSW index ({self.ops})"
        return (
            f"embeddings: {self.dimension}-d as {where}, exact nearest-neighbour search "
            f"(pgvector indexes at most {HALFVEC_HNSW_MAX:,} dimensions)"
        )


def storage_for(dimension: int) -> VectorStorage:
    """The storage of ``dimension``-d embeddings (see the module docstring)."""
    if dimension <= VECTOR_HNSW_MAX:
        return VectorStorage(dimension, "vector", indexed=True)
    if dimension <= HALFVEC_HNSW_MAX:
        return VectorStorage(dimension, "halfvec", indexed=True)
    return VectorStorage(dimension, "vector", indexed=False)
