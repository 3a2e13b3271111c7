"""What a ``/store`` unit of the pair-decision tests sends beside its value: the type and
entities the labelled pairs are decided with. A unit stored without them gets what its value
reads as (app/services/extraction/store_inferred.py, tester hbreak7 H18/H29), which these
tests are not about: two wordings read as different types are reviewed, not merged."""

from __future__ import annotations

from typing import Any

FACT: dict[str, Any] = {"type": "fact", "entities": []}
