"""Python client of the Hindsight API (long-term memory for LLM agents).

    from hindsight_client import Hindsight

    with Hindsight("http://127.0.0.1:8000", api_key="hs_…") as api:
        api.store([{"user_id": "alice", "value": "Alice is allergic to peanuts"}])
        hits = api.recall("what can't Alice eat?", user_id="alice").memories

``AsyncHindsight`` is the same for asyncio. Models: ``hindsight_client.models`` (generated
from the OpenAPI document); errors: ``hindsight_client.errors`` (one class per ``code``).
"""

from hindsight_client import errors, models
from hindsight_client._base import NO_RETRIES, RetryPolicy
from hindsight_client._operations import OPERATIONS
from hindsight_client.client import AsyncHindsight, Hindsight
from hindsight_client.errors import HindsightError

__all__ = [
    "NO_RETRIES",
    "OPERATIONS",
    "AsyncHindsight",
    "Hindsight",
    "HindsightError",
    "RetryPolicy",
    "errors",
    "models",
]
__version__ = "0.1.0"
